//! `judge paste`: what would stop a file pasting into LeetCode, which compiler said so, and
//! the OSC 52 sequence that puts text on the clipboard through the terminal.

use std::fmt::Write as _;

use super::compile::{compile_error, likely, likely_json};
use super::json::Json;
use super::{fit, units};
use crate::cli::Invocation;
use crate::exec::compile::{About, Checks};
use crate::exec::diagnose::Newer;
use crate::judging::paste::{Problem, Stored};
use crate::judging::verdict::Verdict;
use crate::problem::leetcode;

/// What stops the file pasting, one problem a paragraph after `first` (`judge: `), its words
/// wrapped at `width`; `verbose` shows every error rustc gave, not only the first lines.
pub fn problem(first: &str, file: &str, problem: &Problem, rust_version: &str, verbose: bool, width: usize) -> String {
    let line = |first: &str, text: &str| fit::words(first, text, "  ", width);
    match problem {
        Problem::DoesNotCompile { error } => {
            let headline = format!(
                "{file}: does not compile as LeetCode compiles it (edition {}): {}",
                leetcode::EDITION,
                compile_error(error)
            );
            let mut out = line(first, &headline);
            for likely in likely(error) {
                let _ = write!(out, "\n{}", fit::words("  likely: ", &likely, "          ", width));
            }
            if !error.diagnostic.trim().is_empty() {
                let _ = write!(out, "\n{}", super::compile::diagnostic(&error.diagnostic, verbose, "  ").trim_end());
            }
            out
        }
        Problem::TooNew { items } => {
            let mut out = line(first, &format!("{file}: uses what LeetCode's Rust {rust_version} does not have yet:"));
            for item in items {
                let _ = write!(out, "\n{}", line("  ", &newer(item)));
            }
            let setting = "LeetCode's Rust version is a setting: --leetcode-rust VERSION (see the README)";
            let _ = write!(out, "\n{}", line("  ", setting));
            out
        }
        Problem::Unchecked { error } => line(first, &format!("{file}: could not be checked: {error}")),
    }
}

/// One item newer than LeetCode's Rust, where it is used.
pub fn newer(item: &Newer) -> String {
    let place = format!("{}:{}:{}", item.place.file, item.place.line, item.place.column);
    let since = item.since.trim_end_matches(".0");
    format!("{place}: `{}` is stable since Rust {since}", item.item)
}

/// One item newer than LeetCode's Rust, for JSON (the judge's report gives them the same way).
pub fn newer_json(item: &Newer) -> Json {
    Json::object([
        ("item", Json::str(&item.item)),
        ("since", Json::str(&item.since)),
        ("line", Json::int(item.place.line)),
        ("column", Json::int(item.place.column)),
    ])
}

/// Which compiler built the files, against LeetCode's Rust: said once in every report that
/// compiles, short; `notice` says what a compiler other than LeetCode's leaves unchecked.
pub fn compiler(about: &About) -> String {
    let (version, leetcode) = (&about.version, &about.leetcode_rust);
    match about.checks {
        Checks::Everything => format!("compiled by {version}, LeetCode's own Rust {leetcode}"),
        Checks::LibraryItems | Checks::Nothing => format!("compiled by {version}, not LeetCode's Rust {leetcode}"),
    }
}

/// What building with another Rust than LeetCode's leaves unchecked, and the command that
/// installs LeetCode's; None when the compiler is LeetCode's own. Said once a run.
pub fn notice(about: &About) -> Option<String> {
    let leetcode = &about.leetcode_rust;
    let unchecked = match about.checks {
        Checks::Everything => return None,
        Checks::LibraryItems => format!("language features newer than {leetcode} are not checked (library items are)"),
        Checks::Nothing => format!("without clippy-driver, nothing newer than {leetcode} is checked"),
    };
    Some(match &about.incomplete {
        Some(name) => format!(
            "not LeetCode's Rust {leetcode}: rustup's {name} has no standard library yet (still installing, or cut short), so it is not used; {unchecked}; to finish it: {}",
            about.install
        ),
        None => format!(
            "not LeetCode's Rust {leetcode}: {unchecked}; to check as LeetCode does, install it: {}",
            about.install
        ),
    })
}

/// How much of what is newer than LeetCode's Rust was checked, for JSON.
pub fn checks_word(checks: Checks) -> &'static str {
    match checks {
        Checks::Everything => "everything",
        Checks::LibraryItems => "library items",
        Checks::Nothing => "nothing",
    }
}

/// How the file compiles, in the words of the compiler that checked it.
fn compiles(about: &About) -> String {
    let edition = leetcode::EDITION;
    match about.checks {
        Checks::Everything => {
            format!("compiles as LeetCode's Rust {} compiles it (edition {edition})", about.leetcode_rust)
        }
        Checks::LibraryItems => {
            format!("compiles in edition {edition} and uses no library item newer than Rust {}", about.leetcode_rust)
        }
        Checks::Nothing => format!("compiles in edition {edition}"),
    }
}

/// The stored cases it failed, a few named by verdict: `WA on samples/example-1, edge/x; 46 more
/// cases` (a case is a file, or a group as one, and holds one testcase or many).
fn failed(failures: &[(String, Verdict)]) -> String {
    const NAMED: usize = 3;
    let named: Vec<&(String, Verdict)> = failures.iter().take(NAMED).collect();
    let mut groups: Vec<(Verdict, Vec<String>)> = Vec::new();
    for (case, verdict) in named {
        match groups.iter_mut().find(|(v, _)| v == verdict) {
            Some((_, cases)) => cases.push(units::escape(case)),
            None => groups.push((*verdict, vec![units::escape(case)])),
        }
    }
    let mut words: Vec<String> =
        groups.iter().map(|(v, cases)| format!("{} on {}", v.code(), cases.join(", "))).collect();
    if failures.len() > NAMED {
        let more = failures.len() - NAMED;
        words.push(format!("{} more {}", units::thousands(more as u64), if more == 1 { "case" } else { "cases" }));
    }
    words.join("; ")
}

/// Said on stderr, on its own line, when nothing stops the file pasting (stdout holds the
/// file alone): that it compiles, and how it did on the stored cases; `judge` is the command
/// that shows why it failed them.
pub fn ready(file: &str, about: &About, stored: Option<&Stored>, judge: Option<&Invocation>, width: usize) -> String {
    let compiles = compiles(about);
    let words = match stored {
        Some(stored) if !stored.failures.is_empty() => {
            let n = |n: usize| units::thousands(n as u64);
            let of = match stored.judged < stored.cases {
                true => format!("{} it ran (of {}, stopped after 3 TLE)", n(stored.judged), n(stored.cases)),
                false => n(stored.cases),
            };
            let why = judge.map_or(String::new(), |j| format!("; why: {}", j.shell()));
            format!(
                "not ready: {file} {compiles}, but fails {} of the {of} stored testcases ({}){why}",
                n(stored.failed),
                failed(&stored.failures)
            )
        }
        Some(stored) if !stored.accepted => format!(
            "not ready: {file} {compiles}, but was judged on only {} of the {} stored testcases, so it has no verdict{}",
            units::thousands(stored.judged as u64),
            units::thousands(stored.cases as u64),
            judge.map_or(String::new(), |j| format!("; why: {}", j.shell()))
        ),
        Some(stored) => format!(
            "ready to paste: {file} {compiles}, and passes all {} stored testcases",
            units::thousands(stored.cases as u64)
        ),
        None => format!("ready to paste: {file} {compiles}"),
    };
    fit::words("judge: ", &words, "  ", width)
}

pub fn copied(width: usize) -> String {
    let said = "copied through OSC 52: the terminal puts it on the clipboard if it allows that (tmux: \
                set-clipboard on)";
    fit::words("judge: ", said, "  ", width)
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

/// `paste --format json`: whether the file is ready, which compiler checked it, what stops
/// it (each problem structured, as the judge's report gives a compile error and
/// `newer_than_leetcode`, with the words its text says), and the file itself when it is ready.
pub fn json(file: &str, problems: &[Problem], source: &str, about: &About, stored: Option<&Stored>, exit: u8) -> Json {
    let problem_json = |p: &Problem| {
        let text = Json::str(problem("", file, p, &about.leetcode_rust, false, usize::MAX));
        match p {
            Problem::DoesNotCompile { error } => Json::object([
                ("kind", Json::str("does not compile")),
                ("compile_error", Json::str(compile_error(error))),
                ("line", Json::opt(error.place.as_ref(), |p| Json::int(p.line))),
                ("column", Json::opt(error.place.as_ref(), |p| Json::int(p.column))),
                ("likely", likely_json(error)),
                ("diagnostic", Json::str(&error.diagnostic)),
                ("text", text),
            ]),
            Problem::TooNew { items } => Json::object([
                ("kind", Json::str("too new")),
                ("newer_than_leetcode", Json::Array(items.iter().map(newer_json).collect())),
                ("text", text),
            ]),
            Problem::Unchecked { error } => {
                Json::object([("kind", Json::str("unchecked")), ("error", Json::str(error)), ("text", text)])
            }
        }
    };
    Json::object([
        ("format_version", Json::int(2)),
        ("command", Json::str("paste")),
        ("exit_status", Json::int(exit)),
        ("file", Json::str(file)),
        ("leetcode_rust", Json::str(&about.leetcode_rust)),
        ("edition", Json::str(leetcode::EDITION)),
        ("compiler", Json::str(&about.version)),
        ("newer_than_leetcode_checked", Json::str(checks_word(about.checks))),
        ("ready", Json::Bool(problems.is_empty() && stored.is_none_or(|s| s.accepted))),
        (
            "stored_cases",
            Json::opt(stored, |stored| {
                let failure = |(case, verdict): &(String, Verdict)| {
                    Json::object([("case", Json::str(case)), ("verdict", Json::str(verdict.code()))])
                };
                Json::object([
                    ("cases", Json::int(stored.cases as u64)),
                    ("judged", Json::int(stored.judged as u64)),
                    ("accepted", Json::Bool(stored.accepted)),
                    ("failures", Json::Array(stored.failures.iter().map(failure).collect())),
                ])
            }),
        ),
        ("problems", Json::Array(problems.iter().map(problem_json).collect())),
        ("source", if problems.is_empty() { Json::str(source) } else { Json::Null }),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Testcases are counted, cases named: the two are never added together.
    #[test]
    fn failed_cases_are_named_and_the_rest_counted_as_cases() {
        let failures: Vec<(String, Verdict)> = ["samples/example-1", "edge/x", "short/len-1-to-6", "edge/y", "edge/z"]
            .iter()
            .zip([Verdict::Wa, Verdict::Wa, Verdict::Tle, Verdict::Wa, Verdict::Wa])
            .map(|(case, verdict)| (case.to_string(), verdict))
            .collect();
        assert_eq!(failed(&failures), "WA on samples/example-1, edge/x; TLE on short/len-1-to-6; 2 more cases");
        assert_eq!(failed(&failures[..4]), "WA on samples/example-1, edge/x; TLE on short/len-1-to-6; 1 more case");
        let stored = Stored { cases: 19_618, judged: 19_618, failed: 7_663, failures, accepted: false };
        let about = About {
            version: "rustc 1.85.0".into(),
            leetcode_rust: "1.85".into(),
            checks: Checks::Everything,
            install: String::new(),
            incomplete: None,
        };
        let said = ready("solutions/x.rs", &about, Some(&stored), None, 200);
        assert!(said.contains("fails 7,663 of the 19,618 stored testcases (WA on"), "{said}");
    }

    #[test]
    fn base64_matches_the_rfc_examples() {
        let cases = [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foobar", "Zm9vYmFy")];
        for (plain, encoded) in cases {
            assert_eq!(base64(plain.as_bytes()), encoded);
        }
        assert_eq!(osc52("hi"), "\x1b]52;c;aGk=\x07");
    }
}
