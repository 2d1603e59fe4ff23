//! One module per command, each the same short path: its options (from the flag table's
//! typed `Args`), the workbench, its engine, and render. Here: the dispatch, the exit
//! statuses, and how an error is reported.

mod bench;
mod bless;
mod diagnostics;
mod gen;
mod judge;
mod mutants;
mod new;
mod page;
mod paste;
mod run;
mod stress;
mod verify;
mod watch;

use crate::cli::{Args, Command, Format, Invocation};
use crate::exec::diagnose::Newer;
use crate::judging::editor;
use crate::judging::engine::{self, Event, Judged, Plan};
use crate::judging::submissions::Catalog;
use crate::judging::workbench::{Cases, Chosen, Setup, SetupError, Workbench};
use crate::out::{Closed, Out};
use crate::problem::leetcode;
use crate::render;
use crate::render::error::Error;
use crate::render::json::Json;

/// The judge's exit statuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Everything was as expected.
    Success = 0,
    /// A solution did not get its expected verdict, or a counterexample was found.
    Failure = 1,
    /// A judge error: a bad flag, case or file, changed stored data; nothing to trust.
    Error = 2,
}

/// How a command ends before it has a status of its own.
pub enum Stop {
    /// Standard output was closed (`judge gen | head`): end quietly.
    Closed,
    Error(Error),
}

impl From<Error> for Stop {
    fn from(error: Error) -> Stop {
        Stop::Error(error)
    }
}

impl From<SetupError> for Stop {
    fn from(error: SetupError) -> Stop {
        Stop::Error(Error::Setup(error))
    }
}

impl From<crate::search::SearchError> for Stop {
    fn from(error: crate::search::SearchError) -> Stop {
        Stop::Error(Error::Search(error))
    }
}

impl From<Closed> for Stop {
    fn from(_: Closed) -> Stop {
        Stop::Closed
    }
}

/// What a command opens the workbench with, from its flags: the strategies, no cases, the
/// flags' limits, strict about submissions. Each command changes what differs.
fn setup(args: &Args) -> Setup<'_> {
    Setup {
        cases_dir: args.cases_dir.as_deref(),
        solutions: &args.solutions,
        by_default: Chosen::Strategies,
        cases: Cases::None,
        limits: Some(args.limits()),
        strict: true,
        rust_version: &args.leetcode_rust,
        compile_limit: args.compile_limit,
        sandbox: args.sandbox,
        cgroup: args.cgroup,
        runner: args.runner,
    }
}

/// Opens the workbench, and says once, on stderr, what the runner is where its word is not
/// enough, and when children run without a sandbox and why (the judge's header says it in its
/// own line).
fn open(setup: &Setup, args: &Args, out: &Out) -> Result<Workbench, Stop> {
    let workbench = Workbench::open(setup)?;
    let rules = workbench.housing.kind.rules();
    if let Some(note) = rules.note {
        say(out, args, note);
    }
    if let Some(why) = &workbench.unconfined {
        out.note(&format!("judge: {}", render::conditions::sandbox(Some(why))));
    }
    if let Some(why) = workbench.uncounted.as_ref().filter(|_| rules.cells) {
        out.note(&format!("judge: {}", render::conditions::counting(None, Some(why))));
    }
    Ok(workbench)
}

/// Says on stderr, a line each, which of the submissions chosen by default (a user's attempts
/// among the strategies) a command goes on without: those that cannot be read and those that
/// do not compile.
fn skip_broken(workbench: &mut Workbench, args: &Args, out: &Out) {
    if workbench.by_default {
        for error in &workbench.bad_submissions {
            say(out, args, &render::error::skipped_unreadable(error));
        }
    }
    for (submission, error) in workbench.drop_uncompiled() {
        say(out, args, &render::error::skipped_uncompiled(&submission.name, &error));
    }
}

/// Says `text` on stderr after `judge: `, wrapped to the width notes fit.
fn say(out: &Out, args: &Args, text: &str) {
    out.note(&render::fit::words("judge: ", text, "  ", note_width(args, out)));
}

/// The width notes on stderr fit: `--width`, else the terminal's, else `fit::DEFAULT_WIDTH`.
fn note_width(args: &Args, out: &Out) -> usize {
    args.width.or(out.note_columns()).unwrap_or(render::fit::DEFAULT_WIDTH).max(render::fit::NARROWEST)
}

/// Says once a run, on stderr, what a compiler other than LeetCode's leaves unchecked.
fn compiler_notice(about: &crate::exec::compile::About, args: &Args, out: &Out) {
    if let Some(notice) = render::paste::notice(about) {
        out.note_once(&render::fit::words("judge: ", &notice, "  ", note_width(args, out)));
    }
}

/// Judges by `plan`, and beside the builds and the calls finds which standard library items
/// each submission uses that are newer than LeetCode's Rust (clippy's check of every file).
fn judge_and_newer(workbench: &Workbench, plan: &Plan, on: &mut dyn FnMut(&Event)) -> (Judged, Vec<Vec<Newer>>) {
    std::thread::scope(|scope| {
        let newer =
            scope.spawn(|| workbench.submissions.iter().map(|s| workbench.newer(s).unwrap_or_default()).collect());
        let judged = engine::run(workbench, plan, on);
        (judged, newer.join().unwrap_or_default())
    })
}

/// Brings the project an editor's rust-analyzer reads (`judging::editor`) in line with the
/// solution files as they are now. A project that cannot be written is said on stderr and
/// stops nothing: it is for the editor, not for the command.
fn refresh_editor(workbench: &Workbench, out: &Out) {
    let names = Catalog::scan(&workbench.workspace).map(|c| c.names()).unwrap_or_else(|_| workbench.catalog.names());
    let project = editor::Project::new(&workbench.workspace, &names, workbench.compiler.sysroot(), leetcode::EDITION);
    if let Err(error) = editor::write(&project, &render::editor::files(&project)) {
        let error = Error::Io { path: project.folder.clone(), error };
        out.note(&format!("judge: {}", render::error::describe(&error, Some(&workbench.workspace.root))));
    }
}

pub fn run(invocation: &Invocation, out: &Out) -> Result<Exit, Stop> {
    let args = invocation.args();
    match invocation.command {
        Command::Judge => judge::run(&args, invocation, out),
        Command::Run => run::run(&args, invocation, out),
        Command::Paste => paste::run(&args, out),
        Command::Watch => watch::run(&args, invocation, out),
        Command::Gen => gen::run(&args, invocation, out),
        Command::Bless => bless::run(&args, out),
        Command::Stress => stress::run(&args, invocation, out),
        Command::Verify => verify::run(&args, invocation, out),
        Command::Bench => bench::run(&args, invocation, out),
        Command::Mutants => mutants::run(&args, invocation, out),
        Command::Diagnostics => diagnostics::run(&args, invocation, out),
        Command::New => new::run(&args, out),
        Command::Help => {
            let topic = args.positional.first().and_then(|w| Command::parse(w));
            let width = judge::width(&args, out);
            let text = topic.map_or_else(|| render::help::overview(width), |c| render::help::command(c, width));
            out.print(&text)?;
            Ok(Exit::Success)
        }
        Command::Watchdog => {
            crate::exec::watchdog::serve(std::io::stdin().lock());
            Ok(Exit::Success)
        }
    }
}

/// Says what went wrong, on stderr, and as a JSON document on stdout when JSON was asked
/// for; the status is always `Exit::Error`.
pub fn report_error(error: &Error, invocation: Option<&Invocation>, json: bool, out: &Out) -> Exit {
    let root = crate::judging::workspace::Workspace::find(None).ok().map(|w| w.root);
    let message = render::error::describe(error, root.as_deref());
    let width = invocation.and_then(|i| i.args().width).or(out.note_columns()).unwrap_or(render::fit::DEFAULT_WIDTH);
    out.note(&render::error::fitted(&message, width.max(render::fit::NARROWEST)));
    if json {
        let command = invocation.map_or("", |i| i.command.word());
        let _ = out.print(&render::error::json(command, &message, Exit::Error as u8).render());
    }
    Exit::Error
}

/// Prints a report in the chosen form and returns the exit status.
fn emit(
    out: &Out,
    format: Format,
    exit: Exit,
    text: impl FnOnce() -> String,
    json: impl FnOnce(u8) -> Json,
) -> Result<Exit, Stop> {
    out.print(&render::document(format, exit as u8, text, json))?;
    Ok(exit)
}

/// The status of a run: a judge error wins over a failure.
fn status(judge_error: bool, failed: bool) -> Exit {
    match (judge_error, failed) {
        (true, _) => Exit::Error,
        (false, true) => Exit::Failure,
        _ => Exit::Success,
    }
}

/// Threads for the work that mostly waits on children: one per core.
fn jobs(args: &Args) -> usize {
    args.jobs.unwrap_or_else(crate::parallel::cores)
}
