//! One judging session, start to end: check the limits, list the submissions, load the cases,
//! take a snapshot of the stored data, compile and judge, check the snapshot again, and say
//! what every submission got against what it must get.

use std::time::{Duration, Instant};

use super::cases::{self, BadCase, Case, CasesError};
use super::engine::{self, Event, Plan, Run};
use super::guard::{Change, Snapshot};
use super::submissions::{Catalog, Expect, Submission, SubmissionError};
use super::verdict::Verdict;
use super::workspace::Workspace;
use crate::exec::child::Room;
use crate::exec::compile::{Compiler, CompilerMissing};
use crate::exec::limits::{Limits, Unhonourable};
use crate::problem::{oracle, Answer};

/// What to judge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// Names or paths; every solution file when empty.
    pub solutions: Vec<String>,
    /// `--case` patterns; every case when empty.
    pub cases: Vec<String>,
    pub limits: Limits,
    /// Threads for the submissions whose timings are not shown.
    pub jobs: usize,
    pub fail_fast: bool,
}

/// Why nothing could be judged.
#[derive(Debug)]
pub enum SetupError {
    Limits(Unhonourable),
    Catalog(SubmissionError),
    Cases(CasesError),
    /// No case matched (or the folder has none).
    NoCases {
        patterns: Vec<String>,
    },
    Compiler(CompilerMissing),
    Scratch(std::io::Error),
}

/// Whether a submission got what it must.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Met {
    Yes,
    No,
    /// A bundled wrong submission that passed every case of a filtered run: it is judged for
    /// its tag only on the whole suite, or when named.
    NotCaught,
}

/// A stored answer that every strategy contradicts, in agreement with the oracle.
#[derive(Clone, Debug)]
pub struct Suspect {
    pub case: usize,
    pub stored: Answer,
    pub oracle: Answer,
}

pub struct Report {
    pub submissions: Vec<Submission>,
    pub cases: Vec<Case>,
    pub bad_cases: Vec<BadCase>,
    pub bad_submissions: Vec<SubmissionError>,
    pub runs: Vec<Run>,
    pub met: Vec<Met>,
    pub suspects: Vec<Suspect>,
    pub changes: Vec<Change>,
    pub limits: Limits,
    pub compiler: String,
    pub wall: Duration,
}

/// Everything a session knows before it compiles, for a header.
pub struct Started<'a> {
    pub submissions: &'a [Submission],
    pub cases: &'a [Case],
    pub limits: Limits,
    pub compiler: &'a str,
}

/// Where the cases come from.
pub enum Source<'a> {
    /// The stored suites, filtered by the request's patterns.
    Stored,
    /// One input given by hand (`judge run`); its expected answer is the oracle's, and the
    /// solutions judged by default are the strategies.
    Input(&'a [i32]),
}

pub fn judge(
    workspace: &Workspace,
    request: &Request,
    source: Source,
    started: &mut dyn FnMut(&Started),
    on: &mut dyn FnMut(Event),
) -> Result<Report, SetupError> {
    let start = Instant::now();
    // Whether the machine can give the stack asked for takes a thread with that stack: it is
    // found out while the cases load.
    let limits = request.limits;
    let honourable = std::thread::spawn(move || limits.check());
    let catalog = Catalog::scan(workspace).map_err(SetupError::Catalog)?;
    let names = match (&source, request.solutions.is_empty()) {
        (Source::Input(_), true) => catalog.strategies(),
        _ => request.solutions.clone(),
    };
    let (submissions, mut bad_submissions) = catalog.select(workspace, &names);
    // A name that stands for nothing is a typo: stop at once. A file that cannot be read or
    // has a bad tag is reported beside the verdicts of the others.
    let typo =
        |e: &SubmissionError| matches!(e, SubmissionError::Unknown { .. } | SubmissionError::NoSuchMutant { .. });
    if let Some(at) = bad_submissions.iter().position(typo) {
        return Err(SetupError::Catalog(bad_submissions.swap_remove(at)));
    }
    let compiler = Compiler::new(&workspace.cache).map_err(SetupError::Compiler)?;
    let room = Room::new().map_err(SetupError::Scratch)?;
    let guarded = [workspace.solutions.as_path(), workspace.cases.as_path()];
    let before = Snapshot::take(&guarded);
    // The strategies' processes start while the cases load.
    let warm = engine::warm_up(&submissions, &compiler, request.limits, &room);
    let loaded = match source {
        Source::Stored => cases::load(&workspace.cases, &request.cases, workspace.parsed_inputs().as_ref())
            .map_err(SetupError::Cases)?,
        Source::Input(values) => {
            let case = Case {
                id: "input".to_string(),
                input: "<input>".into(),
                values: values.to_vec(),
                expected: oracle::answer(values),
            };
            cases::Loaded { cases: vec![case], bad: Vec::new() }
        }
    };
    if loaded.cases.is_empty() && loaded.bad.is_empty() {
        return Err(SetupError::NoCases { patterns: request.cases.clone() });
    }
    if let Ok(checked) = honourable.join() {
        checked.map_err(SetupError::Limits)?;
    }
    started(&Started {
        submissions: &submissions,
        cases: &loaded.cases,
        limits: request.limits,
        compiler: compiler.version(),
    });
    let plan = Plan {
        submissions: &submissions,
        cases: &loaded.cases,
        limits: request.limits,
        jobs: request.jobs,
        fail_fast: request.fail_fast,
    };
    let runs = engine::run(&plan, &compiler, &room, warm, on);
    let changes = before.changes();
    let filtered = !request.cases.is_empty();
    let met =
        submissions.iter().zip(&runs).map(|(s, run)| met(s, run, filtered && !named(&catalog, request, s))).collect();
    let suspects = suspects(&submissions, &loaded.cases, &runs);
    Ok(Report {
        submissions,
        cases: loaded.cases,
        bad_cases: loaded.bad,
        bad_submissions,
        runs,
        met,
        suspects,
        changes,
        limits: request.limits,
        compiler: compiler.version().to_string(),
        wall: start.elapsed(),
    })
}

fn named(catalog: &Catalog, request: &Request, submission: &Submission) -> bool {
    request.solutions.iter().any(|n| catalog.normalise(n) == submission.name)
}

/// The first verdict that is not AC, CE when it did not compile, or AC.
pub fn first_failure(run: &Run) -> Option<Verdict> {
    match &run.compiled {
        Some(Err(_)) => return Some(Verdict::Ce),
        None => return None,
        Some(Ok(())) => {}
    }
    let verdicts = run.results.iter().flatten().filter_map(|r| r.verdict);
    Some(verdicts.clone().find(|v| *v != Verdict::Ac).unwrap_or(Verdict::Ac))
}

/// `lenient`: a wrong submission that passes may be a filter's doing, not the suite's.
fn met(submission: &Submission, run: &Run, lenient: bool) -> Met {
    if run.fault.is_some() {
        return Met::No;
    }
    let first = first_failure(run);
    let yes = match submission.expect {
        Expect::Accepted => first == Some(Verdict::Ac),
        Expect::Verdict(wanted) => first == Some(wanted),
        Expect::Rejected => first.is_some_and(|v| v != Verdict::Ac),
    };
    match (yes, first) {
        (true, _) => Met::Yes,
        (false, Some(Verdict::Ac)) if lenient && submission.expect != Expect::Accepted => Met::NotCaught,
        _ => Met::No,
    }
}

/// Cases where every strategy that ran returned the same answer, the stored one differs, and
/// the oracle agrees with the strategies.
fn suspects(submissions: &[Submission], cases: &[Case], runs: &[Run]) -> Vec<Suspect> {
    let strategies: Vec<&Run> = submissions.iter().zip(runs).filter(|(s, _)| s.is_strategy()).map(|(_, r)| r).collect();
    let mut found = Vec::new();
    for (c, case) in cases.iter().enumerate() {
        let answers: Vec<Option<&[u8]>> = strategies
            .iter()
            .map(|run| {
                let result = run.results[c].as_ref()?;
                let answered = result.call.result.as_ref().ok()?;
                (result.verdict == Some(Verdict::Wa)).then_some(answered.answer.as_slice())
            })
            .collect();
        let Some(Some(first)) = answers.first() else { continue };
        if !answers.iter().all(|a| *a == Some(*first)) {
            continue;
        }
        let oracle = oracle::answer(&case.values);
        if oracle.is(first) {
            found.push(Suspect { case: c, stored: case.expected, oracle });
        }
    }
    found
}

impl Report {
    /// A judge error: a bad case, a bad submission file, changed stored data, or a fault.
    pub fn has_judge_errors(&self) -> bool {
        !self.bad_cases.is_empty()
            || !self.bad_submissions.is_empty()
            || !self.changes.is_empty()
            || self.runs.iter().any(|r| r.fault.is_some())
    }

    pub fn all_met(&self) -> bool {
        self.met.iter().all(|m| *m != Met::No)
    }
}
