//! The ledger: a file in memory the judge shares with each child (`wire::LEDGER_FD`), where
//! the driver writes, for the batch it is answering, how many testcases it has answered and
//! their answers, each as it is given. When a batch ends badly (a spin, a panic, too much
//! memory), the judge reads from it how far the batch got: the answers given before, and the
//! testcase that was running. The solution's process can write there too: it can hide which
//! testcase was running, never make a batch that ended badly pass.

use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, RawFd};

use super::sys::{self, Mapping};
use super::wire;

pub struct Ledger {
    file: File,
    map: Mapping,
}

/// How far a batch got, by its ledger.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Testcases answered, in order: the one being called when it ended is the next.
    pub answered: usize,
    /// Their answers, as far as the ledger held them (all but the last few of a batch too
    /// large for it), each cut to `wire::BATCH_ANSWER_KEPT` bytes.
    pub answers: Vec<Vec<u8>>,
}

impl Ledger {
    pub fn new() -> io::Result<Ledger> {
        let file = sys::shared_file(wire::LEDGER_BYTES as u64)?;
        let map = Mapping::shared(file.as_raw_fd(), wire::LEDGER_BYTES)?;
        Ok(Ledger { file, map })
    }

    /// The descriptor to give the child at `wire::LEDGER_FD`.
    pub fn fd(&self) -> RawFd {
        self.file.as_raw_fd()
    }

    /// How far batch `seq` of `cases` testcases got; None when the ledger names another batch
    /// (the driver never began it). Read once the child has stopped.
    pub fn read(&self, seq: u32, cases: usize) -> Option<Progress> {
        let bytes = self.copy();
        let word = |k: usize| u32::from_le_bytes(bytes[4 * k..4 * k + 4].try_into().expect("four bytes"));
        if word(0) != seq {
            return None;
        }
        let answered = (word(1) as usize).min(cases);
        let answers = wire::unpack(&bytes[wire::LEDGER_HEAD..])
            .take(answered.min(word(2) as usize))
            .map_while(|a| a.filter(|a| a.len() <= wire::BATCH_ANSWER_KEPT).map(<[u8]>::to_vec))
            .collect();
        Some(Progress { answered, answers })
    }

    /// The whole ledger, copied out: another process writes it, so it is never borrowed.
    fn copy(&self) -> Vec<u8> {
        let mut bytes = vec![0u8; self.map.len()];
        // SAFETY: the mapping is `len` bytes long and readable; the copy is byte by byte
        // through volatile reads, since another process may write it.
        for (k, byte) in bytes.iter_mut().enumerate() {
            *byte = unsafe { self.map.as_ptr().add(k).read_volatile() };
        }
        bytes
    }

    #[cfg(test)]
    fn write(&self, at: usize, bytes: &[u8]) {
        assert!(at + bytes.len() <= self.map.len());
        // SAFETY: within the mapping, as checked.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), self.map.as_ptr().add(at), bytes.len()) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ledger_says_how_far_its_batch_got_and_only_for_that_batch() {
        let ledger = Ledger::new().unwrap();
        assert_eq!(ledger.read(0, 5), Some(Progress::default()), "a new ledger: nothing answered");
        let mut packed = Vec::new();
        for answer in ["Alice", "Bob", "Tie"] {
            wire::pack(&mut packed, answer.as_bytes());
        }
        ledger.write(0, &7u32.to_le_bytes());
        ledger.write(4, &3u32.to_le_bytes());
        ledger.write(8, &3u32.to_le_bytes());
        ledger.write(wire::LEDGER_HEAD, &packed);
        let progress = ledger.read(7, 5).unwrap();
        assert_eq!(progress.answered, 3);
        assert_eq!(progress.answers, [b"Alice".to_vec(), b"Bob".to_vec(), b"Tie".to_vec()]);
        assert_eq!(ledger.read(8, 5), None, "another batch's ledger says nothing of this one");
        // Answers the ledger had no room for are not read from it, empty as they look.
        ledger.write(4, &4u32.to_le_bytes());
        assert_eq!(ledger.read(7, 5).unwrap(), Progress { answered: 4, answers: progress.answers.clone() });
        // A count past the batch is the batch; answers that do not parse end the list.
        ledger.write(4, &u32::MAX.to_le_bytes());
        ledger.write(8, &u32::MAX.to_le_bytes());
        ledger.write(wire::LEDGER_HEAD + packed.len(), &u32::MAX.to_le_bytes());
        let progress = ledger.read(7, 5).unwrap();
        assert_eq!((progress.answered, progress.answers.len()), (5, 3));
    }

    #[test]
    fn what_a_child_writes_in_its_ledger_the_judge_reads() {
        let ledger = Ledger::new().unwrap();
        // Another mapping of the same file stands for the child's.
        let theirs = Mapping::shared(ledger.fd(), wire::LEDGER_BYTES).unwrap();
        // SAFETY: the head's first two words, within the mapping.
        unsafe {
            theirs.as_ptr().cast::<u32>().write_volatile(9);
            theirs.as_ptr().add(4).cast::<u32>().write_volatile(1);
        }
        assert_eq!(ledger.read(9, 2).map(|p| p.answered), Some(1));
    }
}
