//! Searching for the input that breaks a submission: `stress` (random cases), `verify` (every
//! small case), both over the batched sweep, with shrinking; and `mutants`, which measures
//! how many small mistakes the stored suite catches. Data only: nothing here prints.

pub mod mutants;
pub mod shrink;
pub mod stress;
pub mod sweep;
pub mod verify;

use crate::exec::child::Room;
use crate::exec::compile::{Binary, CompileError, Compiler, CompilerMissing};
use crate::exec::limits::{Limits, Unhonourable};
use crate::judging::guard::{Change, Snapshot};
use crate::judging::submissions::{Catalog, Submission, SubmissionError};
use crate::judging::workspace::Workspace;
use crate::problem::Answer;
use sweep::Got;

/// Why a search could not run.
#[derive(Debug)]
pub enum SearchError {
    Limits(Unhonourable),
    Submission(SubmissionError),
    Compiler(CompilerMissing),
    /// A chosen submission does not compile: nothing to search.
    DoesNotCompile {
        name: String,
        error: CompileError,
    },
    /// The judge could not do its part: a child that would not start, a file it could not write.
    Judge(String),
    /// `--max-len`, `--values` or `--count` outside what can be enumerated or LeetCode allows.
    Bound(Bound),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    MaxLen { given: usize, most: usize },
    Values { low: i32, high: i32 },
    TooMany { base: u64, max_len: usize },
}

/// The submissions to search, compiled, with the scratch folder and a snapshot of the data.
pub struct Prepared {
    pub submissions: Vec<Submission>,
    pub binaries: Vec<Binary>,
    pub room: Room,
    before: Snapshot,
}

/// Resolves the named submissions (the strategies when none is named) and compiles them.
pub fn prepare(workspace: &Workspace, names: &[String], limits: Limits) -> Result<Prepared, SearchError> {
    limits.check().map_err(SearchError::Limits)?;
    let catalog = Catalog::scan(workspace).map_err(SearchError::Submission)?;
    let names = if names.is_empty() { catalog.strategies() } else { names.to_vec() };
    let (submissions, mut errors) = catalog.select(workspace, &names);
    if !errors.is_empty() {
        return Err(SearchError::Submission(errors.swap_remove(0)));
    }
    let compiler = Compiler::new(&workspace.cache).map_err(SearchError::Compiler)?;
    let mut binaries = Vec::new();
    for submission in &submissions {
        match compiler.build(&submission.unit()) {
            Ok(Ok(binary)) => binaries.push(binary),
            Ok(Err(error)) => return Err(SearchError::DoesNotCompile { name: submission.name.clone(), error }),
            Err(e) => return Err(SearchError::Judge(e.to_string())),
        }
    }
    let room = Room::new().map_err(|e| SearchError::Judge(e.to_string()))?;
    let before = Snapshot::take(&[&workspace.solutions, &workspace.cases]);
    Ok(Prepared { submissions, binaries, room, before })
}

impl Prepared {
    /// What changed in the stored data since `prepare`.
    pub fn changes(&self) -> Vec<Change> {
        self.before.changes()
    }
}

/// A failing input, shrunk, with what the oracle and the submission said of it.
#[derive(Clone, Debug)]
pub struct Counterexample {
    pub submission: String,
    /// The case's index in the sweep.
    pub index: u64,
    pub original_len: usize,
    pub values: Vec<i32>,
    pub expected: Answer,
    pub got: Got,
    pub tried: usize,
    /// Shrinking ran out of time before it was done.
    pub stopped: bool,
}

/// A sweep's figures, for the closing line.
#[derive(Clone, Copy, Debug)]
pub struct Rate {
    pub checked: u64,
    pub elapsed: std::time::Duration,
    pub submissions: usize,
    pub jobs: usize,
}

impl Rate {
    /// How fast `job` was swept.
    pub fn of(swept: &sweep::Swept, job: &sweep::Job) -> Rate {
        Rate { checked: swept.checked, elapsed: swept.elapsed, submissions: job.binaries.len(), jobs: job.jobs }
    }
}

/// Shrinks what a sweep found.
pub fn counterexample(prepared: &Prepared, limits: Limits, found: sweep::Found) -> Result<Counterexample, SearchError> {
    let binary = &prepared.binaries[found.submission];
    let original_len = found.values.len();
    let shrunk =
        shrink::shrink_failure(binary, limits, &prepared.room, found.values, found.got).map_err(SearchError::Judge)?;
    Ok(Counterexample {
        submission: prepared.submissions[found.submission].name.clone(),
        index: found.index,
        original_len,
        expected: crate::problem::oracle::answer(&shrunk.values),
        values: shrunk.values,
        got: shrunk.got,
        tried: shrunk.tried,
        stopped: shrunk.stopped,
    })
}
