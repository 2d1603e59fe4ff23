//! The manifest of a generated suite: one line per case, `<name>  judge gen <arguments>`,
//! so every stored stress case can be made again byte for byte.

use crate::cli::{self, Command};
use crate::error::Error;
use crate::generator::{self, Shape};

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

/// Parses the manifest text; `#` starts a comment line. Errors name the line.
pub fn parse(text: &str) -> Result<Vec<Entry>, Error> {
    let mut entries = Vec::new();
    for (number, line) in text.lines().enumerate().map(|(i, l)| (i + 1, l.trim())) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |what: String| Error::Message(format!("MANIFEST:{number}: {what}"));
        let mut words = line.split_whitespace();
        let name = words.next().unwrap_or_default().to_string();
        if words.next() != Some("judge") {
            return Err(bad(format!("expected '<name>  judge gen …', found {line:?}")));
        }
        let args = cli::parse_from(words.map(String::from)).map_err(|e| bad(e.to_string()))?;
        match (args.command, args.shapes.as_slice(), args.len, args.seed) {
            (Command::Gen, [shape], Some(len), Some(seed)) => entries.push(Entry { name, shape: *shape, len, seed }),
            _ => return Err(bad(format!("expected 'judge gen --shape S --len N --seed S', found {line:?}"))),
        }
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::path::Path;

    use super::*;
    use crate::format;
    use crate::oracle;

    const CASES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/testcases");

    #[test]
    fn every_stress_case_is_exactly_what_its_command_makes() {
        let dir = Path::new(CASES).join("stress");
        let entries = parse(&fs::read_to_string(dir.join("MANIFEST")).unwrap()).unwrap();
        assert!(entries.len() >= 20, "only {} stress cases", entries.len());
        assert!(entries.iter().filter(|e| e.len == 50_000).count() >= 10);
        for entry in &entries {
            let stored = fs::read_to_string(dir.join(format!("{}.in", entry.name))).unwrap();
            assert!(stored == format::write_input(&entry.values()), "{} differs from its command", entry.name);
        }
        // And nothing in the folder escapes the manifest.
        let inputs =
            fs::read_dir(&dir).unwrap().filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "in"));
        assert_eq!(inputs.count(), entries.len());
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
                let output = fs::read_to_string(input.with_extension("out")).unwrap();
                let stored = format::parse_output(&output).unwrap();
                assert_eq!(stored, oracle::answer(&values), "{}", input.display());
                checked += 1;
            }
        }
        assert!(checked >= 50, "only {checked} stored cases");
    }

    #[test]
    fn bad_lines_are_errors_that_name_the_line() {
        let text = "# comment\nok  judge gen --shape zeros --len 3 --seed 1\nbad  judge gen --shape zeros\n";
        assert_eq!(parse(text).err().unwrap().to_string().split(':').nth(1), Some("3"));
        assert_eq!(
            parse("x judge gen --shape round --len 1 --seed 1").err().map(|e| e.to_string().contains("round")),
            Some(true)
        );
        assert_eq!(parse(&text.lines().take(2).collect::<Vec<_>>().join("\n")).unwrap()[0].values(), [0, 0, 0]);
    }
}
