//! A disagreement found by `stress` or `verify`, shrunk and printed with the commands that
//! reproduce and keep it.

use crate::check;
use crate::format::{self, Answer};
use crate::oracle;
use crate::registry::Entry;
use crate::shrink;

pub struct Counterexample {
    pub entry: &'static Entry,
    pub original_len: usize,
    pub values: Vec<i32>,
    pub expected: Answer,
    pub got: String,
    pub tried: usize,
    /// Why shrinking ended early, if it did.
    pub stopped: Option<String>,
}

/// Shrinks `values`, on which `entry` answered `got`, while it still disagrees with the oracle.
pub fn shrink(entry: &'static Entry, values: Vec<i32>, got: String) -> Counterexample {
    let original_len = values.len();
    let disagrees = move |v: &[i32]| {
        let got = check::call(entry, v);
        (got != oracle::answer(v).as_str()).then_some(got)
    };
    let stack = check::stack_bytes(original_len);
    let shrunk = shrink::watched(values, got, disagrees, stack, check::STALL);
    let expected = oracle::answer(&shrunk.values);
    Counterexample {
        entry,
        original_len,
        values: shrunk.values,
        expected,
        got: shrunk.got,
        tried: shrunk.tried,
        stopped: shrunk.stopped,
    }
}

/// Inputs up to this long are printed whole, ready to paste into LeetCode's testcase box.
const FULL: usize = 1000;

impl Counterexample {
    fn input_text(&self) -> String {
        if self.values.len() <= FULL {
            format::write_input(&self.values).trim_end().to_string()
        } else {
            format::abbreviate(&self.values)
        }
    }

    /// The report: what disagreed, the shrunk input, both answers and how to reproduce it.
    pub fn render(&self, found: &str, rerun: &str) -> String {
        let mut lines = vec![
            format!("{} disagrees with the oracle {found}", self.entry.name),
            format!(
                "shrunk from {} to {} value{} ({} candidates tried{}):",
                self.original_len,
                self.values.len(),
                if self.values.len() == 1 { "" } else { "s" },
                self.tried,
                self.stopped.as_ref().map_or(String::new(), |why| format!("; {why}"))
            ),
            format!("  input     {}", self.input_text()),
            format!("  oracle    \"{}\"", self.expected.as_str()),
            format!("  got       {:?}", self.got),
            format!("  rerun     {rerun}"),
        ];
        if self.values.len() <= FULL {
            lines.push(format!(
                "  try it    cargo run --release -- run --solution {} '{}'",
                self.entry.name,
                self.input_text()
            ));
        }
        lines.join("\n") + "\n"
    }
}
