//! The judge's side of the child protocol (see `serve`): splits a child's stdout into the
//! solution's own output and the framed records the child writes. Works on bytes, since a
//! solution may print anything, and holds at most a few kilobytes however much it prints.

use std::io::BufRead;
use std::sync::mpsc::Sender;

pub enum Frame {
    /// The call is about to start: the time limit counts from here.
    Started,
    Answer {
        answer: String,
        nanos: u64,
        peak_kib: Option<u64>,
    },
    Panic(String),
    /// Bytes the solution printed itself.
    Output(String),
    /// End of the stream, or a record that makes no sense.
    Closed,
}

/// A record header is a few fields; anything longer is not one.
const HEADER_LIMIT: usize = 256;

/// Reads `reader` to its end, sending frames; `mark` is the child's record prefix.
pub fn read_frames(mut reader: impl BufRead, mark: &[u8], send: Sender<Frame>) {
    let mut pending: Vec<u8> = Vec::new();
    loop {
        if let Some(at) = find(&pending, mark) {
            if at > 0 && send.send(output(&pending[..at])).is_err() {
                return;
            }
            pending.drain(..at + mark.len());
            let frame = read_record(&mut pending, &mut reader).unwrap_or(Frame::Closed);
            let closed = matches!(frame, Frame::Closed);
            if send.send(frame).is_err() || closed {
                return;
            }
            continue;
        }
        // All but a possible start of a mark at the end is the solution's own output.
        let cut = pending.len().saturating_sub(mark.len() - 1);
        if cut > 0 {
            if send.send(output(&pending[..cut])).is_err() {
                return;
            }
            pending.drain(..cut);
        }
        if !fill(&mut pending, &mut reader) {
            if !pending.is_empty() {
                let _ = send.send(output(&pending));
            }
            let _ = send.send(Frame::Closed);
            return;
        }
    }
}

fn output(bytes: &[u8]) -> Frame {
    Frame::Output(String::from_utf8_lossy(bytes).into_owned())
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Appends what the reader has ready; false at the end of the stream or on an error.
fn fill(pending: &mut Vec<u8>, reader: &mut impl BufRead) -> bool {
    match reader.fill_buf() {
        Ok(bytes) if !bytes.is_empty() => {
            let n = bytes.len();
            pending.extend_from_slice(bytes);
            reader.consume(n);
            true
        }
        _ => false,
    }
}

/// `start`, `ok <nanos> <peak KiB or -> <len>` or `re <len>`, each ended by a newline, the
/// last two followed by `len` bytes and a newline.
fn read_record(pending: &mut Vec<u8>, reader: &mut impl BufRead) -> Option<Frame> {
    let newline = loop {
        if let Some(i) = pending.iter().position(|&b| b == b'\n') {
            break i;
        }
        if pending.len() > HEADER_LIMIT || !fill(pending, reader) {
            return None;
        }
    };
    let header: Vec<u8> = pending.drain(..=newline).collect();
    let header = std::str::from_utf8(&header[..newline]).ok()?;
    let fields: Vec<&str> = header.split_whitespace().collect();
    let mut body = |len: &str| -> Option<String> {
        let len: usize = len.parse().ok()?;
        while pending.len() <= len {
            if !fill(pending, reader) {
                return None;
            }
        }
        let bytes: Vec<u8> = pending.drain(..=len).collect();
        Some(String::from_utf8_lossy(&bytes[..len]).into_owned())
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Cursor};
    use std::sync::mpsc;

    const MARK: &[u8] = b"\x1ejudge:abc ";

    /// The frames read from `bytes`, through a tiny buffer so records split across reads.
    fn frames(bytes: &[u8]) -> Vec<String> {
        let (send, receive) = mpsc::channel();
        read_frames(BufReader::with_capacity(3, Cursor::new(bytes.to_vec())), MARK, send);
        let mut seen: Vec<String> = Vec::new();
        let mut printed = String::new();
        for frame in receive {
            let text = match frame {
                Frame::Output(text) => {
                    printed.push_str(&text);
                    continue;
                }
                Frame::Started => "start".to_string(),
                Frame::Answer { answer, nanos, peak_kib } => format!("ok {answer} {nanos} {peak_kib:?}"),
                Frame::Panic(message) => format!("re {message}"),
                Frame::Closed => "closed".to_string(),
            };
            if !printed.is_empty() {
                seen.push(format!("out {:?}", std::mem::take(&mut printed)));
            }
            seen.push(text);
        }
        seen
    }

    fn record(body: &str) -> Vec<u8> {
        [MARK, body.as_bytes()].concat()
    }

    #[test]
    fn records_and_printed_output_are_told_apart() {
        let mut bytes = b"hello\n".to_vec();
        bytes.extend(record("start\n"));
        bytes.extend(b"no newline");
        bytes.extend(record("ok 12 345 3\nBob\n"));
        bytes.extend(record("re 5\nboom!\n"));
        let seen = frames(&bytes);
        assert_eq!(
            seen,
            ["out \"hello\\n\"", "start", "out \"no newline\"", "ok Bob 12 Some(345)", "re boom!", "closed"]
        );
    }

    #[test]
    fn invalid_utf8_and_long_lines_are_output_not_the_end() {
        let mut bytes = b"caf\xc3".to_vec();
        bytes.extend(vec![b'x'; 100_000]);
        bytes.extend(record("ok 1 - 5\nAlice\n"));
        let seen = frames(&bytes);
        assert!(seen[0].starts_with("out \"caf\u{fffd}xxx"), "{}", &seen[0][..20]);
        assert_eq!(seen[1..], ["ok Alice 1 None", "closed"]);
    }

    #[test]
    fn a_mark_from_another_child_or_a_broken_record_is_not_an_answer() {
        let mut bytes = b"\x1ejudge:xyz ok 5 - 5\nAlice\n".to_vec();
        bytes.extend(record("ok five - 3\nBob\n"));
        let seen = frames(&bytes);
        assert_eq!(seen.len(), 2, "{seen:?}");
        assert!(seen[0].starts_with("out \"\\u{1e}judge:xyz ok 5"), "{seen:?}");
        assert_eq!(seen[1], "closed");
        assert_eq!(frames(&record("ok 1 - 99\nshort")), ["closed"]);
    }
}
