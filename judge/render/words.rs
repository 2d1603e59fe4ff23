//! How a call ended, in words, and the other phrases several reports share.

use super::units;
use crate::exec::limits::{Limits, OUTPUT_LIMIT};
use crate::exec::outcome::{Call, Ending, Stream};
use crate::judging::submissions::Expect;
use crate::judging::verdict::Verdict;
use crate::search::sweep::Got;

pub fn build_profile() -> &'static str {
    if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    }
}

pub fn expect(expect: Expect) -> String {
    match expect {
        Expect::Accepted => "AC".to_string(),
        Expect::Verdict(verdict) => verdict.code().to_string(),
        Expect::Rejected => "not AC".to_string(),
    }
}

fn signal(signal: i32) -> String {
    let name = match signal {
        4 => " (SIGILL)",
        6 => " (SIGABRT)",
        7 => " (SIGBUS)",
        8 => " (SIGFPE)",
        9 => " (SIGKILL, not sent by the judge: out of memory?)",
        11 => " (SIGSEGV)",
        15 => " (SIGTERM)",
        25 => " (SIGXFSZ)",
        _ => "",
    };
    format!("killed by signal {signal}{name}")
}

fn stream(stream: Stream) -> &'static str {
    match stream {
        Stream::Stdout => "stdout",
        Stream::Stderr => "stderr",
    }
}

/// Why a call that did not answer failed.
pub fn ending(ending: &Ending, limits: &Limits) -> String {
    let with = |text: String, detail: &Option<String>| match detail {
        Some(line) => format!("{text}; its last line on stderr: {}", units::escape(line)),
        None => text,
    };
    match ending {
        Ending::Panicked { message, place } => {
            format!("panicked at {}:{}:{}: {}", place.file, place.line, place.column, units::escape(message))
        }
        Ending::StackOverflow => format!("stack overflow (the stack is {} MiB: --stack-mb)", limits.stack_mib),
        Ending::Signalled { signal: s, detail } => with(signal(*s), detail),
        Ending::Exited { code, detail } => with(format!("exited with status {code} during the call"), detail),
        Ending::LostChannel => "closed or broke the judge's reply channel".to_string(),
        Ending::TimedOut { after } => {
            format!(
                "no answer within the time limit of {} (killed after {})",
                units::limit(limits.time),
                units::duration(*after)
            )
        }
        Ending::MemoryLimit { peak_kib } => {
            format!(
                "resident memory reached {}, over the limit of {} MiB (killed)",
                units::kib(Some(*peak_kib)),
                limits.memory_mib
            )
        }
        Ending::AllocationFailed { bytes } => {
            format!(
                "an allocation of {} failed: far over the memory limit of {} MiB",
                units::bytes(*bytes),
                limits.memory_mib
            )
        }
        Ending::OutputLimit { stream: s, bytes } => {
            format!(
                "printed {} on {}, over the limit of {}",
                units::bytes(*bytes),
                stream(*s),
                units::bytes(OUTPUT_LIMIT)
            )
        }
        Ending::NoStack => format!("the machine could not give its thread a {} MiB stack", limits.stack_mib),
        Ending::Protocol { code } => {
            format!("the driver refused the judge's request (status {code}): a bug in the judge")
        }
    }
}

/// Why a call's verdict is what it is, when an answer alone does not say.
pub fn reason(call: &Call, verdict: Verdict, limits: &Limits) -> Option<String> {
    match (&call.result, verdict) {
        (Err(e), _) => Some(ending(e, limits)),
        (Ok(a), Verdict::Tle) => {
            Some(format!("took {}, over the time limit of {}", units::nanos(a.nanos), units::limit(limits.time)))
        }
        (Ok(a), Verdict::Mle) => Some(format!(
            "peak resident memory {}, over the limit of {} MiB",
            units::kib(a.peak_kib),
            limits.memory_mib
        )),
        (Ok(_), Verdict::Ole) => Some(format!("printed more than {} on one stream", units::bytes(OUTPUT_LIMIT))),
        _ => None,
    }
}

/// What a submission did on a counterexample.
pub fn got(got: &Got, limits: &Limits) -> String {
    match got {
        Got::Answer(answer) => units::answer(answer, answer.len() as u64),
        Got::Ended(_, e) => ending(e, limits),
        Got::Limit(verdict) => format!("the right answer, but {}", verdict.code()),
    }
}
