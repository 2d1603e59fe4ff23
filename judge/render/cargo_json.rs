//! The judge's findings in cargo's JSON message format, as `cargo check --message-format=json`
//! prints it: one `compiler-message` a line, then `build-finished`. Editors read it the way
//! they read cargo's (rust-analyzer's `check.overrideCommand`, a problem matcher), so each
//! finding shows where it is: rustc's errors at their lines, newer standard library items
//! as warnings where they are used, a failing verdict at the method's name.

use std::path::Path;

use super::compile::likely_words;
use super::error::{place, submission_error};
use super::json::Json;
use super::{call, expect, units};
use crate::cli::Invocation;
use crate::judging::engine::Fault;
use crate::judging::findings::{Finding, Found, RustcError, Span};
use crate::judging::report::Report;
use crate::judging::verdict::Verdict;
use crate::problem::{leetcode, FN_TYPE, METHOD};

/// Every finding, a message a line, then whether the build, as cargo says it, succeeded:
/// whether no finding is an error. `judge` is the judge's invocation reruns are made from.
pub fn messages(findings: &[Finding], report: &Report, judge: &Invocation, root: &Path) -> String {
    let mut out = String::new();
    for finding in findings {
        out.push_str(&message(finding, report, judge, root).line());
        out.push('\n');
    }
    out.push_str(&finished(!findings.iter().any(Finding::is_error)));
    out
}

/// The line that ends cargo's messages.
pub fn finished(success: bool) -> String {
    let line = Json::object([("reason", Json::str("build-finished")), ("success", Json::Bool(success))]).line();
    format!("{line}\n")
}

/// What a finding says: its level, code, message, the label at its place, and its notes (each
/// a level, a text and perhaps a place of its own).
struct Said {
    level: &'static str,
    code: Option<String>,
    message: String,
    label: Option<String>,
    notes: Vec<(&'static str, String, Option<Span>)>,
    rendered: Option<String>,
}

fn said(finding: &Finding, report: &Report, judge: &Invocation, root: &Path) -> Said {
    let plain =
        |level, message: String| Said { level, code: None, message, label: None, notes: Vec::new(), rendered: None };
    let name = finding.submission.map_or("", |s| report.submissions[s].name.as_str());
    match &finding.found {
        Found::Rustc(error) => Said {
            level: "error",
            code: error.code.clone(),
            message: match error.in_wrapping {
                true => {
                    format!("{}, in LeetCode's own call of `Solution::{METHOD}`, which is `{FN_TYPE}`", error.message)
                }
                false => error.message.clone(),
            },
            label: error.label.clone(),
            notes: (error.notes.iter().map(|(level, text)| (note_level(level), text.clone(), None)))
                .chain(error.likely.iter().map(|l| ("help", format!("likely: {}", likely_words(*l)), None)))
                .collect(),
            rendered: Some(rendered(error)),
        },
        Found::Newer(item) => Said {
            code: Some("clippy::incompatible_msrv".to_string()),
            ..plain(
                "warning",
                format!(
                    "`{}` is stable since Rust {}, newer than LeetCode's Rust {}: a compile error there",
                    item.item, item.since, report.about.leetcode_rust
                ),
            )
        },
        Found::Verdict { case, result, panicked } => {
            let verdict = result.verdict.unwrap_or(Verdict::Re);
            let case = &report.cases[*case];
            let test = &case.tests[result.test];
            let expected = test.expected.as_str();
            let head = format!("{} on {}", verdict.code(), units::escape(&case.test_id(result.test)));
            let reason = call::reason(&result.call, verdict, &report.limits);
            let message = match (&result.call.result, reason) {
                (Ok(answered), None) => {
                    format!("{head}: expected \"{expected}\", got {}", units::answer(&answered.answer, answered.length))
                }
                (Ok(answered), Some(reason)) => format!(
                    "{head}: expected \"{expected}\", got {}; {reason}",
                    units::answer(&answered.answer, answered.length)
                ),
                (Err(_), reason) => format!("{head}: {}; expected \"{expected}\"", reason.unwrap_or_default()),
            };
            let rerun = super::judge_text::rerun(judge, name, Some(&case.test_id(result.test))).shell();
            let mut notes = vec![(
                "note",
                format!("input {}  ({})", units::input(&test.values), place(case, result.test, Some(root))),
                None,
            )];
            if let Some(place) = panicked {
                notes.push(("note", "it panicked here".to_string(), Some(place.clone())));
            }
            notes.push(("help", format!("rerun: {rerun}"), None));
            Said { code: Some(verdict.code().to_string()), notes, ..plain("error", message) }
        }
        Found::Tag { expect, got: Verdict::Ac, ran } => plain(
            "warning",
            format!(
                "tagged {} but passed all {} it ran: the stored cases miss its mistake",
                expect::expect(*expect),
                units::count(*ran, "case")
            ),
        ),
        Found::Tag { expect, got, .. } => {
            plain("warning", format!("tagged {}, but its first failure is {}", expect::expect(*expect), got.code()))
        }
        Found::Fault(fault) => plain("error", format!("not judged: {}", fault_words(fault, report))),
        Found::NotJudged { ran, of } => plain(
            "error",
            format!(
                "not judged: it ran {} of the {} stored testcases, so it has no verdict",
                units::thousands(*ran as u64),
                units::thousands(*of as u64)
            ),
        ),
        Found::Refused(error) => plain("error", submission_error(error)),
    }
}

/// rustc's text of an error, then what it most likely means, as rustc writes a help.
fn rendered(error: &RustcError) -> String {
    let mut text = error.rendered.trim_end().to_string();
    for likely in &error.likely {
        text.push_str(&format!("\n  = help: likely: {}", likely_words(*likely)));
    }
    text.push('\n');
    text
}

fn note_level(level: &str) -> &'static str {
    if level == "help" {
        "help"
    } else {
        "note"
    }
}

fn fault_words(fault: &Fault, report: &Report) -> String {
    match fault {
        Fault::Build(e) | Fault::Spawn(e) => super::error::trouble(e, None),
        Fault::Call(result) => call::reason(&result.call, Verdict::Re, &report.limits).unwrap_or_default(),
    }
}

fn message(finding: &Finding, report: &Report, judge: &Invocation, root: &Path) -> Json {
    let said = said(finding, report, judge, root);
    let file = &finding.file;
    // Spans name the file absolutely: an editor reads a relative name from the folder it ran
    // the check in, which for rust-analyzer by default is the project's (`target/editor`).
    let absolute = root.join(file).display().to_string();
    let code_json = |code: &Option<String>| {
        Json::opt(code.as_ref(), |c| Json::object([("code", Json::str(c)), ("explanation", Json::Null)]))
    };
    let rendered = said.rendered.clone().unwrap_or_else(|| {
        let code = said.code.as_ref().map_or(String::new(), |c| format!("[{c}]"));
        let mut text = format!(
            "{}{code}: {}\n --> {file}:{}:{}\n",
            said.level, said.message, finding.span.line, finding.span.column
        );
        for (level, note, _) in &said.notes {
            text.push_str(&format!("  = {level}: {note}\n"));
        }
        text
    });
    let children: Vec<Json> = said
        .notes
        .iter()
        .map(|(level, text, place)| {
            Json::object([
                ("$message_type", Json::str("diagnostic")),
                ("message", Json::str(text)),
                ("code", Json::Null),
                ("level", Json::str(*level)),
                ("spans", Json::Array(place.iter().map(|p| span(&absolute, p, false, None)).collect())),
                ("children", Json::Array(Vec::new())),
                ("rendered", Json::Null),
            ])
        })
        .collect();
    let diagnostic = Json::object([
        ("$message_type", Json::str("diagnostic")),
        ("message", Json::str(&said.message)),
        ("code", code_json(&said.code)),
        ("level", Json::str(said.level)),
        ("spans", Json::Array(vec![span(&absolute, &finding.span, true, said.label.as_deref())])),
        ("children", Json::Array(children)),
        ("rendered", Json::str(rendered)),
    ]);
    let stem = Path::new(file).file_stem().map_or(String::new(), |s| s.to_string_lossy().into_owned());
    let target = Json::object([
        ("kind", Json::Array(vec![Json::str("bin")])),
        ("crate_types", Json::Array(vec![Json::str("bin")])),
        ("name", Json::str(stem)),
        ("src_path", Json::str(root.join(file).display().to_string())),
        ("edition", Json::str(leetcode::EDITION)),
        ("doc", Json::Bool(false)),
        ("doctest", Json::Bool(false)),
        ("test", Json::Bool(false)),
    ]);
    let package = format!("path+file://{}#{}@{}", root.display(), env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"));
    Json::object([
        ("reason", Json::str("compiler-message")),
        ("package_id", Json::str(package)),
        ("manifest_path", Json::str(root.join("Cargo.toml").display().to_string())),
        ("target", target),
        ("message", diagnostic),
    ])
}

fn span(file: &str, span: &Span, primary: bool, label: Option<&str>) -> Json {
    let int = |n: u32| Json::int(n);
    Json::object([
        ("file_name", Json::str(file)),
        ("byte_start", Json::int(span.byte_start as u64)),
        ("byte_end", Json::int(span.byte_end as u64)),
        ("line_start", int(span.line)),
        ("line_end", int(span.line)),
        ("column_start", int(span.column)),
        ("column_end", int(span.end_column)),
        ("is_primary", Json::Bool(primary)),
        (
            "text",
            Json::Array(vec![Json::object([
                ("text", Json::str(&span.text)),
                ("highlight_start", int(span.column)),
                ("highlight_end", int(span.end_column)),
            ])]),
        ),
        ("label", Json::opt(label, Json::str)),
        ("suggested_replacement", Json::Null),
        ("suggestion_applicability", Json::Null),
        ("expansion", Json::Null),
    ])
}
