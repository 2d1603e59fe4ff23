//! How a call of a submission ended, as data: `judging` turns it into a verdict and `render`
//! into words.

use std::time::Duration;

use super::diagnose::Place;
use super::wire::Refusal;

/// A call that returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answered {
    /// What it returned, cut to `wire::ANSWER_KEPT` bytes; `length` is the whole length.
    pub answer: Vec<u8>,
    pub length: u64,
    /// The call's time: the judge's reading of the kernel's accounts (see `child`).
    pub nanos: u64,
    /// The child's peak resident memory during the call, all its processes together, read by
    /// the judge from the kernel.
    pub peak_kib: Option<u64>,
}

/// A call that did not return. After any of these the child is gone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// It panicked: the message and, when it lies in the submission's file, the place.
    Panicked { message: String, place: Place },
    /// It ran into the guard page below its stack of this many MiB.
    StackOverflow,
    /// A signal the judge did not send ended it; `detail` is the last line it wrote to stderr.
    Signalled { signal: i32, detail: Option<String> },
    /// It exited by itself mid-call (`std::process::exit`).
    Exited { code: i32, detail: Option<String> },
    /// The reply pipe closed, or carried something that is not the driver's reply.
    LostChannel,
    /// Over the time limit, as `account` counts it; the judge killed it. `after` is the time
    /// it was charged then, or, `asleep`, the wall time it spent off the CPU by its own doing
    /// (past the wall fuse).
    TimedOut { after: Duration, asleep: bool },
    /// Its resident memory passed the limit; the judge killed it at this peak.
    MemoryLimit { peak_kib: u64 },
    /// An allocation of this many bytes failed (against the address-space ceiling, or past
    /// what the machine can give).
    AllocationFailed { bytes: u64 },
    /// It printed more than the output limit on one stream.
    OutputLimit { stream: Stream, bytes: u64 },
    /// Before the solution's first call, the child said the driver could not serve (`why`):
    /// `confirmed` when the judge's own program, started the same way, was refused the same,
    /// which makes it the machine's fault or the judge's; else the solution's own doing (a
    /// static initialiser can write what the driver writes).
    Refused { why: Refusal, confirmed: bool },
    /// The judge asked what the protocol does not allow: a bug in the judge.
    Protocol,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    Stdout = 0,
    Stderr = 1,
}

/// What a solution printed on one stream during one call.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Printed {
    /// The first `limits::OUTPUT_KEPT` bytes.
    pub head: Vec<u8>,
    /// How many bytes it printed in all.
    pub total: u64,
}

/// One call: how it ended, what it printed, and the judge's own wall time for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    pub result: Result<Answered, Ending>,
    pub stdout: Printed,
    pub stderr: Printed,
    pub wall: Duration,
}

impl Ending {
    /// Whether the fault is the judge's or the machine's, not the submission's.
    pub fn is_judge_fault(&self) -> bool {
        matches!(self, Ending::Refused { confirmed: true, .. } | Ending::Protocol)
    }
}
