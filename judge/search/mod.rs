//! Searching for the input that breaks a submission: `stress` (random cases), `verify` (every
//! small case), both over the batched sweep, with shrinking; `growth`, which times a solution
//! at doubling sizes; and `mutants`, which measures how many small mistakes the stored suite
//! catches. Data only: nothing here prints.

pub mod growth;
pub mod mutants;
pub mod reproduce;
pub mod save;
pub mod shrink;
pub mod stress;
pub mod sweep;
pub mod verify;

use crate::exec::compile::Program;
use crate::exec::diagnose::CompileError;
use crate::exec::limits::Limits;
use crate::exec::outcome::{Call, Ending};
use crate::exec::trouble::{Doing, Trouble};
use crate::judging::workbench::{SetupError, Workbench};
use crate::problem::oracle::Explained;
use crate::problem::Answer;
use sweep::Got;

/// Why a search could not run.
#[derive(Debug)]
pub enum SearchError {
    Setup(SetupError),
    /// A chosen submission does not compile: nothing to search.
    DoesNotCompile {
        name: String,
        error: Box<CompileError>,
    },
    /// The judge could not do its part: a child that would not start, a file it could not write.
    Trouble(Trouble),
    /// `judge bench` was given what is not a strategy.
    NotAStrategy {
        name: String,
    },
    /// A line of a list of equivalent mutants is not one.
    Equivalents {
        file: String,
        line: usize,
    },
    /// A strategy whose mutants are measured fails the stored cases itself.
    OriginalFails {
        name: String,
    },
    /// A call failed through no fault of the submission (a stack the machine cannot give, a
    /// request the driver refused), under these limits.
    Unjudged {
        ending: Ending,
        limits: Limits,
    },
    /// `--values` or `--count` outside what can be enumerated or LeetCode allows.
    Bound(Bound),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    Values { low: i32, high: i32 },
    TooMany { base: u64, max_len: usize },
}

impl From<SetupError> for SearchError {
    fn from(error: SetupError) -> SearchError {
        SearchError::Setup(error)
    }
}

/// Every submission of the workbench, built; the first that cannot be is the error, since a
/// search needs them all.
pub fn build(workbench: &Workbench) -> Result<Vec<Program>, SearchError> {
    let built = workbench.build_all(&mut |_, _| {});
    let mut programs = Vec::with_capacity(built.len());
    for (submission, built) in workbench.submissions.iter().zip(built) {
        match built {
            Ok(Ok(program)) => programs.push(program),
            Ok(Err(error)) => {
                return Err(SearchError::DoesNotCompile { name: submission.name.clone(), error: Box::new(error) })
            }
            Err(trouble) => return Err(SearchError::Trouble(trouble)),
        }
    }
    Ok(programs)
}

/// How far a search has got, for a progress line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Cases checked.
    Cases(u64),
    /// Shrinking a failure: the values of the smallest failing input so far, and the
    /// candidates tried.
    Shrinking { values: usize, tried: usize },
}

/// Where a failing input was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Testcase `k` (from 0) of those given to try first.
    Given(usize),
    /// Case `index` (from 0) of the sweep.
    Swept(u64),
}

/// A failing input, shrunk, with what the oracle and the submission said of it.
#[derive(Clone, Debug)]
pub struct Counterexample {
    pub submission: String,
    pub origin: Origin,
    /// The calls it fails only after, in order, in one process, each answered right (shrunk
    /// too); empty where it fails alone, in a fresh process.
    pub before: Vec<Vec<i32>>,
    /// Whether it failed again when tried in a fresh process (alone, or after `before`); where
    /// not, nothing here made it fail again, and it is shown as found.
    pub reproduced: bool,
    /// The calls its process had answered before it where it was found (up to
    /// `reproduce::HISTORY_KEPT`).
    pub history: usize,
    pub original_len: usize,
    /// Shrinking moved a value without dropping one.
    pub simplified: bool,
    pub values: Vec<i32>,
    pub expected: Answer,
    /// The oracle's explanation of the shrunk input.
    pub explained: Explained,
    pub got: Got,
    /// The shrunk input run once more, for what the submission printed on it (`println!`,
    /// `dbg!`); None when that call could not be made.
    pub printed: Option<Call>,
    pub tried: usize,
    /// Shrinking ran out of time before it was done.
    pub stopped: bool,
}

impl Counterexample {
    /// Every call that shows it, in order: those before it, then it.
    pub fn calls(&self) -> Vec<Vec<i32>> {
        self.before.iter().chain([&self.values]).cloned().collect()
    }
}

/// A sweep's figures, for the closing line.
#[derive(Clone, Copy, Debug)]
pub struct Rate {
    pub checked: u64,
    pub elapsed: std::time::Duration,
    pub submissions: usize,
    pub jobs: usize,
}

/// Shrinks what a sweep (or a given testcase) found; `case` makes a case of the sweep from its
/// index, for the calls its child answered before it.
pub fn counterexample(
    workbench: &Workbench,
    programs: &[Program],
    found: sweep::Found,
    origin: Origin,
    case: &dyn Fn(u64, &mut Vec<i32>),
    progress: &mut dyn FnMut(Progress),
) -> Result<Counterexample, SearchError> {
    let original = found.values.clone();
    let verdict = found.got.verdict();
    // A time limit is shrunk to a case over a quarter more than the limit, so that running it
    // again is sure to be over the limit too.
    let limits = match verdict {
        crate::judging::verdict::Verdict::Tle => workbench.limits().with_time(workbench.limits().time * 5 / 4),
        _ => workbench.limits(),
    };
    let mut runner = workbench.runner_with(&programs[found.submission], limits);
    let budget = match verdict {
        crate::judging::verdict::Verdict::Tle => shrink::TLE_BUDGET,
        _ => shrink::BUDGET,
    };
    let mut give_up = std::time::Instant::now() + budget;
    let same = |got: Option<Got>| got.filter(|g| g.verdict() == verdict);
    let mut history = 0;
    // Alone first, in the runner's first child.
    let (before, shrunk, reproduced) = match same(sweep::check_one(&mut runner, &found.values)?) {
        Some(got) => {
            // The budget is the shrinking's own, not the check above's.
            give_up = std::time::Instant::now() + budget;
            let mut shrunk =
                shrink::shrink_failure(&mut runner, found.values.clone(), got.clone(), false, give_up, progress)?;
            // Its candidates ran in one child: what one left behind may have made a later one
            // fail. The result must fail alone, or it is shrunk again, each candidate alone.
            let name = runner.name();
            runner.fresh().map_err(|e| SearchError::Trouble(Trouble::new(Doing::Starting(name), e)))?;
            if same(sweep::check_one(&mut runner, &shrunk.values)?).is_none() {
                shrunk = shrink::shrink_failure(&mut runner, found.values, got, true, give_up, progress)?;
            }
            (Vec::new(), shrunk, true)
        }
        None => {
            let mut before = Vec::new();
            for &(from, to) in &found.history {
                for index in from..to {
                    let mut values = Vec::new();
                    case(index, &mut values);
                    before.push(values);
                }
            }
            let before = before.split_off(before.len().saturating_sub(reproduce::HISTORY_KEPT));
            history = before.len();
            match reproduce::replay(&mut runner, &before, &found.values, verdict)? {
                Some(got) => {
                    let sequence = reproduce::shrink_sequence(&mut runner, before, found.values, got, give_up)?;
                    (sequence.before, sequence.last, true)
                }
                None => {
                    let shrunk = shrink::Shrunk { values: found.values, got: found.got, tried: 0, stopped: false };
                    (Vec::new(), shrunk, false)
                }
            }
        }
    };
    // Once more, for what it printed.
    let printed = match reproduce::prepare(&mut runner, &before)? {
        true => runner.call(&shrunk.values).ok(),
        false => None,
    };
    let explained = crate::problem::oracle::explain(&shrunk.values);
    Ok(Counterexample {
        submission: workbench.submissions[found.submission].name.clone(),
        origin,
        before,
        reproduced,
        history,
        original_len: original.len(),
        simplified: original.len() == shrunk.values.len() && original != shrunk.values,
        expected: explained.answer(),
        explained,
        values: shrunk.values,
        got: shrunk.got,
        printed,
        tried: shrunk.tried,
        stopped: shrunk.stopped,
    })
}

/// A submission whose calls were far slower than the oracle's, or whose time grows faster
/// than n: a time limit waiting on larger inputs, which small random cases cannot show.
#[derive(Clone, Debug)]
pub struct Slow {
    pub submission: String,
    /// Its time over the oracle's, on the same cases.
    pub against_oracle: f64,
    pub growth: growth::Growth,
    /// The longest input its growth was timed on: a prefix of `growth::input()`.
    pub slowest: Vec<i32>,
}

/// Slower than the oracle by more than this is worth a word.
const SLOW: f64 = 20.0;

/// Times every submission at doubling sizes on a long uniform input, one per core at a time,
/// and keeps those that were far slower than the oracle in the sweep or grow faster than
/// linearly.
pub fn slow_ones(workbench: &Workbench, programs: &[Program], swept: &sweep::Swept) -> Result<Vec<Slow>, SearchError> {
    let input = growth::input();
    let probed = crate::parallel::map(programs.len(), crate::parallel::cores(), |i| {
        growth::probe(&mut workbench.runner(&programs[i]), &input)
    });
    let mut slow = Vec::new();
    for ((submission, growth), busy) in workbench.submissions.iter().zip(probed).zip(&swept.busy) {
        let growth =
            growth.map_err(|e| SearchError::Trouble(Trouble::new(Doing::Starting(submission.name.clone()), e)))?;
        let against_oracle = busy.as_secs_f64() / swept.oracle.as_secs_f64().max(1e-9);
        if growth.order.steeper_than_linear() || against_oracle > SLOW {
            let longest = growth.points.last().map_or(0, |p| p.n);
            let slowest = input[..longest].to_vec();
            slow.push(Slow { submission: submission.name.clone(), against_oracle, growth, slowest });
        }
    }
    Ok(slow)
}
