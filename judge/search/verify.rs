//! `judge verify`: every array of length 1..=L over a value range, every chosen submission
//! against the oracle. Exhaustive, so a pass is a proof for that bound.

use super::sweep::{self, Job};
use super::{counterexample, prepare, Bound, Counterexample, Rate, SearchError};
use crate::exec::limits::Limits;
use crate::judging::guard::Change;
use crate::judging::workspace::Workspace;
use crate::problem::{MAX_LEN, MAX_VALUE, MIN_VALUE};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub max_len: usize,
    pub low: i32,
    pub high: i32,
    /// The strategies when empty.
    pub solutions: Vec<String>,
    pub jobs: usize,
    pub limits: Limits,
}

pub struct Outcome {
    /// How many arrays the bound holds.
    pub total: u64,
    pub rate: Rate,
    pub example: Option<Counterexample>,
    pub changes: Vec<Change>,
}

pub fn verify(workspace: &Workspace, request: &Request, progress: &mut dyn FnMut(u64)) -> Result<Outcome, SearchError> {
    let (max_len, low, high) = (request.max_len, request.low, request.high);
    if max_len > MAX_LEN {
        return Err(SearchError::Bound(Bound::MaxLen { given: max_len, most: MAX_LEN }));
    }
    if low < MIN_VALUE || high > MAX_VALUE || low > high {
        return Err(SearchError::Bound(Bound::Values { low, high }));
    }
    let base = (i64::from(high) - i64::from(low) + 1) as u64;
    let counts = lengths(base, max_len).ok_or(SearchError::Bound(Bound::TooMany { base, max_len }))?;
    let total: u64 = counts.iter().sum();
    let prepared = prepare(workspace, &request.solutions, request.limits)?;
    let make = |index: u64, values: &mut Vec<i32>| decode(index, &counts, base, low, values);
    let job =
        Job { total, case: &make, max_len, binaries: &prepared.binaries, limits: request.limits, jobs: request.jobs };
    let swept = sweep::sweep(&job, &prepared.room, progress).map_err(SearchError::Judge)?;
    let rate = Rate::of(&swept, &job);
    let example = swept.found.map(|found| counterexample(&prepared, request.limits, found)).transpose()?;
    Ok(Outcome { total, rate, example, changes: prepared.changes() })
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
