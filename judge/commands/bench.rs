//! `judge bench`: each strategy's time and extra memory by input size, how its time grows,
//! and with `--svg` the chart.

use super::{emit, status, Exit, Stop};
use crate::bench;
use crate::cli::Args;
use crate::exec::files::write_atomically;
use crate::judging::workbench::{Setup, Workbench};
use crate::out::Out;
use crate::render;
use crate::render::error::Error;

pub fn run(args: &Args, out: &Out) -> Result<Exit, Stop> {
    bench::check_names(&args.solutions)?;
    let mut workbench = super::open(
        &Setup { limits: Some(bench::limits(args.time_limit, &args.sizes)), ..super::setup(args) },
        args,
        out,
    )?;
    super::skip_broken(&mut workbench, args, out);
    let svg = match &args.svg {
        None => None,
        Some(path) => Some(chart_path(&workbench, path.clone())?),
    };
    let request = bench::Request { sizes: args.sizes.clone(), reps: args.reps };
    let conditions = bench::machine::Conditions::start();
    let report = bench::bench(&workbench, &request)?;
    let conditions = conditions.finish();
    if let Some(path) = &svg {
        write_atomically(path, render::svg::render(&report, &conditions).as_bytes())
            .map_err(|error| Error::Io { path: path.clone(), error })?;
        let shown = render::error::path(path, Some(&workbench.workspace.root));
        out.note(&format!("judge: chart written to {shown}"));
    }
    let exit = status(false, !report.disagreements().is_empty() || !report.failures.is_empty());
    let width = super::judge::width(args, out);
    emit(out, args.format, exit, || render::bench::text(&report, width), |_| render::bench::json(&report))
}

/// Where the chart goes: FILE, or `target/judge/bench.svg`; never into stored data, however
/// the path gets there (a symbolic link to a folder counts where it leads).
fn chart_path(workbench: &Workbench, given: Option<std::path::PathBuf>) -> Result<std::path::PathBuf, Stop> {
    let path = given.unwrap_or_else(|| workbench.workspace.cache.join("bench.svg"));
    let absolute = std::env::current_dir().unwrap_or_default().join(&path);
    let folder = absolute.parent().map(|p| p.canonicalize().unwrap_or_else(|_| p.to_path_buf()));
    let resolved = match (folder, absolute.file_name()) {
        (Some(folder), Some(name)) => folder.join(name),
        _ => absolute.clone(),
    };
    let canonical = |p: &std::path::Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let guarded =
        [&workbench.workspace.solutions, &workbench.workspace.cases, &workbench.workspace.root.join("testcases")];
    if guarded.iter().any(|g| resolved.starts_with(canonical(g)) || absolute.starts_with(g)) {
        return Err(Error::Protected { path: absolute }.into());
    }
    Ok(path)
}
