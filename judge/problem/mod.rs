//! Everything about LeetCode 1406, Stone Game III, in one place: the constraints, the answer,
//! the text formats, the reference oracle, the generator's shapes and the signature a
//! submission must have. No other module names a number from the statement.

pub mod format;
pub mod generator;
pub mod leetcode;
pub mod oracle;

/// The statement's constraints: 1 <= n <= 50,000 piles, each worth -1000..=1000.
pub const MIN_LEN: usize = 1;
pub const MAX_LEN: usize = 50_000;
pub const MIN_VALUE: i32 = -1000;
pub const MAX_VALUE: i32 = 1000;

/// The method every submission defines on `Solution`: LeetCode calls it with a `Vec<i32>`
/// and wants a `String`.
pub const METHOD: &str = "stone_game_iii";
/// The Rust type of that method as a function pointer, which the driver calls.
pub const FN_TYPE: &str = "fn(Vec<i32>) -> String";
/// A new attempt: what LeetCode's editor holds before anything is written, with `todo!()`
/// for the empty body, so that it compiles and an editor sees a method to fill in.
pub const TEMPLATE: &str = "impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        todo!()
    }
}
";

/// Who wins, as LeetCode prints it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Answer {
    Alice,
    Bob,
    Tie,
}

impl Answer {
    pub const ALL: [Answer; 3] = [Answer::Alice, Answer::Bob, Answer::Tie];

    pub fn as_str(self) -> &'static str {
        match self {
            Answer::Alice => "Alice",
            Answer::Bob => "Bob",
            Answer::Tie => "Tie",
        }
    }

    /// The answer for a final lead of the first player over the second.
    pub fn from_lead(lead: i64) -> Answer {
        match lead {
            l if l > 0 => Answer::Alice,
            l if l < 0 => Answer::Bob,
            _ => Answer::Tie,
        }
    }

    /// Whether a solution's returned string is this answer, byte for byte.
    pub fn is(self, returned: &[u8]) -> bool {
        returned == self.as_str().as_bytes()
    }
}
