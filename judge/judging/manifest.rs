//! The manifest of a generated suite: one line per case, `<name>  judge gen --shape SHAPE
//! --len N --seed SEED`, so every stored stress case can be made again byte for byte.

use crate::problem::generator::{self, Shape};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub name: String,
    pub shape: Shape,
    pub len: usize,
    pub seed: u64,
}

impl Entry {
    pub fn values(&self) -> Vec<i32> {
        generator::generate(self.shape, self.len, self.seed)
    }
}

/// A line that is not `<name>  judge gen --shape SHAPE --len N --seed SEED`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManifestError {
    pub line: usize,
    pub text: String,
}

/// Parses the manifest; `#` starts a comment line.
pub fn parse(text: &str) -> Result<Vec<Entry>, ManifestError> {
    let mut entries = Vec::new();
    for (number, line) in text.lines().enumerate().map(|(i, l)| (i + 1, l.trim())) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let entry = parse_line(line).ok_or_else(|| ManifestError { line: number, text: line.to_string() })?;
        entries.push(entry);
    }
    Ok(entries)
}

fn parse_line(line: &str) -> Option<Entry> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let [name, "judge", "gen", rest @ ..] = words.as_slice() else { return None };
    let (mut shape, mut len, mut seed) = (None, None, None);
    for pair in rest.chunks(2) {
        match pair {
            ["--shape", value] => shape = Shape::parse(value),
            ["--len", value] => len = value.parse().ok(),
            ["--seed", value] => seed = value.parse().ok(),
            _ => return None,
        }
    }
    Some(Entry { name: name.to_string(), shape: shape?, len: len?, seed: seed? })
}

/// The line for an entry, as `parse` reads it.
#[cfg(test)]
pub fn line(entry: &Entry) -> String {
    format!("{}  judge gen --shape {} --len {} --seed {}", entry.name, entry.shape.name(), entry.len, entry.seed)
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;
    use crate::problem::{format, oracle};

    const CASES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/testcases");

    #[test]
    fn every_generated_case_is_exactly_what_its_line_makes() {
        let mut checked = 0;
        for suite in fs::read_dir(CASES).unwrap() {
            let dir = suite.unwrap().path();
            let Ok(text) = fs::read_to_string(dir.join("MANIFEST")) else { continue };
            let entries = parse(&text).unwrap();
            for entry in &entries {
                let stored = fs::read_to_string(dir.join(format!("{}.in", entry.name))).unwrap();
                assert!(stored == format::write_input(&entry.values()), "{} differs from its line", entry.name);
                checked += 1;
            }
            // And nothing in the folder escapes the manifest.
            let inputs = fs::read_dir(&dir)
                .unwrap()
                .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "in"));
            assert_eq!(inputs.count(), entries.len(), "{}", dir.display());
        }
        assert!(checked >= 20, "only {checked} generated cases");
    }

    #[test]
    fn the_oracle_agrees_with_every_stored_output_in_every_suite() {
        let mut checked = 0;
        for suite in fs::read_dir(CASES).unwrap() {
            let suite = suite.unwrap().path();
            for file in fs::read_dir(&suite).unwrap() {
                let input = file.unwrap().path();
                if input.extension().is_none_or(|x| x != "in") {
                    continue;
                }
                let values = format::parse_input(&fs::read_to_string(&input).unwrap()).unwrap();
                let stored = format::parse_output(&fs::read_to_string(input.with_extension("out")).unwrap()).unwrap();
                assert_eq!(stored, oracle::answer(&values), "{}", input.display());
                checked += 1;
            }
        }
        assert!(checked >= 50, "only {checked} stored cases");
    }

    #[test]
    fn lines_read_back_and_bad_lines_are_named() {
        let entry = Entry { name: "z3".into(), shape: Shape::Zeros, len: 3, seed: 1 };
        assert_eq!(parse(&line(&entry)).unwrap(), std::slice::from_ref(&entry));
        assert_eq!(entry.values(), [0, 0, 0]);
        let text = "# comment\nok  judge gen --shape zeros --len 3 --seed 1\nbad  judge gen --shape zeros\n";
        assert_eq!(parse(text).unwrap_err().line, 3);
        assert!(parse("x judge gen --shape round --len 1 --seed 1").is_err());
        assert!(parse("x judge gen --shape zeros --len 1 --seed 1 --extra").is_err());
    }
}
