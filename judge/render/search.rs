//! What `stress` and `verify` found, as text or JSON: the shrunk counterexample with the
//! command that makes the original case and those that rerun it, try it and keep it, then the
//! rate (or where the sweep stopped).

use std::fmt::Write as _;
use std::path::Path;

use super::error::path;
use super::json::Json;
use super::judge_json::explanation;
use super::units;
use super::verdicts::change_line;
use super::words;
use crate::cli::{flags, Command, Invocation, Value};
use crate::exec::limits::Limits;
use crate::problem::generator::Shape;
use crate::problem::{format, oracle};
use crate::search::sweep::Got;
use crate::search::{stress, verify, Counterexample, Rate, Slow};

/// Inputs up to this long are printed whole, ready for LeetCode's testcase box.
const WHOLE: usize = 1000;

pub struct Commands {
    pub rerun: Invocation,
    pub try_it: Option<Invocation>,
    pub keep_it: Option<Invocation>,
}

fn input_text(values: &[i32]) -> String {
    match values.len() <= WHOLE {
        true => format::write_input(values).trim_end().to_string(),
        false => units::input(values),
    }
}

fn try_it(example: &Counterexample) -> Option<Invocation> {
    let run = Invocation::new(Command::Run).set(&flags::SOLUTION, [Value::Text(example.submission.clone())]);
    (example.values.len() <= WHOLE).then(|| run.with_positional([input_text(&example.values)]))
}

pub fn stress_commands(invocation: &Invocation, example: &Counterexample) -> Commands {
    let rerun = invocation
        .clone()
        .set(&flags::COUNT, [Value::Count(example.index + 1)])
        .set(&flags::SOLUTION, [Value::Text(example.submission.clone())])
        .set(&flags::SAVE, None)
        .set(&flags::FORMAT, None);
    let keep_it = rerun.clone().set(&flags::SAVE, [Value::On]);
    Commands { try_it: try_it(example), rerun, keep_it: Some(keep_it) }
}

pub fn verify_commands(invocation: &Invocation, example: &Counterexample) -> Commands {
    let rerun =
        invocation.clone().set(&flags::SOLUTION, [Value::Text(example.submission.clone())]).set(&flags::FORMAT, None);
    Commands { try_it: try_it(example), rerun, keep_it: None }
}

fn gen_command(case: (Shape, usize, u64)) -> Invocation {
    let (shape, len, seed) = case;
    Invocation::new(Command::Gen)
        .set(&flags::SHAPE, [Value::Shape(shape)])
        .set(&flags::LEN, [Value::Count(len as u64)])
        .set(&flags::SEED, [Value::Count(seed)])
}

fn example_text(
    example: &Counterexample,
    found: &str,
    original: Option<Invocation>,
    commands: &Commands,
    limits: &Limits,
) -> String {
    let mut out = String::new();
    let verdict = example.got.verdict();
    let _ = writeln!(out, "{} fails ({}) {found}", example.submission, verdict.code());
    let stopped = if example.stopped { "; shrinking ran out of time" } else { "" };
    let tried = units::count(example.tried, "candidate");
    if example.original_len == example.values.len() {
        let _ = writeln!(out, "as found: no smaller case fails ({tried} tried{stopped}):");
    } else {
        let _ = writeln!(
            out,
            "shrunk from {} to {} ({tried} tried{stopped}):",
            units::count(example.original_len, "value"),
            units::count(example.values.len(), "value"),
        );
    }
    let _ = writeln!(out, "  input     {}", input_text(&example.values));
    let _ = writeln!(out, "  oracle    \"{}\"", example.expected.as_str());
    let label = if matches!(example.got, Got::Answer(_)) { "got" } else { "reason" };
    let _ = writeln!(out, "  {label:<9} {}", words::got(&example.got, limits));
    if example.values.len() <= words::EXPLAINED {
        out.push_str(&words::explained(&oracle::explain(&example.values), "  "));
    }
    if let Some(original) = original {
        let _ = writeln!(out, "  original  {}", original.shell());
    }
    let _ = writeln!(out, "  rerun     {}", commands.rerun.shell());
    if let Some(try_it) = &commands.try_it {
        let _ = writeln!(out, "  try it    {}", try_it.shell());
    }
    if let Some(keep_it) = &commands.keep_it {
        let _ = writeln!(out, "  keep it   {}", keep_it.shell());
    }
    out
}

/// The rate, or where the sweep stopped: a rate over a run cut short at its first failure
/// says nothing.
fn rate_line(label: &str, noun: &str, rate: &Rate, found: bool) -> String {
    let seconds = rate.elapsed.as_secs_f64().max(1e-9);
    if found {
        return format!("{label}: stopped at the first failure, after {}\n", units::count(rate.checked as usize, noun));
    }
    format!(
        "{label}: {} {noun}s checked in {:.2} s · {} {noun}s/s · {} + oracle · {} · {} build\n",
        units::thousands(rate.checked),
        seconds,
        units::thousands((rate.checked as f64 / seconds) as u64),
        units::count(rate.submissions, "solution"),
        units::count(rate.jobs, "thread"),
        words::build_profile()
    )
}

fn changes_text(changes: &[crate::judging::guard::Change], root: Option<&Path>) -> String {
    changes.iter().map(|c| format!("judge error: {}\n", change_line(c, root))).collect()
}

pub fn stress_text(outcome: &stress::Outcome, invocation: &Invocation, limits: &Limits, root: Option<&Path>) -> String {
    let mut out = String::new();
    match (&outcome.example, outcome.case) {
        (Some(example), Some(case)) => {
            let seed = match invocation.get(&flags::SEED) {
                Some(Value::Count(seed)) => *seed,
                _ => 1,
            };
            // Counted from 1, as `--count` counts: the rerun's count is this number.
            let found = format!("on case {} of seed {seed}", example.index + 1);
            let commands = stress_commands(invocation, example);
            out.push_str(&example_text(example, &found, Some(gen_command(case)), &commands, limits));
            if let Some(saved) = &outcome.saved {
                let _ = writeln!(out, "  saved     {} and its .out; the judge runs it from now on", path(saved, root));
            }
        }
        _ => {
            let _ = writeln!(out, "stress: no counterexample: every answer agrees with the oracle");
        }
    }
    out.push_str(&slow_text(&outcome.slow, limits));
    out.push_str(&changes_text(&outcome.changes, root));
    out + &rate_line("stress", "case", &outcome.rate, outcome.example.is_some())
}

/// The submissions that were far slower than the oracle, or grow faster than n: a time limit
/// that small random cases cannot show.
fn slow_text(slow: &[Slow], limits: &Limits) -> String {
    let mut out = String::new();
    for slow in slow {
        let _ = writeln!(
            out,
            "but {} is slow: {:.0}× the oracle's time on these cases; {}",
            slow.submission,
            slow.against_oracle,
            words::growth(&slow.growth, limits.time)
        );
    }
    out
}

/// What a long `verify` will take, said before it starts.
pub fn estimate_line(arrays: u64, estimate: std::time::Duration) -> String {
    format!("verify: {} arrays, about {} on this machine", units::thousands(arrays), units::long_duration(estimate))
}

/// A progress counter with the share done.
pub fn progress(label: &str, done: u64, total: u64) -> String {
    let share = done as f64 * 100.0 / total.max(1) as f64;
    format!("{label}: {}/{} ({share:.1}%)", units::thousands(done), units::thousands(total))
}

pub fn verify_text(
    outcome: &verify::Outcome,
    request: &verify::Request,
    invocation: &Invocation,
    limits: &Limits,
    root: Option<&Path>,
) -> String {
    let bound = format!("length 1..={} over {}..={}", request.max_len, request.low, request.high);
    let mut out = match &outcome.example {
        None => format!("verify: all {} arrays of {bound} agree with the oracle\n", units::thousands(outcome.total)),
        Some(example) => {
            let found = format!("on array {} of {bound}", example.index + 1);
            example_text(example, &found, None, &verify_commands(invocation, example), limits)
        }
    };
    out.push_str(&slow_text(&outcome.slow, limits));
    out.push_str(&changes_text(&outcome.changes, root));
    out + &rate_line("verify", "array", &outcome.rate, outcome.example.is_some())
}

fn example_json(example: &Counterexample, commands: &Commands, limits: &Limits) -> Json {
    let answer = match &example.got {
        Got::Answer(answer) => Some(String::from_utf8_lossy(answer).into_owned()),
        _ => None,
    };
    Json::object([
        ("solution", Json::str(&example.submission)),
        ("index", Json::int(example.index)),
        ("original_len", Json::int(example.original_len as i128)),
        ("input", Json::str(format::write_input(&example.values).trim_end())),
        ("oracle", Json::str(example.expected.as_str())),
        ("verdict", Json::str(example.got.verdict().code())),
        ("got", Json::opt(answer, Json::str)),
        ("reason", Json::str(words::got(&example.got, limits))),
        ("tried", Json::int(example.tried as i128)),
        ("shrinking_stopped", Json::Bool(example.stopped)),
        (
            "leads",
            if example.values.len() <= words::EXPLAINED {
                explanation(&example.values)[0].1.clone()
            } else {
                Json::Null
            },
        ),
        (
            "play",
            if example.values.len() <= words::EXPLAINED {
                explanation(&example.values)[1].1.clone()
            } else {
                Json::Null
            },
        ),
        ("rerun", Json::str(commands.rerun.shell())),
        ("try_it", Json::opt(commands.try_it.as_ref(), |c| Json::str(c.shell()))),
        ("keep_it", Json::opt(commands.keep_it.as_ref(), |c| Json::str(c.shell()))),
    ])
}

fn rate_json(rate: &Rate) -> Vec<(&'static str, Json)> {
    vec![
        ("checked", Json::int(rate.checked)),
        ("elapsed_ns", Json::int(rate.elapsed.as_nanos() as i128)),
        ("per_second", Json::Float(rate.checked as f64 / rate.elapsed.as_secs_f64().max(1e-9))),
        ("solutions", Json::int(rate.submissions as i128)),
        ("threads", Json::int(rate.jobs as i128)),
        ("build", Json::str(words::build_profile())),
    ]
}

pub fn stress_json(
    outcome: &stress::Outcome,
    invocation: &Invocation,
    limits: &Limits,
    exit: u8,
    root: Option<&Path>,
) -> Json {
    let mut fields =
        vec![("format_version", Json::int(2)), ("command", Json::str("stress")), ("exit_status", Json::int(exit))];
    fields.extend(rate_json(&outcome.rate));
    let example = outcome.example.as_ref().map(|e| example_json(e, &stress_commands(invocation, e), limits));
    fields.push(("counterexample", example.unwrap_or(Json::Null)));
    fields.push(("saved", Json::opt(outcome.saved.as_ref(), |p| Json::str(path(p, root)))));
    fields.push(("slow", slow_json(&outcome.slow, limits)));
    fields
        .push(("judge_errors", Json::Array(outcome.changes.iter().map(|c| Json::str(change_line(c, root))).collect())));
    Json::object(fields)
}

pub fn verify_json(
    outcome: &verify::Outcome,
    request: &verify::Request,
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
    fields.extend(rate_json(&outcome.rate));
    let example = outcome.example.as_ref().map(|e| example_json(e, &verify_commands(invocation, e), limits));
    fields.push(("counterexample", example.unwrap_or(Json::Null)));
    fields.push(("slow", slow_json(&outcome.slow, limits)));
    fields
        .push(("judge_errors", Json::Array(outcome.changes.iter().map(|c| Json::str(change_line(c, root))).collect())));
    Json::object(fields)
}

fn slow_json(slow: &[Slow], limits: &Limits) -> Json {
    Json::Array(
        slow.iter()
            .map(|s| {
                Json::object([
                    ("solution", Json::str(&s.submission)),
                    ("against_oracle", Json::Float(s.against_oracle)),
                    ("growth", Json::str(words::growth(&s.growth, limits.time))),
                ])
            })
            .collect(),
    )
}
