//! `judge run`, like LeetCode's Run button: the input, the oracle's answer, then each
//! solution's verdict, answer, time and memory, and what it printed on stdout and stderr.

use std::fmt::Write as _;

use super::error::compile_error;
use super::json::Json;
use super::judge_json::call_fields;
use super::style::Style;
use super::table;
use super::units;
use super::words;
use crate::judging::session::Report;
use crate::judging::verdict::Verdict;

pub fn text(report: &Report, style: Style) -> String {
    let mut out = String::new();
    let Some(case) = report.cases.first() else { return out };
    let _ = writeln!(out, "input     {}", units::input(&case.values));
    let _ = writeln!(out, "expected  \"{}\"  (the oracle's answer)\n", case.expected.as_str());
    let head = ["solution", "verdict", "answer", "time", "peak mem"];
    let mut rows = Vec::new();
    for (submission, run) in report.submissions.iter().zip(&report.runs) {
        let row = match (&run.compiled, run.results.first().and_then(Option::as_ref)) {
            (Some(Err(_)), _) => {
                vec![submission.name.clone(), "CE".into(), String::new(), String::new(), String::new()]
            }
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
            _ => vec![submission.name.clone(), "-".into(), String::new(), String::new(), String::new()],
        };
        rows.push(row);
    }
    let lines = table::layout(&head, &rows, &[3, 4]);
    let _ = writeln!(out, "{}", style.bold(&lines[0]));
    for ((line, submission), run) in lines[1..].iter().zip(&report.submissions).zip(&report.runs) {
        let _ = writeln!(out, "{line}");
        if let Some(Err(error)) = &run.compiled {
            let _ = writeln!(out, "  error   {}", compile_error(error));
        }
        let Some(result) = run.results.first().and_then(Option::as_ref) else { continue };
        if let Some(reason) = result.verdict.and_then(|v| words::reason(&result.call, v, &report.limits)) {
            let _ = writeln!(out, "  reason  {reason}");
        }
        for (label, printed) in [("stdout", &result.call.stdout), ("stderr", &result.call.stderr)] {
            if printed.total > 0 {
                let _ = writeln!(out, "  {label}  {}", units::printed(&printed.head, printed.total, 2000));
            }
        }
        let _ = submission;
    }
    let wrong: Vec<&str> = (report.submissions.iter().zip(&report.runs))
        .filter(|(_, run)| run.results.first().and_then(Option::as_ref).is_none_or(|r| r.verdict != Some(Verdict::Ac)))
        .map(|(s, _)| s.name.as_str())
        .collect();
    if !wrong.is_empty() {
        let _ = writeln!(out, "\n{}", style.bad(&format!("not the oracle's answer: {}", wrong.join(", "))));
    }
    out
}

pub fn json(report: &Report, exit: u8) -> Json {
    let case = report.cases.first();
    let solutions = report.submissions.iter().zip(&report.runs).map(|(s, run)| {
        let result = run.results.first().and_then(Option::as_ref);
        let mut fields = vec![
            ("name", Json::str(&s.name)),
            ("verdict", Json::opt(crate::judging::session::first_failure(run), |v| Json::str(v.code()))),
            (
                "compile_error",
                Json::opt(run.compiled.as_ref().and_then(|c| c.as_ref().err()), |e| Json::str(compile_error(e))),
            ),
        ];
        if let Some(result) = result {
            fields.extend(call_fields(&result.call));
            let reason = result.verdict.and_then(|v| words::reason(&result.call, v, &report.limits));
            fields.push(("reason", Json::opt(reason, Json::str)));
        }
        Json::object(fields)
    });
    Json::object([
        ("format_version", Json::int(2)),
        ("command", Json::str("run")),
        ("exit_status", Json::int(exit)),
        ("input", Json::opt(case, |c| Json::str(crate::problem::format::write_input(&c.values).trim_end()))),
        ("expected", Json::opt(case, |c| Json::str(c.expected.as_str()))),
        ("solutions", Json::Array(solutions.collect())),
    ])
}
