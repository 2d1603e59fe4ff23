//! Verdicts, and the one rule that turns a call's outcome into one. When a call meets several
//! conditions at once, the verdict is the first in DMOJ's order: TLE, MLE, OLE, RE, WA. CE
//! comes before all of them, since nothing ran. A call's time is the judge's reading of the
//! kernel's accounts (see `exec::child`); nothing the child reports about itself is trusted.

use crate::exec::limits::{Limits, OUTPUT_LIMIT};
use crate::exec::outcome::{Call, Ending};
use crate::problem::Answer;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verdict {
    /// Accepted: the right answer within every limit.
    Ac,
    /// Wrong answer.
    Wa,
    /// Runtime error: a panic, a stack overflow, a signal, an exit mid-call.
    Re,
    /// Output limit exceeded.
    Ole,
    /// Memory limit exceeded.
    Mle,
    /// Time limit exceeded.
    Tle,
    /// Compile error: the file does not build as LeetCode builds it.
    Ce,
}

impl Verdict {
    /// Every verdict, from the one that wins over all others down to AC.
    pub const PRECEDENCE: [Verdict; 7] =
        [Verdict::Ce, Verdict::Tle, Verdict::Mle, Verdict::Ole, Verdict::Re, Verdict::Wa, Verdict::Ac];

    pub fn code(self) -> &'static str {
        match self {
            Verdict::Ac => "AC",
            Verdict::Wa => "WA",
            Verdict::Re => "RE",
            Verdict::Ole => "OLE",
            Verdict::Mle => "MLE",
            Verdict::Tle => "TLE",
            Verdict::Ce => "CE",
        }
    }

    pub fn parse(code: &str) -> Option<Verdict> {
        Verdict::PRECEDENCE.into_iter().find(|v| v.code() == code)
    }

    /// The verdict of a call on a case whose answer is `expected`, or None when the call
    /// failed through no fault of the submission (the judge's or the machine's).
    pub fn of(call: &Call, expected: Answer, limits: &Limits) -> Option<Verdict> {
        let answered = match &call.result {
            Err(ending) if ending.is_judge_fault() => return None,
            Err(ending) => return Some(Verdict::of_ending(ending)),
            Ok(answered) => answered,
        };
        let printed = call.stdout.total.max(call.stderr.total);
        let peak = answered.peak_kib.unwrap_or(0);
        let holds = [
            // The call's time as the judge counted it; the child measures nothing.
            (Verdict::Tle, answered.nanos > limits.time.as_nanos() as u64),
            (Verdict::Mle, peak > limits.memory_bytes() >> 10),
            (Verdict::Ole, printed > OUTPUT_LIMIT),
            (Verdict::Wa, !expected.is(&answered.answer) || answered.length != expected.as_str().len() as u64),
        ];
        Some(holds.into_iter().find(|(_, holds)| *holds).map_or(Verdict::Ac, |(v, _)| v))
    }

    pub fn of_ending(ending: &Ending) -> Verdict {
        match ending {
            Ending::TimedOut { .. } => Verdict::Tle,
            Ending::MemoryLimit { .. } | Ending::AllocationFailed { .. } => Verdict::Mle,
            Ending::OutputLimit { .. } => Verdict::Ole,
            _ => Verdict::Re,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::diagnose::Place;
    use crate::exec::outcome::{Answered, Printed, Stream};
    use std::time::Duration;

    fn answered(answer: &str, nanos: u64, peak_kib: u64, printed: u64) -> Call {
        let answer = answer.as_bytes().to_vec();
        let length = answer.len() as u64;
        Call {
            result: Ok(Answered { answer, length, nanos, peak_kib: Some(peak_kib) }),
            stdout: Printed { head: Vec::new(), total: printed },
            stderr: Printed::default(),
            wall: Duration::from_nanos(nanos),
        }
    }

    fn ended(ending: Ending) -> Call {
        Call { result: Err(ending), stdout: Printed::default(), stderr: Printed::default(), wall: Duration::ZERO }
    }

    #[test]
    fn each_condition_gives_its_verdict() {
        let limits = crate::exec::limits::DEFAULT;
        let of = |call: &Call| Verdict::of(call, Answer::Bob, &limits);
        assert_eq!(of(&answered("Bob", 1000, 3000, 0)), Some(Verdict::Ac));
        assert_eq!(of(&answered("Alice", 1000, 3000, 0)), Some(Verdict::Wa));
        assert_eq!(of(&answered("Bob ", 1000, 3000, 0)), Some(Verdict::Wa));
        assert_eq!(of(&answered("Bob", 2_000_000_000, 3000, 0)), Some(Verdict::Tle));
        // A busy machine's wall time is not the call's.
        let waited = Call { wall: Duration::from_secs(30), ..answered("Bob", 1000, 3000, 0) };
        assert_eq!(of(&waited), Some(Verdict::Ac));
        assert_eq!(of(&answered("Bob", 1000, 300 << 10, 0)), Some(Verdict::Mle));
        assert_eq!(of(&answered("Bob", 1000, 3000, OUTPUT_LIMIT + 1)), Some(Verdict::Ole));
        let place = Place { file: "x.rs".into(), line: 1, column: 1 };
        assert_eq!(of(&ended(Ending::Panicked { message: "boom".into(), place })), Some(Verdict::Re));
        assert_eq!(of(&ended(Ending::StackOverflow)), Some(Verdict::Re));
        assert_eq!(of(&ended(Ending::TimedOut { after: Duration::from_secs(1), asleep: false })), Some(Verdict::Tle));
        assert_eq!(of(&ended(Ending::AllocationFailed { bytes: 1 << 33 })), Some(Verdict::Mle));
        assert_eq!(of(&ended(Ending::OutputLimit { stream: Stream::Stderr, bytes: 1 })), Some(Verdict::Ole));
        let refused = |confirmed| Ending::Refused { why: crate::exec::wire::Refusal::NoStack, confirmed };
        assert_eq!(of(&ended(refused(true))), None, "the machine's, as the judge's own program found");
        assert_eq!(of(&ended(refused(false))), Some(Verdict::Re), "a refusal only the solution's child sent");
    }

    #[test]
    fn a_call_that_breaks_several_limits_gets_the_first_in_dmoj_order() {
        let limits = crate::exec::limits::DEFAULT;
        let all = answered("Alice", 2_000_000_000, 300 << 10, OUTPUT_LIMIT + 1);
        assert_eq!(Verdict::of(&all, Answer::Bob, &limits), Some(Verdict::Tle));
        let memory_and_output = answered("Alice", 10, 300 << 10, OUTPUT_LIMIT + 1);
        assert_eq!(Verdict::of(&memory_and_output, Answer::Bob, &limits), Some(Verdict::Mle));
        let output_and_wrong = answered("Alice", 10, 10, OUTPUT_LIMIT + 1);
        assert_eq!(Verdict::of(&output_and_wrong, Answer::Bob, &limits), Some(Verdict::Ole));
        for verdict in Verdict::PRECEDENCE {
            assert_eq!(Verdict::parse(verdict.code()), Some(verdict));
        }
    }
}
