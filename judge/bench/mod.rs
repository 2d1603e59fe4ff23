//! `judge bench`: each strategy's time per call and extra memory, by input size, measured in
//! the strategy's own child process, like every other run of a submission.
//!
//! Time: for each strategy and size, one child makes a warm-up call and then `reps` calls, each
//! on a fresh copy of the input made before the clock starts; every call has the time limit as
//! its deadline, so a strategy that spins at a large n is reported, not waited on.
//! Memory: a fresh child per strategy and size makes one call and reports the resident memory
//! it added (see the driver's `measure`).
//! The allocator: as every child, a bench child serves blocks below 32 MiB from the heap and
//! keeps freed memory resident (see `exec::child::ALLOCATOR`), so no timed call pays for mmap
//! and munmap, and the memory reading counts what a call freed.

pub mod machine;

use crate::exec::child::Child;
use crate::exec::compile::Program;
use crate::exec::limits::Limits;
use crate::exec::outcome::Ending;
use crate::exec::trouble::{Doing, Trouble};
use crate::judging::workbench::Workbench;
use crate::problem::generator::{self, Shape};
use crate::search::growth::{self, Growth};
use crate::search::{build, SearchError};

pub const SEED: u64 = 1406;
pub const SHAPE: Shape = Shape::Uniform;
/// Bench measures memory rather than limiting it: a recursion ten million levels deep touches
/// gigabytes of stack.
pub const MEMORY_MIB: u64 = 8 << 10;
pub use crate::exec::child::MMAP_THRESHOLD;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub sizes: Vec<usize>,
    pub reps: u32,
}

/// The limits bench runs under: the time limit is each call's deadline, memory is measured
/// rather than limited, and the stack grows to fit the largest size.
pub fn limits(time: std::time::Duration, sizes: &[usize]) -> Limits {
    let largest = sizes.iter().copied().max().unwrap_or(0);
    Limits { time, memory_mib: MEMORY_MIB, stack_mib: 0 }.for_depth(largest)
}

/// Order statistics of the timed calls, in nanoseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stats {
    pub min: u64,
    pub q1: u64,
    pub median: u64,
    pub q3: u64,
    pub max: u64,
}

impl Stats {
    pub fn of(ns: &mut [u64]) -> Stats {
        ns.sort_unstable();
        let len = ns.len();
        let rank = |q: f64| ns[((len - 1) as f64 * q).round() as usize];
        let median = if len % 2 == 1 { ns[len / 2] } else { (ns[len / 2 - 1] + ns[len / 2]) / 2 };
        Stats { min: ns[0], q1: rank(0.25), median, q3: rank(0.75), max: ns[len - 1] }
    }
}

#[derive(Clone, Debug)]
pub struct Row {
    pub strategy: String,
    pub n: usize,
    pub answer: Vec<u8>,
    pub time: Stats,
    /// Median over the smallest median at this n.
    pub ratio: f64,
    pub extra_kib: Option<u64>,
}

impl Row {
    pub fn ns_per_element(&self) -> f64 {
        self.time.median as f64 / self.n as f64
    }
}

/// A strategy that could not be measured at a size.
#[derive(Clone, Debug)]
pub struct Failure {
    pub strategy: String,
    pub n: usize,
    pub ending: Ending,
}

pub struct Report {
    pub compiler: String,
    /// Each strategy's time against n, fitted (see `search::growth`), in `strategies` order.
    pub growth: Vec<Growth>,
    pub cores: Option<usize>,
    pub reps: u32,
    /// What every call ran under: its deadline is the time limit.
    pub limits: Limits,
    /// The stack of the timing thread: room for a recursion one level a pile deep at the
    /// largest size (`limits`), whatever `--stack-mb` the judge takes.
    pub stack_bytes: u64,
    pub strategies: Vec<String>,
    /// Grouped by n (ascending), strategies in name order within a size.
    pub rows: Vec<Row>,
    pub failures: Vec<Failure>,
}

impl Report {
    /// The largest input size timed.
    pub fn largest(&self) -> usize {
        self.rows.iter().map(|r| r.n).max().unwrap_or(0)
    }

    /// The sizes at which the strategies' answers differ.
    pub fn disagreements(&self) -> Vec<usize> {
        let mut sizes: Vec<usize> = (self.rows.iter())
            .filter(|r| self.rows.iter().any(|o| o.n == r.n && o.answer != r.answer))
            .map(|r| r.n)
            .collect();
        sizes.dedup();
        sizes
    }
}

/// The file in the build cache where `floor` (`judge/bench/floor.rs`) leaves its last reading:
/// `n 50000`, then a line per entry, its name and its median ns a pile.
pub const FLOOR_FILE: &str = "floor.txt";

/// The size and the `floor` entry's ns a pile, from `FLOOR_FILE`'s text.
pub fn floor_line(text: &str) -> Option<(usize, f64)> {
    let mut lines = text.lines().map(|l| l.split_whitespace().collect::<Vec<_>>());
    let n = match lines.next()?.as_slice() {
        ["n", n] => n.parse().ok()?,
        _ => return None,
    };
    let ns = lines.find_map(|words| match words.as_slice() {
        ["floor", ns] => ns.parse::<f64>().ok(),
        _ => None,
    })?;
    (ns > 0.0 && ns.is_finite()).then_some((n, ns))
}

/// Refuses what is not a strategy: bench times correct solutions only.
pub fn check_names(names: &[String]) -> Result<(), SearchError> {
    match names.iter().find(|n| n.starts_with("wrong/") || n.contains('#') || n.contains("/wrong/")) {
        Some(wrong) => Err(SearchError::NotAStrategy { name: wrong.clone() }),
        None => Ok(()),
    }
}

pub fn bench(workbench: &Workbench, request: &Request) -> Result<Report, SearchError> {
    let mut sizes = request.sizes.clone();
    sizes.sort_unstable();
    sizes.dedup();
    let programs = build(workbench)?;
    let mut report = Report {
        compiler: workbench.compiler.version().to_string(),
        growth: Vec::new(),
        cores: std::thread::available_parallelism().ok().map(|n| n.get()),
        reps: request.reps.max(1),
        limits: workbench.limits(),
        stack_bytes: workbench.limits().stack_bytes(),
        strategies: workbench.submissions.iter().map(|s| s.name.clone()).collect(),
        rows: Vec::new(),
        failures: Vec::new(),
    };
    for &n in &sizes {
        let input = generator::generate(SHAPE, n, SEED);
        let first = report.rows.len();
        for (submission, program) in workbench.submissions.iter().zip(&programs) {
            let strategy = submission.name.clone();
            let measured = measure(workbench, program, &input, report.reps)
                .map_err(|e| SearchError::Trouble(Trouble::new(Doing::Starting(strategy.clone()), e)))?;
            match measured {
                Ok(mut measured) => {
                    let time = Stats::of(&mut measured.times);
                    let (answer, extra_kib) = (measured.answer, measured.extra_kib);
                    report.rows.push(Row { strategy, n, answer, time, ratio: 0.0, extra_kib });
                }
                Err(ending) => report.failures.push(Failure { strategy, n, ending }),
            }
        }
        // A median of 0 is one under what a call can be told from an empty one: 1 ns.
        let fastest = report.rows[first..].iter().map(|r| r.time.median.max(1)).min().unwrap_or(1) as f64;
        for row in &mut report.rows[first..] {
            row.ratio = row.time.median.max(1) as f64 / fastest;
        }
    }
    let input = growth::input();
    for (submission, program) in workbench.submissions.iter().zip(&programs) {
        let starting = |e| SearchError::Trouble(Trouble::new(Doing::Starting(submission.name.clone()), e));
        report.growth.push(growth::probe(&mut workbench.runner(program), &input).map_err(starting)?);
    }
    Ok(report)
}

/// What one strategy did at one size.
struct Measured {
    times: Vec<u64>,
    answer: Vec<u8>,
    extra_kib: Option<u64>,
}

/// Times in one child, then the memory reading in a fresh one: how the strategy did, or, when
/// no child could start, the judge's error (not the strategy's).
fn measure(
    workbench: &Workbench,
    program: &Program,
    input: &[i32],
    reps: u32,
) -> std::io::Result<Result<Measured, Ending>> {
    let (times, answer) = match Child::spawn(program, workbench.limits(), &workbench.housing)?.time(input, reps) {
        Ok(timed) => timed,
        Err(ending) => return Ok(Err(ending)),
    };
    let extra_kib = match Child::spawn(program, workbench.limits(), &workbench.housing)?.measure(input) {
        Ok((extra_kib, _)) => extra_kib,
        Err(ending) => return Ok(Err(ending)),
    };
    Ok(Ok(Measured { times, answer, extra_kib }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_floor_reading_is_its_size_and_the_floor_entry() {
        let text = "n 50000\nfloor 0.552\nfloor_max 0.61\ndp_array 1.6\n";
        assert_eq!(floor_line(text), Some((50_000, 0.552)));
        assert_eq!(floor_line("n 50000\ndp_array 1.6\n"), None);
        assert_eq!(floor_line("floor 0.5\n"), None);
        assert_eq!(floor_line("n 10\nfloor NaN\n"), None);
    }

    #[test]
    fn order_statistics_of_known_samples() {
        let stats = Stats::of(&mut [50, 10, 40, 20, 30]);
        assert_eq!((stats.min, stats.q1, stats.median, stats.q3, stats.max), (10, 20, 30, 40, 50));
        assert_eq!(Stats::of(&mut [4, 1, 3, 2]).median, 2);
        assert_eq!(Stats::of(&mut [7]).median, 7);
    }
}
