//! A compile error as the reports show it: its headline and place on one line, and rustc's
//! diagnostic quoted beneath, its first error alone or the whole of it.

use std::fmt::Write as _;

use super::fit;
use crate::exec::diagnose::CompileError;

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

/// A CE as one block: rustc's first error quoted (its headline, place and snippet), each line
/// cut to the width, and how many more errors there are; the whole diagnostic when `verbose`.
/// Without a diagnostic (the compile time limit), the headline alone.
pub fn block(error: &CompileError, verbose: bool, width: usize) -> String {
    let lines: Vec<&str> = error.diagnostic.trim_end().lines().collect();
    let Some(first) = lines.iter().position(|l| starts_error(l)) else {
        return format!("{}\n", fit::labelled("error", &compile_error(error), width).trim_end());
    };
    let end = if verbose {
        lines.len()
    } else {
        (first + 1..lines.len())
            .find(|&k| starts_error(lines[k]) || lines[k].starts_with("For more"))
            .unwrap_or(lines.len())
    };
    let mut out = String::new();
    let quoted = lines[first..end].iter().rev().skip_while(|l| l.trim().is_empty()).collect::<Vec<_>>();
    for line in quoted.into_iter().rev() {
        let _ = writeln!(out, "{}", fit::cut(format!("  | {line}").trim_end(), width));
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
}
