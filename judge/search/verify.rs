//! `judge verify`: every array of length 1..=L over a value range, every chosen submission
//! against the oracle. Exhaustive, so a pass is a proof for that bound.

use std::time::Duration;

use super::save::{self, Saved};
use super::sweep::{self, Sweep};
use super::{counterexample, slow_ones, Bound, Counterexample, Origin, Progress, Rate, SearchError, Slow};
use crate::exec::compile::Program;
use crate::judging::guard::Changed;
use crate::judging::workbench::Workbench;
use crate::problem::generator::Every;
use crate::problem::{MAX_VALUE, MIN_VALUE};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub max_len: usize,
    pub low: i32,
    pub high: i32,
    pub jobs: usize,
    pub save: bool,
}

impl Request {
    /// The arrays it covers.
    pub fn every(&self) -> Every {
        Every { max_len: self.max_len, low: self.low, high: self.high }
    }
}

pub struct Outcome {
    /// How many arrays the bound holds.
    pub total: u64,
    pub rate: Rate,
    pub example: Option<Counterexample>,
    /// What `--save` did with the counterexample.
    pub saved: Option<Saved>,
    /// The submissions far slower than the oracle, or growing faster than n, when none failed.
    pub slow: Vec<Slow>,
    pub changes: Changed,
}

/// How many arrays a bound holds; an error past what can be counted.
pub fn count(request: &Request) -> Result<u64, SearchError> {
    let (low, high) = (request.low, request.high);
    if low < MIN_VALUE || high > MAX_VALUE || low > high {
        return Err(SearchError::Bound(Bound::Values { low, high }));
    }
    let every = request.every();
    let counts =
        every.lengths().ok_or(SearchError::Bound(Bound::TooMany { base: every.base(), max_len: request.max_len }))?;
    Ok(counts.iter().sum())
}

/// How long the whole bound would take on this machine: a short sweep of random arrays of the
/// longest length gives the time per value, and the bound holds a known number of values.
pub fn estimate(workbench: &Workbench, programs: &[Program], request: &Request) -> Result<Duration, SearchError> {
    let (low, high, max_len) = (request.low, request.high, request.max_len);
    let every = request.every();
    let counts = every.lengths().ok_or(SearchError::Bound(Bound::TooMany { base: every.base(), max_len }))?;
    let values: f64 = counts.iter().enumerate().map(|(k, c)| (k + 1) as f64 * *c as f64).sum();
    let sample = (CALIBRATION / max_len as u64).max(1);
    let make = |index: u64, out: &mut Vec<i32>| {
        let mut rng = crate::problem::generator::Rng::new(index);
        out.clear();
        out.extend((0..max_len).map(|_| rng.range(low, high)));
    };
    let job = Sweep { total: sample, case: &make, max_len, programs, threads: request.jobs };
    let swept = sweep::sweep(workbench, &job, &mut |_| {})?;
    Ok(swept.elapsed.mul_f64(values / (sample * max_len as u64) as f64))
}

/// Values swept to time a bound.
const CALIBRATION: u64 = 400_000;

pub fn verify(
    workbench: &Workbench,
    programs: &[Program],
    request: &Request,
    progress: &mut dyn FnMut(Progress),
) -> Result<Outcome, SearchError> {
    let max_len = request.max_len;
    let total = count(request)?;
    let every = request.every();
    let counts = every.lengths().expect("count checked the bound");
    let make = |index: u64, values: &mut Vec<i32>| every.nth(index, &counts, values);
    let job = Sweep { total, case: &make, max_len, programs, threads: request.jobs };
    let swept = sweep::sweep(workbench, &job, &mut |done| progress(Progress::Cases(done)))?;
    let rate = Rate { checked: swept.checked, elapsed: swept.elapsed, submissions: programs.len(), jobs: request.jobs };
    let slow = if swept.found.is_none() { slow_ones(workbench, programs, &swept)? } else { Vec::new() };
    let example = swept
        .found
        .map(|found| {
            let origin = Origin::Swept(found.index);
            counterexample(workbench, programs, found, origin, &make, progress)
        })
        .transpose()?;
    let changes = Changed { changes: workbench.changes(), confined: workbench.unconfined.is_none() };
    let saved = match (&example, request.save && !changes.is_error()) {
        (Some(example), true) => {
            let array = match example.origin {
                Origin::Swept(index) => index + 1,
                Origin::Given(k) => k as u64 + 1,
            };
            Some(save::save(workbench, &format!("{}-verify-{array}", example.submission), &example.calls())?)
        }
        _ => None,
    };
    Ok(Outcome { total, rate, example, saved, slow, changes })
}
