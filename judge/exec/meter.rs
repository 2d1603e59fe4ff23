//! How much memory a child holds, all its processes together, read by the judge from the
//! kernel's own counters in /proc: the program's resident set and high-water mark, and those of
//! every process it started that is still alive (in a sandbox, every process of its pid
//! namespace but the init, which is a fork of the judge and holds the judge's pages). The
//! program's high-water mark is reset before each call, so a call's peak is its own.
//!
//! A memory cgroup would count the same exactly and enforce the limit itself, but joining one
//! waits for a kernel RCU grace period (about 10 ms per child on this kernel when children
//! start apart; the README has the figures), which costs more than judging a fast solution.

use std::fs::{self, File, OpenOptions};
use std::io;
use std::os::unix::fs::FileExt;

/// The processes of one child.
#[derive(Debug)]
pub struct Meter {
    /// The program: what the child's binary runs as.
    program: u32,
    /// The sandbox's init, whose other children (orphans the program left) count too; None
    /// outside a sandbox.
    init: Option<u32>,
    /// The program's `status` and `clear_refs`, held open: read and written before and after
    /// every call without a path lookup, and never another process's should its pid be reused.
    status: Option<File>,
    clear_refs: Option<File>,
}

/// One reading, in KiB.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reading {
    /// Resident now, summed over the processes.
    pub resident_kib: u64,
    /// Each process's high-water mark since the last reset, summed.
    pub peak_kib: u64,
}

impl Meter {
    /// A child that is one process (no sandbox).
    pub fn process(pid: u32) -> Meter {
        Meter::of(pid, None)
    }

    /// A sandbox whose keeper is `keeper`: its init, and the init's child, the program; each
    /// waited for up to `within`, since a loaded machine can take a while to start them.
    pub fn sandbox(keeper: u32, within: std::time::Duration) -> io::Result<Meter> {
        let give_up = std::time::Instant::now() + within;
        let init = first_child(keeper, give_up)?;
        Ok(Meter::of(first_child(init, give_up)?, Some(init)))
    }

    fn of(program: u32, init: Option<u32>) -> Meter {
        let status = File::open(format!("/proc/{program}/status")).ok();
        let clear_refs = OpenOptions::new().write(true).open(format!("/proc/{program}/clear_refs")).ok();
        Meter { program, init, status, clear_refs }
    }

    /// Starts the program's high-water mark again from what is resident now.
    pub fn reset_peak(&self) {
        if let Some(file) = &self.clear_refs {
            let _ = file.write_at(b"5", 0);
        }
    }

    /// Every process of the child now: the program first, then what it started.
    fn processes(&self) -> Vec<u32> {
        let mut found = vec![self.program];
        let mut at = 0;
        if let Some(init) = self.init {
            // Orphans are the init's: it is their reaper.
            found.extend(children(init).into_iter().filter(|p| *p != self.program));
        }
        while at < found.len() {
            for child in children(found[at]) {
                if !found.contains(&child) {
                    found.push(child);
                }
            }
            at += 1;
        }
        found
    }

    /// The program's own resident memory and high-water mark: what a call that ends between
    /// two of `read`'s samples is measured by (memory grows no faster than pages fault in).
    pub fn read_program(&self) -> Reading {
        let mut text = [0u8; 4096];
        let read = self.status.as_ref().and_then(|file| file.read_at(&mut text, 0).ok()).unwrap_or(0);
        let (resident_kib, peak_kib) = fields(&String::from_utf8_lossy(&text[..read])).unwrap_or_default();
        Reading { resident_kib, peak_kib: peak_kib.max(resident_kib) }
    }

    /// Resident memory and high-water marks, summed over the child's processes.
    pub fn read(&self) -> Reading {
        let mut reading = Reading::default();
        for pid in self.processes() {
            if let Some((resident, peak)) = status(pid) {
                reading.resident_kib += resident;
                reading.peak_kib += peak.max(resident);
            }
        }
        reading
    }
}

/// The first child of `parent`'s main thread, waiting for it to be listed until `give_up`,
/// or until `parent` itself is gone.
fn first_child(parent: u32, give_up: std::time::Instant) -> io::Result<u32> {
    loop {
        if let Some(child) = children_of_task(parent, parent).first() {
            return Ok(*child);
        }
        let gone = !std::path::Path::new(&format!("/proc/{parent}/task/{parent}")).exists();
        if gone || std::time::Instant::now() >= give_up {
            let why = if gone { "ended before it had one" } else { "has none yet" };
            return Err(io::Error::new(io::ErrorKind::NotFound, format!("process {parent} has no child: it {why}")));
        }
        std::thread::sleep(std::time::Duration::from_micros(50));
    }
}

/// The children of every thread of `pid` (the main thread alone, unless it has others).
fn children(pid: u32) -> Vec<u32> {
    let mut found = children_of_task(pid, pid);
    let threads = fs::read_dir(format!("/proc/{pid}/task")).into_iter().flatten().flatten();
    for task in threads.filter_map(|t| t.file_name().to_str()?.parse::<u32>().ok()).filter(|t| *t != pid) {
        found.extend(children_of_task(pid, task));
    }
    found
}

fn children_of_task(pid: u32, task: u32) -> Vec<u32> {
    let listed = fs::read_to_string(format!("/proc/{pid}/task/{task}/children")).unwrap_or_default();
    listed.split_whitespace().filter_map(|p| p.parse().ok()).collect()
}

/// `VmRSS` and `VmHWM` of a process, in KiB; None once it has ended.
fn status(pid: u32) -> Option<(u64, u64)> {
    fields(&fs::read_to_string(format!("/proc/{pid}/status")).ok()?)
}

/// `VmRSS` and `VmHWM` from the text of a `status` file.
fn fields(text: &str) -> Option<(u64, u64)> {
    let field = |name: &str| {
        let line = text.lines().find_map(|l| l.strip_prefix(name))?;
        line.trim().trim_end_matches("kB").trim().parse::<u64>().ok()
    };
    Some((field("VmRSS:")?, field("VmHWM:").unwrap_or(0)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    #[test]
    fn a_child_that_forks_is_counted_whole() {
        // A shell that starts a second shell holding 64 MiB in a variable, then waits.
        let script = "sh -c 'x=$(head -c 67108864 /dev/zero | tr \"\\\\0\" a); sleep 30' & wait";
        let mut shell = Command::new("sh").args(["-c", script]).stdout(Stdio::null()).process_group(0).spawn().unwrap();
        let meter = Meter::process(shell.id());
        let give_up = Instant::now() + Duration::from_secs(20);
        let mut reading = meter.read();
        while reading.resident_kib < 64 << 10 && Instant::now() < give_up {
            std::thread::sleep(Duration::from_millis(20));
            reading = meter.read();
        }
        let processes = meter.processes().len();
        super::super::sys::kill_group(shell.id()).unwrap();
        shell.wait().unwrap();
        assert!(reading.resident_kib >= 64 << 10, "{reading:?} over {processes} processes");
        assert!(processes >= 2, "the shell's children are counted");
    }
}
