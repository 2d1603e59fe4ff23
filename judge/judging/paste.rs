//! Will a file paste into LeetCode as it is? The compiler decides: the file is built exactly
//! as the judge builds it, LeetCode's way (the file from line 1, then `pub struct Solution;`
//! and LeetCode's own call of the method), in LeetCode's edition, by LeetCode's own Rust where
//! rustup has it; so paste and the judge never disagree, the compile limits included. Under
//! another Rust, clippy names every standard library item newer than LeetCode's. Text is read
//! only after the compiler refused, to say in plain words what its error most likely means.
//! A file that compiles is judged on the stored cases, so paste says what the judge would.

use super::engine::{self, Event, Plan};
use super::submissions::Submission;
use super::verdict::Verdict;
use super::workbench::Workbench;
use crate::exec::compile::Compiler;
use crate::exec::diagnose::{CompileError, Newer};
use crate::exec::limits::Limits;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// It does not compile as LeetCode compiles it; the error says what it most likely means.
    DoesNotCompile { error: CompileError },
    /// It uses standard library items that LeetCode's Rust does not have yet.
    TooNew { items: Vec<Newer> },
    /// The compiler itself could not be run, or could not write the build.
    Unchecked { error: String },
}

/// Every reason `submission` would not paste into LeetCode as it is.
pub fn check(compiler: &Compiler, submission: &Submission) -> Vec<Problem> {
    let unit = submission.unit();
    let unchecked = |e: std::io::Error| vec![Problem::Unchecked { error: e.to_string() }];
    let mut problems = Vec::new();
    match compiler.build(&unit) {
        Err(e) => return unchecked(e),
        Ok(Err(error)) => problems.push(Problem::DoesNotCompile { error: super::likely::explain(error, submission) }),
        Ok(Ok(_)) => match compiler.newer(&unit) {
            Err(e) => return unchecked(e),
            Ok(Some(items)) if !items.is_empty() => problems.push(Problem::TooNew { items }),
            Ok(_) => {}
        },
    }
    problems
}

/// How a file that compiles did on the stored cases: what the judge would say of it before
/// LeetCode does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stored {
    /// The stored testcases there are, each line of a group counted, as the judge counts them.
    pub cases: usize,
    /// Those it was judged on (a slow one stops after `engine::TLE_BUDGET` time limits).
    pub judged: usize,
    /// Those it failed.
    pub failed: usize,
    /// Each case it failed (a file, or a group as one), in the suite's order, with its verdict.
    pub failures: Vec<(String, Verdict)>,
    /// Whether every testcase was judged and passed: AC, the only way it is ready.
    pub accepted: bool,
}

/// Judges the workbench's one submission on its stored cases, as the judge does an attempt;
/// `on` hears each event (for a progress line).
pub fn on_stored_cases(workbench: &Workbench, limits: Limits, on: &mut dyn FnMut(&Event)) -> Stored {
    let plan = Plan {
        submissions: &workbench.submissions,
        cases: &workbench.cases,
        limits,
        jobs: 1,
        fail_fast: false,
        all_failures: false,
        every_case: false,
        stop_after: 1,
        alone: true,
    };
    let judged = engine::run(workbench, &plan, on);
    let accepted = judged.cards.first().and_then(super::report::first_failure) == Some(Verdict::Ac);
    let results = judged.cards.first().map_or(&[][..], |card| &card.results[..]);
    let failures = (results.iter().zip(&workbench.cases))
        .filter_map(|(result, case)| Some((case.id.clone(), result.as_ref()?.verdict?)))
        .filter(|(_, verdict)| *verdict != Verdict::Ac)
        .collect();
    let judged = results.iter().flatten().map(|r| r.judged()).sum();
    let failed = results.iter().flatten().map(|r| r.judged() - r.passed()).sum();
    Stored { cases: workbench.cases.iter().map(|c| c.tests.len()).sum(), judged, failed, failures, accepted }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::compile::Checks;
    use crate::exec::diagnose::Likely;
    use crate::problem::leetcode;

    /// The files under `judge/tests/paste/`, each with the answer LeetCode gives it on its first
    /// line, `// paste: ready` or `// paste: refused, <what stops it>`; where LeetCode's own
    /// Rust and a newer one with clippy's lint answer differently, on two lines,
    /// `// paste by LeetCode's Rust: …` and `// paste by a newer Rust: …`.
    fn fixtures(own: bool) -> Vec<(String, String, String)> {
        let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/judge/tests/paste");
        let mut files: Vec<_> = std::fs::read_dir(folder).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        let by = if own { "// paste by LeetCode's Rust: " } else { "// paste by a newer Rust: " };
        files
            .into_iter()
            .map(|path| {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                let source = std::fs::read_to_string(&path).unwrap();
                let tag =
                    source.lines().take(2).find_map(|l| l.strip_prefix("// paste: ").or_else(|| l.strip_prefix(by)));
                let tag = tag.unwrap_or_else(|| panic!("{name}: no '// paste: ' line, nor '{by}'")).to_string();
                (name, tag, source)
            })
            .collect()
    }

    /// What the check says, in the words of the files' tags.
    fn said(problems: &[Problem]) -> String {
        match problems.first() {
            None => "ready".to_string(),
            Some(Problem::DoesNotCompile { error, .. }) if error.headline.starts_with("binary size limit") => {
                "refused, binary size limit".to_string()
            }
            Some(Problem::DoesNotCompile { error }) if error.headline.contains(" is stable since Rust ") => {
                let item = error.headline.split('`').nth(1).unwrap_or("");
                let since = error.headline.split(" is stable since Rust ").nth(1).unwrap_or("");
                format!("refused, too new: {item} {}", since.split(',').next().unwrap_or(""))
            }
            Some(Problem::DoesNotCompile { error }) if error.likely.is_empty() => {
                "refused, does not compile".to_string()
            }
            Some(Problem::DoesNotCompile { error }) => {
                let words: Vec<&str> = error
                    .likely
                    .iter()
                    .map(|(l, _)| match l {
                        Likely::DeclaresSolution => "declares Solution",
                        Likely::HasMain => "has main",
                        Likely::Empty => "empty",
                        Likely::NoImpl => "no impl",
                        Likely::NoMethod => "no method",
                        Likely::Signature => "signature",
                    })
                    .collect();
                format!("refused, {}", words.join(", "))
            }
            Some(Problem::TooNew { items }) => {
                let names: Vec<String> = items.iter().map(|n| format!("{} {}", n.item, n.since)).collect();
                format!("refused, too new: {}", names.join(", "))
            }
            Some(Problem::Unchecked { error }) => format!("unchecked: {error}"),
        }
    }

    /// Every line number a diagnostic names, in `--> file:L:C` and in a snippet's gutter.
    fn line_numbers(diagnostic: &str) -> Vec<usize> {
        let mut numbers = Vec::new();
        for line in diagnostic.lines() {
            let trimmed = line.trim_start();
            if let Some(place) = trimmed.strip_prefix("--> ").or_else(|| trimmed.strip_prefix("::: ")) {
                numbers.extend(place.rsplit(':').nth(1).and_then(|n| n.parse::<usize>().ok()));
            } else if let Some((number, rest)) = trimmed.split_once(' ') {
                let marked = rest.trim_start().starts_with(['|', '+', '-', '~']);
                numbers.extend(number.parse::<usize>().ok().filter(|_| marked));
            }
        }
        numbers
    }

    /// Each fixture's answer by `compiler`; and for a file that does not compile, no line of
    /// LeetCode's items in what the user reads: every line number inside the file, its place
    /// in the file, nothing but the file's own text quoted.
    fn check_fixtures(compiler: &Compiler, own: bool) {
        let fixtures = fixtures(own);
        assert!(fixtures.len() >= 20, "{fixtures:?}");
        for (name, tag, source) in fixtures {
            let problems = check(compiler, &Submission::attempt(&name, &source));
            assert_eq!(said(&problems), tag, "{name}: {problems:?}");
            let Some(Problem::DoesNotCompile { error }) = problems.first() else { continue };
            let lines = source.lines().count();
            let numbers = line_numbers(&error.diagnostic);
            assert!(
                numbers.iter().all(|&n| (1..=lines).contains(&n)),
                "{name}: {numbers:?} past line {lines}:\n{}",
                error.diagnostic
            );
            assert!(error.place.as_ref().is_none_or(|p| (1..=lines as u32).contains(&p.line)), "{name}: {error:?}");
            // A help's snippet shows the file as the help would change it; every other quotes it.
            let mut in_help = false;
            for line in error.diagnostic.lines() {
                in_help = (in_help || line.starts_with("help")) && !line.starts_with("error");
                let Some((number, text)) = line.split_once(" | ") else { continue };
                if in_help || number.trim().parse::<usize>().is_err() {
                    continue;
                }
                let text = text.trim_start_matches(['|', '/', ' ']).trim();
                assert!(source.contains(text), "{name}: quotes a line that is not the file's: {text:?}");
            }
        }
    }

    #[test]
    fn each_fixture_gets_the_answer_leetcodes_own_rust_gives_it() {
        let compiler = Compiler::for_tests(leetcode::RUST_VERSION, true);
        if compiler.checks() != Checks::Everything {
            eprintln!(
                "SKIPPED each_fixture_gets_the_answer_leetcodes_own_rust_gives_it: LeetCode's Rust {} is not installed here ({} installs it; .ci/run does)",
                leetcode::RUST_VERSION,
                compiler.about().install
            );
            return;
        }
        check_fixtures(&compiler, true);
    }

    #[test]
    fn each_fixture_gets_the_answer_a_newer_rust_with_clippy_gives_it() {
        let compiler = Compiler::for_tests(leetcode::RUST_VERSION, false);
        assert_eq!(compiler.checks(), Checks::LibraryItems, "the toolchain cargo uses is newer and has clippy-driver");
        check_fixtures(&compiler, false);
    }

    #[test]
    fn a_file_with_both_of_leetcodes_items_gets_both_errors_at_its_own_lines() {
        let source = "pub struct Solution;\nimpl Solution {\n    pub fn stone_game_iii(v: Vec<i32>) -> String {\n        v.len().to_string()\n    }\n}\nfn main() {}\n";
        for own in [true, false] {
            let problems =
                check(&Compiler::for_tests(leetcode::RUST_VERSION, own), &Submission::attempt("both.rs", source));
            let Some(Problem::DoesNotCompile { error }) = problems.first() else { panic!("{problems:?}") };
            let likely: Vec<(Likely, u32)> = error.likely.iter().map(|(l, place)| (*l, place.line)).collect();
            assert_eq!(likely, [(Likely::DeclaresSolution, 1), (Likely::HasMain, 7)]);
            let errors: Vec<&str> = error.diagnostic.lines().filter(|l| l.starts_with("error")).collect();
            assert_eq!(errors.len(), 2, "{}", error.diagnostic);
            let places: Vec<&str> = error.diagnostic.lines().filter(|l| l.trim_start().starts_with("-->")).collect();
            assert_eq!(places.len(), 2, "{}", error.diagnostic);
            assert!(
                places[0].ends_with("solutions/both.rs:1:1") && places[1].ends_with("solutions/both.rs:7:1"),
                "{places:?}"
            );
            assert_eq!(
                error.diagnostic.matches("rustc --explain").count(),
                1,
                "one summary, naming E0428 only: {}",
                error.diagnostic
            );
            assert!(error.diagnostic.contains("`rustc --explain E0428`") && !error.diagnostic.contains("E0599"));
        }
    }

    #[test]
    fn a_newer_api_is_refused_under_an_older_rust_only() {
        let source = "impl Solution {\n    pub fn stone_game_iii(v: Vec<i32>) -> String {\n        \
                      let m = i32::midpoint(v[0], 0);\n        format!(\"{m}\")\n    }\n}\n";
        let older = check(&Compiler::for_tests("1.85", false), &Submission::attempt("midpoint.rs", source));
        assert_eq!(said(&older), "refused, too new: i32::midpoint 1.87");
        let Some(Problem::DoesNotCompile { error }) = older.first() else { panic!("{older:?}") };
        let place = error.place.as_ref().map(|p| (p.line, p.column));
        assert_eq!(place, Some((3, 17)), "{error:?}");
        assert_eq!(
            said(&check(&Compiler::for_tests("1.95", false), &Submission::attempt("midpoint.rs", source))),
            "ready"
        );
    }
}
