//! The judge's report as one JSON document (`--format json`). Times are integer nanoseconds,
//! memory integer KiB, sizes bytes; an absent value is null. Field by field:
//!   format_version 2; command "judge"; build; compiler; leetcode_rust;
//!   newer_than_leetcode_checked ("everything": built by LeetCode's own version; "library items":
//!   clippy's lint, language features unchecked; "nothing"); wall_ns; exit_status
//!   limits: time_ns, memory_mib, stack_mib, output_bytes
//!   cases[]: id, input_file, n, expected
//!   solutions[]: name, file, expect, verdict (first non-AC, CE, or AC), met ("yes", "no",
//!     "not caught"), compile_error, fault, cases_run, accepted, total_ns, median_ns,
//!     slowest_ns, slowest_case, peak_kib, not_judged (cases left out after 3 TLE, or after a
//!     first failure), growth (for a strategy that hit the time limit: order "power" with
//!     exponent, or "exponential" with per_pile; at_max_log10_s; words), results[]
//!   results[]: case, verdict, time_ns, wall_ns, peak_kib, answer, answer_bytes, ending (how a
//!     call that did not answer ended: panicked, stack overflow, signal, exited, lost channel,
//!     timed out, memory limit, allocation failed, output limit), reason, stdout, stdout_bytes,
//!     stderr, stderr_bytes, rerun; and for a failure on at most 20 piles, the oracle's leads
//!     (f(0..=n)) and play (moves: player, from, count, taken)
//!   judge_errors[]: strings; suspects[]: case, stored, oracle, check

use std::path::Path;

use super::error::{case_problem, compile_error, path, submission_error};
use super::json::Json;
use super::verdicts::{change_line, met_word, rerun, Figures};
use super::words;
use crate::cli::{flags, Command, Invocation, Value};
use crate::exec::diagnose::Newer;
use crate::exec::limits::OUTPUT_LIMIT;
use crate::exec::outcome::{Call, Ending, Printed};
use crate::judging::engine::{CaseResult, Fault};
use crate::judging::report::{first_failure, Report};
use crate::judging::verdict::Verdict;
use crate::problem::oracle::{self, Player};
use crate::search::growth::{Growth, Order};

pub fn ending_kind(ending: &Ending) -> &'static str {
    match ending {
        Ending::Panicked { .. } => "panicked",
        Ending::StackOverflow => "stack overflow",
        Ending::Signalled { .. } => "signal",
        Ending::Exited { .. } => "exited",
        Ending::LostChannel => "lost channel",
        Ending::TimedOut { .. } => "timed out",
        Ending::MemoryLimit { .. } => "memory limit",
        Ending::AllocationFailed { .. } => "allocation failed",
        Ending::OutputLimit { .. } => "output limit",
        Ending::NoStack => "no stack",
        Ending::Protocol => "protocol",
    }
}

fn text(printed: &Printed) -> Json {
    Json::str(String::from_utf8_lossy(&printed.head))
}

/// One call's fields, shared by the judge's and `run`'s reports.
pub fn call_fields(call: &Call) -> Vec<(&'static str, Json)> {
    let answered = call.result.as_ref().ok();
    vec![
        ("time_ns", Json::opt(answered, |a| Json::int(a.nanos))),
        ("wall_ns", Json::int(call.wall.as_nanos() as i128)),
        ("peak_kib", Json::opt(answered.and_then(|a| a.peak_kib), Json::int)),
        ("answer", Json::opt(answered, |a| Json::str(String::from_utf8_lossy(&a.answer)))),
        ("answer_bytes", Json::opt(answered, |a| Json::int(a.length))),
        ("ending", Json::opt(call.result.as_ref().err(), |e| Json::str(ending_kind(e)))),
        ("stdout", text(&call.stdout)),
        ("stdout_bytes", Json::int(call.stdout.total)),
        ("stderr", text(&call.stderr)),
        ("stderr_bytes", Json::int(call.stderr.total)),
    ]
}

fn result(report: &Report, name: &str, case: usize, result: &CaseResult, invocation: &Invocation) -> Json {
    let verdict = result.verdict;
    let mut fields =
        vec![("case", Json::str(&report.cases[case].id)), ("verdict", Json::opt(verdict, |v| Json::str(v.code())))];
    fields.extend(call_fields(&result.call));
    let reason = verdict.and_then(|v| words::reason(&result.call, v, &report.limits));
    fields.push(("reason", Json::opt(reason, Json::str)));
    fields.push(("rerun", Json::str(rerun(invocation, name, Some(&report.cases[case].id)).shell())));
    let values = &report.cases[case].values;
    if verdict != Some(Verdict::Ac) && values.len() <= words::EXPLAINED {
        fields.extend(explanation(values));
    }
    Json::object(fields)
}

/// The oracle's leads and one optimal line of play, for a short input.
pub fn explanation(values: &[i32]) -> [(&'static str, Json); 2] {
    let explained = oracle::explain(values);
    let moves = explained.play.iter().map(|m| {
        Json::object([
            ("player", Json::str(if m.player == Player::Alice { "Alice" } else { "Bob" })),
            ("from", Json::int(m.from as i128)),
            ("count", Json::int(m.count as i128)),
            ("taken", Json::int(m.taken)),
        ])
    });
    [
        ("leads", Json::Array(explained.leads.iter().map(|l| Json::int(*l)).collect())),
        ("play", Json::Array(moves.collect())),
    ]
}

fn growth_json(growth: &Growth, report: &Report) -> Json {
    let (order, factor) = match growth.order {
        Order::Power { exponent, .. } => ("power", Some(("exponent", exponent))),
        Order::Exponential { per_pile } => ("exponential", Some(("per_pile", per_pile))),
        Order::Unknown => ("unknown", None),
    };
    let mut fields = vec![("order", Json::str(order))];
    fields.extend(factor.map(|(name, value)| (name, Json::Float(value))));
    if let Order::Power { spread, .. } = growth.order {
        fields.push(("spread", Json::Float(spread)));
    }
    fields.push(("at_max_log10_s", Json::opt(growth.at_max_log10_s, Json::Float)));
    let points = growth
        .points
        .iter()
        .map(|p| Json::object([("n", Json::int(p.n as i128)), ("time_ns", Json::int(p.time.as_nanos() as i128))]));
    fields.push(("points", Json::Array(points.collect())));
    fields.push(("words", Json::str(words::growth(growth, report.limits.time))));
    Json::object(fields)
}

pub fn report(
    report: &Report,
    growth: &[Option<Growth>],
    newer: &[Vec<Newer>],
    invocation: &Invocation,
    exit: u8,
    root: Option<&Path>,
) -> Json {
    let cases = report.cases.iter().map(|c| {
        Json::object([
            ("id", Json::str(&c.id)),
            ("input_file", Json::str(path(&c.input, root))),
            ("n", Json::int(c.values.len() as i128)),
            ("expected", Json::str(c.expected.as_str())),
        ])
    });
    let solutions = report.submissions.iter().zip(&report.cards).zip(&report.met).zip(growth).zip(newer).map(
        |((((s, card), met), growth), newer)| {
            let f = Figures::of(card, report.cases.len(), s.is_strategy());
            let results = (card.results.iter().enumerate())
                .filter_map(|(c, r)| Some(result(report, &s.name, c, r.as_ref()?, invocation)));
            let fault = card.fault.as_ref().map(|f| match f {
                Fault::Build(e) | Fault::Spawn(e) => e.clone(),
                Fault::Call(r) => {
                    words::reason(&r.call, crate::judging::verdict::Verdict::Re, &report.limits).unwrap_or_default()
                }
            });
            Json::object([
                ("name", Json::str(&s.name)),
                ("file", Json::str(&s.shown)),
                ("expect", Json::str(words::expect(s.expect))),
                ("verdict", Json::opt(first_failure(card), |v| Json::str(v.code()))),
                ("met", Json::str(met_word(*met).to_lowercase())),
                (
                    "compile_error",
                    Json::opt(card.compiled.as_ref().and_then(|c| c.as_ref().err()), |e| Json::str(compile_error(e))),
                ),
                ("fault", Json::opt(fault, Json::str)),
                ("cases_run", Json::int(f.ran as i128)),
                ("accepted", Json::int(f.accepted as i128)),
                ("total_ns", Json::int(f.total.as_nanos() as i128)),
                ("median_ns", Json::opt(f.median, |d| Json::int(d.as_nanos() as i128))),
                ("slowest_ns", Json::opt(f.slowest, |(d, _)| Json::int(d.as_nanos() as i128))),
                ("slowest_case", Json::opt(f.slowest, |(_, c)| Json::str(&report.cases[c].id))),
                ("peak_kib", Json::opt(f.peak_kib, Json::int)),
                (
                    "not_judged",
                    Json::int(
                        card.results.iter().filter(|r| r.is_none()).count() as i128 * i128::from(card.cut.is_some()),
                    ),
                ),
                ("growth", Json::opt(growth.as_ref(), |g| growth_json(g, report))),
                ("newer_than_leetcode", Json::Array(newer.iter().map(super::paste::newer_json).collect())),
                ("results", Json::Array(results.collect())),
            ])
        },
    );
    let mut errors: Vec<Json> =
        report.bad_cases.iter().map(|b| Json::str(format!("{}: {}", b.id, case_problem(&b.problem, root)))).collect();
    errors.extend(report.bad_submissions.iter().map(|e| Json::str(submission_error(e))));
    errors.extend(report.changes.iter().map(|c| Json::str(change_line(c, root))));
    let check = Invocation::new(Command::Bless).set(&flags::CHECK, [Value::On]).shell();
    let suspects = report.suspects.iter().map(|s| {
        Json::object([
            ("case", Json::str(&report.cases[s.case].id)),
            ("stored", Json::str(s.stored.as_str())),
            ("oracle", Json::str(s.oracle.as_str())),
            ("check", Json::str(&check)),
        ])
    });
    Json::object([
        ("format_version", Json::int(2)),
        ("command", Json::str("judge")),
        ("build", Json::str(words::build_profile())),
        ("compiler", Json::str(&report.about.version)),
        ("leetcode_rust", Json::str(&report.about.leetcode_rust)),
        ("newer_than_leetcode_checked", Json::str(super::paste::checks_word(report.about.checks))),
        ("sandbox", Json::Bool(report.unconfined.is_none())),
        ("unconfined_because", report.unconfined.as_deref().map_or(Json::Null, Json::str)),
        ("cgroup", report.cgroup.map_or(Json::Null, |v| Json::str(words::cgroup_version(v)))),
        ("uncounted_because", report.uncounted.as_deref().map_or(Json::Null, Json::str)),
        ("wall_ns", Json::int(report.wall.as_nanos() as i128)),
        ("exit_status", Json::int(exit)),
        (
            "limits",
            Json::object([
                ("time_ns", Json::int(report.limits.time.as_nanos() as i128)),
                ("memory_mib", Json::int(report.limits.memory_mib)),
                ("stack_mib", Json::int(report.limits.stack_mib)),
                ("output_bytes", Json::int(OUTPUT_LIMIT)),
            ]),
        ),
        ("cases", Json::Array(cases.collect())),
        ("solutions", Json::Array(solutions.collect())),
        ("judge_errors", Json::Array(errors)),
        ("suspects", Json::Array(suspects.collect())),
    ])
}
