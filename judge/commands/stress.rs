//! `judge stress`: the testcases given (`--file`, or on the command line) first, then random
//! cases of every shape through the chosen solutions and the oracle; the first failure shrunk,
//! with the commands that make, rerun, try and keep it.

use super::{emit, jobs, status, Exit, Stop};
use crate::cli::{Args, Invocation};
use crate::out::Out;
use crate::problem::format;
use crate::render;
use crate::render::error::Error;
use crate::search::{self, stress};

pub fn run(args: &Args, invocation: &Invocation, out: &Out) -> Result<Exit, Stop> {
    let given = given(args)?;
    let mut workbench = super::open(&super::setup(args), args, out)?;
    super::skip_broken(&mut workbench, args, out);
    let request = stress::Request {
        seed: args.seed,
        count: args.count,
        max_len: args.max_len,
        shapes: args.shapes.clone(),
        jobs: jobs(args),
        save: args.save,
        given,
    };
    let programs = search::build(&workbench)?;
    let total = request.count;
    // On a terminal the last progress line ticks on with its seconds while a call holds the
    // search: a given testcase that spends its time limit, a shrunk one tried again alone.
    let first = if request.given.is_empty() { "stress: starting" } else { "stress: trying the given testcases first" };
    out.count(first);
    out.running(|| Some(first.to_string()));
    let counted = &mut |progress| {
        let line = render::verify::progress("stress", progress, total);
        out.count(&line);
        out.running(|| Some(line));
    };
    let outcome = stress::stress(&workbench, &programs, &request, counted);
    out.running(|| None);
    let outcome = outcome?;
    // A submission found slow fails as a counterexample does: LeetCode would give it TLE.
    let exit = status(outcome.changes.is_error(), outcome.example.is_some() || !outcome.slow.is_empty());
    let (root, limits) = (Some(workbench.workspace.root.as_path()), &workbench.limits());
    let width = super::judge::width(args, out);
    let text = || render::stress::text(&outcome, invocation, limits, root, width);
    emit(out, args.format, exit, text, |e| render::stress::json(&outcome, invocation, limits, e, root))
}

/// The testcases to try before the random ones: those of `--file`, or of the argument.
fn given(args: &Args) -> Result<Vec<Vec<i32>>, Error> {
    let (text, origin) = match (&args.file, args.positional.first()) {
        (Some(path), _) => {
            let text = crate::judging::cases::read_case_file(path).map_err(|problem| Error::Case { problem })?;
            (text, path.display().to_string())
        }
        (None, Some(text)) => (text.clone(), "input".to_string()),
        (None, None) => return Ok(Vec::new()),
    };
    format::parse_testcases(&text).map_err(|error| Error::Input { origin, error })
}
