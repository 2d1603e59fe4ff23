//! The judge's handle on one running submission. Each child:
//! - runs in a process group of its own, killed whole at every verdict and when it is dropped,
//!   and listed with the watchdog for when the judge itself is killed;
//! - runs in an empty scratch folder outside the workspace, with an empty environment;
//! - reads requests on one pipe and answers on another, both at descriptors the solution has
//!   no reason to touch; its stdin is /dev/null;
//! - prints into two capture files the judge reads after each call and empties;
//! - is held to the limits: a wall-clock deadline the judge keeps whatever the child sends,
//!   resident memory watched while a call runs, an address-space ceiling and a file-size
//!   ceiling set by the kernel (which the solution cannot raise unless privileged).

use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{self, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use super::channel::{Channel, Heard};
use super::compile::Program;
use super::diagnose::SourceMap;
use super::limits::{Limits, OUTPUT_LIMIT};
use super::outcome::{Answered, Call, Ending, Stream};
use super::room::{Capture, Room};
use super::sys::{self, Resource};
use super::watchdog;
use super::wire::{self, Exit, Reply, Request};

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

pub struct Child {
    process: process::Child,
    /// None once stopped.
    channel: Option<Channel>,
    stdout: Capture,
    stderr: Capture,
    limits: Limits,
    map: SourceMap,
    seq: u32,
    /// The number of the batch last sent.
    batch_seq: u32,
    ready: bool,
    gone: bool,
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

impl Child {
    /// Starts `program` under `limits`, with PATH and `ALLOCATOR` as its whole environment.
    pub fn spawn(program: &Program, limits: Limits, room: &Room) -> io::Result<Child> {
        let (binary, unit) = (&program.binary, program.unit);
        let (request_read, request_write) = io::pipe()?;
        // A 50,000-value request is 200 KB: the default 64 KiB pipe would take four round
        // trips. Unprivileged processes get up to 1 MiB; without it, only speed is lost.
        let _ = sys::widen_pipe(&request_write, REQUEST_PIPE);
        let (reply_read, reply_write) = io::pipe()?;
        let (stdout, child_stdout) = room.capture()?;
        let (stderr, child_stderr) = room.capture()?;
        let mut command = Command::new(&binary.path);
        command
            .args([unit.to_string(), limits.stack_bytes().to_string()])
            .env_clear()
            .env("PATH", "/usr/local/bin:/usr/bin:/bin")
            .envs(ALLOCATOR.map(|(name, value)| (name, value.to_string())))
            .current_dir(&room.cwd)
            .stdin(Stdio::null())
            .stdout(child_stdout)
            .stderr(child_stderr)
            .process_group(0);
        let (from_request, from_reply) = (request_read.as_raw_fd(), reply_write.as_raw_fd());
        let (parent, space) = (process::id(), limits.address_space());
        // SAFETY: between fork and exec the closure only makes system calls: no allocation,
        // no locks.
        unsafe {
            command.pre_exec(move || {
                sys::move_fd(from_request, wire::REQUEST_FD)?;
                sys::move_fd(from_reply, wire::REPLY_FD)?;
                sys::die_with_parent(parent)?;
                sys::limit(Resource::AddressSpace, space)?;
                sys::limit(Resource::FileSize, OUTPUT_LIMIT)?;
                sys::limit(Resource::CoreDump, 0)
            });
        }
        let process = command.spawn()?;
        watchdog::watch(process.id());
        drop((request_read, reply_write));
        let channel = match Channel::new(request_write, reply_read) {
            Ok(channel) => channel,
            Err(e) => {
                let _ = sys::kill_group(process.id());
                let mut process = process;
                let _ = process.wait();
                watchdog::forget(process.id());
                return Err(e);
            }
        };
        let map = binary.map.clone();
        Ok(Child {
            process,
            channel: Some(channel),
            stdout,
            stderr,
            limits,
            map,
            seq: 0,
            batch_seq: 0,
            ready: false,
            gone: false,
        })
    }

    /// Whether the child has ended; a fresh one is needed for the next call.
    pub fn is_gone(&self) -> bool {
        self.gone
    }

    /// One judged call: its answer or ending, what it printed, and the judge's wall time.
    pub fn call(&mut self, values: &[i32]) -> Call {
        if let Err(ending) = self.ready() {
            return Call {
                result: Err(ending),
                stdout: self.stdout.take(),
                stderr: self.stderr.take(),
                wall: Duration::ZERO,
            };
        }
        self.seq += 1;
        let seq = self.seq;
        let frame = Arc::new(Request::Call { values: values.into(), peak: true }.encode(seq));
        let start = Instant::now();
        let result = self.send(frame).and_then(|()| match self.wait(seq, start + self.limits.deadline())? {
            Reply::Answer { nanos, peak_kib, length, answer } => Ok(Answered { answer, length, nanos, peak_kib }),
            other => Err(self.unexpected(other)),
        });
        let wall = start.elapsed();
        Call { result, stdout: self.stdout.take(), stderr: self.stderr.take(), wall }
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
        let deadline = Instant::now() + budget;
        let reply = self.wait(self.batch_seq, deadline);
        self.stdout.take();
        self.stderr.take();
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
        let mut deadline = Instant::now() + self.limits.deadline();
        let mut times = Vec::with_capacity(reps as usize);
        let mut last = Vec::new();
        while times.len() < reps as usize {
            match self.wait(seq, deadline)? {
                Reply::Timed { nanos, answer } => {
                    times.push(nanos);
                    last = answer;
                    deadline = Instant::now() + self.limits.deadline();
                }
                other => return Err(self.unexpected(other)),
            }
        }
        Ok((times, last))
    }

    /// The resident memory one call adds, and its answer.
    pub fn measure(&mut self, values: &[i32]) -> Result<(Option<u64>, Vec<u8>), Ending> {
        self.ready()?;
        let deadline = Instant::now() + self.limits.deadline();
        match self.ask(Request::Measure { values: values.into() }, deadline)? {
            Reply::Measured { extra_kib, answer } => Ok((extra_kib, answer)),
            other => Err(self.unexpected(other)),
        }
    }

    /// Waits, once, for the driver to say it is ready.
    fn ready(&mut self) -> Result<(), Ending> {
        if self.ready {
            return Ok(());
        }
        match self.wait(0, Instant::now() + STARTUP)? {
            Reply::Ready => {
                self.ready = true;
                Ok(())
            }
            other => Err(self.unexpected(other)),
        }
    }

    fn ask(&mut self, request: Request, deadline: Instant) -> Result<Reply, Ending> {
        self.seq += 1;
        let seq = self.seq;
        self.send(Arc::new(request.encode(seq)))?;
        self.wait(seq, deadline)
    }

    fn send(&mut self, frame: Arc<Vec<u8>>) -> Result<(), Ending> {
        match self.channel.as_mut().map(|c| c.send(frame)) {
            Some(true) => Ok(()),
            _ => Err(self.died()),
        }
    }

    /// A panic or overflow report ends the child; anything else out of place is a broken channel.
    fn unexpected(&mut self, reply: Reply) -> Ending {
        let ending = match reply {
            Reply::Panicked { message, file, line, column } => {
                Ending::Panicked { message, place: self.map.place(&file, line, column) }
            }
            Reply::StackOverflow => Ending::StackOverflow,
            _ => Ending::LostChannel,
        };
        self.stop();
        ending
    }

    /// The reply to `seq`, or how the child ended; the deadline holds whatever the child sends.
    fn wait(&mut self, seq: u32, deadline: Instant) -> Result<Reply, Ending> {
        let start = Instant::now();
        loop {
            let now = Instant::now();
            if now >= deadline {
                self.stop();
                return Err(Ending::TimedOut { after: now - start });
            }
            let Some(channel) = self.channel.as_mut() else { return Err(self.died()) };
            match channel.next((deadline - now).min(POLL)) {
                Heard::Reply(s, reply) if s == seq => return Ok(reply),
                Heard::Reply(..) | Heard::Garbled => {
                    self.stop();
                    return Err(Ending::LostChannel);
                }
                Heard::Closed => return Err(self.died()),
                Heard::Quiet => {
                    if let Some(ending) = self.over_limits() {
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

    fn over_limits(&self) -> Option<Ending> {
        let rss = sys::proc_kib(Some(self.process.id()), "status", "VmRSS");
        if let Some(peak_kib) = rss.filter(|kib| *kib > self.limits.memory_bytes() >> 10) {
            return Some(Ending::MemoryLimit { peak_kib });
        }
        [(Stream::Stdout, &self.stdout), (Stream::Stderr, &self.stderr)]
            .into_iter()
            .map(|(stream, capture)| (stream, capture.size()))
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
        let status = self.stop().or(status);
        match status {
            Some(status) if !ran_on => self.classify(status),
            _ => Ending::LostChannel,
        }
    }

    fn classify(&self, status: ExitStatus) -> Ending {
        let detail = self.stderr.last_line();
        if let Some(signal) = status.signal() {
            let failed = detail.as_deref().and_then(|l| l.strip_prefix("memory allocation of"));
            let bytes = failed.and_then(|rest| rest.split_whitespace().next()?.parse().ok());
            return match (signal, bytes) {
                (sys::SIGXFSZ, _) => {
                    let stream = if self.stderr.size() >= OUTPUT_LIMIT { Stream::Stderr } else { Stream::Stdout };
                    Ending::OutputLimit { stream, bytes: OUTPUT_LIMIT }
                }
                (sys::SIGABRT, Some(bytes)) => Ending::AllocationFailed { bytes },
                _ => Ending::Signalled { signal, detail },
            };
        }
        let code = status.code().unwrap_or(-1);
        match Exit::from_code(code) {
            Some(Exit::NoStack) => Ending::NoStack,
            Some(Exit::BadArguments | Exit::BadRequest) => Ending::Protocol { code },
            Some(Exit::ReplyClosed) => Ending::LostChannel,
            _ => Ending::Exited { code, detail },
        }
    }

    /// Kills the whole group and reaps the child; returns its status if it had one.
    fn stop(&mut self) -> Option<ExitStatus> {
        if self.gone {
            return None;
        }
        self.gone = true;
        self.channel = None;
        // Before reaping, so the group id cannot have been reused.
        let _ = sys::kill_group(self.process.id());
        let status = self.process.wait().ok();
        watchdog::forget(self.process.id());
        status
    }
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
    room: &'a Room,
    child: Option<Child>,
}

impl<'a> Runner<'a> {
    pub fn new(program: &'a Program, limits: Limits, room: &'a Room) -> Runner<'a> {
        Runner { program, limits, room, child: None }
    }

    /// The live child, started if there is none.
    pub fn child(&mut self) -> io::Result<&mut Child> {
        if self.child.as_ref().is_none_or(Child::is_gone) {
            self.child = Some(Child::spawn(self.program, self.limits, self.room)?);
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
