//! `--save`: a counterexample stored as a case of the `regressions` suite, its `.out` from the
//! oracle, so that every later run judges it; unless the same input is stored already, in any
//! suite (a testcase of a group included), which is then named instead. A counterexample that
//! fails only after other calls is stored with them, as a group of testcases, one a line, in
//! order: the judge calls a group's testcases in turn in one process of its own.

use std::path::PathBuf;

use super::SearchError;
use crate::exec::files::write_atomically;
use crate::exec::trouble::{Doing, Trouble};
use crate::judging::cases;
use crate::judging::workbench::Workbench;
use crate::problem::{format, oracle};

/// The suite saved counterexamples go to.
pub const SUITE: &str = "regressions";

/// What `--save` did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Saved {
    /// Written: the `.in`, beside its `.out`.
    Stored(PathBuf),
    /// Not written: the same input is stored already as this case (`suite/name:LINE` for a
    /// testcase of a group, at that line of its `.in`).
    Duplicate { id: String, input: PathBuf, line: Option<usize> },
}

/// Stores `tests`, the testcases to call in turn (one, or a failure's calls before it and
/// itself), as `<name>.in` with its `.out` (a name already taken by another input gets `-2`,
/// `-3`… after it), or names the stored case that holds the same.
pub fn save(workbench: &Workbench, name: &str, tests: &[Vec<i32>]) -> Result<Saved, SearchError> {
    let workspace = &workbench.workspace;
    // A case that cannot be read is not the same input: only cases that load are compared.
    if let Ok(stored) = cases::load(&workspace.cases, &[]) {
        for case in &stored.cases {
            let found = match tests {
                [values] => case.tests.iter().position(|t| t.values == *values),
                _ => case.tests.iter().map(|t| &t.values).eq(tests).then_some(0),
            };
            if let Some(t) = found {
                let (id, input) =
                    (if tests.len() == 1 { case.test_id(t) } else { case.id.clone() }, case.input.clone());
                let line = if tests.len() == 1 { case.line(t) } else { None };
                return Ok(Saved::Duplicate { id, input, line });
            }
        }
    }
    let dir = workspace.cases.join(SUITE);
    let failed = |path: &std::path::Path| {
        let path = path.to_path_buf();
        move |e| SearchError::Trouble(Trouble::new(Doing::Writing(path), e))
    };
    std::fs::create_dir_all(&dir).map_err(failed(&dir))?;
    let name = name.replace(['/', '#'], "-");
    let input = (1..)
        .map(|k| dir.join(if k == 1 { format!("{name}.in") } else { format!("{name}-{k}.in") }))
        .find(|path| !path.exists() && !path.with_extension("out").exists())
        .expect("some suffix is free");
    let answers: Vec<_> = tests.iter().map(|values| oracle::answer(values)).collect();
    let output = input.with_extension("out");
    write_atomically(&output, format::write_outputs(&answers).as_bytes()).map_err(failed(&output))?;
    write_atomically(&input, format::write_inputs(tests).as_bytes()).map_err(failed(&input))?;
    Ok(Saved::Stored(input))
}
