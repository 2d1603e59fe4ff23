//! `judge mutants`: each strategy mutated in every small way a person could get it wrong, and
//! the mutants judged on the stored cases; a survivor not listed as equivalent fails the run.

use super::{emit, jobs, status, Exit, Stop};
use crate::cli::{Args, Invocation};
use crate::judging::workbench::{Cases, Setup};
use crate::out::Out;
use crate::render;
use crate::search::mutants;

pub fn run(args: &Args, invocation: &Invocation, out: &Out) -> Result<Exit, Stop> {
    let mut workbench = super::open(&Setup { cases: Cases::Stored(&[]), ..super::setup(args) }, args, out)?;
    super::skip_broken(&mut workbench, args, out);
    let request = mutants::Request { operators: args.operators.clone(), jobs: jobs(args) };
    let counted = &mut |done, total| out.count(&format!("mutants: {done}/{total} judged"));
    let outcome = mutants::mutants(&workbench, &request, counted)?;
    let survived = outcome.mutants.iter().any(|m| m.status == mutants::Status::Survived);
    let not_judged = outcome.mutants.iter().any(|m| m.status == mutants::Status::NotJudged);
    let exit = status(outcome.changes.is_error() || not_judged, survived);
    let root = Some(workbench.workspace.root.as_path());
    let width = super::judge::width(args, out);
    let text = || render::mutants::text(&outcome, invocation, root, width);
    emit(out, args.format, exit, text, |e| render::mutants::json(&outcome, invocation, e, root))
}
