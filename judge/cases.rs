//! Stored cases: `testcases/<suite>/<name>.in` with its `<name>.out`. A suite is any folder
//! directly under the cases root; a bad file becomes a judge error for that case alone.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::format::{self, Answer};

pub struct Case {
    /// `suite/name`, the id used by `--case` and in reports.
    pub id: String,
    pub input_path: PathBuf,
    pub values: Vec<i32>,
    /// The `.in` text on one line, as it is sent to a child: newlines between tokens
    /// become spaces, which LeetCode's format allows, and nothing is formatted again.
    pub line: String,
    pub expected: Answer,
}

impl Case {
    pub fn new(id: String, input_path: PathBuf, text: &str, values: Vec<i32>, expected: Answer) -> Case {
        let line = text.replace(['\r', '\n'], " ");
        Case { id, input_path, values, line, expected }
    }

    /// The input file relative to the working directory when it lies below it, as a user
    /// would type it.
    pub fn shown_path(&self) -> String {
        let cwd = std::env::current_dir().unwrap_or_default();
        self.input_path.strip_prefix(&cwd).unwrap_or(&self.input_path).display().to_string()
    }
}

/// A case that could not be read: its id and the whole message, with the file's position.
pub struct BadCase {
    pub id: String,
    pub message: String,
}

/// Every `.in`/`.out` pair under `root`, in suite order (samples, edge, then by name) and
/// natural order within a suite (`example-2` before `example-10`).
pub fn load(root: &Path, filter: &[String]) -> Result<(Vec<Case>, Vec<BadCase>), Error> {
    let mut cases = Vec::new();
    let mut bad = Vec::new();
    for suite in suites(root)? {
        let dir = root.join(&suite);
        // A suite that cannot be listed is one judge error; the other suites still run.
        let listed = match pairs(&dir) {
            Ok(listed) => listed,
            Err(e) => {
                bad.push(BadCase { id: suite.clone(), message: e.to_string() });
                continue;
            }
        };
        for (name, files) in listed {
            let id = format!("{suite}/{name}");
            if !filter.is_empty() && !filter.iter().any(|p| matches(p, &suite, &name)) {
                continue;
            }
            match read_pair(&dir, &name, files) {
                Ok((text, values, expected)) => {
                    cases.push(Case::new(id, dir.join(format!("{name}.in")), &text, values, expected))
                }
                Err(message) => bad.push(BadCase { id, message }),
            }
        }
    }
    Ok((cases, bad))
}

/// The suite folders under `root`, samples and edge first.
pub fn suites(root: &Path) -> Result<Vec<String>, Error> {
    let read = fs::read_dir(root).map_err(|e| Error::io(root, e))?;
    let mut names: Vec<String> = read
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .collect();
    let rank = |n: &str| ["samples", "edge"].iter().position(|s| *s == n).unwrap_or(2);
    names.sort_by(|a, b| rank(a).cmp(&rank(b)).then_with(|| natural_cmp(a, b)));
    Ok(names)
}

/// Which of a case's two files exist.
#[derive(Clone, Copy, Default)]
struct Files {
    input: bool,
    output: bool,
}

/// Case names in a suite folder, each with the files it has.
fn pairs(dir: &Path) -> Result<Vec<(String, Files)>, Error> {
    let mut found: BTreeMap<String, Files> = BTreeMap::new();
    for entry in fs::read_dir(dir).map_err(|e| Error::io(dir, e))? {
        let path = entry.map_err(|e| Error::io(dir, e))?.path();
        let (Some(stem), Some(ext)) = (path.file_stem(), path.extension()) else {
            continue;
        };
        let slot = found.entry(stem.to_string_lossy().into_owned()).or_default();
        match ext.to_str() {
            Some("in") => slot.input = true,
            Some("out") => slot.output = true,
            _ => {}
        }
    }
    let mut pairs: Vec<_> = found.into_iter().filter(|(_, f)| f.input || f.output).collect();
    pairs.sort_by(|a, b| natural_cmp(&a.0, &b.0));
    Ok(pairs)
}

/// The input's text and values, and the expected answer.
fn read_pair(dir: &Path, name: &str, files: Files) -> Result<(String, Vec<i32>, Answer), String> {
    let in_path = dir.join(format!("{name}.in"));
    let out_path = dir.join(format!("{name}.out"));
    match (files.input, files.output) {
        (true, false) => return Err(format!("{} has no {}", in_path.display(), out_path.display())),
        (false, true) => return Err(format!("{} has no {}", out_path.display(), in_path.display())),
        _ => {}
    }
    let (text, values) = read_with(&in_path, format::parse_input)?;
    let (_, expected) = read_with(&out_path, format::parse_output)?;
    Ok((text, values, expected))
}

fn read_with<T>(path: &Path, parse: fn(&str) -> Result<T, format::FormatError>) -> Result<(String, T), String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let parsed = parse(&text).map_err(|e| format!("{}:{e}", path.display()))?;
    Ok((text, parsed))
}

/// `--case` matching: the whole id, the suite or the name, with `*` as a wildcard.
pub fn matches(pattern: &str, suite: &str, name: &str) -> bool {
    let id = format!("{suite}/{name}");
    [id.as_str(), suite, name].iter().any(|text| glob(pattern.as_bytes(), text.as_bytes()))
}

fn glob(pattern: &[u8], text: &[u8]) -> bool {
    match pattern.split_first() {
        None => text.is_empty(),
        Some((b'*', rest)) => (0..=text.len()).any(|skip| glob(rest, &text[skip..])),
        Some((c, rest)) => text.first() == Some(c) && glob(rest, &text[1..]),
    }
}

/// Orders digit runs by value, so `case-9` sorts before `case-10`.
pub fn natural_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    let key = |s: &str| {
        let mut parts: Vec<(String, u64)> = Vec::new();
        let mut text = String::new();
        let mut digits = String::new();
        for c in s.chars().chain(std::iter::once('\0')) {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            if !digits.is_empty() {
                parts.push((std::mem::take(&mut text), digits.parse().unwrap_or(u64::MAX)));
                digits.clear();
            }
            text.push(c);
        }
        parts.push((text, 0));
        parts
    };
    key(a).cmp(&key(b)).then_with(|| a.cmp(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natural_order_puts_9_before_10() {
        let mut names = vec!["example-10", "example-9", "example-1", "a"];
        names.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(names, ["a", "example-1", "example-9", "example-10"]);
    }

    #[test]
    fn case_patterns_match_suite_name_id_and_wildcards() {
        assert!(matches("edge", "edge", "tie-1"));
        assert!(matches("tie-1", "edge", "tie-1"));
        assert!(matches("edge/tie-1", "edge", "tie-1"));
        assert!(matches("edge/t*", "edge", "tie-1"));
        assert!(matches("*50000*", "stress", "uniform-50000-1"));
        assert!(!matches("edg", "edge", "tie-1"));
        assert!(!matches("samples", "edge", "tie-1"));
    }
}
