//! The judge's handle on one child process running one solution (see `serve`): it sends a
//! case, waits for the answer under a deadline, and says why the child died when it did.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::io::{self, BufReader, Read, Write};
use std::process::{Child as Process, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::frames::{read_frames, Frame};
use crate::serve::{MARK, NONCE_VAR};

/// What came back for one case.
pub enum Reply {
    /// The solution returned; `nanos` is the call alone, measured in the child.
    Answer { answer: String, nanos: u64, peak_kib: Option<u64>, stdout: String },
    /// The solution panicked; the child has exited.
    Panic { message: String, stdout: String },
    /// The child died without answering: the reason (stack overflow, signal, status).
    Died { reason: String, stdout: String },
    /// No answer before the deadline; the child has been killed.
    Timeout { stdout: String },
}

/// Reading and parsing 50,000 values takes milliseconds; this is only a backstop.
const BEFORE_CALL: Duration = Duration::from_secs(10);
/// Past the limit, the child's own clock decides; the kill waits this much longer for it.
const SLACK: Duration = Duration::from_millis(30);

/// How often a wait looks at whether the child has exited: its stdout may stay open after
/// it dies, held by a process the solution started.
const POLL: Duration = Duration::from_millis(50);
/// How long to wait for the rest of stderr once the child has exited, for the same reason.
const STDERR_GRACE: Duration = Duration::from_millis(300);

/// Keep at most this much of what a solution prints, per stream.
const KEEP_BYTES: usize = 64 * 1024;

pub struct Child {
    process: Process,
    stdin: Option<ChildStdin>,
    frames: Receiver<Frame>,
    stderr: Arc<Mutex<Vec<u8>>>,
    stderr_done: Receiver<()>,
    reaped: bool,
}

impl Child {
    /// Starts `judge child --solution NAME --stack-mb N` from this very executable.
    pub fn spawn(solution: &str, stack_mb: usize) -> io::Result<Child> {
        // A fresh random tag per child, so that nothing a solution prints by chance reads
        // as one of the child's records.
        let nonce = format!("{:016x}", RandomState::new().hash_one(std::process::id()));
        let mut process = Command::new(std::env::current_exe()?)
            .args(["child", "--solution", solution, "--stack-mb", &stack_mb.to_string()])
            .env(NONCE_VAR, &nonce)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let stdout = process.stdout.take().expect("piped stdout");
        let stderr_pipe = process.stderr.take().expect("piped stderr");
        let (send, frames) = mpsc::channel();
        let mark = format!("{MARK}{nonce} ").into_bytes();
        thread::spawn(move || read_frames(BufReader::new(stdout), &mark, send));
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&stderr);
        let (done, stderr_done) = mpsc::channel();
        thread::spawn(move || {
            keep_tail(stderr_pipe, &sink);
            let _ = done.send(());
        });
        Ok(Child { stdin: process.stdin.take(), process, frames, stderr, stderr_done, reaped: false })
    }

    /// Runs one case, given as one line of LeetCode's input format; the call gets `limit` from the moment it starts. After anything but
    /// `Reply::Answer` the child is gone.
    pub fn run(&mut self, line: &str, limit: Duration) -> Reply {
        let sent = match self.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{line}").and_then(|_| stdin.flush()),
            None => Err(io::ErrorKind::BrokenPipe.into()),
        };
        let mut stdout = String::new();
        // Until the call starts, allow for reading and parsing the input; a write to a child
        // that already died fails, and its reason is still worth finding.
        let mut deadline = Instant::now() + if sent.is_ok() { BEFORE_CALL } else { Duration::from_secs(5) };
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.frames.recv_timeout(left.min(POLL)) {
                Ok(Frame::Started) => deadline = Instant::now() + limit + SLACK,
                Ok(Frame::Output(text)) => push_bounded(&mut stdout, &text),
                Ok(Frame::Answer { answer, nanos, peak_kib }) => {
                    return Reply::Answer { answer, nanos, peak_kib, stdout };
                }
                Ok(Frame::Panic(message)) => {
                    self.reap();
                    return Reply::Panic { message, stdout };
                }
                Ok(Frame::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    return Reply::Died { reason: self.reap(), stdout };
                }
                Err(RecvTimeoutError::Timeout) if left <= POLL => {
                    let _ = self.process.kill();
                    self.reap();
                    return Reply::Timeout { stdout };
                }
                // Exited while something it started holds its stdout open: no record is coming.
                Err(RecvTimeoutError::Timeout) if matches!(self.process.try_wait(), Ok(Some(_))) => {
                    return Reply::Died { reason: self.reap(), stdout };
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// Waits for the child to end, killing it if it has not within a second, and words how
    /// it ended. A child whose stdout closed may still be looping in its solution.
    fn reap(&mut self) -> String {
        drop(self.stdin.take());
        let give_up = Instant::now() + Duration::from_secs(1);
        while matches!(self.process.try_wait(), Ok(None)) && Instant::now() < give_up {
            thread::sleep(Duration::from_millis(5));
        }
        let killed = matches!(self.process.try_wait(), Ok(None)) && self.process.kill().is_ok();
        let status = self.process.wait();
        self.reaped = true;
        let _ = self.stderr_done.recv_timeout(STDERR_GRACE);
        let stderr = String::from_utf8_lossy(&self.stderr.lock().unwrap_or_else(|p| p.into_inner())).into_owned();
        match status {
            Err(e) => format!("could not wait for the child: {e}"),
            Ok(_) if killed => with_last_line("closed its output without answering; killed".to_string(), &stderr),
            Ok(status) => describe_exit(status, &stderr),
        }
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        if !self.reaped {
            // A child still running may be stuck in a solution's loop: end it outright.
            let _ = self.process.kill();
            let _ = self.process.wait();
        }
    }
}

fn describe_exit(status: std::process::ExitStatus, stderr: &str) -> String {
    if stderr.contains("has overflowed its stack") {
        return "stack overflow".to_string();
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            let name = match signal {
                4 => " (SIGILL)",
                6 => " (SIGABRT)",
                7 => " (SIGBUS)",
                8 => " (SIGFPE)",
                9 => " (SIGKILL: out of memory?)",
                11 => " (SIGSEGV)",
                _ => "",
            };
            return with_last_line(format!("killed by signal {signal}{name}"), stderr);
        }
    }
    match status.code() {
        Some(code) => with_last_line(format!("exited with status {code}"), stderr),
        None => with_last_line("ended without a status".to_string(), stderr),
    }
}

/// The reason with the most telling line of stderr: an allocation failure if there was
/// one, else the last line that is not the runtime's advice about backtraces.
fn with_last_line(reason: String, stderr: &str) -> String {
    let lines = || stderr.lines().rev().map(str::trim).filter(|l| !l.is_empty());
    let telling = lines()
        .find(|l| l.starts_with("memory allocation of"))
        .or_else(|| lines().find(|l| !l.starts_with("note:") && !l.starts_with("stack backtrace")));
    match telling {
        Some(line) => format!("{reason}: {line}"),
        None => reason,
    }
}

fn keep_tail(mut pipe: impl Read, sink: &Mutex<Vec<u8>>) {
    let mut buffer = [0u8; 8192];
    while let Ok(n) = pipe.read(&mut buffer) {
        if n == 0 {
            break;
        }
        let mut kept = sink.lock().unwrap_or_else(|p| p.into_inner());
        kept.extend_from_slice(&buffer[..n]);
        if kept.len() > KEEP_BYTES {
            let cut = kept.len() - KEEP_BYTES;
            kept.drain(..cut);
        }
    }
}

fn push_bounded(kept: &mut String, text: &str) {
    let room = KEEP_BYTES.saturating_sub(kept.len());
    let mut end = room.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    kept.push_str(&text[..end]);
}
