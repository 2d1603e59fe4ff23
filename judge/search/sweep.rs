//! The loop under `stress` and `verify`: case indices 0..total, in batches handed out to
//! worker threads. Each worker makes its batch, asks the oracle, and sends the whole batch to
//! each submission's child at once, which answers all of it; while they work, it makes the
//! next. A batch that ends badly (a panic, a spin, a death, too much memory) says how far it
//! got in its child's ledger: the answers before are checked, and from the case that was
//! running on it is run again one case at a time, to find the case and its verdict by one call.
//! The failure reported is the one with the lowest index, so a seed gives the same run whatever
//! the thread count; with it, the cases its child was given before it (`history`), which a
//! solution that keeps state between calls may fail only after.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::SearchError;
use crate::exec::child::{Batch, Runner};
use crate::exec::compile::Program;
use crate::exec::outcome::Ending;
use crate::exec::trouble::{Doing, Trouble};
use crate::judging::verdict::Verdict;
use crate::judging::workbench::Workbench;
use crate::parallel;
use crate::problem::{oracle, Answer};

/// What a submission did on a failing case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Got {
    /// It answered, wrongly.
    Answer(Vec<u8>),
    /// It did not answer: the call's verdict and how it ended.
    Ended(Verdict, Ending),
    /// It answered right but broke a limit (time, memory, output) doing so.
    Limit(Verdict),
}

impl Got {
    pub fn verdict(&self) -> Verdict {
        match self {
            Got::Answer(_) => Verdict::Wa,
            Got::Ended(verdict, _) | Got::Limit(verdict) => *verdict,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Found {
    pub index: u64,
    pub values: Vec<i32>,
    /// Index into the submissions.
    pub submission: usize,
    pub got: Got,
    /// The cases its child answered before it, in order, as runs of case indices.
    pub history: Vec<(u64, u64)>,
}

pub struct Swept {
    pub checked: u64,
    pub elapsed: Duration,
    pub found: Option<Found>,
    /// Each submission's own time over the batches it answered, as its child measured it
    /// (for display: how much slower than the oracle it was).
    pub busy: Vec<Duration>,
    /// The oracle's time over the same batches.
    pub oracle: Duration,
}

/// What to sweep.
pub struct Sweep<'a> {
    pub total: u64,
    /// Writes case `index` into the buffer.
    pub case: &'a (dyn Fn(u64, &mut Vec<i32>) + Sync),
    /// The longest case, to size the batches.
    pub max_len: usize,
    pub programs: &'a [Program],
    pub threads: usize,
}

/// Values per batch: large enough to amortise a round trip, small enough to stay live.
const BATCH_VALUES: usize = 1 << 15;

/// One call on `values` in `runner`: what it got, or None when it answered right within every
/// limit. Errors are the judge's: a child that cannot start, a call that could not be judged.
pub fn check_one(runner: &mut Runner, values: &[i32]) -> Result<Option<Got>, SearchError> {
    let limits = runner.limits();
    let call =
        runner.call(values).map_err(|e| SearchError::Trouble(Trouble::new(Doing::Starting(runner.name()), e)))?;
    let expected = oracle::answer(values);
    Ok(match Verdict::of(&call, expected, &limits) {
        Some(Verdict::Ac) => None,
        None => {
            let ending = call.result.expect_err("only a call the judge could not make has no verdict");
            return Err(SearchError::Unjudged { ending, limits });
        }
        Some(verdict) => Some(match call.result {
            Err(ending) => Got::Ended(verdict, ending),
            Ok(answered) if verdict == Verdict::Wa => Got::Answer(answered.answer),
            Ok(_) => Got::Limit(verdict),
        }),
    })
}

/// Shared by the workers: the lowest failure so far, and the time each one spent.
struct Shared {
    /// No batch starting past this index can hold the failure to report.
    limit: AtomicU64,
    found: Mutex<Option<Found>>,
    busy: Mutex<(Vec<Duration>, Duration)>,
}

/// Sweeps cases `0..total`; `progress` is called with the count done about ten times a second.
pub fn sweep(workbench: &Workbench, job: &Sweep, progress: &mut dyn FnMut(u64)) -> Result<Swept, SearchError> {
    let start = Instant::now();
    let chunk = (BATCH_VALUES / job.max_len.max(1)).clamp(1, 4096) as u64;
    let batches = job.total.div_ceil(chunk) as usize;
    let shared = Shared {
        limit: AtomicU64::new(u64::MAX),
        found: Mutex::new(None),
        busy: Mutex::new((vec![Duration::ZERO; job.programs.len()], Duration::ZERO)),
    };
    let done = AtomicU64::new(0);
    let error = parallel::each(
        batches,
        job.threads,
        |claims, send| {
            if let Err(e) = work(workbench, job, chunk, claims, &shared, &done) {
                shared.limit.store(0, Ordering::Relaxed);
                let _ = send.send(e);
            }
        },
        |errors| loop {
            match errors.recv_timeout(Duration::from_millis(100)) {
                Ok(error) => break Some(error),
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => progress(done.load(Ordering::Relaxed)),
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break None,
            }
        },
    );
    if let Some(e) = error {
        return Err(e);
    }
    let found = shared.found.into_inner().unwrap_or_else(|p| p.into_inner());
    let checked = found.as_ref().map_or(job.total, |f| f.index + 1);
    let (busy, oracle) = shared.busy.into_inner().unwrap_or_else(|p| p.into_inner());
    Ok(Swept { checked, elapsed: start.elapsed(), found, busy, oracle })
}

/// One batch of cases, made and encoded, with the oracle's answers and its time on them.
struct Made {
    from: u64,
    cases: Vec<Vec<i32>>,
    expected: Vec<Answer>,
    batch: Batch,
    oracle: Duration,
}

fn make(job: &Sweep, chunk: u64, index: usize, scratch: &mut Vec<(i64, i64)>) -> Made {
    let from = index as u64 * chunk;
    let to = (from + chunk).min(job.total);
    let mut cases = vec![Vec::new(); (to - from) as usize];
    for (k, values) in cases.iter_mut().enumerate() {
        (job.case)(from + k as u64, values);
    }
    let start = Instant::now();
    let expected = cases.iter().map(|v| oracle::answer_with(v, scratch)).collect();
    let oracle = start.elapsed();
    let batch = Batch::new(index as u32, cases.iter().map(Vec::as_slice));
    Made { from, cases, expected, batch, oracle }
}

/// A worker: while the children answer one batch, it makes the next.
fn work(
    workbench: &Workbench,
    job: &Sweep,
    chunk: u64,
    mut claims: parallel::Claims,
    shared: &Shared,
    done: &AtomicU64,
) -> Result<(), SearchError> {
    let mut runners: Vec<Runner> = job.programs.iter().map(|p| workbench.runner(p)).collect();
    let mut scratch = Vec::new();
    let claim = |claims: &mut parallel::Claims| {
        // Past the lowest failure, nothing this worker finds can be reported.
        let index = claims.next()?;
        (index as u64 * chunk <= shared.limit.load(Ordering::Relaxed)).then_some(index)
    };
    let mut ready = claim(&mut claims).map(|index| make(job, chunk, index, &mut scratch));
    let mut busy = vec![Duration::ZERO; runners.len()];
    let mut oracle = Duration::ZERO;
    // The cases each runner's child has answered since it started.
    let mut histories: Vec<Vec<(u64, u64)>> = vec![Vec::new(); runners.len()];
    while let Some(made) = ready {
        // Every child is started (they start up together), then gets the batch before any
        // answer is read, so they work on it together.
        let spawn = |name: String| move |e| SearchError::Trouble(Trouble::new(Doing::Starting(name), e));
        for runner in &mut runners {
            let name = runner.name();
            runner.child().map_err(spawn(name))?;
        }
        let mut sent = Vec::with_capacity(runners.len());
        for (runner, history) in runners.iter_mut().zip(&mut histories) {
            let name = runner.name();
            let child = runner.child().map_err(spawn(name))?;
            if child.served() == 0 {
                history.clear();
            }
            sent.push(child.send_batch(&made.batch).is_ok());
        }
        ready = claim(&mut claims).map(|index| make(job, chunk, index, &mut scratch));
        let mut first: Option<Found> = None;
        for (s, runner) in runners.iter_mut().enumerate() {
            let (failure, took) = collect(runner, sent[s], &made.cases, &made.expected)?;
            busy[s] += took;
            let to = made.from + made.cases.len() as u64;
            match failure {
                Some((k, got, after)) => {
                    let index = made.from + k as u64;
                    // Before it: the child's earlier batches and this one's cases before it, or,
                    // where it was found one call at a time, the calls its new child answered.
                    let history = match after {
                        None => [&histories[s][..], &[(made.from, index)]].concat(),
                        Some(start) => vec![(made.from + start as u64, index)],
                    };
                    if first.as_ref().is_none_or(|f| index < f.index) {
                        first = Some(Found { index, values: made.cases[k].clone(), submission: s, got, history });
                    }
                }
                None if sent[s] => histories[s].push((made.from, to)),
                None => histories[s] = vec![(made.from, to)],
            }
        }
        oracle += made.oracle;
        if let Some(failure) = first {
            let mut kept = shared.found.lock().unwrap_or_else(|p| p.into_inner());
            if kept.as_ref().is_none_or(|k| failure.index < k.index) {
                shared.limit.fetch_min(failure.index, Ordering::AcqRel);
                *kept = Some(failure);
            }
        }
        done.fetch_add(made.cases.len() as u64, Ordering::Relaxed);
    }
    let mut total = shared.busy.lock().unwrap_or_else(|p| p.into_inner());
    for (sum, mine) in total.0.iter_mut().zip(busy) {
        *sum += mine;
    }
    total.1 += oracle;
    Ok(())
}

/// The first answer that is not the expected one, up to the end of a list cut short.
fn first_wrong<'a>(answers: impl Iterator<Item = Option<&'a [u8]>>, expected: &[Answer]) -> Option<(usize, &'a [u8])> {
    answers.enumerate().map_while(|(k, a)| Some((k, a?))).find(|(k, a)| !expected.get(*k).is_some_and(|e| e.is(a)))
}

/// A failing case of a batch: its place, what it got, and, where it was found by calls one at a
/// time, the case those calls began at (in a child of their own).
type Failure = (usize, Got, Option<usize>);

/// The answers to the batch sent to one submission: its first failing case, and the time it
/// took, counted as a call's is (its decoding included).
fn collect(
    runner: &mut Runner,
    sent: bool,
    cases: &[Vec<i32>],
    expected: &[Answer],
) -> Result<(Option<Failure>, Duration), SearchError> {
    let budget = runner.limits().deadline();
    let received = match runner.child() {
        Ok(child) if sent => Some(child.receive_batch(budget)),
        _ => None,
    };
    let start = match received {
        Some(Ok(answers)) => {
            let failure = first_wrong(answers.iter(), expected).map(|(k, a)| (k, Got::Answer(a.to_vec()), None));
            return Ok((failure, answers.took()));
        }
        // It ended badly: the answers before, by its ledger, then one call at a time from the
        // case that was running.
        Some(Err(unfinished)) => {
            let answers = unfinished.progress.map(|p| p.answers).unwrap_or_default();
            if let Some((k, a)) = first_wrong(answers.iter().map(|a| Some(a.as_slice())), expected) {
                return Ok((Some((k, Got::Answer(a.to_vec()), None)), Duration::ZERO));
            }
            answers.len()
        }
        None => 0,
    };
    for (k, values) in cases.iter().enumerate().skip(start) {
        if let Some(got) = check_one(runner, values)? {
            return Ok((Some((k, got, Some(start))), Duration::ZERO));
        }
    }
    Ok((None, Duration::ZERO))
}
