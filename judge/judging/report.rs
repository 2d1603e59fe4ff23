//! What a judging came to: for every submission what it got against what it must get and its
//! figures, the oracle's explanation of every case something failed, the stored answers the
//! oracle contradicts, and the judge's own errors. Everything a report shows is here, worked
//! out once, so that rendering it is only writing it down.

use std::collections::BTreeMap;
use std::time::Duration;

use super::cases::{BadCase, Case};
use super::engine::{CaseResult, Cut, Judged, Scorecard};
use super::guard::Changed;
use super::submissions::{Catalog, Expect, Submission, SubmissionError};
use super::verdict::Verdict;
use super::workbench::Workbench;
use crate::exec::compile::About;
use crate::exec::diagnose::Newer;
use crate::exec::limits::Limits;
use crate::exec::outcome::{Call, Ending};
use crate::problem::oracle::{self, Explained};
use crate::problem::Answer;

/// Inputs up to this long are explained pile by pile (leads and a line of play) beside a
/// failure; longer ones by their totals.
pub const EXPLAINED: usize = 20;

/// Whether a submission got what it must.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Met {
    Yes,
    No,
    /// A bundled wrong submission that passed every case of a filtered run: it is judged for
    /// its tag only on the whole suite, or when named.
    NotCaught,
}

/// A stored answer the oracle contradicts, found where a strategy was judged wrong.
#[derive(Clone, Debug)]
pub struct Suspect {
    pub case: usize,
    /// Which of the case's testcases.
    pub test: usize,
    pub stored: Answer,
    pub oracle: Answer,
    /// The judged strategies that answered as the oracle does.
    pub agreeing: Vec<String>,
}

/// How long a call took, as every report shows it: the one place a case's time is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Took {
    pub time: Duration,
    /// It was killed at the time limit, so it would have taken longer.
    pub cut: bool,
}

/// The time a call took, or None when it ended without one (a panic, say).
pub fn took(call: &Call) -> Option<Took> {
    match &call.result {
        Ok(answered) => Some(Took { time: Duration::from_nanos(answered.nanos), cut: false }),
        Err(Ending::TimedOut { after, .. }) => Some(Took { time: *after, cut: true }),
        Err(_) => None,
    }
}

/// One submission's figures over the cases it ran, each testcase of a group counted as a case.
#[derive(Clone, Debug)]
pub struct Figures {
    /// Testcases judged.
    pub ran: usize,
    pub accepted: usize,
    /// How many testcases got each verdict, in precedence order, for those it got.
    pub counts: Vec<(Verdict, usize)>,
    /// The sum of the case times, a group's batches included; a lower bound when a case was cut
    /// at the time limit.
    pub total: Option<Took>,
    /// Of the calls on one testcase: a group's batch is many calls, not one.
    pub median: Option<Took>,
    /// The slowest call on one testcase, TLE cases included, and its case.
    pub slowest: Option<(Took, usize)>,
    pub peak_kib: Option<u64>,
    /// Testcases never judged, other than those left after the failures it was to stop at: after
    /// `TLE_BUDGET` time limits, where a group was cut (see `GroupCut`), after a fault.
    pub not_judged: usize,
    /// Testcases never judged, for any reason (a first failure included).
    pub left_out: usize,
}

impl Figures {
    pub fn of(card: &Scorecard, cases: &[Case]) -> Figures {
        let done: Vec<(usize, &CaseResult)> =
            card.results.iter().enumerate().filter_map(|(i, r)| Some((i, r.as_ref()?))).collect();
        let accepted = done.iter().map(|(_, r)| r.passed()).sum();
        let all: Vec<(Took, usize)> = done.iter().filter_map(|(i, r)| Some((took(&r.call)?, *i))).collect();
        let single = |(_, c): &&(Took, usize)| card.results[*c].as_ref().is_some_and(|r| r.tally.is_none());
        let mut times: Vec<(Took, usize)> = all.iter().filter(single).copied().collect();
        times.sort();
        let verdicts: Vec<(Verdict, usize)> = done.iter().flat_map(|(_, r)| r.verdicts()).collect();
        let counts = Verdict::PRECEDENCE
            .iter()
            .map(|v| (*v, verdicts.iter().filter(|(w, _)| w == v).map(|(_, n)| n).sum()))
            .filter(|(_, n)| *n > 0)
            .collect();
        let total = (!all.is_empty())
            .then(|| Took { time: all.iter().map(|(t, _)| t.time).sum(), cut: all.iter().any(|(t, _)| t.cut) });
        // Testcases of cases it never ran, and of groups it stopped in.
        let skipped: usize =
            (card.results.iter().zip(cases)).filter(|(r, _)| r.is_none()).map(|(_, c)| c.tests.len()).sum();
        let unjudged = |cut: bool| -> usize {
            (done.iter())
                .filter_map(|(c, r)| Some((cases[*c].tests.len() - r.judged(), r.tally.as_ref()?)))
                .filter(|(_, tally)| tally.cut.is_some() || !cut)
                .map(|(n, _)| n)
                .sum()
        };
        // Stopping at its failures leaves the rest as asked; anything else leaves it not judged.
        let asked = matches!(card.cut, Some(Cut::FirstFailure)) && card.fault.is_none();
        Figures {
            ran: done.iter().map(|(_, r)| r.judged()).sum(),
            accepted,
            counts,
            total,
            median: (!times.is_empty()).then(|| times[times.len() / 2].0),
            slowest: times.last().copied(),
            peak_kib: done.iter().filter_map(|(_, r)| r.call.result.as_ref().ok()?.peak_kib).max(),
            not_judged: if asked { 0 } else { skipped } + unjudged(true),
            left_out: skipped + unjudged(false),
        }
    }
}

pub struct Report {
    pub submissions: Vec<Submission>,
    pub cases: Vec<Case>,
    pub bad_cases: Vec<BadCase>,
    pub bad_submissions: Vec<SubmissionError>,
    pub cards: Vec<Scorecard>,
    pub figures: Vec<Figures>,
    pub met: Vec<Met>,
    /// The oracle's explanation of every testcase a failure is shown on, by case and testcase.
    pub explained: BTreeMap<(usize, usize), Explained>,
    pub suspects: Vec<Suspect>,
    /// The standard library items each submission uses that LeetCode's Rust does not have.
    pub newer: Vec<Vec<Newer>>,
    pub changes: Changed,
    pub limits: Limits,
    /// Which compiler built the files, and LeetCode's Rust version they were checked against.
    pub about: About,
    /// Why children ran without a sandbox, when they did.
    pub unconfined: Option<String>,
    /// The cgroup version of the children's cells; None when memory and CPU time were read
    /// from /proc, and then why.
    pub cgroup: Option<crate::exec::cgroup::Version>,
    /// Who kept the children's accounts.
    pub runner: crate::exec::runner::RunnerKind,
    pub uncounted: Option<String>,
    pub wall: Duration,
}

impl Report {
    /// Takes what the workbench opened, what the engine found and the items newer than
    /// LeetCode's Rust (empty where not checked); `named` are the names the user gave,
    /// `filtered` whether `--case` narrowed the cases.
    pub fn new(
        workbench: Workbench,
        judged: Judged,
        newer: Vec<Vec<Newer>>,
        named: &[String],
        filtered: bool,
        wall: Duration,
    ) -> Report {
        let changes = Changed { changes: workbench.changes(), confined: workbench.unconfined.is_none() };
        let about = workbench.compiler.about();
        let limits = workbench.limits();
        let cgroup = workbench.cgroup();
        let runner = workbench.housing.kind;
        let Workbench { catalog, submissions, bad_submissions, cases, bad_cases, unconfined, uncounted, .. } =
            workbench;
        let cards = judged.cards;
        let met = submissions
            .iter()
            .zip(&cards)
            .map(|(s, card)| met(s, card, filtered && !is_named(&catalog, named, s)))
            .collect();
        let suspects = suspects(&submissions, &cases, &cards);
        let mut explained = BTreeMap::new();
        for card in &cards {
            for (c, result) in card.results.iter().enumerate() {
                if let Some(result) = result.as_ref().filter(|r| r.verdict != Some(Verdict::Ac)) {
                    let key = (c, result.test);
                    explained.entry(key).or_insert_with(|| oracle::explain(&cases[c].tests[result.test].values));
                }
            }
        }
        let newer = if newer.is_empty() { vec![Vec::new(); submissions.len()] } else { newer };
        Report {
            figures: cards.iter().map(|card| Figures::of(card, &cases)).collect(),
            submissions,
            cases,
            bad_cases,
            bad_submissions,
            cards,
            met,
            explained,
            suspects,
            newer,
            changes,
            limits,
            about,
            unconfined,
            cgroup,
            runner,
            uncounted,
            wall,
        }
    }

    /// The testcases of every case, each of a group counted.
    pub fn testcases(&self) -> usize {
        self.cases.iter().map(|c| c.tests.len()).sum()
    }

    /// The oracle's explanation of testcase `test` of case `case`, where a failure is shown.
    pub fn explained(&self, case: usize, test: usize) -> Option<&Explained> {
        self.explained.get(&(case, test))
    }

    /// A judge error: a bad case, a bad submission file, stored data a solution could have
    /// changed, or a fault.
    pub fn has_judge_errors(&self) -> bool {
        !self.bad_cases.is_empty()
            || !self.bad_submissions.is_empty()
            || self.changes.is_error()
            || self.cards.iter().any(|r| r.fault.is_some())
    }

    pub fn all_met(&self) -> bool {
        self.met.iter().all(|m| *m != Met::No)
    }
}

fn is_named(catalog: &Catalog, named: &[String], submission: &Submission) -> bool {
    named.iter().any(|n| catalog.normalise(n) == submission.name)
}

/// The first verdict that is not AC, CE when it did not compile, or AC when every testcase of
/// every case was judged and passed; None when it has no verdict: not compiled yet, not
/// judged whole (a case or testcase it never ran, whatever the reason), or judged on no case
/// at all, which is never a pass.
pub fn first_failure(card: &Scorecard) -> Option<Verdict> {
    match &card.compiled {
        Some(Err(_)) => return Some(Verdict::Ce),
        None => return None,
        Some(Ok(())) => {}
    }
    let mut verdicts = card.results.iter().flatten().filter_map(|r| r.verdict);
    if let Some(failure) = verdicts.find(|v| *v != Verdict::Ac) {
        return Some(failure);
    }
    let whole = card.fault.is_none()
        && !card.results.is_empty()
        && card.results.iter().all(|r| r.as_ref().is_some_and(CaseResult::is_whole_pass));
    whole.then_some(Verdict::Ac)
}

/// `lenient`: a wrong submission that passes may be a filter's doing, not the suite's.
fn met(submission: &Submission, card: &Scorecard, lenient: bool) -> Met {
    if card.fault.is_some() {
        return Met::No;
    }
    let first = first_failure(card);
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

/// Cases where a strategy was judged wrong and the oracle disagrees with the stored answer:
/// the oracle is the ground truth, so the stored `.out` looks wrong, whatever the strategies
/// said; those that answered as the oracle does are named.
fn suspects(submissions: &[Submission], cases: &[Case], cards: &[Scorecard]) -> Vec<Suspect> {
    let strategies: Vec<(&Submission, &Scorecard)> =
        submissions.iter().zip(cards).filter(|(s, _)| s.is_strategy()).collect();
    // Each strategy's wrong answer on a case: the testcase, and what it answered.
    let answer = |card: &Scorecard, c: usize| -> Option<(usize, Vec<u8>)> {
        let result = card.results[c].as_ref().filter(|r| r.verdict == Some(Verdict::Wa))?;
        Some((result.test, result.call.result.as_ref().ok()?.answer.clone()))
    };
    let mut found: Vec<Suspect> = Vec::new();
    for (c, case) in cases.iter().enumerate() {
        for (_, (t, _)) in strategies.iter().filter_map(|(s, card)| Some((*s, answer(card, c)?))) {
            if found.iter().any(|f| (f.case, f.test) == (c, t)) {
                continue;
            }
            let test = &case.tests[t];
            let oracle = oracle::answer(&test.values);
            if oracle == test.expected {
                continue;
            }
            let agreeing = strategies
                .iter()
                .filter(|(_, card)| answer(card, c).is_some_and(|(u, a)| u == t && oracle.is(&a)))
                .map(|(s, _)| s.name.clone())
                .collect();
            found.push(Suspect { case: c, test: t, stored: test.expected, oracle, agreeing });
        }
    }
    found
}
