//! `judge stress`: random cases from the generator through the chosen submissions and the
//! oracle; the first disagreement (by case index) is shrunk and, with `--save`, stored as a
//! regression case with its `.out` from the oracle.

use std::path::PathBuf;

use super::sweep::{self, Job};
use super::{counterexample, prepare, Bound, Counterexample, Rate, SearchError};
use crate::exec::compile::write_atomically;
use crate::exec::limits::Limits;
use crate::judging::guard::Change;
use crate::judging::workspace::Workspace;
use crate::problem::generator::{self, Rng, Shape};
use crate::problem::{format, oracle, MAX_LEN};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub seed: u64,
    pub count: u64,
    pub max_len: usize,
    /// Every shape when empty.
    pub shapes: Vec<Shape>,
    /// The strategies when empty.
    pub solutions: Vec<String>,
    pub jobs: usize,
    pub limits: Limits,
    pub save: bool,
}

pub struct Outcome {
    pub rate: Rate,
    pub example: Option<Counterexample>,
    /// The generator's arguments for the failing case.
    pub case: Option<(Shape, usize, u64)>,
    /// Where `--save` stored the counterexample.
    pub saved: Option<PathBuf>,
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

pub fn stress(workspace: &Workspace, request: &Request, progress: &mut dyn FnMut(u64)) -> Result<Outcome, SearchError> {
    if request.max_len > MAX_LEN {
        return Err(SearchError::Bound(Bound::MaxLen { given: request.max_len, most: MAX_LEN }));
    }
    let shapes: Vec<Shape> = if request.shapes.is_empty() { Shape::ALL.to_vec() } else { request.shapes.clone() };
    let prepared = prepare(workspace, &request.solutions, request.limits)?;
    let (seed, max_len) = (request.seed, request.max_len);
    let make = |index: u64, values: &mut Vec<i32>| {
        let (shape, len, case_seed) = plan(seed, index, &shapes, max_len);
        generator::generate_into(shape, len, case_seed, values);
    };
    let job = Job {
        total: request.count,
        case: &make,
        max_len,
        binaries: &prepared.binaries,
        limits: request.limits,
        jobs: request.jobs,
    };
    let swept = sweep::sweep(&job, &prepared.room, progress).map_err(SearchError::Judge)?;
    let rate = Rate::of(&swept, &job);
    let case = swept.found.as_ref().map(|f| plan(seed, f.index, &shapes, max_len));
    let example = swept.found.map(|found| counterexample(&prepared, request.limits, found)).transpose()?;
    let changes = prepared.changes();
    let saved = match (&example, request.save && changes.is_empty()) {
        (Some(example), true) => Some(save(workspace, seed, example)?),
        _ => None,
    };
    Ok(Outcome { rate, example, case, saved, changes })
}

/// Writes `<name>.in` and its `.out` from the oracle into the `regressions` suite.
fn save(workspace: &Workspace, seed: u64, example: &Counterexample) -> Result<PathBuf, SearchError> {
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
