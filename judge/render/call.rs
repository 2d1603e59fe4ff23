//! One call of a submission, as every report shows it: how it ended and why its verdict is
//! what it is, in words; what it printed, line by line; and its fields in a JSON report.

use std::fmt::Write as _;

use super::fit;
use super::json::Json;
use super::units;
use crate::exec::limits::{Limits, OUTPUT_LIMIT};
use crate::exec::outcome::{Call, Ending, Printed, Stream};
use crate::exec::wire::Refusal;
use crate::judging::report::took;
use crate::judging::verdict::Verdict;

/// Lines of a call's output shown.
const LINES_SHOWN: usize = 12;

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
        // LeetCode shows std's own words; the depth in frames is not known to anyone, the
        // depth in bytes is the whole stack.
        Ending::StackOverflow => {
            format!(
                "stack overflow: thread 'main' has overflowed its stack, all {} MiB of it (--stack-mb)",
                limits.stack_mib
            )
        }
        Ending::Signalled { signal: s, detail } => with(signal(*s), detail),
        // Before its first call too: an exit in a static initialiser ends the child as one mid-call.
        Ending::Exited { code, detail } => with(format!("exited with status {code}"), detail),
        Ending::LostChannel => "closed or broke the judge's reply channel".to_string(),
        Ending::TimedOut { after, asleep: false } => {
            format!(
                "no answer within the time limit of {} of CPU time (killed after {})",
                units::limit(limits.time),
                units::duration(*after)
            )
        }
        Ending::TimedOut { after, asleep: true } => {
            format!(
                "off the CPU by its own doing (asleep, blocked or waiting) for {} of wall time, past \
                 the wall limit of {} (killed)",
                units::duration(*after),
                units::limit(crate::exec::account::fuse(limits.time))
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
        Ending::Refused { why: Refusal::NoStack, confirmed: true } => {
            format!("the machine could not give its thread a {} MiB stack", limits.stack_mib)
        }
        Ending::Refused { confirmed: true, .. } | Ending::Protocol => {
            "the driver refused the judge's request before the solution ran: a bug in the judge".to_string()
        }
        Ending::Refused { why, confirmed: false } => format!(
            "before its first call it wrote the driver's refusal (\"{}\") on the judge's pipe, which the judge's own program started the same way did not: the solution's doing (a static initialiser, say)",
            refusal(*why)
        ),
    }
}

/// A refusal of the driver's, as it says it.
fn refusal(why: Refusal) -> &'static str {
    match why {
        Refusal::BadArguments => "bad arguments",
        Refusal::BadRequest => "bad request",
        Refusal::NoStack => "no stack",
    }
}

/// Why a call's verdict is what it is, when an answer alone does not say.
pub fn reason(call: &Call, verdict: Verdict, limits: &Limits) -> Option<String> {
    match (&call.result, verdict) {
        (Err(e), _) => Some(ending(e, limits)),
        (Ok(_), Verdict::Tle) => Some(format!(
            "took {}, over the time limit of {}",
            took(call).map_or_else(String::new, |t| units::duration(t.time)),
            units::limit(limits.time)
        )),
        (Ok(a), Verdict::Mle) => Some(format!(
            "peak resident memory {}, over the limit of {} MiB",
            units::kib(a.peak_kib),
            limits.memory_mib
        )),
        (Ok(_), Verdict::Ole) => Some(format!("printed more than {} on one stream", units::bytes(OUTPUT_LIMIT))),
        _ => None,
    }
}

/// What a call printed on one stream, line by line as LeetCode's Stdout box shows it, each
/// line escaped and cut to the width, at most `LINES_SHOWN` of them, then what was left out.
pub fn printed(label: &str, printed: &Printed, width: usize) -> String {
    let text = String::from_utf8_lossy(&printed.head);
    let lines: Vec<&str> = text.split_terminator('\n').collect();
    let mut out = String::new();
    for (k, line) in lines.iter().take(LINES_SHOWN).enumerate() {
        let label = if k == 0 { label } else { "" };
        let _ = writeln!(out, "{}", fit::cut(&format!("  {label:<9} | {}", units::escape(line)), width));
    }
    let shown = lines.len().min(LINES_SHOWN);
    if shown < lines.len() || printed.total > printed.head.len() as u64 {
        let _ = writeln!(out, "  {:<9} | … ({} in all)", "", units::bytes(printed.total));
    }
    out
}

/// What a call printed on both streams, for those it printed on.
pub fn output(call: &Call, width: usize) -> String {
    [("stdout", &call.stdout), ("stderr", &call.stderr)]
        .into_iter()
        .filter(|(_, p)| p.total > 0)
        .map(|(label, p)| printed(label, p, width))
        .collect()
}

/// How a call that did not answer ended, as one word for a program.
pub fn ending_kind(ending: &Ending) -> &'static str {
    match ending {
        Ending::Panicked { .. } => "panicked",
        Ending::StackOverflow => "stack overflow",
        Ending::Signalled { .. } => "signal",
        Ending::Exited { .. } => "exited",
        Ending::LostChannel => "lost channel",
        Ending::TimedOut { .. } => "timed out",
        Ending::MemoryLimit { .. } => "memory limit",
        Ending::AllocationFailed { .. } => "allocation failed",
        Ending::OutputLimit { .. } => "output limit",
        Ending::Refused { confirmed: true, .. } => "refused",
        Ending::Refused { confirmed: false, .. } => "false refusal",
        Ending::Protocol => "protocol",
    }
}

fn text(printed: &Printed) -> Json {
    Json::str(String::from_utf8_lossy(&printed.head))
}

/// One call's fields in a JSON report: its time (null when it did not answer), the judge's
/// wall time, memory, answer, ending and output.
pub fn fields(call: &Call) -> Vec<(&'static str, Json)> {
    let answered = call.result.as_ref().ok();
    let time = took(call).filter(|t| !t.cut);
    vec![
        ("time_ns", Json::opt(time, |t| Json::int(t.time.as_nanos() as i128))),
        ("wall_ns", Json::int(call.wall.as_nanos() as i128)),
        ("peak_kib", Json::opt(answered.and_then(|a| a.peak_kib), Json::int)),
        ("answer", Json::opt(answered, |a| Json::str(String::from_utf8_lossy(&a.answer)))),
        ("answer_bytes", Json::opt(answered, |a| Json::int(a.length))),
        ("ending", Json::opt(call.result.as_ref().err(), |e| Json::str(ending_kind(e)))),
        ("stdout", text(&call.stdout)),
        ("stdout_bytes", Json::int(call.stdout.total)),
        ("stderr", text(&call.stderr)),
        ("stderr_bytes", Json::int(call.stderr.total)),
    ]
}
