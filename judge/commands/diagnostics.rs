//! `judge diagnostics [FILE]`: the judge's findings in cargo's JSON message format, for an
//! editor to show where they are (rust-analyzer's `check.overrideCommand` runs it on every
//! save, with the saved file). The same path as `judge`: the workbench, the engine (each
//! solution stopping at its first failure: one is all an editor shows), the report; then the
//! findings placed in each file, and the messages. FILE names the solution to judge; any
//! other file (the judge's own code, a README) has nothing to judge, and says so in an empty
//! stream. The editor's project is brought up to date on the way, so a file saved for the
//! first time gets rust-analyzer at once.

use std::time::Instant;

use super::{jobs, status, Exit, Stop};
use crate::cli::{Args, Command, Invocation};
use crate::judging::engine::Plan;
use crate::judging::findings::{findings, Finding};
use crate::judging::report::Report;
use crate::judging::submissions::Catalog;
use crate::judging::workbench::{Cases, Chosen, Setup, SetupError};
use crate::judging::workspace::Workspace;
use crate::out::Out;
use crate::render;

pub fn run(args: &Args, invocation: &Invocation, out: &Out) -> Result<Exit, Stop> {
    let start = Instant::now();
    let mut names = args.solutions.clone();
    if let Some(file) = args.positional.first() {
        let workspace = Workspace::find(args.cases_dir.as_deref()).map_err(SetupError::NoWorkspace)?;
        let catalog = Catalog::scan(&workspace).map_err(SetupError::Catalog)?;
        let name = catalog.normalise(file);
        if catalog.names().contains(&name) {
            names.push(name);
        } else if names.is_empty() {
            out.print(&render::cargo_json::finished(true))?;
            return Ok(Exit::Success);
        }
    }
    let workbench = super::open(
        &Setup {
            solutions: &names,
            by_default: Chosen::Every,
            cases: Cases::Stored(&args.cases),
            strict: false,
            ..super::setup(args)
        },
        args,
        out,
    )?;
    super::refresh_editor(&workbench, out);
    let root = workbench.workspace.root.clone();
    let plan = Plan {
        submissions: &workbench.submissions,
        cases: &workbench.cases,
        limits: workbench.limits(),
        jobs: jobs(args),
        fail_fast: true,
        all_failures: false,
        every_case: false,
        stop_after: 1,
        alone: true,
    };
    let (judged, newer) = super::judge_and_newer(&workbench, &plan, &mut |_| {});
    let report = Report::new(workbench, judged, newer, &names, !args.cases.is_empty(), start.elapsed());
    let found = findings(&report);
    // Reruns are the judge's own command with the same options.
    let judge = Invocation { command: Command::Judge, ..invocation.clone() }.with_positional(None);
    out.print(&render::cargo_json::messages(&found, &report, &judge, &root))?;
    Ok(status(report.has_judge_errors(), found.iter().any(Finding::is_error)))
}
