//! `judge bless`: makes each generated suite's inputs again from its MANIFEST, then each
//! case's `.out` from the oracle, never from a strategy under test, like compiletest's
//! `--bless`. Every write goes through a temporary file and a rename, so a judge running at
//! the same moment never reads half a file. `--check` writes nothing and reports what would
//! change.

use std::fs;
use std::path::{Path, PathBuf};

use super::cases::{self, read_case_file, CaseProblem, CasesError};
use super::manifest::{self, ManifestError};
use crate::exec::files::write_atomically;
use crate::problem::format::{self, FormatError};
use crate::problem::{oracle, Answer};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum What {
    /// An input made from its MANIFEST line, for the first time or again.
    Input { values: usize },
    /// A group's input made from its MANIFEST line: this many testcases, one a line.
    Inputs { testcases: usize },
    /// An output written where there was none.
    Created { answer: Answer },
    /// An output whose text is not an answer at all (`"Bbo"`), written over.
    Unparsed { old: String, new: Answer },
    /// An output whose stored answer differs from the oracle's.
    Changed { old: Answer, new: Answer },
    /// An output whose text differs from LeetCode's form but not in its answer (spacing).
    Reformatted { answer: Answer },
    /// A group's answers written where there were none.
    CreatedAll { answers: usize },
    /// A group's answers that differ from the oracle's on these lines of its `.in`.
    ChangedLines { lines: Vec<Line> },
    /// A group's answers that cannot be read as one a line for its testcases, written over.
    UnparsedAll { error: FormatError, answers: usize },
    /// A group's answers, each the oracle's, in another form (spacing).
    ReformattedAll { answers: usize },
}

/// One testcase of a group whose stored answer the oracle contradicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    /// Its line in the `.in` (and, written one a line, in the `.out`).
    pub line: usize,
    pub old: Answer,
    pub new: Answer,
}

#[derive(Debug)]
pub struct Change {
    pub path: PathBuf,
    pub what: What,
}

#[derive(Debug, Default)]
pub struct Blessed {
    pub changes: Vec<Change>,
    pub unchanged: usize,
    /// Inputs or manifests that could not be read: nothing is written for them.
    pub broken: Vec<Broken>,
    /// Whether files were written (false with `--check`).
    pub wrote: bool,
}

#[derive(Debug)]
pub enum Broken {
    Case(CaseProblem),
    Manifest { path: PathBuf, error: ManifestError },
    Write { path: PathBuf, error: std::io::Error },
}

pub fn bless(root: &Path, check: bool) -> Result<Blessed, CasesError> {
    let mut blessed = Blessed { wrote: !check, ..Blessed::default() };
    for suite in cases::suites(root)? {
        let dir = root.join(&suite);
        regenerate(&dir, check, &mut blessed);
        let mut inputs: Vec<PathBuf> = fs::read_dir(&dir)
            .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect::<Vec<_>>())
            .unwrap_or_default()
            .into_iter()
            .filter(|p| p.extension().is_some_and(|x| x == "in"))
            .collect();
        inputs.sort_by(|a, b| cases::natural_cmp(&a.to_string_lossy(), &b.to_string_lossy()));
        for input in inputs {
            bless_one(&input, check, &mut blessed);
        }
    }
    Ok(blessed)
}

fn write(path: &Path, text: &str, check: bool, what: What, blessed: &mut Blessed) {
    if !check {
        if let Err(error) = write_atomically(path, text.as_bytes()) {
            blessed.broken.push(Broken::Write { path: path.to_path_buf(), error });
            return;
        }
    }
    blessed.changes.push(Change { path: path.to_path_buf(), what });
}

/// Writes the `.in` of every MANIFEST line whose file is missing or differs.
fn regenerate(dir: &Path, check: bool, blessed: &mut Blessed) {
    let path = dir.join("MANIFEST");
    let Ok(text) = fs::read_to_string(&path) else { return };
    let entries = match manifest::parse(&text) {
        Ok(entries) => entries,
        Err(error) => return blessed.broken.push(Broken::Manifest { path, error }),
    };
    for entry in entries {
        let input = dir.join(format!("{}.in", entry.name));
        let testcases = entry.testcases();
        let wanted = format::write_inputs(&testcases);
        match read_case_file(&input) {
            Ok(old) if old == wanted => {}
            Ok(_) | Err(CaseProblem::Unreadable { .. }) => {
                let what = match testcases.as_slice() {
                    [one] => What::Input { values: one.len() },
                    _ => What::Inputs { testcases: testcases.len() },
                };
                write(&input, &wanted, check, what, blessed)
            }
            Err(problem) => blessed.broken.push(Broken::Case(problem)),
        }
    }
}

fn bless_one(input: &Path, check: bool, blessed: &mut Blessed) {
    let text = match read_case_file(input) {
        Ok(text) => text,
        // With --check an input that regenerating would create is not there yet.
        Err(CaseProblem::Unreadable { .. }) if check && blessed.changes.iter().any(|c| c.path == input) => return,
        Err(problem) => return blessed.broken.push(Broken::Case(problem)),
    };
    let testcases = match format::parse_lines(&text) {
        Ok(testcases) => testcases,
        Err(error) => {
            return blessed.broken.push(Broken::Case(CaseProblem::Format { path: input.to_path_buf(), error }))
        }
    };
    let answers: Vec<Answer> = testcases.iter().map(|(_, values)| oracle::answer(values)).collect();
    let wanted = format::write_outputs(&answers);
    let output = input.with_extension("out");
    let old = match read_case_file(&output) {
        Ok(old) if old == wanted => {
            blessed.unchanged += 1;
            return;
        }
        Ok(old) => old,
        Err(CaseProblem::Unreadable { .. }) => {
            let what = match answers.as_slice() {
                [answer] => What::Created { answer: *answer },
                _ => What::CreatedAll { answers: answers.len() },
            };
            return write(&output, &wanted, check, what, blessed);
        }
        Err(problem) => return blessed.broken.push(Broken::Case(problem)),
    };
    let what = match (answers.as_slice(), format::parse_outputs(&old, answers.len())) {
        ([answer], Ok(stored)) if stored[0] == *answer => What::Reformatted { answer: *answer },
        ([answer], Ok(stored)) => What::Changed { old: stored[0], new: *answer },
        ([answer], Err(_)) => What::Unparsed { old: old.trim_end().to_string(), new: *answer },
        (_, Ok(stored)) => {
            let lines = testcases.iter().map(|(line, _)| *line);
            let changed: Vec<Line> = (lines.zip(stored).zip(&answers))
                .filter(|((_, old), new)| old != *new)
                .map(|((line, old), new)| Line { line, old, new: *new })
                .collect();
            match changed.is_empty() {
                true => What::ReformattedAll { answers: answers.len() },
                false => What::ChangedLines { lines: changed },
            }
        }
        (_, Err(error)) => What::UnparsedAll { error, answers: answers.len() },
    };
    write(&output, &wanted, check, what, blessed);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_reports_without_writing_and_bless_writes_from_the_oracle() {
        let root = std::env::temp_dir().join(format!("judge-bless-test-{}", std::process::id()));
        let mine = root.join("mine");
        fs::create_dir_all(&mine).unwrap();
        fs::create_dir_all(root.join("made")).unwrap();
        fs::write(mine.join("lonely.in"), "[1,2,3,7]\n").unwrap();
        fs::write(mine.join("wrong.in"), "[1,2,3,-9]\n").unwrap();
        fs::write(mine.join("wrong.out"), "\"Bob\"\n").unwrap();
        fs::write(mine.join("right.in"), "[1,2,3,6]\n").unwrap();
        fs::write(mine.join("right.out"), "\"Tie\"\n").unwrap();
        fs::write(mine.join("typo.in"), "[1,2,3,7]\n").unwrap();
        fs::write(mine.join("typo.out"), "\"Bbo\"\n").unwrap();
        fs::write(root.join("made/MANIFEST"), "z3  judge gen --shape zeros --len 3 --seed 1\n").unwrap();
        let checked = bless(&root, true).unwrap();
        let whats: Vec<What> = checked.changes.iter().map(|c| c.what.clone()).collect();
        assert_eq!(
            whats,
            [
                What::Input { values: 3 },
                What::Created { answer: Answer::Bob },
                What::Unparsed { old: "\"Bbo\"".to_string(), new: Answer::Bob },
                What::Changed { old: Answer::Bob, new: Answer::Alice }
            ]
        );
        assert!(!mine.join("lonely.out").exists() && !root.join("made/z3.in").exists());
        let blessed = bless(&root, false).unwrap();
        assert_eq!(blessed.changes.len(), 5, "{:?}", blessed.changes);
        assert_eq!(fs::read_to_string(mine.join("wrong.out")).unwrap(), "\"Alice\"\n");
        assert_eq!(fs::read_to_string(root.join("made/z3.out")).unwrap(), "\"Tie\"\n");
        let again = bless(&root, true).unwrap();
        assert!(again.changes.is_empty() && again.unchanged == 5, "{again:?}");
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_group_is_made_from_its_line_and_its_changed_answers_are_named_by_line() {
        let root = std::env::temp_dir().join(format!("judge-bless-group-{}", std::process::id()));
        fs::create_dir_all(root.join("short")).unwrap();
        fs::write(root.join("short/MANIFEST"), "all  judge gen --max-len 2 --values -1..=1\n").unwrap();
        let made = bless(&root, false).unwrap();
        let whats: Vec<What> = made.changes.iter().map(|c| c.what.clone()).collect();
        assert_eq!(whats, [What::Inputs { testcases: 12 }, What::CreatedAll { answers: 12 }]);
        let arrays = crate::problem::generator::Every { max_len: 2, low: -1, high: 1 }.all().unwrap();
        let answers: Vec<Answer> = arrays.iter().map(|a| oracle::answer(a)).collect();
        assert_eq!(fs::read_to_string(root.join("short/all.out")).unwrap(), format::write_outputs(&answers));
        // Line 6 is [-1,1], a tie: stored as Bob's, it is named; nothing else changes.
        let mut wrong = answers.clone();
        assert_eq!((&arrays[5][..], wrong[5]), (&[-1, 1][..], Answer::Tie));
        wrong[5] = Answer::Bob;
        fs::write(root.join("short/all.out"), format::write_outputs(&wrong)).unwrap();
        let checked = bless(&root, true).unwrap();
        let line = Line { line: 6, old: Answer::Bob, new: Answer::Tie };
        assert_eq!(
            checked.changes.iter().map(|c| c.what.clone()).collect::<Vec<_>>(),
            [What::ChangedLines { lines: vec![line] }]
        );
        // Answers that end early cannot be read one a line: rewritten whole.
        fs::write(root.join("short/all.out"), format::write_outputs(&answers[..11])).unwrap();
        let checked = bless(&root, true).unwrap();
        assert!(matches!(checked.changes[0].what, What::UnparsedAll { answers: 12, .. }), "{checked:?}");
        fs::remove_dir_all(&root).unwrap();
    }
}
