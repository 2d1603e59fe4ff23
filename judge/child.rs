//! The judge's handle on one child process running one solution (see `serve`): it sends a
//! case, waits for the answer under a deadline, and says why the child died when it did.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child as Process, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use crate::serve::MARK;

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

enum Frame {
    Started,
    Answer { answer: String, nanos: u64, peak_kib: Option<u64> },
    Panic(String),
    Output(String),
    Closed,
}

/// Reading and parsing 50,000 values takes milliseconds; this is only a backstop.
const BEFORE_CALL: Duration = Duration::from_secs(10);
/// Past the limit, the child's own clock decides; the kill waits this much longer for it.
const SLACK: Duration = Duration::from_millis(30);

/// Keep at most this much of what a solution prints, per stream.
const KEEP_BYTES: usize = 64 * 1024;

pub struct Child {
    process: Process,
    stdin: Option<ChildStdin>,
    frames: Receiver<Frame>,
    stderr: Arc<Mutex<Vec<u8>>>,
    stderr_reader: Option<JoinHandle<()>>,
}

impl Child {
    /// Starts `judge child --solution NAME --stack-mb N` from this very executable.
    pub fn spawn(solution: &str, stack_mb: usize) -> io::Result<Child> {
        let mut process = Command::new(std::env::current_exe()?)
            .args(["child", "--solution", solution, "--stack-mb", &stack_mb.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let stdout = process.stdout.take().expect("piped stdout");
        let stderr_pipe = process.stderr.take().expect("piped stderr");
        let (send, frames) = mpsc::channel();
        thread::spawn(move || read_frames(BufReader::new(stdout), send));
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&stderr);
        let stderr_reader = thread::spawn(move || keep_tail(stderr_pipe, &sink));
        Ok(Child { stdin: process.stdin.take(), process, frames, stderr, stderr_reader: Some(stderr_reader) })
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
            match self.frames.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
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
                Err(RecvTimeoutError::Timeout) => {
                    let _ = self.process.kill();
                    self.reap();
                    return Reply::Timeout { stdout };
                }
            }
        }
    }

    /// Waits for the child to end and words how it ended.
    fn reap(&mut self) -> String {
        drop(self.stdin.take());
        let status = self.process.wait();
        if let Some(reader) = self.stderr_reader.take() {
            let _ = reader.join();
        }
        let stderr = String::from_utf8_lossy(&self.stderr.lock().unwrap_or_else(|p| p.into_inner())).into_owned();
        match status {
            Err(e) => format!("could not wait for the child: {e}"),
            Ok(status) => describe_exit(status, &stderr),
        }
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        if self.stderr_reader.is_some() {
            // A child still running may be stuck in a solution's loop: end it outright.
            let _ = self.process.kill();
            self.reap();
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

fn with_last_line(reason: String, stderr: &str) -> String {
    match stderr.lines().rev().find(|l| !l.trim().is_empty()) {
        Some(line) => format!("{reason}: {}", line.trim()),
        None => reason,
    }
}

fn read_frames(mut reader: impl BufRead, send: mpsc::Sender<Frame>) {
    let mut line = String::new();
    loop {
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => {
                let _ = send.send(Frame::Closed);
                return;
            }
            Ok(_) => {}
        }
        let Some(at) = line.find(MARK) else {
            let _ = send.send(Frame::Output(line.clone()));
            continue;
        };
        if at > 0 {
            let _ = send.send(Frame::Output(line[..at].to_string()));
        }
        let frame = match parse_frame(&line[at + MARK.len()..], &mut reader) {
            Some(frame) => frame,
            None => Frame::Closed,
        };
        let closed = matches!(frame, Frame::Closed);
        if send.send(frame).is_err() || closed {
            return;
        }
    }
}

fn parse_frame(header: &str, reader: &mut impl BufRead) -> Option<Frame> {
    let fields: Vec<&str> = header.split_whitespace().collect();
    let mut body = |len: &str| -> Option<String> {
        let mut bytes = vec![0; len.parse().ok()?];
        reader.read_exact(&mut bytes).ok()?;
        let mut newline = [0u8];
        reader.read_exact(&mut newline).ok()?;
        Some(String::from_utf8_lossy(&bytes).into_owned())
    };
    match fields.as_slice() {
        ["start"] => Some(Frame::Started),
        ["ok", nanos, peak, len] => {
            Some(Frame::Answer { nanos: nanos.parse().ok()?, peak_kib: peak.parse().ok(), answer: body(len)? })
        }
        ["re", len] => Some(Frame::Panic(body(len)?)),
        _ => None,
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
    if kept.len() < KEEP_BYTES {
        kept.push_str(text);
    }
}
