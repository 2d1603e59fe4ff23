//! What a judging came to: for every submission what it got against what it must get, the
//! stored answers every strategy contradicts in agreement with the oracle, and the judge's
//! own errors.

use std::time::Duration;

use super::cases::{BadCase, Case};
use super::engine::Scorecard;
use super::guard::Change;
use super::submissions::{Catalog, Expect, Submission, SubmissionError};
use super::verdict::Verdict;
use super::workbench::Workbench;
use crate::exec::compile::About;
use crate::exec::limits::Limits;
use crate::problem::{oracle, Answer};

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
    pub cards: Vec<Scorecard>,
    pub met: Vec<Met>,
    pub suspects: Vec<Suspect>,
    pub changes: Vec<Change>,
    pub limits: Limits,
    /// Which compiler built the files, and LeetCode's Rust version they were checked against.
    pub about: About,
    /// Why children ran without a sandbox, when they did.
    pub unconfined: Option<String>,
    /// The cgroup version of the children's cells; None when memory and CPU time were read
    /// from /proc, and then why.
    pub cgroup: Option<crate::exec::cgroup::Version>,
    pub uncounted: Option<String>,
    pub wall: Duration,
}

impl Report {
    /// Takes what the workbench opened and what the engine found; `named` are the names the
    /// user gave, `filtered` whether `--case` narrowed the cases.
    pub fn new(bench: Workbench, cards: Vec<Scorecard>, named: &[String], filtered: bool, wall: Duration) -> Report {
        let changes = bench.changes();
        let about = bench.compiler.about();
        let limits = bench.limits();
        let cgroup = bench.cgroup();
        let Workbench { catalog, submissions, bad_submissions, cases, bad_cases, unconfined, uncounted, .. } = bench;
        let met = submissions
            .iter()
            .zip(&cards)
            .map(|(s, card)| met(s, card, filtered && !is_named(&catalog, named, s)))
            .collect();
        let suspects = suspects(&submissions, &cases, &cards);
        Report {
            submissions,
            cases,
            bad_cases,
            bad_submissions,
            cards,
            met,
            suspects,
            changes,
            limits,
            about,
            unconfined,
            cgroup,
            uncounted,
            wall,
        }
    }

    /// A judge error: a bad case, a bad submission file, changed stored data, or a fault.
    pub fn has_judge_errors(&self) -> bool {
        !self.bad_cases.is_empty()
            || !self.bad_submissions.is_empty()
            || !self.changes.is_empty()
            || self.cards.iter().any(|r| r.fault.is_some())
    }

    pub fn all_met(&self) -> bool {
        self.met.iter().all(|m| *m != Met::No)
    }
}

fn is_named(catalog: &Catalog, named: &[String], submission: &Submission) -> bool {
    named.iter().any(|n| catalog.normalise(n) == submission.name)
}

/// The first verdict that is not AC, CE when it did not compile, or AC.
pub fn first_failure(card: &Scorecard) -> Option<Verdict> {
    match &card.compiled {
        Some(Err(_)) => return Some(Verdict::Ce),
        None => return None,
        Some(Ok(())) => {}
    }
    let verdicts = card.results.iter().flatten().filter_map(|r| r.verdict);
    Some(verdicts.clone().find(|v| *v != Verdict::Ac).unwrap_or(Verdict::Ac))
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

/// Cases where every strategy that ran returned the same answer, the stored one differs, and
/// the oracle agrees with the strategies.
fn suspects(submissions: &[Submission], cases: &[Case], cards: &[Scorecard]) -> Vec<Suspect> {
    let strategies: Vec<&Scorecard> =
        submissions.iter().zip(cards).filter(|(s, _)| s.is_strategy()).map(|(_, r)| r).collect();
    let mut found = Vec::new();
    for (c, case) in cases.iter().enumerate() {
        let answers: Vec<Option<&[u8]>> = strategies
            .iter()
            .map(|card| {
                let result = card.results[c].as_ref()?;
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
