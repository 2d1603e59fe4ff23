//! What `stress` and `verify` both show: the shrunk counterexample with the oracle's
//! explanation and the commands that make the original case, rerun it, try it and keep it;
//! what `--save` did; the slow submissions; the closing rate line; and the same as JSON.

use std::fmt::Write as _;
use std::path::Path;

use super::call;
use super::error::path;
use super::explanation;
use super::fit;
use super::growth;
use super::guard;
use super::json::Json;
use super::units;
use crate::cli::{flags, Command, Invocation, Value};
use crate::exec::limits::Limits;
use crate::judging::guard::Changed;
use crate::judging::verdict::Verdict;
use crate::problem::format;
use crate::search::growth::INPUT as GROWTH_INPUT;
use crate::search::save::Saved;
use crate::search::sweep::Got;
use crate::search::{Counterexample, Origin, Rate, Slow};

/// Inputs up to this long are printed whole, ready for LeetCode's testcase box.
const WHOLE: usize = 1000;

/// The commands printed beside a counterexample.
pub struct Commands {
    /// What makes the original, unshrunk case: the generator's command.
    pub original: Option<Invocation>,
    pub rerun: Invocation,
    pub try_it: Option<Invocation>,
    pub keep_it: Option<Invocation>,
}

impl Commands {
    /// `rerun`, the search's command as far as the counterexample, for its solution alone and
    /// without `--save` or `--format`; `keep it` only where `--save` was not given (what it did
    /// is said instead).
    pub fn new(
        rerun: Invocation,
        original: Option<Invocation>,
        example: &Counterexample,
        invocation: &Invocation,
        saved: bool,
    ) -> Commands {
        let rerun = rerun
            .set(&flags::SOLUTION, [Value::Text(example.submission.clone())])
            .set(&flags::SAVE, None)
            .set(&flags::FORMAT, None);
        let keep_it = (!saved).then(|| rerun.clone().set(&flags::SAVE, [Value::On]));
        Commands { original, try_it: try_it(example, invocation), rerun, keep_it }
    }
}

/// The input as LeetCode's testcase box takes it, or shortened past `WHOLE` values.
pub fn input_text(values: &[i32]) -> String {
    typed(values).unwrap_or_else(|| units::input(values))
}

/// The input whole, as it is typed, when it is short enough to type.
pub fn typed(values: &[i32]) -> Option<String> {
    (values.len() <= WHOLE).then(|| format::write_input(values).trim_end().to_string())
}

/// `run` on the shrunk input under the same limits, after the calls it needs before it, when
/// they are short enough to type; none where it did not fail again.
pub fn try_it(example: &Counterexample, invocation: &Invocation) -> Option<Invocation> {
    if !example.reproduced {
        return None;
    }
    let run = Invocation::new(Command::Run)
        .with_flags_of(invocation, &flags::VERDICT)
        .set(&flags::SOLUTION, [Value::Text(example.submission.clone())]);
    let inputs: Option<Vec<String>> = example.before.iter().chain([&example.values]).map(|v| typed(v)).collect();
    Some(run.with_positional(inputs?))
}

/// What a submission did on a counterexample.
pub fn got(got: &Got, limits: &Limits) -> String {
    match got {
        Got::Answer(answer) => units::answer(answer, answer.len() as u64),
        Got::Ended(_, e) => call::ending(e, limits),
        Got::Limit(verdict) => format!("the right answer, but {}", verdict.code()),
    }
}

/// The counterexample's block, `found` saying where it was found.
pub fn text(example: &Counterexample, found: &str, commands: &Commands, limits: &Limits, width: usize) -> String {
    let mut out = String::new();
    let verdict = example.got.verdict();
    let _ = writeln!(
        out,
        "{}",
        fit::words("", &format!("{} fails ({}) {found}", example.submission, verdict.code()), "  ", width)
    );
    let stopped = if example.stopped { "; shrinking ran out of time" } else { "" };
    let tried = units::count(example.tried, "candidate");
    if example.simplified {
        let values = units::count(example.values.len(), "value");
        let _ = writeln!(out, "simplified, still {values}: no shorter candidate failed ({tried} tried{stopped}):");
    } else if example.original_len == example.values.len() {
        let _ = writeln!(out, "as found: no smaller candidate failed ({tried} tried{stopped}):");
    } else {
        let _ = writeln!(
            out,
            "shrunk from {} to {} ({tried} tried{stopped}):",
            units::count(example.original_len, "value"),
            units::count(example.values.len(), "value"),
        );
    }
    if !example.before.is_empty() {
        let said = format!(
            "alone, in a fresh process, it passes; it fails after {}, in one process, each answered right (state kept between calls):",
            units::count(example.before.len(), "call")
        );
        out.push_str(&fit::labelled("after", &said, width));
        for values in &example.before {
            out.push_str(&fit::labelled("", &input_text(values), width));
        }
    }
    if !example.reproduced {
        let said = format!(
            "it did not fail again in a fresh process, alone or after the {} its process had answered before it: it fails on something else (time, chance, addresses); shown as found",
            units::count(example.history, "call")
        );
        out.push_str(&fit::labelled("note", &said, width));
    }
    out.push_str(&fit::labelled("input", &input_text(&example.values), width));
    out.push_str(&fit::labelled("oracle", &format!("\"{}\"", example.expected.as_str()), width));
    let label = if matches!(example.got, Got::Answer(_)) { "got" } else { "reason" };
    out.push_str(&fit::labelled(label, &got(&example.got, limits), width));
    if let Some(call) = &example.printed {
        out.push_str(&call::output(call, width));
    }
    out.push_str(&explanation::lines(&example.explained, width));
    let labelled = [
        ("original", commands.original.as_ref()),
        ("rerun", Some(&commands.rerun)),
        ("try it", commands.try_it.as_ref()),
        ("keep it", commands.keep_it.as_ref()),
    ];
    for (label, command) in labelled {
        if let Some(command) = command {
            let _ = writeln!(out, "{}", fit::command(&format!("  {label:<9} "), command, width));
        }
    }
    if let Some(note) = load_note(verdict) {
        out.push_str(&fit::labelled("note", note, width));
    }
    out
}

/// What a rerun of a time limit depends on. The shrunk case ran past a quarter more than the
/// limit, so `try it` fails again anywhere like this machine; the sweep's first case over the
/// limit is one whose time was near it, and on another machine, or this one under other
/// load, the first such case can be another.
pub fn load_note(verdict: Verdict) -> Option<&'static str> {
    (verdict == Verdict::Tle).then_some(
        "a time limit: `try it` runs a case that took over a quarter more than the limit; `rerun` \
         depends on this machine's speed and load, and may stop at another case first",
    )
}

/// What `--save` did.
pub fn saved(saved: &Saved, root: Option<&Path>, width: usize) -> String {
    match saved {
        Saved::Stored(input) => {
            fit::labelled("saved", &format!("{} and its .out; the judge runs it from now on", path(input, root)), width)
        }
        Saved::Duplicate { id, input, line } => {
            let at = line.map_or_else(String::new, |l| format!(":{l}"));
            let said = format!(
                "nothing: the same input is stored already, as {} ({}{at})",
                units::escape(id),
                path(input, root)
            );
            fit::labelled("saved", &said, width)
        }
    }
}

/// The rate, or where the sweep stopped: a rate over a run cut short at its first failure
/// says nothing.
pub fn rate_line(label: &str, noun: &str, rate: &Rate, found: bool, width: usize) -> String {
    let seconds = rate.elapsed.as_secs_f64().max(1e-9);
    if found {
        return format!("{label}: stopped at the first failure, after {}\n", units::count(rate.checked as usize, noun));
    }
    let said = format!(
        "{} {noun}s checked in {:.2} s · {} {noun}s/s · {} + oracle · {} · {} build",
        units::thousands(rate.checked),
        seconds,
        units::thousands((rate.checked as f64 / seconds) as u64),
        units::count(rate.submissions, "solution"),
        units::count(rate.jobs, "thread"),
        super::conditions::build_profile()
    );
    format!("{}\n", fit::words(&format!("{label}: "), &said, "  ", width))
}

/// Changes to stored data during the run: a note under the sandbox, else a judge error.
pub fn changes(changed: &Changed, root: Option<&Path>, width: usize) -> String {
    let label = if changed.confined { "note" } else { "judge error" };
    guard::lines(changed, root)
        .iter()
        .map(|l| format!("{}\n", fit::words("", &format!("{label}: {l}"), "  ", width)))
        .collect()
}

/// The submissions that were far slower than the oracle, or grow faster than n: a time limit
/// that small random cases cannot show.
pub fn slow(slow: &[Slow], limits: &Limits, invocation: &Invocation, width: usize) -> String {
    let mut out = String::new();
    for slow in slow {
        let said = format!(
            "but {} is slow: {:.0}× the oracle's time on these cases; {}",
            slow.submission,
            slow.against_oracle,
            growth::words(&slow.growth, limits.time)
        );
        let _ = writeln!(out, "{}", fit::words("", &said, "  ", width));
        let longest = slow.slowest.len();
        match typed(&slow.slowest) {
            Some(input) => {
                let run = Invocation::new(Command::Run)
                    .with_flags_of(invocation, &flags::VERDICT)
                    .set(&flags::SOLUTION, [Value::Text(slow.submission.clone())])
                    .with_positional(vec![input]);
                let _ = writeln!(out, "{}", fit::command("  slowest   ", &run, width));
            }
            None => {
                let (shape, len, seed) = (GROWTH_INPUT.0.name(), crate::problem::MAX_LEN, GROWTH_INPUT.1);
                let said = format!(
                    "the first {} piles of: cargo judge gen --shape {shape} --len {len} --seed {seed}",
                    units::thousands(longest as u64)
                );
                out.push_str(&fit::labelled("slowest", &said, width));
            }
        }
    }
    out
}

pub fn json(example: &Counterexample, commands: &Commands, limits: &Limits) -> Json {
    let answer = match &example.got {
        Got::Answer(answer) => Some(String::from_utf8_lossy(answer).into_owned()),
        _ => None,
    };
    let [leads, play] =
        explanation::fields(&example.explained).unwrap_or([("leads", Json::Null), ("play", Json::Null)]);
    let (index, given) = match example.origin {
        Origin::Swept(index) => (Json::int(index), Json::Null),
        Origin::Given(k) => (Json::Null, Json::int(k as i128)),
    };
    Json::object([
        ("solution", Json::str(&example.submission)),
        ("index", index),
        ("given", given),
        ("original_len", Json::int(example.original_len as i128)),
        ("reproduced", Json::Bool(example.reproduced)),
        ("before", Json::Array(example.before.iter().map(|v| Json::str(format::write_input(v).trim_end())).collect())),
        ("input", Json::str(format::write_input(&example.values).trim_end())),
        ("oracle", Json::str(example.expected.as_str())),
        ("verdict", Json::str(example.got.verdict().code())),
        ("got", Json::opt(answer, Json::str)),
        ("reason", Json::str(got(&example.got, limits))),
        ("stdout", Json::opt(example.printed.as_ref(), |c| Json::str(String::from_utf8_lossy(&c.stdout.head)))),
        ("stderr", Json::opt(example.printed.as_ref(), |c| Json::str(String::from_utf8_lossy(&c.stderr.head)))),
        ("tried", Json::int(example.tried as i128)),
        ("shrinking_stopped", Json::Bool(example.stopped)),
        leads,
        play,
        ("original", Json::opt(commands.original.as_ref(), |c| Json::str(c.shell()))),
        ("rerun", Json::str(commands.rerun.shell())),
        ("note", Json::opt(load_note(example.got.verdict()), Json::str)),
        ("try_it", Json::opt(commands.try_it.as_ref(), |c| Json::str(c.shell()))),
        ("keep_it", Json::opt(commands.keep_it.as_ref(), |c| Json::str(c.shell()))),
    ])
}

pub fn rate_json(rate: &Rate) -> Vec<(&'static str, Json)> {
    vec![
        ("checked", Json::int(rate.checked)),
        ("elapsed_ns", Json::int(rate.elapsed.as_nanos() as i128)),
        ("per_second", Json::Float(rate.checked as f64 / rate.elapsed.as_secs_f64().max(1e-9))),
        ("solutions", Json::int(rate.submissions as i128)),
        ("threads", Json::int(rate.jobs as i128)),
        ("build", Json::str(super::conditions::build_profile())),
    ]
}

pub fn saved_json(saved: Option<&Saved>, root: Option<&Path>) -> [(&'static str, Json); 2] {
    match saved {
        Some(Saved::Stored(input)) => [("saved", Json::str(path(input, root))), ("duplicate_of", Json::Null)],
        Some(Saved::Duplicate { id, .. }) => [("saved", Json::Null), ("duplicate_of", Json::str(id))],
        None => [("saved", Json::Null), ("duplicate_of", Json::Null)],
    }
}

pub fn slow_json(slow: &[Slow], limits: &Limits) -> Json {
    Json::Array(
        slow.iter()
            .map(|s| {
                Json::object([
                    ("solution", Json::str(&s.submission)),
                    ("against_oracle", Json::Float(s.against_oracle)),
                    ("growth", Json::str(growth::words(&s.growth, limits.time))),
                    ("slowest_len", Json::int(s.slowest.len() as i128)),
                ])
            })
            .collect(),
    )
}

/// The judge errors and notes of stored data changed during the run.
pub fn changes_json(changed: &Changed, root: Option<&Path>) -> [(&'static str, Json); 2] {
    let lines = Json::Array(guard::lines(changed, root).into_iter().map(Json::str).collect());
    match changed.confined {
        true => [("judge_errors", Json::Array(Vec::new())), ("notes", lines)],
        false => [("judge_errors", lines), ("notes", Json::Array(Vec::new()))],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rate_fits_the_width_and_says_every_figure() {
        let rate = Rate { checked: 1_000_000, elapsed: std::time::Duration::from_millis(190), submissions: 1, jobs: 2 };
        for width in [80, 100] {
            let said = rate_line("stress", "case", &rate, false, width);
            assert!(said.lines().all(|l| fit::chars(l) <= width), "at {width}:\n{said}");
            for figure in ["1,000,000 cases checked in 0.19 s", "5,263,157 cases/s", "1 solution + oracle", "2 threads"]
            {
                assert!(said.replace("\n  ", " ").contains(figure), "{figure:?} missing:\n{said}");
            }
        }
        assert_eq!(
            rate_line("verify", "array", &rate, true, 80),
            "verify: stopped at the first failure, after 1,000,000 arrays\n"
        );
    }
}
