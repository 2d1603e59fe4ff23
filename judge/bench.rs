//! `judge bench`: each strategy's time per call and extra memory, by input size.
//!
//! Time is measured here, on one thread whose stack fits the deepest recursion. Memory is
//! measured in a fresh child per strategy and size (`judge bench-child`), so one call's peak
//! cannot hide behind another's.
//!
//! The report is printed by `bench_report`, which also documents the JSON fields.

use std::fs::File;
use std::hint::black_box;
use std::io::Write as _;
use std::process::Command;
use std::thread;
use std::time::Instant;

use crate::bench_report::{render_json, render_text};
use crate::cli::{Args, Format};
use crate::error::Error;
use crate::generator::{self, Shape};
use crate::memory;
use crate::registry::{self, Entry};
use crate::report::build_profile;
use crate::svg;

pub const SEED: u64 = 1406;
const SIZES: [usize; 4] = [1_000, 10_000, 50_000, 200_000];
const REPS: usize = 31;
/// Stack allowed per level of recursion. recursive_memo, the one recursive strategy, touched
/// 96 B per level in a release build and 272 B in a debug build (VmHWM of `bench-child` at
/// n = 10^6 to 10^7, minus its 4 B-per-pile memo); this leaves about twice that for another
/// compiler. Only the touched part of a stack becomes resident: the spare is address space.
pub const FRAME_BYTES: usize = if cfg!(debug_assertions) { 512 } else { 256 };
/// Room for the thread's own needs beside the recursion.
pub const STACK_FLOOR: usize = 8 << 20;

/// The stack for a thread that calls a strategy on `n` piles.
pub fn stack_for(n: usize) -> usize {
    n.saturating_mul(FRAME_BYTES).saturating_add(STACK_FLOOR)
}

pub struct Report {
    pub profile: &'static str,
    pub cores: Option<usize>,
    pub reps: usize,
    pub seed: u64,
    pub stack_bytes: usize,
    pub strategies: Vec<&'static str>,
    /// Grouped by n (ascending), strategies in registry order within a size.
    pub rows: Vec<Row>,
}

pub struct Row {
    pub strategy: &'static str,
    pub n: usize,
    pub answer: String,
    pub time: Stats,
    pub ratio: f64,
    pub extra_kib: Option<u64>,
}

/// Order statistics of the timed calls, in nanoseconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats {
    pub min: u64,
    pub q1: u64,
    pub median: u64,
    pub q3: u64,
    pub max: u64,
}

impl Stats {
    fn of(ns: &mut [u64]) -> Stats {
        ns.sort_unstable();
        let len = ns.len();
        let rank = |q: f64| ns[((len - 1) as f64 * q).round() as usize];
        let median = if len % 2 == 1 { ns[len / 2] } else { (ns[len / 2 - 1] + ns[len / 2]) / 2 };
        Stats { min: ns[0], q1: rank(0.25), median, q3: rank(0.75), max: ns[len - 1] }
    }
}

impl Row {
    pub fn ns_per_element(&self) -> f64 {
        self.time.median as f64 / self.n as f64
    }
}

pub fn run(args: &Args) -> Result<u8, Error> {
    if cfg!(debug_assertions) {
        eprintln!("judge: warning: a debug build's timings mean nothing; use 'cargo run --release -- bench'");
    }
    let entries = select(&args.solutions)?;
    // Opened first, so a bad path fails before the measuring rather than after.
    let chart = match &args.svg {
        Some(path) => Some((path, File::create(path).map_err(|e| Error::io(path, e))?)),
        None => None,
    };
    let sizes = args.sizes.clone().unwrap_or_else(|| SIZES.to_vec());
    let mut report = measure(&entries, &sizes, args.reps.unwrap_or(REPS))?;
    for row in &mut report.rows {
        row.extra_kib = extra_memory(row.strategy, row.n)?;
    }
    if let Some((path, mut file)) = chart {
        file.write_all(svg::render(&report).as_bytes()).map_err(|e| Error::io(path, e))?;
    }
    match args.format {
        Format::Text => print!("{}", render_text(&report)),
        Format::Json => print!("{}", render_json(&report).render()),
    }
    Ok(if report.disagreements().is_empty() { 0 } else { 1 })
}

/// The named strategies (each once), or all of them; wrong solutions may loop or panic.
fn select(names: &[String]) -> Result<Vec<&'static Entry>, Error> {
    let chosen = registry::named_or_strategies(names)?;
    match chosen.iter().find(|e| e.is_wrong()) {
        Some(wrong) => Err(Error::Usage(format!("'judge bench' times correct strategies only, not {:?}", wrong.name))),
        None => Ok(chosen),
    }
}

/// Times every strategy at every size, smallest first; memory is left for `extra_memory`.
pub fn measure(entries: &[&'static Entry], sizes: &[usize], reps: usize) -> Result<Report, Error> {
    let stack = stack_for(sizes.iter().copied().max().unwrap_or(0));
    let (work, mut sizes_owned) = (entries.to_vec(), sizes.to_vec());
    sizes_owned.sort_unstable();
    sizes_owned.dedup();
    let rows = thread::Builder::new()
        .name("bench".to_string())
        .stack_size(stack)
        .spawn(move || time_all(&work, &sizes_owned, reps.max(1)))
        .map_err(|e| {
            let size = memory::show_kib(Some(stack as u64 >> 10));
            Error::Message(format!("cannot start a thread with a {size} stack: {e}"))
        })?
        .join()
        .map_err(|_| Error::Message("a strategy panicked while being timed".to_string()))?;
    Ok(Report {
        profile: build_profile(),
        cores: thread::available_parallelism().ok().map(|n| n.get()),
        reps: reps.max(1),
        seed: SEED,
        stack_bytes: stack,
        strategies: entries.iter().map(|e| e.name).collect(),
        rows,
    })
}

fn time_all(entries: &[&'static Entry], sizes: &[usize], reps: usize) -> Vec<Row> {
    let mut rows = Vec::new();
    for &n in sizes {
        let input = generator::generate(Shape::Uniform, n, SEED);
        let first = rows.len();
        for &entry in entries {
            let answer = (entry.run)(input.clone());
            let mut ns: Vec<u64> = (0..reps).map(|_| time_one(entry, &input)).collect();
            rows.push(Row { strategy: entry.name, n, answer, time: Stats::of(&mut ns), ratio: 0.0, extra_kib: None });
        }
        let fastest = rows[first..].iter().map(|r| r.time.median).min();
        let fastest = fastest.unwrap_or(1).max(1) as f64;
        for row in &mut rows[first..] {
            row.ratio = row.time.median as f64 / fastest;
        }
    }
    rows
}

/// One call alone: the copy is made before the clock starts and the answer dropped after.
fn time_one(entry: &Entry, input: &[i32]) -> u64 {
    let values = input.to_vec();
    let start = Instant::now();
    let answer = black_box(entry.run)(black_box(values));
    let elapsed = start.elapsed();
    black_box(answer);
    elapsed.as_nanos().try_into().unwrap_or(u64::MAX)
}

/// Re-runs this executable as `judge bench-child` so the peak belongs to one call alone.
fn extra_memory(strategy: &str, n: usize) -> Result<Option<u64>, Error> {
    let exe = std::env::current_exe().map_err(|e| Error::Message(format!("cannot find the judge executable: {e}")))?;
    let (len, seed) = (n.to_string(), SEED.to_string());
    let output = Command::new(&exe)
        .args(["bench-child", "--solution", strategy, "--len", &len])
        .args(["--seed", &seed])
        // Keep freed memory resident (glibc's allocator), so that the resident set after
        // the call still holds everything the call touched: see `child`.
        .env("MALLOC_MMAP_THRESHOLD_", (32u64 << 20).to_string())
        .env("MALLOC_TRIM_THRESHOLD_", (1u64 << 62).to_string())
        .output()
        .map_err(|e| Error::io(&exe, e))?;
    let text = String::from_utf8_lossy(&output.stdout);
    let failed = |why: String| {
        let stderr = String::from_utf8_lossy(&output.stderr);
        Error::Message(format!("the memory run of {strategy:?} at n = {n} failed: {why} {}", stderr.trim()))
    };
    if !output.status.success() {
        return Err(failed(output.status.to_string()));
    }
    if text.trim() == "n/a" {
        return Ok(None);
    }
    match text.split_whitespace().map(str::parse).collect::<Vec<_>>()[..] {
        [Ok(extra)] => Ok(Some(extra)),
        _ => Err(failed(format!("unreadable report {:?}", text.trim()))),
    }
}

/// `judge bench-child --solution NAME --len N [--seed S]`: one call, then prints the
/// resident KiB just before it and the peak after it, or `n/a` where there is no such count.
pub fn child(args: &Args) -> Result<u8, Error> {
    let (Some(n), [name]) = (args.len, args.solutions.as_slice()) else {
        return Err(Error::Usage("'judge bench-child' needs one '--solution' and '--len'".to_string()));
    };
    let entry = registry::find(name)?;
    let input = generator::generate(Shape::Uniform, n, args.seed.unwrap_or(SEED));
    let worker = thread::Builder::new()
        .stack_size(stack_for(n))
        .spawn(move || {
            // The baseline holds the input and this thread; what is added after it is the
            // call's. Two readings of that: the exact resident set after the call, which keeps
            // what the call freed (the parent keeps the allocator from returning it), and the
            // kernel's peak, which catches blocks over 32 MiB that are unmapped on free but
            // can lag by a few hundred KiB. Both are lower bounds: take the larger.
            let exact_before = memory::exact_rss_kib();
            let peak_before = match memory::reset_peak() {
                true => memory::peak_rss_kib(),
                false => memory::current_rss_kib(),
            };
            let answer = black_box(entry.run)(black_box(input));
            let peak_after = memory::peak_rss_kib();
            let exact_after = memory::exact_rss_kib();
            black_box(answer);
            let grown = |(before, after): (u64, u64)| after.saturating_sub(before);
            let exact = exact_before.zip(exact_after).map(grown);
            let peak = peak_before.zip(peak_after).map(grown);
            exact.max(peak)
        })
        .map_err(|e| Error::Message(format!("cannot start the worker thread: {e}")))?;
    let measured = worker.join().map_err(|_| Error::Message(format!("{name:?} panicked at n = {n}")))?;
    match measured {
        Some(extra) => println!("{extra}"),
        None => println!("n/a"),
    }
    Ok(0)
}

impl Report {
    /// The sizes at which the strategies' answers differ.
    pub fn disagreements(&self) -> Vec<usize> {
        let mut sizes: Vec<usize> = self
            .rows
            .iter()
            .filter(|r| self.rows.iter().any(|o| o.n == r.n && o.answer != r.answer))
            .map(|r| r.n)
            .collect();
        sizes.dedup();
        sizes
    }
}

/// A small measured report with memory readings of every kind: sizes, zeros and n/a.
#[cfg(test)]
pub fn sample_report() -> Report {
    let entries: Vec<_> = registry::strategies().collect();
    let mut report = measure(&entries, &[1000, 10, 100], 3).unwrap();
    for (i, row) in report.rows.iter_mut().enumerate() {
        row.extra_kib = [Some(0), Some(4), Some(1536), Some(40_000), None][i % 5];
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_statistics_of_known_samples() {
        let stats = Stats::of(&mut [50, 10, 40, 20, 30]);
        let want = (10, 20, 30, 40, 50);
        assert_eq!((stats.min, stats.q1, stats.median, stats.q3, stats.max), want);
        assert_eq!(Stats::of(&mut [4, 1, 3, 2]).median, 2);
        assert_eq!(Stats::of(&mut [7]).median, 7);
    }

    #[test]
    fn every_strategy_is_timed_at_every_size_against_the_fastest() {
        let report = sample_report();
        let names = &report.strategies;
        assert_eq!(report.rows.len(), 3 * names.len());
        for (group, n) in report.rows.chunks(names.len()).zip([10, 100, 1000]) {
            let got: Vec<_> = group.iter().map(|r| (r.strategy, r.n)).collect();
            let want: Vec<_> = names.iter().map(|s| (*s, n)).collect();
            assert_eq!(got, want);
            let least = group.iter().map(|r| r.ratio).fold(f64::INFINITY, f64::min);
            assert_eq!(least, 1.0);
            assert!(group.iter().all(|r| r.time.min <= r.time.median));
        }
        assert!(report.disagreements().is_empty());
    }

    #[test]
    fn selection_dedups_and_refuses_what_is_not_a_strategy() {
        let names = |n: &[&str]| n.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let chosen = select(&names(&["rolling_mod4", "dp_array", "rolling_mod4"])).unwrap();
        let chosen: Vec<_> = chosen.iter().map(|e| e.name).collect();
        assert_eq!(chosen, ["rolling_mod4", "dp_array"]);
        assert!(select(&names(&["nope"])).is_err());
        for wrong in registry::select(&[]).unwrap().into_iter().filter(|e| e.is_wrong()) {
            let message = select(&names(&[wrong.name])).err().unwrap().to_string();
            assert!(message.contains(&format!("{:?}", wrong.name)), "{message}");
        }
    }

    #[test]
    fn the_recursion_fits_its_stack_far_past_the_problem_limit() {
        let n = 300_000;
        let input = generator::generate(Shape::Uniform, n, SEED);
        let memo = registry::find("recursive_memo").unwrap().run;
        let scalars = registry::find("four_scalars").unwrap().run;
        let want = scalars(input.clone());
        let worker = thread::Builder::new().stack_size(stack_for(n));
        let got = worker.spawn(move || memo(input)).unwrap().join().unwrap();
        assert_eq!(got, want);
    }
}
