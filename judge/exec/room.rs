//! The scratch folder of a judge run, outside the workspace: the children's working folder,
//! and the capture files that hold what a solution prints.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom};
use std::path::PathBuf;
use std::process;
use std::sync::atomic::{AtomicU64, Ordering};

use super::limits::OUTPUT_KEPT;
use super::outcome::Printed;
use super::watchdog;

/// The scratch folder of one judge run: the children's working folder and their capture
/// files. Removed when dropped, or by the watchdog if the judge is killed.
pub struct Room {
    dir: PathBuf,
    pub(super) cwd: PathBuf,
}

impl Room {
    pub fn new() -> io::Result<Room> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        let name = format!("judge-{}-{}-{}", process::id(), stamp.subsec_nanos(), NEXT.fetch_add(1, Ordering::Relaxed));
        let dir = std::env::temp_dir().join(name);
        let cwd = dir.join("cwd");
        std::fs::create_dir_all(&cwd)?;
        watchdog::remove_after(&dir);
        Ok(Room { dir, cwd })
    }

    /// A capture file: the judge's handle and the child's appending one. The name is removed
    /// at once, so nothing is left behind however the run ends.
    pub(super) fn capture(&self) -> io::Result<(Capture, File)> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let path = self.dir.join(format!("capture-{}", NEXT.fetch_add(1, Ordering::Relaxed)));
        let judge = OpenOptions::new().read(true).write(true).create_new(true).open(&path)?;
        let child = OpenOptions::new().append(true).open(&path)?;
        std::fs::remove_file(&path)?;
        Ok((Capture { file: judge }, child))
    }
}

impl Drop for Room {
    /// With a watchdog, which removes the folder when the judge ends, the judge does not
    /// wait for the removal.
    fn drop(&mut self) {
        if !watchdog::is_on() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

pub(super) struct Capture {
    file: File,
}

impl Capture {
    pub(super) fn size(&self) -> u64 {
        self.file.metadata().map_or(0, |m| m.len())
    }

    /// What was printed since the last call, then empty the file for the next one.
    pub(super) fn take(&mut self) -> Printed {
        let total = self.size();
        if total == 0 {
            return Printed { head: Vec::new(), total };
        }
        let mut head = Vec::new();
        let read = self
            .file
            .seek(SeekFrom::Start(0))
            .and_then(|_| (&self.file).take(OUTPUT_KEPT as u64).read_to_end(&mut head));
        let _ = read.and_then(|_| self.file.set_len(0));
        Printed { head, total }
    }

    /// The last line written so far, without consuming anything.
    pub(super) fn last_line(&self) -> Option<String> {
        let total = self.size();
        let from = total.saturating_sub(OUTPUT_KEPT as u64);
        let mut tail = Vec::new();
        let mut file = &self.file;
        file.seek(SeekFrom::Start(from)).ok()?;
        file.take(OUTPUT_KEPT as u64).read_to_end(&mut tail).ok()?;
        let text = String::from_utf8_lossy(&tail).into_owned();
        text.lines().rev().map(str::trim).find(|l| !l.is_empty()).map(str::to_string)
    }
}
