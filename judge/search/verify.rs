//! `judge verify`: every array of length 1..=L over a value range, every chosen submission
//! against the oracle. Exhaustive, so a pass is a proof for that bound.

use std::time::Duration;

use super::save::{self, Saved};
use super::sweep::{self, Sweep};
use super::{counterexample, slow_ones, Bound, Counterexample, Origin, Rate, SearchError, Slow};
use crate::exec::compile::Program;
use crate::judging::guard::Changed;
use crate::judging::workbench::Workbench;
use crate::problem::{MAX_VALUE, MIN_VALUE};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub max_len: usize,
    pub low: i32,
    pub high: i32,
    pub jobs: usize,
    pub save: bool,
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
    let base = (i64::from(high) - i64::from(low) + 1) as u64;
    let counts =
        lengths(base, request.max_len).ok_or(SearchError::Bound(Bound::TooMany { base, max_len: request.max_len }))?;
    Ok(counts.iter().sum())
}

/// How long the whole bound would take on this machine: a short sweep of random arrays of the
/// longest length gives the time per value, and the bound holds a known number of values.
pub fn estimate(workbench: &Workbench, programs: &[Program], request: &Request) -> Result<Duration, SearchError> {
    let (low, high, max_len) = (request.low, request.high, request.max_len);
    let base = (i64::from(high) - i64::from(low) + 1) as u64;
    let counts = lengths(base, max_len).ok_or(SearchError::Bound(Bound::TooMany { base, max_len }))?;
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
    progress: &mut dyn FnMut(u64),
) -> Result<Outcome, SearchError> {
    let (max_len, low) = (request.max_len, request.low);
    let total = count(request)?;
    let base = (i64::from(request.high) - i64::from(low) + 1) as u64;
    let counts = lengths(base, max_len).expect("count checked the bound");
    let make = |index: u64, values: &mut Vec<i32>| decode(index, &counts, base, low, values);
    let job = Sweep { total, case: &make, max_len, programs, threads: request.jobs };
    let swept = sweep::sweep(workbench, &job, progress)?;
    let rate = Rate { checked: swept.checked, elapsed: swept.elapsed, submissions: programs.len(), jobs: request.jobs };
    let slow = if swept.found.is_none() { slow_ones(workbench, programs, &swept)? } else { Vec::new() };
    let example = swept
        .found
        .map(|found| {
            let origin = Origin::Swept(found.index);
            counterexample(workbench, programs, found, origin)
        })
        .transpose()?;
    let changes = Changed { changes: workbench.changes(), confined: workbench.unconfined.is_none() };
    let saved = match (&example, request.save && !changes.is_error()) {
        (Some(example), true) => {
            let array = match example.origin {
                Origin::Swept(index) => index + 1,
                Origin::Given(k) => k as u64 + 1,
            };
            Some(save::save(workbench, &format!("{}-verify-{array}", example.submission), &example.values)?)
        }
        _ => None,
    };
    Ok(Outcome { total, rate, example, saved, slow, changes })
}

/// How many arrays there are of each length 1..=max_len, or None past u64.
fn lengths(base: u64, max_len: usize) -> Option<Vec<u64>> {
    let mut counts = Vec::with_capacity(max_len);
    let mut count = 1u64;
    for _ in 0..max_len {
        count = count.checked_mul(base)?;
        counts.push(count);
    }
    counts.iter().try_fold(0u64, |sum, c| sum.checked_add(*c))?;
    Some(counts)
}

/// Array `index` in enumeration order: shorter arrays first, then by value, first element slowest.
fn decode(mut index: u64, counts: &[u64], base: u64, low: i32, values: &mut Vec<i32>) {
    let mut len = 1;
    for count in counts {
        if index < *count {
            break;
        }
        index -= count;
        len += 1;
    }
    values.clear();
    values.resize(len, 0);
    for slot in values.iter_mut().rev() {
        *slot = low + (index % base) as i32;
        index /= base;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enumerates_every_array_once_in_order() {
        let counts = lengths(3, 3).unwrap();
        let total: u64 = counts.iter().sum();
        assert_eq!(total, 3 + 9 + 27);
        let mut seen = Vec::new();
        let mut values = Vec::new();
        for index in 0..total {
            decode(index, &counts, 3, -1, &mut values);
            seen.push(values.clone());
        }
        assert_eq!(seen[0], [-1]);
        assert_eq!(seen[3], [-1, -1]);
        assert_eq!(seen[4], [-1, 0]);
        assert_eq!(seen[38], [1, 1, 1]);
        let mut unique = seen.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), seen.len());
    }

    #[test]
    fn refuses_bounds_past_u64() {
        assert!(lengths(2001, 10).is_none());
        assert!(lengths(7, 8).is_some());
    }
}
