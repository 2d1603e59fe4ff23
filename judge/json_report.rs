//! The judging report as one JSON document. Field names are stable and documented in the
//! README; times are integer nanoseconds, memory integer KiB, absent values null.

use crate::json::Json;
use crate::report::build_profile;
use crate::summary::{Session, Summary};

pub fn render(session: &Session) -> String {
    let cases = session
        .cases
        .iter()
        .map(|c| {
            Json::Object(vec![
                ("id", Json::str(&c.id)),
                ("input_file", Json::str(c.shown_path())),
                ("n", Json::Int(c.values.len() as i128)),
                ("expected", Json::str(c.expected.as_str())),
            ])
        })
        .collect();
    let errors = session
        .bad
        .iter()
        .map(|b| Json::Object(vec![("case", Json::str(&b.id)), ("message", Json::str(&b.message))]))
        .collect();
    let solutions = session.runs.iter().map(|run| {
        let s = Summary::of(run, session.cases);
        let results = session
            .cases
            .iter()
            .zip(&run.outcomes)
            .filter_map(|(case, o)| o.as_ref().map(|o| (case, o)))
            .map(|(case, o)| {
                Json::Object(vec![
                    ("case", Json::str(&case.id)),
                    ("verdict", Json::str(o.verdict.code())),
                    ("time_ns", Json::opt(o.nanos, |n| Json::Int(n.into()))),
                    ("answer", Json::opt(o.answer.as_ref(), Json::str)),
                    ("reason", Json::opt(o.reason.as_ref(), Json::str)),
                    ("stdout", Json::str(&o.stdout)),
                    ("rerun", Json::str(session.rerun_command(run.entry.name, &case.id))),
                ])
            })
            .collect();
        Json::Object(vec![
            ("name", Json::str(run.entry.name)),
            ("file", Json::str(run.entry.file)),
            ("expected_verdict", Json::str(run.expected.code())),
            ("verdict", Json::str(run.overall().code())),
            ("met_expectation", Json::Bool(run.met_expectation())),
            ("cases_run", Json::Int(s.ran as i128)),
            ("accepted", Json::Int(s.accepted as i128)),
            ("total_ns", Json::Int(s.total.as_nanos() as i128)),
            ("median_ns", Json::opt(s.median, |d| Json::Int(d.as_nanos() as i128))),
            ("slowest_ns", Json::opt(s.slowest.as_ref(), |(d, _)| Json::Int(d.as_nanos() as i128))),
            ("slowest_case", Json::opt(s.slowest.as_ref(), |(_, c)| Json::str(c))),
            ("peak_rss_kib", Json::opt(run.peak_kib, |k| Json::Int(k.into()))),
            ("error", Json::opt(run.spawn_error.as_ref(), Json::str)),
            ("results", Json::Array(results)),
        ])
    });
    Json::Object(vec![
        ("format_version", Json::Int(1)),
        ("build", Json::str(build_profile())),
        ("time_limit_ns", Json::Int(session.limits.time_limit.as_nanos() as i128)),
        ("stack_mb", Json::Int(session.limits.stack_mb as i128)),
        ("wall_ns", Json::Int(session.wall.as_nanos() as i128)),
        ("exit_status", Json::Int(session.exit_status().into())),
        ("cases", Json::Array(cases)),
        ("judge_errors", Json::Array(errors)),
        ("solutions", Json::Array(solutions.collect())),
    ])
    .render()
}
