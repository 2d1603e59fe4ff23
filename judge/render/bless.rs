//! What `judge bless` changed, or with `--check` would change: old -> new for every file, and
//! for a group every line whose answer changed.

use std::fmt::Write as _;
use std::path::Path;

use super::error::{case_problem, format_error, path};
use super::json::Json;
use super::units;
use crate::judging::bless::{Blessed, Broken, What};

fn what(what: &What) -> String {
    match what {
        What::Input { values } => format!("made from its MANIFEST line ({})", units::count(*values, "value")),
        What::Created { answer } => format!("(none) -> \"{}\"", answer.as_str()),
        What::Unparsed { old, new } => format!("{} (not an answer) -> \"{}\"", units::escape(old), new.as_str()),
        What::Changed { old, new } => format!("\"{}\" -> \"{}\"", old.as_str(), new.as_str()),
        What::Reformatted { answer } => format!("\"{}\", rewritten in LeetCode's form", answer.as_str()),
        What::Inputs { testcases } => {
            format!("made from its MANIFEST line ({}, one a line)", units::count(*testcases, "testcase"))
        }
        What::CreatedAll { answers } => {
            format!("(none) -> {} from the oracle, one a line", units::count(*answers, "answer"))
        }
        What::ChangedLines { lines } => {
            let shown: Vec<String> = lines
                .iter()
                .take(LINES_SHOWN)
                .map(|l| format!("line {}: \"{}\" -> \"{}\"", l.line, l.old.as_str(), l.new.as_str()))
                .collect();
            let more = lines.len().saturating_sub(LINES_SHOWN);
            let more = if more > 0 { format!(" and {more} more") } else { String::new() };
            format!("{} changed: {}{more}", units::count(lines.len(), "answer"), shown.join(", "))
        }
        What::UnparsedAll { error, answers } => format!(
            "not one answer a line ({}) -> {} from the oracle",
            format_error(error),
            units::count(*answers, "answer")
        ),
        What::ReformattedAll { answers } => {
            format!("{}, each the oracle's, rewritten one a line", units::count(*answers, "answer"))
        }
    }
}

/// A group's changed answers named one by one, up to this many.
const LINES_SHOWN: usize = 10;

fn broken(broken: &Broken, root: Option<&Path>) -> String {
    match broken {
        Broken::Case(problem) => case_problem(problem, root),
        Broken::Manifest { path: p, error } => format!(
            "{}:{}: not '<name>  judge gen --shape SHAPE --len N --seed SEED' or '<name>  judge gen --max-len N --values LOW..=HIGH' (at most {} arrays): {:?}",
            path(p, root),
            error.line,
            units::thousands(crate::judging::manifest::EVERY_MOST),
            error.text
        ),
        Broken::Write { path: p, error } => format!("{}: {error}", path(p, root)),
    }
}

pub fn text(blessed: &Blessed, root: Option<&Path>) -> String {
    let mut out = String::new();
    let verb = if blessed.wrote { "" } else { "would change " };
    for change in &blessed.changes {
        let _ = writeln!(out, "{verb}{}  {}", path(&change.path, root), what(&change.what));
    }
    for problem in &blessed.broken {
        let _ = writeln!(out, "judge error: {}", broken(problem, root));
    }
    let done = if blessed.wrote { "written" } else { "would be written (--check: nothing was)" };
    let _ = writeln!(
        out,
        "bless: {} {done}, {} unchanged, {} unreadable",
        blessed.changes.len(),
        blessed.unchanged,
        blessed.broken.len()
    );
    out
}

pub fn json(blessed: &Blessed, exit: u8, root: Option<&Path>) -> Json {
    let changes = blessed.changes.iter().map(|c| {
        let (old, new) = match &c.what {
            What::Changed { old, new } => (Some(old.as_str()), Some(new.as_str())),
            What::Created { answer } => (None, Some(answer.as_str())),
            What::Unparsed { new, .. } => (None, Some(new.as_str())),
            What::Reformatted { answer } => (Some(answer.as_str()), Some(answer.as_str())),
            What::Input { .. }
            | What::Inputs { .. }
            | What::CreatedAll { .. }
            | What::ChangedLines { .. }
            | What::UnparsedAll { .. }
            | What::ReformattedAll { .. } => (None, None),
        };
        let lines = match &c.what {
            What::ChangedLines { lines } => Json::Array(
                lines
                    .iter()
                    .map(|l| {
                        Json::object([
                            ("line", Json::int(l.line as i128)),
                            ("old", Json::str(l.old.as_str())),
                            ("new", Json::str(l.new.as_str())),
                        ])
                    })
                    .collect(),
            ),
            _ => Json::Null,
        };
        let old_text = match &c.what {
            What::Unparsed { old, .. } => Some(old.as_str()),
            _ => None,
        };
        Json::object([
            ("file", Json::str(path(&c.path, root))),
            ("old", Json::opt(old, Json::str)),
            ("old_text", Json::opt(old_text, Json::str)),
            ("new", Json::opt(new, Json::str)),
            ("lines", lines),
            ("what", Json::str(what(&c.what))),
        ])
    });
    Json::object([
        ("format_version", Json::int(2)),
        ("command", Json::str("bless")),
        ("exit_status", Json::int(exit)),
        ("wrote", Json::Bool(blessed.wrote)),
        ("changes", Json::Array(changes.collect())),
        ("unchanged", Json::int(blessed.unchanged as i128)),
        ("judge_errors", Json::Array(blessed.broken.iter().map(|b| Json::str(broken(b, root))).collect())),
    ])
}
