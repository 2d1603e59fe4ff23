//! `judge stress`: the testcases given (if any) first, then random cases from the generator,
//! through the chosen submissions and the oracle; the first disagreement (a given testcase, or
//! the lowest case index) is shrunk and, with `--save`, stored as a regression case with its
//! `.out` from the oracle.

use super::save::{self, Saved};
use super::sweep::{self, check_one, Found, Sweep};
use super::{counterexample, slow_ones, Counterexample, Origin, Progress, Rate, SearchError, Slow};
use crate::exec::compile::Program;
use crate::judging::guard::Changed;
use crate::judging::workbench::Workbench;
use crate::problem::generator::{self, Rng, Shape};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub seed: u64,
    pub count: u64,
    pub max_len: usize,
    /// `Shape::DRAWN` when empty.
    pub shapes: Vec<Shape>,
    pub jobs: usize,
    pub save: bool,
    /// Testcases tried before the random ones, whatever their length.
    pub given: Vec<Vec<i32>>,
}

pub struct Outcome {
    pub rate: Rate,
    pub example: Option<Counterexample>,
    /// The generator's arguments for a failing random case.
    pub case: Option<(Shape, usize, u64)>,
    /// What `--save` did with the counterexample.
    pub saved: Option<Saved>,
    /// The submissions far slower than the oracle, or growing faster than n, when none failed.
    pub slow: Vec<Slow>,
    pub changes: Changed,
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
    workbench: &Workbench,
    programs: &[Program],
    request: &Request,
    progress: &mut dyn FnMut(Progress),
) -> Result<Outcome, SearchError> {
    let shapes: Vec<Shape> = if request.shapes.is_empty() { Shape::DRAWN.to_vec() } else { request.shapes.clone() };
    let (seed, max_len) = (request.seed, request.max_len);
    let start = std::time::Instant::now();
    let given = given_failure(workbench, programs, &request.given)?;
    let (found, rate, slow, case) = match given {
        Some((k, found)) => {
            let rate = Rate {
                checked: k as u64 + 1,
                elapsed: start.elapsed(),
                submissions: programs.len(),
                jobs: request.jobs,
            };
            (Some((found, Origin::Given(k))), rate, Vec::new(), None)
        }
        None => {
            let make = |index: u64, values: &mut Vec<i32>| {
                let (shape, len, case_seed) = plan(seed, index, &shapes, max_len);
                generator::generate_into(shape, len, case_seed, values);
            };
            let job = Sweep { total: request.count, case: &make, max_len, programs, threads: request.jobs };
            let swept = sweep::sweep(workbench, &job, &mut |done| progress(Progress::Cases(done)))?;
            let rate = Rate {
                checked: swept.checked + request.given.len() as u64,
                elapsed: start.elapsed(),
                submissions: programs.len(),
                jobs: request.jobs,
            };
            let case = swept.found.as_ref().map(|f| plan(seed, f.index, &shapes, max_len));
            let slow = if swept.found.is_none() { slow_ones(workbench, programs, &swept)? } else { Vec::new() };
            let found = swept.found.map(|f| {
                let origin = Origin::Swept(f.index);
                (f, origin)
            });
            (found, rate, slow, case)
        }
    };
    let example = found
        .map(|(found, origin)| {
            // A case by its index: a given testcase, or the sweep's random case.
            let case = |index: u64, values: &mut Vec<i32>| match origin {
                Origin::Given(_) => values.clone_from(&request.given[index as usize]),
                Origin::Swept(_) => {
                    let (shape, len, case_seed) = plan(seed, index, &shapes, max_len);
                    generator::generate_into(shape, len, case_seed, values);
                }
            };
            counterexample(workbench, programs, found, origin, &case, progress)
        })
        .transpose()?;
    let changes = Changed { changes: workbench.changes(), confined: workbench.unconfined.is_none() };
    let saved = match (&example, request.save && !changes.is_error()) {
        (Some(example), true) => Some(save::save(workbench, &name(seed, example), &example.calls())?),
        _ => None,
    };
    Ok(Outcome { rate, example, case, saved, slow, changes })
}

/// The first given testcase some submission fails, in order, with what it got.
fn given_failure(
    workbench: &Workbench,
    programs: &[Program],
    given: &[Vec<i32>],
) -> Result<Option<(usize, Found)>, SearchError> {
    if given.is_empty() {
        return Ok(None);
    }
    let mut runners: Vec<_> = programs.iter().map(|p| workbench.runner(p)).collect();
    for (k, values) in given.iter().enumerate() {
        for (submission, runner) in runners.iter_mut().enumerate() {
            if let Some(got) = check_one(runner, values)? {
                // Its child answered the given testcases before it.
                let history = vec![(0, k as u64)];
                return Ok(Some((k, Found { index: k as u64, values: values.clone(), submission, got, history })));
            }
        }
    }
    Ok(None)
}

/// The regression case's name: the submission, the seed and where it was found.
fn name(seed: u64, example: &Counterexample) -> String {
    match example.origin {
        Origin::Given(k) => format!("{}-s{seed}-t{}", example.submission, k + 1),
        Origin::Swept(index) => format!("{}-s{seed}-c{}", example.submission, index + 1),
    }
}
