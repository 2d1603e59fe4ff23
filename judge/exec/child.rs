//! The judge's handle on one running submission. Each child:
//! - is confined by the one jail every child gets (see `sandbox`): in a sandbox of its own
//!   namespaces where the kernel allows one, else in a scratch folder with a process group and
//!   the watchdog; and, where a cgroup can be made, in a cgroup cell of its own (see `cgroup`);
//! - reads requests on one pipe and answers on another, at descriptors the solution has no
//!   reason to touch; its stdin is /dev/null, its stdout and stderr are pipes the judge reads;
//! - is held to the limits by the judge and the kernel, never by what it says of itself.
//!
//! Time. A call is two requests: the input (which the driver decodes, then says so and waits),
//! then `Go`. Between the two, and again once the call has answered and the solution's thread
//! is off the CPU, the judge reads the kernel's account of that thread and of the whole child
//! (`meter`). The driver also reads its thread's CPU clock around the call alone, through the
//! system-call instruction (no function the solution defines can stand in for it). A call's
//! time is that reading, taken where the judge's own agrees with it (`Took::with_claim`), else
//! the judge's reading, each less what an empty call costs (the least seen, of empty calls at
//! the child's start and of every call since); plus the larger of two: the CPU time of every
//! other thread and process of the child, and the time the solution's thread spent asleep by
//! its own choice (sleeping, blocked, waiting on its own workers: the wall time by the judge's
//! clock less the time on a CPU and the time waiting for one, counted when over `ASLEEP`).
//! Time the solution's thread spent waiting for a CPU the machine's load held back is not the
//! call's: a verdict and a figure of a single-threaded solution are the same on a busy machine
//! and a quiet one (one that waits on its own threads is charged their waits for a CPU), and
//! a verdict never rests on the driver's reading.
//! A call is stopped as TLE when its CPU time passes the limit, or when, asleep, its wall time
//! less its waiting passes it; and, whatever the accounts say, at `FUSE` times the limit of
//! wall time. A child's start-up (exec, the loader, static initialisers, the driver's own)
//! past `STARTUP_FREE` of CPU time is charged to its first call; a start-up is stopped at the
//! limit by its CPU time, or, asleep, by its wall time less its waiting, and whatever the
//! accounts say at `fuse`.
//!
//! Memory: the cell's account where there is one (the kernel kills past the limit, and the
//! judge counts its kills), else the resident memory of all its processes read from /proc while
//! a call runs and after; output: the bytes that crossed its pipes; and the kernel's limits on
//! address space, file sizes, descriptors and processes, which it cannot raise.

use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::process::ExitStatusExt;
use std::process::{self, ExitStatus};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use super::cgroup::{self, Cells};
use super::channel::{Channel, Heard};
use super::compile::Program;
use super::diagnose::SourceMap;
use super::limits::{Limits, OUTPUT_LIMIT};
use super::meter::{Clock, Meter, Reading};
use super::outcome::{Answered, Call, Ending, Printed, Stream};
use super::procfs::{self, Account};
use super::sandbox::{self, Bounds, Isolation, Jail};
use super::sys;
use super::watchdog;
use super::wire::{self, Refusal, Reply, Request};

/// glibc's largest mmap threshold: blocks below it always come from the heap.
pub const MMAP_THRESHOLD: u64 = 32 << 20;
/// Every child's allocator: blocks under 32 MiB (every input and table up to n = 8,000,000)
/// come from the heap, and freed memory stays resident rather than going back to the system.
/// Otherwise glibc's moving mmap threshold serves some calls' blocks with mmap and munmap and
/// others from the heap, and trims the heap after each call so the next one faults its pages
/// in again: times would rank approaches by an artefact, and a call would pay for the last.
const ALLOCATOR: [(&str, u64); 2] = [("MALLOC_MMAP_THRESHOLD_", MMAP_THRESHOLD), ("MALLOC_TRIM_THRESHOLD_", 1 << 40)];
/// The request pipe's buffer, enough for the largest input in one write.
const REQUEST_PIPE: usize = 1 << 20;
/// How often a wait looks at the child's memory, time, output and liveness.
const POLL: Duration = Duration::from_millis(5);
/// How long a child whose reply pipe closed may take to exit before it is killed.
const GRACE: Duration = Duration::from_millis(200);
/// How long a child whose program has ended may take to say how: its init and keeper exit
/// after it, each needing a CPU. Under four busy loops 200 ms was once too short, and a
/// program killed by SIGSEGV was reported as one that broke its reply channel.
const DYING: Duration = Duration::from_secs(5);
/// How long a child may take to start, or to decode an input, by the judge's clock, whatever
/// its accounts say: at least this, and at least `FUSE` times the time limit (see `fuse`). A
/// machine loaded far past its cores can take seconds to start a process.
const STARTUP: Duration = Duration::from_secs(10);
/// CPU time a child's start-up may take before the rest is charged to its first call; a
/// start without static initialisers of its own takes a few milliseconds.
const STARTUP_FREE: Duration = Duration::from_millis(50);
/// Off the CPU by its own choice for longer than this, a call counts that time as its own;
/// under it, it is the judge's and the pipes' latency.
const ASLEEP: Duration = Duration::from_millis(1);
/// Other threads' and processes' CPU time under this is the accounts' rounding.
const OTHERS: Duration = Duration::from_micros(20);
/// Whatever the accounts say, a call is stopped at this many times its limit of wall time.
const FUSE: u32 = 60;
/// How long the judge waits for the solution's thread to go off the CPU after it answered: on
/// a loaded machine it may wait a while for a CPU to get there.
const SETTLE: Duration = Duration::from_secs(2);
/// Empty calls made to measure what one costs (the least of them), after a few that bring the
/// driver's code and the pipes' pages in.
const EMPTY_CALLS: usize = 5;
const WARM_EMPTY_CALLS: usize = 2;
/// Where a solution's binary is, inside its sandbox.
const INSIDE: &str = "/sandbox/solution";
/// The driver's thread that calls the solution.
const SOLUTION_THREAD: &str = "solution";
/// A child's private /tmp.
const SCRATCH: u64 = 16 << 20;
/// What the kernel holds every child to, besides the address space its limits decide: no
/// file (a memfd included) past 16 MiB, 64 descriptors (its pipes are placed above them),
/// `cgroup::TASKS` processes and threads.
const FILE_LIMIT: u64 = 16 << 20;
const FILES: u64 = 64;

/// The process groups of the live children, for `kill_all` to read from a signal handler.
static LIVE: [std::sync::atomic::AtomicU32; 256] = [const { std::sync::atomic::AtomicU32::new(0) }; 256];

fn listed(pgid: u32, live: bool) {
    use std::sync::atomic::Ordering;
    let (from, to) = if live { (0, pgid) } else { (pgid, 0) };
    let _ = LIVE.iter().find(|slot| slot.compare_exchange(from, to, Ordering::AcqRel, Ordering::Relaxed).is_ok());
}

/// Kills every live child at once; safe in a signal handler (Ctrl-C, SIGTERM). A sandbox's
/// whole namespace goes with its keeper.
pub fn kill_all() {
    for slot in &LIVE {
        let pgid = slot.load(std::sync::atomic::Ordering::Acquire);
        if pgid != 0 {
            let _ = sys::kill_group(pgid);
        }
    }
}

/// Where children run, and what counts what they use: a cgroup cell each, or /proc.
pub struct Housing {
    pub isolation: Isolation,
    pub cells: Option<Cells>,
}

pub struct Child {
    process: process::Child,
    /// None once stopped.
    channel: Option<Channel>,
    meter: Meter,
    limits: Limits,
    map: SourceMap,
    seq: u32,
    /// The number of the batch last sent.
    batch_seq: u32,
    /// The CPU time the child's cell had used when it was started (0 without a cell).
    cpu_at_spawn: u64,
    ready: bool,
    /// Start-up CPU time past `STARTUP_FREE`, charged to the next call.
    owed: Duration,
    /// What an empty call costs: the least measured, of the empty calls made at its start and
    /// of every call since, by the kernel's account of the solution's thread and by the
    /// driver's reading of it around the call alone.
    empty: Empty,
    /// The cell's out-of-memory kills before the current call.
    kills: u64,
    gone: bool,
    /// Whether the child is a sandbox's keeper (for the watchdog: only a room's are listed).
    sandboxed: bool,
}

/// Cases encoded once, to be sent to several children at once (stress and verify).
pub struct Batch {
    seq: u32,
    frame: Arc<Vec<u8>>,
}

impl Batch {
    /// The batch numbered `seq` (a reply names it), holding `cases`.
    pub fn new<'a>(seq: u32, cases: impl ExactSizeIterator<Item = &'a [i32]>) -> Batch {
        Batch { seq, frame: Arc::new(wire::encode_batch(seq, cases)) }
    }
}

/// The answers to a batch, in order, each cut to `wire::ANSWER_KEPT` bytes.
pub struct Answers {
    packed: Vec<u8>,
    took: Duration,
}

impl Answers {
    /// Each answer in order; None marks a list cut short, and ends it.
    pub fn iter(&self) -> impl Iterator<Item = Option<&[u8]>> {
        wire::unpack(&self.packed)
    }

    /// The whole batch's time, as a call's is counted (its decoding included).
    pub fn took(&self) -> Duration {
        self.took
    }
}

/// What an empty call costs the solution's thread, in nanoseconds.
#[derive(Clone, Copy, Debug)]
struct Empty {
    /// By the kernel's account, the judge's reading: waking, the pipes, the call.
    ran: u64,
    /// By the driver's reading around the call alone.
    claimed: u64,
}

/// Where a wait stands: when it started by the judge's clock, the kernel's accounts then,
/// and what it may take.
struct Watch {
    start: Instant,
    clock: Clock,
    /// The judging thread's own account before its last wait for the child: what it waited
    /// for a CPU since then is how late it was to see the answer.
    judge: Account,
    /// The CPU time it may take, and, for a call, its time asleep included.
    limit: Duration,
    /// The wall time it may take whatever the accounts say.
    wall: Duration,
    /// Whether it is a call of the solution, whose sleep is its own; a start-up or a decoding
    /// is held to its CPU time and `wall`, and a start-up also to its sleep (`start_up`).
    call: bool,
    /// Whether it is a start-up.
    start_up: bool,
    /// How long the child's threads had waited for a CPU when it began: for a call, those
    /// but the solution's; for a start-up, all of them.
    others_waits: Vec<(u32, u64)>,
    /// The latest wait read of each of those threads (and of any started since) during the
    /// wait: a worker that has ended is read no more, and its wait is not lost with it.
    others_seen: Vec<(u32, u64)>,
    /// Time the call is charged beyond its own (the child's start-up, for a first call).
    owed: Duration,
    /// When the answer arrived: the call's wall time ends there, not when its thread was seen
    /// to leave the CPU after it.
    answered: Option<Instant>,
}

/// How long a watched call has taken, as counted.
#[derive(Clone, Copy, Debug)]
struct Took {
    /// The call's time (see the module's comment).
    time: Duration,
    /// Its CPU time, every thread and process of the child.
    cpu: Duration,
    /// The solution thread's own CPU time, the empty call's cost included.
    ran: u64,
    /// What the time counts besides the solution thread's own CPU time: other threads and
    /// processes, sleep, a start-up owed.
    extra: Duration,
}

/// How far the driver's reading of the solution thread's CPU time around a call may fall
/// short of the judge's reading around the whole exchange (waking, the pipes, and in a virtual
/// machine the exits an interrupt to another CPU costs): `GAP`, or a tenth of the exchange.
const GAP: u64 = 100_000;
/// How far it may exceed it: the two clocks' rounding.
const OVER: u64 = 1_000;

impl Took {
    /// The call's time with the driver's reading of its thread `claimed`: taken, less an
    /// empty call's, where the judge's own reading agrees with it (see `GAP`, `OVER`); else the
    /// judge's reading stands. Either way the verdict's CPU time is the judge's.
    fn with_claim(self, claimed: u64, empty: Empty) -> Took {
        let agrees = claimed <= self.ran + OVER && self.ran - claimed.min(self.ran) <= GAP.max(self.ran / 10);
        match agrees {
            true => {
                let own = Duration::from_nanos(claimed.saturating_sub(empty.claimed));
                Took { time: own + self.extra, ..self }
            }
            false => self,
        }
    }
}

/// The judging thread's own account: the time it waited for a CPU is time it was late to see
/// an answer, not time the call took.
fn judge_account() -> Account {
    thread_local! {
        static OWN: Option<std::fs::File> = std::fs::File::open("/proc/thread-self/schedstat").ok();
    }
    let mut text = [0u8; 128];
    OWN.with(|own| own.as_ref().and_then(|file| Account::parse(procfs::reread(file, &mut text)))).unwrap_or_default()
}

/// The wall time a start-up or a decoding may take whatever the accounts say; until then a
/// start-up is held to its CPU time and, asleep, to its wall time less its waiting (`over_time`).
fn fuse(limits: &Limits) -> Duration {
    STARTUP.max(limits.time * FUSE)
}

fn nanos(d: Duration) -> u64 {
    d.as_nanos().try_into().unwrap_or(u64::MAX)
}

impl Child {
    /// Starts `program` under `limits`, with PATH and `ALLOCATOR` as its whole environment.
    pub fn spawn(program: &Program, limits: Limits, housing: &Housing) -> io::Result<Child> {
        let (binary, unit) = (&program.binary, program.unit);
        let cell = housing.cells.as_ref().map(|cells| cells.lease(limits.memory_bytes())).transpose()?;
        let (request_read, request_write) = io::pipe()?;
        // A 50,000-value request is 200 KB: the default 64 KiB pipe would take four round
        // trips. Unprivileged processes get up to 1 MiB; without it, only speed is lost.
        let _ = sys::widen_pipe(&request_write, REQUEST_PIPE);
        let (reply_read, reply_write) = io::pipe()?;
        let (stdout_read, stdout_write) = io::pipe()?;
        let (stderr_read, stderr_write) = io::pipe()?;
        let bounds = Bounds {
            address_space: limits.address_space(),
            file_size: FILE_LIMIT,
            files: FILES,
            processes: cgroup::TASKS,
        };
        let mut jail = Jail::system(&binary.path, SCRATCH, bounds);
        jail.bind(&binary.path, INSIDE, false)
            .give(request_read.as_raw_fd(), wire::REQUEST_FD)
            .give(reply_write.as_raw_fd(), wire::REPLY_FD);
        let mut command = sandbox::command(&jail, housing.isolation.room(), cell.as_deref())?;
        command
            .args([unit.to_string(), limits.stack_bytes().to_string()])
            .env("PATH", "/usr/local/bin:/usr/bin:/bin")
            .envs(ALLOCATOR.map(|(name, value)| (name, value.to_string())))
            .stdout(stdout_write)
            .stderr(stderr_write);
        let cpu_at_spawn = cell.as_ref().map_or(0, |cell| cell.cpu_ns());
        let kills = cell.as_ref().map_or(0, |cell| cell.oom_kills());
        let process = match &cell {
            Some(cell) => cell.spawn(command)?,
            None => command.spawn()?,
        };
        listed(process.id(), true);
        drop((request_read, reply_write));
        let sandboxed = matches!(housing.isolation, Isolation::Sandbox);
        let started = match sandboxed {
            true => Meter::sandbox(process.id(), fuse(&limits), cell),
            false => {
                watchdog::watch(process.id());
                Ok(Meter::process(process.id(), cell))
            }
        };
        let channel =
            started.and_then(|meter| Ok((meter, Channel::new(request_write, reply_read, stdout_read, stderr_read)?)));
        let (meter, channel) = match channel {
            Ok(ready) => ready,
            Err(e) => {
                let _ = sys::kill_group(process.id());
                let mut process = process;
                let _ = process.wait();
                listed(process.id(), false);
                if !sandboxed {
                    watchdog::forget(process.id());
                }
                return Err(e);
            }
        };
        Ok(Child {
            process,
            channel: Some(channel),
            meter,
            limits,
            map: binary.map.clone(),
            seq: 0,
            batch_seq: 0,
            cpu_at_spawn,
            ready: false,
            owed: Duration::ZERO,
            empty: Empty { ran: 0, claimed: 0 },
            kills,
            gone: false,
            sandboxed,
        })
    }

    /// Whether the child has ended; a fresh one is needed for the next call.
    pub fn is_gone(&self) -> bool {
        self.gone
    }

    /// What a stream carried since it was last taken (nothing once the child is gone).
    fn take(&mut self, stream: Stream) -> Printed {
        self.channel.as_mut().map(|c| c.take(stream)).unwrap_or_default()
    }

    /// One judged call: its answer or ending, what it printed, its time as counted, the judge's
    /// wall time for it, and the peak memory of all its processes.
    pub fn call(&mut self, values: &[i32]) -> Call {
        let start = Instant::now();
        let result = self.ready().and_then(|()| self.timed(values, false));
        let wall = start.elapsed();
        Call { result, stdout: self.take(Stream::Stdout), stderr: self.take(Stream::Stderr), wall }
    }

    /// One call, loaded then started: see the module's comment.
    fn timed(&mut self, values: &[i32], dry: bool) -> Result<Answered, Ending> {
        let mut peak = self.load(values)?;
        self.go(dry, &mut peak)
    }

    /// Sends the input of the next call and waits until the driver has decoded it and its
    /// thread is off the CPU. The decoding is the driver's, not the call's: it is held only to
    /// the start-up allowance.
    fn load(&mut self, values: &[i32]) -> Result<Reading, Ending> {
        self.meter.reset_peak();
        self.kills = self.meter.oom_kills();
        self.seq += 1;
        self.send(Arc::new(Request::Call { values: values.into() }.encode(self.seq)))?;
        let mut peak = Reading::default();
        let mut decoding = self.watch(self.limits.time, fuse(&self.limits), false, Duration::ZERO);
        match self.wait(self.seq, &mut decoding, &mut peak)? {
            Reply::Loaded => {}
            other => return Err(self.unexpected(other)),
        }
        self.meter.settle(SETTLE);
        Ok(peak)
    }

    /// Makes the call loaded last, and counts it.
    fn go(&mut self, dry: bool, peak: &mut Reading) -> Result<Answered, Ending> {
        let owed = std::mem::take(&mut self.owed);
        // The accounts before `Go` (the thread is asleep, waiting for it), the clock after:
        // until `Go` is on its way, the child waits on the judge.
        let mut watch = self.watch(self.limits.time, self.limits.time * FUSE, true, owed);
        self.send(Arc::new(Request::Go { dry }.encode(self.seq)))?;
        (watch.start, watch.judge) = (Instant::now(), judge_account());
        let reply = self.wait(self.seq, &mut watch, peak)?;
        let (length, answer, claimed) = match reply {
            Reply::Answer { length, answer, cpu_ns } => (length, answer, cpu_ns),
            other => return Err(self.unexpected(other)),
        };
        self.meter.settle(SETTLE);
        let took = self.took(&watch, true);
        // No call costs less than an empty one: one that seems to was measured in a quieter
        // moment than the empty calls were, and is the better measure of them.
        self.empty.ran = self.empty.ran.min(took.ran);
        self.empty.claimed = self.empty.claimed.min(claimed);
        let took = self.took(&watch, true).with_claim(claimed, self.empty);
        let peak_kib = peak.peak_kib.max(self.meter.read().peak_kib);
        if self.meter.oom_kills() > self.kills {
            // The kernel killed one of its processes for memory; the call still answered.
            self.stop();
            return Err(Ending::MemoryLimit { peak_kib });
        }
        if took.time > self.limits.time || took.cpu > self.limits.time {
            self.stop();
            return Err(Ending::TimedOut { after: took.time.max(took.cpu) });
        }
        Ok(Answered { answer, length, nanos: nanos(took.time), peak_kib: Some(peak_kib) })
    }

    fn watch(&self, limit: Duration, wall: Duration, call: bool, owed: Duration) -> Watch {
        let others_waits = if call { self.meter.others_waits() } else { Vec::new() };
        let (start, clock, judge) = (Instant::now(), self.meter.clock(), judge_account());
        let others_seen = others_waits.clone();
        Watch {
            start,
            clock,
            judge,
            limit,
            wall,
            call,
            start_up: false,
            others_waits,
            others_seen,
            owed,
            answered: None,
        }
    }

    /// The time a watched call took, by the kernel's accounts now; `done` when it answered
    /// and its thread is off the CPU, so that the accounts are exact and its sleep can be told
    /// from latency.
    fn took(&self, watch: &Watch, done: bool) -> Took {
        let wall = watch.answered.unwrap_or_else(Instant::now).duration_since(watch.start);
        let now = self.meter.clock();
        let thread = now.thread.since(watch.clock.thread);
        let all = Duration::from_nanos(now.all_ns.saturating_sub(watch.clock.all_ns));
        let ran = Duration::from_nanos(thread.ran_ns);
        let waited = Duration::from_nanos(thread.waited_ns);
        let others = all.saturating_sub(ran);
        let others = if others > OTHERS { others } else { Duration::ZERO };
        let late = match done {
            true => Duration::from_nanos(judge_account().since(watch.judge).waited_ns),
            false => Duration::ZERO,
        };
        // Its own thread may share a CPU with the judge's: what it ran while the judge waited
        // is not late twice.
        let late = late.saturating_sub(ran);
        // What its other threads waited for a CPU meanwhile is not its sleep either. (Threads
        // of its own that keep one another waiting use CPU time, which counts as `others`.)
        let others_waited = match others > OTHERS && watch.call {
            true => Duration::from_nanos(self.others_waited(watch)),
            false => Duration::ZERO,
        };
        let asleep = wall.saturating_sub(ran + waited + late + others_waited);
        let asleep = if asleep > ASLEEP { asleep } else { Duration::ZERO };
        let own = ran.saturating_sub(Duration::from_nanos(self.empty.ran));
        // While the solution's thread sleeps, its other threads and processes may work: a
        // thread that waits on a worker is asleep for as long as the worker runs. The larger
        // of the two counts, not their sum, or that work would count twice.
        let extra = others.max(asleep) + watch.owed;
        Took { time: own + extra, cpu: all + watch.owed, ran: thread.ran_ns, extra }
    }

    /// Whether a wait has passed its limit: by CPU time; for a call, also by its wall time
    /// less its waiting while its thread sleeps (a running thread's current wait is not in its
    /// account yet, so a thread that wants a CPU is judged by CPU time alone; where the thread
    /// cannot be read, by wall time); and whatever the accounts say, at its wall limit.
    fn over_time(&self, watch: &Watch) -> Option<Duration> {
        let took = self.took(watch, false);
        let wall = watch.start.elapsed();
        if took.cpu > watch.limit || wall > watch.wall {
            return Some(took.cpu.max(took.time));
        }
        if !watch.call {
            // A start-up that sleeps (a static initialiser, say) is held to the limit by its
            // wall time less its waiting, as a call is; one that waits for a CPU, by the fuse.
            // The waiting is every thread's: the main thread sleeps in a join while the
            // driver's thread it started waits for a CPU to say it is ready.
            let (true, Some(asleep)) = (watch.start_up, self.meter.main_asleep()) else { return None };
            let own = wall.saturating_sub(Duration::from_nanos(self.others_waited(watch)));
            return (asleep && own > watch.limit).then_some(own);
        }
        // Its sleep is known only while nothing of it wants a CPU: a worker's current wait is
        // not yet in its account. Until then a call is held to its CPU time (and the wall
        // limit); under four busy loops, a solution whose thread joined a worker that spun
        // 600 ms got TLE at 1 s by its workers' wait.
        let asleep = self.meter.asleep().unwrap_or(true);
        (asleep && took.time > watch.limit && !self.meter.others_runnable()).then_some(took.time)
    }

    /// How long the child's threads in `watch.others_waits` (and any started since, all
    /// their wait) have waited for a CPU since `watch` began.
    fn others_waited(&self, watch: &Watch) -> u64 {
        let before = |tid: u32| watch.others_waits.iter().find(|(t, _)| *t == tid).map_or(0, |(_, w)| *w);
        let mut seen = watch.others_seen.clone();
        merge(&mut seen, self.meter.others_waits());
        seen.into_iter().map(|(tid, waited)| waited.saturating_sub(before(tid))).sum()
    }

    /// Sends a batch; several children can work on one batch at once. What it printed
    /// meanwhile is dropped.
    pub fn send_batch(&mut self, batch: &Batch) -> Result<(), Ending> {
        self.ready()?;
        self.batch_seq = batch.seq;
        self.kills = self.meter.oom_kills();
        self.send(Arc::clone(&batch.frame))
    }

    /// The answers to the batch last sent, or why the batch ended; `budget` covers the whole
    /// batch, counted as a call is, from now.
    pub fn receive_batch(&mut self, budget: Duration) -> Result<Answers, Ending> {
        let mut watch = self.watch(budget, budget * FUSE, true, Duration::ZERO);
        let reply = self.wait(self.batch_seq, &mut watch, &mut Reading::default());
        self.take(Stream::Stdout);
        self.take(Stream::Stderr);
        match reply? {
            Reply::Answers { packed } => {
                self.meter.settle(SETTLE);
                Ok(Answers { packed, took: self.took(&watch, true).time })
            }
            other => Err(self.unexpected(other)),
        }
    }

    /// `reps` calls after a warm-up, each held to the time limit: their times and the answer.
    pub fn time(&mut self, values: &[i32], reps: u32) -> Result<(Vec<u64>, Vec<u8>), Ending> {
        self.ready()?;
        self.timed(values, false)?;
        let mut times = Vec::with_capacity(reps as usize);
        let mut last = Vec::new();
        for _ in 0..reps {
            let answered = self.timed(values, false)?;
            times.push(answered.nanos);
            last = answered.answer;
        }
        Ok((times, last))
    }

    /// The resident memory one call adds to the program, and its answer: the program's exact
    /// resident set after the call against before it, which keeps what the call freed (the
    /// allocator keeps it), or its high-water mark where that is ahead by more than the
    /// kernel's batching (a block unmapped on free).
    pub fn measure(&mut self, values: &[i32]) -> Result<(Option<u64>, Vec<u8>), Ending> {
        self.ready()?;
        // A first small call brings the solution's code into memory, which is not the call's.
        self.timed(&values[..values.len().min(16)], false)?;
        let pid = self.meter.program();
        let exact = || procfs::kib(format!("/proc/{pid}/smaps_rollup"), "Rss");
        // The input is decoded first: it is the call's argument, not what the call adds.
        let mut peak = self.load(values)?;
        let exact_before = exact();
        self.meter.reset_peak();
        let peak_before = self.meter.read_program().peak_kib;
        let answered = self.go(false, &mut peak)?;
        let (exact_after, peak_after) = (exact(), self.meter.read_program().peak_kib);
        let exact = exact_before.zip(exact_after).map(|(b, a)| a.saturating_sub(b));
        let peak = peak_after.saturating_sub(peak_before);
        // The peak counts in batches and may run ahead by tens of pages.
        let extra_kib = match exact {
            Some(exact) if peak > exact + 1024 => Some(peak),
            None => Some(peak),
            exact => exact,
        };
        Ok((extra_kib, answered.answer))
    }

    /// Waits, once, for the driver to say it is ready, then measures what an empty call
    /// costs; a refusal before it is the judge's fault, since the solution has not run yet.
    /// The start-up past its allowance is charged to the first call, and stops it at the limit.
    fn ready(&mut self) -> Result<(), Ending> {
        if self.ready {
            return Ok(());
        }
        let mut watch = self.watch(self.limits.time + STARTUP_FREE, fuse(&self.limits), false, Duration::ZERO);
        watch.clock.all_ns = self.cpu_at_spawn.min(watch.clock.all_ns);
        // No solution thread is followed yet: these are every thread's waits.
        (watch.start_up, watch.others_waits) = (true, self.meter.others_waits());
        watch.others_seen = watch.others_waits.clone();
        match self.wait(0, &mut watch, &mut Reading::default())? {
            Reply::Ready => {}
            Reply::Refused { why: Refusal::NoStack } => {
                self.stop();
                return Err(Ending::NoStack);
            }
            Reply::Refused { .. } => {
                self.stop();
                return Err(Ending::Protocol);
            }
            other => return Err(self.unexpected(other)),
        }
        let start_up = Duration::from_nanos(self.meter.clock().all_ns.saturating_sub(self.cpu_at_spawn));
        self.owed = start_up.saturating_sub(STARTUP_FREE);
        self.ready = true;
        if self.meter.follow(SOLUTION_THREAD) {
            let owed = std::mem::take(&mut self.owed);
            // The floors start from nothing; every empty call (and every call after) can only
            // lower them. The first few bring the driver's code and the pipes' pages in.
            self.empty = Empty { ran: u64::MAX, claimed: u64::MAX };
            for k in 0..WARM_EMPTY_CALLS + EMPTY_CALLS {
                self.timed(&[], true)?;
                if k + 1 == WARM_EMPTY_CALLS {
                    self.empty = Empty { ran: u64::MAX, claimed: u64::MAX };
                }
            }
            self.owed = owed;
        }
        Ok(())
    }

    fn send(&mut self, frame: Arc<Vec<u8>>) -> Result<(), Ending> {
        match self.channel.as_mut().map(|c| c.send(frame)) {
            Some(true) => Ok(()),
            _ => Err(self.died()),
        }
    }

    /// A panic, overflow or failed allocation ends the child; anything else out of place is a
    /// broken channel (the solution touched the driver's descriptors, say).
    fn unexpected(&mut self, reply: Reply) -> Ending {
        let ending = match reply {
            Reply::Panicked { message, file, line, column } => {
                Ending::Panicked { message, place: self.map.place(&file, line, column) }
            }
            Reply::StackOverflow => Ending::StackOverflow,
            Reply::AllocationFailed { bytes } => Ending::AllocationFailed { bytes },
            _ => Ending::LostChannel,
        };
        self.stop();
        ending
    }

    /// The reply to `seq`, or how the child ended, the call held to `watch`'s limit. While it
    /// waits it reads the child's memory into `peak` (the highest seen) and counts what it
    /// prints; past a limit the child is killed.
    fn wait(&mut self, seq: u32, watch: &mut Watch, peak: &mut Reading) -> Result<Reply, Ending> {
        let mut look = POLL;
        loop {
            // Not again for the second look: a delay before it is the judge's lateness.
            if !look.is_zero() {
                watch.judge = judge_account();
            }
            let Some(channel) = self.channel.as_mut() else { return Err(self.died()) };
            match channel.next(look) {
                Heard::Reply(s, reply) if s == seq => {
                    watch.answered = Some(Instant::now());
                    return Ok(reply);
                }
                Heard::Reply(_, reply @ (Reply::StackOverflow | Reply::AllocationFailed { .. })) => {
                    return Err(self.unexpected(reply));
                }
                Heard::Reply(..) | Heard::Garbled => {
                    self.stop();
                    return Err(Ending::LostChannel);
                }
                Heard::Closed => return Err(self.died()),
                Heard::Quiet => {
                    if watch.call || watch.start_up {
                        merge(&mut watch.others_seen, self.meter.others_waits());
                    }
                    if let Some(after) = self.over_time(watch) {
                        // The judge may have been held off a CPU between its look and this
                        // reading, while the reply came: one more look before the verdict.
                        if !look.is_zero() {
                            look = Duration::ZERO;
                            continue;
                        }
                        self.stop();
                        return Err(Ending::TimedOut { after });
                    }
                    look = POLL;
                    if let Some(ending) = self.over_limits(peak) {
                        self.stop();
                        return Err(ending);
                    }
                    if matches!(self.process.try_wait(), Ok(Some(_))) {
                        return Err(self.died());
                    }
                }
            }
        }
    }

    fn over_limits(&self, peak: &mut Reading) -> Option<Ending> {
        let now = self.meter.read();
        peak.peak_kib = peak.peak_kib.max(now.peak_kib).max(now.resident_kib);
        if now.resident_kib > self.limits.memory_bytes() >> 10 || self.meter.oom_kills() > self.kills {
            return Some(Ending::MemoryLimit { peak_kib: peak.peak_kib.max(now.resident_kib) });
        }
        let channel = self.channel.as_ref()?;
        [Stream::Stdout, Stream::Stderr]
            .into_iter()
            .map(|stream| (stream, channel.printed(stream)))
            .find(|(_, bytes)| *bytes > OUTPUT_LIMIT)
            .map(|(stream, bytes)| Ending::OutputLimit { stream, bytes })
    }

    /// The child ended by itself, or its reply pipe closed: wait for it briefly, then say how.
    fn died(&mut self) -> Ending {
        let start = Instant::now();
        let mut status = None;
        let waiting = |start: Instant, program: u32| {
            start.elapsed() < GRACE || (start.elapsed() < DYING && procfs::ended(program))
        };
        while status.is_none() && waiting(start, self.meter.program()) {
            status = self.process.try_wait().ok().flatten();
            if status.is_none() {
                thread::sleep(Duration::from_millis(2));
            }
        }
        let ran_on = status.is_none();
        // The kernel's out-of-memory killer, in the child's cell, ended it.
        if self.meter.oom_kills() > self.kills {
            let peak_kib = self.meter.read().peak_kib;
            self.stop();
            return Ending::MemoryLimit { peak_kib };
        }
        let detail = self.channel.as_mut().and_then(|c| last_line(&c.take(Stream::Stderr)));
        let status = self.stop().or(status);
        match status {
            Some(status) if !ran_on => classify(status, detail),
            _ => Ending::LostChannel,
        }
    }

    /// Kills the whole child and reaps it; returns its status if it had one.
    fn stop(&mut self) -> Option<ExitStatus> {
        if self.gone {
            return None;
        }
        self.gone = true;
        // Before reaping, so the group id cannot have been reused.
        let _ = sys::kill_group(self.process.id());
        let status = self.process.wait().ok();
        listed(self.process.id(), false);
        if !self.sandboxed {
            watchdog::forget(self.process.id());
        }
        status
    }
}

/// Adds `readings` (thread id, ns waited) to `seen`, keeping each thread's largest.
fn merge(seen: &mut Vec<(u32, u64)>, readings: Vec<(u32, u64)>) {
    for (tid, waited) in readings {
        match seen.iter_mut().find(|(t, _)| *t == tid) {
            Some((_, known)) => *known = (*known).max(waited),
            None => seen.push((tid, waited)),
        }
    }
}

/// How a child that died by itself ended: any signal or exit code is the solution's own (the
/// judge sends its own only after `stop`, and the kernel's out-of-memory kills are counted
/// apart, where there is a cell to count them).
fn classify(status: ExitStatus, detail: Option<String>) -> Ending {
    match (status.signal(), status.code()) {
        (Some(signal), _) => Ending::Signalled { signal, detail },
        (None, code) => Ending::Exited { code: code.unwrap_or(-1), detail },
    }
}

/// The last line a stream carried, trimmed, if any.
fn last_line(printed: &Printed) -> Option<String> {
    let text = String::from_utf8_lossy(&printed.head).into_owned();
    text.lines().rev().map(str::trim).find(|l| !l.is_empty()).map(str::to_string)
}

impl Drop for Child {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A program and the child that serves it, started again whenever it is gone: after every
/// verdict that ends a child, the next call gets a fresh one.
pub struct Runner<'a> {
    program: &'a Program,
    limits: Limits,
    housing: &'a Housing,
    child: Option<Child>,
}

impl<'a> Runner<'a> {
    pub fn new(program: &'a Program, limits: Limits, housing: &'a Housing) -> Runner<'a> {
        Runner { program, limits, housing, child: None }
    }

    /// The live child, started if there is none.
    pub fn child(&mut self) -> io::Result<&mut Child> {
        if self.child.as_ref().is_none_or(Child::is_gone) {
            // The last child's cell goes back before the next one takes one.
            self.child = None;
            self.child = Some(Child::spawn(self.program, self.limits, self.housing)?);
        }
        Ok(self.child.as_mut().expect("just started"))
    }

    /// One call, in a child started if needed; an error only when no child could start.
    pub fn call(&mut self, values: &[i32]) -> io::Result<Call> {
        Ok(self.child()?.call(values))
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The submission's name.
    pub fn name(&self) -> String {
        self.program.name.clone()
    }
}
