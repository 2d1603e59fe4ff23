//! The judge's end of a child's pipes, driven from the calling thread alone: requests are
//! queued and written as the pipe takes them, replies are read as they come, and what the
//! solution prints on stdout and stderr is read as it crosses its pipe and counted, the first
//! bytes of each call kept to show. Every wait is one `poll` with a timeout. No helper
//! threads, so a call costs no hand-offs between threads, and a child that stops reading or
//! floods a pipe cannot block the judge. What the judge keeps of any stream is bounded,
//! whatever the child sends: a reply's payload by `wire::reply_bound`, the rest counted and
//! dropped; each output stream by `OUTPUT_KEPT` a call.

use std::collections::VecDeque;
use std::io::{self, PipeReader, PipeWriter, Read, Write};
use std::os::fd::AsRawFd;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::limits::OUTPUT_KEPT;
use super::outcome::{Printed, Stream};
use super::sys::{self, READABLE, WRITABLE};
use super::wire::{self, Intake, Reply};

/// What a wait on the reply pipe came to.
pub enum Heard {
    Reply(u32, Reply),
    /// The child closed its end after whole frames only.
    Closed,
    /// A frame that cannot be read, or an end in the middle of one.
    Garbled,
    /// Nothing whole arrived in the time given.
    Quiet,
}

/// What one stream carried since it was last taken.
#[derive(Default)]
struct Output {
    head: Vec<u8>,
    total: u64,
    closed: bool,
}

pub struct Channel {
    requests: PipeWriter,
    replies: PipeReader,
    stdout: PipeReader,
    stderr: PipeReader,
    output: [Output; 2],
    /// Frames not yet wholly written, and how much of the first is.
    outgoing: VecDeque<(Arc<Vec<u8>>, usize)>,
    intake: Intake,
    /// Replies read whole and not yet handed on; None for a frame that is no reply.
    heard: VecDeque<(u32, Option<Reply>)>,
    /// The most of a reply's payload kept (see `expect`).
    bound: usize,
    /// The child stopped reading: what was queued is dropped.
    requests_closed: bool,
    replies_closed: bool,
}

impl Channel {
    pub fn new(
        requests: PipeWriter,
        replies: PipeReader,
        stdout: PipeReader,
        stderr: PipeReader,
    ) -> io::Result<Channel> {
        for end in [replies.as_raw_fd(), stdout.as_raw_fd(), stderr.as_raw_fd()] {
            sys::set_nonblocking(&end)?;
        }
        sys::set_nonblocking(&requests)?;
        Ok(Channel {
            requests,
            replies,
            stdout,
            stderr,
            output: [Output::default(), Output::default()],
            outgoing: VecDeque::new(),
            intake: Intake::default(),
            heard: VecDeque::new(),
            bound: wire::reply_bound(0),
            requests_closed: false,
            replies_closed: false,
        })
    }

    /// The next reply may be a batch of `answers` answers: its payload is kept up to the most
    /// such a reply holds (see `wire::reply_bound`).
    pub fn expect(&mut self, answers: usize) {
        self.bound = wire::reply_bound(answers);
    }

    /// Queues a frame and writes what the pipe takes now; the rest goes during the next waits.
    /// False when the child no longer reads.
    pub fn send(&mut self, frame: Arc<Vec<u8>>) -> bool {
        if self.requests_closed {
            return false;
        }
        self.outgoing.push_back((frame, 0));
        self.flush();
        !self.requests_closed
    }

    fn flush(&mut self) {
        while let Some((frame, written)) = self.outgoing.front_mut() {
            match self.requests.write(&frame[*written..]) {
                Ok(n) => {
                    *written += n;
                    if *written == frame.len() {
                        self.outgoing.pop_front();
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
                Err(_) => {
                    self.requests_closed = true;
                    self.outgoing.clear();
                }
            }
        }
    }

    /// The next whole reply, waiting at most `wait` for it while writing what is queued and
    /// reading what the solution prints. What it printed before the reply is read first.
    pub fn next(&mut self, wait: Duration) -> Heard {
        let until = Instant::now() + wait;
        // Even with no time to wait, the pipes are looked at once.
        let mut looked = false;
        loop {
            if let Some(heard) = self.take_frame() {
                self.drain();
                return heard;
            }
            if self.replies_closed {
                self.drain();
                return if self.intake.partial() { Heard::Garbled } else { Heard::Closed };
            }
            self.flush();
            let now = Instant::now();
            if now >= until && looked {
                return Heard::Quiet;
            }
            looked = true;
            let writing = if self.outgoing.is_empty() { -1 } else { self.requests.as_raw_fd() };
            let watched = [
                (self.replies.as_raw_fd(), READABLE),
                (if self.output[0].closed { -1 } else { self.stdout.as_raw_fd() }, READABLE),
                (if self.output[1].closed { -1 } else { self.stderr.as_raw_fd() }, READABLE),
                (writing, WRITABLE),
            ];
            let mut ready = [0; 4];
            if sys::wait_for_fds(&watched, &mut ready, until.saturating_duration_since(now)).is_err() {
                return Heard::Garbled;
            }
            if ready[1] != 0 || ready[2] != 0 {
                self.drain();
            }
            if ready[0] != 0 {
                self.fill();
            }
        }
    }

    /// Reads whatever both output pipes hold now.
    fn drain(&mut self) {
        for (output, pipe) in self.output.iter_mut().zip([&mut self.stdout, &mut self.stderr]) {
            let read = read_now(pipe, |bytes| {
                let room = OUTPUT_KEPT.saturating_sub(output.head.len());
                output.head.extend_from_slice(&bytes[..bytes.len().min(room)]);
                output.total += bytes.len() as u64;
            });
            output.closed |= matches!(read, Ok(true));
        }
    }

    /// How many bytes a stream carried since it was last taken.
    pub fn printed(&self, stream: Stream) -> u64 {
        self.output[stream as usize].total
    }

    /// What a stream carried since it was last taken, and empty it for the next call.
    pub fn take(&mut self, stream: Stream) -> Printed {
        self.drain();
        let output = std::mem::take(&mut self.output[stream as usize]);
        self.output[stream as usize].closed = output.closed;
        Printed { head: output.head, total: output.total }
    }

    fn take_frame(&mut self) -> Option<Heard> {
        self.heard.pop_front().map(|heard| match heard {
            (seq, Some(reply)) => Heard::Reply(seq, reply),
            (_, None) => Heard::Garbled,
        })
    }

    /// Reads what has arrived on the reply pipe, and notes the end of the stream.
    fn fill(&mut self) {
        let (intake, heard, bound) = (&mut self.intake, &mut self.heard, self.bound);
        let read = read_now(&mut self.replies, |bytes| {
            intake.feed(bytes, bound, &mut |seq, reply| heard.push_back((seq, reply)));
        });
        self.replies_closed |= !matches!(read, Ok(false));
    }
}

/// Reads what `pipe` holds now, at most a mebibyte so that a flood cannot keep the judge
/// reading, handing each piece to `take`: Ok(true) at the end of the stream, Ok(false) when
/// nothing more is there yet.
fn read_now(pipe: &mut PipeReader, mut take: impl FnMut(&[u8])) -> io::Result<bool> {
    let mut chunk = [0u8; 1 << 16];
    for _ in 0..16 {
        match pipe.read(&mut chunk) {
            Ok(0) => return Ok(true),
            Ok(n) => take(&chunk[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(false),
            Err(e) => return Err(e),
        }
    }
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reply_already_in_the_pipe_is_heard_with_no_time_left_to_wait() {
        let (_requests, request_end) = io::pipe().unwrap();
        let (reply_end, mut replies) = io::pipe().unwrap();
        let (stdout_end, _stdout) = io::pipe().unwrap();
        let (stderr_end, _stderr) = io::pipe().unwrap();
        let mut channel = Channel::new(request_end, reply_end, stdout_end, stderr_end).unwrap();
        assert!(matches!(channel.next(Duration::ZERO), Heard::Quiet));
        // As when the judge was held off a CPU between its last look and its reading of the
        // time: the reply is there, and a look with no time to wait must find it.
        replies.write_all(&Reply::Ready.encode(7)).unwrap();
        assert!(matches!(channel.next(Duration::ZERO), Heard::Reply(7, Reply::Ready)));
    }
}
