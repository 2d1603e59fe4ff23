//! What `judge stress` found, as text or JSON: the counterexample (see `counterexample`) with
//! where it came from, what `--save` did, the slow submissions, and the rate.

use std::path::Path;

use super::counterexample::{self, Commands};
use super::json::Json;
use crate::cli::{flags, Command, Invocation, Value};
use crate::exec::limits::Limits;
use crate::problem::generator::Shape;
use crate::search::stress::Outcome;
use crate::search::{Counterexample, Origin};

/// The generator's command that makes a random case.
fn gen_command((shape, len, seed): (Shape, usize, u64)) -> Invocation {
    Invocation::new(Command::Gen)
        .set(&flags::SHAPE, [Value::Shape(shape)])
        .set(&flags::LEN, [Value::Count(len as u64)])
        .set(&flags::SEED, [Value::Count(seed)])
}

/// The commands beside a counterexample: the rerun runs the same cases up to the failing one
/// (a given testcase is run first whatever `--count` says).
pub fn commands(outcome: &Outcome, invocation: &Invocation, example: &Counterexample) -> Commands {
    let rerun = match example.origin {
        Origin::Swept(index) => invocation.clone().set(&flags::COUNT, [Value::Count(index + 1)]),
        Origin::Given(_) => invocation.clone(),
    };
    Commands::new(rerun, outcome.case.map(gen_command), example, invocation, outcome.saved.is_some())
}

/// Where the counterexample was found, counted from 1 as `--count` counts.
fn found(example: &Counterexample, invocation: &Invocation) -> String {
    match example.origin {
        Origin::Given(k) => format!("on testcase {} of those given", k + 1),
        Origin::Swept(index) => {
            let seed = match invocation.get(&flags::SEED) {
                Some(Value::Count(seed)) => *seed,
                _ => 1,
            };
            format!("on case {} of seed {seed}", index + 1)
        }
    }
}

pub fn text(outcome: &Outcome, invocation: &Invocation, limits: &Limits, root: Option<&Path>, width: usize) -> String {
    let mut out = match &outcome.example {
        Some(example) => {
            let commands = commands(outcome, invocation, example);
            counterexample::text(example, &found(example, invocation), &commands, limits, width)
        }
        None => "stress: no counterexample: every answer agrees with the oracle\n".to_string(),
    };
    if let Some(saved) = &outcome.saved {
        out.push_str(&counterexample::saved(saved, root, width));
    }
    out.push_str(&counterexample::slow(&outcome.slow, limits, invocation, width));
    out.push_str(&counterexample::changes(&outcome.changes, root, width));
    out + &counterexample::rate_line("stress", "case", &outcome.rate, outcome.example.is_some(), width)
}

pub fn json(outcome: &Outcome, invocation: &Invocation, limits: &Limits, exit: u8, root: Option<&Path>) -> Json {
    let mut fields =
        vec![("format_version", Json::int(2)), ("command", Json::str("stress")), ("exit_status", Json::int(exit))];
    fields.extend(counterexample::rate_json(&outcome.rate));
    let example = outcome.example.as_ref().map(|e| counterexample::json(e, &commands(outcome, invocation, e), limits));
    fields.push(("counterexample", example.unwrap_or(Json::Null)));
    fields.extend(counterexample::saved_json(outcome.saved.as_ref(), root));
    fields.push(("slow", counterexample::slow_json(&outcome.slow, limits)));
    fields.extend(counterexample::changes_json(&outcome.changes, root));
    Json::object(fields)
}
