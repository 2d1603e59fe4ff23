//! The text report: the matrix, the per-solution summary, the failures and the judge errors.
//! All of the judge's printing of results happens here, one function per part.

use std::fmt::Write as _;
use std::time::Duration;

use crate::format;
use crate::memory;
use crate::runner::{Outcome, SolutionRun};
use crate::style::Style;
use crate::summary::{Session, Summary};
use crate::verdict::Verdict;

/// `0.4µs`, `12µs`, `1.23ms`, `123ms`, `1.23s`: at most six characters.
pub fn show_duration(d: Duration) -> String {
    let ns = d.as_nanos() as f64;
    match ns {
        n if n < 10e3 => format!("{:.1}µs", n / 1e3),
        n if n < 1e6 => format!("{:.0}µs", n / 1e3),
        n if n < 10e6 => format!("{:.2}ms", n / 1e6),
        n if n < 1e9 => format!("{:.0}ms", n / 1e6),
        n => format!("{:.2}s", n / 1e9),
    }
}

pub fn build_profile() -> &'static str {
    if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    }
}

pub fn render(session: &Session, style: Style, verbose: bool) -> String {
    let mut out = String::new();
    header(&mut out, session, style);
    matrix(&mut out, session, style);
    summary(&mut out, session, style);
    failures(&mut out, session, style, verbose);
    judge_errors(&mut out, session, style);
    footer(&mut out, session, style);
    out
}

fn header(out: &mut String, session: &Session, style: Style) {
    let suites: std::collections::BTreeSet<&str> =
        session.cases.iter().map(|c| c.id.split('/').next().unwrap_or("")).collect();
    writeln!(
        out,
        "{} {} on {} in {} · time limit {} · stack {} MiB · {} build",
        style.bold("judging"),
        count(session.runs.len(), "solution"),
        count(session.cases.len(), "case"),
        count(suites.len(), "suite"),
        show_duration(session.limits.time_limit),
        session.limits.stack_mb,
        build_profile()
    )
    .unwrap();
    let legend: Vec<String> =
        session.runs.iter().enumerate().map(|(i, r)| format!("#{} {}", i + 1, r.entry.name)).collect();
    writeln!(out, "{}\n", style.dim(&legend.join(" · "))).unwrap();
}

/// A strategy's cell holds its verdict and time; a wrong solution's only the verdict, since
/// its times say nothing and two dozen wide columns would not fit a terminal.
fn cell_width(run: &SolutionRun, column: usize) -> usize {
    let label = format!("#{}", column + 1).len();
    if run.expected == Verdict::Ac {
        label.max(9)
    } else {
        label.max(3)
    }
}

fn matrix(out: &mut String, session: &Session, style: Style) {
    if session.cases.is_empty() || session.runs.is_empty() {
        return;
    }
    let name_width = session.cases.iter().map(|c| c.id.chars().count()).max().unwrap_or(4).max(4);
    let widths: Vec<usize> = session.runs.iter().enumerate().map(|(i, r)| cell_width(r, i)).collect();
    let mut head = format!("{:name_width$}  {:>6}", "case", "n");
    for (i, width) in widths.iter().enumerate() {
        write!(head, "  {:<width$}", format!("#{}", i + 1)).unwrap();
    }
    writeln!(out, "{}", head.trim_end()).unwrap();
    for (c, case) in session.cases.iter().enumerate() {
        let mut line = format!("{:name_width$}  {:>6}", case.id, case.values.len());
        for (run, &width) in session.runs.iter().zip(&widths) {
            let cell = match &run.outcomes[c] {
                None => style.dim(&format!("{:<width$}", "·")),
                Some(o) if run.expected != Verdict::Ac => {
                    style.verdict(o.verdict, &format!("{:<width$}", o.verdict.code()))
                }
                Some(o) => style.verdict(o.verdict, &format!("{:<width$}", cell_text(o))),
            };
            write!(line, "  {cell}").unwrap();
        }
        writeln!(out, "{}", line.trim_end()).unwrap();
    }
    out.push('\n');
}

fn cell_text(outcome: &Outcome) -> String {
    match (outcome.verdict, outcome.nanos) {
        (Verdict::Tle, None) => "TLE".to_string(),
        (verdict, Some(ns)) => format!("{verdict} {}", show_duration(Duration::from_nanos(ns))),
        (verdict, None) => verdict.to_string(),
    }
}

fn summary(out: &mut String, session: &Session, style: Style) {
    let rows: Vec<[String; 9]> = session
        .runs
        .iter()
        .enumerate()
        .map(|(i, run)| {
            let s = Summary::of(run, session.cases);
            let time = |d: Option<Duration>| d.map_or("-".to_string(), show_duration);
            [
                format!("#{}", i + 1),
                run.entry.name.to_string(),
                run.expected.to_string(),
                s.verdicts,
                time(s.median.map(|_| s.total)),
                time(s.median),
                s.slowest.map_or("-".to_string(), |(d, case)| format!("{} {case}", show_duration(d))),
                memory::show_kib(run.peak_kib),
                if run.met_expectation() { "yes" } else { "NO" }.to_string(),
            ]
        })
        .collect();
    let head = ["", "solution", "expect", "verdicts", "total", "median", "slowest", "peak rss", "as expected"];
    let mut widths = head.map(|h| h.chars().count());
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: &[String; 9]| {
        let mut text = String::new();
        for (k, (cell, w)) in cells.iter().zip(widths).enumerate() {
            let padded = if (4..=5).contains(&k) { format!("{cell:>w$}") } else { format!("{cell:<w$}") };
            text.push_str(&padded);
            text.push_str("  ");
        }
        text.trim_end().to_string()
    };
    writeln!(out, "{}", style.bold(&line(&head.map(String::from)))).unwrap();
    for (row, run) in rows.iter().zip(session.runs) {
        let text = line(row);
        let text = if run.met_expectation() { text } else { style.bad(&text) };
        writeln!(out, "{text}").unwrap();
    }
}

/// `1 case`, `2 cases`.
fn count(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

fn failures(out: &mut String, session: &Session, style: Style, verbose: bool) {
    let mut shown = false;
    for run in session.runs {
        if let Some(error) = &run.spawn_error {
            writeln!(out, "\n{} {}: {error}", style.bad("error"), run.entry.name).unwrap();
        } else if run.overall() == Verdict::Ac && run.expected != Verdict::Ac {
            let message = format!(
                "{} is tagged {} but passed all {} it ran: the stored cases miss its mistake",
                run.entry.name,
                run.expected,
                count(run.outcomes.iter().flatten().count(), "case")
            );
            writeln!(out, "\n{}", style.bad(&message)).unwrap();
        }
        for (case, outcome) in session.cases.iter().zip(&run.outcomes) {
            let Some(outcome) = outcome.as_ref().filter(|o| o.verdict != Verdict::Ac) else {
                continue;
            };
            if run.met_expectation() && !verbose {
                continue;
            }
            if !shown {
                writeln!(out, "\n{}", style.bold("failures")).unwrap();
                shown = true;
            }
            let expected = if outcome.verdict == run.expected { " (as expected)" } else { "" };
            let label = style.verdict(outcome.verdict, outcome.verdict.code());
            writeln!(out, "\n{label} {} on {}{expected}", run.entry.name, case.id).unwrap();
            writeln!(out, "  input     {}  ({})", format::abbreviate(&case.values), case.shown_path()).unwrap();
            writeln!(out, "  expected  \"{}\"", case.expected.as_str()).unwrap();
            if let Some(answer) = &outcome.answer {
                writeln!(out, "  got       {answer:?}").unwrap();
            }
            if let Some(reason) = &outcome.reason {
                writeln!(out, "  reason    {reason}").unwrap();
            }
            if !outcome.stdout.is_empty() {
                let printed: String = outcome.stdout.chars().take(200).collect();
                writeln!(out, "  stdout    {:?}", printed).unwrap();
            }
            writeln!(out, "  rerun     {}", session.rerun_command(run.entry.name, &case.id)).unwrap();
        }
    }
}

fn judge_errors(out: &mut String, session: &Session, style: Style) {
    if session.bad.is_empty() {
        return;
    }
    writeln!(out, "\n{}", style.bad("judge errors (these cases were not judged)")).unwrap();
    for bad in session.bad {
        writeln!(out, "  {}: {}", bad.id, bad.message).unwrap();
    }
}

fn footer(out: &mut String, session: &Session, style: Style) {
    let met = session.runs.iter().filter(|r| r.met_expectation()).count();
    let verdict = format!("{met}/{} solutions got their expected verdicts", session.runs.len());
    let verdict = if met == session.runs.len() { style.good(&verdict) } else { style.bad(&verdict) };
    let errors = match session.bad.len() {
        0 => String::new(),
        n => format!(" · {}", style.bad(&format!("{n} judge error{}", if n == 1 { "" } else { "s" }))),
    };
    writeln!(out, "\n{verdict}{errors} · wall {} · exit {}", show_duration(session.wall), session.exit_status())
        .unwrap();
}
