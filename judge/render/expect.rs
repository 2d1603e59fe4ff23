//! What a submission must get, and whether it got it, in the words of every report.

use crate::judging::report::Met;
use crate::judging::submissions::Expect;

pub fn expect(expect: Expect) -> String {
    match expect {
        Expect::Accepted => "AC".to_string(),
        Expect::Verdict(verdict) => verdict.code().to_string(),
        Expect::Rejected => "not AC".to_string(),
    }
}

pub fn met(met: Met) -> &'static str {
    match met {
        Met::Yes => "yes",
        Met::No => "NO",
        Met::NotCaught => "not caught",
    }
}
