//! `judge` (no command word): every solution over the stored cases, a live matrix of verdicts,
//! then the rest of the report in one call: each solution's figures, its failure blocks and how
//! its time grows when it hit a time limit.

use std::time::Instant;

use super::{emit, page, status, Exit, Stop};
use crate::cli::{flags, Args, Format, Invocation};
use crate::judging::engine::{self, Event, Judged, Plan};
use crate::judging::report::Report;
use crate::judging::verdict::Verdict;
use crate::judging::workbench::{Cases, Chosen, Setup, SetupError, Workbench};
use crate::out::Out;
use crate::render;
use crate::render::fit;
use crate::render::matrix::Layout;
use crate::render::style::Style;
use crate::render::units;
use crate::search::growth::{self, Growth};

pub fn run(args: &Args, invocation: &Invocation, out: &Out) -> Result<Exit, Stop> {
    run_with(args, invocation, out, None)
}

/// `run`, whose page (`--html`), if asked for, reloads itself every `reload` seconds while
/// `watch` rewrites it.
pub fn run_with(args: &Args, invocation: &Invocation, out: &Out, reload: Option<u32>) -> Result<Exit, Stop> {
    let start = Instant::now();
    // A printed rerun judges one case: it leaves the page of the whole run as it is.
    let invocation = &invocation.clone().set(&flags::HTML, None);
    let setup =
        Setup { by_default: Chosen::Every, cases: Cases::Stored(&args.cases), strict: false, ..super::setup(args) };
    let workbench = Workbench::open(&setup)?;
    super::refresh_editor(&workbench, out);
    if args.format == Format::Text {
        super::compiler_notice(&workbench.compiler.about(), args, out);
    }
    let workbench = something_to_judge(workbench)?;
    let root = workbench.workspace.root.clone();
    let cache = workbench.workspace.cache.clone();
    let html = match &args.html {
        None => None,
        Some(path) => Some(page::path(&workbench.workspace, path.clone(), flags::PAGE, "the page")?),
    };
    let layout = layout(args, out);
    let text = args.format == Format::Text;
    let plan = Plan {
        submissions: &workbench.submissions,
        cases: &workbench.cases,
        limits: workbench.limits(),
        jobs: jobs(args),
        fail_fast: args.fail_fast,
        all_failures: args.all_failures,
        every_case: false,
        stop_after: 1,
        alone: true,
    };
    // The matrix prints each row as the events complete it.
    let mut matrix = text.then(|| render::matrix::Matrix::start(&workbench, layout));
    let mut closed = false;
    if let Some((_, head)) = &matrix {
        closed |= out.print(head).is_err();
    }
    let names: Vec<&str> = workbench.submissions.iter().map(|s| s.name.as_str()).collect();
    let mut compiled = 0;
    let (mut done, pairs) = (0u64, (names.len() * workbench.cases.len()) as u64);
    out.running(|| Some(format!("compiling {}", units::count(names.len(), "solution"))));
    let (judged, newer) = super::judge_and_newer(&workbench, &plan, &mut |event| {
        match event {
            Event::Running { submission, case } => out.running(|| {
                let case = units::escape(&workbench.cases[*case].id);
                Some(format!("running {} on {case}", names[*submission]))
            }),
            Event::Compiled { .. } => {
                compiled += 1;
                out.running(|| Some(format!("compiling: {compiled} of {} ready", names.len())));
            }
            // Cases judged side by side: the label of a call still running is no longer
            // known, so the count stands for it, ticking on while the next one runs.
            Event::Judged { .. } => {
                done += 1;
                out.running(|| Some(format!("judging: {}/{} done", units::thousands(done), units::thousands(pairs))));
            }
            _ => {}
        }
        if let (Some((m, _)), false) = (matrix.as_mut(), closed) {
            closed |= out.print(&m.event(event)).is_err();
        }
    });
    out.running(|| None);
    if closed {
        return Err(Stop::Closed);
    }
    out.running(|| Some("judging: timing prefixes of the case that hit the time limit".to_string()));
    let growth = timed_out_growth(&workbench, &judged);
    // The report of many long failures takes a while to make: the line goes on until it is out.
    let making = || Some("judging: making the report".to_string());
    out.running(making);
    let report = Report::new(workbench, judged, newer, &args.solutions, !args.cases.is_empty(), start.elapsed());
    let exit = status(report.has_judge_errors(), !report.all_met());
    // A page that could not be written is said after the report, which is whole without it.
    let mut unwritten = None;
    if let Some(path) = &html {
        let judged = render::html::Judged { report: &report, invocation, root: Some(&root), exit: exit as u8 };
        let page = render::html::Page {
            command: invocation.shell(),
            made: std::time::SystemTime::now(),
            comparison: page::judged(&report, &growth, &cache),
            judged: Some(judged),
            sources: &report.submissions,
            reload,
        };
        let html = render::html::render(&page);
        out.running(|| None);
        unwritten = page::write(path, &html, out).err();
        out.running(making);
    }
    let exit = if unwritten.is_some() { Exit::Error } else { exit };
    let options = render::judge_text::Options {
        layout,
        verbose: args.verbose,
        all_failures: args.all_failures,
        invocation,
        root: Some(&root),
    };
    let exit = match matrix {
        Some((mut m, _)) => {
            let (rows, text) = (m.rows(true), render::judge_text::report(&report, &growth, &options, exit as u8));
            out.running(|| None);
            out.print(&rows)?;
            out.print(&text)?;
            exit
        }
        // The text report went out live; any other form is written whole at the end.
        None => {
            out.running(|| None);
            emit(out, args.format, exit, String::new, |e| {
                render::judge_json::report(&report, &growth, invocation, e, Some(&root))
            })?
        }
    };
    page::say_unwritten(unwritten, &root, args, out);
    Ok(exit)
}

/// The workbench, unless every submission named could not be read: then the first reason is
/// the error, not an empty report.
pub fn something_to_judge(mut workbench: Workbench) -> Result<Workbench, Stop> {
    if workbench.submissions.is_empty() && !workbench.bad_submissions.is_empty() {
        return Err(SetupError::Catalog(workbench.bad_submissions.swap_remove(0)).into());
    }
    Ok(workbench)
}

/// The width the text report fits: `--width`, else the terminal's, else `fit::DEFAULT_WIDTH`.
pub fn width(args: &Args, out: &Out) -> usize {
    args.width.or(out.columns()).unwrap_or(fit::DEFAULT_WIDTH).max(fit::NARROWEST)
}

fn layout(args: &Args, out: &Out) -> Layout {
    Layout { style: Style::new(args.color), width: width(args, out), full: args.full_matrix }
}

/// Threads for wrong submissions and mutants: most of their calls wait on a limit, so twice
/// the cores overlap those waits without crowding the machine.
fn jobs(args: &Args) -> usize {
    args.jobs.unwrap_or_else(|| 2 * crate::parallel::cores())
}

/// For every strategy that hit a time limit: how its time grows, on prefixes of the first case
/// it timed out on, in the program the engine built.
fn timed_out_growth(workbench: &Workbench, judged: &Judged) -> Vec<Option<Growth>> {
    let first_tle = |card: &engine::Scorecard| {
        card.results.iter().enumerate().find_map(|(c, r)| {
            let r = r.as_ref().filter(|r| r.verdict == Some(Verdict::Tle))?;
            Some(&workbench.cases[c].tests[r.test].values)
        })
    };
    (workbench.submissions.iter().zip(&judged.cards).zip(&judged.programs))
        .map(|((submission, card), program)| {
            let values = first_tle(card).filter(|_| submission.is_strategy())?;
            growth::probe(&mut workbench.runner(program.as_ref()?), values).ok()
        })
        .collect()
}
