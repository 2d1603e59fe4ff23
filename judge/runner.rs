//! Runs solutions over cases, each in its own child process, and turns replies into verdicts.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread;
use std::time::Duration;

use crate::cases::Case;
use crate::child::{Child, Reply};
use crate::registry::Entry;
use crate::verdict::Verdict;

/// The solution thread's stack: recursive_memo at n = 50,000 in a debug build needs tens
/// of MiB; this leaves room for deeper or fatter recursions, and is only reserved, not used.
pub const DEFAULT_STACK_MB: usize = 512;

#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub time_limit: Duration,
    pub stack_mb: usize,
}

/// One solution on one case.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub verdict: Verdict,
    /// The call's own time, when it finished.
    pub nanos: Option<u64>,
    /// What it returned, when it returned.
    pub answer: Option<String>,
    /// Why it failed: the panic message, the signal, "stack overflow", the time limit.
    pub reason: Option<String>,
    /// What the solution printed itself.
    pub stdout: String,
}

/// One solution over the cases; `outcomes[i]` is None when case i was not run.
pub struct SolutionRun {
    pub entry: &'static Entry,
    pub expected: Verdict,
    pub outcomes: Vec<Option<Outcome>>,
    pub peak_kib: Option<u64>,
    /// Set when the child could not even be started.
    pub spawn_error: Option<String>,
}

impl SolutionRun {
    /// The first verdict that is not AC, or AC when every case that ran was accepted.
    pub fn overall(&self) -> Verdict {
        self.outcomes.iter().flatten().map(|o| o.verdict).find(|v| *v != Verdict::Ac).unwrap_or(Verdict::Ac)
    }

    /// Whether it got what it is tagged to get: AC on every case for a strategy, the tagged
    /// verdict as its first failure for a wrong one.
    pub fn met_expectation(&self) -> bool {
        self.spawn_error.is_none() && self.overall() == self.expected
    }
}

/// Every solution over every case, `jobs` solutions at a time.
pub fn run_all(entries: &[(&'static Entry, Verdict)], cases: &[Case], limits: Limits, jobs: usize) -> Vec<SolutionRun> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<SolutionRun>>> = Mutex::new(entries.iter().map(|_| None).collect());
    thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, entries.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&(entry, expected)) = entries.get(i) else {
                    break;
                };
                let run = run_solution(entry, expected, cases, limits);
                results.lock().unwrap_or_else(|p| p.into_inner())[i] = Some(run);
            });
        }
    });
    results.into_inner().unwrap_or_else(|p| p.into_inner()).into_iter().flatten().collect()
}

/// One solution over the cases, in order. A wrong solution stops at its first failure, as
/// LeetCode does; a strategy runs everything so the matrix is whole.
pub fn run_solution(entry: &'static Entry, expected: Verdict, cases: &[Case], limits: Limits) -> SolutionRun {
    let mut run = SolutionRun { entry, expected, outcomes: vec![None; cases.len()], peak_kib: None, spawn_error: None };
    let mut child: Option<Child> = None;
    for (i, case) in cases.iter().enumerate() {
        let live = match child.as_mut() {
            Some(live) => live,
            None => match Child::spawn(entry.name, limits.stack_mb) {
                Ok(fresh) => child.insert(fresh),
                Err(e) => {
                    run.spawn_error = Some(format!("could not start a child: {e}"));
                    return run;
                }
            },
        };
        let reply = live.run(&case.line, limits.time_limit);
        let (outcome, peak_kib) = judge_reply(reply, case, limits.time_limit);
        run.peak_kib = run.peak_kib.max(peak_kib);
        // Only an answer leaves the child alive; after anything else a fresh one starts.
        if outcome.answer.is_none() {
            child = None;
        }
        let stop = expected != Verdict::Ac && outcome.verdict != Verdict::Ac;
        run.outcomes[i] = Some(outcome);
        if stop {
            break;
        }
    }
    run
}

/// The verdict for one reply, with the child's peak memory when it answered.
fn judge_reply(reply: Reply, case: &Case, time_limit: Duration) -> (Outcome, Option<u64>) {
    let limit_text = || format!("over the time limit of {}", crate::report::show_duration(time_limit));
    match reply {
        Reply::Answer { answer, nanos, peak_kib, stdout } => {
            let verdict = if Duration::from_nanos(nanos) > time_limit {
                Verdict::Tle
            } else if answer == case.expected.as_str() {
                Verdict::Ac
            } else {
                Verdict::Wa
            };
            let reason = (verdict == Verdict::Tle).then(limit_text);
            (Outcome { verdict, nanos: Some(nanos), answer: Some(answer), reason, stdout }, peak_kib)
        }
        Reply::Panic { message: reason, stdout } | Reply::Died { reason, stdout } => {
            (Outcome { verdict: Verdict::Re, nanos: None, answer: None, reason: Some(reason), stdout }, None)
        }
        Reply::Timeout { stdout } => {
            (Outcome { verdict: Verdict::Tle, nanos: None, answer: None, reason: Some(limit_text()), stdout }, None)
        }
    }
}
