//! Every solution compiled into the judge. The build script lists `solutions/*.rs` and
//! `solutions/wrong/*.rs`; nothing else in the crate names a solution file.

use crate::error::Error;
use crate::verdict::Verdict;

/// One solution: its name, its file, its function and its text as pasted into LeetCode.
pub struct Entry {
    /// `four_scalars`, or `wrong/greedy` for a deliberately wrong one.
    pub name: &'static str,
    /// The path under the crate root.
    pub file: &'static str,
    pub run: fn(Vec<i32>) -> String,
    pub source: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/registry.rs"));

impl Entry {
    pub fn is_wrong(&self) -> bool {
        self.name.starts_with("wrong/")
    }

    /// The verdict this solution must get: AC for a strategy, the `// expect:` tag on the
    /// first line for a wrong one.
    pub fn expected(&self) -> Result<Verdict, Error> {
        if !self.is_wrong() {
            return Ok(Verdict::Ac);
        }
        let first = self.source.lines().next().unwrap_or("");
        let bad = |message: String| Error::BadTag { file: self.file, message };
        let tag = first
            .strip_prefix("// expect:")
            .ok_or_else(|| bad(format!("first line must be '// expect: WA|RE|TLE', found {first:?}")))?
            .trim();
        match Verdict::parse(tag) {
            Some(Verdict::Ac) | None => Err(bad(format!("unknown expected verdict {tag:?}; use WA, RE or TLE"))),
            Some(verdict) => Ok(verdict),
        }
    }
}

/// The correct strategies only.
pub fn strategies() -> impl Iterator<Item = &'static Entry> {
    ENTRIES.iter().filter(|e| !e.is_wrong())
}

pub fn find(name: &str) -> Result<&'static Entry, Error> {
    ENTRIES.iter().find(|e| e.name == name).ok_or_else(|| Error::UnknownSolution {
        name: name.to_string(),
        known: ENTRIES.iter().map(|e| e.name).collect(),
    })
}

/// The named solutions, or the strategies when no name is given: what `run`, `stress`,
/// `verify` and `bench` check by default.
pub fn named_or_strategies(names: &[String]) -> Result<Vec<&'static Entry>, Error> {
    if names.is_empty() {
        Ok(strategies().collect())
    } else {
        select(names)
    }
}

/// The named solutions, or every one when no name is given.
pub fn select(names: &[String]) -> Result<Vec<&'static Entry>, Error> {
    if names.is_empty() {
        return Ok(ENTRIES.iter().collect());
    }
    let mut chosen: Vec<&'static Entry> = Vec::new();
    for name in names {
        let entry = find(name)?;
        // Naming a solution twice judges it once.
        if !chosen.iter().any(|e| e.name == entry.name) {
            chosen.push(entry);
        }
    }
    Ok(chosen)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_four_strategies_are_registered() {
        let names: Vec<_> = strategies().map(|e| e.name).collect();
        for wanted in ["dp_array", "four_scalars", "recursive_memo", "rolling_mod4"] {
            assert!(names.contains(&wanted), "{wanted} missing from {names:?}");
        }
    }

    #[test]
    fn every_wrong_solution_has_a_valid_tag() {
        for entry in ENTRIES.iter().filter(|e| e.is_wrong()) {
            let verdict = entry.expected().unwrap_or_else(|e| panic!("{e}"));
            assert_ne!(verdict, Verdict::Ac);
        }
    }

    /// Calls a solution the way the judge does: on a thread with the judge's default stack.
    fn call(entry: &Entry, values: &[i32]) -> String {
        let run = entry.run;
        let input = values.to_vec();
        std::thread::Builder::new()
            .stack_size(crate::runner::DEFAULT_STACK_MB << 20)
            .spawn(move || run(input))
            .unwrap()
            .join()
            .unwrap_or_else(|_| panic!("{} panicked", entry.name))
    }

    fn edge_table() -> Vec<(&'static str, Vec<i32>)> {
        let n = crate::format::MAX_LEN;
        let mut rng = crate::generator::Rng::new(1406);
        vec![
            ("example 1", vec![1, 2, 3, 7]),
            ("example 2", vec![1, 2, 3, -9]),
            ("example 3", vec![1, 2, 3, 6]),
            ("example 4", vec![1, 2, 3, -1, -2, -3, 7]),
            ("example 5", vec![-1, -2, -3]),
            ("n = 1 negative", vec![-4]),
            ("n = 1 zero", vec![0]),
            ("n = 1 positive", vec![4]),
            ("n = 2", vec![-1, 5]),
            ("all negative", vec![-5, -1, -7, -2, -9, -3]),
            ("all zero", vec![0; 10]),
            ("tie", vec![0, 0, 3, 0, 0, 3]),
            ("tie at n = 50,000", vec![-1000; n]),
            ("values at ±1000", vec![1000, -1000, -1000, 1000, 1000, -1000, 1000]),
            ("n = 50,000 all 1000", vec![1000; n]),
            ("n = 50,000 all zero", vec![0; n]),
            ("n = 50,000 lead of 25,000,000", [1000, 1000, -1000, -1000].repeat(n / 4)),
            ("n = 50,000 uniform", (0..n).map(|_| rng.range(-1000, 1000)).collect()),
        ]
    }

    #[test]
    fn every_strategy_agrees_with_the_oracle_on_the_examples_and_edges() {
        let table = edge_table();
        let mut seen = std::collections::HashSet::new();
        for entry in strategies() {
            for (label, values) in &table {
                let expected = crate::oracle::answer(values).as_str();
                seen.insert(expected);
                assert_eq!(call(entry, values), expected, "{} on {label}", entry.name);
            }
        }
        // The table reaches every answer, so no strategy can pass by always saying one thing.
        assert_eq!(seen.len(), 3);
    }

    #[test]
    fn unknown_names_are_an_error_that_lists_the_known_ones() {
        let message = find("nope").err().unwrap().to_string();
        assert!(message.contains("\"nope\"") && message.contains("four_scalars"), "{message}");
    }
}
