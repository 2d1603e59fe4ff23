//! `judge verify`: every array up to a length over a range of values, every chosen solution
//! against the oracle. Past a minute of estimated work it asks for `--yes` first.

use std::time::Duration;

use super::{emit, jobs, status, Exit, Stop};
use crate::cli::{Args, Invocation};
use crate::out::Out;
use crate::render;
use crate::render::error::Error;
use crate::search::{self, verify};

/// Bounds holding more arrays than this are timed before they start.
const ESTIMATED_ABOVE: u64 = 20_000_000;
/// Runs estimated longer than this need `--yes`.
const ASK_PAST: Duration = Duration::from_secs(60);

pub fn run(args: &Args, invocation: &Invocation, out: &Out) -> Result<Exit, Stop> {
    let request = verify::Request {
        max_len: args.max_len,
        low: args.values.0,
        high: args.values.1,
        jobs: jobs(args),
        save: args.save,
    };
    let total = verify::count(&request)?;
    let mut workbench = super::open(&super::setup(args), args, out)?;
    super::skip_broken(&mut workbench, args, out);
    let programs = search::build(&workbench)?;
    if total > ESTIMATED_ABOVE {
        let estimate = verify::estimate(&workbench, &programs, &request)?;
        if estimate > ASK_PAST && !args.yes {
            return Err(Error::TooLong { arrays: total, estimate, again: invocation.clone() }.into());
        }
        out.note(&render::verify::estimate_line(total, estimate));
    }
    let counted = &mut |progress| out.count(&render::verify::progress("verify", progress, total));
    let outcome = verify::verify(&workbench, &programs, &request, counted)?;
    let exit = status(outcome.changes.is_error(), outcome.example.is_some());
    let root = Some(workbench.workspace.root.as_path());
    let limits = &workbench.limits();
    let width = super::judge::width(args, out);
    let text = || render::verify::text(&outcome, &request, invocation, limits, root, width);
    emit(out, args.format, exit, text, |e| render::verify::json(&outcome, &request, invocation, limits, e, root))
}
