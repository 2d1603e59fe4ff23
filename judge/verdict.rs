//! What a solution got on one case.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Accepted: the right answer in time.
    Ac,
    /// Wrong answer.
    Wa,
    /// Runtime error: a panic, an abort, a stack overflow, a signal.
    Re,
    /// Time limit exceeded; the child was killed.
    Tle,
}

impl Verdict {
    pub const ALL: [Verdict; 4] = [Verdict::Ac, Verdict::Wa, Verdict::Re, Verdict::Tle];

    pub fn code(self) -> &'static str {
        match self {
            Verdict::Ac => "AC",
            Verdict::Wa => "WA",
            Verdict::Re => "RE",
            Verdict::Tle => "TLE",
        }
    }

    pub fn parse(code: &str) -> Option<Verdict> {
        Verdict::ALL.into_iter().find(|v| v.code() == code)
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.code())
    }
}
