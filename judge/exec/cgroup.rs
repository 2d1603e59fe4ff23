//! A cgroup per child, where one can be made: the kernel then counts everything the child's
//! processes hold, shared memory, memfds, pipe buffers and tmpfs pages included, enforces the
//! memory limit itself (its out-of-memory killer, counted), and counts their CPU time, every
//! process it ever started included (a cell needs both the memory and the CPU account); a
//! quota of one CPU keeps a child with many threads from taking the machine from the others.
//! This is what isolate, nsjail and systemd do with a cgroup per box.
//!
//! The judge makes a folder of its own, `stone-judge-<pid>`, below its cgroup (v1: in each
//! controller's hierarchy, where it sits there) or below the nearest ancestor it may write
//! (v2: a delegated subtree such as a systemd user session's, or the root when it runs as
//! root), and in it one *cell* per child alive at once, reused from child to child. A child is
//! born in its cell, never moved there: moving a process takes the kernel's cgroup lock for
//! writing, which waits for an RCU grace period (some 10 ms) whenever moves are rare.
//! - v2: the sandbox's init is cloned straight into the cell (clone3, CLONE_INTO_CGROUP).
//! - v1 has no such clone: each cell has a thread of the judge that moved itself into the
//!   cell once, when the cell was made, and every child of the cell is forked by it, so it
//!   starts there. Cells made together pay one grace period together.
//!
//! Where no cgroup can be made (no memory controller, nothing writable), `Cells::open` says
//! why, and the judge counts memory and CPU from /proc instead (see `meter`).

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::process::{self, Command};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};

use super::files::at;
use super::procfs;

/// The judge's folder, in each hierarchy.
const PREFIX: &str = "stone-judge-";
/// How many tasks (processes and threads) a child may have at once.
pub const TASKS: u64 = 256;
/// Memory an empty cell may still be charged for (the kernel's own bookkeeping of the last
/// child) and be lent again.
const LEFT_OVER_KIB: u64 = 4 << 10;
/// The CPU quota of a cell: one CPU, over this period.
const PERIOD_US: u64 = 100_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    V1,
    V2,
}

/// The judge's cells, shared by every child of a run; made on demand, kept for reuse, and
/// removed when the last handle goes.
#[derive(Clone)]
pub struct Cells {
    shared: Arc<Shared>,
}

struct Shared {
    version: Version,
    /// The judge's folder in each hierarchy; v1's memory hierarchy first.
    folders: Vec<PathBuf>,
    free: Mutex<Vec<Cell>>,
    made: AtomicUsize,
}

/// One child's cgroup, lent to it while it lives.
pub struct Cell {
    /// The cell's folder in each hierarchy, as `Shared::folders`.
    folders: Vec<PathBuf>,
    files: Counters,
    placement: Placement,
}

/// The cell's files the judge reads and writes call after call, held open.
struct Counters {
    memory: File,
    peak: File,
    limit: File,
    /// v1: also the swap account, where the kernel keeps one (no swapping past the limit).
    swap_limit: Option<File>,
    events: File,
    cpu: File,
    /// v1: `tasks` of the memory hierarchy; v2: `cgroup.procs`.
    members: File,
}

enum Placement {
    /// v1: the thread that lives in the cell and forks its children.
    Thread { jobs: Sender<Job>, thread: JoinHandle<()>, tid: u32 },
    /// v2: the cell's folder, for clone3, and its `cgroup.procs`, for a child that has to move
    /// itself in (one started without a sandbox).
    Folder { folder: File, procs: File },
}

type Job = Box<dyn FnOnce() + Send>;

/// A cell lent to a child; back in the free list when dropped.
pub struct Lease {
    cell: Option<Cell>,
    shared: Arc<Shared>,
}

impl std::ops::Deref for Lease {
    type Target = Cell;
    fn deref(&self) -> &Cell {
        self.cell.as_ref().expect("a lease holds its cell until dropped")
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        if let Some(cell) = self.cell.take() {
            self.shared.free.lock().unwrap_or_else(|p| p.into_inner()).push(cell);
        }
    }
}

impl Cells {
    /// The judge's cgroup folder, made, or why none can be.
    pub fn open() -> Result<Cells, String> {
        let memberships = fs::read_to_string("/proc/self/cgroup").map_err(|e| format!("/proc/self/cgroup: {e}"))?;
        let mounts = fs::read_to_string("/proc/self/mountinfo").map_err(|e| format!("/proc/self/mountinfo: {e}"))?;
        let mounts = parse_mounts(&mounts);
        let memberships = parse_memberships(&memberships);
        let v2 = mounts.iter().find(|m| m.v2).filter(|m| {
            fs::read_to_string(m.point.join("cgroup.controllers"))
                .is_ok_and(|c| c.split_whitespace().any(|c| c == "memory"))
        });
        let (version, folders) = match v2 {
            Some(mount) => (Version::V2, vec![v2_folder(mount, &memberships)?]),
            None => (Version::V1, v1_folders(&mounts, &memberships)?),
        };
        Ok(Cells {
            shared: Arc::new(Shared { version, folders, free: Mutex::new(Vec::new()), made: AtomicUsize::new(0) }),
        })
    }

    pub fn version(&self) -> Version {
        self.shared.version
    }

    /// A cell for a child whose memory is held to `memory_bytes`: a free one whose last child
    /// has wholly gone, or a new one.
    pub fn lease(&self, memory_bytes: u64) -> io::Result<Lease> {
        let reused = {
            let mut free = self.shared.free.lock().unwrap_or_else(|p| p.into_inner());
            free.iter().position(Cell::is_empty).map(|at| free.swap_remove(at))
        };
        let cell = match reused {
            Some(cell) => cell,
            None => self.make()?,
        };
        cell.set_limit(memory_bytes)?;
        Ok(Lease { cell: Some(cell), shared: Arc::clone(&self.shared) })
    }

    /// Makes `count` cells at once, on as many threads, so that they share one grace period;
    /// for a run that is about to start that many children.
    pub fn warm(&self, count: usize) {
        let made: Vec<io::Result<Cell>> = thread::scope(|scope| {
            let makers: Vec<_> = (0..count).map(|_| scope.spawn(|| self.make())).collect();
            makers.into_iter().map(|m| m.join().unwrap_or_else(|_| Err(io::Error::other("a maker panicked")))).collect()
        });
        let mut free = self.shared.free.lock().unwrap_or_else(|p| p.into_inner());
        free.extend(made.into_iter().flatten());
    }

    fn make(&self) -> io::Result<Cell> {
        let k = self.shared.made.fetch_add(1, Ordering::Relaxed);
        let folders: Vec<PathBuf> = self.shared.folders.iter().map(|f| f.join(format!("cell-{k}"))).collect();
        for folder in &folders {
            fs::create_dir(folder).map_err(|e| at(folder, e))?;
        }
        let cell = match self.shared.version {
            Version::V1 => make_v1(folders),
            Version::V2 => make_v2(folders),
        };
        cell.inspect_err(|_| {
            for folder in self.shared.folders.iter().map(|f| f.join(format!("cell-{k}"))) {
                let _ = fs::remove_dir(folder);
            }
        })
    }
}

fn open_read(path: PathBuf) -> io::Result<File> {
    File::open(&path).map_err(|e| at(&path, e))
}

fn open_write(path: PathBuf) -> io::Result<File> {
    OpenOptions::new().write(true).open(&path).map_err(|e| at(&path, e))
}

fn open_both(path: PathBuf) -> io::Result<File> {
    OpenOptions::new().read(true).write(true).open(&path).map_err(|e| at(&path, e))
}

/// Writes `text` to a cgroup file that exists only where its controller is on.
fn set_if_there(path: PathBuf, text: &str) -> io::Result<()> {
    match OpenOptions::new().write(true).open(&path) {
        Ok(mut file) => file.write_all(text.as_bytes()).map_err(|e| at(&path, e)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(at(&path, e)),
    }
}

fn make_v1(folders: Vec<PathBuf>) -> io::Result<Cell> {
    let find = |file: &str| folders.iter().map(|f| f.join(file)).find(|p| p.exists());
    let memory = &folders[0];
    for folder in &folders {
        set_if_there(folder.join("cpu.cfs_period_us"), &PERIOD_US.to_string())?;
        set_if_there(folder.join("cpu.cfs_quota_us"), &PERIOD_US.to_string())?;
        set_if_there(folder.join("pids.max"), &TASKS.to_string())?;
    }
    let files = Counters {
        memory: open_read(memory.join("memory.usage_in_bytes"))?,
        peak: open_both(memory.join("memory.max_usage_in_bytes"))?,
        limit: open_write(memory.join("memory.limit_in_bytes"))?,
        swap_limit: OpenOptions::new().write(true).open(memory.join("memory.memsw.limit_in_bytes")).ok(),
        events: open_read(memory.join("memory.oom_control"))?,
        cpu: open_read(find("cpuacct.usage").ok_or_else(|| io::Error::other("no cpuacct.usage in the cell"))?)?,
        members: open_read(memory.join("tasks"))?,
    };
    // The cell's thread moves itself into every hierarchy, then forks whatever it is handed.
    let (jobs, queue) = mpsc::channel::<Job>();
    let (told, moved) = mpsc::channel::<io::Result<u32>>();
    let tasks: Vec<PathBuf> = folders.iter().map(|f| f.join("tasks")).collect();
    let thread = thread::Builder::new().name("cell".into()).spawn(move || {
        let tid = super::sys::thread_id();
        let joined = tasks.iter().try_for_each(|path| {
            OpenOptions::new()
                .write(true)
                .open(path)
                .and_then(|mut f| f.write_all(tid.to_string().as_bytes()))
                .map_err(|e| at(path, e))
        });
        let ok = joined.is_ok();
        let _ = told.send(joined.map(|()| tid));
        if ok {
            queue.into_iter().for_each(|job| job());
        }
    })?;
    let tid = moved.recv().map_err(|_| io::Error::other("a cell's thread ended before it joined its cell"))??;
    Ok(Cell { folders, files, placement: Placement::Thread { jobs, thread, tid } })
}

fn make_v2(folders: Vec<PathBuf>) -> io::Result<Cell> {
    let folder = &folders[0];
    set_if_there(folder.join("cpu.max"), &format!("{PERIOD_US} {PERIOD_US}"))?;
    set_if_there(folder.join("pids.max"), &TASKS.to_string())?;
    set_if_there(folder.join("memory.swap.max"), "0")?;
    let files = Counters {
        memory: open_read(folder.join("memory.current"))?,
        peak: open_both(folder.join("memory.peak"))?,
        limit: open_write(folder.join("memory.max"))?,
        swap_limit: None,
        events: open_read(folder.join("memory.events"))?,
        cpu: open_read(folder.join("cpu.stat"))?,
        members: open_read(folder.join("cgroup.procs"))?,
    };
    let placement = Placement::Folder {
        folder: File::open(folder).map_err(|e| at(folder, e))?,
        procs: open_write(folder.join("cgroup.procs"))?,
    };
    Ok(Cell { folders, files, placement })
}

impl Cell {
    fn set_limit(&self, bytes: u64) -> io::Result<()> {
        let text = bytes.to_string();
        // v1 refuses a memory limit above the swap account's: raise that one first.
        if let Some(swap) = &self.files.swap_limit {
            let _ = (&*swap).write_all(b"-1");
        }
        (&self.files.limit).write_all(text.as_bytes())?;
        if let Some(swap) = &self.files.swap_limit {
            (&*swap).write_all(text.as_bytes())?;
        }
        Ok(())
    }

    /// Whether no process of an earlier child is left in it, nor the memory one held (the
    /// kernel frees a killed child's memory after it leaves): a new child must not start near
    /// its limit.
    fn is_empty(&self) -> bool {
        if self.memory_kib() > LEFT_OVER_KIB {
            return false;
        }
        let mut buffer = [0u8; 256];
        let members = procfs::reread(&self.files.members, &mut buffer);
        let own = match &self.placement {
            Placement::Thread { tid, .. } => Some(*tid),
            Placement::Folder { .. } => None,
        };
        members.split_whitespace().filter_map(|m| m.parse::<u32>().ok()).all(|m| Some(m) == own)
    }

    /// Starts `command` in this cell. Where the cell has a folder to clone into, the sandbox
    /// does that (see `clone_folder`), and a child without one moves itself (`procs`).
    pub fn spawn(&self, mut command: Command) -> io::Result<process::Child> {
        match &self.placement {
            Placement::Thread { jobs, .. } => {
                let (answer, answered) = mpsc::channel();
                let job: Job = Box::new(move || drop(answer.send(command.spawn())));
                jobs.send(job).map_err(|_| io::Error::other("a cell's thread is gone"))?;
                answered.recv().map_err(|_| io::Error::other("a cell's thread ended mid-start"))?
            }
            Placement::Folder { .. } => command.spawn(),
        }
    }

    /// v2: the cell's folder, to clone a process straight into.
    pub fn clone_folder(&self) -> Option<RawFd> {
        match &self.placement {
            Placement::Folder { folder, .. } => Some(folder.as_raw_fd()),
            Placement::Thread { .. } => None,
        }
    }

    /// v2: the cell's `cgroup.procs`, for a process that must move itself in.
    pub fn procs(&self) -> Option<RawFd> {
        match &self.placement {
            Placement::Folder { procs, .. } => Some(procs.as_raw_fd()),
            Placement::Thread { .. } => None,
        }
    }

    /// Starts the peak again from what is held now; false where the kernel cannot.
    pub fn reset_peak(&self) -> bool {
        // v1 takes "0"; v2 (Linux 6.12 on) any text, and then counts for this open file.
        self.files.peak.write_at(b"0", 0).is_ok()
    }

    /// What it holds now, in KiB.
    pub fn memory_kib(&self) -> u64 {
        let mut buffer = [0u8; 64];
        procfs::reread(&self.files.memory, &mut buffer).trim().parse::<u64>().unwrap_or(0) >> 10
    }

    /// The most it held since the peak was last reset, in KiB; None where the kernel cannot
    /// reset it (cgroup v2 before Linux 6.12).
    pub fn peak_kib(&self) -> Option<u64> {
        let mut buffer = [0u8; 64];
        procfs::reread(&self.files.peak, &mut buffer).trim().parse::<u64>().ok().map(|b| b >> 10)
    }

    /// The CPU time of every task in it, ever.
    pub fn cpu_ns(&self) -> u64 {
        let mut buffer = [0u8; 512];
        let text = procfs::reread(&self.files.cpu, &mut buffer);
        match self.clone_folder() {
            // v2's cpu.stat, in microseconds; v1's cpuacct.usage, in nanoseconds.
            Some(_) => field(text, "usage_usec").unwrap_or(0).saturating_mul(1000),
            None => text.trim().parse::<u64>().unwrap_or(0),
        }
    }

    /// How many of its processes the out-of-memory killer killed, ever.
    pub fn oom_kills(&self) -> u64 {
        let mut buffer = [0u8; 512];
        field(procfs::reread(&self.files.events, &mut buffer), "oom_kill").unwrap_or(0)
    }
}

/// A `name value` line of a flat-keyed cgroup file.
fn field(text: &str, name: &str) -> Option<u64> {
    text.lines().find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
}

impl Drop for Shared {
    /// Every cell's thread ends, then every folder goes; one that still holds a process
    /// (the kernel reaps asynchronously) is removed by the next run.
    fn drop(&mut self) {
        let cells = std::mem::take(self.free.get_mut().unwrap_or_else(|p| p.into_inner()));
        let mut folders = Vec::new();
        for cell in cells {
            folders.extend(cell.folders.iter().cloned());
            if let Placement::Thread { jobs, thread, .. } = cell.placement {
                drop(jobs);
                let _ = thread.join();
            }
        }
        for folder in folders.iter().chain(&self.folders) {
            let _ = fs::remove_dir(folder);
        }
    }
}

/// One mounted cgroup hierarchy.
#[derive(Debug)]
struct Mount {
    point: PathBuf,
    /// The hierarchy's folder mounted there (not `/` when the mount shows a subtree).
    root: String,
    v2: bool,
    controllers: Vec<String>,
}

fn parse_mounts(mountinfo: &str) -> Vec<Mount> {
    mountinfo
        .lines()
        .filter_map(|line| {
            let (before, after) = line.split_once(" - ")?;
            let fields: Vec<&str> = before.split(' ').collect();
            let after: Vec<&str> = after.split(' ').collect();
            let (root, point, kind, options) = (fields.get(3)?, fields.get(4)?, after.first()?, after.get(2)?);
            let v2 = *kind == "cgroup2";
            if !v2 && *kind != "cgroup" {
                return None;
            }
            let controllers = options.split(',').map(str::to_string).collect();
            Some(Mount { point: PathBuf::from(unescape(point)), root: unescape(root), v2, controllers })
        })
        .collect()
}

/// mountinfo escapes spaces and the like as octal.
fn unescape(field: &str) -> String {
    let bytes = field.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match (bytes[i], bytes.get(i + 1..i + 4).and_then(|d| u8::from_str_radix(std::str::from_utf8(d).ok()?, 8).ok()))
        {
            (b'\\', Some(byte)) => {
                out.push(byte);
                i += 4;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `/proc/self/cgroup`: for each hierarchy (its controllers; none for v2), the judge's path.
fn parse_memberships(text: &str) -> Vec<(Vec<String>, String)> {
    text.lines()
        .filter_map(|line| {
            let mut parts = line.splitn(3, ':');
            let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
            let controllers = controllers.split(',').filter(|c| !c.is_empty()).map(str::to_string).collect();
            Some((controllers, path.to_string()))
        })
        .collect()
}

/// Where a cgroup path is seen under a mount.
fn seen(mount: &Mount, path: &str) -> PathBuf {
    let relative = path.strip_prefix(mount.root.as_str()).unwrap_or(path);
    mount.point.join(relative.trim_start_matches('/'))
}

/// The judge's folder's name: its pid, and which of its `Cells` it is (the tests open several).
fn folder_name() -> String {
    static OPENED: AtomicUsize = AtomicUsize::new(0);
    format!("{PREFIX}{}-{}", process::id(), OPENED.fetch_add(1, Ordering::Relaxed))
}

/// Makes the judge's folder `name` in `parent`, or says why not.
fn judge_folder(parent: &Path, name: &str) -> Result<PathBuf, String> {
    clean_stale(parent);
    let folder = parent.join(name);
    fs::create_dir(&folder).map_err(|e| format!("{} cannot be made: {e}", folder.display()))?;
    Ok(folder)
}

/// Removes the folders of judges that are gone (killed before they could remove them).
fn clean_stale(parent: &Path) {
    for entry in fs::read_dir(parent).into_iter().flatten().flatten() {
        let name = entry.file_name();
        let pid = name.to_str().and_then(|n| n.strip_prefix(PREFIX)).and_then(|n| n.split('-').next());
        let Some(pid) = pid.and_then(|p| p.parse::<u32>().ok()) else { continue };
        if Path::new(&format!("/proc/{pid}")).exists() {
            continue;
        }
        for cell in fs::read_dir(entry.path()).into_iter().flatten().flatten() {
            if cell.file_name().to_str().is_some_and(|n| n.starts_with("cell-")) {
                let _ = fs::remove_dir(cell.path());
            }
        }
        let _ = fs::remove_dir(entry.path());
    }
}

/// v1: the judge's folder in the memory hierarchy, then in cpuacct's, cpu's and pids' where
/// those are mounted apart from it (a hierarchy that holds several holds one folder).
fn v1_folders(mounts: &[Mount], memberships: &[(Vec<String>, String)]) -> Result<Vec<PathBuf>, String> {
    let name = folder_name();
    let mut folders: Vec<PathBuf> = Vec::new();
    for controller in ["memory", "cpuacct", "cpu", "pids"] {
        let Some(mount) = mounts.iter().find(|m| !m.v2 && m.controllers.iter().any(|c| c == controller)) else {
            if ["memory", "cpuacct"].contains(&controller) {
                return Err(format!("no cgroup hierarchy has the {controller} controller"));
            }
            continue;
        };
        let Some((_, path)) = memberships.iter().find(|(c, _)| c.iter().any(|c| c == controller)) else { continue };
        let parent = seen(mount, path);
        if folders.contains(&parent.join(&name)) {
            continue;
        }
        match judge_folder(&parent, &name) {
            Ok(folder) => folders.push(folder),
            Err(why) if ["memory", "cpuacct"].contains(&controller) => return Err(why),
            Err(_) => {}
        }
    }
    Ok(folders)
}

/// v2: the nearest ancestor of the judge's cgroup that it may write and that gives its
/// children the memory controller; the judge's folder there, with memory, pids and cpu
/// handed on to the cells.
fn v2_folder(mount: &Mount, memberships: &[(Vec<String>, String)]) -> Result<PathBuf, String> {
    let own = memberships.iter().find(|(c, _)| c.is_empty()).map(|(_, p)| p.as_str()).unwrap_or("/");
    let own = seen(mount, own);
    let mut why = format!("no ancestor of {} may be written and gives its children memory", own.display());
    for parent in own.ancestors().skip(1).filter(|a| a.starts_with(&mount.point)) {
        let gives = fs::read_to_string(parent.join("cgroup.subtree_control"))
            .is_ok_and(|c| c.split_whitespace().any(|c| c == "memory"));
        // Placing a child needs write access to the common ancestor's cgroup.procs.
        if !gives || OpenOptions::new().write(true).open(parent.join("cgroup.procs")).is_err() {
            continue;
        }
        match judge_folder(parent, &folder_name()) {
            Ok(folder) => {
                let offered = fs::read_to_string(folder.join("cgroup.controllers")).unwrap_or_default();
                let wanted: Vec<String> = ["memory", "pids", "cpu"]
                    .iter()
                    .filter(|c| offered.split_whitespace().any(|o| o == **c))
                    .map(|c| format!("+{c}"))
                    .collect();
                match fs::write(folder.join("cgroup.subtree_control"), wanted.join(" ")) {
                    Ok(()) => return Ok(folder),
                    Err(e) => {
                        why = format!("{}: {e}", folder.join("cgroup.subtree_control").display());
                        let _ = fs::remove_dir(&folder);
                    }
                }
            }
            Err(e) => why = e,
        }
    }
    Err(why)
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn mounts_and_memberships_are_read_as_the_kernel_writes_them() {
        let mountinfo = "\
30 25 0:26 / /sys/fs/cgroup/memory rw,relatime shared:9 - cgroup cgroup rw,memory
31 25 0:27 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct
32 25 0:28 /sub /sys/fs/cgroup/un\\040ified rw - cgroup2 cgroup2 rw,nsdelegate
33 25 0:29 / /proc rw - proc proc rw";
        let mounts = parse_mounts(mountinfo);
        assert_eq!(mounts.len(), 3);
        assert_eq!(mounts[1].controllers, ["rw", "cpu", "cpuacct"]);
        assert!(mounts[2].v2 && mounts[2].point == Path::new("/sys/fs/cgroup/un ified") && mounts[2].root == "/sub");
        let memberships = parse_memberships("4:memory:/box/a\n2:cpu,cpuacct:/\n0::/sub/user/x.scope\n");
        assert_eq!(memberships[0], (vec!["memory".to_string()], "/box/a".to_string()));
        assert_eq!(memberships[2].0, Vec::<String>::new());
        assert_eq!(seen(&mounts[0], "/box/a"), Path::new("/sys/fs/cgroup/memory/box/a"));
        assert_eq!(seen(&mounts[2], "/sub/user/x.scope"), Path::new("/sys/fs/cgroup/un ified/user/x.scope"));
        assert_eq!(field("oom 0\noom_kill 3\n", "oom_kill"), Some(3));
        assert_eq!(field("under_oom 0\noom_kill 7\n", "oom"), None);
        assert_eq!(field("usage_usec 1500\nuser_usec 900\n", "usage_usec"), Some(1500));
    }
}
