//! Shrinking a failing input: drop runs of elements, then move values toward zero, for as
//! long as the input still fails the same way; then try the few arrays shorter than that over
//! -2..=2, simplest first. The result is small, and it fails the same way. Each candidate is
//! one call in the submission's child, under the limits the counterexample is shrunk under, so
//! a candidate that spins costs at most that time limit; a budget bounds the whole search.

use std::time::{Duration, Instant};

use super::sweep::{check_one, Got};
use super::{Progress, SearchError};
use crate::exec::child::Runner;
use crate::exec::trouble::{Doing, Trouble};

/// Shrinking stops after this long and keeps the smallest failing input found so far: a
/// printed `stress --file` answers within 5 s on two cores (a long input's candidates each
/// take a call of thousands of piles; 168,329 of them in 30 s simplified the f32 mistake's
/// 16,806 piles, which no shorter input fails, no further than a few seconds did).
pub const BUDGET: Duration = Duration::from_secs(3);
/// The budget shrinking a time limit gets: every candidate near the limit costs most of one,
/// so a few prefixes only (`shorter_prefix`).
pub const TLE_BUDGET: Duration = Duration::from_secs(2);
/// How often shrinking says how far it got.
const SAID_EVERY: Duration = Duration::from_millis(250);

/// The shortest prefix of `values` found for which `fails` holds, by halving the lengths
/// between one that passes and one that fails, and how many were tried: what makes a slow
/// input slow is mostly its length, and each prefix that still fails costs a time limit.
pub fn shorter_prefix(values: Vec<i32>, fails: &mut dyn FnMut(&[i32]) -> bool) -> (Vec<i32>, usize) {
    let (mut passes, mut failing, mut tried) = (0, values.len(), 0);
    while failing - passes > 1 {
        let middle = passes + (failing - passes) / 2;
        tried += 1;
        match fails(&values[..middle]) {
            true => failing = middle,
            false => passes = middle,
        }
    }
    (values[..failing].to_vec(), tried)
}

/// The smallest input found for which `fails` still holds, and how many candidates were tried.
pub fn shrink(mut values: Vec<i32>, fails: &mut dyn FnMut(&[i32]) -> bool) -> (Vec<i32>, usize) {
    let mut tried = 0;
    loop {
        let mut improved = false;
        // Drop runs, halving the run length each pass; the array keeps at least one value.
        let mut run = values.len() / 2;
        while run >= 1 {
            let mut start = 0;
            while start + run <= values.len() && values.len() > run {
                let candidate: Vec<i32> = values[..start].iter().chain(&values[start + run..]).copied().collect();
                tried += 1;
                if fails(&candidate) {
                    values = candidate;
                    improved = true;
                } else {
                    start += run;
                }
            }
            run /= 2;
        }
        // Move each value toward zero: straight to 0, halfway, or one step.
        for i in 0..values.len() {
            loop {
                let v = values[i];
                let closer = [0, v / 2, v - v.signum()].into_iter().filter(|c| c.abs() < v.abs());
                let mut moved = false;
                for c in closer {
                    let mut candidate = values.clone();
                    candidate[i] = c;
                    tried += 1;
                    if fails(&candidate) {
                        values = candidate;
                        moved = true;
                        improved = true;
                        break;
                    }
                }
                if !moved {
                    break;
                }
            }
        }
        if !improved {
            break;
        }
    }
    // A local search can stop at [0, 0, 0, 1] when [-1] fails too: try every shorter array
    // over -2..=2, simplest first, and keep the first that fails.
    let shorter = (1..values.len().min(4)).flat_map(tiny_arrays);
    for candidate in shorter {
        tried += 1;
        if fails(&candidate) {
            return (candidate, tried);
        }
    }
    (values, tried)
}

/// Every array of `len` values in -2..=2, by total magnitude, then in order.
fn tiny_arrays(len: usize) -> Vec<Vec<i32>> {
    let mut arrays: Vec<Vec<i32>> = vec![Vec::new()];
    for _ in 0..len {
        arrays = arrays.into_iter().flat_map(|a| (-2..=2).map(move |v| [a.clone(), vec![v]].concat())).collect();
    }
    arrays.sort_by_key(|a| (a.iter().map(|v| v.abs()).sum::<i32>(), a.clone()));
    arrays
}

pub struct Shrunk {
    pub values: Vec<i32>,
    /// What the submission did on `values`.
    pub got: Got,
    pub tried: usize,
    /// Shrinking ran out of its budget before it was done.
    pub stopped: bool,
}

/// Shrinks `values`, on which the runner's program got `got`, keeping candidates that fail
/// with the same verdict; with `fresh`, each candidate in a child of its own, so that nothing
/// an earlier candidate left behind decides a later one.
/// Shrinking stops at `give_up`; `progress` hears how far it got about four times a second.
pub fn shrink_failure(
    runner: &mut Runner,
    values: Vec<i32>,
    got: Got,
    fresh: bool,
    give_up: Instant,
    progress: &mut dyn FnMut(Progress),
) -> Result<Shrunk, SearchError> {
    let verdict = got.verdict();
    let (mut asked, mut said) = (0, Instant::now());
    let mut best = (values.clone(), got);
    let mut stopped = false;
    let mut error = None;
    let slow = verdict == crate::judging::verdict::Verdict::Tle;
    let search = if slow { shorter_prefix } else { shrink };
    let (_, tried) = search(values, &mut |candidate: &[i32]| {
        if Instant::now() > give_up || error.is_some() {
            stopped = true;
            return false;
        }
        asked += 1;
        if said.elapsed() >= SAID_EVERY {
            said = Instant::now();
            progress(Progress::Shrinking { values: best.0.len(), tried: asked });
        }
        if fresh {
            if let Err(e) = runner.fresh() {
                error = Some(SearchError::Trouble(Trouble::new(Doing::Starting(runner.name()), e)));
                return false;
            }
        }
        match check_one(runner, candidate) {
            Ok(Some(got)) if got.verdict() == verdict => {
                best = (candidate.to_vec(), got);
                true
            }
            Ok(_) => false,
            Err(e) => {
                error = Some(e);
                false
            }
        }
    });
    if let Some(e) = error {
        return Err(e);
    }
    Ok(Shrunk { values: best.0, got: best.1, tried, stopped })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_only_what_makes_it_fail() {
        // Fails while the array holds a value of at least 5 anywhere.
        let (small, _) = shrink(vec![1, 9, -4, 7, 3, 12, 0, 2], &mut |v| v.iter().any(|&x| x >= 5));
        assert_eq!(small, [5]);
    }

    #[test]
    fn keeps_relations_between_elements() {
        // Fails while the first value is greater than the last.
        let (small, _) = shrink(vec![30, 1, 2, 3, 4, -20], &mut |v| v.len() >= 2 && v[0] > v[v.len() - 1]);
        assert_eq!(small, [0, -1]);
    }

    #[test]
    fn a_shorter_simpler_failure_replaces_a_local_minimum() {
        // Fails on a negative value, or on three zeros before a one: the local search alone
        // keeps [0, 0, 0, 1], from which no deletion or step toward zero still fails.
        let fails = |v: &[i32]| v.iter().any(|&x| x < 0) || v == [0, 0, 0, 1];
        let (small, _) = shrink(vec![0, 0, 0, 1], &mut { fails });
        assert_eq!(small, [-1]);
    }

    #[test]
    fn never_returns_an_empty_array_or_a_passing_one() {
        let fails = |v: &[i32]| v.iter().sum::<i32>() % 7 == 3;
        let (small, _) = shrink(vec![10, 20, 30, 40, 50, 60, 3], &mut { fails });
        assert!(!small.is_empty() && fails(&small), "{small:?}");
    }

    #[test]
    fn a_slow_input_is_cut_to_the_shortest_prefix_that_is_still_slow() {
        // Slow from 33 values on, as an exponential solution near its limit.
        let slow = |v: &[i32]| v.len() >= 33;
        let values: Vec<i32> = (0..63).collect();
        let (short, tried) = shorter_prefix(values.clone(), &mut { slow });
        assert_eq!((short.as_slice(), tried), (&values[..33], 6));
        // Out of time at once: the input as found, which fails.
        assert_eq!(shorter_prefix(values.clone(), &mut |_| false).0, values);
    }
}
