//! `judge stress`: random cases of every shape through the chosen solutions and the oracle;
//! the first failure shrunk, with the commands that make, rerun, try and keep it.

use super::{emit, jobs, status, Exit, Stop};
use crate::cli::{Args, Invocation};
use crate::out::Out;
use crate::render;
use crate::search::{self, stress};

pub fn run(args: &Args, invocation: &Invocation, out: &Out) -> Result<Exit, Stop> {
    let bench = super::open(&super::setup(args), out)?;
    let request = stress::Request {
        seed: args.seed,
        count: args.count,
        max_len: args.max_len,
        shapes: args.shapes.clone(),
        jobs: jobs(args),
        save: args.save,
    };
    let programs = search::build(&bench)?;
    let total = request.count;
    let counted = &mut |done| out.count(&format!("stress: {done}/{total} cases"));
    let outcome = stress::stress(&bench, &programs, &request, counted)?;
    let exit = status(!outcome.changes.is_empty(), outcome.example.is_some());
    let (root, limits) = (Some(bench.workspace.root.as_path()), &bench.limits());
    let text = || render::search::stress_text(&outcome, invocation, limits, root);
    emit(out, args.format, exit, text, |e| render::search::stress_json(&outcome, invocation, limits, e, root))
}
