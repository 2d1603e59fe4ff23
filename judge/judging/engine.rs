//! The verdict engine: every submission over every case, each in its own child. Strategies
//! run first, one call at a time and case by case on the calling thread, so their timings are
//! undisturbed and each row of the matrix completes in turn; a strategy stops after
//! `TLE_BUDGET` time limits (each one costs a whole limit of waiting) unless every failure is
//! asked for. Wrong submissions and mutants, whose timings are not shown, run next on `jobs`
//! threads side by side, each stopping at its first failure as on LeetCode: most of them wait
//! on a limit, so several waits overlap. Everything that happens is an event, delivered in
//! order on the calling thread.

use std::sync::mpsc::Sender;

use super::cases::Case;
use super::submissions::Submission;
use super::verdict::Verdict;
use super::workbench::{Built, Workbench};
use crate::exec::child::Runner;
use crate::exec::compile::Program;
use crate::exec::diagnose::CompileError;
use crate::exec::limits::Limits;
use crate::exec::outcome::Call;
use crate::exec::trouble::{Doing, Trouble};
use crate::parallel;

/// A strategy stops being judged after this many TLE verdicts, unless `--all-failures`.
pub const TLE_BUDGET: usize = 3;

/// One submission on one case.
#[derive(Clone, Debug)]
pub struct CaseResult {
    /// None when the call failed through no fault of the submission (see `Fault`).
    pub verdict: Option<Verdict>,
    pub call: Call,
}

/// Why a submission could not be judged, when that is not its own fault.
#[derive(Clone, Debug)]
pub enum Fault {
    /// rustc itself could not be run.
    Build(Trouble),
    /// Its process could not be started.
    Spawn(Trouble),
    /// A call failed through no fault of the submission: a stack the machine cannot give, a
    /// broken request.
    Call(Box<CaseResult>),
}

/// Why a submission was not judged on every case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// It stopped at its first failure (wrong submissions, mutants, `--fail-fast`).
    FirstFailure,
    /// It stopped after this many TLE verdicts.
    TimeLimits(usize),
}

/// Everything one submission got.
#[derive(Clone, Debug, Default)]
pub struct Scorecard {
    /// None until compiled; then the compile error, if any.
    pub compiled: Option<Result<(), CompileError>>,
    /// `results[case]`, None where the case was not run.
    pub results: Vec<Option<CaseResult>>,
    pub fault: Option<Fault>,
    /// Set when it stopped before the last case.
    pub cut: Option<Cut>,
}

impl Scorecard {
    pub fn new(cases: usize) -> Scorecard {
        Scorecard { results: vec![None; cases], ..Scorecard::default() }
    }
}

/// What the engine did: every submission's scorecard, and the programs it built (None where
/// one did not build), for whatever runs them next.
pub struct Judged {
    pub cards: Vec<Scorecard>,
    pub programs: Vec<Option<Program>>,
}

/// Everything that happens, as it happens: made in a lane, delivered on the calling thread to
/// the caller first, then kept in the submission's scorecard.
#[derive(Clone, Debug)]
pub enum Event {
    Compiled {
        submission: usize,
        error: Option<CompileError>,
    },
    /// A call is about to start: for a progress line when it runs long.
    Running {
        submission: usize,
        case: usize,
    },
    Judged {
        submission: usize,
        case: usize,
        result: CaseResult,
    },
    /// The submission will judge no more cases; `cut` when it stopped before the last.
    Stopped {
        submission: usize,
        cut: Option<Cut>,
    },
    /// The submission could not be judged.
    Faulted {
        submission: usize,
        fault: Fault,
    },
}

pub struct Plan<'a> {
    pub submissions: &'a [Submission],
    pub cases: &'a [Case],
    pub limits: Limits,
    /// Threads for the submissions whose timings are not shown.
    pub jobs: usize,
    /// Stop a strategy at its first failure too.
    pub fail_fast: bool,
    /// Judge a strategy on every case, however many TLE it gets.
    pub all_failures: bool,
    /// Judge every submission on every case, wrong ones too, as LeetCode's Run does.
    pub every_case: bool,
}

/// Builds and judges everything, calling `on` for each event on this thread.
pub fn run(workbench: &Workbench, plan: &Plan, on: &mut dyn FnMut(&Event)) -> Judged {
    let mut cards: Vec<Scorecard> = plan.submissions.iter().map(|_| Scorecard::new(plan.cases.len())).collect();
    let built = workbench.build_all(&mut |submission, built| {
        let event = match built {
            Ok(Ok(_)) => Event::Compiled { submission, error: None },
            Ok(Err(error)) => Event::Compiled { submission, error: Some(error.clone()) },
            Err(error) => Event::Faulted { submission, fault: Fault::Build(error.clone()) },
        };
        deliver(event, &mut cards, on);
    });
    let programs: Vec<Option<Program>> = built.into_iter().map(|built: Built| built.ok()?.ok()).collect();
    judge(workbench, plan, &programs, &mut cards, on);
    Judged { cards, programs }
}

/// Judges submissions already built (`programs[i]` is None where one was not).
pub fn judge(
    workbench: &Workbench,
    plan: &Plan,
    programs: &[Option<Program>],
    cards: &mut [Scorecard],
    on: &mut dyn FnMut(&Event),
) {
    let count = plan.submissions.len();
    let (strategies, others): (Vec<usize>, Vec<usize>) = (0..count).partition(|&i| plan.submissions[i].is_strategy());
    let mut deliver = |event| deliver(event, cards, on);
    strategies_lane(workbench, plan, &strategies, programs, &mut deliver);
    parallel::each(
        others.len(),
        plan.jobs,
        |claims, send| {
            for k in claims {
                let i = others[k];
                if let Some(program) = &programs[i] {
                    submission_lane(workbench, plan, i, program, &send);
                }
            }
        },
        |receive| receive.into_iter().for_each(&mut deliver),
    );
}

/// Hands an event to the caller, then keeps what it says in the scorecards.
fn deliver(event: Event, cards: &mut [Scorecard], on: &mut dyn FnMut(&Event)) {
    on(&event);
    match event {
        Event::Compiled { submission, error } => cards[submission].compiled = Some(error.map_or(Ok(()), Err)),
        Event::Running { .. } => {}
        Event::Judged { submission, case, result } => cards[submission].results[case] = Some(result),
        Event::Stopped { submission, cut } => cards[submission].cut = cut,
        Event::Faulted { submission, fault } => cards[submission].fault = Some(fault),
    }
}

/// One call of submission `i` on case `c`: its verdict, or None when it could not be judged.
fn judge_one(plan: &Plan, i: usize, c: usize, runner: &mut Runner, emit: &mut dyn FnMut(Event)) -> Option<Verdict> {
    emit(Event::Running { submission: i, case: c });
    let case = &plan.cases[c];
    let call = match runner.call(&case.values) {
        Ok(call) => call,
        Err(e) => {
            emit(Event::Faulted {
                submission: i,
                fault: Fault::Spawn(Trouble::new(Doing::Starting(plan.submissions[i].name.clone()), e)),
            });
            return None;
        }
    };
    let verdict = Verdict::of(&call, case.expected, &plan.limits);
    let result = CaseResult { verdict, call };
    if verdict.is_none() {
        emit(Event::Faulted { submission: i, fault: Fault::Call(Box::new(result)) });
        return None;
    }
    emit(Event::Judged { submission: i, case: c, result });
    verdict
}

/// The strategies, case by case, one call at a time, on the calling thread.
fn strategies_lane(
    workbench: &Workbench,
    plan: &Plan,
    strategies: &[usize],
    programs: &[Option<Program>],
    emit: &mut dyn FnMut(Event),
) {
    let mut runners: Vec<Option<Runner>> =
        strategies.iter().map(|&i| programs[i].as_ref().map(|p| workbench.runner_with(p, plan.limits))).collect();
    let mut time_limits = vec![0; strategies.len()];
    for c in 0..plan.cases.len() {
        for (k, &i) in strategies.iter().enumerate() {
            let Some(runner) = runners[k].as_mut() else { continue };
            let cut = match judge_one(plan, i, c, runner, emit) {
                None => Some(None),
                Some(Verdict::Ac) => None,
                Some(Verdict::Tle) => {
                    time_limits[k] += 1;
                    let spent = time_limits[k] == TLE_BUDGET && !plan.all_failures;
                    spent.then_some(Some(Cut::TimeLimits(TLE_BUDGET)))
                }
                Some(_) => plan.fail_fast.then_some(Some(Cut::FirstFailure)),
            };
            if let Some(cut) = cut {
                let judged_all = c + 1 == plan.cases.len();
                emit(Event::Stopped { submission: i, cut: cut.filter(|_| !judged_all) });
                runners[k] = None;
            }
        }
    }
}

/// One wrong submission or mutant over the cases, until its first failure (unless every case
/// is asked for).
fn submission_lane(workbench: &Workbench, plan: &Plan, i: usize, program: &Program, send: &Sender<Event>) {
    let mut runner = workbench.runner_with(program, plan.limits);
    let mut emit = |event| drop(send.send(event));
    for c in 0..plan.cases.len() {
        match judge_one(plan, i, c, &mut runner, &mut emit) {
            Some(Verdict::Ac) => {}
            Some(_) if plan.every_case => {}
            Some(_) if c + 1 < plan.cases.len() => {
                return emit(Event::Stopped { submission: i, cut: Some(Cut::FirstFailure) })
            }
            _ => return emit(Event::Stopped { submission: i, cut: None }),
        }
    }
    emit(Event::Stopped { submission: i, cut: None });
}
