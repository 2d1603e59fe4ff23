//! How a call's time is counted: readings of the kernel's accounts in, a charge and a verdict
//! out. Nothing here reads or waits; `child` takes the readings and obeys the verdict. On
//! both runners:
//!
//! 1. A call's time is the CPU time the kernel counted for the solution's box since the
//!    previous call's reply was read: reading the input, and whatever the box ran between two
//!    calls, count as the next call's.
//! 2. Past the time limit it is TLE.
//! 3. A call that has not answered when its wall time, less its thread's own time on a CPU and
//!    waiting for one, passes `FUSE` times the limit is TLE too: it sleeps, blocks or waits on
//!    something else. Once it has answered, only its CPU time counts.
//! 4. A child's start-up, until its driver says it is ready, is held to the same limits and
//!    counted from the child's birth; it is no case's call.
//! 5. A call has answered when its reply is read and no process of the box but the program
//!    runs: what the others run until then is its time. Those left asleep are ended.
//!
//! What differs by runner, a row each:
//!
//! | | native | portable |
//! | --- | --- | --- |
//! | the box (1) | its cgroup cell, every process; without a cell its one process, which may start no other | its one process; processes it starts are not counted |
//! | the thread (3) | the driver's main thread, which runs the solution: the kernel names it by the program's pid, so nothing the solution starts stands in for it | not read: the box's CPU time stands for it |
//! | a thread found runnable is not idle (3): a wait for a CPU enters its account only when it ends | read | not read |
//! | after its answer a thread waits for the judge, who may be late to read it (3) | only CPU time counts | only CPU time counts |
//! | processes left after the answer (5) | with a cell, the call's while one runs, then ended; without one none can start | not counted; ended with the child by its keeper (Linux) |

use std::time::Duration;

/// The wall fuse, as a fraction of the time limit: 5/2.
const FUSE: (u32, u32) = (5, 2);

/// The wall time a span under `limit` may spend off the CPU (rule 3).
pub fn fuse(limit: Duration) -> Duration {
    limit * FUSE.0 / FUSE.1
}

/// One thread's account, ever: nanoseconds on a CPU, and waiting for one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sched {
    pub ran_ns: u64,
    pub waited_ns: u64,
}

/// One look at the box during or after a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Look {
    /// Since the span began, by the judge's clock.
    pub wall: Duration,
    /// The box's CPU time, ever.
    pub cpu_ns: u64,
    /// The solution thread's account, ever; None when it was not read (`Span::wants_thread`)
    /// or cannot be.
    pub thread: Option<Sched>,
    /// The thread was on a CPU or waiting for one when it was read: a wait in progress is
    /// not in its account yet.
    pub runnable: bool,
}

/// Why a span is over its limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Over {
    /// Its CPU time passed the limit (rule 2): the time charged.
    Cpu(Duration),
    /// Its wall time less its thread's own passed the fuse (rule 3): that idle time.
    Idle(Duration),
}

/// What the box's other processes make of an answered call (rule 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Settle {
    /// None is left: the call is over.
    Done,
    /// Some are left and none runs: end them, and look again.
    End,
    /// One runs: the call is still open; look again later.
    Wait,
    /// What they ran passed the limit.
    Over(Over),
}

/// A call (or a start-up, or a batch) being counted: its limit and where its accounts began.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    limit: Duration,
    /// The box's CPU time when the previous reply was read (at the child's birth, for a
    /// start-up).
    cpu_from: u64,
    /// The thread's account when the span began; None where it cannot be read.
    thread_from: Option<Sched>,
}

impl Span {
    pub fn new(limit: Duration, cpu_from: u64, thread_from: Option<Sched>) -> Span {
        Span { limit, cpu_from, thread_from }
    }

    /// The time a call is charged, as of `look` (rule 1).
    pub fn charge(&self, look: &Look) -> Duration {
        Duration::from_nanos(look.cpu_ns.saturating_sub(self.cpu_from))
    }

    /// The wall time the fuse allows.
    pub fn fuse(&self) -> Duration {
        fuse(self.limit)
    }

    /// Whether a look at this wall time needs the thread's account: only past the fuse can
    /// a span be idle past it.
    pub fn wants_thread(&self, wall: Duration) -> bool {
        wall > self.fuse()
    }

    /// The wall time less the thread's own time on a CPU and waiting for one (rule 3); where
    /// the thread is not known, less the whole box's CPU time.
    pub fn idle(&self, look: &Look) -> Duration {
        let own = match (self.thread_from, look.thread) {
            (Some(from), Some(now)) => {
                let ran = now.ran_ns.saturating_sub(from.ran_ns);
                Duration::from_nanos(ran.saturating_add(now.waited_ns.saturating_sub(from.waited_ns)))
            }
            _ => self.charge(look),
        };
        look.wall.saturating_sub(own)
    }

    /// Whether a span that has not answered is over a limit as of `look`: by CPU time first,
    /// as the verdict's time is the CPU time.
    pub fn over(&self, look: &Look) -> Option<Over> {
        let charge = self.charge(look);
        if charge > self.limit {
            return Some(Over::Cpu(charge));
        }
        let idle = self.idle(look);
        (idle > self.fuse() && !look.runnable).then_some(Over::Idle(idle))
    }

    /// An answered span, as of `look`, with `others` processes of the box besides the program
    /// alive and whether one of them runs (rule 5): held by CPU time alone, since the
    /// program's thread, having answered, waits for the judge.
    pub fn settle(&self, others: usize, running: bool, look: &Look) -> Settle {
        match (others, running, self.answered_over(look)) {
            (0, _, _) => Settle::Done,
            (_, false, _) => Settle::End,
            (_, true, Some(over)) => Settle::Over(over),
            (_, true, None) => Settle::Wait,
        }
    }

    /// Whether a span that has answered is over its limit, as of `look` after the answer: by
    /// its CPU time alone (rule 3 ends at the answer).
    pub fn answered_over(&self, look: &Look) -> Option<Over> {
        let charge = self.charge(look);
        (charge > self.limit).then_some(Over::Cpu(charge))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn sched(ran_ms: u64, waited_ms: u64) -> Option<Sched> {
        Some(Sched { ran_ns: ran_ms * MS, waited_ns: waited_ms * MS })
    }

    /// One row: what happened, the span's start, one look, and the verdict the model gives.
    struct Row {
        what: &'static str,
        cpu_from_ms: u64,
        thread_from: Option<Sched>,
        wall_ms: u64,
        cpu_ms: u64,
        thread: Option<Sched>,
        runnable: bool,
        want: Option<Over>,
    }

    /// Every rule, and every trick tried against the judge, at the default limit of 1 s (the
    /// fuse 2.5 s). Each row fails without the rule it names.
    fn rows() -> Vec<Row> {
        vec![
            Row {
                what: "rule 1: a quick call is charged its box's CPU time and is within",
                cpu_from_ms: 10,
                thread_from: sched(5, 0),
                wall_ms: 3,
                cpu_ms: 12,
                thread: sched(7, 0),
                runnable: false,
                want: None,
            },
            Row {
                what: "rule 2: a call that spins past the limit",
                cpu_from_ms: 0,
                thread_from: sched(0, 0),
                wall_ms: 1_050,
                cpu_ms: 1_010,
                thread: None,
                runnable: false,
                want: Some(Over::Cpu(ms(1_010))),
            },
            Row {
                what: "rule 3: a call that sleeps 3 s",
                cpu_from_ms: 0,
                thread_from: sched(0, 0),
                wall_ms: 3_000,
                cpu_ms: 1,
                thread: sched(1, 0),
                runnable: false,
                want: Some(Over::Idle(ms(2_999))),
            },
            Row {
                what: "rule 2 before rule 3: a thread found runnable past the limit is TLE by CPU",
                cpu_from_ms: 0,
                thread_from: sched(0, 0),
                wall_ms: 3_000,
                cpu_ms: 1_100,
                thread: sched(1_100, 0),
                runnable: true,
                want: Some(Over::Cpu(ms(1_100))),
            },
            Row {
                what: "rule 3: a sleep under the fuse is not TLE",
                cpu_from_ms: 0,
                thread_from: sched(0, 0),
                wall_ms: 2_400,
                cpu_ms: 1,
                thread: sched(1, 0),
                runnable: false,
                want: None,
            },
            Row {
                what: "rule 3: a call held off the CPU by the machine's load waits, it does not sleep",
                cpu_from_ms: 0,
                thread_from: sched(0, 0),
                wall_ms: 6_000,
                cpu_ms: 900,
                thread: sched(900, 5_050),
                runnable: false,
                want: None,
            },
            Row {
                what: "rule 3: without the thread's account, the box's CPU time stands for it",
                cpu_from_ms: 0,
                thread_from: None,
                wall_ms: 3_000,
                cpu_ms: 800,
                thread: None,
                runnable: false,
                want: None,
            },
            Row {
                what: "rule 4: a start-up that spins 2 s in a static initialiser",
                cpu_from_ms: 0,
                thread_from: sched(0, 0),
                wall_ms: 2_000,
                cpu_ms: 2_000,
                thread: sched(2_000, 0),
                runnable: false,
                want: Some(Over::Cpu(ms(2_000))),
            },
            Row {
                what: "rule 4: a start-up that sleeps 3 s",
                cpu_from_ms: 0,
                thread_from: sched(0, 0),
                wall_ms: 3_000,
                cpu_ms: 2,
                thread: sched(2, 0),
                runnable: false,
                want: Some(Over::Idle(ms(2_998))),
            },
            Row {
                what: "trick: a sleep of 3 s while 200 threads of its own wait for a CPU together",
                cpu_from_ms: 0,
                thread_from: sched(0, 0),
                wall_ms: 3_000,
                cpu_ms: 400,
                thread: sched(0, 0),
                runnable: false,
                want: Some(Over::Idle(ms(3_000))),
            },
            Row {
                what: "trick: the same herd, 120 forked processes, each woken to spin: their CPU counts",
                cpu_from_ms: 0,
                thread_from: sched(0, 0),
                wall_ms: 2_000,
                cpu_ms: 1_600,
                thread: None,
                runnable: false,
                want: Some(Over::Cpu(ms(1_600))),
            },
            Row {
                what: "trick: work while the driver decodes the request (its own `read`) is the call's",
                cpu_from_ms: 100,
                thread_from: sched(90, 0),
                wall_ms: 1_700,
                cpu_ms: 1_800,
                thread: None,
                runnable: false,
                want: Some(Over::Cpu(ms(1_700))),
            },
            Row {
                what: "trick: 60 threads that spin between calls: charged to the next call",
                cpu_from_ms: 5_000,
                thread_from: sched(20, 0),
                wall_ms: 1,
                cpu_ms: 7_000,
                thread: None,
                runnable: false,
                want: Some(Over::Cpu(ms(2_000))),
            },
            Row {
                what: "trick: short-lived processes, each gone before a look, in a cell",
                cpu_from_ms: 0,
                thread_from: sched(0, 0),
                wall_ms: 3_100,
                cpu_ms: 3_000,
                thread: sched(10, 0),
                runnable: false,
                want: Some(Over::Cpu(ms(3_000))),
            },
            Row {
                what: "rule 3: a thread waiting 2.5 s for a CPU on a loaded machine, found runnable",
                cpu_from_ms: 16,
                thread_from: sched(1, 5),
                wall_ms: 9_705,
                cpu_ms: 219,
                thread: sched(204, 7_003),
                runnable: true,
                want: None,
            },
            Row {
                what: "rule 3: the same account found asleep",
                cpu_from_ms: 16,
                thread_from: sched(1, 5),
                wall_ms: 9_705,
                cpu_ms: 219,
                thread: sched(204, 7_003),
                runnable: false,
                want: Some(Over::Idle(ms(9_705 - 203 - 6_998))),
            },
            Row {
                what: "a join on a worker that the machine's load starves: held to the fuse",
                cpu_from_ms: 0,
                thread_from: sched(0, 0),
                wall_ms: 2_000,
                cpu_ms: 600,
                thread: sched(1, 0),
                runnable: false,
                want: None,
            },
            Row {
                what: "a write blocked on a full pipe while the judge waits for a CPU: not CPU time",
                cpu_from_ms: 0,
                thread_from: sched(0, 0),
                wall_ms: 90,
                cpu_ms: 1,
                thread: sched(1, 0),
                runnable: false,
                want: None,
            },
        ]
    }

    #[test]
    fn each_rule_and_each_trick_gets_the_verdict_of_the_model() {
        for row in rows() {
            let span = Span::new(ms(1_000), row.cpu_from_ms * MS, row.thread_from);
            let look =
                Look { wall: ms(row.wall_ms), cpu_ns: row.cpu_ms * MS, thread: row.thread, runnable: row.runnable };
            assert_eq!(span.over(&look), row.want, "{}", row.what);
        }
    }

    #[test]
    fn an_answered_call_is_judged_by_its_cpu_time_however_late_the_judge_reads_it() {
        let span = Span::new(ms(1_000), 0, sched(0, 0));
        // It answered after 2 ms of CPU; the judge, held off a CPU, read the answer 6 s later,
        // while the thread slept waiting for the next request.
        let late = Look { wall: ms(6_000), cpu_ns: 2 * MS, thread: sched(2, 0), runnable: false };
        assert_eq!(span.answered_over(&late), None);
        assert!(matches!(span.over(&late), Some(Over::Idle(_))), "unanswered, the same look is idle");
        // Its CPU time still counts once it has answered.
        let spun = Look { wall: ms(1_200), cpu_ns: 1_100 * MS, thread: sched(1_100, 0), runnable: true };
        assert_eq!(span.answered_over(&spun), Some(Over::Cpu(ms(1_100))));
    }

    #[test]
    fn rule_5_an_answer_waits_for_the_processes_that_run_and_ends_those_asleep() {
        let span = Span::new(ms(1_000), 0, sched(0, 0));
        let look = |cpu_ms: u64| Look { wall: ms(cpu_ms + 5), cpu_ns: cpu_ms * MS, thread: None, runnable: false };
        assert_eq!(span.settle(0, false, &look(3)), Settle::Done, "alone: answered");
        assert_eq!(span.settle(2, false, &look(3)), Settle::End, "a daemon asleep: ended");
        assert_eq!(span.settle(1, true, &look(400)), Settle::Wait, "a child forked that spins: the call's");
        assert_eq!(span.settle(1, true, &look(1_200)), Settle::Over(Over::Cpu(ms(1_200))), "past the limit: TLE");
        // However long the judge took to look: only CPU time counts once answered.
        let late = Look { wall: ms(9_000), cpu_ns: 10 * MS, thread: sched(1, 0), runnable: false };
        assert_eq!(span.settle(1, true, &late), Settle::Wait);
    }

    #[test]
    fn the_charge_is_the_cpu_since_the_span_began_and_nothing_else() {
        let span = Span::new(ms(1_000), 40 * MS, sched(3, 1));
        let look = Look { wall: ms(500), cpu_ns: 47 * MS, thread: sched(9, 400), runnable: false };
        assert_eq!(span.charge(&look), ms(7));
        // The wall time is not the charge: a call that waited 400 ms for a CPU costs 7 ms.
        assert_eq!(span.idle(&look), ms(500 - 6 - 399));
        // Readings that go backwards (a counter reset) charge nothing rather than wrapping.
        assert_eq!(span.charge(&Look { cpu_ns: 0, ..look }), Duration::ZERO);
    }

    #[test]
    fn the_fuse_is_two_and_a_half_limits_and_the_thread_is_read_only_past_it() {
        let span = Span::new(ms(1_000), 0, None);
        assert_eq!(span.fuse(), ms(2_500));
        assert!(!span.wants_thread(ms(2_500)) && span.wants_thread(ms(2_501)));
        assert_eq!(Span::new(ms(300), 0, None).fuse(), ms(750));
        // A 5 s sleep at the default limit is stopped at the fuse, not at the sleep's end.
        let look = Look { wall: ms(2_502), cpu_ns: MS, thread: sched(1, 0), runnable: false };
        assert!(matches!(span.over(&look), Some(Over::Idle(_))));
    }
}
