//! The verdict engine: every submission over every case, each in its own child. Strategies
//! run first, one call at a time and case by case on the calling thread, so their timings are
//! undisturbed and each row of the matrix completes in turn; a strategy stops after
//! `TLE_BUDGET` time limits (each one costs a whole limit of waiting) unless every failure is
//! asked for. Wrong submissions and mutants, whose timings are not shown, run next on `jobs`
//! threads side by side, each stopping at its first failure as on LeetCode (a mutant after
//! `Plan::stop_after` failing testcases, its margin): most of them wait on a limit, so several
//! waits overlap. Everything that happens is an event, delivered in
//! order on the calling thread.
//!
//! A group (a case of several testcases, see `cases`) is judged whole, in a child of its own
//! that has answered nothing before it, in batches of `GROUP_BATCH` testcases, each held to
//! the time limit as one call is. Where a batch ends
//! badly (a panic, a spin, too much memory or output, or all of it past the limit together),
//! the child's ledger says how far it got: the answers before are judged, the testcase that
//! was running gets the batch's verdict, and the next batch starts after it in a fresh child.
//! The first failing testcase is then called alone, in a fresh child, so that its failure is
//! shown with its own call, as any case's is; where alone it passes, the batch's call is shown
//! and the report says it failed only after the calls before it.

use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

use super::cases::Case;
use super::submissions::{Expect, Submission};
use super::verdict::Verdict;
use super::workbench::{Built, Workbench};
use crate::exec::child::{Batch, Runner, Unfinished};
use crate::exec::compile::Program;
use crate::exec::diagnose::CompileError;
use crate::exec::limits::Limits;
use crate::exec::outcome::{Answered, Call, Printed};
use crate::exec::trouble::{Doing, Trouble};
use crate::parallel;

/// A strategy stops being judged after this many TLE verdicts, unless `--all-failures`.
pub const TLE_BUDGET: usize = 3;

/// Testcases of a group sent in one batch, at most: each batch is held to the time limit as
/// one call is, so a solution may spend a thousandth of the limit on each testcase of a group.
pub const GROUP_BATCH: usize = 1000;
// Every answer of a batch fits in the child's ledger, so a batch that ends badly says all of
// them.
const _: () = assert!(
    crate::exec::wire::LEDGER_HEAD + GROUP_BATCH * (4 + crate::exec::wire::BATCH_ANSWER_KEPT)
        <= crate::exec::wire::LEDGER_BYTES
);

/// Batches of a group that end badly after which the rest of it is not judged (it has failed
/// by then): each costs a fresh child, a spin a whole time limit.
pub const GROUP_ENDINGS: usize = 3;

/// One submission on one case.
#[derive(Clone, Debug)]
pub struct CaseResult {
    /// None when the call failed through no fault of the submission (see `Fault`); in a
    /// group, the verdict of its first failing testcase, or AC when every testcase passed.
    pub verdict: Option<Verdict>,
    /// The call on the case's testcase `test`; for a group whose testcases all passed, its
    /// batches as one call: their time, and no answer of their own.
    pub call: Call,
    /// Which of the case's testcases `call` was: in a group, the first that failed.
    pub test: usize,
    /// How a group's testcases went; None for a case of one testcase.
    pub tally: Option<Tally>,
    /// A failure its testcase did not repeat when called alone: `call` is then the failing call
    /// after the others.
    pub alone: Option<Box<Alone>>,
}

/// A failure its testcase did not repeat when called alone, in a fresh child: it failed only
/// after the calls its child had answered before it.
#[derive(Clone, Debug)]
pub struct Alone {
    /// The call alone, which passed.
    pub call: Call,
    /// In a group, the first testcase of the batch it failed in.
    pub batch_from: Option<usize>,
    /// The calls its child had answered before it, a batch's earlier testcases included.
    pub before: u64,
}

/// How the testcases of a group went.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// The group's testcases.
    pub testcases: usize,
    /// Testcases judged: all, unless it stopped at its failures.
    pub judged: usize,
    pub passed: usize,
    /// Each failing testcase (its index in the case) with its verdict, in the case's order.
    pub failed: Vec<(usize, Verdict)>,
    /// Why it stopped before the last testcase, other than the failures it was asked for.
    pub cut: Option<GroupCut>,
}

/// Why a group stopped before its last testcase, other than the failures it was asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupCut {
    /// `GROUP_ENDINGS` batches ended badly.
    Endings,
}

impl CaseResult {
    /// AC on every testcase of the case, each called and answered right.
    pub fn is_whole_pass(&self) -> bool {
        self.verdict == Some(Verdict::Ac)
            && self.tally.as_ref().is_none_or(|t| t.failed.is_empty() && t.passed == t.testcases)
    }

    /// Testcases judged.
    pub fn judged(&self) -> usize {
        self.tally.as_ref().map_or(1, |t| t.judged)
    }

    /// Testcases that got AC.
    pub fn passed(&self) -> usize {
        match &self.tally {
            Some(tally) => tally.passed,
            None => usize::from(self.verdict == Some(Verdict::Ac)),
        }
    }

    /// How many testcases got each verdict, AC included.
    pub fn verdicts(&self) -> Vec<(Verdict, usize)> {
        let Some(tally) = &self.tally else { return self.verdict.map(|v| (v, 1)).into_iter().collect() };
        let mut counts = vec![(Verdict::Ac, tally.passed)];
        for &(_, verdict) in &tally.failed {
            match counts.iter_mut().find(|(v, _)| *v == verdict) {
                Some((_, n)) => *n += 1,
                None => counts.push((verdict, 1)),
            }
        }
        counts.retain(|(_, n)| *n > 0);
        counts
    }
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
    /// It stopped at its first failure (wrong submissions, `--fail-fast`), or a mutant after
    /// the failures its margin counts (`Plan::stop_after`).
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

#[derive(Clone, Copy)]
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
    /// The failing testcases after which a wrong submission or mutant stops: 1, its first
    /// failure, as on LeetCode; more to count how many testcases tell a mutant apart.
    pub stop_after: usize,
    /// Call a strategy's failure again alone, in a fresh child, to show it with its own call and
    /// tell whether it needs the calls before it: for a report that shows failures, not for a
    /// count of them (mutants). Wrong submissions, which stop at the failure their tag names,
    /// are never called again.
    pub alone: bool,
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
    let (strategies, mut others): (Vec<usize>, Vec<usize>) =
        (0..count).partition(|&i| plan.submissions[i].is_strategy());
    // Those tagged to spend a whole limit are claimed first, so that their waits overlap the
    // others' calls rather than start after them.
    others.sort_by_key(|&i| !matches!(plan.submissions[i].expect, Expect::Verdict(Verdict::Tle | Verdict::Mle)));
    let mut deliver = |event| deliver(event, cards, on);
    let whole = Whole::of(plan.cases);
    strategies_lane(workbench, plan, &whole, &strategies, programs, &mut deliver);
    parallel::each(
        others.len(),
        plan.jobs,
        |claims, send| {
            for k in claims {
                let i = others[k];
                if let Some(program) = &programs[i] {
                    submission_lane(workbench, plan, &whole, i, program, &send);
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

/// Each group's testcases in batches of `GROUP_BATCH`, encoded once for every submission
/// (empty for a case of one testcase).
struct Whole(Vec<Vec<Batch>>);

impl Whole {
    fn of(cases: &[Case]) -> Whole {
        let batches = |case: &Case| match case.is_group() {
            true => (0..case.tests.len()).step_by(GROUP_BATCH).map(|from| batch(case, from)).collect(),
            false => Vec::new(),
        };
        Whole(cases.iter().map(batches).collect())
    }
}

/// The batch of `case`'s testcases from `from` up to the next multiple of `GROUP_BATCH`,
/// numbered so that no two of a case are alike and none is 0 (a child's first request).
fn batch(case: &Case, from: usize) -> Batch {
    let to = (from / GROUP_BATCH + 1) * GROUP_BATCH;
    let tests = &case.tests[from..to.min(case.tests.len())];
    Batch::new(from as u32 + 1, tests.iter().map(|t| t.values.as_slice()))
}

/// Submission `i` on case `c`, stopping a group after `enough` failing testcases: the verdict
/// and how many testcases failed, or None when it could not be judged.
fn judge_one(
    plan: &Plan,
    whole: &Whole,
    i: usize,
    c: usize,
    enough: usize,
    runner: &mut Runner,
    emit: &mut dyn FnMut(Event),
) -> Option<(Verdict, usize)> {
    emit(Event::Running { submission: i, case: c });
    let case = &plan.cases[c];
    let result = match case.is_group() {
        true => judge_group(plan, i, case, &whole.0[c], enough, runner),
        false => judge_single(plan, i, case, runner),
    };
    let result = match result {
        Ok(result) => result,
        Err(fault) => {
            emit(Event::Faulted { submission: i, fault });
            return None;
        }
    };
    let failing = result.judged() - result.passed();
    let verdict = result.verdict?;
    emit(Event::Judged { submission: i, case: c, result });
    Some((verdict, failing))
}

/// A case of one testcase: one call, and where it failed after other calls in its child, one
/// more alone, in a fresh child, to tell whether it fails by itself. A time limit is not
/// called again: that would cost a whole limit more.
fn judge_single(plan: &Plan, i: usize, case: &Case, runner: &mut Runner) -> Result<CaseResult, Fault> {
    let before = runner.served();
    let mut result = call_one(plan, i, case, 0, runner)?;
    let retried = plan.alone && !matches!(result.verdict, Some(Verdict::Ac | Verdict::Tle)) && before > 0;
    if retried {
        runner.fresh().map_err(|e| Fault::Spawn(Trouble::new(Doing::Starting(plan.submissions[i].name.clone()), e)))?;
        let again = call_one(plan, i, case, 0, runner)?;
        if again.verdict == Some(Verdict::Ac) {
            result.alone = Some(Box::new(Alone { call: again.call, batch_from: None, before }));
        }
    }
    Ok(result)
}

/// One call on testcase `t` of `case`: its result, or the fault when it could not be judged.
fn call_one(plan: &Plan, i: usize, case: &Case, t: usize, runner: &mut Runner) -> Result<CaseResult, Fault> {
    let test = &case.tests[t];
    let call = runner
        .call(&test.values)
        .map_err(|e| Fault::Spawn(Trouble::new(Doing::Starting(plan.submissions[i].name.clone()), e)))?;
    let verdict = Verdict::of(&call, test.expected, &plan.limits);
    let result = CaseResult { verdict, call, test: t, tally: None, alone: None };
    match verdict {
        Some(_) => Ok(result),
        None => Err(Fault::Call(Box::new(result))),
    }
}

/// A group: its testcases in batches, until `enough` of them failed (see the module's
/// comment); `batches` are its batches from the start.
fn judge_group(
    plan: &Plan,
    i: usize,
    case: &Case,
    batches: &[Batch],
    enough: usize,
    runner: &mut Runner,
) -> Result<CaseResult, Fault> {
    let count = case.tests.len();
    let spawn = |e| Fault::Spawn(Trouble::new(Doing::Starting(plan.submissions[i].name.clone()), e));
    let mut tally = Tally { testcases: count, ..Tally::default() };
    // The passing batches' time; the first failure's call in its batch, and where that began.
    let (mut time, mut wall) = (Duration::ZERO, Duration::ZERO);
    let mut first: Option<(Call, usize, u64)> = None;
    let (mut from, mut endings) = (0, 0);
    // A group is a program's run of its own, as on LeetCode: its testcases are called in turn
    // in a child that answered nothing before.
    if runner.served() > 0 {
        runner.fresh().map_err(spawn)?;
    }
    // Whether testcase `t` answered `answer` wrongly, counted in the tally.
    let wrong = |tally: &mut Tally, t: usize, answer: &[u8]| {
        if case.tests[t].expected.is(answer) {
            tally.passed += 1;
            return false;
        }
        tally.failed.push((t, Verdict::Wa));
        true
    };
    while from < count && tally.failed.len() < enough {
        if endings == GROUP_ENDINGS {
            tally.cut = Some(GroupCut::Endings);
            break;
        }
        let fresh;
        let batch = match from % GROUP_BATCH {
            0 => &batches[from / GROUP_BATCH],
            _ => {
                fresh = batch(case, from);
                &fresh
            }
        };
        let to = (from / GROUP_BATCH + 1) * GROUP_BATCH;
        let to = to.min(count);
        let start = Instant::now();
        let served = runner.child().map_err(spawn)?.served();
        let received = runner.batch(batch).map_err(spawn)?;
        match received {
            Ok(answers) => {
                time += answers.took();
                wall += start.elapsed();
                for (k, answer) in answers.iter().flatten().enumerate() {
                    if wrong(&mut tally, from + k, answer) && first.is_none() {
                        first = Some((answered_in_batch(answer), from, served + k as u64));
                    }
                }
                tally.judged += to - from;
                from = to;
            }
            Err(Unfinished { ending, progress }) => {
                if ending.is_judge_fault() {
                    let call = ended(ending, start.elapsed());
                    return Err(Fault::Call(Box::new(CaseResult {
                        verdict: None,
                        call,
                        test: from,
                        tally: None,
                        alone: None,
                    })));
                }
                endings += 1;
                // The answers given before it ended; the testcase that was running then gets
                // the batch's verdict (the last, where it ended after answering them all).
                let answers = progress.map(|p| p.answers).unwrap_or_default();
                let running = (from + answers.len()).min(to - 1);
                for (k, answer) in answers.iter().take(running - from).enumerate() {
                    if wrong(&mut tally, from + k, answer) && first.is_none() {
                        first = Some((answered_in_batch(answer), from, served + k as u64));
                    }
                }
                tally.failed.push((running, Verdict::of_ending(&ending)));
                let earlier = served + (running - from) as u64;
                first.get_or_insert_with(|| (ended(ending, start.elapsed()), from, earlier));
                tally.judged += running + 1 - from;
                from = running + 1;
            }
        }
    }
    let Some(&(t, verdict)) = tally.failed.first() else {
        debug_assert_eq!(tally.judged, count, "a group with no failure was judged whole");
        let answered = Answered { answer: Vec::new(), length: 0, nanos: time.as_nanos() as u64, peak_kib: None };
        let call = Call { result: Ok(answered), stdout: Printed::default(), stderr: Printed::default(), wall };
        return Ok(CaseResult { verdict: Some(Verdict::Ac), call, test: 0, tally: Some(tally), alone: None });
    };
    let (in_batch, batch_from, before) = first.expect("every failure keeps its call in the batch");
    if !plan.alone {
        return Ok(CaseResult { verdict: Some(verdict), call: in_batch, test: t, tally: Some(tally), alone: None });
    }
    // Called alone, in a fresh child, to show it with its own call.
    runner.fresh().map_err(spawn)?;
    let mut result = call_one(plan, i, case, t, runner)?;
    if result.verdict == Some(Verdict::Ac) {
        // The batch's answer, with the time and memory of its testcase's own call, which the
        // batch does not give one by one.
        let mut in_batch = in_batch;
        if let (Ok(shown), Ok(own)) = (&mut in_batch.result, &result.call.result) {
            (shown.nanos, shown.peak_kib) = (own.nanos, own.peak_kib);
        }
        let alone = Box::new(Alone { call: result.call, batch_from: Some(batch_from), before });
        result = CaseResult { verdict: Some(verdict), call: in_batch, test: t, tally: None, alone: Some(alone) };
    } else if let Some(shown) = result.verdict {
        tally.failed[0].1 = shown;
    }
    result.tally = Some(tally);
    Ok(result)
}

/// A call of a batch that answered `answer`, as a call shows it: the batch's time is not its.
fn answered_in_batch(answer: &[u8]) -> Call {
    let answered = Answered { answer: answer.to_vec(), length: answer.len() as u64, nanos: 0, peak_kib: None };
    Call { result: Ok(answered), stdout: Printed::default(), stderr: Printed::default(), wall: Duration::ZERO }
}

/// A batch's call that ended so, after `wall`.
fn ended(ending: crate::exec::outcome::Ending, wall: Duration) -> Call {
    Call { result: Err(ending), stdout: Printed::default(), stderr: Printed::default(), wall }
}

/// The strategies, case by case, one call at a time, on the calling thread.
fn strategies_lane(
    workbench: &Workbench,
    plan: &Plan,
    whole: &Whole,
    strategies: &[usize],
    programs: &[Option<Program>],
    emit: &mut dyn FnMut(Event),
) {
    if let ([i], true) = (strategies, plan.all_failures && !plan.fail_fast && plan.jobs > 1) {
        if let Some(program) = programs[*i].as_ref() {
            return side_by_side(workbench, plan, whole, *i, program, emit);
        }
    }
    let mut runners: Vec<Option<Runner>> =
        strategies.iter().map(|&i| programs[i].as_ref().map(|p| workbench.runner_with(p, plan.limits))).collect();
    let mut time_limits = vec![0; strategies.len()];
    let enough = if plan.fail_fast { 1 } else { usize::MAX };
    for c in 0..plan.cases.len() {
        for (k, &i) in strategies.iter().enumerate() {
            let Some(runner) = runners[k].as_mut() else { continue };
            let cut = match judge_one(plan, whole, i, c, enough, runner, emit).map(|(v, _)| v) {
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

/// Every failure of one strategy: its cases side by side, a child a lane, so that the time
/// limits of a slow one overlap (`--all-failures` after three TLE waited out some fifty in
/// turn, 87 to 101 s); each case's events are handed on in the cases' order.
fn side_by_side(
    workbench: &Workbench,
    plan: &Plan,
    whole: &Whole,
    i: usize,
    program: &Program,
    emit: &mut dyn FnMut(Event),
) {
    let count = plan.cases.len();
    let mut held: Vec<Option<Vec<Event>>> = (0..count).map(|_| None).collect();
    let mut next = 0;
    parallel::each(
        count,
        plan.jobs,
        |claims, send| {
            let mut runner = workbench.runner_with(program, plan.limits);
            for c in claims {
                let mut events = Vec::new();
                judge_one(plan, whole, i, c, usize::MAX, &mut runner, &mut |event| events.push(event));
                if send.send((c, events)).is_err() {
                    return;
                }
            }
        },
        |receive| {
            for (c, events) in receive {
                held[c] = Some(events);
                while let Some(events) = held.get_mut(next).and_then(Option::take) {
                    events.into_iter().for_each(&mut *emit);
                    next += 1;
                }
            }
        },
    );
    emit(Event::Stopped { submission: i, cut: None });
}

/// One wrong submission or mutant over the cases, until `stop_after` testcases failed (unless
/// every case is asked for).
fn submission_lane(
    workbench: &Workbench,
    plan: &Plan,
    whole: &Whole,
    i: usize,
    program: &Program,
    send: &Sender<Event>,
) {
    let mut runner = workbench.runner_with(program, plan.limits);
    let mut emit = |event| drop(send.send(event));
    let plan = &Plan { alone: false, ..*plan };
    let enough = if plan.every_case { usize::MAX } else { plan.stop_after.max(1) };
    let mut failing = 0;
    for c in 0..plan.cases.len() {
        match judge_one(plan, whole, i, c, enough - failing, &mut runner, &mut emit) {
            Some((Verdict::Ac, _)) => {}
            Some((_, failed)) if failing + failed < enough => failing += failed,
            Some(_) if c + 1 < plan.cases.len() => {
                return emit(Event::Stopped { submission: i, cut: Some(Cut::FirstFailure) })
            }
            _ => return emit(Event::Stopped { submission: i, cut: None }),
        }
    }
    emit(Event::Stopped { submission: i, cut: None });
}
