//! `judge stress`: random cases from the generator through the chosen submissions and the
//! oracle; the first disagreement (by case index) is shrunk and, with `--save`, stored as a
//! regression case with its `.out` from the oracle.

use std::path::PathBuf;

use super::sweep::{self, Sweep};
use super::{counterexample, slow_ones, Counterexample, Rate, SearchError, Slow};
use crate::exec::compile::Program;
use crate::exec::files::write_atomically;
use crate::judging::guard::Change;
use crate::judging::workbench::Workbench;
use crate::problem::generator::{self, Rng, Shape};
use crate::problem::{format, oracle};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub seed: u64,
    pub count: u64,
    pub max_len: usize,
    /// Every shape when empty.
    pub shapes: Vec<Shape>,
    pub jobs: usize,
    pub save: bool,
}

pub struct Outcome {
    pub rate: Rate,
    pub example: Option<Counterexample>,
    /// The generator's arguments for the failing case.
    pub case: Option<(Shape, usize, u64)>,
    /// Where `--save` stored the counterexample.
    pub saved: Option<PathBuf>,
    /// The submissions far slower than the oracle, or growing faster than n, when none failed.
    pub slow: Vec<Slow>,
    pub changes: Vec<Change>,
}

/// Case `index` of a run: its shape, length and generator seed, from the run's seed alone.
pub fn plan(seed: u64, index: u64, shapes: &[Shape], max_len: usize) -> (Shape, usize, u64) {
    let mut rng = Rng::new(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
    let case_seed = rng.next_u64();
    let shape = shapes[rng.below(shapes.len())];
    let len = 1 + rng.below(max_len);
    (shape, len, case_seed)
}

pub fn stress(
    bench: &Workbench,
    programs: &[Program],
    request: &Request,
    progress: &mut dyn FnMut(u64),
) -> Result<Outcome, SearchError> {
    let shapes: Vec<Shape> = if request.shapes.is_empty() { Shape::ALL.to_vec() } else { request.shapes.clone() };
    let (seed, max_len) = (request.seed, request.max_len);
    let make = |index: u64, values: &mut Vec<i32>| {
        let (shape, len, case_seed) = plan(seed, index, &shapes, max_len);
        generator::generate_into(shape, len, case_seed, values);
    };
    let job = Sweep { total: request.count, case: &make, max_len, programs, threads: request.jobs };
    let swept = sweep::sweep(bench, &job, progress).map_err(SearchError::Judge)?;
    let rate = Rate { checked: swept.checked, elapsed: swept.elapsed, submissions: programs.len(), jobs: request.jobs };
    let case = swept.found.as_ref().map(|f| plan(seed, f.index, &shapes, max_len));
    let slow = if swept.found.is_none() { slow_ones(bench, programs, &swept)? } else { Vec::new() };
    let example = swept.found.map(|found| counterexample(bench, programs, found)).transpose()?;
    let changes = bench.changes();
    let saved = match (&example, request.save && changes.is_empty()) {
        (Some(example), true) => Some(save(bench, seed, example)?),
        _ => None,
    };
    Ok(Outcome { rate, example, case, saved, slow, changes })
}

/// Writes `<name>.in` and its `.out` from the oracle into the `regressions` suite.
fn save(bench: &Workbench, seed: u64, example: &Counterexample) -> Result<PathBuf, SearchError> {
    let workspace = &bench.workspace;
    let dir = workspace.cases.join("regressions");
    let failed = |e: std::io::Error| SearchError::Judge(format!("{}: {e}", workspace.shown(&dir)));
    std::fs::create_dir_all(&dir).map_err(failed)?;
    let name = format!("{}-s{seed}-c{}", example.submission.replace(['/', '#'], "-"), example.index + 1);
    let input = dir.join(format!("{name}.in"));
    let answer = oracle::answer(&example.values);
    write_atomically(&input.with_extension("out"), format::write_output(answer).as_bytes()).map_err(failed)?;
    write_atomically(&input, format::write_input(&example.values).as_bytes()).map_err(failed)?;
    Ok(input)
}
