//! What `judge verify` found, as text or JSON: every array of the bound agreeing with the
//! oracle, or the counterexample (see `counterexample`); the estimate said before a long run,
//! and the progress counter.

use std::path::Path;

use super::counterexample::{self, Commands};
use super::json::Json;
use super::units;
use crate::cli::Invocation;
use crate::exec::limits::Limits;
use crate::search::verify::{Outcome, Request};
use crate::search::{Origin, Progress};

/// What a long `verify` will take, said before it starts.
pub fn estimate_line(arrays: u64, estimate: std::time::Duration) -> String {
    format!("verify: {} arrays, about {} on this machine", units::thousands(arrays), units::long_duration(estimate))
}

/// The progress line of a search (`stress`, `verify`): the cases checked of `total`, or how
/// far the shrinking of a failure has got.
pub fn progress(label: &str, progress: Progress, total: u64) -> String {
    match progress {
        Progress::Cases(done) => {
            let share = done as f64 * 100.0 / total.max(1) as f64;
            format!("{label}: {}/{} ({share:.1}%)", units::thousands(done), units::thousands(total))
        }
        Progress::Shrinking { values, tried } => format!(
            "{label}: shrinking a failure: {} so far, {} tried",
            units::count(values, "value"),
            units::count(tried, "candidate")
        ),
    }
}

pub fn text(
    outcome: &Outcome,
    request: &Request,
    invocation: &Invocation,
    limits: &Limits,
    root: Option<&Path>,
    width: usize,
) -> String {
    let bound = format!("length 1..={} over {}..={}", request.max_len, request.low, request.high);
    let mut out = match &outcome.example {
        None => format!("verify: all {} arrays of {bound} agree with the oracle\n", units::thousands(outcome.total)),
        Some(example) => {
            let array = match example.origin {
                Origin::Swept(index) => index + 1,
                Origin::Given(k) => k as u64 + 1,
            };
            let found = format!("on array {array} of {bound}");
            counterexample::text(
                example,
                &found,
                &Commands::new(invocation.clone(), None, example, invocation, outcome.saved.is_some()),
                limits,
                width,
            )
        }
    };
    if let Some(saved) = &outcome.saved {
        out.push_str(&counterexample::saved(saved, root, width));
    }
    out.push_str(&counterexample::slow(&outcome.slow, limits, invocation, width));
    out.push_str(&counterexample::changes(&outcome.changes, root, width));
    out + &counterexample::rate_line("verify", "array", &outcome.rate, outcome.example.is_some(), width)
}

pub fn json(
    outcome: &Outcome,
    request: &Request,
    invocation: &Invocation,
    limits: &Limits,
    exit: u8,
    root: Option<&Path>,
) -> Json {
    let mut fields = vec![
        ("format_version", Json::int(2)),
        ("command", Json::str("verify")),
        ("exit_status", Json::int(exit)),
        ("arrays", Json::int(outcome.total)),
        ("max_len", Json::int(request.max_len as i128)),
        ("values", Json::str(format!("{}..={}", request.low, request.high))),
    ];
    fields.extend(counterexample::rate_json(&outcome.rate));
    let example = outcome.example.as_ref().map(|e| {
        counterexample::json(
            e,
            &Commands::new(invocation.clone(), None, e, invocation, outcome.saved.is_some()),
            limits,
        )
    });
    fields.push(("counterexample", example.unwrap_or(Json::Null)));
    fields.extend(counterexample::saved_json(outcome.saved.as_ref(), root));
    fields.push(("slow", counterexample::slow_json(&outcome.slow, limits)));
    fields.extend(counterexample::changes_json(&outcome.changes, root));
    Json::object(fields)
}
