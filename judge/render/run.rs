//! `judge run`, like LeetCode's Run button: for each testcase the input, the oracle's answer,
//! then each solution's verdict, answer, time and memory, and what it printed, line by line;
//! when a solution gets one wrong, the oracle's explanation and, for a long input, the command
//! that shrinks it to a smaller failing case. `--plain`: one line per testcase, the answer or
//! the verdict in its place, as a program prints them.

use std::fmt::Write as _;

use super::call;
use super::compile::{compile_error, likely};
use super::explanation;
use super::fit;
use super::json::Json;
use super::style::Style;
use super::table;
use super::units;
use crate::cli::{flags, Command, Invocation, Value};
use crate::judging::engine::CaseResult;
use crate::judging::report::{took, Report};
use crate::judging::verdict::Verdict;

/// Where the testcases came from, for the command that shrinks one.
#[derive(Clone, Copy, Debug)]
pub enum Typed<'a> {
    /// On the command line, or on stdin.
    ByHand,
    /// From `--file`.
    File(&'a str),
}

/// The result of solution `s` on testcase `c`.
fn result(report: &Report, s: usize, c: usize) -> Option<&CaseResult> {
    report.cards[s].results.get(c).and_then(Option::as_ref)
}

/// The verdict of solution `s` on testcase `c`: CE when it did not compile.
fn verdict(report: &Report, s: usize, c: usize) -> Option<Verdict> {
    match &report.cards[s].compiled {
        Some(Err(_)) => Some(Verdict::Ce),
        _ => result(report, s, c).and_then(|r| r.verdict),
    }
}

/// The command that shrinks testcase `c` for the solutions that got it wrong, where one can
/// be typed: the input itself when it is short enough, else the file it came from.
fn shorter(report: &Report, c: usize, wrong: &[&str], from: Typed, invocation: &Invocation) -> Option<Invocation> {
    let values = &report.cases[c].tests[0].values;
    let names = wrong.iter().map(|name| Value::Text(name.to_string()));
    let stress =
        Invocation::new(Command::Stress).with_flags_of(invocation, &flags::VERDICT).set(&flags::SOLUTION, names);
    match (super::counterexample::typed(values), from) {
        (Some(whole), _) => Some(stress.with_positional([whole])),
        (None, Typed::File(file)) => Some(stress.set(&flags::FILE, [Value::Text(file.to_string())])),
        (None, Typed::ByHand) => None,
    }
}

/// The report; `invocation` is the command it answers, whose limits a printed command keeps.
pub fn text(report: &Report, style: Style, width: usize, from: Typed, invocation: &Invocation) -> String {
    let mut out = String::new();
    let several = report.cases.len() > 1;
    for (c, case) in report.cases.iter().enumerate() {
        if several {
            let _ = writeln!(out, "{}", style.bold(&format!("testcase {}", c + 1)));
        }
        let test = &case.tests[0];
        out.push_str(&fit::words("input     ", &units::input(&test.values), "          ", width));
        out.push('\n');
        let _ = writeln!(out, "expected  \"{}\"  (the oracle's answer)\n", test.expected.as_str());
        let head = ["solution", "verdict", "answer", "time", "peak mem"];
        let mut rows = Vec::new();
        for (s, submission) in report.submissions.iter().enumerate() {
            let row = match (verdict(report, s, c), result(report, s, c)) {
                (Some(Verdict::Ce), _) => vec![submission.name.clone(), "CE".into()],
                (_, Some(result)) => {
                    let answered = result.call.result.as_ref().ok();
                    vec![
                        submission.name.clone(),
                        result.verdict.map_or("-".into(), |v| v.code().to_string()),
                        answered.map_or(String::new(), |a| units::answer(&a.answer, a.length)),
                        took(&result.call).filter(|t| !t.cut).map_or(String::new(), |t| units::duration(t.time)),
                        units::kib(answered.and_then(|a| a.peak_kib)),
                    ]
                }
                _ => vec![submission.name.clone(), "-".into()],
            };
            rows.push(row);
        }
        let lines = table::fitted(&head, &rows, &[3, 4], width, &[4, 2], &[0]);
        let _ = writeln!(out, "{}", style.bold(&lines[0]));
        for (s, line) in lines[1..].iter().enumerate() {
            let _ = writeln!(out, "{line}");
            if let Some(Err(error)) = &report.cards[s].compiled {
                out.push_str(&fit::labelled("error", &compile_error(error), width));
                for line in likely(error) {
                    out.push_str(&fit::labelled("likely", &line, width));
                }
            }
            let Some(result) = result(report, s, c) else { continue };
            if let Some(reason) = result.verdict.and_then(|v| call::reason(&result.call, v, &report.limits)) {
                out.push_str(&fit::labelled("reason", &reason, width));
            }
            out.push_str(&call::output(&result.call, width));
            if let Some(said) = super::judge_text::alone(&report.cases[c], result, &report.limits) {
                out.push_str(&fit::labelled("alone", &said, width));
            }
        }
        let wrong: Vec<&str> = (0..report.submissions.len())
            .filter(|&s| verdict(report, s, c).is_some_and(|v| v != Verdict::Ac))
            .map(|s| report.submissions[s].name.as_str())
            .collect();
        if let (false, Some(explained)) = (wrong.is_empty(), report.explained(c, 0)) {
            let said = format!("not the oracle's answer: {}", wrong.join(", "));
            let _ = writeln!(out, "\n{}", style.bad(&fit::words("", &said, "  ", width)));
            let _ = writeln!(out, "why \"{}\":", test.expected.as_str());
            out.push_str(&explanation::lines(explained, width));
            let shorter = || shorter(report, c, &wrong, from, invocation);
            out.push_str(&explanation::shorter(explained, shorter, width));
        }
        if several && c + 1 < report.cases.len() {
            out.push('\n');
        }
    }
    out
}

/// `--plain`: one line per testcase, in order, for the one solution: the answer as LeetCode
/// prints it, or in place of an answer that did not come, the verdict (`RE`, `TLE`, `CE`).
/// And on stderr, one line for each testcase that got no answer, saying why.
pub fn plain(report: &Report) -> (String, Vec<String>) {
    let (mut lines, mut notes) = (String::new(), Vec::new());
    let name = report.submissions.first().map_or("", |s| s.name.as_str());
    for c in 0..report.cases.len() {
        let answered = result(report, 0, c).and_then(|r| r.call.result.as_ref().ok());
        if let Some(answered) = answered {
            let _ = writeln!(lines, "\"{}\"", units::escape(&String::from_utf8_lossy(&answered.answer)));
            continue;
        }
        let verdict = verdict(report, 0, c);
        let _ = writeln!(lines, "{}", verdict.map_or("-", Verdict::code));
        let why = match (&report.cards.first().and_then(|c| c.compiled.as_ref()), result(report, 0, c)) {
            (Some(Err(error)), _) => compile_error(error),
            (_, Some(r)) => r.verdict.and_then(|v| call::reason(&r.call, v, &report.limits)).unwrap_or_default(),
            _ => "not run".to_string(),
        };
        notes.push(format!("judge: {name} on testcase {}: {}: {why}", c + 1, verdict.map_or("-", Verdict::code)));
    }
    (lines, notes)
}

/// Said when `run` reads its testcases from a terminal: what it waits for, wrapped at `width`,
/// and on a line of its own the command that gives one instead, whole.
pub fn reading_stdin(invocation: &Invocation, width: usize) -> String {
    let example = invocation.clone().with_positional(["[1,2,3,7]".to_string()]);
    let waits = "reading testcases from the terminal, one per line; Ctrl-D ends them";
    format!(
        "{}
  or give one: {}",
        super::fit::words("judge: ", waits, "  ", width),
        example.shell()
    )
}

pub fn json(report: &Report, exit: u8) -> Json {
    let testcases = report.cases.iter().enumerate().map(|(c, case)| {
        let solutions = report.submissions.iter().enumerate().map(|(s, submission)| {
            let card = &report.cards[s];
            let mut fields = vec![
                ("name", Json::str(&submission.name)),
                ("verdict", Json::opt(verdict(report, s, c), |v| Json::str(v.code()))),
                (
                    "compile_error",
                    Json::opt(card.compiled.as_ref().and_then(|c| c.as_ref().err()), |e| Json::str(compile_error(e))),
                ),
            ];
            if let Some(result) = result(report, s, c) {
                fields.extend(call::fields(&result.call));
                let reason = result.verdict.and_then(|v| call::reason(&result.call, v, &report.limits));
                fields.push(("reason", Json::opt(reason, Json::str)));
            }
            Json::object(fields)
        });
        let mut fields = vec![
            ("input", Json::str(crate::problem::format::write_input(&case.tests[0].values).trim_end())),
            ("expected", Json::str(case.tests[0].expected.as_str())),
            ("solutions", Json::Array(solutions.collect())),
        ];
        fields.extend(report.explained(c, 0).and_then(explanation::fields).into_iter().flatten());
        Json::object(fields)
    });
    Json::object([
        ("format_version", Json::int(2)),
        ("command", Json::str("run")),
        ("exit_status", Json::int(exit)),
        ("testcases", Json::Array(testcases.collect())),
    ])
}
