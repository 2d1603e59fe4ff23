//! Will a file paste into LeetCode as it is? The compiler decides: the file is compiled the way
//! LeetCode wraps it (`pub struct Solution;`, the file, LeetCode's own call of the method), in
//! LeetCode's edition, and clippy names every standard library item newer than LeetCode's Rust.
//! Text is read only after the compiler refused, to say in plain words what its error most
//! likely means.

use super::submissions::Submission;
use crate::exec::compile::Compiler;
use crate::exec::diagnose::{CompileError, Newer};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// It does not compile as LeetCode compiles it.
    DoesNotCompile { error: CompileError, likely: Option<Likely> },
    /// It uses standard library items that LeetCode's Rust does not have yet.
    TooNew { items: Vec<Newer> },
    /// The compiler itself could not be run.
    Unchecked { error: String },
}

/// What a compile error most likely means for a LeetCode file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Likely {
    /// It declares `struct Solution`, which LeetCode declares before the file.
    DeclaresSolution,
    /// It has no method `stone_game_iii` on `Solution`.
    NoMethod,
    /// The method takes or returns something LeetCode's call does not fit.
    Signature,
}

/// What the check found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    pub problems: Vec<Problem>,
    /// False when the toolchain has no `clippy-driver`: the Rust version was not checked.
    pub version_checked: bool,
}

/// Every reason `submission` would not paste into LeetCode as it is.
pub fn check(compiler: &Compiler, submission: &Submission) -> Checked {
    let checked = match compiler.check(&submission.unit()) {
        Ok(checked) => checked,
        Err(e) => {
            return Checked { problems: vec![Problem::Unchecked { error: e.to_string() }], version_checked: false }
        }
    };
    let mut problems = Vec::new();
    if let Some(error) = checked.error {
        let likely = likely(&error);
        problems.push(Problem::DoesNotCompile { error, likely });
    }
    if let Some(items) = checked.newer.as_ref().filter(|items| !items.is_empty()) {
        problems.push(Problem::TooNew { items: items.clone() });
    }
    Checked { problems, version_checked: checked.newer.is_some() }
}

/// Reads rustc's error code for what it means here.
fn likely(error: &CompileError) -> Option<Likely> {
    let code = |c: &str| error.headline.starts_with(&format!("error[{c}]"));
    match () {
        _ if code("E0428") && error.headline.contains("`Solution`") => Some(Likely::DeclaresSolution),
        _ if error.signature && (code("E0599") || error.headline.contains(crate::problem::METHOD)) => {
            Some(Likely::NoMethod)
        }
        _ if error.signature => Some(Likely::Signature),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::compile::Settings;
    use crate::judging::submissions::Expect;
    use crate::problem::leetcode;

    /// The files under `judge/tests/paste/`, each with the verdict LeetCode gives it on its first
    /// line: `// paste: ready`, or `// paste: refused, <what stops it>`.
    fn clients() -> Vec<(String, String, String)> {
        let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/judge/tests/paste");
        let mut files: Vec<_> = std::fs::read_dir(folder).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        files
            .into_iter()
            .map(|path| {
                let source = std::fs::read_to_string(&path).unwrap();
                let tag = source.lines().next().unwrap().strip_prefix("// paste: ").unwrap().to_string();
                (path.file_name().unwrap().to_string_lossy().into_owned(), tag, source)
            })
            .collect()
    }

    fn compiler(rust_version: &str) -> Compiler {
        let cache = concat!(env!("CARGO_MANIFEST_DIR"), "/target/judge");
        let settings = Settings {
            edition: leetcode::EDITION,
            rust_version: rust_version.to_string(),
            time_limit: std::time::Duration::from_secs(20),
        };
        Compiler::new(std::path::Path::new(cache), settings, crate::exec::sandbox::probe().is_ok())
            .unwrap_or_else(|e| panic!("{e:?}"))
    }

    fn submission(name: &str, source: &str) -> Submission {
        Submission {
            name: name.to_string(),
            shown: format!("solutions/{name}"),
            source: source.to_string(),
            expect: Expect::Accepted,
            stray_tag: None,
        }
    }

    /// What the check says, in the words of the files' tags.
    fn said(checked: &Checked) -> String {
        match checked.problems.first() {
            None => "ready".to_string(),
            Some(Problem::DoesNotCompile { likely: Some(Likely::DeclaresSolution), .. }) => {
                "refused, declares Solution".to_string()
            }
            Some(Problem::DoesNotCompile { likely: Some(Likely::NoMethod), .. }) => "refused, no method".to_string(),
            Some(Problem::DoesNotCompile { likely: Some(Likely::Signature), .. }) => "refused, signature".to_string(),
            Some(Problem::DoesNotCompile { .. }) => "refused, does not compile".to_string(),
            Some(Problem::TooNew { items }) => {
                let names: Vec<String> = items.iter().map(|n| format!("{} {}", n.item, n.since)).collect();
                format!("refused, too new: {}", names.join(", "))
            }
            Some(Problem::Unchecked { error }) => format!("unchecked: {error}"),
        }
    }

    #[test]
    fn each_client_shape_gets_the_verdict_leetcode_gives_it() {
        let compiler = compiler(leetcode::RUST_VERSION);
        let clients = clients();
        assert!(clients.len() >= 12, "{clients:?}");
        for (name, tag, source) in clients {
            let checked = check(&compiler, &submission(&name, &source));
            assert!(checked.version_checked, "clippy-driver is part of the toolchain here");
            assert_eq!(said(&checked), tag, "{name}: {checked:?}");
        }
    }

    #[test]
    fn a_newer_api_is_refused_under_an_older_rust_only() {
        let source = "impl Solution {\n    pub fn stone_game_iii(v: Vec<i32>) -> String {\n        \
                      let m = i32::midpoint(v[0], 0);\n        format!(\"{m}\")\n    }\n}\n";
        let older = check(&compiler("1.85"), &submission("midpoint.rs", source));
        assert_eq!(said(&older), "refused, too new: i32::midpoint 1.87.0");
        let Some(Problem::TooNew { items }) = older.problems.first() else { panic!("{older:?}") };
        assert_eq!((items[0].place.line, items[0].place.column), (3, 17));
        assert_eq!(said(&check(&compiler("1.95"), &submission("midpoint.rs", source))), "ready");
    }
}
