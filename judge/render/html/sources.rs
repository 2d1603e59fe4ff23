//! The page's sources: each solution's file, the comment at its top (its idea) set apart from
//! the code; two chosen ones side by side (every one, one after another, without the script).

use std::fmt::Write as _;

use crate::judging::submissions::Submission;
use crate::render::units::markup;

/// The comment at the top of a file, and the rest. The comment's lines are joined into
/// paragraphs that reflow to any width; an indented line (a formula) stays a line of its own.
pub fn idea(source: &str) -> (String, String) {
    let lines: Vec<&str> = source.lines().collect();
    let top = lines.iter().take_while(|l| l.trim_start().starts_with("//")).count();
    let mut comment = String::new();
    for line in &lines[..top] {
        let text = line.trim_start().trim_start_matches('/');
        let text = text.strip_prefix(' ').unwrap_or(text).trim_end();
        let own_line = text.starts_with(' ') || text.is_empty();
        if !comment.is_empty() && !comment.ends_with('\n') {
            comment.push(if own_line { '\n' } else { ' ' });
        }
        comment.push_str(text);
        if own_line {
            comment.push('\n');
        }
    }
    (comment.trim_end().to_string(), lines[top..].join("\n"))
}

fn choice(out: &mut String, side: &str, sources: &[Submission], chosen: usize) {
    let _ = write!(out, "<label>{side} <select class=\"pick\" data-side=\"{side}\">");
    for (k, submission) in sources.iter().enumerate() {
        let selected = if k == chosen { " selected" } else { "" };
        let _ = write!(out, "<option value=\"{k}\"{selected}>{}</option>", markup(&submission.name));
    }
    out.push_str("</select></label> ");
}

pub fn render(sources: &[Submission]) -> String {
    let mut out = String::from("<p class=\"picks\">");
    choice(&mut out, "left", sources, 0);
    choice(&mut out, "right", sources, usize::from(sources.len() > 1));
    out.push_str("</p>\n<div class=\"sources\">\n");
    for (k, submission) in sources.iter().enumerate() {
        let (comment, code) = idea(&submission.source);
        let _ = write!(
            out,
            "<article class=\"source\" data-k=\"{k}\"><h3>{} <small>{}</small></h3>",
            markup(&submission.name),
            markup(&submission.shown)
        );
        if !comment.is_empty() {
            let _ = write!(out, "<p class=\"idea\">{}</p>", markup(&comment));
        }
        let _ = writeln!(out, "<pre><code>{}</code></pre></article>", markup(&code));
    }
    out.push_str("</div>\n");
    out
}
