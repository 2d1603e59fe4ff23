//! `judge run`, like LeetCode's Run button: for each testcase the input, the oracle's answer,
//! then each solution's verdict, answer, time and memory, and what it printed, line by line.
//! When a solution gets a short testcase wrong, the oracle's explanation follows.

use std::fmt::Write as _;

use super::error::compile_error;
use super::json::Json;
use super::judge_json::{call_fields, explanation};
use super::style::Style;
use super::table;
use super::units;
use super::words;
use crate::cli::{flags, Command, Invocation, Value};
use crate::judging::engine::CaseResult;
use crate::judging::report::Report;
use crate::judging::verdict::Verdict;

/// The result of solution `s` on testcase `c`.
fn result(report: &Report, s: usize, c: usize) -> Option<&CaseResult> {
    report.cards[s].results.get(c).and_then(Option::as_ref)
}

pub fn text(report: &Report, style: Style) -> String {
    let mut out = String::new();
    let several = report.cases.len() > 1;
    for (c, case) in report.cases.iter().enumerate() {
        if several {
            let _ = writeln!(out, "{}", style.bold(&format!("testcase {}", c + 1)));
        }
        let _ = writeln!(out, "input     {}", units::input(&case.values));
        let _ = writeln!(out, "expected  \"{}\"  (the oracle's answer)\n", case.expected.as_str());
        let head = ["solution", "verdict", "answer", "time", "peak mem"];
        let mut rows = Vec::new();
        for (s, submission) in report.submissions.iter().enumerate() {
            let row = match (&report.cards[s].compiled, result(report, s, c)) {
                (Some(Err(_)), _) => vec![submission.name.clone(), "CE".into()],
                (_, Some(result)) => {
                    let answered = result.call.result.as_ref().ok();
                    vec![
                        submission.name.clone(),
                        result.verdict.map_or("-".into(), |v| v.code().to_string()),
                        answered.map_or(String::new(), |a| units::answer(&a.answer, a.length)),
                        answered.map_or(String::new(), |a| units::nanos(a.nanos)),
                        units::kib(answered.and_then(|a| a.peak_kib)),
                    ]
                }
                _ => vec![submission.name.clone(), "-".into()],
            };
            rows.push(row);
        }
        let lines = table::layout(&head, &rows, &[3, 4]);
        let _ = writeln!(out, "{}", style.bold(&lines[0]));
        for (s, line) in lines[1..].iter().enumerate() {
            let _ = writeln!(out, "{line}");
            if let Some(Err(error)) = &report.cards[s].compiled {
                let _ = writeln!(out, "  error     {}", compile_error(error));
            }
            let Some(result) = result(report, s, c) else { continue };
            if let Some(reason) = result.verdict.and_then(|v| words::reason(&result.call, v, &report.limits)) {
                let _ = writeln!(out, "  reason    {reason}");
            }
            for (label, printed) in [("stdout", &result.call.stdout), ("stderr", &result.call.stderr)] {
                if printed.total > 0 {
                    out.push_str(&words::printed(label, &printed.head, printed.total, "  "));
                }
            }
        }
        let wrong: Vec<&str> = (0..report.submissions.len())
            .filter(|&s| result(report, s, c).is_none_or(|r| r.verdict != Some(Verdict::Ac)))
            .map(|s| report.submissions[s].name.as_str())
            .collect();
        if !wrong.is_empty() {
            let _ = writeln!(out, "\n{}", style.bad(&format!("not the oracle's answer: {}", wrong.join(", "))));
            let _ = writeln!(out, "why \"{}\":", case.expected.as_str());
            let names = wrong.iter().map(|name| Value::Text(name.to_string()));
            let shorter = Invocation::new(Command::Stress).set(&flags::SOLUTION, names);
            out.push_str(&words::why(&case.values, "  ", &shorter.shell()));
        }
        if several && c + 1 < report.cases.len() {
            out.push('\n');
        }
    }
    out
}

pub fn json(report: &Report, exit: u8) -> Json {
    let testcases = report.cases.iter().enumerate().map(|(c, case)| {
        let solutions = report.submissions.iter().enumerate().map(|(s, submission)| {
            let card = &report.cards[s];
            let result = result(report, s, c);
            let verdict = match &card.compiled {
                Some(Err(_)) => Some(Verdict::Ce),
                _ => result.and_then(|r| r.verdict),
            };
            let mut fields = vec![
                ("name", Json::str(&submission.name)),
                ("verdict", Json::opt(verdict, |v| Json::str(v.code()))),
                (
                    "compile_error",
                    Json::opt(card.compiled.as_ref().and_then(|c| c.as_ref().err()), |e| Json::str(compile_error(e))),
                ),
            ];
            if let Some(result) = result {
                fields.extend(call_fields(&result.call));
                let reason = result.verdict.and_then(|v| words::reason(&result.call, v, &report.limits));
                fields.push(("reason", Json::opt(reason, Json::str)));
            }
            Json::object(fields)
        });
        let mut fields = vec![
            ("input", Json::str(crate::problem::format::write_input(&case.values).trim_end())),
            ("expected", Json::str(case.expected.as_str())),
            ("solutions", Json::Array(solutions.collect())),
        ];
        let failed =
            (0..report.submissions.len()).any(|s| result(report, s, c).is_none_or(|r| r.verdict != Some(Verdict::Ac)));
        if failed && case.values.len() <= words::EXPLAINED {
            fields.extend(explanation(&case.values));
        }
        Json::object(fields)
    });
    Json::object([
        ("format_version", Json::int(2)),
        ("command", Json::str("run")),
        ("exit_status", Json::int(exit)),
        ("testcases", Json::Array(testcases.collect())),
    ])
}
