//! A compile error as the reports show it: its headline and place on one line, and rustc's
//! diagnostic quoted beneath, its first error alone or the whole of it.

use std::fmt::Write as _;

use super::fit;
use super::json::Json;
use crate::exec::diagnose::{CompileError, Likely, Place};
use crate::problem::{FN_TYPE, METHOD};

/// Lines of rustc's whole diagnostic shown, unless `--verbose`.
const DIAGNOSTIC_SHOWN: usize = 30;

/// The error's headline and where it points, in one line.
pub fn compile_error(error: &CompileError) -> String {
    let call = || {
        format!(
            "in LeetCode's own call `Solution::{}(stone_value)`: a `Vec<i32>` in, a `String` out",
            crate::problem::METHOD
        )
    };
    match (&error.place, error.signature()) {
        (Some(place), false) => format!("{} --> {}:{}:{}", error.headline, place.file, place.line, place.column),
        (Some(place), true) => {
            format!("{}, {} (the method: {}:{}:{})", error.headline, call(), place.file, place.line, place.column)
        }
        (None, true) => format!("{}, {}", error.headline, call()),
        (None, false) => error.headline.clone(),
    }
}

/// What a compile error most likely means, in plain words.
pub fn likely_words(likely: Likely) -> String {
    match likely {
        Likely::DeclaresSolution => {
            "the file declares `struct Solution`; LeetCode declares it itself, after your code: remove yours".into()
        }
        Likely::HasMain => format!(
            "the file has a `fn main`; LeetCode writes its own `main`, which calls `Solution::{METHOD}`: remove yours"
        ),
        Likely::Empty => format!(
            "the file holds no code: LeetCode calls `Solution::{METHOD}`, and the file must define it in `impl Solution`"
        ),
        Likely::NoImpl => format!(
            "the file has no `impl Solution`: LeetCode calls `Solution::{METHOD}`, so the method goes in `impl Solution {{ … }}`"
        ),
        Likely::NoMethod => format!(
            "`Solution` has no method `{METHOD}`, the one LeetCode calls: the method must have that name, in snake_case"
        ),
        Likely::Signature => {
            format!("LeetCode calls the method as a `{FN_TYPE}`: its line is `{}`", signature())
        }
    }
}

/// The method's line as LeetCode's editor starts it.
fn signature() -> &'static str {
    let line = crate::problem::TEMPLATE.lines().find(|l| l.contains(METHOD)).unwrap_or_default();
    line.trim().trim_end_matches('{').trim_end()
}

fn place(place: &Place) -> String {
    format!("{}:{}:{}", place.file, place.line, place.column)
}

/// Each thing the error most likely means, after the place in the file it is about:
/// `solutions/x.rs:23:1: the file has a `fn main`; …`.
pub fn likely(error: &CompileError) -> Vec<String> {
    error.likely.iter().map(|(likely, at)| format!("{}: {}", place(at), likely_words(*likely))).collect()
}

/// The same, for JSON: each its words, line and column.
pub fn likely_json(error: &CompileError) -> Json {
    let one = |(likely, at): &(Likely, Place)| {
        Json::object([
            ("text", Json::str(likely_words(*likely))),
            ("line", Json::int(at.line)),
            ("column", Json::int(at.column)),
        ])
    };
    Json::Array(error.likely.iter().map(one).collect())
}

/// Whether a line of rustc's output starts an error of its own.
fn starts_error(line: &str) -> bool {
    line.starts_with("error") && !line.starts_with("error: aborting")
}

/// rustc's whole diagnostic, indented, cut at `DIAGNOSTIC_SHOWN` lines unless `verbose`.
pub fn diagnostic(text: &str, verbose: bool, indent: &str) -> String {
    let lines: Vec<&str> = text.trim_end().lines().collect();
    let shown = if verbose { lines.len() } else { lines.len().min(DIAGNOSTIC_SHOWN) };
    let mut out = String::new();
    for line in &lines[..shown] {
        let _ = writeln!(out, "{}", format!("{indent}| {line}").trim_end());
    }
    if shown < lines.len() {
        let _ = writeln!(out, "{indent}| … {} more lines: --verbose shows them all", lines.len() - shown);
    }
    out
}

/// A line of rustc's own words (`error[E0599]: …`, `= note: …`), which wraps at spaces: the
/// rest (a snippet and the marks under it) keeps its columns and is cut to the width.
fn prose(line: &str) -> bool {
    let trimmed = line.trim_start();
    ["error", "warning", "note:", "help:", "= note:", "= help:"].iter().any(|p| trimmed.starts_with(p))
}

/// A CE as one block: what the error most likely means for a LeetCode file and where, each on a
/// `likely` line; then rustc's first error quoted (its headline, place and snippet), each line
/// fitted to the width, and how many more errors there are. With `verbose`, rustc's whole
/// diagnostic, no line cut. Without a diagnostic (the compile time limit), the headline alone.
pub fn block(error: &CompileError, verbose: bool, width: usize) -> String {
    let mut out = String::new();
    for line in likely(error) {
        out.push_str(&fit::labelled("likely", &line, width));
    }
    let lines: Vec<&str> = error.diagnostic.trim_end().lines().collect();
    let Some(first) = lines.iter().position(|l| starts_error(l)) else {
        out.push_str(&fit::labelled("error", &compile_error(error), width));
        return out;
    };
    let end = if verbose {
        lines.len()
    } else {
        (first + 1..lines.len())
            .find(|&k| starts_error(lines[k]) || lines[k].starts_with("For more"))
            .unwrap_or(lines.len())
    };
    let quoted = lines[first..end].iter().rev().skip_while(|l| l.trim().is_empty()).collect::<Vec<_>>();
    for line in quoted.into_iter().rev() {
        let quoted = format!("  | {line}");
        let shown = match (prose(line), verbose) {
            (true, _) => {
                let margin = " ".repeat(line.len() - line.trim_start().len());
                fit::words(&format!("  | {margin}"), line, &format!("  | {margin}  "), width)
            }
            (false, true) => quoted.trim_end().to_string(),
            (false, false) => fit::cut(quoted.trim_end(), width),
        };
        let _ = writeln!(out, "{shown}");
    }
    let more = lines[end..].iter().filter(|l| starts_error(l)).count();
    if more > 0 && !verbose {
        let errors = if more == 1 { "error" } else { "errors" };
        let _ = writeln!(out, "  | … and {more} more {errors}: --verbose shows rustc's whole diagnostic");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = "error[E0308]: mismatched types\n --> solutions/x.rs:3:22\n  |\n3 |  let x: i32 = \"a\";\n  |               ^^^ expected `i32`\n\nerror[E0308]: mismatched types\n --> solutions/x.rs:4:21\n\nerror: aborting due to 2 previous errors\n\nFor more information about this error, try `rustc --explain E0308`.\n";

    #[test]
    fn a_ce_block_quotes_the_first_error_once_and_counts_the_others() {
        let error = CompileError::whole("error[E0308]: mismatched types".into(), TWO.into());
        let shown = block(&error, false, 80);
        assert_eq!(shown.matches("mismatched types").count(), 1, "{shown}");
        assert!(shown.starts_with("  | error[E0308]: mismatched types\n  |  --> solutions/x.rs:3:22\n"), "{shown}");
        assert!(shown.ends_with("  | … and 1 more error: --verbose shows rustc's whole diagnostic\n"), "{shown}");
        assert_eq!(block(&error, true, 80).matches("mismatched types").count(), 2);
        let timed_out = CompileError::whole("compile time limit".into(), String::new());
        assert_eq!(block(&timed_out, false, 80), "  error     compile time limit\n");
    }

    #[test]
    fn a_ce_block_says_what_the_error_likely_means_and_verbose_cuts_nothing() {
        let long = "error[E0599]: no function or associated item named `stone_game_iii` found for struct `Solution` in the current scope\n  |\n3 |     let a_rather_long_name_for_a_value_that_makes_this_snippet_line_pass_eighty = 1;\n";
        let mut error = CompileError::whole("error[E0599]: no function".into(), long.into());
        let at = Place { file: "solutions/x.rs".into(), line: 2, column: 12 };
        error.likely = vec![(Likely::NoMethod, at)];
        let shown = block(&error, false, 80);
        assert!(
            shown.starts_with("  likely    solutions/x.rs:2:12: `Solution` has no method `stone_game_iii`"),
            "{shown}"
        );
        assert!(shown.lines().all(|l| fit::chars(l) <= 80), "{shown}");
        assert!(
            shown.contains(
                "  | error[E0599]: no function or associated item named `stone_game_iii` found\n  |   for struct"
            ),
            "{shown}"
        );
        assert!(shown.contains("…"), "the snippet line is cut: {shown}");
        let whole = block(&error, true, 80);
        assert!(!whole.contains('…') && whole.contains("pass_eighty = 1;"), "{whole}");
    }
}
