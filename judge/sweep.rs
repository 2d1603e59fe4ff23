//! The parallel loop under `stress` and `verify`: case indices 0..total handed out in chunks
//! to worker threads, each case checked against the oracle. The failure reported is the one
//! with the lowest index, so a run is the same whatever the thread count.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

use crate::check;
use crate::registry::Entry;

/// A case that takes this long in-process is a hang: say so rather than wait forever.
const STALL: Duration = Duration::from_secs(20);

pub struct Failure {
    pub index: u64,
    pub values: Vec<i32>,
    /// Index into the solution list.
    pub solution: usize,
}

pub struct Sweep {
    pub checked: u64,
    pub elapsed: Duration,
    pub failure: Option<Failure>,
}

impl Sweep {
    /// The closing line: `stress: 1000 cases checked in 0.01 s · 100000 cases/s · …`.
    pub fn summary(&self, label: &str, noun: &str, solutions: usize, jobs: usize) -> String {
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        format!(
            "{label}: {} {noun}s checked in {:.2} s · {:.0} {noun}s/s · {solutions} solution{} + oracle · \
             {jobs} thread{} · {} build",
            self.checked,
            self.elapsed.as_secs_f64(),
            self.checked as f64 / self.elapsed.as_secs_f64().max(1e-9),
            plural(solutions),
            plural(jobs),
            crate::report::build_profile()
        )
    }
}

/// Checks cases `0..total`, made by `case(index, buffer)`, against every solution.
pub fn run(
    label: &str,
    total: u64,
    chunk: u64,
    entries: &[&'static Entry],
    jobs: usize,
    stack_bytes: usize,
    case: &(dyn Fn(u64, &mut Vec<i32>) + Sync),
) -> Sweep {
    check::quiet_panics();
    let start = Instant::now();
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let first_failure = AtomicU64::new(u64::MAX);
    let failure: Mutex<Option<Failure>> = Mutex::new(None);
    // Each worker's current chunk start, so a stall can be reported with its case range.
    let current: Vec<AtomicU64> = (0..jobs).map(|_| AtomicU64::new(u64::MAX)).collect();
    let running = AtomicUsize::new(jobs);
    // The last worker to finish wakes the watcher, so a short sweep is not timed by its naps.
    let watcher = thread::current();
    thread::scope(|scope| {
        for slot in &current {
            let builder = thread::Builder::new().stack_size(stack_bytes);
            let work = || {
                let mut values = Vec::new();
                loop {
                    let from = next.fetch_add(chunk, Ordering::Relaxed);
                    if from >= total || from > first_failure.load(Ordering::Relaxed) {
                        break;
                    }
                    slot.store(from, Ordering::Relaxed);
                    let to = (from + chunk).min(total);
                    for index in from..to {
                        case(index, &mut values);
                        if let Some((solution, _)) = check::first_disagreement(entries, &values) {
                            record(&first_failure, &failure, Failure { index, values: values.clone(), solution });
                            break;
                        }
                    }
                    done.fetch_add(to - from, Ordering::Relaxed);
                }
                slot.store(u64::MAX, Ordering::Relaxed);
                if running.fetch_sub(1, Ordering::AcqRel) == 1 {
                    watcher.unpark();
                }
            };
            builder.spawn_scoped(scope, work).expect("start a worker thread");
        }
        watch(label, total, chunk, &running, &done, &current, start);
    });
    let failure = failure.into_inner().unwrap_or_else(|p| p.into_inner());
    let checked = failure.as_ref().map_or(total, |f| f.index + 1);
    Sweep { checked, elapsed: start.elapsed(), failure }
}

fn record(first: &AtomicU64, slot: &Mutex<Option<Failure>>, found: Failure) {
    let mut kept = slot.lock().unwrap_or_else(|p| p.into_inner());
    if kept.as_ref().is_none_or(|k| found.index < k.index) {
        first.fetch_min(found.index, Ordering::Relaxed);
        *kept = Some(found);
    }
}

/// Progress on stderr while the workers run (on a terminal), and a watchdog for hangs.
fn watch(
    label: &str,
    total: u64,
    chunk: u64,
    running: &AtomicUsize,
    done: &AtomicU64,
    current: &[AtomicU64],
    start: Instant,
) {
    let terminal = std::io::stderr().is_terminal();
    let mut last_seen: Vec<(u64, Instant)> = current.iter().map(|_| (u64::MAX, Instant::now())).collect();
    while running.load(Ordering::Acquire) > 0 {
        thread::park_timeout(Duration::from_millis(50));
        let count = done.load(Ordering::Relaxed);
        if terminal {
            let rate = count as f64 / start.elapsed().as_secs_f64().max(1e-9);
            eprint!("\r{label}: {count}/{total} cases · {:.0}/s   ", rate);
            let _ = std::io::stderr().flush();
        }
        for (slot, seen) in current.iter().zip(&mut last_seen) {
            let at = slot.load(Ordering::Relaxed);
            if at != seen.0 {
                *seen = (at, Instant::now());
            } else if at != u64::MAX && seen.1.elapsed() > STALL {
                eprintln!(
                    "\njudge: {label}: cases {at}..{} have run for over {} s: a solution hangs; \
                     rerun them with a smaller --count to find which",
                    at + chunk,
                    STALL.as_secs()
                );
                std::process::exit(2);
            }
        }
    }
    if terminal {
        eprint!("\r{}\r", " ".repeat(60));
    }
}
