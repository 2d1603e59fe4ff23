//! `judge verify`: every array of length 1..=L over a value range, every chosen solution
//! against the oracle. Exhaustive, so a pass is a proof for that bound.

use crate::check;
use crate::cli::Args;
use crate::counterexample;
use crate::error::Error;
use crate::format::{self, MAX_LEN};
use crate::sweep;

pub fn run(args: &Args) -> Result<u8, Error> {
    let max_len = args.max_len.unwrap_or(8);
    if max_len > MAX_LEN {
        return Err(Error::Usage(format!("'--max-len {max_len}' is over LeetCode's limit of {MAX_LEN}")));
    }
    let (low, high) = args.values.unwrap_or((-3, 3));
    if low < -1000 || high > 1000 {
        return Err(Error::Usage(format!("'--values {low}..={high}' is outside LeetCode's -1000..=1000")));
    }
    let base = (high - low + 1) as u64;
    let counts = lengths(base, max_len)
        .ok_or_else(|| Error::Usage(format!("{base}^{max_len} arrays is too many to enumerate")))?;
    let total: u64 = counts.iter().sum();
    let entries = crate::registry::named_or_strategies(&args.solutions)?;
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let solution_args: String = args.solutions.iter().map(|s| format!(" --solution {s}")).collect();
    let (case_counts, checked) = (counts.clone(), entries.clone());
    let job = sweep::Job {
        label: "verify",
        total,
        chunk: 4096,
        jobs,
        stack_bytes: check::stack_bytes(max_len),
        case: Box::new(move |index, values| decode(index, &case_counts, base, low, values)),
        check: Box::new(move |values| check::first_disagreement(&checked, values)),
        describe: Box::new(move |index| {
            let mut values = Vec::new();
            decode(index, &counts, base, low, &mut values);
            // Up to a thousand values fit on a command line, as in a counterexample's `try it`.
            let input = if values.len() <= 1000 {
                format!("'{}'", format::write_input(&values).trim_end())
            } else {
                "--file FILE (FILE holding that array)".to_string()
            };
            let time_it = format!("cargo run --release -- run{solution_args} {input}");
            (
                format!("array #{index} of length 1..={max_len} over {low}..={high}, {}", format::abbreviate(&values)),
                time_it,
            )
        }),
        stall: check::STALL,
    };
    let result = sweep::run(job)?;
    let bound = format!("length 1..={max_len} over {low}..={high}");
    let status = match &result.failure {
        None => {
            println!("verify: all {total} arrays of {bound} agree with the oracle");
            0
        }
        Some(failure) => {
            let entry = entries[failure.solution];
            let found = format!("on array #{} of {bound}", failure.index);
            let rerun = format!(
                "cargo run --release -- verify --max-len {max_len} --values {low}..={high} --solution {}",
                entry.name
            );
            let example = counterexample::shrink(entry, failure.values.clone(), failure.got.clone());
            print!("{}", example.render(&found, &rerun));
            1
        }
    };
    println!("{}", result.summary("verify", "array", entries.len(), jobs));
    Ok(status)
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
