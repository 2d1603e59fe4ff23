//! A failure found in a child that had answered other cases first may need them: a solution
//! that keeps state between calls (a memo in a static) fails a case only after others, as it
//! would on LeetCode, which calls the method for every testcase in one process. Such a failure
//! is replayed in a fresh child, the calls before it first, and cut down to the fewest calls
//! that still make it fail, each of them then shrunk: the sequence `run` takes to show it
//! again, and `--save` stores as a group.

use std::time::Instant;

use super::shrink::{self, Shrunk};
use super::sweep::{check_one, Got};
use super::SearchError;
use crate::exec::child::{Batch, Runner};
use crate::exec::trouble::{Doing, Trouble};
use crate::judging::verdict::Verdict;
use crate::problem::oracle;

/// Calls replayed before a failure, at most: the latest, where its child answered more.
pub const HISTORY_KEPT: usize = 100_000;
/// Calls and values sent in one batch of a replay.
const BATCH_CASES: usize = 4096;
const BATCH_VALUES: usize = 1 << 15;

/// A failure and the calls it needs before it, in one fresh child.
pub struct Sequence {
    /// The calls before it, in order, each answered right.
    pub before: Vec<Vec<i32>>,
    /// The failing call, shrunk, with what it got and how the search went.
    pub last: Shrunk,
}

/// Whether the calls `before` (each answered right), then one on `last`, fail in a fresh child
/// with `verdict` on `last`: what it got there, if so.
pub fn replay(
    runner: &mut Runner,
    before: &[Vec<i32>],
    last: &[i32],
    verdict: Verdict,
) -> Result<Option<Got>, SearchError> {
    if !prepare(runner, before)? {
        return Ok(None);
    }
    Ok(check_one(runner, last)?.filter(|got| got.verdict() == verdict))
}

/// A fresh child that has answered `before` in order, each right: false where one was not.
pub fn prepare(runner: &mut Runner, before: &[Vec<i32>]) -> Result<bool, SearchError> {
    let trouble = |runner: &Runner| {
        let name = runner.name();
        move |e| SearchError::Trouble(Trouble::new(Doing::Starting(name), e))
    };
    let spawn = trouble(runner);
    runner.fresh().map_err(spawn)?;
    let mut from = 0;
    while from < before.len() {
        let mut to = from;
        let mut values = 0;
        while to < before.len() && to - from < BATCH_CASES && (to == from || values + before[to].len() <= BATCH_VALUES)
        {
            values += before[to].len();
            to += 1;
        }
        let chunk = &before[from..to];
        let batch = Batch::new(from as u32 + 1, chunk.iter().map(Vec::as_slice));
        let spawn = trouble(runner);
        let Ok(answers) = runner.batch(&batch).map_err(spawn)? else { return Ok(false) };
        let right = answers.iter().zip(chunk).all(|(a, v)| a.is_some_and(|a| oracle::answer(v).is(a)));
        if !right {
            return Ok(false);
        }
        from = to;
    }
    Ok(true)
}

/// The fewest of `items`, kept in order, for which `fails` holds, by delta debugging: it tries
/// each part of the list, then each list without a part, halving the parts as it goes. `fails`
/// holds for `items`; it stops early (with what it has) when `fails` says to by `stop`.
pub fn fewest<T: Clone>(mut items: Vec<T>, mut fails: impl FnMut(&[T]) -> bool, stop: impl Fn() -> bool) -> Vec<T> {
    if fails(&[]) {
        return Vec::new();
    }
    let mut parts = 2;
    while items.len() >= 2 && !stop() {
        let size = items.len().div_ceil(parts);
        let chunks: Vec<Vec<T>> = items.chunks(size).map(<[T]>::to_vec).collect();
        if let Some(part) = chunks.iter().find(|part| fails(part)) {
            items = part.clone();
            parts = 2;
            continue;
        }
        let without = |k: usize| -> Vec<T> {
            chunks.iter().enumerate().filter(|(j, _)| *j != k).flat_map(|(_, part)| part.iter().cloned()).collect()
        };
        if let Some(rest) = (0..chunks.len()).map(without).find(|rest| fails(rest)) {
            items = rest;
            parts = (parts - 1).max(2);
            continue;
        }
        if parts >= items.len() {
            break;
        }
        parts = (parts * 2).min(items.len());
    }
    items
}

/// A failure on `values` that needs the calls `before` it (it got `got` after them in a fresh
/// child): the fewest of those calls it still needs, then each value shrunk, the failing one
/// first, as long as the sequence fails the same way; until `give_up`.
pub fn shrink_sequence(
    runner: &mut Runner,
    before: Vec<Vec<i32>>,
    values: Vec<i32>,
    got: Got,
    give_up: Instant,
) -> Result<Sequence, SearchError> {
    let verdict = got.verdict();
    let mut error = None;
    let mut tried = 0;
    let late = || Instant::now() > give_up;
    let mut fails = |runner: &mut Runner, before: &[Vec<i32>], last: &[i32]| -> Option<Got> {
        if error.is_some() || late() {
            return None;
        }
        tried += 1;
        replay(runner, before, last, verdict).unwrap_or_else(|e| {
            error = Some(e);
            None
        })
    };
    let indices: Vec<usize> = (0..before.len()).collect();
    let kept = fewest(
        indices,
        |kept| {
            let chosen: Vec<Vec<i32>> = kept.iter().map(|&k| before[k].clone()).collect();
            fails(runner, &chosen, &values).is_some()
        },
        late,
    );
    let mut before: Vec<Vec<i32>> = kept.into_iter().map(|k| before[k].clone()).collect();
    let mut best = (values.clone(), got);
    shrink::shrink(values, &mut |candidate: &[i32]| match fails(runner, &before, candidate) {
        Some(got) => {
            best = (candidate.to_vec(), got);
            true
        }
        None => false,
    });
    let last = best.0.clone();
    for k in 0..before.len() {
        let shrunk = shrink::shrink(before[k].clone(), &mut |candidate: &[i32]| {
            let mut trial = before.clone();
            trial[k] = candidate.to_vec();
            match fails(runner, &trial, &last) {
                Some(got) => {
                    best.1 = got;
                    true
                }
                None => false,
            }
        });
        before[k] = shrunk.0;
    }
    if let Some(e) = error {
        return Err(e);
    }
    let stopped = late();
    Ok(Sequence { before, last: Shrunk { values: best.0, got: best.1, tried, stopped } })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fewest_keeps_only_the_calls_a_failure_needs_in_their_order() {
        // Fails when 3 comes before 7 among the calls.
        let needs = |calls: &[u32]| {
            let three = calls.iter().position(|&c| c == 3);
            let seven = calls.iter().position(|&c| c == 7);
            matches!((three, seven), (Some(a), Some(b)) if a < b)
        };
        let calls: Vec<u32> = (0..100).map(|k| k % 10).collect();
        let mut asked = 0;
        let kept = fewest(
            calls,
            |c| {
                asked += 1;
                needs(c)
            },
            || false,
        );
        assert_eq!(kept, [3, 7]);
        assert!(asked < 100, "delta debugging asks far fewer than one a call: {asked}");
    }

    #[test]
    fn fewest_of_a_failure_that_needs_nothing_is_nothing() {
        assert!(fewest(vec![1, 2, 3], |_| true, || false).is_empty());
        // A stop keeps what it has, which still fails.
        let kept = fewest((0..64).collect::<Vec<u32>>(), |c| c.contains(&5), || true);
        assert!(kept.contains(&5));
    }
}
