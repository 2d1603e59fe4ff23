//! `judge bench`: each strategy's time and extra memory by input size, how its time grows,
//! with `--svg` the chart, and with `--html` the page of the comparison and the sources.

use super::{emit, page, status, Exit, Stop};
use crate::bench;
use crate::cli::{flags, Args, Invocation};
use crate::judging::workbench::Setup;
use crate::out::Out;
use crate::render;

pub fn run(args: &Args, invocation: &Invocation, out: &Out) -> Result<Exit, Stop> {
    bench::check_names(&args.solutions)?;
    let mut workbench = super::open(
        &Setup { limits: Some(bench::limits(args.time_limit, &args.sizes)), ..super::setup(args) },
        args,
        out,
    )?;
    super::skip_broken(&mut workbench, args, out);
    let svg = match &args.svg {
        None => None,
        Some(path) => Some(page::path(&workbench.workspace, path.clone(), "bench.svg", "the chart")?),
    };
    let html = match &args.html {
        None => None,
        Some(path) => Some(page::path(&workbench.workspace, path.clone(), flags::BENCH_PAGE, "the page")?),
    };
    let request = bench::Request { sizes: args.sizes.clone(), reps: args.reps };
    let conditions = bench::machine::Conditions::start();
    let report = bench::bench(&workbench, &request)?;
    let conditions = conditions.finish();
    // What could not be written is said after the report, which is whole without it.
    let mut unwritten = None;
    if let Some(path) = &svg {
        match page::write_file(path, &render::svg::render(&report, &conditions), "chart") {
            Ok(()) => {
                let shown = render::error::path(path, Some(&workbench.workspace.root));
                out.note(&format!("judge: chart written to {shown}"));
            }
            Err(error) => unwritten = Some(error),
        }
    }
    if let Some(path) = &html {
        let page = render::html::Page {
            command: invocation.clone().set(&flags::HTML, None).shell(),
            made: std::time::SystemTime::now(),
            judged: None,
            comparison: page::benched(&report, &conditions, &workbench.workspace.cache),
            sources: &workbench.submissions,
            reload: None,
        };
        let page = page::write(path, &render::html::render(&page), out).err();
        unwritten = unwritten.or(page);
    }
    let exit = status(unwritten.is_some(), !report.disagreements().is_empty() || !report.failures.is_empty());
    let width = super::judge::width(args, out);
    let exit = emit(out, args.format, exit, || render::bench::text(&report, width), |_| render::bench::json(&report))?;
    page::say_unwritten(unwritten, &workbench.workspace.root, args, out);
    Ok(exit)
}
