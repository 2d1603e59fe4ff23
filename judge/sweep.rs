//! The parallel loop under `stress` and `verify`: case indices 0..total handed out in chunks
//! to worker threads, each case checked against the oracle. The outcome reported is the one
//! with the lowest index, a failure or a hang, so a run is the same whatever the thread count.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, Thread};
use std::time::{Duration, Instant};

use crate::check;
use crate::error::Error;

pub struct Failure {
    pub index: u64,
    pub values: Vec<i32>,
    /// Index into the solution list.
    pub solution: usize,
    /// What that solution answered.
    pub got: String,
}

pub struct Sweep {
    pub checked: u64,
    pub elapsed: Duration,
    pub failure: Option<Failure>,
}

/// Writes case `index` into the buffer.
pub type MakeCase = Box<dyn Fn(u64, &mut Vec<i32>) + Send + Sync>;
/// The first solution to disagree with the oracle on a case, and its answer.
pub type Check = Box<dyn Fn(&[i32]) -> Option<(usize, String)> + Send + Sync>;

/// What to sweep. The closures run on worker threads that may be abandoned mid-case, so they
/// own what they use.
pub struct Job {
    pub label: &'static str,
    pub total: u64,
    /// Cases handed out at a time.
    pub chunk: u64,
    pub jobs: usize,
    pub stack_bytes: usize,
    pub case: MakeCase,
    pub check: Check,
    /// Case `index` for a person, and a command that times each solution on it in a child.
    pub describe: Box<dyn Fn(u64) -> (String, String)>,
    /// A case running longer than this is a hang.
    pub stall: Duration,
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

/// A worker that has stopped.
const DONE: u64 = u64::MAX;

/// Padded so workers storing their positions do not share a cache line.
#[repr(align(128))]
struct Position(AtomicU64);

struct Shared {
    case: MakeCase,
    check: Check,
    total: u64,
    chunk: u64,
    next: AtomicU64,
    done: AtomicU64,
    /// The lowest failing or hung index so far: no worker needs to go past it.
    limit: AtomicU64,
    failure: Mutex<Option<Failure>>,
    /// Each worker's case index, a lower bound on every case it may still check; DONE once stopped.
    at: Vec<Position>,
    watcher: Thread,
}

/// Checks cases `0..total` against the oracle. Returns as soon as no worker still running can
/// find an earlier outcome; workers stuck past it are left behind (the process exits soon).
pub fn run(job: Job) -> Result<Sweep, Error> {
    check::quiet_panics();
    let start = Instant::now();
    let shared = Arc::new(Shared {
        case: job.case,
        check: job.check,
        total: job.total,
        chunk: job.chunk.max(1),
        next: AtomicU64::new(0),
        done: AtomicU64::new(0),
        limit: AtomicU64::new(DONE),
        failure: Mutex::new(None),
        at: (0..job.jobs).map(|_| Position(AtomicU64::new(0))).collect(),
        watcher: thread::current(),
    });
    for me in 0..job.jobs {
        let worker = Arc::clone(&shared);
        let spawned = thread::Builder::new().stack_size(job.stack_bytes).spawn(move || work(&worker, me));
        if let Err(e) = spawned {
            // Started workers stop at their next case.
            shared.limit.store(0, Ordering::Relaxed);
            return Err(Error::Message(format!("cannot start worker thread {}: {e}; try fewer --jobs", me + 1)));
        }
    }
    let stalled = watch(&shared, job.label, job.stall, start);
    let failure = shared.failure.lock().unwrap_or_else(|p| p.into_inner()).take();
    if let Some(index) = stalled.filter(|s| failure.as_ref().is_none_or(|f| f.index > *s)) {
        let (what, command) = (job.describe)(index);
        return Err(Error::Message(format!(
            "{}: {what} has run for over {} s: a solution hangs on it or is far too slow\n\
             hint: to time each solution on it in a child, with a time limit: {command}",
            job.label,
            job.stall.as_secs_f64()
        )));
    }
    let checked = failure.as_ref().map_or(job.total, |f| f.index + 1);
    Ok(Sweep { checked, elapsed: start.elapsed(), failure })
}

fn work(shared: &Shared, me: usize) {
    let position = &shared.at[me].0;
    let mut values = Vec::new();
    'chunks: loop {
        let from = shared.next.fetch_add(shared.chunk, Ordering::Relaxed);
        if from >= shared.total {
            break;
        }
        let to = (from + shared.chunk).min(shared.total);
        for index in from..to {
            // Past the lowest failure, nothing this worker finds can be reported.
            if index > shared.limit.load(Ordering::Relaxed) {
                break 'chunks;
            }
            position.store(index, Ordering::Release);
            (shared.case)(index, &mut values);
            if let Some((solution, got)) = (shared.check)(&values) {
                record(shared, Failure { index, values: values.clone(), solution, got });
            }
        }
        shared.done.fetch_add(to - from, Ordering::Relaxed);
    }
    position.store(DONE, Ordering::Release);
    shared.watcher.unpark();
}

fn record(shared: &Shared, found: Failure) {
    let mut kept = shared.failure.lock().unwrap_or_else(|p| p.into_inner());
    if kept.as_ref().is_none_or(|k| found.index < k.index) {
        shared.limit.fetch_min(found.index, Ordering::AcqRel);
        *kept = Some(found);
    }
    drop(kept);
    shared.watcher.unpark();
}

/// Progress on stderr (on a terminal) until no worker can find an earlier outcome; a case
/// that runs for over `stall` is a hang, and its index is returned.
fn watch(shared: &Shared, label: &str, stall: Duration, start: Instant) -> Option<u64> {
    let terminal = std::io::stderr().is_terminal();
    let mut seen: Vec<(u64, Instant)> = shared.at.iter().map(|_| (DONE, start)).collect();
    let mut stalled = DONE;
    loop {
        let now = Instant::now();
        for (position, seen) in shared.at.iter().zip(&mut seen) {
            let at = position.0.load(Ordering::Acquire);
            if at != seen.0 {
                *seen = (at, now);
            } else if at != DONE && at < stalled && now - seen.1 > stall {
                stalled = at;
                shared.limit.fetch_min(at, Ordering::AcqRel);
            }
        }
        let bound = shared.limit.load(Ordering::Acquire);
        // A worker at or below the bound may still find an earlier outcome, unless it is the hang.
        let waiting = seen.iter().any(|&(at, _)| at != DONE && at <= bound && at != stalled);
        if !waiting {
            break;
        }
        thread::park_timeout(Duration::from_millis(50));
        if terminal {
            let count = shared.done.load(Ordering::Relaxed);
            let rate = count as f64 / start.elapsed().as_secs_f64().max(1e-9);
            eprint!("\r{label}: {count}/{} cases · {:.0}/s   ", shared.total, rate);
            let _ = std::io::stderr().flush();
        }
    }
    if terminal {
        eprint!("\r{}\r", " ".repeat(60));
    }
    (stalled != DONE).then_some(stalled)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Case `i` is `[i]`; `check` sees it on a worker thread.
    fn job(jobs: usize, stall: Duration, check: fn(i32) -> Option<String>) -> Job {
        Job {
            label: "test",
            total: 1000,
            chunk: 4,
            jobs,
            stack_bytes: 1 << 20,
            case: Box::new(|index, values| *values = vec![index as i32]),
            check: Box::new(move |values| check(values[0]).map(|got| (0, got))),
            describe: Box::new(|index| (format!("case #{index}"), format!("try {index}"))),
            stall,
        }
    }

    fn hang() -> ! {
        loop {
            thread::sleep(Duration::from_secs(1));
        }
    }

    #[test]
    fn reports_the_lowest_failure_whatever_the_thread_count() {
        let check = |v: i32| (v >= 38 && v % 5 != 3).then(|| format!("got {v}"));
        for jobs in [1, 2, 7] {
            let sweep = run(job(jobs, STALL_FOR_TESTS, check)).unwrap();
            let failure = sweep.failure.unwrap();
            assert_eq!(
                (failure.index, failure.values, failure.got, sweep.checked),
                (39, vec![39], "got 39".into(), 40)
            );
        }
        let clean = run(job(3, STALL_FOR_TESTS, |_| None)).unwrap();
        assert!(clean.failure.is_none() && clean.checked == 1000);
    }

    #[test]
    fn does_not_wait_for_a_worker_stuck_past_the_first_failure() {
        // Case 5 fails slowly; meanwhile the other worker reaches case 9 and hangs there.
        let check = |v: i32| match v {
            5 => {
                thread::sleep(Duration::from_millis(300));
                Some("slow".into())
            }
            9 => hang(),
            _ => None,
        };
        let start = Instant::now();
        let sweep = run(job(2, STALL_FOR_TESTS, check)).unwrap();
        assert_eq!(sweep.failure.map(|f| f.index), Some(5));
        assert!(start.elapsed() < Duration::from_secs(5), "{:?}", start.elapsed());
    }

    #[test]
    fn a_hang_before_the_first_failure_is_reported_with_its_index() {
        let check = |v: i32| match v {
            6 => hang(),
            v if v >= 20 => Some("late".into()),
            _ => None,
        };
        for jobs in [1, 3] {
            let Err(Error::Message(message)) = run(job(jobs, Duration::from_millis(200), check)) else {
                panic!("no hang reported");
            };
            assert!(message.starts_with("test: case #6 has run for over 0.2 s"), "{message}");
            assert!(message.ends_with("with a time limit: try 6"), "{message}");
        }
    }

    /// Long enough not to fire on a loaded machine.
    const STALL_FOR_TESTS: Duration = Duration::from_secs(60);
}
