//! The local judge for LeetCode 1406, Stone Game III. `main` parses the command line,
//! dispatches to the engines, hands their data to `render`, and is the only code that writes
//! to stdout or stderr. The exit status is one of `Exit`'s; a closed pipe ends quietly.

mod bench;
mod cli;
mod exec;
mod judging;
mod out;
mod problem;
mod render;
mod search;

use std::io::{self, IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cli::options::{self, Format, Options};
use cli::Invocation;
use judging::engine::Event;
use judging::session::{self, SetupError, Source};
use judging::workspace::Workspace;
use render::error::Error;
use render::json::Json;
use render::style::Style;

use out::{Closed, Out};

/// The judge's exit statuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Exit {
    /// Everything was as expected.
    Success = 0,
    /// A solution did not get its expected verdict, or a counterexample was found.
    Failure = 1,
    /// A judge error: a bad flag, case or file, changed stored data; nothing to trust.
    Error = 2,
}

fn main() -> ExitCode {
    let out = Out::new();
    let invocation = cli::parse();
    let root = invocation.as_ref().ok().and_then(|_| Workspace::find(None).ok()).map(|w| w.root);
    let result = invocation.map_err(|e| Run::Failed(Error::Usage(e))).and_then(|i| run(&i, &out));
    let exit = match result {
        Ok(exit) => exit,
        Err(Run::Closed) => Exit::Success,
        Err(Run::Failed(error)) => {
            out.note(&format!("judge: {}", render::error::describe(&error, root.as_deref())));
            Exit::Error
        }
    };
    out.clear();
    ExitCode::from(exit as u8)
}

enum Run {
    Closed,
    Failed(Error),
}

impl From<Error> for Run {
    fn from(error: Error) -> Run {
        Run::Failed(error)
    }
}

impl From<Closed> for Run {
    fn from(_: Closed) -> Run {
        Run::Closed
    }
}

fn workspace(cases: Option<&Path>) -> Result<Workspace, Error> {
    let workspace = Workspace::find(cases).map_err(Error::NoWorkspace)?;
    // Without the watchdog, children still die at every verdict; only a killed judge leaks.
    exec::watchdog::start();
    Ok(workspace)
}

/// Prints a report in the chosen form and returns the exit status.
fn emit(
    out: &Out,
    format: Format,
    exit: Exit,
    text: impl FnOnce() -> String,
    json: impl FnOnce(u8) -> Json,
) -> Result<Exit, Run> {
    out.print(&render::document(format, exit as u8, text, json))?;
    Ok(exit)
}

fn status(judge_error: bool, failed: bool) -> Exit {
    match (judge_error, failed) {
        (true, _) => Exit::Error,
        (false, true) => Exit::Failure,
        _ => Exit::Success,
    }
}

fn run(invocation: &Invocation, out: &Out) -> Result<Exit, Run> {
    match options::options(invocation).map_err(Error::Usage)? {
        Options::Help(None) => out.print(&render::help::overview())?,
        Options::Help(Some(command)) => out.print(&render::help::command(command))?,
        Options::Watchdog => exec::watchdog::serve(io::stdin().lock()),
        Options::Gen(gen) => {
            let values = problem::generator::generate(gen.shape, gen.len, gen.seed);
            out.print(&problem::format::write_input(&values))?;
        }
        Options::Judge(o) => return judge(invocation, &o, out),
        Options::Run(o) => return custom(&o, out),
        Options::Paste(o) => return paste(&o, out),
        Options::Bless(o) => {
            let ws = workspace(o.cases.as_deref())?;
            let blessed = judging::bless::bless(&ws.cases, o.check).map_err(|e| Error::Setup(SetupError::Cases(e)))?;
            let exit = status(!blessed.broken.is_empty(), o.check && !blessed.changes.is_empty());
            let root = Some(ws.root.as_path());
            return emit(
                out,
                o.format,
                exit,
                || render::bless::text(&blessed, root),
                |e| render::bless::json(&blessed, e, root),
            );
        }
        Options::Stress(o) => {
            let ws = workspace(o.cases.as_deref())?;
            let total = o.request.count;
            let counted = &mut |done| out.count(&format!("stress: {done}/{total} cases"));
            let outcome = search::stress::stress(&ws, &o.request, counted).map_err(Error::Search)?;
            let exit = status(!outcome.changes.is_empty(), outcome.example.is_some());
            let (root, limits) = (Some(ws.root.as_path()), &o.request.limits);
            let text = || render::search::stress_text(&outcome, invocation, limits, root);
            return emit(out, o.format, exit, text, |e| {
                render::search::stress_json(&outcome, invocation, limits, e, root)
            });
        }
        Options::Verify(o) => {
            let ws = workspace(None)?;
            let counted = &mut |done| out.count(&format!("verify: {done} arrays"));
            let outcome = search::verify::verify(&ws, &o.request, counted).map_err(Error::Search)?;
            let exit = status(!outcome.changes.is_empty(), outcome.example.is_some());
            let (root, request) = (Some(ws.root.as_path()), &o.request);
            let text = || render::search::verify_text(&outcome, request, invocation, root);
            return emit(out, o.format, exit, text, |e| {
                render::search::verify_json(&outcome, request, invocation, e, root)
            });
        }
        Options::Bench(o) => return bench(&o, out),
        Options::Mutants(o) => {
            let ws = workspace(o.cases.as_deref())?;
            let counted = &mut |done, total| out.count(&format!("mutants: {done}/{total} judged"));
            let outcome = search::mutants::mutants(&ws, &o.request, counted).map_err(Error::Search)?;
            let survived = outcome.mutants.iter().any(|m| m.status == search::mutants::Status::Survived);
            let exit = status(!outcome.changes.is_empty(), survived);
            let root = Some(ws.root.as_path());
            let text = || render::mutants::text(&outcome, invocation, root);
            return emit(out, o.format, exit, text, |e| render::mutants::json(&outcome, invocation, e, root));
        }
    }
    Ok(Exit::Success)
}

fn judge(invocation: &Invocation, o: &options::Judge, out: &Out) -> Result<Exit, Run> {
    let ws = workspace(o.cases.as_deref())?;
    let root = ws.root.clone();
    let style = Style::new(o.color);
    let text = o.format == Format::Text;
    // Shared by the two callbacks: the header's, then the events'.
    struct Live {
        matrix: Option<render::matrix::Matrix>,
        closed: bool,
        names: Vec<String>,
        cases: Vec<String>,
        compiled: usize,
    }
    let live = std::cell::RefCell::new(Live {
        matrix: None,
        closed: false,
        names: Vec::new(),
        cases: Vec::new(),
        compiled: 0,
    });
    let report = session::judge(
        &ws,
        &o.request,
        Source::Stored,
        &mut |started| {
            let mut live = live.borrow_mut();
            live.names = started.submissions.iter().map(|s| s.name.clone()).collect();
            live.cases = started.cases.iter().map(|c| c.id.clone()).collect();
            out.running(|| Some(format!("compiling {}", render::units::count(live.names.len(), "solution"))));
            if text {
                let (m, head) = render::matrix::Matrix::start(started, style, o.request.fail_fast);
                live.closed |= out.print(&head).is_err();
                live.matrix = Some(m);
            }
        },
        &mut |event| {
            let mut live = live.borrow_mut();
            match &event {
                Event::Running { submission, case } => out.running(|| {
                    let case = render::units::escape(&live.cases[*case]);
                    Some(format!("running {} on {case}", live.names[*submission]))
                }),
                Event::Compiled { .. } => {
                    live.compiled += 1;
                    out.running(|| Some(format!("compiling: {} of {} ready", live.compiled, live.names.len())));
                }
                _ => out.running(|| None),
            }
            let Live { matrix, closed, .. } = &mut *live;
            if let (Some(m), false) = (matrix.as_mut(), *closed) {
                *closed |= out.print(&m.event(&event)).is_err();
            }
        },
    )
    .map_err(Error::Setup)?;
    let Live { matrix, closed, .. } = live.into_inner();
    out.running(|| None);
    if closed {
        return Err(Run::Closed);
    }
    let exit = status(report.has_judge_errors(), !report.all_met());
    if let Some(mut m) = matrix {
        out.print(&m.rows(true))?;
        out.print(&render::verdicts::summary(&report, style))?;
        out.print(&render::verdicts::failures(&report, o.verbose, o.all_failures, invocation, Some(&root)))?;
        out.print(&render::verdicts::notes(&report, invocation, Some(&root), style))?;
        out.print(&render::verdicts::footer(&report, exit as u8, style))?;
        Ok(exit)
    } else {
        // The text report went out live; any other form is written whole at the end.
        emit(out, o.format, exit, String::new, |e| render::judge_json::report(&report, invocation, e, Some(&root)))
    }
}

/// `judge run`: one input, from the command line, a file or stdin.
fn custom(o: &options::Run, out: &Out) -> Result<Exit, Run> {
    let (text, origin) = match (&o.file, &o.input) {
        (Some(path), _) => (
            judging::cases::read_case_file(path).map_err(|p| Error::Io {
                path: path.clone(),
                error: io::Error::other(render::error::case_problem(&p, None)),
            })?,
            path.display().to_string(),
        ),
        (None, Some(text)) if text != "-" => (text.clone(), "input".to_string()),
        _ => {
            let mut text = String::new();
            io::stdin()
                .read_to_string(&mut text)
                .map_err(|error| Error::Io { path: PathBuf::from("<stdin>"), error })?;
            (text, "<stdin>".to_string())
        }
    };
    let values = problem::format::parse_input(&text).map_err(|error| Error::Input { origin, error })?;
    if o.plain && o.solutions.len() != 1 {
        return Err(Error::PlainNeedsOne.into());
    }
    let ws = workspace(None)?;
    let request = session::Request {
        solutions: o.solutions.clone(),
        cases: Vec::new(),
        limits: o.limits,
        jobs: 1,
        fail_fast: false,
    };
    let report =
        session::judge(&ws, &request, Source::Input(&values), &mut |_| {}, &mut |_| {}).map_err(Error::Setup)?;
    let all_right = report.runs.iter().all(|r| session::first_failure(r) == Some(judging::verdict::Verdict::Ac));
    let exit = status(report.has_judge_errors(), !all_right);
    if o.plain {
        let result = report.runs[0].results[0].as_ref();
        match result.map(|r| &r.call.result) {
            Some(Ok(answered)) => out.print(&format!("\"{}\"\n", String::from_utf8_lossy(&answered.answer)))?,
            _ => out.note(&format!(
                "judge: {}: {}",
                report.submissions[0].name,
                render::run::text(&report, Style::plain()).lines().last().unwrap_or("")
            )),
        }
        return Ok(if result.is_some_and(|r| r.call.result.is_ok()) { Exit::Success } else { Exit::Failure });
    }
    emit(out, o.format, exit, || render::run::text(&report, Style::new(o.color)), |e| render::run::json(&report, e))
}

fn paste(o: &options::Paste, out: &Out) -> Result<Exit, Run> {
    let ws = workspace(None)?;
    let catalog = judging::submissions::Catalog::scan(&ws).map_err(|e| Error::Setup(SetupError::Catalog(e)))?;
    let submission = catalog.resolve(&ws, &o.name).map_err(|e| Error::Setup(SetupError::Catalog(e)))?;
    let compiler = exec::compile::Compiler::new(&ws.cache).map_err(|e| Error::Setup(SetupError::Compiler(e)))?;
    let problems = judging::paste::check(&compiler, &submission);
    out.print(&submission.source)?;
    for problem in &problems {
        out.note(&format!("judge: {}", render::paste::problem(&submission.shown, problem)));
    }
    if problems.is_empty() {
        out.note(&render::paste::ready(&submission.shown));
    }
    let mut copied = true;
    if o.copy {
        copied = io::stdout().is_terminal();
        if copied {
            out.print(&render::paste::osc52(&submission.source))?;
            out.note(render::paste::copied());
        } else {
            out.note(render::paste::not_copied());
        }
    }
    Ok(if problems.is_empty() && copied { Exit::Success } else { Exit::Failure })
}

fn bench(o: &options::Bench, out: &Out) -> Result<Exit, Run> {
    let ws = workspace(None)?;
    let svg = o.svg.as_ref().map(|p| p.clone().unwrap_or_else(|| ws.cache.join("bench.svg")));
    if let Some(path) = &svg {
        let absolute = std::env::current_dir().unwrap_or_default().join(path);
        if absolute.starts_with(&ws.solutions)
            || absolute.starts_with(&ws.cases)
            || absolute.starts_with(ws.root.join("testcases"))
        {
            return Err(Error::Protected { path: absolute }.into());
        }
    }
    let report = bench::bench(&ws, &o.request).map_err(Error::Search)?;
    if let Some(path) = &svg {
        exec::compile::write_atomically(path, render::svg::render(&report).as_bytes())
            .map_err(|error| Error::Io { path: path.clone(), error })?;
        out.note(&format!("judge: chart written to {}", render::error::path(path, Some(&ws.root))));
    }
    let exit = status(false, !report.disagreements().is_empty() || !report.failures.is_empty());
    emit(out, o.format, exit, || render::bench::text(&report), |_| render::bench::json(&report))
}
