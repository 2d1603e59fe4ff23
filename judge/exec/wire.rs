//! The binary protocol between the judge and a submission's driver. The judge parses each
//! case once and sends its values as little-endian integers on a pipe of its own; the driver
//! answers on a second pipe. Neither is the solution's stdin, stdout or stderr, and nothing in
//! the environment names them.
//!
//! Every message is one frame: kind (u8), sequence number (u32), payload length (u32), then
//! the payload. A reply carries the number of the request it answers.
//!
//! This file is self-contained (no `crate::` paths): the judge uses it as `exec::wire`, and
//! every submission's driver includes the same text, so both ends share one definition.

use std::borrow::Cow;
use std::io::{self, Read};

/// Where the driver finds its two pipes, whatever the judge's own descriptors were.
pub const REQUEST_FD: i32 = 100;
pub const REPLY_FD: i32 = 101;
/// The ledger: a file the judge shares with the driver, which writes in it, for the batch it is
/// answering, three u32s: the batch's number, how many of its testcases it has answered (the
/// one it is calling is next) and how many of their answers follow, packed as in
/// `Reply::Answers` (those that fit in `LEDGER_BYTES`). Read when a batch ends badly.
pub const LEDGER_FD: i32 = 102;
pub const LEDGER_BYTES: usize = 128 << 10;
/// Where the packed answers start in the ledger.
pub const LEDGER_HEAD: usize = 12;

/// An answer longer than this is cut; its full length is still sent. A LeetCode answer here
/// is at most five bytes; this is room to show a wrong one.
pub const ANSWER_KEPT: usize = 256;
/// In a batch, each answer is cut to this: enough to tell any answer from a right one.
pub const BATCH_ANSWER_KEPT: usize = 16;
/// A panic's message is cut to this, and its file name to `FILE_KEPT`.
pub const MESSAGE_KEPT: usize = 64 << 10;
pub const FILE_KEPT: usize = 4 << 10;
/// No request is larger: a bigger length is a broken stream, not a message.
const REQUEST_LIMIT: u32 = 256 << 20;

/// What the judge asks of the driver.
/// The judge lends its cases (`Cow::Borrowed`); the driver owns what it decodes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request<'a> {
    /// One call: answered by `Answer`, or by how it ended. A `dry` one decodes the input
    /// and answers nothing without calling the solution (how `bench` tells the room the input
    /// takes from what a call adds).
    Call { values: Cow<'a, [i32]>, dry: bool },
    /// Many calls, answered together: stress, verify and the short arrays.
    #[cfg_attr(not(test), allow(dead_code))] // the judge encodes batches itself: `encode_batch`
    Batch { cases: Vec<Vec<i32>> },
}

/// What the driver answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// Sent once, numbered 0, when the driver is ready for requests.
    Ready,
    /// A call returned. `length` is the answer's full length; `answer` at most ANSWER_KEPT of it.
    Answer { length: u64, answer: Vec<u8> },
    /// Every call of a batch returned, in order, each answer cut to BATCH_ANSWER_KEPT and
    /// packed as its length (u32) and bytes: read them with `unpack`.
    Answers { packed: Vec<u8> },
    /// The call panicked; the driver exits after this. `dropped` counts the bytes of the
    /// message past what was kept (MESSAGE_KEPT by the driver; the judge keeps no more,
    /// whoever wrote the frame).
    Panicked { message: String, file: String, line: u32, column: u32, dropped: u64 },
    /// The call ran into the guard page below its stack; the driver exits after this.
    StackOverflow,
    /// An allocation of this many bytes failed; the process aborts after this.
    AllocationFailed { bytes: u64 },
    /// The driver could not do its part (sent before it exits).
    Refused { why: Refusal },
}

/// Why the driver could not serve, through no fault of the solution's code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Its command line was not the judge's.
    BadArguments = 1,
    /// A request could not be read or made no sense.
    BadRequest = 2,
    /// The solution's thread could not get the stack it was asked for.
    NoStack = 3,
}

/// How a driver process ends, when it ends by itself: for a person reading a status; the
/// judge goes by the frames, since a solution may call `exit` with any code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(test), allow(dead_code))] // the driver's end
pub enum Exit {
    /// The judge closed the request pipe.
    Served = 0,
    /// It could not serve: a `Refused` frame says why.
    Refused = 2,
    /// A call panicked (reported first).
    Panicked = 3,
    /// The reply pipe is closed.
    ReplyClosed = 5,
    /// A call overflowed its stack (reported first).
    StackOverflow = 6,
}

const CALL: u8 = 1;
const BATCH: u8 = 2;
const ANSWER: u8 = 11;
const ANSWERS: u8 = 12;
const PANICKED: u8 = 15;
const OVERFLOW: u8 = 16;
const READY: u8 = 17;
const ALLOCATION: u8 = 18;
const REFUSED: u8 = 19;

/// A frame whose payload `fill` writes in place, so a large one is not copied again.
fn framed(kind: u8, seq: u32, fill: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut out = Vec::new();
    out.push(kind);
    out.extend_from_slice(&seq.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    fill(&mut out);
    let len = (out.len() - 9) as u32;
    out[5..9].copy_from_slice(&len.to_le_bytes());
    out
}

fn put_values(out: &mut Vec<u8>, values: &[i32]) {
    out.extend_from_slice(&(values.len() as u32).to_le_bytes());
    out.extend(values.iter().flat_map(|v| v.to_le_bytes()));
}

#[cfg_attr(not(test), allow(dead_code))] // the driver's end
fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
    out.extend_from_slice(bytes);
}

impl Request<'_> {
    pub fn encode(&self, seq: u32) -> Vec<u8> {
        match self {
            Request::Call { values, dry } => framed(CALL, seq, |out| {
                out.push(u8::from(*dry));
                put_values(out, values)
            }),
            Request::Batch { cases } => encode_batch(seq, cases.iter().map(Vec::as_slice)),
        }
    }

    /// A batch request from its kind and payload (a call is read by `read_call`).
    #[cfg_attr(not(test), allow(dead_code))] // the driver's end
    fn decode(kind: u8, payload: &[u8]) -> Option<Request<'static>> {
        let mut at = Reader { bytes: payload, at: 0 };
        if kind != BATCH {
            return None;
        }
        let count = at.u32()? as usize;
        let mut cases = Vec::with_capacity(count.min(1 << 16));
        for _ in 0..count {
            cases.push(at.values()?);
        }
        at.done().then_some(Request::Batch { cases })
    }
}

/// A batch request straight from borrowed cases, without copying them into a `Request`.
pub fn encode_batch<'a>(seq: u32, cases: impl ExactSizeIterator<Item = &'a [i32]>) -> Vec<u8> {
    framed(BATCH, seq, |out| {
        out.extend_from_slice(&(cases.len() as u32).to_le_bytes());
        for case in cases {
            put_values(out, case);
        }
    })
}

impl Reply {
    #[cfg_attr(not(test), allow(dead_code))] // the driver's end
    pub fn encode(&self, seq: u32) -> Vec<u8> {
        let mut payload = Vec::new();
        let kind = match self {
            Reply::Answer { length, answer } => {
                payload.extend_from_slice(&length.to_le_bytes());
                payload.extend_from_slice(&answer[..answer.len().min(ANSWER_KEPT)]);
                ANSWER
            }
            Reply::Answers { packed } => {
                payload.extend_from_slice(packed);
                ANSWERS
            }
            Reply::Panicked { message, file, line, column, dropped } => {
                payload.extend_from_slice(&line.to_le_bytes());
                payload.extend_from_slice(&column.to_le_bytes());
                payload.extend_from_slice(&dropped.to_le_bytes());
                put_bytes(&mut payload, &file.as_bytes()[..file.len().min(FILE_KEPT)]);
                payload.extend_from_slice(&message.as_bytes()[..message.len().min(MESSAGE_KEPT)]);
                PANICKED
            }
            Reply::StackOverflow => OVERFLOW,
            Reply::Ready => READY,
            Reply::AllocationFailed { bytes } => {
                payload.extend_from_slice(&bytes.to_le_bytes());
                ALLOCATION
            }
            Reply::Refused { why } => {
                payload.push(*why as u8);
                REFUSED
            }
        };
        framed(kind, seq, |out| out.extend_from_slice(&payload))
    }

    /// A reply from its kind and payload; `cut` more bytes of the payload were dropped on the
    /// way (see `Intake`), which only a panic's message may lose.
    fn decode(kind: u8, payload: &[u8], cut: u64) -> Option<Reply> {
        let mut at = Reader { bytes: payload, at: 0 };
        if cut > 0 && kind != PANICKED {
            return None;
        }
        let reply = match kind {
            ANSWER => Reply::Answer { length: at.u64()?, answer: at.rest().to_vec() },
            ANSWERS => {
                let packed = at.rest().to_vec();
                unpack(&packed).try_for_each(|a| a.map(drop))?;
                Reply::Answers { packed }
            }
            PANICKED => {
                let (line, column, dropped) = (at.u32()?, at.u32()?, at.u64()?);
                let len = at.u32()? as usize;
                let file = String::from_utf8_lossy(at.take(len)?).into_owned();
                let message = String::from_utf8_lossy(at.rest()).into_owned();
                Reply::Panicked { line, column, file, message, dropped: dropped.saturating_add(cut) }
            }
            OVERFLOW => Reply::StackOverflow,
            READY => Reply::Ready,
            ALLOCATION => Reply::AllocationFailed { bytes: at.u64()? },
            REFUSED => Reply::Refused {
                why: match at.take(1)?[0] {
                    1 => Refusal::BadArguments,
                    2 => Refusal::BadRequest,
                    3 => Refusal::NoStack,
                    _ => return None,
                },
            },
            _ => return None,
        };
        at.done().then_some(reply)
    }
}

/// Adds one answer to a packed list (see `Reply::Answers`).
#[cfg_attr(not(test), allow(dead_code))] // the driver's end
pub fn pack(packed: &mut Vec<u8>, answer: &[u8]) {
    put_bytes(packed, &answer[..answer.len().min(BATCH_ANSWER_KEPT)]);
}

/// The answers of a packed list, in order; None for a list cut short.
pub fn unpack(packed: &[u8]) -> impl Iterator<Item = Option<&[u8]>> {
    let mut at = Reader { bytes: packed, at: 0 };
    std::iter::from_fn(move || {
        if at.done() {
            return None;
        }
        let answer = at.u32().and_then(|len| at.take(len as usize));
        if answer.is_none() {
            // Cut short: report it once, then stop.
            at.at = at.bytes.len();
        }
        Some(answer)
    })
}

/// `Reply::StackOverflow` as bytes, built without allocating: it is sent from a signal handler.
#[cfg_attr(not(test), allow(dead_code))] // the driver's end
pub fn overflow_frame(seq: u32) -> [u8; 9] {
    let seq = seq.to_le_bytes();
    [OVERFLOW, seq[0], seq[1], seq[2], seq[3], 0, 0, 0, 0]
}

/// `Reply::AllocationFailed` as bytes, built without allocating: it is sent from the allocator.
#[cfg_attr(not(test), allow(dead_code))] // the driver's end
pub fn allocation_frame(seq: u32, bytes: u64) -> [u8; 17] {
    let mut frame = [0u8; 17];
    frame[0] = ALLOCATION;
    frame[1..5].copy_from_slice(&seq.to_le_bytes());
    frame[5..9].copy_from_slice(&8u32.to_le_bytes());
    frame[9..17].copy_from_slice(&bytes.to_le_bytes());
    frame
}

/// The most payload the judge keeps of one reply, whatever its length says: the largest
/// reply a driver sends (a panic, or a batch of `answers` answers). The rest is counted and
/// dropped as it arrives.
pub fn reply_bound(answers: usize) -> usize {
    let panic = 20 + FILE_KEPT + MESSAGE_KEPT;
    panic.max(answers.saturating_mul(4 + BATCH_ANSWER_KEPT))
}

/// Replies read from a stream as it arrives, each frame's payload kept up to a bound.
#[derive(Default)]
pub struct Intake {
    head: Vec<u8>,
    /// The frame being read: its kind, number and length, the payload kept, and how much of
    /// the payload has arrived.
    frame: Option<(u8, u32, u64, Vec<u8>, u64)>,
}

impl Intake {
    /// Takes `bytes`, keeping at most `bound` bytes of each frame's payload; hands each frame
    /// that is now whole to `heard`, as its number and reply (None: not a reply).
    pub fn feed(&mut self, mut bytes: &[u8], bound: usize, heard: &mut impl FnMut(u32, Option<Reply>)) {
        while !bytes.is_empty() || self.whole() {
            match &mut self.frame {
                None if self.head.len() < 9 => {
                    let take = (9 - self.head.len()).min(bytes.len());
                    self.head.extend_from_slice(&bytes[..take]);
                    bytes = &bytes[take..];
                    if self.head.len() < 9 {
                        return;
                    }
                    let seq = u32::from_le_bytes([self.head[1], self.head[2], self.head[3], self.head[4]]);
                    let len = u32::from_le_bytes([self.head[5], self.head[6], self.head[7], self.head[8]]);
                    let kept = Vec::with_capacity((len as usize).min(bound));
                    self.frame = Some((self.head[0], seq, u64::from(len), kept, 0));
                }
                None => unreachable!("a whole head starts a frame"),
                Some((kind, seq, len, kept, arrived)) => {
                    let take = ((*len - *arrived) as usize).min(bytes.len());
                    let keep = take.min(bound.saturating_sub(kept.len()));
                    kept.extend_from_slice(&bytes[..keep]);
                    *arrived += take as u64;
                    bytes = &bytes[take..];
                    if *arrived == *len {
                        let cut = *len - kept.len() as u64;
                        heard(*seq, Reply::decode(*kind, kept, cut));
                        (self.frame, self.head) = (None, Vec::new());
                    }
                }
            }
        }
    }

    /// Whether a frame is whole but not yet handed on (one with no payload).
    fn whole(&self) -> bool {
        matches!(&self.frame, Some((_, _, len, _, arrived)) if arrived == len)
    }

    /// Whether the stream ended in the middle of a frame.
    pub fn partial(&self) -> bool {
        !self.head.is_empty()
    }

    /// How many bytes of payload are kept now.
    #[cfg(test)]
    pub fn kept(&self) -> usize {
        self.frame.as_ref().map_or(0, |(_, _, _, kept, _)| kept.len())
    }
}

/// Reads a frame's head: its kind, number and payload length, or `Ok(None)` at a clean end
/// of stream.
fn read_head(input: &mut impl Read) -> io::Result<Option<(u8, u32, usize)>> {
    let mut head = [0u8; 9];
    let mut filled = 0;
    while filled < head.len() {
        match input.read(&mut head[filled..]) {
            Ok(0) if filled == 0 => return Ok(None),
            Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let seq = u32::from_le_bytes([head[1], head[2], head[3], head[4]]);
    let len = u32::from_le_bytes([head[5], head[6], head[7], head[8]]);
    if len > REQUEST_LIMIT {
        return Err(io::Error::new(io::ErrorKind::InvalidData, "frame too large"));
    }
    Ok(Some((head[0], seq, len as usize)))
}

/// A call's input read straight into the vector the solution is given: one copy, from the
/// pipe, which is most of what a call's reading of a long input costs.
#[cfg_attr(not(test), allow(dead_code))] // the driver's end
fn read_call(input: &mut impl Read, len: usize) -> io::Result<Request<'static>> {
    let mut fixed = [0u8; 5];
    input.read_exact(&mut fixed)?;
    let count = u32::from_le_bytes([fixed[1], fixed[2], fixed[3], fixed[4]]) as usize;
    let dry = match fixed[0] {
        0 => false,
        1 => true,
        _ => return Err(invalid()),
    };
    if count.checked_mul(4).and_then(|bytes| bytes.checked_add(5)) != Some(len) {
        return Err(invalid());
    }
    let mut values = vec![0i32; count];
    // SAFETY: the bytes of `count` initialised i32s, which any bytes are a valid value of.
    let bytes = unsafe { std::slice::from_raw_parts_mut(values.as_mut_ptr().cast::<u8>(), count * 4) };
    input.read_exact(bytes)?;
    for value in &mut values {
        *value = i32::from_le(*value);
    }
    Ok(Request::Call { values: values.into(), dry })
}

fn invalid() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, "malformed frame")
}

/// The next request and its number, or `Ok(None)` when the judge has closed the pipe. The
/// driver reads a batch through one `buffer`, kept; a call's input straight into its vector.
#[cfg_attr(not(test), allow(dead_code))] // the driver's end
pub fn read_request(input: &mut impl Read, buffer: &mut Vec<u8>) -> io::Result<Option<(u32, Request<'static>)>> {
    let Some((kind, seq, len)) = read_head(input)? else { return Ok(None) };
    if kind == CALL {
        return read_call(input, len).map(|request| Some((seq, request)));
    }
    buffer.clear();
    buffer.resize(len, 0);
    input.read_exact(buffer)?;
    Request::decode(kind, buffer).map(|r| Some((seq, r))).ok_or_else(invalid)
}

/// The next reply and the number of the request it answers, or `Ok(None)` at the end.
#[cfg(test)]
pub fn read_reply(input: &mut impl Read) -> io::Result<Option<(u32, Reply)>> {
    let Some((kind, seq, len)) = read_head(input)? else { return Ok(None) };
    let mut payload = vec![0; len];
    input.read_exact(&mut payload)?;
    Reply::decode(kind, &payload, 0).map(|r| Some((seq, r))).ok_or_else(invalid)
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let slice = self.bytes.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(slice)
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }

    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }

    #[cfg_attr(not(test), allow(dead_code))] // the driver's end
    fn values(&mut self) -> Option<Vec<i32>> {
        let n = self.u32()? as usize;
        let bytes = self.take(n.checked_mul(4)?)?;
        Some(bytes.chunks_exact(4).map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
    }

    fn rest(&mut self) -> &'a [u8] {
        let rest = &self.bytes[self.at..];
        self.at = self.bytes.len();
        rest
    }

    fn done(&self) -> bool {
        self.at == self.bytes.len()
    }
}

/// The wire protocol alone, both ends.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_request_and_reply_reads_back_as_written() {
        let requests = [
            Request::Call { values: vec![1, -2, 1000, -1000].into(), dry: false },
            Request::Batch { cases: vec![vec![0], vec![3, 4, 5], vec![-7; 20]] },
            Request::Call { values: vec![4, 4].into(), dry: true },
            Request::Call { values: Vec::new().into(), dry: false },
        ];
        let mut stream = Vec::new();
        for (seq, request) in requests.iter().enumerate() {
            stream.extend(request.encode(seq as u32 + 7));
        }
        let mut input = stream.as_slice();
        for (seq, request) in requests.iter().enumerate() {
            assert_eq!(read_request(&mut input, &mut Vec::new()).unwrap(), Some((seq as u32 + 7, request.clone())));
        }
        assert_eq!(read_request(&mut input, &mut Vec::new()).unwrap(), None);
        let replies = [
            Reply::Answer { length: 3, answer: b"Bob".to_vec() },
            Reply::Answer { length: 0, answer: Vec::new() },
            Reply::AllocationFailed { bytes: 2 << 30 },
            Reply::Refused { why: Refusal::NoStack },
            Reply::Answers {
                packed: [&b"Alice"[..], b"", b"Tie"].iter().fold(Vec::new(), |mut p, a| {
                    pack(&mut p, a);
                    p
                }),
            },
            Reply::Panicked {
                message: "index out of bounds".into(),
                file: "x.rs".into(),
                line: 9,
                column: 4,
                dropped: 0,
            },
            Reply::StackOverflow,
            Reply::Ready,
        ];
        assert_eq!(Reply::StackOverflow.encode(3), overflow_frame(3));
        let stream: Vec<u8> = replies.iter().flat_map(|r| r.encode(3)).collect();
        let mut input = stream.as_slice();
        for reply in &replies {
            assert_eq!(read_reply(&mut input).unwrap(), Some((3, reply.clone())));
        }
    }

    #[test]
    fn packed_answers_unpack_in_order() {
        let mut packed = Vec::new();
        for answer in [&b"Bob"[..], b"", &[b'x'; BATCH_ANSWER_KEPT + 5]] {
            pack(&mut packed, answer);
        }
        let answers: Vec<Option<&[u8]>> = unpack(&packed).collect();
        assert_eq!(answers.len(), 3);
        assert_eq!((answers[0], answers[1]), (Some(&b"Bob"[..]), Some(&b""[..])));
        assert_eq!(answers[2].map(<[u8]>::len), Some(BATCH_ANSWER_KEPT));
        assert_eq!(unpack(&packed[..5]).last(), Some(None));
    }

    #[test]
    fn broken_streams_are_errors_not_panics() {
        let whole = Request::Call { values: vec![1, 2, 3].into(), dry: false }.encode(1);
        for cut in 1..whole.len() {
            assert!(read_request(&mut &whole[..cut], &mut Vec::new()).is_err(), "cut at {cut}");
        }
        let mut unknown = whole.clone();
        unknown[0] = 99;
        assert!(read_request(&mut unknown.as_slice(), &mut Vec::new()).is_err());
        let mut huge = whole.clone();
        huge[5..9].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(read_request(&mut huge.as_slice(), &mut Vec::new()).is_err());
        // A payload longer than its content is malformed too.
        let mut padded = whole;
        padded[5] += 1;
        padded.push(0);
        assert!(read_request(&mut padded.as_slice(), &mut Vec::new()).is_err());
    }

    /// Replies fed a byte at a time, or in one piece: the same replies, in order.
    #[test]
    fn the_intake_hears_whole_replies_however_the_bytes_arrive() {
        let replies = [Reply::Ready, Reply::Answer { length: 5, answer: b"Alice".to_vec() }, Reply::StackOverflow];
        let stream: Vec<u8> = replies.iter().enumerate().flat_map(|(seq, r)| r.encode(seq as u32)).collect();
        for step in [1, 3, stream.len()] {
            let mut intake = Intake::default();
            let mut heard = Vec::new();
            for piece in stream.chunks(step) {
                intake.feed(piece, reply_bound(0), &mut |seq, reply| heard.push((seq, reply)));
            }
            let expected: Vec<(u32, Option<Reply>)> =
                replies.iter().enumerate().map(|(seq, r)| (seq as u32, Some(r.clone()))).collect();
            assert_eq!(heard, expected, "pieces of {step}");
            assert!(!intake.partial());
        }
    }

    /// A frame as long as the child likes is kept to the bound, the rest counted and dropped:
    /// a panic keeps the head of its message and says how much went; anything else is no reply.
    #[test]
    fn the_intake_keeps_a_bounded_head_of_any_frame() {
        let huge = "x".repeat(3 * MESSAGE_KEPT);
        let mut panic =
            Reply::Panicked { message: huge, file: "f.rs".into(), line: 1, column: 2, dropped: 0 }.encode(4);
        // Written by a driver, the message is cut already; a forged frame is not: uncut it.
        let (head, tail) = panic.split_at_mut(9);
        let forged = u32::from_le_bytes([head[5], head[6], head[7], head[8]]) as usize + 2 * MESSAGE_KEPT;
        head[5..9].copy_from_slice(&(forged as u32).to_le_bytes());
        let mut frame = [head, tail].concat();
        frame.extend(std::iter::repeat_n(b'y', 2 * MESSAGE_KEPT));
        let mut intake = Intake::default();
        let mut heard = Vec::new();
        for piece in frame.chunks(1 << 16) {
            intake.feed(piece, reply_bound(0), &mut |seq, reply| heard.push((seq, reply)));
            assert!(intake.kept() <= reply_bound(0), "kept {} bytes", intake.kept());
        }
        match &heard[..] {
            [(4, Some(Reply::Panicked { message, dropped, .. }))] => {
                assert!(message.len() >= MESSAGE_KEPT && message.len() < reply_bound(0), "{}", message.len());
                assert_eq!(message.len() + *dropped as usize, 3 * MESSAGE_KEPT);
            }
            other => panic!("{:?}", other.iter().map(|(s, r)| (s, r.is_some())).collect::<Vec<_>>()),
        }
        // An answer longer than any driver sends is no reply.
        let mut answer = Reply::Answer { length: 1, answer: b"A".to_vec() }.encode(5);
        answer[5..9].copy_from_slice(&(reply_bound(0) as u32 + 1).to_le_bytes());
        answer.resize(9 + reply_bound(0) + 1, b'A');
        let mut heard = Vec::new();
        Intake::default().feed(&answer, reply_bound(0), &mut |seq, reply| heard.push((seq, reply)));
        assert_eq!(heard, [(5, None)]);
    }
}
