//! The verdict engine: every submission over every case, each in its own child. Strategies
//! run one at a time, case by case, so their timings are undisturbed and each row of the
//! matrix completes in turn; wrong submissions and mutants, whose timings are not shown, run
//! beside them on `jobs` threads, each stopping at its first failure as on LeetCode.
//! Everything that happens is reported as an event, in order, on the caller's thread.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;

use super::cases::Case;
use super::submissions::Submission;
use super::verdict::Verdict;
use crate::exec::child::{Child, Room};
use crate::exec::compile::{Binary, CompileError, Compiler};
use crate::exec::limits::Limits;
use crate::exec::outcome::Call;

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
    Build(String),
    /// Its process could not be started.
    Spawn(String),
    /// A call failed through no fault of the submission: a stack the machine cannot give, a
    /// broken request.
    Call(Box<CaseResult>),
}

/// Everything one submission got.
#[derive(Clone, Debug, Default)]
pub struct Run {
    /// None until compiled; then the compile error, if any.
    pub compiled: Option<Result<(), CompileError>>,
    /// `results[case]`, None where the case was not run.
    pub results: Vec<Option<CaseResult>>,
    pub fault: Option<Fault>,
}

pub enum Event<'a> {
    Compiled {
        submission: usize,
        error: Option<&'a CompileError>,
    },
    /// A call is about to start: for a progress line when it runs long.
    Running {
        submission: usize,
        case: usize,
    },
    Judged {
        submission: usize,
        case: usize,
        result: &'a CaseResult,
    },
    /// The submission could not be judged (see `Run::fault`).
    Faulted {
        submission: usize,
    },
}

enum Message {
    Compiled(usize, Result<Result<Binary, CompileError>, String>),
    Running(usize, usize),
    Judged(usize, usize, CaseResult),
    Faulted(usize, Fault),
}

pub struct Plan<'a> {
    pub submissions: &'a [Submission],
    pub cases: &'a [Case],
    pub limits: Limits,
    pub jobs: usize,
    /// Stop a strategy at its first failure too.
    pub fail_fast: bool,
}

/// A built submission: a binary and which of its units to serve.
#[derive(Clone, Debug)]
pub struct Program {
    pub binary: Binary,
    pub unit: usize,
}

/// Processes for the strategies whose builds are cached, started before the cases are
/// loaded so that each is ready by its first case; `None` for every other submission.
pub fn warm_up(submissions: &[Submission], compiler: &Compiler, limits: Limits, room: &Room) -> Vec<Option<Child>> {
    let start = |submission: &Submission| {
        let binary = compiler.cached(&submission.unit()).ok().flatten()?;
        Child::spawn(&binary, 0, limits, room).ok()
    };
    submissions.iter().map(|s| s.is_strategy().then(|| start(s)).flatten()).collect()
}

/// Compiles and judges everything, calling `on` for each event on this thread. `warm` holds
/// processes already started (see `warm_up`).
pub fn run(
    plan: &Plan,
    compiler: &Compiler,
    room: &Room,
    warm: Vec<Option<Child>>,
    on: &mut dyn FnMut(Event),
) -> Vec<Run> {
    let count = plan.submissions.len();
    let mut runs: Vec<Run> = vec![Run { results: vec![None; plan.cases.len()], ..Run::default() }; count];
    let (send, receive) = mpsc::channel();
    let programs = compile_all(plan, compiler, &send, &receive, &mut runs, on);
    drop((send, receive));
    judge_programs(plan, &programs, warm, &mut runs, room, on);
    runs
}

/// Judges submissions already built (`programs[i]` is None where one did not compile).
pub fn judge_programs(
    plan: &Plan,
    programs: &[Option<Program>],
    mut warm: Vec<Option<Child>>,
    runs: &mut [Run],
    room: &Room,
    on: &mut dyn FnMut(Event),
) {
    let count = plan.submissions.len();
    let (send, receive) = mpsc::channel();
    let strategies: Vec<usize> = (0..count).filter(|&i| plan.submissions[i].is_strategy()).collect();
    let others: Vec<usize> = (0..count).filter(|&i| !plan.submissions[i].is_strategy()).collect();
    let next = AtomicUsize::new(0);
    thread::scope(|scope| {
        for _ in 0..plan.jobs.max(1).min(others.len()) {
            let (lane, others, next) = (send.clone(), &others, &next);
            scope.spawn(move || {
                let mut emit = |message| drop(lane.send(message));
                while let Some(&i) = others.get(next.fetch_add(1, Ordering::Relaxed)) {
                    submission_lane(plan, i, programs[i].as_ref(), room, &mut emit);
                }
            });
        }
        drop(send);
        // The strategies run on this thread, so their events reach `on` without a hand-off
        // between threads; the other lanes' events are passed on between calls.
        let children = strategies.iter().map(|&i| warm.get_mut(i).and_then(Option::take)).collect();
        strategies_lane(plan, &strategies, programs, children, room, &mut |message| {
            deliver(message, runs, on);
            while let Ok(message) = receive.try_recv() {
                deliver(message, runs, on);
            }
        });
        for message in receive {
            deliver(message, runs, on);
        }
    });
}

fn deliver(message: Message, runs: &mut [Run], on: &mut dyn FnMut(Event)) {
    match message {
        Message::Compiled(..) => unreachable!("compiling is over"),
        Message::Running(submission, case) => on(Event::Running { submission, case }),
        Message::Judged(submission, case, result) => {
            on(Event::Judged { submission, case, result: &result });
            runs[submission].results[case] = Some(result);
        }
        Message::Faulted(submission, fault) => {
            on(Event::Faulted { submission });
            runs[submission].fault = Some(fault);
        }
    }
}

/// Compiles every submission on as many threads as there are cores.
fn compile_all(
    plan: &Plan,
    compiler: &Compiler,
    send: &mpsc::Sender<Message>,
    receive: &mpsc::Receiver<Message>,
    runs: &mut [Run],
    on: &mut dyn FnMut(Event),
) -> Vec<Option<Program>> {
    let count = plan.submissions.len();
    let mut binaries: Vec<Option<Program>> = vec![None; count];
    let threads = thread::available_parallelism().map_or(1, |n| n.get()).min(count);
    let next = AtomicUsize::new(0);
    thread::scope(|scope| {
        for _ in 0..threads {
            let (send, next) = (send.clone(), &next);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(submission) = plan.submissions.get(i) else { break };
                let built = compiler.build(&submission.unit()).map_err(|e| e.to_string());
                let _ = send.send(Message::Compiled(i, built));
            });
        }
        for _ in 0..count {
            let Ok(Message::Compiled(i, built)) = receive.recv() else { break };
            match built {
                Ok(Ok(binary)) => {
                    runs[i].compiled = Some(Ok(()));
                    on(Event::Compiled { submission: i, error: None });
                    binaries[i] = Some(Program { binary, unit: 0 });
                }
                Ok(Err(error)) => {
                    on(Event::Compiled { submission: i, error: Some(&error) });
                    runs[i].compiled = Some(Err(error));
                }
                Err(error) => {
                    let fault = Fault::Build(error);
                    on(Event::Faulted { submission: i });
                    runs[i].fault = Some(fault);
                }
            }
        }
    });
    binaries
}

/// One call of submission `i` on case `c`, in `child` (started if there is none).
fn judge_one(
    plan: &Plan,
    i: usize,
    c: usize,
    program: &Program,
    child: &mut Option<Child>,
    room: &Room,
    emit: &mut dyn FnMut(Message),
) -> Option<Verdict> {
    let live = match child {
        Some(live) if !live.is_gone() => live,
        _ => match Child::spawn(&program.binary, program.unit, plan.limits, room) {
            Ok(fresh) => child.insert(fresh),
            Err(e) => {
                emit(Message::Faulted(i, Fault::Spawn(e.to_string())));
                return None;
            }
        },
    };
    emit(Message::Running(i, c));
    let case = &plan.cases[c];
    // The next case goes to the child while this one runs.
    let call = live.call(&case.values, plan.cases.get(c + 1).map(|next| next.values.as_slice()));
    let verdict = Verdict::of(&call, case.expected, &plan.limits);
    let result = CaseResult { verdict, call };
    if verdict.is_none() {
        emit(Message::Faulted(i, Fault::Call(Box::new(result))));
        return None;
    }
    emit(Message::Judged(i, c, result));
    verdict
}

/// The strategies, case by case, one call at a time, on the calling thread.
fn strategies_lane(
    plan: &Plan,
    strategies: &[usize],
    binaries: &[Option<Program>],
    mut children: Vec<Option<Child>>,
    room: &Room,
    emit: &mut dyn FnMut(Message),
) {
    let mut stopped: Vec<bool> = strategies.iter().map(|&i| binaries[i].is_none()).collect();
    for c in 0..plan.cases.len() {
        for (k, &i) in strategies.iter().enumerate() {
            let Some(binary) = binaries[i].as_ref().filter(|_| !stopped[k]) else { continue };
            match judge_one(plan, i, c, binary, &mut children[k], room, emit) {
                None => stopped[k] = true,
                Some(Verdict::Ac) => {}
                Some(_) => stopped[k] = plan.fail_fast,
            }
        }
    }
}

/// One wrong submission or mutant over the cases, until its first failure.
fn submission_lane(plan: &Plan, i: usize, binary: Option<&Program>, room: &Room, emit: &mut dyn FnMut(Message)) {
    let Some(binary) = binary else { return };
    let mut child = None;
    for c in 0..plan.cases.len() {
        if judge_one(plan, i, c, binary, &mut child, room, emit) != Some(Verdict::Ac) {
            break;
        }
    }
}
