//! What a child uses, read by the judge from the kernel: the CPU time and memory of its box,
//! and the account of the thread that runs the solution (see `account` for how they count).
//!
//! With a cgroup cell (see `cgroup`): the cell's counters, over every process in it: its CPU
//! time, everything its processes hold (heap, stack, page tables, shared memory, memfds, pipe
//! buffers, tmpfs pages), its peak since the last reset, and the kernel's out-of-memory kills.
//!
//! Without one, the program is one process (the sandbox refuses it any other, see
//! `sys::refuse_new_processes`): its process CPU clock, which counts every thread it ever ran,
//! and its resident memory and high-water mark from /proc. Memory that no process maps (a
//! memfd, SysV shared memory, pipe buffers) is not seen there; the sandbox bounds it instead.
//!
//! The solution's thread is the program's main thread (its id is the program's pid): its
//! `schedstat` gives its time on a CPU and its time waiting for one.

use std::fs::{File, OpenOptions};
use std::os::unix::fs::FileExt;
use std::time::{Duration, Instant};

use super::account::Sched;
use super::cgroup::Lease;
use super::procfs;
use super::sys;

/// The processes of one child.
pub struct Meter {
    /// The program: what the child's binary runs as.
    program: u32,
    /// The program's `status`, `clear_refs` and main thread's `schedstat` and `stat`, held
    /// open: read before and after every call without a path lookup, and never another
    /// process's should its pid be reused.
    status: Option<File>,
    clear_refs: Option<File>,
    schedstat: Option<File>,
    stat: Option<File>,
    cell: Option<Lease>,
    /// The process that adopts the program's orphans: a sandbox's init, a room's keeper.
    parent: Option<u32>,
    /// The box's CPU time last read: what a reading gives once the program is gone.
    last_cpu: std::cell::Cell<u64>,
}

/// Memory, in KiB.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reading {
    /// Held now, over every process.
    pub resident_kib: u64,
    /// The most held since the last reset: the cell's peak, or the program's high-water mark.
    pub peak_kib: u64,
}

impl Meter {
    /// A child outside a sandbox, started by `keeper`: the program is the keeper's child on
    /// Linux (see `sandbox::keep_orphans`), waited for up to `within` as in a sandbox; the
    /// keeper itself elsewhere. Without `thread`, the solution runs on a thread the judge does
    /// not know: its CPU time and memory only.
    pub fn room(keeper: u32, within: Duration, cell: Option<Lease>, thread: bool) -> std::io::Result<Meter> {
        #[cfg(target_os = "linux")]
        let meter = match first_child(keeper, Instant::now() + within) {
            Ok(program) => Meter { parent: Some(keeper), ..Meter::of(program, cell) },
            // The program has ended already: the keeper, which ends as it did, stands for it.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Meter::of(keeper, cell),
            Err(e) => return Err(e),
        };
        #[cfg(not(target_os = "linux"))]
        let meter = {
            let _ = within;
            Meter::of(keeper, cell)
        };
        Ok(match thread {
            true => meter,
            false => Meter { schedstat: None, stat: None, ..meter },
        })
    }

    /// A sandbox whose keeper is `keeper`: the program is its init's first child; each waited
    /// for up to `within`, since a loaded machine can take a while to start them.
    pub fn sandbox(keeper: u32, within: Duration, cell: Option<Lease>) -> std::io::Result<Meter> {
        let give_up = Instant::now() + within;
        match first_child(keeper, give_up).and_then(|init| Ok((init, first_child(init, give_up)?))) {
            Ok((init, program)) => Ok(Meter { parent: Some(init), ..Meter::of(program, cell) }),
            // The sandbox started the program (the caller's spawn returned once it had exec'd),
            // and it has ended already: the keeper, which ends as it did, stands for it.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Meter::of(keeper, cell)),
            Err(e) => Err(e),
        }
    }

    fn of(program: u32, cell: Option<Lease>) -> Meter {
        let status = File::open(format!("/proc/{program}/status")).ok();
        let clear_refs = OpenOptions::new().write(true).open(format!("/proc/{program}/clear_refs")).ok();
        let schedstat = File::open(format!("/proc/{program}/task/{program}/schedstat")).ok();
        let stat = File::open(format!("/proc/{program}/task/{program}/stat")).ok();
        Meter { program, status, clear_refs, schedstat, stat, cell, parent: None, last_cpu: std::cell::Cell::new(0) }
    }

    /// The program's pid.
    pub fn program(&self) -> u32 {
        self.program
    }

    /// The box's CPU time, ever, in nanoseconds: the cell's, or the program's process clock.
    /// The kernel adds a running thread's time to its accounts only when it leaves the CPU,
    /// or when its process clock is read: the clock is read first, so that a thread of the
    /// program that is still on a CPU (just after its reply, say) is counted up to now.
    pub fn cpu_ns(&self) -> u64 {
        let program = sys::process_cpu_ns(self.program);
        let now = match &self.cell {
            Some(cell) => Some(cell.cpu_ns()),
            None => program,
        };
        // Counters only grow; a process that is gone has no more to add.
        let now = now.unwrap_or(0).max(self.last_cpu.get());
        self.last_cpu.set(now);
        now
    }

    /// In a cell, the child's live processes other than the program: the children of any of
    /// its threads, and the orphans its init or keeper adopted. Without a cell, none: the CPU
    /// time of such a process is counted nowhere (see `account`).
    pub fn others(&self) -> Vec<u32> {
        if self.cell.is_none() {
            return Vec::new();
        }
        let live = |pid: u32, task: u32| procfs::children_of_task(pid, task).into_iter().filter(|&c| !procfs::ended(c));
        let mut others: Vec<u32> =
            procfs::threads(self.program).into_iter().flat_map(|t| live(self.program, t)).collect();
        if let Some(parent) = self.parent {
            others.extend(live(parent, parent).filter(|&c| c != self.program));
        }
        others
    }

    /// The solution thread's account; None where the kernel keeps none or it cannot be read.
    pub fn thread(&self) -> Option<Sched> {
        let mut text = [0u8; 128];
        procfs::sched(procfs::reread(self.schedstat.as_ref()?, &mut text))
    }

    /// Whether the solution thread is on a CPU or waiting for one (false where it cannot be read).
    pub fn runnable(&self) -> bool {
        let mut text = [0u8; 512];
        self.stat.as_ref().is_some_and(|file| procfs::runnable(procfs::reread(file, &mut text)))
    }

    /// Starts the peak again from what is held now.
    pub fn reset_peak(&self) {
        if let Some(cell) = &self.cell {
            if cell.reset_peak() {
                return;
            }
        }
        if let Some(file) = &self.clear_refs {
            let _ = file.write_at(b"5", 0);
        }
    }

    /// Memory now, and the peak since the reset (where the cell cannot reset its peak, the
    /// program's own high-water mark stands in for it).
    pub fn read(&self) -> Reading {
        if let Some(cell) = &self.cell {
            let memory_kib = cell.memory_kib();
            let peak = cell.peak_kib().unwrap_or_else(|| self.read_program().peak_kib);
            return Reading { resident_kib: memory_kib, peak_kib: peak.max(memory_kib) };
        }
        self.read_program()
    }

    /// The program's own resident memory and high-water mark.
    pub fn read_program(&self) -> Reading {
        let mut text = [0u8; 4096];
        let fields = self.status.as_ref().map(|file| fields(procfs::reread(file, &mut text)));
        let (resident_kib, peak_kib) = fields.flatten().or_else(|| memory_of(self.program)).unwrap_or_default();
        Reading { resident_kib, peak_kib: peak_kib.max(resident_kib) }
    }

    /// Whether the program has ended: gone, or a zombie not yet reaped.
    pub fn program_ended(&self) -> bool {
        let mut text = [0u8; 4096];
        let Some(file) = &self.status else { return procfs::ended(self.program) };
        let state = procfs::reread(file, &mut text).lines().find_map(|l| l.strip_prefix("State:"));
        state.is_none_or(|s| matches!(s.trim_start().chars().next(), Some('Z' | 'X')))
    }

    /// Kills the program and its process group, only while the program is there (running,
    /// or ended and not yet reaped), as its held `status` tells: once its keeper has reaped
    /// it, its pid and group id may be any new process's (the kernel hands them out again,
    /// within seconds where processes come and go fast). False when it could not tell.
    #[cfg(target_os = "linux")]
    pub fn kill_program(&self) -> bool {
        let mut text = [0u8; 4096];
        let Some(file) = &self.status else { return false };
        if !procfs::reread(file, &mut text).is_empty() {
            let _ = sys::kill(self.program, sys::SIGKILL);
            let _ = sys::kill_group(self.program);
        }
        true
    }

    /// How many of the child's processes the kernel's out-of-memory killer has killed, ever
    /// (with a cell; 0 without).
    pub fn oom_kills(&self) -> u64 {
        self.cell.as_ref().map_or(0, |cell| cell.oom_kills())
    }
}

/// The first child of `parent`'s main thread, waiting for it to be listed until `give_up`,
/// or until `parent` itself is gone.
fn first_child(parent: u32, give_up: Instant) -> std::io::Result<u32> {
    loop {
        if let Some(child) = procfs::children_of_task(parent, parent).first() {
            return Ok(*child);
        }
        // A parent that has ended is gone, whether reaped or not yet.
        let gone = procfs::ended(parent);
        if gone || Instant::now() >= give_up {
            let (kind, why) = match gone {
                true => (std::io::ErrorKind::NotFound, "ended before it had one"),
                false => (std::io::ErrorKind::TimedOut, "has none yet"),
            };
            return Err(std::io::Error::new(kind, format!("process {parent} has no child: it {why}")));
        }
        std::thread::sleep(Duration::from_micros(50));
    }
}

/// A process's memory footprint now and at most, in KiB, by `proc_pid_rusage`; None once it
/// has ended.
#[cfg(target_os = "macos")]
fn memory_of(pid: u32) -> Option<(u64, u64)> {
    sys::process_memory_kib(pid)
}

/// `VmRSS` and `VmHWM` of a process, in KiB; None once it has ended. A process whose main
/// thread has left (by the raw exit call) keeps its memory with its other threads, and the
/// main thread's `status` then names none: the first thread that does is read.
#[cfg(target_os = "linux")]
fn memory_of(pid: u32) -> Option<(u64, u64)> {
    procfs::threads(pid)
        .into_iter()
        .find_map(|tid| fields(&std::fs::read_to_string(format!("/proc/{pid}/task/{tid}/status")).ok()?))
}

/// `VmRSS` and `VmHWM` from the text of a `status` file.
fn fields(text: &str) -> Option<(u64, u64)> {
    Some((procfs::kib_in(text, "VmRSS")?, procfs::kib_in(text, "VmHWM").unwrap_or(0)))
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt;
    use std::process::{Command, Stdio};

    /// A keeper may list its program a moment after the judge's spawn returns, on a loaded
    /// machine: the meter waits for it. Taking the keeper for the program measured the keeper
    /// (a fork of the judge) and counted the real program among its other processes.
    #[test]
    fn a_rooms_program_is_waited_for_not_taken_to_be_its_keeper() {
        let mut keeper = Command::new("sh")
            .args(["-c", "read go; exec 0<&-; sleep 30 & wait"])
            .stdin(Stdio::piped())
            .spawn()
            .unwrap();
        let mut go = keeper.stdin.take().unwrap();
        let telling = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            std::io::Write::write_all(&mut go, b"go\n").unwrap();
        });
        let meter = Meter::room(keeper.id(), Duration::from_secs(20), None, true).unwrap();
        telling.join().unwrap();
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", meter.program())).unwrap_or_default();
        let parent = stat.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok());
        assert!(meter.kill_program());
        keeper.kill().unwrap();
        keeper.wait().unwrap();
        assert_ne!(meter.program(), keeper.id(), "the keeper was taken for its program");
        assert_eq!(parent, Some(keeper.id()), "{stat}");
    }

    /// The held `status` decides, not the number: a program reaped since its meter was made
    /// is not signalled, whatever process has its number now (here, for certain, a live
    /// sleeper given it by hand); one still there, a zombie included, is killed.
    #[test]
    fn a_program_is_killed_only_while_it_is_there() {
        use std::os::unix::process::ExitStatusExt;
        let mut ended = Command::new("true").spawn().unwrap();
        let reaped = Meter::of(ended.id(), None);
        ended.wait().unwrap();
        let mut stranger = Command::new("sleep").arg("30").process_group(0).spawn().unwrap();
        let mistaken = Meter { program: stranger.id(), ..reaped };
        assert!(mistaken.kill_program(), "its status was held: it can tell");
        std::thread::sleep(Duration::from_millis(50));
        assert!(stranger.try_wait().unwrap().is_none(), "a stranger holding a reaped program's number was killed");
        let there = Meter::of(stranger.id(), None);
        assert!(there.kill_program());
        assert_eq!(stranger.wait().unwrap().signal(), Some(sys::SIGKILL));
        let unknown = Meter { status: None, ..Meter::of(std::process::id(), None) };
        assert!(!unknown.kill_program(), "without its status it cannot tell, and says so");
    }

    #[test]
    fn a_process_is_read_by_its_clock_and_its_main_thread() {
        // A shell that spins in a loop of its own until it is killed.
        let script = "while :; do :; done";
        let mut shell = Command::new("sh").args(["-c", script]).stdout(Stdio::null()).spawn().unwrap();
        let meter = Meter::of(shell.id(), None);
        let give_up = Instant::now() + Duration::from_secs(20);
        while meter.cpu_ns() < 20_000_000 && Instant::now() < give_up {
            std::thread::sleep(Duration::from_millis(5));
        }
        let (cpu, thread, memory, spinning) = (meter.cpu_ns(), meter.thread(), meter.read(), meter.runnable());
        shell.kill().unwrap();
        shell.wait().unwrap();
        assert!(cpu >= 20_000_000, "{cpu} ns of CPU in 20 s of spinning");
        let thread = thread.expect("the main thread's schedstat");
        assert!(thread.ran_ns > 0 && thread.ran_ns <= cpu + 1_000_000, "{thread:?} against {cpu}");
        assert!(memory.resident_kib > 0 && memory.peak_kib >= memory.resident_kib, "{memory:?}");
        // Gone and reaped: the last reading stands, never less.
        assert!(meter.cpu_ns() >= cpu);
        // A spinning thread is on a CPU or waiting for one; a sleeping one, and one that is
        // gone, are neither.
        assert!(spinning, "a spinning shell read as not runnable");
        assert!(!meter.runnable(), "a reaped shell read as runnable");
        let mut sleeper = Command::new("sleep").arg("10").spawn().unwrap();
        let asleep = Meter::of(sleeper.id(), None);
        let give_up = Instant::now() + Duration::from_secs(20);
        while asleep.runnable() && Instant::now() < give_up {
            std::thread::sleep(Duration::from_millis(5));
        }
        let runnable = asleep.runnable();
        sleeper.kill().unwrap();
        sleeper.wait().unwrap();
        assert!(!runnable, "a sleeping process read as runnable for 20 s");
    }
}
