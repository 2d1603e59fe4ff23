//! `judge mutants`: how many small mistakes the stored suite catches, and by how much. Each
//! strategy is mutated by every operator of `judging::mutate` everywhere it fits; the mutants
//! are compiled in batches through the same compile path as any submission (those that do not
//! compile are counted and dropped) and judged on every stored case in order, each stopping
//! once `MARGIN_COUNTED` stored testcases have failed it, with a time limit of `TIME_FACTOR`
//! times the original's slowest case (at least `TIME_FLOOR`), so an exponential mutant is
//! killed by TLE. A killed mutant's margin is how many stored testcases kill it, counted up to
//! `MARGIN_COUNTED`: a mutant killed by one alone shows where the suite is thin before a real
//! mistake of the kind slips through. A mutant that passes every case
//! survives; a survivor that cannot change any answer under the constraints is listed with the
//! reason, and every other survivor fails the run. The strategies the workspace ships list
//! theirs in the judge's `equivalent_mutants.txt`; any other strategy (a user's attempt) in a
//! file beside it, `solutions/NAME.equivalent_mutants.txt`.

use std::time::{Duration, Instant};

use super::SearchError;
use crate::exec::compile::{Program, Unit};
use crate::exec::diagnose::CompileError;
use crate::exec::trouble::{Doing, Trouble};
use crate::judging::cases::Case;
use crate::judging::engine::{self, Event, Plan, Scorecard};
use crate::judging::guard::Changed;
use crate::judging::mutate::{self, Mutant, Operator};
use crate::judging::report::{first_failure, Figures};
use crate::judging::submissions::{Expect, Submission};
use crate::judging::verdict::Verdict;
use crate::judging::workbench::Workbench;
use crate::parallel;

/// The checked-in list of the shipped strategies' equivalent mutants: `strategy | key | reason`
/// a line, and a `hold:` line naming the strategies it covers.
pub const EQUIVALENTS: &str = include_str!("equivalent_mutants.txt");
pub const EQUIVALENTS_FILE: &str = "judge/search/equivalent_mutants.txt";
/// What the file beside any other strategy is called, after its name.
pub const BESIDE: &str = ".equivalent_mutants.txt";
pub const TIME_FACTOR: u32 = 10;
pub const TIME_FLOOR: Duration = Duration::from_millis(100);
/// Mutants compiled into one binary.
const BATCH: usize = 48;
/// The stored testcases a mutant is judged until that many have killed it: its margin is
/// counted up to here. Each kill by a crash or a spin costs a fresh child or a time limit, so
/// counting every kill of every mutant would take minutes; a margin of three tells a thin spot
/// (one or two) from a well covered one.
pub const MARGIN_COUNTED: usize = 3;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// Every operator when empty.
    pub operators: Vec<Operator>,
    pub jobs: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    NotCompiled,
    Killed {
        /// The verdict of its first failure.
        verdict: Verdict,
        /// The stored testcases that killed it, in the suite's order, at most
        /// `MARGIN_COUNTED`: their number is its margin.
        killers: Vec<String>,
    },
    Survived,
    /// Not judged on every stored testcase, through no fault of its own (a child that could not
    /// start, a refusal the machine made): neither killed nor survived.
    NotJudged,
    /// Survived, and listed as equivalent with this reason.
    Equivalent {
        reason: String,
    },
}

#[derive(Clone, Debug)]
pub struct Judged {
    pub strategy: String,
    /// Its number among the strategy's mutants: `strategy#index` names it.
    pub index: usize,
    pub mutant: Mutant,
    pub status: Status,
}

impl Judged {
    /// How many stored testcases kill it, counted up to `MARGIN_COUNTED`; None unless killed.
    pub fn margin(&self) -> Option<usize> {
        match &self.status {
            Status::Killed { killers, .. } => Some(killers.len()),
            _ => None,
        }
    }
}

/// A listed equivalent mutant that no longer survives or no longer exists.
#[derive(Clone, Debug)]
pub struct Stale {
    pub strategy: String,
    pub key: String,
}

pub struct Outcome {
    pub strategies: Vec<String>,
    /// Each strategy's file, relative to the workspace.
    pub files: Vec<String>,
    /// Where each strategy's equivalent mutants are listed, relative to the workspace.
    pub lists: Vec<String>,
    pub mutants: Vec<Judged>,
    pub stale: Vec<Stale>,
    /// The time limit each strategy's mutants ran under.
    pub time_limits: Vec<Duration>,
    pub changes: Changed,
    pub wall: Duration,
    /// A user's attempts, among the strategies by default, that fail the stored cases
    /// themselves: not mutated, since their mutants would prove nothing.
    pub skipped: Vec<String>,
}

/// One line of the equivalents file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Equivalent {
    pub strategy: String,
    pub key: String,
    pub reason: String,
}

/// The strategies a list's `hold:` line names: in the judge's list, those the workspace ships.
pub fn held(text: &str) -> Vec<String> {
    let line = text.lines().find_map(|l| l.strip_prefix("hold:")).unwrap_or("");
    line.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect()
}

/// `strategy | operator | line | a -> b | occurrence | reason`; `#` starts a comment, and a
/// `hold:` line names the strategies the tests hold to 100%.
pub fn equivalents(text: &str) -> Result<Vec<Equivalent>, usize> {
    let mut found = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with("hold:") {
            continue;
        }
        let (strategy, rest) = line.split_once(" | ").ok_or(number + 1)?;
        let (key, reason) = rest.rsplit_once(" | ").ok_or(number + 1)?;
        if key.split(" | ").count() != 4 || reason.trim().is_empty() {
            return Err(number + 1);
        }
        found.push(Equivalent { strategy: strategy.to_string(), key: key.to_string(), reason: reason.to_string() });
    }
    Ok(found)
}

/// Mutates every strategy of the workbench and judges the mutants on its cases.
pub fn mutants(
    workbench: &Workbench,
    request: &Request,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Outcome, SearchError> {
    let start = Instant::now();
    let shipped = held(EQUIVALENTS);
    let mut listed = read_list(EQUIVALENTS, EQUIVALENTS_FILE)?;
    listed.retain(|e| shipped.contains(&e.strategy));
    let mut outcome = Outcome {
        strategies: Vec::new(),
        files: Vec::new(),
        lists: Vec::new(),
        mutants: Vec::new(),
        stale: Vec::new(),
        time_limits: Vec::new(),
        changes: Changed::default(),
        wall: Duration::ZERO,
        skipped: Vec::new(),
    };
    let mut all: Vec<usize> = Vec::new();
    let mut submissions: Vec<Submission> = Vec::new();
    for original in workbench.submissions.iter().filter(|s| s.is_strategy()) {
        let slowest = match slowest_case(workbench, original) {
            Err(SearchError::OriginalFails { name }) if workbench.by_default && !shipped.contains(&name) => {
                outcome.skipped.push(name);
                continue;
            }
            found => found?,
        };
        outcome.time_limits.push((slowest * TIME_FACTOR).max(TIME_FLOOR));
        let strategy = outcome.strategies.len();
        outcome.strategies.push(original.name.clone());
        outcome.files.push(original.shown.clone());
        if shipped.contains(&original.name) {
            outcome.lists.push(EQUIVALENTS_FILE.to_string());
        } else {
            let beside = workbench.workspace.solutions.join(format!("{}{BESIDE}", original.name));
            let shown = workbench.workspace.shown(&beside);
            let text = match std::fs::read_to_string(&beside) {
                Ok(text) => text,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
                Err(e) => return Err(SearchError::Trouble(Trouble::new(Doing::Reading(beside.clone()), e))),
            };
            let own = read_list(&text, &shown)?;
            listed.extend(own.into_iter().filter(|e| e.strategy == original.name));
            outcome.lists.push(shown);
        }
        for (index, mutant) in mutate::generate(&original.source).into_iter().enumerate() {
            if request.operators.is_empty() || request.operators.contains(&mutant.operator) {
                let name = format!("{}#{index}", original.name);
                let source = mutant.source.clone();
                let shown = original.shown.clone();
                submissions.push(Submission { name, shown, source, expect: Expect::Rejected, stray_tag: None });
                outcome.mutants.push(Judged {
                    strategy: original.name.clone(),
                    index,
                    mutant,
                    status: Status::Survived,
                });
                all.push(strategy);
            }
        }
    }
    let programs = compile_batches(workbench, &submissions)?;
    let total = programs.iter().flatten().count();
    let mut finished = 0;
    for (strategy, time) in outcome.time_limits.clone().into_iter().enumerate() {
        let chosen: Vec<usize> = (0..all.len()).filter(|&m| all[m] == strategy).collect();
        let subs: Vec<Submission> = chosen.iter().map(|&m| submissions[m].clone()).collect();
        let progs: Vec<Option<Program>> = chosen.iter().map(|&m| programs[m].clone()).collect();
        let limits = workbench.limits().with_time(time);
        let plan = Plan {
            submissions: &subs,
            cases: &workbench.cases,
            limits,
            jobs: request.jobs,
            fail_fast: true,
            all_failures: false,
            every_case: false,
            stop_after: MARGIN_COUNTED,
            alone: false,
        };
        let mut cards: Vec<Scorecard> = subs.iter().map(|_| Scorecard::new(workbench.cases.len())).collect();
        for (card, program) in cards.iter_mut().zip(&progs) {
            let dropped = || CompileError::whole(String::new(), String::new());
            card.compiled = Some(program.as_ref().map(|_| ()).ok_or_else(dropped));
        }
        engine::judge(workbench, &plan, &progs, &mut cards, &mut |event| {
            if let Event::Stopped { .. } = event {
                finished += 1;
                progress(finished, total);
            }
        });
        for (k, (&m, card)) in chosen.iter().zip(&cards).enumerate() {
            outcome.mutants[m].status = status(progs[k].is_some(), card, &workbench.cases);
        }
    }
    for judged in &mut outcome.mutants {
        if judged.status == Status::Survived {
            let key = judged.mutant.key();
            if let Some(entry) = listed.iter().find(|e| e.strategy == judged.strategy && e.key == key) {
                judged.status = Status::Equivalent { reason: entry.reason.clone() };
            }
        }
    }
    for entry in listed.iter().filter(|e| outcome.strategies.contains(&e.strategy)) {
        let survives = outcome.mutants.iter().any(|j| {
            j.strategy == entry.strategy && j.mutant.key() == entry.key && matches!(j.status, Status::Equivalent { .. })
        });
        if !survives {
            outcome.stale.push(Stale { strategy: entry.strategy.clone(), key: entry.key.clone() });
        }
    }
    outcome.changes = Changed { changes: workbench.changes(), confined: workbench.unconfined.is_none() };
    outcome.wall = start.elapsed();
    Ok(outcome)
}

/// The equivalents a list holds, or which line of `shown` is not one.
fn read_list(text: &str, shown: &str) -> Result<Vec<Equivalent>, SearchError> {
    equivalents(text).map_err(|line| SearchError::Equivalents { file: shown.to_string(), line })
}

fn status(compiled: bool, card: &Scorecard, cases: &[Case]) -> Status {
    if !compiled {
        return Status::NotCompiled;
    }
    match first_failure(card) {
        None => Status::NotJudged,
        Some(Verdict::Ac) => Status::Survived,
        Some(verdict) => {
            let mut killers = Vec::new();
            for (case, result) in cases.iter().zip(&card.results) {
                let Some(result) = result.as_ref().filter(|r| r.verdict != Some(Verdict::Ac)) else { continue };
                match &result.tally {
                    Some(tally) => killers.extend(tally.failed.iter().map(|&(t, _)| case.test_id(t))),
                    None => killers.push(case.test_id(result.test)),
                }
            }
            killers.truncate(MARGIN_COUNTED);
            Status::Killed { verdict, killers }
        }
    }
}

/// The original's slowest case; it must pass every case, or its mutants prove nothing.
fn slowest_case(workbench: &Workbench, original: &Submission) -> Result<Duration, SearchError> {
    let program = match workbench.build(original) {
        Ok(Ok(program)) => program,
        Ok(Err(error)) => {
            return Err(SearchError::DoesNotCompile { name: original.name.clone(), error: Box::new(error) })
        }
        Err(trouble) => return Err(SearchError::Trouble(trouble)),
    };
    let plan = Plan {
        submissions: std::slice::from_ref(original),
        cases: &workbench.cases,
        limits: workbench.limits(),
        jobs: 1,
        fail_fast: true,
        all_failures: false,
        every_case: false,
        stop_after: 1,
        alone: false,
    };
    let mut cards = vec![Scorecard { compiled: Some(Ok(())), ..Scorecard::new(workbench.cases.len()) }];
    engine::judge(workbench, &plan, &[Some(program)], &mut cards, &mut |_| {});
    if first_failure(&cards[0]) != Some(Verdict::Ac) {
        return Err(SearchError::OriginalFails { name: original.name.clone() });
    }
    // Of the calls on one testcase: a group's batch is many.
    let slowest = Figures::of(&cards[0], &workbench.cases).slowest.map_or(Duration::ZERO, |(took, _)| took.time);
    Ok(slowest)
}

/// Compiles the mutants in batches, on every core.
fn compile_batches(workbench: &Workbench, submissions: &[Submission]) -> Result<Vec<Option<Program>>, SearchError> {
    let chunks: Vec<&[Submission]> = submissions.chunks(BATCH).collect();
    let built = parallel::map(chunks.len(), parallel::cores(), |k| {
        let units: Vec<Unit> = chunks[k].iter().map(Submission::unit).collect();
        let batch = format!("{} mutants of {}", units.len(), units.first().map_or("", |u| u.shown.as_str()));
        workbench.compiler.build_batch(&units).map_err(|e| Trouble::new(Doing::Compiling(batch), e))
    });
    let mut programs = Vec::with_capacity(submissions.len());
    for result in built {
        let batch = result.map_err(SearchError::Trouble)?;
        let mut unit = 0;
        for error in &batch.errors {
            programs.push(match (error, &batch.binary) {
                (None, Some(binary)) => {
                    unit += 1;
                    Some(Program {
                        binary: binary.clone(),
                        unit: unit - 1,
                        name: submissions[programs.len()].name.clone(),
                    })
                }
                _ => None,
            });
        }
    }
    Ok(programs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_holds_the_strategies_the_workspace_ships() {
        assert_eq!(held(EQUIVALENTS), crate::judging::shipped::SHIPPED);
    }

    #[test]
    fn the_equivalents_file_reads_and_bad_lines_are_named() {
        let listed = equivalents(EQUIVALENTS).unwrap_or_else(|line| panic!("{EQUIVALENTS_FILE}:{line}"));
        assert!(listed.iter().all(|e| !e.reason.is_empty()));
        let good = "dp_array | literal | let x = 1; | 1 -> 2 | 0 | a larger table holds the same leads";
        assert_eq!(equivalents(good).unwrap()[0].key, "literal | let x = 1; | 1 -> 2 | 0");
        assert_eq!(equivalents("# c\n\ndp_array | literal | x | 1 -> 2 | 0"), Err(3));
    }
}
