//! The judge's handle on one running submission. Each child:
//! - is confined by the one jail every child gets (see `sandbox`): in a sandbox of its own
//!   namespaces where the kernel allows one, else in a scratch folder, in a session of its own
//!   with the watchdog; and, where a cgroup can be made, in a cgroup cell of its own (see
//!   `cgroup`), else refused any process but its own (`sys::refuse_new_processes`);
//! - reads requests on one pipe and answers on another, at descriptors the solution has no
//!   reason to touch; its stdin is /dev/null, its stdout and stderr are pipes the judge reads;
//!   it holds no other descriptor of the judge's or of whatever started the judge;
//! - is held to the limits by the judge and the kernel, never by what it says of itself.
//!
//! Time is counted as `account` says, from the readings `meter` takes: around each call, the
//! box's CPU time when the reply is read and the solution thread's account when the request
//! is written; during it, the box's CPU time at every look, and the thread's state and account
//! only past the wall fuse.
//!
//! Memory: the cell's account where there is one (the kernel kills past the limit, and the
//! judge counts its kills), else the resident memory of its one process, read from /proc
//! while a call runs and after; output: the bytes that crossed its pipes; and the kernel's
//! limits on address space, file sizes, descriptors and processes, which it cannot raise.

use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::process::ExitStatusExt;
use std::process::{self, ExitStatus};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use super::account::{Look, Over, Sched, Settle, Span};
use super::cgroup::{self, Cells};
use super::channel::{Channel, Heard};
use super::compile::Program;
use super::diagnose::SourceMap;
use super::ledger::{Ledger, Progress};
use super::limits::{Limits, OUTPUT_LIMIT};
use super::meter::{Meter, Reading};
use super::outcome::{Answered, Call, Ending, Printed, Stream};
use super::procfs;
use super::runner::RunnerKind;
use super::sandbox::{self, Bounds, Isolation, Jail};
use super::sys;
use super::watchdog;
use super::wire::{self, Reply, Request};

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
/// after it, each needing a CPU.
const DYING: Duration = Duration::from_secs(5);
/// How long the judge waits for a child's program to be listed, whatever the load: the
/// sandbox's or the keeper's own processes start it, and no code of the solution's has run yet.
const APPEARING: Duration = Duration::from_secs(30);
/// Where a solution's binary is, inside its sandbox.
const INSIDE: &str = "/sandbox/solution";
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

/// Where children run, and what counts what they use: the runner, and a cgroup cell each or
/// the program's own accounts.
pub struct Housing {
    pub isolation: Isolation,
    pub cells: Option<Cells>,
    pub kind: RunnerKind,
}

pub struct Child {
    process: process::Child,
    /// None once stopped.
    channel: Option<Channel>,
    meter: Meter,
    limits: Limits,
    map: SourceMap,
    seq: u32,
    /// The box's CPU time where the next call's charge begins: at its birth until it is
    /// ready, then when the last reply was read.
    origin: u64,
    /// When the program was seen to exist: where its start-up's wall time begins.
    born: Instant,
    ready: bool,
    /// The batch last sent: its number, its length, when it was sent and the thread's account
    /// then.
    batch: Option<(u32, usize, Instant, Option<Sched>)>,
    /// Where the driver writes how far a batch got.
    ledger: Ledger,
    /// The calls of the solution it answered: a batch's testcases each count.
    served: u64,
    /// The cell's out-of-memory kills so far.
    kills: u64,
    gone: bool,
    /// Whether the child is a sandbox's keeper (for the watchdog: only a room's are listed).
    sandboxed: bool,
}

/// Cases encoded once, to be sent to several children at once (stress and verify).
pub struct Batch {
    seq: u32,
    len: usize,
    frame: Arc<Vec<u8>>,
}

impl Batch {
    /// The batch numbered `seq` (a reply names it), holding `cases`.
    pub fn new<'a>(seq: u32, cases: impl ExactSizeIterator<Item = &'a [i32]>) -> Batch {
        let len = cases.len();
        Batch { seq, len, frame: Arc::new(wire::encode_batch(seq, cases)) }
    }
}

/// A batch that ended badly: how, and how far it got by the child's ledger (None where the
/// driver never began it).
#[derive(Debug)]
pub struct Unfinished {
    pub ending: Ending,
    pub progress: Option<Progress>,
}

/// The answers to a batch, in order, each cut to `wire::BATCH_ANSWER_KEPT` bytes.
#[derive(Debug)]
pub struct Answers {
    packed: Vec<u8>,
    took: Duration,
}

impl Answers {
    /// Each answer in order; None marks a list cut short, and ends it.
    pub fn iter(&self) -> impl Iterator<Item = Option<&[u8]>> {
        wire::unpack(&self.packed)
    }

    /// The whole batch's time, as a call's is counted.
    pub fn took(&self) -> Duration {
        self.took
    }
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
        let ledger = Ledger::new()?;
        let rules = housing.kind.rules();
        let bounds = Bounds {
            address_space: rules.address_space.then(|| limits.address_space()),
            file_size: FILE_LIMIT,
            files: FILES,
            processes: cgroup::TASKS,
            stack: rules.address_space.then(|| limits.stack_bytes()),
            one_process: cell.is_none() && rules.one_process_without_cell,
        };
        let mut jail = Jail::system(&binary.path, SCRATCH, bounds);
        jail.kept = true;
        jail.seatbelt = housing.isolation.seatbelt();
        jail.copy(&binary.path, INSIDE)
            .give(request_read.as_raw_fd(), wire::REQUEST_FD)
            .give(reply_write.as_raw_fd(), wire::REPLY_FD)
            .give(ledger.fd(), wire::LEDGER_FD);
        let mut command = sandbox::command(&jail, housing.isolation.room(), cell.as_deref())?;
        command.args([unit.to_string(), limits.stack_bytes().to_string()]);
        command.arg(rules.place);
        command
            .env("PATH", "/usr/local/bin:/usr/bin:/bin")
            .envs(ALLOCATOR.map(|(name, value)| (name, value.to_string())))
            .stdout(stdout_write)
            .stderr(stderr_write);
        let origin = cell.as_ref().map_or(0, |cell| cell.cpu_ns());
        let kills = cell.as_ref().map_or(0, |cell| cell.oom_kills());
        let process = match &cell {
            Some(cell) => cell.spawn(command)?,
            None => command.spawn()?,
        };
        listed(process.id(), true);
        drop((request_read, reply_write));
        let sandboxed = matches!(housing.isolation, Isolation::Sandbox);
        let started = match sandboxed {
            true => Meter::sandbox(process.id(), APPEARING, cell),
            false => {
                watchdog::watch(process.id());
                Meter::room(process.id(), APPEARING, cell, housing.kind.reads_thread())
            }
        };
        let born = Instant::now();
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
            origin,
            born,
            ready: false,
            batch: None,
            ledger,
            served: 0,
            kills,
            gone: false,
            sandboxed,
        })
    }

    /// Whether the child has ended; a fresh one is needed for the next call.
    pub fn is_gone(&self) -> bool {
        self.gone
    }

    /// The calls of the solution it has answered, a batch's testcases each counted.
    pub fn served(&self) -> u64 {
        self.served
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

    /// One call, or with `dry` the input decoded and dropped without calling the solution.
    fn timed(&mut self, values: &[i32], dry: bool) -> Result<Answered, Ending> {
        self.meter.reset_peak();
        self.seq += 1;
        let frame = Arc::new(Request::Call { values: values.into(), dry }.encode(self.seq));
        let (start, thread) = self.send(frame, 0)?;
        let mut peak = Reading::default();
        let span = Span::new(self.limits.time, self.origin, thread);
        let (reply, charge) = self.exchange(self.seq, span, start, &mut peak)?;
        let (length, answer) = match reply {
            Reply::Answer { length, answer, .. } => (length, answer),
            other => return Err(self.unexpected(other)),
        };
        self.served += u64::from(!dry);
        let peak_kib = peak.peak_kib.max(self.meter.read().peak_kib);
        Ok(Answered { answer, length, nanos: nanos(charge), peak_kib: Some(peak_kib) })
    }

    /// Sends a batch; several children can work on one batch at once. What it printed
    /// meanwhile is dropped.
    pub fn send_batch(&mut self, batch: &Batch) -> Result<(), Ending> {
        self.ready()?;
        let (start, thread) = self.send(Arc::clone(&batch.frame), batch.len)?;
        self.batch = Some((batch.seq, batch.len, start, thread));
        Ok(())
    }

    /// The answers to the batch last sent, or how it ended and how far it got; `budget` is its
    /// time limit, the whole batch counted as a call is.
    pub fn receive_batch(&mut self, budget: Duration) -> Result<Answers, Unfinished> {
        let Some((seq, len, start, thread)) = self.batch.take() else {
            return Err(Unfinished { ending: Ending::Protocol, progress: None });
        };
        let span = Span::new(budget, self.origin, thread);
        let reply = self.exchange(seq, span, start, &mut Reading::default());
        self.take(Stream::Stdout);
        self.take(Stream::Stderr);
        let ending = match reply {
            Ok((Reply::Answers { packed, .. }, took)) if wire::unpack(&packed).count() == len => {
                self.served += len as u64;
                return Ok(Answers { packed, took });
            }
            // Answers to another number of testcases than were sent: not the driver's reply.
            Ok((Reply::Answers { .. }, _)) => Ending::LostChannel,
            Ok((other, _)) => self.unexpected(other),
            Err(ending) => ending,
        };
        // Every ending stops the child: what its ledger says now is all it will say.
        self.stop();
        Err(Unfinished { ending, progress: self.ledger.read(seq, len) })
    }

    /// `reps` calls after a warm-up, each held to the time limit: their times and the answer.
    /// Each time is the call's, less the median of as many dry calls on the same input, one
    /// just before each (the input sent, read and decoded, the solution not called): what the
    /// solution itself took.
    pub fn time(&mut self, values: &[i32], reps: u32) -> Result<(Vec<u64>, Vec<u8>), Ending> {
        self.ready()?;
        self.timed(values, false)?;
        let (mut dry, mut called) = (Vec::with_capacity(reps as usize), Vec::with_capacity(reps as usize));
        let mut last = Vec::new();
        for _ in 0..reps {
            dry.push(self.timed(values, true)?.nanos);
            let answered = self.timed(values, false)?;
            called.push(answered.nanos);
            last = answered.answer;
        }
        dry.sort_unstable();
        let dry = dry.get(dry.len() / 2).copied().unwrap_or(0);
        Ok((called.into_iter().map(|t| t.saturating_sub(dry)).collect(), last))
    }

    /// The resident memory one call adds to the program, and its answer: the program's exact
    /// resident set after the call against before it, which keeps what the call freed (the
    /// allocator keeps it), or its high-water mark where that is ahead by more than the
    /// kernel's batching (a block unmapped on free).
    pub fn measure(&mut self, values: &[i32]) -> Result<(Option<u64>, Vec<u8>), Ending> {
        self.ready()?;
        // A first small call brings the solution's code into memory, which is not the call's;
        // a dry one with the input brings in the room its decoding takes, which is the call's
        // argument, not what the call adds.
        self.timed(&values[..values.len().min(16)], false)?;
        self.timed(values, true)?;
        let pid = self.meter.program();
        let exact = || procfs::kib(format!("/proc/{pid}/smaps_rollup"), "Rss");
        let exact_before = exact();
        self.meter.reset_peak();
        let peak_before = self.meter.read_program().peak_kib;
        let answered = self.timed(values, false)?;
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

    /// Waits, once, for the driver to say it is ready: the child's start-up, held to the time
    /// limit as a call is (`account`, rule 4). A refusal is said as it came: whose it is, the
    /// runner finds out (`Runner::confirm`).
    fn ready(&mut self) -> Result<(), Ending> {
        if self.ready {
            return Ok(());
        }
        let span = Span::new(self.limits.time, self.origin, Some(Sched::default()));
        match self.exchange(0, span, self.born, &mut Reading::default())? {
            (Reply::Ready, _) => {}
            (Reply::Refused { why }, _) => {
                return Err(self.end(Ending::Refused { why, confirmed: false }));
            }
            (other, _) => return Err(self.unexpected(other)),
        }
        self.ready = true;
        Ok(())
    }

    /// Queues a frame for the child, whose reply may hold `answers` answers: when it was sent
    /// and the solution thread's account then.
    fn send(&mut self, frame: Arc<Vec<u8>>, answers: usize) -> Result<(Instant, Option<Sched>), Ending> {
        let thread = self.meter.thread();
        let Some(channel) = self.channel.as_mut() else { return Err(self.died()) };
        channel.expect(answers);
        match channel.send(frame) {
            true => Ok((Instant::now(), thread)),
            false => Err(self.died()),
        }
    }

    /// The reply to `seq` and the time charged for it, counted by `span` from `start`: the
    /// box's CPU time at the reply becomes the next call's origin. Past a limit, or if the
    /// kernel killed a process of the child for memory meanwhile, the child is stopped.
    fn exchange(
        &mut self,
        seq: u32,
        span: Span,
        start: Instant,
        peak: &mut Reading,
    ) -> Result<(Reply, Duration), Ending> {
        let reply = self.wait(seq, &span, start, peak)?;
        self.settle(&span, start, peak)?;
        let look = self.look(&span, start);
        self.origin = look.cpu_ns;
        if let Some(over) = span.answered_over(&look) {
            return Err(self.end(timed_out(over)));
        }
        let kills = self.meter.oom_kills();
        if kills > self.kills {
            // The kernel killed one of its processes for memory; the call still answered.
            let peak_kib = peak.peak_kib.max(self.meter.read().peak_kib);
            return Err(self.end(Ending::MemoryLimit { peak_kib }));
        }
        Ok((reply, span.charge(&look)))
    }

    /// After an answer, the program's other processes (`account`, rule 5): while one runs,
    /// what they run is the call's, held to its time limit by CPU time (the program's thread,
    /// having answered, waits for the judge) and to its memory limit; once none runs, they
    /// are ended.
    fn settle(&mut self, span: &Span, start: Instant, peak: &mut Reading) -> Result<(), Ending> {
        loop {
            let others = self.meter.others();
            let running = others.iter().any(|&pid| procfs::running(pid));
            match span.settle(others.len(), running, &self.look(span, start)) {
                Settle::Done => return Ok(()),
                Settle::End => {
                    for pid in others {
                        let _ = sys::kill(pid, sys::SIGKILL);
                    }
                    // Their last CPU time enters the box's account as they die.
                    thread::sleep(Duration::from_millis(1));
                }
                Settle::Over(over) => {
                    return Err(self.end(timed_out(over)));
                }
                Settle::Wait => {
                    if let Some(ending) = self.over_limits(peak) {
                        return Err(self.end(ending));
                    }
                    thread::sleep(POLL);
                }
            }
        }
    }

    /// The box as of now, for `span` begun at `start`.
    fn look(&self, span: &Span, start: Instant) -> Look {
        let wall = start.elapsed();
        let cpu_ns = self.meter.cpu_ns();
        // Its state before its account: a wait that begins after the state is read is in
        // neither the account nor the wall time.
        let (runnable, thread) = match span.wants_thread(wall) {
            true => (self.meter.runnable(), self.meter.thread()),
            false => (false, None),
        };
        Look { wall, cpu_ns, thread, runnable }
    }

    /// A panic, overflow or failed allocation ends the child; anything else out of place is a
    /// broken channel (the solution touched the driver's descriptors, say).
    fn unexpected(&mut self, reply: Reply) -> Ending {
        let ending = match reply {
            Reply::Panicked { message, file, line, column, dropped } => {
                let message = match dropped {
                    0 => message,
                    dropped => format!("{message}… ({dropped} more bytes of the message dropped)"),
                };
                Ending::Panicked { message, place: self.map.place(&file, line, column) }
            }
            Reply::StackOverflow => Ending::StackOverflow,
            Reply::AllocationFailed { bytes } => Ending::AllocationFailed { bytes },
            _ => Ending::LostChannel,
        };
        self.end(ending)
    }

    /// Stops the child, which ended so.
    fn end(&mut self, ending: Ending) -> Ending {
        self.stop();
        ending
    }

    /// The reply to `seq`, or how the child ended, held to `span` from `start`. While it waits
    /// it reads the child's memory into `peak` (the highest seen) and counts what it prints;
    /// past a limit the child is killed.
    fn wait(&mut self, seq: u32, span: &Span, start: Instant, peak: &mut Reading) -> Result<Reply, Ending> {
        let mut look = POLL;
        loop {
            let Some(channel) = self.channel.as_mut() else { return Err(self.died()) };
            match channel.next(look) {
                Heard::Reply(s, reply) if s == seq => return Ok(reply),
                Heard::Reply(_, reply @ (Reply::StackOverflow | Reply::AllocationFailed { .. })) => {
                    return Err(self.unexpected(reply));
                }
                Heard::Reply(..) | Heard::Garbled => {
                    return Err(self.end(Ending::LostChannel));
                }
                Heard::Closed => return Err(self.died()),
                Heard::Quiet => {
                    if let Some(over) = span.over(&self.look(span, start)) {
                        // A call that has answered is judged by its reply: one more look at the
                        // pipe, without waiting, before it is stopped.
                        if !look.is_zero() {
                            look = Duration::ZERO;
                            continue;
                        }
                        return Err(self.end(timed_out(over)));
                    }
                    look = POLL;
                    if let Some(ending) = self.over_limits(peak) {
                        return Err(self.end(ending));
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
        let waiting = |start: Instant, meter: &Meter| {
            start.elapsed() < GRACE || (start.elapsed() < DYING && meter.program_ended())
        };
        while status.is_none() && waiting(start, &self.meter) {
            status = self.process.try_wait().ok().flatten();
            if status.is_none() {
                thread::sleep(Duration::from_millis(2));
            }
        }
        let ran_on = status.is_none();
        // The kernel's out-of-memory killer, in the child's cell, ended it.
        if self.meter.oom_kills() > self.kills {
            return self.end(Ending::MemoryLimit { peak_kib: self.meter.read().peak_kib });
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
        // Before reaping, so the group id cannot have been reused. Outside a sandbox, on Linux,
        // the program and its group, wherever it moved: its keeper then ends whatever it left
        // (`sandbox::keep_orphans`). The keeper itself only when the program cannot be told
        // apart from a stranger: it is the judge's child, and the program dies with it.
        #[cfg(target_os = "linux")]
        let killed = !self.sandboxed && self.meter.kill_program();
        #[cfg(not(target_os = "linux"))]
        let killed = false;
        if !killed {
            let _ = sys::kill_group(self.process.id());
        }
        let status = self.process.wait().ok();
        listed(self.process.id(), false);
        if !self.sandboxed {
            watchdog::forget(self.process.id());
        }
        status
    }
}

/// The ending of a span over its limit.
fn timed_out(over: Over) -> Ending {
    match over {
        Over::Cpu(after) => Ending::TimedOut { after, asleep: false },
        Over::Idle(after) => Ending::TimedOut { after, asleep: true },
    }
}

fn nanos(d: Duration) -> u64 {
    d.as_nanos().try_into().unwrap_or(u64::MAX)
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

/// The judge's own program, which a child's refusal is checked against: a refusal comes as
/// bytes on the reply pipe, which the solution's code could have written before the driver
/// ran, so the machine is blamed only when this program, started the same way, is refused too.
pub trait Probe: Sync {
    /// The program, built as submissions are; None when it cannot be.
    fn program(&self) -> Option<&Program>;
}

/// A program and the child that serves it, started again whenever it is gone: after every
/// verdict that ends a child, the next call gets a fresh one.
pub struct Runner<'a> {
    program: &'a Program,
    limits: Limits,
    housing: &'a Housing,
    probe: &'a dyn Probe,
    child: Option<Child>,
}

impl<'a> Runner<'a> {
    pub fn new(program: &'a Program, limits: Limits, housing: &'a Housing, probe: &'a dyn Probe) -> Runner<'a> {
        Runner { program, limits, housing, probe, child: None }
    }

    /// A refusal, confirmed or not by the judge's own program under the same limits.
    fn confirm(&self, ending: &mut Ending) {
        let Ending::Refused { why, confirmed } = ending else { return };
        let Some(program) = self.probe.program() else { return };
        let probed = Child::spawn(program, self.limits, self.housing).map(|mut child| child.ready());
        *confirmed = matches!(probed, Ok(Err(Ending::Refused { why: w, .. })) if w == *why);
    }

    /// A batch sent to the live child (started if there is none) and its answers, or how it
    /// ended; an error only when no child could start.
    pub fn batch(&mut self, batch: &Batch) -> io::Result<Result<Answers, Unfinished>> {
        let budget = self.limits.deadline();
        let child = self.child()?;
        let mut received = match child.send_batch(batch) {
            Ok(()) => child.receive_batch(budget),
            Err(ending) => Err(Unfinished { ending, progress: None }),
        };
        if let Err(unfinished) = &mut received {
            self.confirm(&mut unfinished.ending);
        }
        Ok(received)
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

    /// The calls the live child has answered; 0 when there is none.
    pub fn served(&self) -> u64 {
        self.child.as_ref().filter(|c| !c.is_gone()).map_or(0, Child::served)
    }

    /// A fresh child, the last one stopped: its calls have nothing before them.
    pub fn fresh(&mut self) -> io::Result<&mut Child> {
        self.child = None;
        self.child()
    }

    /// One call, in a child started if needed; an error only when no child could start.
    pub fn call(&mut self, values: &[i32]) -> io::Result<Call> {
        let mut call = self.child()?.call(values);
        if let Err(ending) = &mut call.result {
            self.confirm(ending);
        }
        Ok(call)
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The submission's name.
    pub fn name(&self) -> String {
        self.program.name.clone()
    }
}
