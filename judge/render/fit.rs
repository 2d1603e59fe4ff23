//! Text fitted to a width, for reports read on a terminal: a line cut with `…`, words wrapped
//! under a hanging indent, and a command continued on the next line with a backslash, which a
//! POSIX shell reads back as one command. Widths are counted in characters.

use crate::cli::{shell_word, Invocation, PROGRAM};

/// The width of a report that does not go to a terminal.
pub const DEFAULT_WIDTH: usize = 100;
/// No report is laid out narrower than this, whatever the terminal says.
pub const NARROWEST: usize = 40;

/// How many characters `text` holds.
pub fn chars(text: &str) -> usize {
    text.chars().count()
}

/// `text` cut to `width` characters, its last one `…` when anything was cut.
pub fn cut(text: &str, width: usize) -> String {
    if chars(text) <= width {
        return text.to_string();
    }
    let kept: String = text.chars().take(width.saturating_sub(1)).collect();
    format!("{kept}…")
}

/// `text` cut to `width` characters with `…` after its first `head`: its start and its end
/// kept.
fn cut_after(text: &str, width: usize, head: usize) -> String {
    let length = chars(text);
    if length <= width {
        return text.to_string();
    }
    let kept = width.saturating_sub(1);
    let start: String = text.chars().take(head.min(kept)).collect();
    let end: String = text.chars().skip(length - (kept - head.min(kept))).collect();
    format!("{start}…{end}")
}

/// `names` each cut in the middle to `width` characters; where that makes two the same, the cut
/// is moved, a character at a time either way, to the nearest place that keeps them apart.
pub fn cut_apart(names: &[String], width: usize) -> Vec<String> {
    let kept = width.saturating_sub(1);
    let cut = |head: usize| -> Vec<String> { names.iter().map(|name| cut_after(name, width, head)).collect() };
    let apart = |cuts: &[String]| {
        let mut seen = std::collections::HashSet::new();
        cuts.iter().all(|c| seen.insert(c))
    };
    let middle = kept / 2;
    let heads = (0..=kept).map(|d| if d % 2 == 0 { middle.checked_sub(d / 2) } else { Some(middle + d.div_ceil(2)) });
    heads.flatten().filter(|&h| h <= kept).map(cut).find(|cuts| apart(cuts)).unwrap_or_else(|| cut(middle))
}

/// `first` (which starts the first line) then `text`'s words, wrapped at `width` with every
/// later line starting with `indent`; a word longer than a line stays whole. No newline at the
/// end.
pub fn words(first: &str, text: &str, indent: &str, width: usize) -> String {
    let mut out = first.to_string();
    let mut line = chars(first);
    let mut fresh = true;
    // Split at every space, so that a run of spaces inside a line stays as it was.
    for word in text.trim().split(' ') {
        let wanted = chars(word) + usize::from(!fresh);
        if !fresh && line + wanted > width {
            out.push('\n');
            out.push_str(indent);
            line = chars(indent);
            fresh = true;
        }
        if !fresh {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += chars(word);
        fresh = false;
    }
    out
}

/// A report line `  label     text`, wrapped under the text's first column; with a newline.
pub fn labelled(label: &str, text: &str, width: usize) -> String {
    let first = format!("  {label:<9} ");
    let indent = " ".repeat(chars(&first));
    format!("{}\n", words(&first, text, &indent, width))
}

/// `items` joined by `separator`, a new line before an item that would pass `width`; an item
/// longer than a line is wrapped at its spaces.
pub fn joined(items: &[String], separator: &str, width: usize) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for item in items {
        if !line.is_empty() && chars(&line) + chars(separator) + chars(item) <= width {
            line.push_str(separator);
            line.push_str(item);
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        line = words("", item, "  ", width);
        if let Some((done, last)) = line.rsplit_once('\n') {
            lines.push(done.to_string());
            line = last.to_string();
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines.join("\n")
}

/// `first` then the command, on as many lines as `width` needs: every line but the last ends
/// with ` \`, and the next starts under the command, indented; a flag stays with its value.
/// No newline at the end.
pub fn command(first: &str, invocation: &Invocation, width: usize) -> String {
    let mut groups: Vec<String> = vec![PROGRAM.to_string()];
    let words = invocation.words();
    let mut k = 0;
    while k < words.len() {
        let mut group = shell_word(&words[k]);
        let takes_value = words[k].starts_with("--") && words[k] != "--" && !words[k].contains('=');
        if takes_value && words.get(k + 1).is_some_and(|w| !w.starts_with("--")) {
            group = format!("{group} {}", shell_word(&words[k + 1]));
            k += 1;
        }
        groups.push(group);
        k += 1;
    }
    let indent = chars(first) + 4;
    let mut out = first.to_string();
    let mut line = chars(first);
    for (i, group) in groups.iter().enumerate() {
        // Room for the group, and for the ` \` that would follow it if another line comes.
        let room = if i + 1 < groups.len() { 2 } else { 0 };
        if i > 0 && line + 1 + chars(group) + room > width {
            // A group too long for the indent (a long path) gets less of it, down to two.
            let indent = indent.min(width.saturating_sub(chars(group) + room)).max(2);
            out.push_str(" \\\n");
            out.push_str(&" ".repeat(indent));
            line = indent;
        } else if i > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(group);
        line += chars(group);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{flags, Command, Value};

    #[test]
    fn a_long_line_is_cut_and_words_wrap_under_their_indent() {
        assert_eq!(cut("abcdef", 4), "abc…");
        assert_eq!(cut("abc", 4), "abc");
        assert_eq!(words("  why  ", "one two three four", "       ", 18), "  why  one two\n       three four");
        assert_eq!(words("", "a  b", "", 10), "a  b");
        assert_eq!(labelled("input", "[1,2,3]", 80), "  input     [1,2,3]\n");
        let items: Vec<String> = ["#1 aaaa", "#2 bbbb", "#3 cccc"].map(String::from).to_vec();
        assert_eq!(joined(&items, " · ", 17), "#1 aaaa · #2 bbbb\n#3 cccc");
        assert_eq!(joined(&items, " · ", 100), "#1 aaaa · #2 bbbb · #3 cccc");
    }

    #[test]
    fn names_cut_in_the_middle_stay_apart() {
        let one = |name: &str| cut_apart(&[name.to_string()], 12).remove(0);
        assert_eq!((one("samples/example-1"), one("short")), ("sampl…mple-1".to_string(), "short".to_string()));
        let names: Vec<String> = (1..=5).map(|k| format!("samples/example-{k}")).collect();
        let cut = cut_apart(&names, 10);
        assert!(cut.iter().all(|c| chars(c) == 10), "{cut:?}");
        assert_eq!(cut.iter().collect::<std::collections::HashSet<_>>().len(), 5, "{cut:?}");
        // Apart only near the start: the cut moves toward the end.
        let long: Vec<String> = ["edge/x-aaaaaaaaaaaaaaaa-1", "edge/y-aaaaaaaaaaaaaaaa-1"].map(String::from).to_vec();
        let cut = cut_apart(&long, 9);
        assert_ne!(cut[0], cut[1], "{cut:?}");
        assert_eq!(cut_after(&long[0], 9, 4), cut_after(&long[1], 9, 4), "the middle cut makes them one");
    }

    #[test]
    fn a_command_continues_with_a_backslash_and_keeps_flags_with_their_values() {
        let invocation = Invocation::new(Command::Judge)
            .set(&flags::SOLUTION, [Value::Text("wrong/three_pile_guard_off_by_one".into())])
            .set(&flags::CASE, [Value::Text("samples/example-1".into())]);
        let shown = command("  rerun     ", &invocation, 80);
        assert!(shown.lines().all(|l| chars(l) <= 80), "{shown}");
        assert!(shown.contains(" \\\n"), "{shown}");
        let back: String = shown.replace(" \\\n", " ").split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(back, format!("rerun {}", invocation.shell()));
        assert!(shown.lines().any(|l| l.trim_start().starts_with("--case samples/example-1")), "{shown}");
        assert_eq!(command("", &invocation, 200), invocation.shell());
    }
}
