//! The loop under `stress` and `verify`: case indices 0..total, handed out in batches to
//! worker threads. Each worker makes its batch, asks the oracle, and sends the whole batch in
//! one binary message to each submission's child, which answers all of it at once. A batch that
//! ends badly (a panic, a spin, a death, too much memory) is run again one case at a time to
//! find the case and its verdict. The failure reported is the one with the lowest index, so a
//! seed gives the same run whatever the thread count.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::exec::child::{Child, Room};
use crate::exec::compile::Binary;
use crate::exec::limits::Limits;
use crate::exec::wire;
use crate::judging::verdict::Verdict;
use crate::problem::{oracle, Answer};

/// What a submission did on a failing case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Got {
    /// It answered, wrongly.
    Answer(Vec<u8>),
    /// It did not answer: the call's verdict and how it ended.
    Ended(Verdict, crate::exec::outcome::Ending),
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
}

pub struct Swept {
    pub checked: u64,
    pub elapsed: Duration,
    pub found: Option<Found>,
}

/// What to sweep.
pub struct Job<'a> {
    pub total: u64,
    /// Writes case `index` into the buffer.
    pub case: &'a (dyn Fn(u64, &mut Vec<i32>) + Sync),
    /// The longest case, to size the batches.
    pub max_len: usize,
    pub binaries: &'a [Binary],
    pub limits: Limits,
    pub jobs: usize,
}

/// Values per batch: large enough to amortise a round trip, small enough to stay live.
const BATCH_VALUES: usize = 1 << 15;

/// One call of `binary` on `values` in `child` (started when needed): what it got, or None
/// when it answered right within every limit. Errors are the judge's: a child that cannot start.
pub fn check_one(
    child: &mut Option<Child>,
    binary: &Binary,
    limits: Limits,
    room: &Room,
    values: &[i32],
) -> Result<Option<Got>, String> {
    let live = match child {
        Some(live) if !live.is_gone() => live,
        _ => child.insert(Child::spawn(binary, 0, limits, room).map_err(|e| e.to_string())?),
    };
    let call = live.call(values, None);
    let expected = oracle::answer(values);
    Ok(match Verdict::of(&call, expected, &limits) {
        Some(Verdict::Ac) => None,
        None => return Err(format!("{:?}", call.result.err())),
        Some(verdict) => Some(match call.result {
            Err(ending) => Got::Ended(verdict, ending),
            Ok(answered) if verdict == Verdict::Wa => Got::Answer(answered.answer),
            Ok(_) => Got::Limit(verdict),
        }),
    })
}

/// Sweeps cases `0..total`; `progress` is called with the count done about ten times a second.
pub fn sweep(job: &Job, room: &Room, progress: &mut dyn FnMut(u64)) -> Result<Swept, String> {
    let start = Instant::now();
    let chunk = (BATCH_VALUES / job.max_len.max(1)).clamp(1, 4096) as u64;
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let limit = AtomicU64::new(u64::MAX);
    let found: Mutex<Option<Found>> = Mutex::new(None);
    let error: Mutex<Option<String>> = Mutex::new(None);
    let finished = AtomicU64::new(0);
    let workers = job.jobs.max(1);
    let watcher = thread::current();
    thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                if let Err(e) = work(job, room, chunk, &next, &done, &limit, &found) {
                    limit.store(0, Ordering::Relaxed);
                    *error.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                }
                finished.fetch_add(1, Ordering::Release);
                watcher.unpark();
            });
        }
        while finished.load(Ordering::Acquire) < workers as u64 {
            thread::park_timeout(Duration::from_millis(100));
            progress(done.load(Ordering::Relaxed));
        }
    });
    if let Some(e) = error.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    let found = found.into_inner().unwrap_or_else(|p| p.into_inner());
    let checked = found.as_ref().map_or(job.total, |f| f.index + 1);
    Ok(Swept { checked, elapsed: start.elapsed(), found })
}

/// One batch of cases, made and sent, waiting for its answers.
struct Batch {
    from: u64,
    cases: Vec<Vec<i32>>,
    expected: Vec<Answer>,
    frame: Arc<Vec<u8>>,
}

/// Claims the next batch and makes it, unless every case is taken or past the lowest failure.
fn make(
    job: &Job,
    chunk: u64,
    next: &AtomicU64,
    limit: &AtomicU64,
    seq: u32,
    scratch: &mut Vec<(i64, i64)>,
) -> Option<Batch> {
    let from = next.fetch_add(chunk, Ordering::Relaxed);
    // Past the lowest failure, nothing this worker finds can be reported.
    if from >= job.total || from > limit.load(Ordering::Relaxed) {
        return None;
    }
    let to = (from + chunk).min(job.total);
    let mut cases = vec![Vec::new(); (to - from) as usize];
    for (k, values) in cases.iter_mut().enumerate() {
        (job.case)(from + k as u64, values);
    }
    let expected = cases.iter().map(|v| oracle::answer_with(v, scratch)).collect();
    let frame = Arc::new(wire::encode_batch(seq, cases.iter().map(Vec::as_slice)));
    Some(Batch { from, cases, expected, frame })
}

/// A worker: while the children answer one batch, it makes the next.
fn work(
    job: &Job,
    room: &Room,
    chunk: u64,
    next: &AtomicU64,
    done: &AtomicU64,
    limit: &AtomicU64,
    found: &Mutex<Option<Found>>,
) -> Result<(), String> {
    let mut children: Vec<Option<Child>> = job.binaries.iter().map(|_| None).collect();
    let mut scratch = Vec::new();
    let mut seq = 1u32;
    let mut ready = make(job, chunk, next, limit, seq, &mut scratch);
    while let Some(batch) = ready {
        // Every child gets the batch before any answer is read, so they work on it together.
        let mut sent = Vec::with_capacity(children.len());
        for (binary, child) in job.binaries.iter().zip(&mut children) {
            sent.push(start(child, binary, job.limits, room)?.send_batch(Arc::clone(&batch.frame)).is_ok());
        }
        seq = seq.wrapping_add(1);
        ready = make(job, chunk, next, limit, seq, &mut scratch);
        let mut first: Option<Found> = None;
        for (s, binary) in job.binaries.iter().enumerate() {
            let failure = collect(&mut children[s], sent[s], binary, job.limits, room, &batch.cases, &batch.expected)?;
            if let Some((k, got)) = failure {
                let index = batch.from + k as u64;
                if first.as_ref().is_none_or(|f| index < f.index) {
                    first = Some(Found { index, values: batch.cases[k].clone(), submission: s, got });
                }
            }
        }
        if let Some(failure) = first {
            let mut kept = found.lock().unwrap_or_else(|p| p.into_inner());
            if kept.as_ref().is_none_or(|k| failure.index < k.index) {
                limit.fetch_min(failure.index, Ordering::AcqRel);
                *kept = Some(failure);
            }
        }
        done.fetch_add(batch.cases.len() as u64, Ordering::Relaxed);
    }
    Ok(())
}

/// The child of a submission, started when there is none.
fn start<'c>(
    child: &'c mut Option<Child>,
    binary: &Binary,
    limits: Limits,
    room: &Room,
) -> Result<&'c mut Child, String> {
    if child.as_ref().is_none_or(Child::is_gone) {
        *child = Some(Child::spawn(binary, 0, limits, room).map_err(|e| e.to_string())?);
    }
    child.as_mut().ok_or_else(|| "no child".to_string())
}

/// The answers to the batch sent to one submission: its first failing case and what it got.
fn collect(
    child: &mut Option<Child>,
    sent: bool,
    binary: &Binary,
    limits: Limits,
    room: &Room,
    cases: &[Vec<i32>],
    expected: &[Answer],
) -> Result<Option<(usize, Got)>, String> {
    let answers = match child.as_mut().filter(|_| sent) {
        Some(live) => live.receive_batch(limits.deadline()).ok(),
        None => None,
    };
    let checked = answers.and_then(|packed| {
        let mut count = 0;
        for (k, answer) in wire::unpack(&packed).enumerate() {
            let answer = answer?;
            count += 1;
            if !expected.get(k)?.is(answer) {
                return Some(Some((k, Got::Answer(answer.to_vec()))));
            }
        }
        (count == cases.len()).then_some(None)
    });
    if let Some(first) = checked {
        return Ok(first);
    }
    // Something went wrong inside the batch: find the case one call at a time.
    for (k, values) in cases.iter().enumerate() {
        if let Some(got) = check_one(child, binary, limits, room, values)? {
            return Ok(Some((k, got)));
        }
    }
    Ok(None)
}
