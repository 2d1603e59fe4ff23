//! How a call ended, in words, and the other phrases several reports share.

use std::fmt::Write as _;
use std::time::Duration;

use super::units;
use crate::exec::limits::{Limits, OUTPUT_LIMIT};
use crate::exec::outcome::{Call, Ending, Stream};
use crate::judging::submissions::Expect;
use crate::judging::verdict::Verdict;
use crate::problem::oracle::{Explained, Player};
use crate::problem::MAX_LEN;
use crate::search::growth::{Class, Growth, Order};
use crate::search::sweep::Got;

/// Inputs up to this long get the oracle's explanation beside a failure.
pub const EXPLAINED: usize = 20;
/// Lines of a call's output shown, each cut at `LINE_SHOWN` characters.
const LINES_SHOWN: usize = 12;
const LINE_SHOWN: usize = 160;

pub fn build_profile() -> &'static str {
    if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    }
}

/// Whether children run in a sandbox, and why not when they do not.
pub fn sandbox(unconfined: Option<&str>) -> String {
    match unconfined {
        None => "sandbox: on".to_string(),
        Some(why) => format!("sandbox: off, because {why}"),
    }
}

pub fn cgroup_version(version: crate::exec::cgroup::Version) -> &'static str {
    match version {
        crate::exec::cgroup::Version::V1 => "v1",
        crate::exec::cgroup::Version::V2 => "v2",
    }
}

/// What counts the children's memory and CPU time: a cgroup each, or /proc and why.
pub fn counting(cgroup: Option<crate::exec::cgroup::Version>, uncounted: Option<&str>) -> String {
    match (cgroup, uncounted) {
        (Some(version), _) => format!("cgroup: {}", cgroup_version(version)),
        (None, Some(why)) => format!("cgroup: none, because {why}; memory and CPU time from /proc"),
        (None, None) => "cgroup: none".to_string(),
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
        // LeetCode shows std's own words; the depth in frames is not known to anyone, the
        // depth in bytes is the whole stack.
        Ending::StackOverflow => {
            format!(
                "stack overflow: thread 'main' has overflowed its stack, all {} MiB of it (--stack-mb)",
                limits.stack_mib
            )
        }
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
        Ending::Protocol => {
            "the driver refused the judge's request before the solution ran: a bug in the judge".to_string()
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

/// Lines of rustc's diagnostic shown in a CE block, unless `--verbose`.
const DIAGNOSTIC_SHOWN: usize = 30;

/// rustc's whole diagnostic, indented, cut at `DIAGNOSTIC_SHOWN` lines unless `verbose`.
pub fn diagnostic(text: &str, verbose: bool, indent: &str) -> String {
    let lines: Vec<&str> = text.trim_end().lines().collect();
    let shown = if verbose { lines.len() } else { lines.len().min(DIAGNOSTIC_SHOWN) };
    let mut out = String::new();
    for line in &lines[..shown] {
        let _ = writeln!(out, "{}", format!("{indent}| {line}").trim_end());
    }
    if shown < lines.len() {
        let _ = writeln!(out, "{indent}| … {} more lines: --verbose shows them all", lines.len() - shown);
    }
    out
}

/// What a call printed on one stream, line by line as LeetCode's Stdout box shows it, each
/// line escaped and cut, at most `LINES_SHOWN` of them, then what was left out.
pub fn printed(label: &str, head: &[u8], total: u64, indent: &str) -> String {
    let text = String::from_utf8_lossy(head);
    let lines: Vec<&str> = text.split_terminator('\n').collect();
    let mut out = String::new();
    for (k, line) in lines.iter().take(LINES_SHOWN).enumerate() {
        let escaped = units::escape(line);
        let cut: String = escaped.chars().take(LINE_SHOWN).collect();
        let more = if cut.len() < escaped.len() { "…" } else { "" };
        let label = if k == 0 { label } else { "" };
        let _ = writeln!(out, "{indent}{label:<9} | {cut}{more}");
    }
    let shown = lines.len().min(LINES_SHOWN);
    if shown < lines.len() || total > head.len() as u64 {
        let _ = writeln!(out, "{indent}{:<9} | … ({} in all)", "", units::bytes(total));
    }
    out
}

/// The oracle's lead at every pile and one optimal line of play, for a short input.
/// Why the oracle's answer is what it is: on a short input (up to `EXPLAINED` piles) the lead
/// at every pile, one optimal line of play and its totals; on a longer one the totals alone,
/// and `shorter`, the command that finds a short failing case.
pub fn why(values: &[i32], indent: &str, shorter: &str) -> String {
    let explained = crate::problem::oracle::explain(values);
    if values.len() <= EXPLAINED {
        return self::explained(&explained, indent);
    }
    let mut out = totals(&explained, indent);
    let _ = writeln!(
        out,
        "{indent}shorter   leads and play are shown up to {EXPLAINED} piles; a short failing case: {shorter}"
    );
    out
}

fn totals(explained: &Explained, indent: &str) -> String {
    let (alice, bob) = explained.totals;
    format!(
        "{indent}totals    Alice {alice}, Bob {bob} with both playing best: margin {} for Alice, so \"{}\"\n",
        explained.margin(),
        explained.answer().as_str()
    )
}

pub fn explained(explained: &Explained, indent: &str) -> String {
    let mut out = String::new();
    let leads: Vec<String> = explained.leads.iter().map(i64::to_string).collect();
    let _ = writeln!(
        out,
        "{indent}leads     f(0..={}) = [{}]  (the oracle's: the most the player to move ends ahead on piles i..n)",
        leads.len() - 1,
        leads.join(", ")
    );
    let moves: Vec<String> = explained
        .play
        .iter()
        .map(|m| {
            let who = match m.player {
                Player::Alice => "Alice",
                Player::Bob => "Bob",
            };
            let piles = if m.count == 1 {
                format!("pile {}", m.from)
            } else {
                format!("piles {}..={}", m.from, m.from + m.count - 1)
            };
            format!("{who} takes {piles} ({:+})", m.taken)
        })
        .collect();
    let _ = writeln!(out, "{indent}play      {}", moves.join(", "));
    let (alice, bob) = explained.totals;
    let _ = writeln!(
        out,
        "{indent}totals    Alice {alice}, Bob {bob}: margin {} for Alice, so \"{}\"",
        explained.margin(),
        explained.answer().as_str()
    );
    out
}

/// How a solution's time grows, in the words a competitive programmer uses, and what that
/// means at n = 50,000 against the limit.
pub fn growth(growth: &Growth, limit: Duration) -> String {
    let measured = match (growth.points.first(), growth.points.last()) {
        (Some(first), Some(last)) => format!(
            "timed on prefixes of {} to {} piles, up to {}",
            first.n,
            units::thousands(last.n as u64),
            units::duration(last.time)
        ),
        _ => "nothing could be timed".to_string(),
    };
    let order = match growth.order {
        Order::Power { exponent, spread } => {
            format!("time grows about as n^{exponent:.1}{}", power_name(exponent, spread))
        }
        Order::Exponential { per_pile } => {
            format!("time grows about {per_pile:.2}× with every extra pile: exponential")
        }
        Order::Unknown => "too fast at every size to tell how its time grows".to_string(),
    };
    let projected = match growth.at_max_log10_s {
        Some(log10) if log10 < 3.0 => {
            let seconds = 10f64.powf(log10);
            let share = seconds / limit.as_secs_f64();
            let verdict = if share < 0.01 {
                format!("under 1% of the {} limit", units::limit(limit))
            } else if share < 1.0 {
                format!("{:.0}% of the {} limit", share * 100.0, units::limit(limit))
            } else {
                format!("{share:.0}× the {} limit", units::limit(limit))
            };
            format!(
                "at n = {}: about {}, {verdict}",
                units::thousands(MAX_LEN as u64),
                units::duration(Duration::from_secs_f64(seconds))
            )
        }
        Some(log10) => format!(
            "at n = {}: about 10^{} s, it never finishes",
            units::thousands(MAX_LEN as u64),
            units::thousands(log10.round() as u64)
        ),
        None => String::new(),
    };
    [order, projected, measured].into_iter().filter(|s| !s.is_empty()).collect::<Vec<_>>().join("; ")
}

fn power_name(exponent: f64, spread: f64) -> &'static str {
    match Class::of(exponent, spread) {
        Some(Class::Constant) => " (about constant)",
        Some(Class::Linear) => " (linear)",
        Some(Class::Quadratic) => " (quadratic)",
        Some(Class::Cubic) => " (cubic)",
        None if exponent - spread >= 3.5 => " (steeper than cubic)",
        None => " (the times are too noisy to name a class)",
    }
}
