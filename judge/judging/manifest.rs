//! The manifest of a generated suite: one line per case, `<name>  judge gen --shape SHAPE
//! --len N --seed SEED`, or `<name>  judge gen --max-len N --values LOW..=HIGH` for a group of
//! every array of a range, one a line, so every stored generated case can be made again byte
//! for byte.

use crate::problem::generator::{self, Every, Shape};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub name: String,
    pub made: Made,
}

/// How `judge gen` makes a case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Made {
    Shape { shape: Shape, len: usize, seed: u64 },
    Every(Every),
}

impl Entry {
    /// Its testcases: one, or every array of the range.
    pub fn testcases(&self) -> Vec<Vec<i32>> {
        match self.made {
            Made::Shape { shape, len, seed } => vec![generator::generate(shape, len, seed)],
            Made::Every(every) => every.all().unwrap_or_default(),
        }
    }
}

/// The most arrays a manifest's range may hold: a stored file is read only up to
/// `cases::CASE_FILE_LIMIT`, and a group is one batch.
pub const EVERY_MOST: u64 = 100_000;

/// A line that is not `<name>  judge gen --shape SHAPE --len N --seed SEED` or
/// `<name>  judge gen --max-len N --values LOW..=HIGH`.
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
    let (mut shape, mut len, mut seed, mut max_len, mut values) = (None, None, None, None, None);
    for pair in rest.chunks(2) {
        match pair {
            ["--shape", value] => shape = Some(Shape::parse(value)?),
            ["--len", value] => len = Some(value.parse().ok()?),
            ["--seed", value] => seed = Some(value.parse().ok()?),
            ["--max-len", value] => max_len = Some(value.parse().ok()?),
            ["--values", value] => {
                let (low, high) = value.split_once("..=")?;
                values = Some((low.parse().ok()?, high.parse().ok()?));
            }
            _ => return None,
        }
    }
    let made = match (shape, len, seed, max_len, values) {
        (Some(shape), Some(len), Some(seed), None, None) => Made::Shape { shape, len, seed },
        (None, None, None, Some(max_len), Some((low, high))) => {
            let every = Every { max_len, low, high };
            let fits = every.count().is_some_and(|n| n <= EVERY_MOST) && low <= high;
            fits.then_some(Made::Every(every))?
        }
        _ => return None,
    };
    Some(Entry { name: name.to_string(), made })
}

/// The line for an entry, as `parse` reads it.
#[cfg(test)]
pub fn line(entry: &Entry) -> String {
    match entry.made {
        Made::Shape { shape, len, seed } => {
            format!("{}  judge gen --shape {} --len {len} --seed {seed}", entry.name, shape.name())
        }
        Made::Every(e) => format!("{}  judge gen --max-len {} --values {}..={}", entry.name, e.max_len, e.low, e.high),
    }
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
                assert!(stored == format::write_inputs(&entry.testcases()), "{} differs from its line", entry.name);
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
        let (mut checked, mut groups) = (0, 0);
        for suite in fs::read_dir(CASES).unwrap() {
            let suite = suite.unwrap().path();
            for file in fs::read_dir(&suite).unwrap() {
                let input = file.unwrap().path();
                if input.extension().is_none_or(|x| x != "in") {
                    continue;
                }
                let tests = crate::judging::cases::read_pair(&input, &input.with_extension("out")).unwrap();
                for test in &tests {
                    assert_eq!(test.expected, oracle::answer(&test.values), "{}:{}", input.display(), test.line);
                    checked += 1;
                }
                groups += usize::from(tests.len() > 1);
            }
        }
        assert!(checked >= 50 && groups >= 1, "only {checked} stored testcases, {groups} groups");
    }

    #[test]
    fn lines_read_back_and_bad_lines_are_named() {
        let entry = Entry { name: "z3".into(), made: Made::Shape { shape: Shape::Zeros, len: 3, seed: 1 } };
        assert_eq!(parse(&line(&entry)).unwrap(), std::slice::from_ref(&entry));
        assert_eq!(entry.testcases(), [[0, 0, 0]]);
        let every = Entry { name: "all".into(), made: Made::Every(Every { max_len: 2, low: -1, high: 0 }) };
        assert_eq!(parse(&line(&every)).unwrap(), std::slice::from_ref(&every));
        assert_eq!(format::write_inputs(&every.testcases()), "[-1]\n[0]\n[-1,-1]\n[-1,0]\n[0,-1]\n[0,0]\n");
        assert!(parse("x judge gen --max-len 9 --values -3..=3").is_err(), "past EVERY_MOST");
        assert!(parse("x judge gen --max-len 2 --values -3..=3 --seed 1").is_err());
        let text = "# comment\nok  judge gen --shape zeros --len 3 --seed 1\nbad  judge gen --shape zeros\n";
        assert_eq!(parse(text).unwrap_err().line, 3);
        assert!(parse("x judge gen --shape round --len 1 --seed 1").is_err());
        assert!(parse("x judge gen --shape zeros --len 1 --seed 1 --extra").is_err());
    }
}
