//! Will a file paste into LeetCode as it is? LeetCode's Rust editor holds `pub struct
//! Solution;` and whatever is pasted after it, built with LeetCode's rustc. The checks: the file
//! does not declare `Solution` itself, uses no `crate::` or `super::` path (LeetCode's crate
//! has none of ours), has the method's exact signature, and compiles through the judge's own
//! compile path in each edition LeetCode has offered for Rust (2018, then 2021).

use super::submissions::Submission;
use crate::exec::compile::Compiler;
use crate::exec::diagnose::CompileError;
use crate::problem::SIGNATURE;

/// The editions a pasted file must compile in.
pub const EDITIONS: [&str; 2] = ["2018", "2021"];

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    DeclaresSolution {
        line: usize,
    },
    CratePath {
        line: usize,
    },
    NoSignature,
    DoesNotCompile {
        edition: &'static str,
        error: CompileError,
    },
    /// The compiler itself could not be run.
    Unchecked {
        error: String,
    },
}

/// Lines of code: not comments.
fn code_lines(source: &str) -> impl Iterator<Item = (usize, &str)> {
    source.lines().enumerate().map(|(i, l)| (i + 1, l)).filter(|(_, l)| !l.trim_start().starts_with("//"))
}

/// Every reason `submission` would not paste into LeetCode as it is.
pub fn check(compiler: &Compiler, submission: &Submission) -> Vec<Problem> {
    let source = &submission.source;
    let mut problems = Vec::new();
    if let Some((line, _)) = code_lines(source).find(|(_, l)| l.contains("struct Solution")) {
        problems.push(Problem::DeclaresSolution { line });
    }
    if let Some((line, _)) = code_lines(source).find(|(_, l)| l.contains("crate::") || l.contains("super::")) {
        problems.push(Problem::CratePath { line });
    }
    if !source.contains(SIGNATURE) {
        problems.push(Problem::NoSignature);
    }
    for edition in EDITIONS {
        match compiler.check(&submission.unit(), edition) {
            Ok(Ok(())) => {}
            Ok(Err(error)) => problems.push(Problem::DoesNotCompile { edition, error }),
            Err(e) => problems.push(Problem::Unchecked { error: e.to_string() }),
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judging::submissions::{Catalog, Expect};
    use crate::judging::verdict::Verdict;
    use crate::judging::workspace::Workspace;

    fn setup() -> (Workspace, Catalog, Compiler) {
        let workspace = Workspace::find(None).unwrap();
        let catalog = Catalog::scan(&workspace).unwrap();
        let compiler = Compiler::new(&workspace.cache).unwrap_or_else(|e| panic!("{e:?}"));
        (workspace, catalog, compiler)
    }

    /// The paste test: every file but those tagged CE pastes into LeetCode in both editions.
    #[test]
    fn every_solution_file_pastes_into_leetcode_in_both_editions() {
        let (workspace, catalog, compiler) = setup();
        let (submissions, errors) = catalog.select(&workspace, &[]);
        assert!(errors.is_empty(), "{errors:?}");
        let mut checked = 0;
        for submission in submissions.iter().filter(|s| s.expect != Expect::Verdict(Verdict::Ce)) {
            let problems = check(&compiler, submission);
            assert!(problems.is_empty(), "{}: {problems:?}", submission.shown);
            checked += 1;
        }
        assert!(checked >= catalog.strategies().len());
    }

    #[test]
    fn the_check_catches_what_leetcode_would_reject() {
        let (workspace, catalog, compiler) = setup();
        let good = catalog.resolve(&workspace, &catalog.strategies()[0]).unwrap();
        let with = |source: String| Submission { source, ..good.clone() };
        let problems = check(&compiler, &with(format!("struct Solution;\n{}", good.source)));
        assert!(matches!(problems[0], Problem::DeclaresSolution { line: 1 }), "{problems:?}");
        let problems = check(&compiler, &with(format!("use crate::x;\n{}", good.source)));
        assert!(matches!(problems[0], Problem::CratePath { line: 1 }), "{problems:?}");
        let renamed = with(good.source.replace("stone_game_iii", "stoneGameIII"));
        assert!(check(&compiler, &renamed).contains(&Problem::NoSignature));
        // Before 2021, `array.into_iter()` yields references: code that takes values from it
        // compiles in 2021 only.
        let only_2021 = with(good.source.replacen(
            "impl Solution {",
            "impl Solution {\n    fn _f() -> [i32; 1] { let a = [1]; a.into_iter().next().map(|x: i32| [x]).unwrap() }",
            1,
        ));
        let editions: Vec<&str> = check(&compiler, &only_2021)
            .iter()
            .filter_map(|p| if let Problem::DoesNotCompile { edition, .. } = p { Some(*edition) } else { None })
            .collect();
        assert_eq!(editions, ["2018"], "array into_iter yields references before 2021");
    }
}
