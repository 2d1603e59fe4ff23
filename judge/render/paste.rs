//! `judge paste`: what would stop a file pasting into LeetCode, and the OSC 52 sequence that
//! puts text on the clipboard through the terminal.

use std::fmt::Write as _;

use super::compile::compile_error;
use super::json::Json;
use crate::exec::diagnose::Newer;
use crate::judging::paste::{Likely, Problem};
use crate::problem::{leetcode, METHOD};

/// What stops the file pasting, one problem a paragraph; `verbose` shows rustc's whole
/// diagnostic, not only its first error.
pub fn problem(file: &str, problem: &Problem, rust_version: &str, verbose: bool) -> String {
    match problem {
        Problem::DoesNotCompile { error, likely } => {
            let mut out = format!(
                "{file}: does not compile as LeetCode compiles it (edition {}): {}",
                leetcode::EDITION,
                compile_error(error)
            );
            if let Some(words) = likely.and_then(likely_words) {
                let _ = write!(out, "\n  likely: {words}");
            }
            let _ = write!(out, "\n{}", super::compile::diagnostic(&error.diagnostic, verbose, "  ").trim_end());
            out
        }
        Problem::TooNew { items } => {
            let mut out = format!("{file}: uses what LeetCode's Rust {rust_version} does not have yet:");
            for item in items {
                let _ = write!(out, "\n  {}", newer(item));
            }
            let _ = write!(out, "\n  LeetCode's Rust version is a setting: --leetcode-rust VERSION (see the README)");
            out
        }
        Problem::Unchecked { error } => format!("{file}: could not be checked: {error}"),
    }
}

/// One item newer than LeetCode's Rust, where it is used.
pub fn newer(item: &Newer) -> String {
    let place = format!("{}:{}:{}", item.place.file, item.place.line, item.place.column);
    let since = item.since.trim_end_matches(".0");
    format!("{place}: `{}` is stable since Rust {since}", item.item)
}

/// What the error most likely means, where its own line does not say it already.
fn likely_words(likely: Likely) -> Option<String> {
    match likely {
        Likely::DeclaresSolution => {
            Some("the file declares `struct Solution`; LeetCode declares it before your code".into())
        }
        Likely::NoMethod => Some(format!("`Solution` has no method `{METHOD}`, the one LeetCode calls")),
        Likely::Signature => None,
    }
}

/// Said on stderr when nothing stops the file pasting; stdout holds the file alone.
pub fn ready(file: &str, rust_version: &str, version_checked: bool) -> String {
    let version = match version_checked {
        true => format!("uses nothing newer than LeetCode's Rust {rust_version}"),
        false => format!(
            "but its Rust version was not checked against LeetCode's {rust_version}: this toolchain has no clippy-driver (rustup component add clippy)"
        ),
    };
    format!(
        "judge: {file} is ready to paste: it compiles as LeetCode compiles it (edition {}) and {version}",
        leetcode::EDITION
    )
}

pub fn copied() -> &'static str {
    "judge: copied through OSC 52: the terminal puts it on the clipboard if it allows that (tmux: set-clipboard on)"
}

pub fn not_copied() -> &'static str {
    "judge: not copied: --copy writes an OSC 52 sequence to the terminal, and standard output is not one"
}

/// Terminals that honour OSC 52 copy what follows `52;c;` (base64) to the clipboard.
pub fn osc52(text: &str) -> String {
    format!("\x1b]52;c;{}\x07", base64(text.as_bytes()))
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = (u32::from(chunk[0]) << 16)
            | (u32::from(*chunk.get(1).unwrap_or(&0)) << 8)
            | u32::from(*chunk.get(2).unwrap_or(&0));
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// `paste --format json`: whether the file is ready, what stops it (each problem as its text
/// says it), and the file itself when it is ready.
pub fn json(file: &str, problems: &[Problem], source: &str, rust_version: &str, exit: u8) -> Json {
    let said = problems.iter().map(|p| Json::str(problem(file, p, rust_version, false)));
    Json::object([
        ("format_version", Json::int(2)),
        ("command", Json::str("paste")),
        ("exit_status", Json::int(exit)),
        ("file", Json::str(file)),
        ("leetcode_rust", Json::str(rust_version)),
        ("edition", Json::str(leetcode::EDITION)),
        ("ready", Json::Bool(problems.is_empty())),
        ("problems", Json::Array(said.collect())),
        ("source", if problems.is_empty() { Json::str(source) } else { Json::Null }),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_rfc_examples() {
        let cases = [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foobar", "Zm9vYmFy")];
        for (plain, encoded) in cases {
            assert_eq!(base64(plain.as_bytes()), encoded);
        }
        assert_eq!(osc52("hi"), "\x1b]52;c;aGk=\x07");
    }
}
