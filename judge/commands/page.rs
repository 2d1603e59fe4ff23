//! The page (`--html`) of `judge`, `bench` and `watch`: the comparison's series made from each
//! report, the floor program's reading where it has run, where the page goes, and its link.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::Stop;
use crate::bench;
use crate::bench::machine::Conditions;
use crate::cli::Args;
use crate::exec::files::write_atomically;
use crate::judging::report::{took, Report};
use crate::judging::workspace::Workspace;
use crate::out::Out;
use crate::render;
use crate::render::error::Error;
use crate::render::html::{Comparison, Floor, Measured, Series};
use crate::search::growth;

/// Where an output file (`what`: "the chart") goes: FILE, or `default` in the build cache;
/// never into stored data, however the path gets there (a symbolic link to a folder counts
/// where it leads).
pub fn path(workspace: &Workspace, given: Option<PathBuf>, default: &str, what: &'static str) -> Result<PathBuf, Stop> {
    let default = workspace.cache.join(default);
    let path = given.unwrap_or_else(|| default.clone());
    let absolute = std::env::current_dir().unwrap_or_default().join(&path);
    let folder = absolute.parent().map(|p| p.canonicalize().unwrap_or_else(|_| p.to_path_buf()));
    let resolved = match (folder, absolute.file_name()) {
        (Some(folder), Some(name)) => folder.join(name),
        _ => absolute.clone(),
    };
    let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let guarded = [&workspace.solutions, &workspace.cases, &workspace.root.join("testcases")];
    if guarded.iter().any(|g| resolved.starts_with(canonical(g)) || absolute.starts_with(g)) {
        return Err(Error::Protected { path: absolute, what, default }.into());
    }
    Ok(path)
}

/// Writes the page and says where, as a link a terminal opens; a folder it names that is not
/// there yet is made. What could not be written is the caller's to say after its report.
pub fn write(path: &Path, page: &str, out: &Out) -> Result<(), Error> {
    write_file(path, page, "page")?;
    let absolute = std::env::current_dir().unwrap_or_default().join(path);
    out.note(&format!("judge: page written to {}", render::html::link(&absolute)));
    Ok(())
}

/// Says what could not be written, on stderr after the report, whose status already says a
/// judge error: the report stays the one document on stdout.
pub fn say_unwritten(unwritten: Option<Error>, root: &Path, args: &Args, out: &Out) {
    if let Some(error) = unwritten {
        super::say(out, args, &render::error::describe(&error, Some(root)));
    }
}

/// Writes `what` (the page, the chart) at `path`, making its folder where none is there.
pub fn write_file(path: &Path, text: &str, what: &'static str) -> Result<(), Error> {
    let unwritten = |error| Error::Unwritten { what, path: path.to_path_buf(), error };
    if let Some(folder) = path.parent().filter(|f| !f.as_os_str().is_empty() && !f.exists()) {
        std::fs::create_dir_all(folder).map_err(unwritten)?;
    }
    write_atomically(path, text.as_bytes()).map_err(unwritten)
}

/// The middle of a list of values, sorted here.
fn median<T: Ord + Copy>(mut values: Vec<T>) -> T {
    values.sort_unstable();
    values[values.len() / 2]
}

/// Each strategy's and attempt's time per call and peak memory on the stored cases, by n (the
/// median where cases share an n), and how a strategy that hit the time limit grows.
pub fn judged(report: &Report, growth: &[Option<growth::Growth>], cache: &Path) -> Comparison {
    let mut series = Vec::new();
    for (s, submission) in report.submissions.iter().enumerate().filter(|(_, s)| s.is_strategy()) {
        let mut by_n: std::collections::BTreeMap<usize, (Vec<Duration>, Vec<u64>)> = Default::default();
        for (case, result) in report.cases.iter().zip(&report.cards[s].results) {
            let Some(result) = result.as_ref().filter(|r| r.tally.is_none()) else { continue };
            let entry = by_n.entry(case.longest()).or_default();
            if let Some(took) = took(&result.call).filter(|t| !t.cut) {
                entry.0.push(took.time);
            }
            if let Some(kib) = result.call.result.as_ref().ok().and_then(|a| a.peak_kib) {
                entry.1.push(kib);
            }
        }
        let time: Vec<(usize, Duration)> =
            by_n.iter().filter(|(_, (t, _))| !t.is_empty()).map(|(n, (t, _))| (*n, median(t.clone()))).collect();
        let memory =
            by_n.iter().filter(|(_, (_, m))| !m.is_empty()).map(|(n, (_, m))| (*n, median(m.clone()))).collect();
        let growth = growth.get(s).cloned().flatten();
        series.push(Series { name: submission.name.clone(), time, memory, growth });
    }
    Comparison {
        measured: Measured::Cases { cpu: Conditions::start().cpu },
        series,
        floor: floor_reading(cache),
        limit: report.limits.time,
    }
}

/// Each strategy's median time per call and extra memory by n, as bench measured them.
pub fn benched(report: &bench::Report, conditions: &Conditions, cache: &Path) -> Comparison {
    let series = report
        .strategies
        .iter()
        .enumerate()
        .map(|(k, name)| {
            let rows = report.rows.iter().filter(|r| &r.strategy == name);
            Series {
                name: name.clone(),
                time: rows.clone().map(|r| (r.n, Duration::from_nanos(r.time.median))).collect(),
                memory: rows.filter_map(|r| Some((r.n, r.extra_kib?))).collect(),
                growth: report.growth.get(k).cloned(),
            }
        })
        .collect();
    let measured = Measured::Bench {
        reps: report.reps,
        cpu: conditions.cpu.clone(),
        cores: conditions.cores,
        started: conditions.started,
    };
    Comparison { measured, series, floor: floor_reading(cache), limit: report.limits.time }
}

/// The floor program's reading, where it has run.
fn floor_reading(cache: &Path) -> Option<Floor> {
    let text = std::fs::read_to_string(cache.join(bench::FLOOR_FILE)).ok()?;
    let (n, ns_per_pile) = bench::floor_line(&text)?;
    Some(Floor { n, ns_per_pile })
}

#[cfg(test)]
mod tests {
    use crate::cli::flags;

    #[test]
    fn the_help_of_html_names_where_the_page_goes() {
        for name in [flags::PAGE, flags::BENCH_PAGE] {
            assert!(flags::HTML.help.contains(name), "{name}: {}", flags::HTML.help);
        }
    }
}
