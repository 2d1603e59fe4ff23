//! The judge's handle on one running submission. Each child:
//! - runs in a sandbox of its own namespaces where the kernel allows one (see `sandbox`): it
//!   sees its own binary, the system's libraries, a private /tmp and its own processes, and
//!   nothing it starts outlives it; without one, it has a process group killed whole, a
//!   scratch folder outside the workspace and the watchdog;
//! - reads requests on one pipe and answers on another, at descriptors the solution has no
//!   reason to touch; its stdin is /dev/null, its stdout and stderr are pipes the judge reads;
//! - is held to the limits by the judge: a wall-clock deadline whatever the child sends, the
//!   resident memory of all its processes read from the kernel while a call runs and after,
//!   the bytes that crossed its output pipes; and by the kernel: an address-space ceiling and a
//!   core size of 0, which it cannot raise.

use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{self, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use super::channel::{Channel, Heard};
use super::compile::Program;
use super::diagnose::SourceMap;
use super::limits::{Limits, OUTPUT_LIMIT};
use super::meter::{Meter, Reading};
use super::outcome::{Answered, Call, Ending, Printed, Stream};
use super::room::Room;
use super::sandbox::{self, Confinement, Spec};
use super::sys::{self, Resource};
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
/// How often a wait looks at the child's memory, output and liveness.
const POLL: Duration = Duration::from_millis(5);
/// How long a child whose reply pipe closed may take to exit before it is killed.
const GRACE: Duration = Duration::from_millis(200);
/// How long a child may take to start, before its first request's deadline begins: a loaded
/// machine can take a while to start a process.
const STARTUP: Duration = Duration::from_secs(10);
/// Where a solution's binary is, inside its sandbox.
const INSIDE: &str = "/sandbox/solution";
/// How many processes (threads count) a solution may run at once.
const PROCESSES: u64 = 64;
/// The file-size ceiling: a solution writes no file past it.
const FILE_LIMIT: u64 = 16 << 20;

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

/// Where children run: each in a sandbox, or, where the kernel allows none, in a scratch
/// folder with a process group and the watchdog.
pub enum Isolation {
    Sandbox,
    Room(Room),
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
    ready: bool,
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
    nanos: u64,
}

impl Answers {
    /// Each answer in order; None marks a list cut short, and ends it.
    pub fn iter(&self) -> impl Iterator<Item = Option<&[u8]>> {
        wire::unpack(&self.packed)
    }

    /// The whole batch's time by the child's own clock: for display, never for a verdict.
    pub fn took(&self) -> Duration {
        Duration::from_nanos(self.nanos)
    }
}

/// The confinement of a solution's binary: the system spec, the binary bound where it runs.
fn confinement(binary: &Path) -> io::Result<Arc<Confinement>> {
    let mut spec = Spec::system();
    spec.bind(binary, INSIDE, false);
    spec.processes = Some(PROCESSES);
    Confinement::new(&spec).map(Arc::new)
}

impl Child {
    /// Starts `program` under `limits`, with PATH and `ALLOCATOR` as its whole environment.
    pub fn spawn(program: &Program, limits: Limits, isolation: &Isolation) -> io::Result<Child> {
        let (binary, unit) = (&program.binary, program.unit);
        let (request_read, request_write) = io::pipe()?;
        // A 50,000-value request is 200 KB: the default 64 KiB pipe would take four round
        // trips. Unprivileged processes get up to 1 MiB; without it, only speed is lost.
        let _ = sys::widen_pipe(&request_write, REQUEST_PIPE);
        let (reply_read, reply_write) = io::pipe()?;
        let (stdout_read, stdout_write) = io::pipe()?;
        let (stderr_read, stderr_write) = io::pipe()?;
        let mut command = match isolation {
            Isolation::Sandbox => Command::new(INSIDE),
            Isolation::Room(_) => Command::new(&binary.path),
        };
        command
            .args([unit.to_string(), limits.stack_bytes().to_string()])
            .env_clear()
            .env("PATH", "/usr/local/bin:/usr/bin:/bin")
            .envs(ALLOCATOR.map(|(name, value)| (name, value.to_string())))
            .stdin(Stdio::null())
            .stdout(stdout_write)
            .stderr(stderr_write)
            .process_group(0);
        if let Isolation::Room(room) = isolation {
            command.current_dir(&room.cwd);
        }
        let (from_request, from_reply) = (request_read.as_raw_fd(), reply_write.as_raw_fd());
        let (judge, space) = (process::id(), limits.address_space());
        // SAFETY: between fork and exec the closure only makes system calls: no allocation,
        // no locks.
        unsafe {
            command.pre_exec(move || {
                sys::place_fds(&[(from_request, wire::REQUEST_FD), (from_reply, wire::REPLY_FD)])?;
                sys::die_with(judge)?;
                sys::limit(Resource::AddressSpace, space)?;
                sys::limit(Resource::FileSize, FILE_LIMIT)?;
                sys::limit(Resource::CoreDump, 0)
            });
        }
        if let Isolation::Sandbox = isolation {
            // Last: the hooks before it run in the keeper, this one builds the sandbox.
            sandbox::confine(&mut command, &confinement(&binary.path)?);
        }
        let process = command.spawn()?;
        listed(process.id(), true);
        drop((request_read, reply_write));
        let sandboxed = matches!(isolation, Isolation::Sandbox);
        let started = match sandboxed {
            true => Meter::sandbox(process.id(), STARTUP),
            false => {
                watchdog::watch(process.id());
                Ok(Meter::process(process.id()))
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
            ready: false,
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

    /// One judged call: its answer or ending, what it printed, the judge's wall time for it,
    /// and the peak memory of all its processes.
    pub fn call(&mut self, values: &[i32]) -> Call {
        if let Err(ending) = self.ready() {
            return Call {
                result: Err(ending),
                stdout: Printed::default(),
                stderr: Printed::default(),
                wall: Duration::ZERO,
            };
        }
        self.seq += 1;
        let seq = self.seq;
        let frame = Arc::new(Request::Call { values: values.into() }.encode(seq));
        self.meter.reset_peak();
        let start = Instant::now();
        let mut peak = Reading::default();
        let result =
            self.send(frame).and_then(|()| match self.wait(seq, (start, self.limits.deadline()), &mut peak)? {
                Reply::Answer { nanos, length, answer } => {
                    let now = self.meter.read_program();
                    let peak_kib = peak.peak_kib.max(now.peak_kib);
                    Ok(Answered { answer, length, nanos, peak_kib: Some(peak_kib) })
                }
                other => Err(self.unexpected(other)),
            });
        let wall = start.elapsed();
        Call { result, stdout: self.take(Stream::Stdout), stderr: self.take(Stream::Stderr), wall }
    }

    /// Sends a batch; several children can work on one batch at once. What it printed
    /// meanwhile is dropped.
    pub fn send_batch(&mut self, batch: &Batch) -> Result<(), Ending> {
        self.ready()?;
        self.batch_seq = batch.seq;
        self.send(Arc::clone(&batch.frame))
    }

    /// The answers to the batch last sent, or why the batch ended; `budget` covers the whole batch.
    pub fn receive_batch(&mut self, budget: Duration) -> Result<Answers, Ending> {
        let reply = self.wait(self.batch_seq, (Instant::now(), budget), &mut Reading::default());
        self.take(Stream::Stdout);
        self.take(Stream::Stderr);
        match reply? {
            Reply::Answers { nanos, packed } => Ok(Answers { packed, nanos }),
            other => Err(self.unexpected(other)),
        }
    }

    /// `reps` timed calls after a warm-up, each held to the time limit: their times and the
    /// answer.
    pub fn time(&mut self, values: &[i32], reps: u32) -> Result<(Vec<u64>, Vec<u8>), Ending> {
        self.ready()?;
        self.seq += 1;
        let seq = self.seq;
        self.send(Arc::new(Request::Time { values: values.into(), reps }.encode(seq)))?;
        // The warm-up call has a deadline of its own, like every timed call.
        let mut started = Instant::now();
        let mut times = Vec::with_capacity(reps as usize);
        let mut last = Vec::new();
        while times.len() < reps as usize {
            match self.wait(seq, (started, self.limits.deadline()), &mut Reading::default())? {
                Reply::Timed { nanos, answer } => {
                    times.push(nanos);
                    last = answer;
                    started = Instant::now();
                }
                other => return Err(self.unexpected(other)),
            }
        }
        Ok((times, last))
    }

    /// The resident memory one call adds, and its answer.
    pub fn measure(&mut self, values: &[i32]) -> Result<(Option<u64>, Vec<u8>), Ending> {
        self.ready()?;
        self.seq += 1;
        let seq = self.seq;
        self.send(Arc::new(Request::Measure { values: values.into() }.encode(seq)))?;
        match self.wait(seq, (Instant::now(), self.limits.deadline()), &mut Reading::default())? {
            Reply::Measured { extra_kib, answer } => Ok((extra_kib, answer)),
            other => Err(self.unexpected(other)),
        }
    }

    /// Waits, once, for the driver to say it is ready; a refusal before it is the judge's
    /// fault, since the solution has not run yet.
    fn ready(&mut self) -> Result<(), Ending> {
        if self.ready {
            return Ok(());
        }
        match self.wait(0, (Instant::now(), STARTUP), &mut Reading::default())? {
            Reply::Ready => {
                self.ready = true;
                Ok(())
            }
            Reply::Refused { why: Refusal::NoStack } => {
                self.stop();
                Err(Ending::NoStack)
            }
            Reply::Refused { .. } => {
                self.stop();
                Err(Ending::Protocol)
            }
            other => Err(self.unexpected(other)),
        }
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

    /// The reply to `seq`, or how the child ended; `budget` from `start` holds whatever the child
    /// sends. While it waits it reads the child's memory into `peak` (the highest sum seen)
    /// and counts what it prints; past a limit the child is killed.
    fn wait(&mut self, seq: u32, (start, budget): (Instant, Duration), peak: &mut Reading) -> Result<Reply, Ending> {
        let deadline = start + budget;
        loop {
            let now = Instant::now();
            if now >= deadline {
                self.stop();
                return Err(Ending::TimedOut { after: now - start });
            }
            let Some(channel) = self.channel.as_mut() else { return Err(self.died()) };
            match channel.next((deadline - now).min(POLL)) {
                Heard::Reply(s, reply) if s == seq => return Ok(reply),
                Heard::Reply(_, reply @ (Reply::StackOverflow | Reply::AllocationFailed { .. })) => {
                    return Err(self.unexpected(reply));
                }
                Heard::Reply(..) | Heard::Garbled => {
                    self.stop();
                    return Err(Ending::LostChannel);
                }
                Heard::Closed => return Err(self.died()),
                Heard::Quiet => {
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
        if now.resident_kib > self.limits.memory_bytes() >> 10 {
            return Some(Ending::MemoryLimit { peak_kib: now.resident_kib });
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
        let give_up = Instant::now() + GRACE;
        let mut status = None;
        while status.is_none() && Instant::now() < give_up {
            status = self.process.try_wait().ok().flatten();
            if status.is_none() {
                thread::sleep(Duration::from_millis(2));
            }
        }
        let ran_on = status.is_none();
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

/// How a child that died by itself ended: the kernel's SIGKILL is its out-of-memory killer
/// (the judge sends its own only after `stop`), any other signal or exit code is the
/// solution's own.
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
    isolation: &'a Isolation,
    child: Option<Child>,
}

impl<'a> Runner<'a> {
    pub fn new(program: &'a Program, limits: Limits, isolation: &'a Isolation) -> Runner<'a> {
        Runner { program, limits, isolation, child: None }
    }

    /// The live child, started if there is none.
    pub fn child(&mut self) -> io::Result<&mut Child> {
        if self.child.as_ref().is_none_or(Child::is_gone) {
            self.child = Some(Child::spawn(self.program, self.limits, self.isolation)?);
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
}
