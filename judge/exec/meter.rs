//! What a child uses, read by the judge from the kernel: the memory and the CPU time of all
//! its processes, and the account of the thread that runs the solution.
//!
//! With a cgroup cell (see `cgroup`), the cell's counters: everything its processes hold
//! (heap, stack, page tables, shared memory, memfds, pipe buffers, tmpfs pages), its peak
//! since the last reset, its CPU time, and the kernel's out-of-memory kills in it.
//!
//! Without one, /proc: the resident memory of the program and of every process it started
//! that is alive (in a sandbox, every process of its pid namespace but the init, which is a
//! fork of the judge), each process's high-water mark, and the CPU time of their threads.
//! Memory that no process maps (a memfd, SysV shared memory, pipe buffers) is not seen there;
//! the sandbox bounds it instead (descriptors, file sizes, the IPC namespace's limits).
//!
//! Either way the solution's thread is read on its own: its time on a CPU and its time
//! waiting for one, exact whenever it is blocked (the judge waits for that before a reading
//! that counts), so a call's time is the kernel's and not the machine's load.

use std::fs::{File, OpenOptions};
use std::os::unix::fs::FileExt;
use std::time::{Duration, Instant};

use super::cgroup::Lease;
use super::procfs::{self, Account};

/// Looks at a thread that is still on the CPU before `settle` sleeps between looks.
const YIELDS: u32 = 50;

/// The processes of one child.
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
    cell: Option<Lease>,
    /// The program's main thread, where its start-up runs (the loader, static initialisers,
    /// the driver's own set-up) until the driver has started the solution's thread.
    main: Option<Thread>,
    /// The solution's thread, once the driver has started it.
    thread: Option<Thread>,
}

/// A thread of the program: its id, its `schedstat` and `stat`, held open.
struct Thread {
    tid: u32,
    schedstat: File,
    stat: File,
}

impl Thread {
    fn open(pid: u32, tid: u32) -> Option<Thread> {
        let task = format!("/proc/{pid}/task/{tid}");
        let (schedstat, stat) =
            (File::open(format!("{task}/schedstat")).ok()?, File::open(format!("{task}/stat")).ok()?);
        Some(Thread { tid, schedstat, stat })
    }

    fn account(&self) -> Option<Account> {
        let mut text = [0u8; 256];
        Account::parse(procfs::reread(&self.schedstat, &mut text))
    }

    /// Off the CPU and not waiting for one; None when its state cannot be read.
    fn asleep(&self) -> Option<bool> {
        let mut text = [0u8; 512];
        let stat = procfs::reread(&self.stat, &mut text);
        (!stat.is_empty()).then(|| !procfs::runnable(stat))
    }
}

/// Memory, in KiB.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reading {
    /// Held now, over every process.
    pub resident_kib: u64,
    /// The most held since the last reset: the cell's peak, or each process's high-water
    /// mark summed.
    pub peak_kib: u64,
}

/// Time, as the kernel counts it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// CPU time of every thread of every process of the child, ever.
    pub all_ns: u64,
    /// The solution's thread.
    pub thread: Account,
}

impl Meter {
    /// A child that is one process (no sandbox).
    pub fn process(pid: u32, cell: Option<Lease>) -> Meter {
        Meter::of(pid, None, cell)
    }

    /// A sandbox whose keeper is `keeper`: its init, and the init's child, the program; each
    /// waited for up to `within`, since a loaded machine can take a while to start them.
    pub fn sandbox(keeper: u32, within: Duration, cell: Option<Lease>) -> std::io::Result<Meter> {
        let give_up = Instant::now() + within;
        let init = first_child(keeper, give_up)?;
        Ok(Meter::of(first_child(init, give_up)?, Some(init), cell))
    }

    fn of(program: u32, init: Option<u32>, cell: Option<Lease>) -> Meter {
        let status = File::open(format!("/proc/{program}/status")).ok();
        let clear_refs = OpenOptions::new().write(true).open(format!("/proc/{program}/clear_refs")).ok();
        let main = Thread::open(program, program);
        Meter { program, init, status, clear_refs, cell, main, thread: None }
    }

    /// The program's pid.
    pub fn program(&self) -> u32 {
        self.program
    }

    /// Finds the thread named `name` (the driver's solution thread), to read it on its own;
    /// never the main thread, which is named after the binary.
    pub fn follow(&mut self, name: &str) -> bool {
        for tid in procfs::threads(self.program).into_iter().filter(|&t| t != self.program) {
            let task = format!("/proc/{}/task/{tid}", self.program);
            let named = std::fs::read_to_string(format!("{task}/comm")).is_ok_and(|c| c.trim_end() == name);
            if named {
                self.thread = Thread::open(self.program, tid);
                return self.thread.is_some();
            }
        }
        false
    }

    /// Whether the program's main thread is asleep: how a start-up is told from a start-up
    /// waiting for a CPU. None where it cannot be read.
    pub fn main_asleep(&self) -> Option<bool> {
        self.main.as_ref()?.asleep()
    }

    /// How long each thread of the child's processes but the solution's (every thread, before
    /// the solution's is followed) has waited for a CPU, ever: (thread id, ns). A solution's
    /// thread that waits on its own workers or child processes is asleep while they wait for a
    /// CPU, and that wait is the machine's, not the call's. A process that starts and ends
    /// between two readings is never read: its wait counts as the call's sleep.
    pub fn others_waits(&self) -> Vec<(u32, u64)> {
        let waited = |(pid, tid): (u32, u32)| {
            let text = std::fs::read_to_string(format!("/proc/{pid}/task/{tid}/schedstat")).ok()?;
            Some((tid, Account::parse(&text)?.waited_ns))
        };
        self.others().into_iter().filter_map(waited).collect()
    }

    /// Every thread of the child's processes but the solution's: (pid, thread id).
    fn others(&self) -> Vec<(u32, u32)> {
        let solution = self.thread.as_ref().map(|t| t.tid);
        let threads = |pid: u32| procfs::threads(pid).into_iter().map(move |tid| (pid, tid));
        self.processes().into_iter().flat_map(threads).filter(|&(_, tid)| Some(tid) != solution).collect()
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
        let mut reading = Reading::default();
        for pid in self.processes() {
            if let Some((resident, peak)) = memory_of(pid) {
                reading.resident_kib += resident;
                reading.peak_kib += peak.max(resident);
            }
        }
        reading
    }

    /// The program's own resident memory and high-water mark: what a call that ends between
    /// two of `read`'s samples is measured by, without a cell (memory grows no faster than
    /// pages fault in).
    pub fn read_program(&self) -> Reading {
        let mut text = [0u8; 4096];
        let fields = self.status.as_ref().map(|file| fields(procfs::reread(file, &mut text)));
        let (resident_kib, peak_kib) = fields.flatten().or_else(|| memory_of(self.program)).unwrap_or_default();
        Reading { resident_kib, peak_kib: peak_kib.max(resident_kib) }
    }

    /// How many of the child's processes the kernel's out-of-memory killer has killed, ever
    /// (with a cell; 0 without).
    pub fn oom_kills(&self) -> u64 {
        self.cell.as_ref().map_or(0, |cell| cell.oom_kills())
    }

    /// The kernel's time now.
    pub fn clock(&self) -> Clock {
        let thread = self.thread.as_ref().and_then(Thread::account);
        let all_ns = match &self.cell {
            Some(cell) if cell.counts_cpu() => cell.cpu_ns(),
            _ => self.processes().into_iter().map(cpu_of).sum(),
        };
        // A thread that cannot be read on its own (a kernel without scheduler statistics) is
        // read as the whole child, which waits for nothing that is known.
        let thread = thread.unwrap_or(Account { ran_ns: all_ns, waited_ns: 0 });
        Clock { all_ns: all_ns.max(thread.ran_ns), thread }
    }

    /// Waits, up to `within`, until the solution's thread is off the CPU, so that its account
    /// is exact (the kernel brings a thread's account up to date when it leaves the CPU);
    /// true if it is (false also when it is not known). It yields, then sleeps, between looks:
    /// on a busy machine the thread may need the very CPU the judge would spin on.
    pub fn settle(&self, within: Duration) -> bool {
        let Some(thread) = &self.thread else { return false };
        let give_up = Instant::now() + within;
        let mut text = [0u8; 512];
        let mut pause = Duration::from_micros(50);
        for look in 0.. {
            if !procfs::runnable(procfs::reread(&thread.stat, &mut text)) {
                return true;
            }
            if Instant::now() >= give_up {
                return false;
            }
            // A thread that has just answered is a few microseconds from its next read: look
            // again at once, giving the CPU away between looks; then sleep, which the kernel
            // rounds up to some 50 µs.
            match look < YIELDS {
                true => std::thread::yield_now(),
                false => {
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(1));
                }
            }
        }
        false
    }

    /// Whether the solution's thread is asleep (off the CPU and not waiting for one); None
    /// when it is not known.
    pub fn asleep(&self) -> Option<bool> {
        self.thread.as_ref()?.asleep()
    }

    /// Whether a thread of the child other than the solution's is on a CPU or waiting for
    /// one: its current wait is not in its account yet, so the solution's sleep cannot be
    /// told from its workers' waits until it leaves the CPU.
    pub fn others_runnable(&self) -> bool {
        let mut text = [0u8; 512];
        self.others().into_iter().any(|(pid, tid)| {
            let stat = File::open(format!("/proc/{pid}/task/{tid}/stat"));
            stat.is_ok_and(|file| procfs::runnable(procfs::reread(&file, &mut text)))
        })
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
}

/// The first child of `parent`'s main thread, waiting for it to be listed until `give_up`,
/// or until `parent` itself is gone.
fn first_child(parent: u32, give_up: Instant) -> std::io::Result<u32> {
    loop {
        if let Some(child) = procfs::children_of_task(parent, parent).first() {
            return Ok(*child);
        }
        let gone = !std::path::Path::new(&format!("/proc/{parent}/task/{parent}")).exists();
        if gone || Instant::now() >= give_up {
            let why = if gone { "ended before it had one" } else { "has none yet" };
            let message = format!("process {parent} has no child: it {why}");
            return Err(std::io::Error::new(std::io::ErrorKind::NotFound, message));
        }
        std::thread::sleep(Duration::from_micros(50));
    }
}

/// The children of every thread of `pid`.
fn children(pid: u32) -> Vec<u32> {
    procfs::threads(pid).into_iter().flat_map(|task| procfs::children_of_task(pid, task)).collect()
}

/// `VmRSS` and `VmHWM` of a process, in KiB; None once it has ended. A process whose main
/// thread has left (by the raw exit call) keeps its memory with its other threads, and the
/// main thread's `status` then names none: the first thread that does is read.
fn memory_of(pid: u32) -> Option<(u64, u64)> {
    procfs::threads(pid)
        .into_iter()
        .find_map(|tid| fields(&std::fs::read_to_string(format!("/proc/{pid}/task/{tid}/status")).ok()?))
}

/// `VmRSS` and `VmHWM` from the text of a `status` file.
fn fields(text: &str) -> Option<(u64, u64)> {
    Some((procfs::kib_in(text, "VmRSS")?, procfs::kib_in(text, "VmHWM").unwrap_or(0)))
}

/// The CPU time of a process: its live threads' accounts, exact, or its ticks (which count
/// its ended threads too) where those say more.
fn cpu_of(pid: u32) -> u64 {
    let live: u64 = procfs::threads(pid)
        .into_iter()
        .filter_map(|tid| Account::parse(&std::fs::read_to_string(format!("/proc/{pid}/task/{tid}/schedstat")).ok()?))
        .map(|a| a.ran_ns)
        .sum();
    let ticks = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok().and_then(|s| procfs::ticks(&s));
    // USER_HZ is 100 on every Linux the judge runs on.
    live.max(ticks.unwrap_or(0) * 10_000_000)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt;
    use std::process::{Command, Stdio};

    #[test]
    fn a_child_that_forks_is_counted_whole() {
        // A shell that starts a second shell holding 64 MiB in a variable, then waits.
        let script = "sh -c 'x=$(head -c 67108864 /dev/zero | tr \"\\\\0\" a); sleep 30' & wait";
        let mut shell = Command::new("sh").args(["-c", script]).stdout(Stdio::null()).process_group(0).spawn().unwrap();
        let meter = Meter::process(shell.id(), None);
        let give_up = Instant::now() + Duration::from_secs(20);
        let mut reading = meter.read();
        while reading.resident_kib < 64 << 10 && Instant::now() < give_up {
            std::thread::sleep(Duration::from_millis(20));
            reading = meter.read();
        }
        let processes = meter.processes().len();
        let cpu = meter.clock().all_ns;
        super::super::sys::kill_group(shell.id()).unwrap();
        shell.wait().unwrap();
        assert!(reading.resident_kib >= 64 << 10, "{reading:?} over {processes} processes");
        assert!(processes >= 2, "the shell's children are counted");
        assert!(cpu > 0, "the work of making 64 MiB took no CPU time");
    }
}
