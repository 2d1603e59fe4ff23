//! The figures shown for each solution, computed once for both the text and the JSON report.

use std::time::Duration;

use crate::cases::{BadCase, Case};
use crate::runner::{Limits, SolutionRun};
use crate::verdict::Verdict;

/// Everything one judging session produced.
pub struct Session<'a> {
    pub cases: &'a [Case],
    pub bad: &'a [BadCase],
    pub runs: &'a [SolutionRun],
    pub limits: Limits,
    pub wall: Duration,
    /// `--cases DIR` as given, for rerun commands, when not the default.
    pub cases_arg: Option<String>,
}

impl Session<'_> {
    /// 0 when every solution met its expectation, 1 when one did not, 2 on a judge error.
    pub fn exit_status(&self) -> u8 {
        if !self.bad.is_empty() {
            2
        } else if self.runs.iter().all(SolutionRun::met_expectation) {
            0
        } else {
            1
        }
    }

    /// The exact command that reruns one case for one solution.
    pub fn rerun_command(&self, solution: &str, case: &str) -> String {
        let cases = self.cases_arg.as_ref().map(|d| format!(" --cases {}", shell_word(d))).unwrap_or_default();
        format!("cargo run --release -- --solution {solution} --case {}{cases}", shell_word(case))
    }
}

/// `text` as one shell word: as it is when that is safe, else single-quoted.
fn shell_word(text: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./=:@%+,".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

pub struct Summary {
    pub ran: usize,
    pub accepted: usize,
    pub total: Duration,
    pub median: Option<Duration>,
    /// The slowest finished call and its case id.
    pub slowest: Option<(Duration, String)>,
    /// `58/58 AC`, or `3 AC, then WA` for a run that stopped.
    pub verdicts: String,
}

impl Summary {
    pub fn of(run: &SolutionRun, cases: &[Case]) -> Summary {
        let done: Vec<(usize, &crate::runner::Outcome)> =
            run.outcomes.iter().enumerate().filter_map(|(i, o)| o.as_ref().map(|o| (i, o))).collect();
        let accepted = done.iter().filter(|(_, o)| o.verdict == Verdict::Ac).count();
        let mut times: Vec<(Duration, usize)> =
            done.iter().filter_map(|(i, o)| o.nanos.map(|n| (Duration::from_nanos(n), *i))).collect();
        times.sort();
        let verdicts = match run.spawn_error {
            Some(_) => "not run".to_string(),
            None if accepted == done.len() => format!("{accepted}/{} AC", cases.len()),
            None => {
                let failed: Vec<&str> =
                    done.iter().filter(|(_, o)| o.verdict != Verdict::Ac).map(|(_, o)| o.verdict.code()).collect();
                // A wrong solution stops at its first failure, as LeetCode does.
                if failed.len() == 1 && run.expected != Verdict::Ac {
                    format!("{accepted} AC, then {}", failed[0])
                } else {
                    let counts: Vec<String> = Verdict::ALL
                        .iter()
                        .map(|v| (v, done.iter().filter(|(_, o)| o.verdict == *v).count()))
                        .filter(|(_, n)| *n > 0)
                        .map(|(v, n)| format!("{n} {v}"))
                        .collect();
                    counts.join(", ")
                }
            }
        };
        Summary {
            ran: done.len(),
            accepted,
            total: times.iter().map(|(t, _)| *t).sum(),
            median: (!times.is_empty()).then(|| times[times.len() / 2].0),
            slowest: times.last().map(|(t, i)| (*t, cases[*i].id.clone())),
            verdicts,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::shell_word;

    #[test]
    fn case_ids_are_quoted_only_when_the_shell_would_split_them() {
        assert_eq!(shell_word("edge/max-all-1000"), "edge/max-all-1000");
        assert_eq!(shell_word("bad/spa ce"), "'bad/spa ce'");
        assert_eq!(shell_word("it's"), "'it'\\''s'");
        assert_eq!(shell_word(""), "''");
    }
}
