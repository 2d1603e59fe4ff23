//! The judge's report as one JSON document (`--format json`). Times are integer nanoseconds,
//! memory integer KiB, sizes bytes; an absent value is null. Field by field:
//!   format_version 2; command "judge"; build; compiler; leetcode_rust;
//!   newer_than_leetcode_checked ("everything": built by LeetCode's own version; "library items":
//!   clippy's lint, language features unchecked; "nothing"); wall_ns; exit_status
//!   limits: time_ns, memory_mib, stack_mib, output_bytes
//!   cases[]: id, input_file, line (of one testcase chosen from a group), n (the longest
//!     testcase), testcases, expected (null for a group), every (a group of every array of a
//!     range: max_len, low, high; else null)
//!   solutions[]: name, file, expect, verdict (first non-AC, CE, AC only when every testcase was
//!     judged and passed, null when not judged whole: no verdict), met ("yes", "no",
//!     "not caught"), compile_error, likely (what a compile error most likely means for a
//!     LeetCode file: text, line, column), fault, cases_run, accepted (testcases: each of a
//!     group counts), total_ns (a group's batches included), median_ns, slowest_ns,
//!     slowest_case (calls on one testcase; TLE cases counted at the time they were killed),
//!     peak_kib,
//!     not_judged (testcases left out for any reason: after 3 TLE, a first failure, a fault), growth (for a strategy that hit the time limit:
//!     order "power" with exponent, or "exponential" with per_pile; at_max_log10_s; words),
//!     results[]
//!   results[]: case, verdict, testcase (the id of the testcase the call was; null for a group
//!     that passed, whose time is its batches'), line, time_ns, wall_ns, peak_kib, answer,
//!     answer_bytes, ending (how a
//!     call that did not answer ended: panicked, stack overflow, signal, exited, lost channel,
//!     timed out, memory limit, allocation failed, output limit), reason, stdout, stdout_bytes,
//!     stderr, stderr_bytes, group (testcases, judged, passed, failed[]: line, verdict; null
//!     for a case of one testcase), alone (a group's failure its testcase did not repeat when
//!     called alone, in a fresh child: time_ns alone, batch_from_line, calls_before; else null),
//!     rerun; and for a failure on at most 20 piles, the oracle's leads
//!     (f(0..=n)) and play (moves: player, from, count, taken)
//!   judge_errors[]: strings; notes[]: strings (stored data changed under the sandbox);
//!   suspects[]: case, testcase, stored, oracle, agreeing (strategies that answered as the oracle), check

use std::path::Path;

use super::call;
use super::compile::{compile_error, likely_json};
use super::conditions;
use super::error::{case_problem, path, submission_error};
use super::expect;
use super::explanation;
use super::growth;
use super::guard;
use super::json::Json;
use super::judge_text::rerun;
use crate::cli::Invocation;
use crate::exec::limits::OUTPUT_LIMIT;
use crate::judging::engine::{CaseResult, Fault};
use crate::judging::report::{first_failure, Report};
use crate::judging::verdict::Verdict;
use crate::search::growth::Growth;

fn result(report: &Report, name: &str, c: usize, result: &CaseResult, invocation: &Invocation) -> Json {
    let (verdict, case, t) = (result.verdict, &report.cases[c], result.test);
    let mut fields = vec![("case", Json::str(&case.id)), ("verdict", Json::opt(verdict, |v| Json::str(v.code())))];
    // A group's call is its first failure's, on one testcase; with none, its batches'.
    let shown = result.tally.is_none() || verdict != Some(Verdict::Ac);
    fields.push(("testcase", Json::opt(shown.then(|| case.test_id(t)), Json::str)));
    fields.push(("line", Json::opt(case.line(t).filter(|_| shown), |l| Json::int(l as i128))));
    fields.extend(call::fields(&result.call));
    if !shown {
        for (key, value) in fields.iter_mut() {
            if ["answer", "answer_bytes", "peak_kib"].contains(key) {
                *value = Json::Null;
            }
        }
    }
    let reason = verdict.and_then(|v| call::reason(&result.call, v, &report.limits));
    fields.push(("reason", Json::opt(reason, Json::str)));
    let tally = result.tally.as_ref().map(|tally| {
        let failed = tally.failed.iter().map(|&(u, v)| {
            Json::object([("line", Json::int(case.tests[u].line as i128)), ("verdict", Json::str(v.code()))])
        });
        Json::object([
            ("testcases", Json::int(case.tests.len() as i128)),
            ("judged", Json::int(tally.judged as i128)),
            ("passed", Json::int(tally.passed as i128)),
            ("failed", Json::Array(failed.collect())),
        ])
    });
    fields.push(("group", tally.unwrap_or(Json::Null)));
    let alone = result.alone.as_ref().map(|alone| {
        let time = crate::judging::report::took(&alone.call).map(|t| t.time);
        Json::object([
            ("time_ns", Json::opt(time, nanos)),
            ("batch_from_line", Json::opt(alone.batch_from, |t| Json::int(case.tests[t].line as i128))),
            ("calls_before", Json::int(alone.before as i128)),
        ])
    });
    fields.push(("alone", alone.unwrap_or(Json::Null)));
    let id = if shown { super::judge_text::rerun_case(case, result) } else { Some(case.id.clone()) };
    fields.push(("rerun", Json::str(rerun(invocation, name, id.as_deref()).shell())));
    if verdict != Some(Verdict::Ac) {
        fields.extend(report.explained(c, t).and_then(explanation::fields).into_iter().flatten());
    }
    Json::object(fields)
}

fn nanos(time: std::time::Duration) -> Json {
    Json::int(time.as_nanos() as i128)
}

pub fn report(
    report: &Report,
    growth: &[Option<Growth>],
    invocation: &Invocation,
    exit: u8,
    root: Option<&Path>,
) -> Json {
    let cases = report.cases.iter().map(|c| {
        let every = c.every.map(|e| {
            Json::object([
                ("max_len", Json::int(e.max_len as i128)),
                ("low", Json::int(e.low)),
                ("high", Json::int(e.high)),
            ])
        });
        Json::object([
            ("id", Json::str(&c.id)),
            ("input_file", Json::str(path(&c.input, root))),
            ("line", Json::opt(c.line(0).filter(|_| !c.is_group()), |l| Json::int(l as i128))),
            ("n", Json::int(c.longest() as i128)),
            ("testcases", Json::int(c.tests.len() as i128)),
            ("expected", Json::opt((!c.is_group()).then(|| c.tests[0].expected.as_str()), Json::str)),
            ("every", every.unwrap_or(Json::Null)),
        ])
    });
    let solutions = (0..report.submissions.len()).map(|i| {
        let (s, card, f) = (&report.submissions[i], &report.cards[i], &report.figures[i]);
        let results = (card.results.iter().enumerate())
            .filter_map(|(c, r)| Some(result(report, &s.name, c, r.as_ref()?, invocation)));
        let fault = card.fault.as_ref().map(|f| match f {
            Fault::Build(e) | Fault::Spawn(e) => super::error::trouble(e, None),
            Fault::Call(r) => call::reason(&r.call, Verdict::Re, &report.limits).unwrap_or_default(),
        });
        let compile = card.compiled.as_ref().and_then(|c| c.as_ref().err());
        Json::object([
            ("name", Json::str(&s.name)),
            ("file", Json::str(&s.shown)),
            ("expect", Json::str(expect::expect(s.expect))),
            ("verdict", Json::opt(first_failure(card), |v| Json::str(v.code()))),
            ("met", Json::str(expect::met(report.met[i]).to_lowercase())),
            ("compile_error", Json::opt(compile, |e| Json::str(compile_error(e)))),
            ("likely", compile.map_or(Json::Array(Vec::new()), likely_json)),
            ("fault", Json::opt(fault, Json::str)),
            ("cases_run", Json::int(f.ran as i128)),
            ("accepted", Json::int(f.accepted as i128)),
            ("total_ns", nanos(f.total.map_or(std::time::Duration::ZERO, |t| t.time))),
            ("median_ns", Json::opt(f.median, |t| nanos(t.time))),
            ("slowest_ns", Json::opt(f.slowest, |(t, _)| nanos(t.time))),
            ("slowest_case", Json::opt(f.slowest, |(_, c)| Json::str(&report.cases[c].id))),
            ("peak_kib", Json::opt(f.peak_kib, Json::int)),
            ("not_judged", Json::int(f.left_out as i128)),
            ("growth", Json::opt(growth.get(i).and_then(Option::as_ref), |g| growth::json(g, report.limits.time))),
            ("newer_than_leetcode", Json::Array(report.newer[i].iter().map(super::paste::newer_json).collect())),
            ("results", Json::Array(results.collect())),
        ])
    });
    let mut errors: Vec<Json> =
        report.bad_cases.iter().map(|b| Json::str(format!("{}: {}", b.id, case_problem(&b.problem, root)))).collect();
    errors.extend(report.bad_submissions.iter().map(|e| Json::str(submission_error(e))));
    let changes = guard::lines(&report.changes, root).into_iter().map(Json::str);
    let (notes, changes): (Vec<Json>, Vec<Json>) = match report.changes.confined {
        true => (changes.collect(), Vec::new()),
        false => (Vec::new(), changes.collect()),
    };
    errors.extend(changes);
    let check = super::judge_text::bless_check(invocation).shell();
    let suspects = report.suspects.iter().map(|s| {
        Json::object([
            ("case", Json::str(&report.cases[s.case].id)),
            ("testcase", Json::str(report.cases[s.case].test_id(s.test))),
            ("stored", Json::str(s.stored.as_str())),
            ("oracle", Json::str(s.oracle.as_str())),
            ("agreeing", Json::Array(s.agreeing.iter().map(Json::str).collect())),
            ("check", Json::str(&check)),
        ])
    });
    Json::object([
        ("format_version", Json::int(2)),
        ("command", Json::str("judge")),
        ("build", Json::str(conditions::build_profile())),
        ("compiler", Json::str(&report.about.version)),
        ("leetcode_rust", Json::str(&report.about.leetcode_rust)),
        ("newer_than_leetcode_checked", Json::str(super::paste::checks_word(report.about.checks))),
        ("runner", Json::str(report.runner.rules().word)),
        ("sandbox", Json::Bool(report.unconfined.is_none())),
        ("unconfined_because", report.unconfined.as_deref().map_or(Json::Null, Json::str)),
        ("cgroup", report.cgroup.map_or(Json::Null, |v| Json::str(conditions::cgroup_version(v)))),
        ("uncounted_because", report.uncounted.as_deref().map_or(Json::Null, Json::str)),
        ("wall_ns", nanos(report.wall)),
        ("exit_status", Json::int(exit)),
        (
            "limits",
            Json::object([
                ("time_ns", nanos(report.limits.time)),
                ("memory_mib", Json::int(report.limits.memory_mib)),
                ("stack_mib", Json::int(report.limits.stack_mib)),
                ("output_bytes", Json::int(OUTPUT_LIMIT)),
            ]),
        ),
        ("cases", Json::Array(cases.collect())),
        ("solutions", Json::Array(solutions.collect())),
        ("judge_errors", Json::Array(errors)),
        ("notes", Json::Array(notes)),
        ("suspects", Json::Array(suspects.collect())),
    ])
}
