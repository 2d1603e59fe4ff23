//! `judge run`, like LeetCode's Run button: testcases typed in, one per line (from the command
//! line, a file or stdin), through the strategies or the named solutions; each gets the
//! oracle's answer, and each solution's verdict, answer, time, memory and output is shown.

use std::io::{self, Read};
use std::path::PathBuf;

use super::{emit, status, Exit, Stop};
use crate::cli::Args;
use crate::exec::compile::Checks;
use crate::exec::diagnose::Newer;
use crate::judging::engine::{self, Plan};
use crate::judging::report::{first_failure, Report};
use crate::judging::verdict::Verdict;
use crate::judging::workbench::{Cases, Setup};
use crate::out::Out;
use crate::problem::format;
use crate::render;
use crate::render::error::Error;
use crate::render::style::Style;

pub fn run(args: &Args, out: &Out) -> Result<Exit, Stop> {
    let (text, origin) = testcases(args)?;
    let inputs = format::parse_testcases(&text).map_err(|error| Error::Input { origin, error })?;
    if args.plain && args.solutions.len() != 1 {
        return Err(Error::PlainNeedsOne.into());
    }
    let start = std::time::Instant::now();
    let bench = super::open(&Setup { cases: Cases::Given(&inputs), strict: false, ..super::setup(args) }, out)?;
    let plan = Plan {
        submissions: &bench.submissions,
        cases: &bench.cases,
        limits: bench.limits(),
        jobs: 1,
        fail_fast: false,
        all_failures: true,
    };
    // Which standard library items are newer than LeetCode's Rust, beside the calls, as the
    // judge warns of them; and, where the compiler is not LeetCode's own, what that leaves out.
    let (cards, newer): (_, Vec<Vec<Newer>>) = std::thread::scope(|scope| {
        let newer = scope.spawn(|| bench.submissions.iter().map(|s| bench.newer(s).unwrap_or_default()).collect());
        let cards = engine::run(&bench, &plan, &mut |_| {});
        (cards, newer.join().unwrap_or_default())
    });
    let about = bench.compiler.about();
    if about.checks != Checks::Everything && !args.plain {
        out.note(&format!("judge: {}", render::paste::compiler(&about)));
    }
    let report = Report::new(bench, cards, &args.solutions, false, start.elapsed());
    let all_right = report.cards.iter().all(|r| first_failure(r) == Some(Verdict::Ac));
    let exit = status(report.has_judge_errors(), !all_right);
    if args.plain {
        return plain(&report, out);
    }
    let style = Style::new(args.color);
    let text = || render::run::text(&report, style) + &render::verdicts::newer(&report, &newer);
    emit(out, args.format, exit, text, |e| render::run::json(&report, e))
}

/// The testcases' text and where it came from: `--file`, the argument, or stdin (also for `-`).
fn testcases(args: &Args) -> Result<(String, String), Error> {
    if let Some(path) = &args.file {
        let text = crate::judging::cases::read_case_file(path).map_err(|problem| Error::Case { problem })?;
        return Ok((text, path.display().to_string()));
    }
    match args.positional.first() {
        Some(text) if text != "-" => Ok((text.clone(), "input".to_string())),
        _ => {
            let mut text = String::new();
            io::stdin()
                .read_to_string(&mut text)
                .map_err(|error| Error::Io { path: PathBuf::from("<stdin>"), error })?;
            Ok((text, "<stdin>".to_string()))
        }
    }
}

/// Only the answers of the one solution, a line each, as LeetCode prints them (for `oj test -c`).
fn plain(report: &Report, out: &Out) -> Result<Exit, Stop> {
    let mut right = true;
    for result in &report.cards[0].results {
        match result.as_ref().map(|r| &r.call.result) {
            Some(Ok(answered)) => out.print(&format!("\"{}\"\n", String::from_utf8_lossy(&answered.answer)))?,
            _ => {
                right = false;
                let why = render::run::text(report, Style::plain());
                out.note(&format!("judge: {}: {}", report.submissions[0].name, why.lines().last().unwrap_or("")));
            }
        }
    }
    Ok(if right { Exit::Success } else { Exit::Failure })
}
