//! The judge's text report, second part: per-solution figures, at most three failure blocks
//! per solution (each with the command that reruns it), the judge errors, and a last line that
//! names every solution that did not get its expected verdict.

use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use super::error::{case_problem, compile_error, path, submission_error};
use super::style::Style;
use super::table;
use super::units;
use super::words;
use crate::cli::{flags, Command, Invocation, Value};
use crate::exec::diagnose::Newer;
use crate::judging::engine::{CaseResult, Cut, Fault, Scorecard};
use crate::judging::guard::Change;
use crate::judging::report::{first_failure, Met, Report};
use crate::judging::verdict::Verdict;
use crate::search::growth::Growth;

/// Failure blocks shown per solution unless `--all-failures`.
pub const FAILURES_SHOWN: usize = 3;

/// The figures shown for one solution, for the text and the JSON report alike.
pub struct Figures {
    pub ran: usize,
    pub accepted: usize,
    pub total: Duration,
    pub median: Option<Duration>,
    pub slowest: Option<(Duration, usize)>,
    pub peak_kib: Option<u64>,
    /// `58/58 AC`, `3 AC, then WA`, `CE`.
    pub verdicts: String,
}

impl Figures {
    pub fn of(card: &Scorecard, cases: usize, strategy: bool) -> Figures {
        let done: Vec<(usize, &CaseResult)> =
            card.results.iter().enumerate().filter_map(|(i, r)| Some((i, r.as_ref()?))).collect();
        let accepted = done.iter().filter(|(_, r)| r.verdict == Some(Verdict::Ac)).count();
        let mut times: Vec<(Duration, usize)> = done
            .iter()
            .filter_map(|(i, r)| Some((Duration::from_nanos(r.call.result.as_ref().ok()?.nanos), *i)))
            .collect();
        times.sort();
        let failed: Vec<Verdict> = done.iter().filter_map(|(_, r)| r.verdict).filter(|v| *v != Verdict::Ac).collect();
        let verdicts = match (first_failure(card), failed.as_slice()) {
            (Some(Verdict::Ce), _) => "CE".to_string(),
            (None, _) => "not run".to_string(),
            (_, []) => format!("{accepted}/{cases} AC"),
            (_, [only]) if !strategy => format!("{accepted} AC, then {}", only.code()),
            _ => Verdict::PRECEDENCE
                .iter()
                .map(|v| (v, done.iter().filter(|(_, r)| r.verdict == Some(*v)).count()))
                .filter(|(_, n)| *n > 0)
                .map(|(v, n)| format!("{n} {}", v.code()))
                .collect::<Vec<_>>()
                .join(", "),
        };
        let skipped = card.results.iter().filter(|r| r.is_none()).count();
        let verdicts = match card.cut {
            Some(Cut::TimeLimits(_)) if skipped > 0 => format!("{verdicts}; {skipped} not judged"),
            _ => verdicts,
        };
        Figures {
            ran: done.len(),
            accepted,
            total: times.iter().map(|(t, _)| *t).sum(),
            median: (!times.is_empty()).then(|| times[times.len() / 2].0),
            slowest: times.last().copied(),
            peak_kib: done.iter().filter_map(|(_, r)| r.call.result.as_ref().ok()?.peak_kib).max(),
            verdicts,
        }
    }
}

/// The command that judges one solution on one case with the same options as this run.
pub fn rerun(invocation: &Invocation, solution: &str, case: Option<&str>) -> Invocation {
    let narrowed = invocation.clone().set(&flags::SOLUTION, [Value::Text(solution.to_string())]);
    narrowed.set(&flags::CASE, case.map(|c| Value::Text(c.to_string())))
}

pub fn met_word(met: Met) -> &'static str {
    match met {
        Met::Yes => "yes",
        Met::No => "NO",
        Met::NotCaught => "not caught",
    }
}

pub fn summary(report: &Report, style: Style) -> String {
    let head = ["", "solution", "expect", "verdicts", "total", "median", "slowest", "peak mem", "as expected"];
    let time = |d: Option<Duration>| d.map_or("-".to_string(), units::duration);
    let rows: Vec<Vec<String>> = (report.submissions.iter().zip(&report.cards).zip(&report.met).enumerate())
        .map(|(i, ((s, card), met))| {
            let f = Figures::of(card, report.cases.len(), s.is_strategy());
            let slowest = f.slowest.map_or("-".to_string(), |(d, c)| {
                format!("{} {}", units::duration(d), units::escape(&report.cases[c].id))
            });
            vec![
                format!("#{}", i + 1),
                s.name.clone(),
                words::expect(s.expect),
                f.verdicts,
                time(f.median.map(|_| f.total)),
                time(f.median),
                slowest,
                units::kib(f.peak_kib),
                met_word(*met).to_string(),
            ]
        })
        .collect();
    let lines = table::layout(&head, &rows, &[4, 5]);
    let mut out = format!("\n{}\n", style.bold(&lines[0]));
    for (line, met) in lines[1..].iter().zip(&report.met) {
        let _ = writeln!(out, "{}", if *met == Met::No { style.bad(line) } else { line.clone() });
    }
    out
}

fn block(
    out: &mut String,
    report: &Report,
    s: usize,
    c: usize,
    result: &CaseResult,
    invocation: &Invocation,
    root: Option<&Path>,
) {
    let (submission, case) = (&report.submissions[s], &report.cases[c]);
    let verdict = result.verdict.unwrap_or(Verdict::Re);
    let _ = writeln!(out, "\n{} {} on {}", verdict.code(), submission.name, units::escape(&case.id));
    let _ = writeln!(out, "  input     {}  ({})", units::input(&case.values), path(&case.input, root));
    let _ = writeln!(out, "  expected  \"{}\"", case.expected.as_str());
    if let Ok(answered) = &result.call.result {
        let _ = writeln!(out, "  got       {}", units::answer(&answered.answer, answered.length));
    }
    if let Some(reason) = words::reason(&result.call, verdict, &report.limits) {
        let _ = writeln!(out, "  reason    {reason}");
    }
    for (label, printed) in [("stdout", &result.call.stdout), ("stderr", &result.call.stderr)] {
        if printed.total > 0 {
            out.push_str(&words::printed(label, &printed.head, printed.total, "  "));
        }
    }
    let shorter = Invocation::new(Command::Stress).set(&flags::SOLUTION, [Value::Text(submission.name.clone())]);
    out.push_str(&words::why(&case.values, "  ", &shorter.shell()));
    let _ = writeln!(out, "  rerun     {}", rerun(invocation, &submission.name, Some(&case.id)).shell());
}

pub fn failures(report: &Report, verbose: bool, all: bool, invocation: &Invocation, root: Option<&Path>) -> String {
    let mut out = String::new();
    for (s, (submission, card)) in report.submissions.iter().zip(&report.cards).enumerate() {
        if report.met[s] == Met::Yes && !verbose {
            continue;
        }
        if let Some(Err(error)) = &card.compiled {
            let _ = writeln!(out, "\nCE {}\n  error     {}", submission.name, compile_error(error));
            out.push_str(&words::diagnostic(&error.diagnostic, verbose, "  "));
            let _ = writeln!(out, "  rerun     {}", rerun(invocation, &submission.name, None).shell());
            continue;
        }
        let failed: Vec<usize> = (0..report.cases.len())
            .filter(|&c| card.results[c].as_ref().is_some_and(|r| r.verdict != Some(Verdict::Ac)))
            .collect();
        if report.met[s] == Met::No && failed.is_empty() && card.fault.is_none() {
            let ran = card.results.iter().flatten().count();
            let _ = writeln!(
                out,
                "\n{} is tagged {} but passed all {} it ran: the stored cases miss its mistake",
                submission.name,
                words::expect(submission.expect),
                units::count(ran, "case")
            );
        }
        let shown = if all { failed.len() } else { failed.len().min(FAILURES_SHOWN) };
        for &c in &failed[..shown] {
            if let Some(result) = &card.results[c] {
                block(&mut out, report, s, c, result, invocation, root);
            }
        }
        let all = rerun(invocation, &submission.name, None).set(&flags::ALL_FAILURES, [Value::On]);
        if shown < failed.len() {
            let more = failed.len() - shown;
            let _ = writeln!(out, "\n  … and {more} more {} failures; to show them: {}", submission.name, all.shell());
        }
        if let Some(Cut::TimeLimits(count)) = card.cut {
            let skipped = card.results.iter().filter(|r| r.is_none()).count();
            let _ = writeln!(
                out,
                "\n  {} more {} not judged after {count} TLE, each a whole time limit of waiting; to judge them all: {}",
                skipped,
                if skipped == 1 { "case" } else { "cases" },
                all.shell()
            );
        }
    }
    out
}

/// How the time of each solution that hit a time limit grows with n.
pub fn growth(report: &Report, growth: &[Option<Growth>]) -> String {
    let mut out = String::new();
    for (submission, growth) in report.submissions.iter().zip(growth) {
        if let Some(growth) = growth {
            let _ = writeln!(
                out,
                "\n{} hit the time limit: {}",
                submission.name,
                words::growth(growth, report.limits.time)
            );
        }
    }
    out
}

/// The standard library items each submission uses that LeetCode's Rust does not have: it
/// would be a compile error there.
pub fn newer(report: &Report, newer: &[Vec<Newer>]) -> String {
    let mut out = String::new();
    for (submission, items) in report.submissions.iter().zip(newer).filter(|(_, items)| !items.is_empty()) {
        let _ = writeln!(
            out,
            "\nwarning: {} uses what LeetCode's Rust {} does not have yet (a compile error there):",
            submission.name, report.about.leetcode_rust
        );
        for item in items {
            let _ = writeln!(out, "  {}", super::paste::newer(item));
        }
    }
    out
}

/// Bad cases and files, faults, changed stored data, suspect outputs and filtered passes.
pub fn notes(report: &Report, root: Option<&Path>, style: Style) -> String {
    let mut out = String::new();
    // A tag outside solutions/wrong/ is read nowhere: every file there must get AC.
    for submission in report.submissions.iter().filter(|s| s.is_strategy()) {
        if let Some(tag) = submission.source.lines().next().filter(|l| l.starts_with("// expect:")) {
            let _ = writeln!(
                out,
                "\nnote: {} starts with `{}`, but tags are read only in solutions/wrong/: here every file is expected to get AC (move it there to judge it by its tag)",
                submission.shown,
                tag.trim()
            );
        }
    }
    for suspect in &report.suspects {
        let case = &report.cases[suspect.case];
        let _ = writeln!(
            out,
            "\nevery strategy answered \"{}\" on {} where {} says \"{}\", and the oracle says \"{}\": the stored .out looks wrong\n  check it  {}",
            suspect.oracle.as_str(),
            units::escape(&case.id),
            path(&case.output(), root),
            suspect.stored.as_str(),
            suspect.oracle.as_str(),
            Invocation::new(crate::cli::Command::Bless).set(&flags::CHECK, [Value::On]).shell()
        );
    }
    let not_caught: Vec<&str> = (report.submissions.iter().zip(&report.met))
        .filter(|(_, m)| **m == Met::NotCaught)
        .map(|(s, _)| s.name.as_str())
        .collect();
    if !not_caught.is_empty() {
        let _ = writeln!(
            out,
            "\nnot caught by the selected cases (fine: bundled wrong submissions are judged for their tags on the whole suite or when named): {}",
            not_caught.join(", ")
        );
    }
    let mut errors: Vec<String> = report
        .bad_cases
        .iter()
        .map(|b| format!("{}: {}", units::escape(&b.id), case_problem(&b.problem, root)))
        .collect();
    errors.extend(report.bad_submissions.iter().map(submission_error));
    for (submission, card) in report.submissions.iter().zip(&report.cards) {
        match &card.fault {
            Some(Fault::Build(e)) => errors.push(format!("{}: could not run the compiler: {e}", submission.name)),
            Some(Fault::Spawn(e)) => errors.push(format!("{}: could not start its process: {e}", submission.name)),
            Some(Fault::Call(result)) => {
                let reason = words::reason(&result.call, Verdict::Re, &report.limits).unwrap_or_default();
                errors.push(format!("{}: not judged: {reason}", submission.name));
            }
            None => {}
        }
    }
    errors.extend(report.changes.iter().map(|change| change_line(change, root)));
    if !errors.is_empty() {
        let _ = writeln!(out, "\n{}", style.bad("judge errors (not verdicts: fix these and judge again)"));
        for error in errors {
            let _ = writeln!(out, "  {error}");
        }
    }
    out
}

pub fn change_line(change: &Change, root: Option<&Path>) -> String {
    let (what, p) = match change {
        Change::Added(p) => ("appeared", p),
        Change::Removed(p) => ("was removed", p),
        Change::Modified(p) => ("was changed", p),
    };
    format!("{} {what} during the run: a solution wrote to stored data, so this run proves nothing", path(p, root))
}

/// The last line: how many met their expectations, who did not, the wall time, the status.
pub fn footer(report: &Report, exit: u8, style: Style) -> String {
    let total = report.submissions.len();
    let missed: Vec<&str> = (report.submissions.iter().zip(&report.met))
        .filter(|(_, m)| **m == Met::No)
        .map(|(s, _)| s.name.as_str())
        .collect();
    let met = format!("{}/{total} solutions got their expected verdicts", total - missed.len());
    let met = if missed.is_empty() { style.good(&met) } else { style.bad(&met) };
    let who = if missed.is_empty() { String::new() } else { format!(" · not as expected: {}", missed.join(", ")) };
    let errors = match report.has_judge_errors() {
        true => format!(" · {}", style.bad("judge errors above")),
        false => String::new(),
    };
    format!("\n{met}{who}{errors} · wall {} · exit {exit}\n", units::duration(report.wall))
}
