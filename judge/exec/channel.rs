//! The judge's end of a child's two pipes, driven from the calling thread alone: requests
//! are queued and written as the pipe takes them, replies are read as they come, and every
//! wait is a `poll` with a timeout. No helper threads, so a call costs no hand-offs between
//! threads, and a child that stops reading or floods its reply pipe cannot block the judge.

use std::collections::VecDeque;
use std::io::{self, PipeReader, PipeWriter, Read, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::sys;
use super::wire::{self, Reply};

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

pub struct Channel {
    requests: PipeWriter,
    replies: PipeReader,
    /// Frames not yet wholly written, and how much of the first is.
    outgoing: VecDeque<(Arc<Vec<u8>>, usize)>,
    incoming: Vec<u8>,
    /// The child stopped reading: what was queued is dropped.
    requests_closed: bool,
    replies_closed: bool,
}

impl Channel {
    pub fn new(requests: PipeWriter, replies: PipeReader) -> io::Result<Channel> {
        sys::set_nonblocking(&requests)?;
        sys::set_nonblocking(&replies)?;
        Ok(Channel {
            requests,
            replies,
            outgoing: VecDeque::new(),
            incoming: Vec::new(),
            requests_closed: false,
            replies_closed: false,
        })
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

    /// The next whole reply, waiting at most `wait` for it while writing what is queued.
    pub fn next(&mut self, wait: Duration) -> Heard {
        let until = Instant::now() + wait;
        loop {
            if let Some(heard) = self.take_frame() {
                return heard;
            }
            if self.replies_closed {
                return if self.incoming.is_empty() { Heard::Closed } else { Heard::Garbled };
            }
            self.flush();
            let now = Instant::now();
            if now >= until {
                return Heard::Quiet;
            }
            let writing = (!self.outgoing.is_empty()).then_some(&self.requests);
            match sys::wait_for_pipes(&self.replies, writing, until - now) {
                Ok((true, _)) => self.fill(),
                Ok(_) => {}
                Err(_) => return Heard::Garbled,
            }
        }
    }

    fn take_frame(&mut self) -> Option<Heard> {
        let size = match wire::frame_size(&self.incoming)? {
            Ok(size) if size <= self.incoming.len() => size,
            Ok(_) => return None,
            Err(_) => return Some(Heard::Garbled),
        };
        let heard = match wire::read_reply(&mut &self.incoming[..size]) {
            Ok(Some((seq, reply))) => Heard::Reply(seq, reply),
            _ => Heard::Garbled,
        };
        self.incoming.drain(..size);
        Some(heard)
    }

    /// Reads what has arrived, at most a mebibyte at a time so a flood cannot keep the judge
    /// reading, and notes the end of the stream.
    fn fill(&mut self) {
        let mut chunk = [0u8; 1 << 16];
        for _ in 0..16 {
            match self.replies.read(&mut chunk) {
                Ok(0) => {
                    self.replies_closed = true;
                    return;
                }
                Ok(n) => self.incoming.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
                Err(_) => {
                    self.replies_closed = true;
                    return;
                }
            }
        }
    }
}
