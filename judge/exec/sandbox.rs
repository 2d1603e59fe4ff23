//! Confines a child, as bubblewrap, nsjail and isolate do: `command` takes a `Jail`, the
//! description of what the child may see and do, and gives a `std::process::Command` that
//! starts it so. The same call confines a solution and rustc.
//!
//! In a sandbox (where the kernel allows one): new user, mount, pid, network, ipc and uts
//! namespaces, one unprivileged id, a root of its own built from the jail's ordered list of
//! operations, at most so many processes, no way to gain privileges. Three processes make one
//! confined child:
//!
//! * the *keeper*: the process std forks and knows (`Child::id`). It stays in the judge's
//!   namespaces, clones the init into the new ones, writes the init's id maps (only a process
//!   outside the new user namespace may map an id other than its own), then closes every
//!   descriptor, waits, and ends the way the program ended. It dies with the judge's
//!   spawning thread (parent-death signal), and the init dies with it, so killing the judge
//!   or the keeper kills everything.
//! * the *init*: pid 1 of the new pid namespace. It sets the IPC namespace's limits, takes the
//!   unprivileged id, forbids nested user namespaces, builds the root and forks the program,
//!   then reaps until the program ends and hands its status to the keeper. When it ends the
//!   kernel kills whatever is left in the namespace (a daemon that called setsid included).
//! * the *program*, pid 2, which returns to std and execs. It is not pid 1 because the kernel
//!   drops signals a pid-namespace init has no handler for when they come from inside: an
//!   abort() would end by SIGSEGV instead of SIGABRT, and a write past RLIMIT_FSIZE would
//!   fail with EFBIG instead of raising SIGXFSZ.
//!
//! Where the kernel refuses namespaces, the same jail starts the program directly, in the
//! room (a scratch folder outside the workspace) with the same limits and descriptors.
//!
//! Either way the child is the leader of a session of its own, and holds no descriptor but
//! its standard streams and those the jail gives it: everything else the judge holds, or
//! inherited from whatever started it, is closed at exec. Inside a sandbox nothing names
//! the host: the program's binary is a copy in the sandbox's own root, the init's command line
//! is blanked, and the cgroup is seen as the root of a namespace of its own.
//!
//! Everything the children need is prepared before the fork: between fork and exec they only
//! make system calls.

use std::io;
use std::os::fd::RawFd;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::cgroup::Cell;
use super::files::Seal;
use super::room::Room;
use super::sys::{self, Resource};

#[cfg(target_os = "linux")]
mod confine;
#[cfg(target_os = "linux")]
use confine::Confinement;
/// No system but Linux confines a child.
#[cfg(not(target_os = "linux"))]
type Confinement = std::convert::Infallible;

/// The most descriptors one jail places.
const MOST_PLACED: usize = 8;
/// The host id a sandbox runs as when the judge is root (`nobody`); an unprivileged judge can
/// only map its own.
const OUTSIDE_ID_OF_ROOT: u32 = 65534;

/// Where children run: each in a sandbox, or, where the kernel allows none, in a scratch
/// folder with a process group and the watchdog.
pub enum Isolation {
    Sandbox,
    Room(Room),
}

impl Isolation {
    /// The folder an unconfined child works in; None in a sandbox.
    pub fn room(&self) -> Option<&Path> {
        match self {
            Isolation::Sandbox => None,
            Isolation::Room(room) => Some(&room.cwd),
        }
    }

    /// Whether an unconfined child runs under the Seatbelt profile (see `seatbelt`).
    pub fn seatbelt(&self) -> bool {
        matches!(self, Isolation::Room(room) if room.seatbelt)
    }
}

/// What the kernel holds a confined child to: limits it cannot raise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// Address space, in bytes: an allocation past it fails at once (where the jail sets it).
    pub address_space: Option<u64>,
    /// The largest file it may write (a memfd counts), in bytes.
    pub file_size: u64,
    /// How many descriptors it may open (those it is given stay open whatever their number).
    pub files: u64,
    /// How many processes and threads it may run at once.
    pub processes: u64,
    /// The program's main stack, where the jail sets it.
    pub stack: Option<u64>,
    /// Whether it may start no process but threads of its own (where nothing else would count
    /// the processes it starts: see `sys::refuse_new_processes`).
    pub one_process: bool,
}

/// One step of building a sandbox's root, in the order given (read by the Linux
/// confinement).
#[derive(Clone, Debug)]
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
enum Op {
    /// A host file or folder shown inside, read-only unless writable.
    Bind { host: PathBuf, inside: PathBuf, writable: bool },
    /// A copy of a host file, executable, in the sandbox's own root: nothing inside names
    /// where it came from (a bind shows its host path in /proc/self/mountinfo).
    Copy { host: PathBuf, inside: PathBuf },
    /// A symbolic link inside.
    Link { inside: PathBuf, to: PathBuf },
    /// A private tmpfs of this many bytes, writable by the sandbox's user.
    Tmpfs { inside: PathBuf, bytes: u64 },
    /// The sandbox's own /proc.
    Proc { inside: PathBuf },
}

/// What a confined child may see and do: the program, the root's operations in order, its
/// working folder inside, its limits, and the descriptors it is given.
#[derive(Clone, Debug)]
pub struct Jail {
    /// The program, on the host; a bind must show it inside.
    pub program: PathBuf,
    ops: Vec<Op>,
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    cwd: PathBuf,
    pub bounds: Bounds,
    /// (a descriptor of the judge's, where the program finds it).
    pub descriptors: Vec<(RawFd, RawFd)>,
    /// Outside a sandbox, on Linux: whether a keeper stands between std and the program, to
    /// end every process the program leaves (see `keep_orphans`).
    pub kept: bool,
    /// Outside a sandbox, on macOS: whether the program runs under the Seatbelt profile.
    pub seatbelt: bool,
}

impl Jail {
    /// The system every child needs on this merged-/usr system: /usr read-only, the top-level
    /// links into it (or read-only binds where they are folders), /dev/null, its own /proc,
    /// and a private /tmp of `scratch` bytes as its working folder.
    pub fn system(program: impl Into<PathBuf>, scratch: u64, bounds: Bounds) -> Jail {
        let mut jail = Jail {
            program: program.into(),
            ops: Vec::new(),
            cwd: "/tmp".into(),
            bounds,
            descriptors: Vec::new(),
            kept: false,
            seatbelt: false,
        };
        jail.bind("/usr", "/usr", false);
        for top in ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"] {
            match std::fs::read_link(top) {
                Ok(to) => jail.ops.push(Op::Link { inside: top.into(), to }),
                Err(_) if Path::new(top).is_dir() => {
                    jail.bind(top, top, false);
                }
                Err(_) => {}
            }
        }
        jail.bind("/dev/null", "/dev/null", true);
        jail.ops.push(Op::Tmpfs { inside: "/tmp".into(), bytes: scratch });
        jail.ops.push(Op::Proc { inside: "/proc".into() });
        jail
    }

    /// Shows `host` at `inside`.
    pub fn bind(&mut self, host: impl Into<PathBuf>, inside: impl Into<PathBuf>, writable: bool) -> &mut Jail {
        self.ops.push(Op::Bind { host: host.into(), inside: inside.into(), writable });
        self
    }

    /// Shows a copy of the file `host` at `inside`.
    pub fn copy(&mut self, host: impl Into<PathBuf>, inside: impl Into<PathBuf>) -> &mut Jail {
        self.ops.push(Op::Copy { host: host.into(), inside: inside.into() });
        self
    }

    /// Gives the program `judges` at descriptor `at`.
    pub fn give(&mut self, judges: RawFd, at: RawFd) -> &mut Jail {
        self.descriptors.push((judges, at));
        self
    }

    /// The host paths shown inside by a bind: what the sandbox sees live, not a copy.
    #[cfg(test)]
    pub fn bound(&self) -> impl Iterator<Item = &Path> {
        self.ops.iter().filter_map(|op| match op {
            Op::Bind { host, .. } => Some(host.as_path()),
            _ => None,
        })
    }

    /// Where a host path is seen in the sandbox: under the last bind that holds it, or where
    /// it is copied.
    pub fn inside(&self, host: &Path) -> Option<PathBuf> {
        self.ops.iter().rev().find_map(|op| match op {
            Op::Bind { host: bound, inside, .. } => host.strip_prefix(bound).ok().map(|rest| {
                if rest.as_os_str().is_empty() {
                    inside.clone()
                } else {
                    inside.join(rest)
                }
            }),
            Op::Copy { host: copied, inside } => (copied == host).then(|| inside.clone()),
            _ => None,
        })
    }
}

/// The one call: a command that starts `jail.program` confined as `jail` says, in a sandbox,
/// or, given `room`, unconfined there with the same limits and descriptors; in `cell` where
/// there is one (a v1 cell must then start it: `Cell::spawn`). The caller adds the arguments,
/// environment and standard streams; the environment starts empty, and the child leads a
/// session (and process group) of its own.
pub fn command(jail: &Jail, room: Option<&Path>, cell: Option<&Cell>) -> io::Result<Command> {
    if jail.descriptors.len() > MOST_PLACED {
        return Err(invalid(format!("at most {MOST_PLACED} descriptors are placed")));
    }
    let placed = jail.descriptors.clone();
    // What the program keeps across exec, in ascending order: its standard streams and the
    // descriptors it is given.
    let mut keep: Vec<RawFd> = [0, 1, 2].into_iter().chain(placed.iter().map(|&(_, at)| at)).collect();
    keep.sort_unstable();
    keep.dedup();
    let bounds = jail.bounds;
    #[cfg(target_os = "linux")]
    let kept = jail.kept && room.is_some();
    #[cfg(target_os = "linux")]
    let judge = std::process::id();
    let (mut command, confinement, join) = match room {
        Some(room) => {
            let mut command = match jail.seatbelt && cfg!(target_os = "macos") {
                true => {
                    let mut command = Command::new(super::seatbelt::SANDBOX_EXEC);
                    command.arg("-p").arg(super::seatbelt::profile_resolved(room, &jail.program)).arg(&jail.program);
                    command
                }
                false => Command::new(&jail.program),
            };
            command.current_dir(room);
            // A v2 cell is joined by the child itself (a v1 cell's thread forks it there).
            (command, None::<Confinement>, cell.and_then(Cell::procs))
        }
        #[cfg(target_os = "linux")]
        None => {
            let inside = jail
                .inside(&jail.program)
                .ok_or_else(|| invalid(format!("{} is not shown in the sandbox", jail.program.display())))?;
            (Command::new(inside), Some(Confinement::new(jail, cell.and_then(Cell::clone_folder))?), None)
        }
        #[cfg(not(target_os = "linux"))]
        None => return Err(no_sandbox()),
    };
    command.env_clear().stdin(Stdio::null());
    // SAFETY: between fork and exec the closure only makes system calls on memory prepared
    // before the fork (no allocation, no locks), and every process it forks either execs or
    // calls _exit.
    unsafe {
        command.pre_exec(move || {
            #[cfg(target_os = "linux")]
            sys::die_with(judge)?;
            sys::new_session()?;
            sys::place_fds(&placed)?;
            sys::close_on_exec_all_except(&keep)?;
            // macOS takes no address-space limit (nor enforces one): there only the judge's
            // readings hold the memory limit, and rustc has none.
            #[cfg(target_os = "linux")]
            if let Some(address_space) = bounds.address_space {
                sys::limit(Resource::AddressSpace, address_space)?;
            }
            sys::limit(Resource::FileSize, bounds.file_size)?;
            sys::limit(Resource::CoreDump, 0)?;
            if let Some(stack) = bounds.stack {
                sys::limit(Resource::Stack, stack)?;
            }
            match &confinement {
                #[cfg(target_os = "linux")]
                Some(confinement) => return confinement.enter(),
                _ => {}
            }
            if let Some(procs) = join {
                sys::write_all(procs, b"0")?;
            }
            sys::limit(Resource::Files, bounds.files)?;
            #[cfg(target_os = "linux")]
            if kept {
                keep_orphans()?;
            }
            #[cfg(target_os = "linux")]
            if bounds.one_process {
                sys::no_new_privs()?;
                sys::refuse_new_processes()?;
            }
            Ok(())
        });
    }
    Ok(command)
}

/// Outside a sandbox, where no pid namespace ends what a program leaves: this process, std's
/// fork, becomes the keeper, the reaper of every orphan below it, and forks the program, which
/// returns here to exec in a session of its own (the judge stops it by its group). When the
/// program ends the keeper kills every process left, each as it becomes the keeper's (a
/// daemon that forked, called setsid and forked again included), then ends as the program
/// did. Returns only in the program.
#[cfg(target_os = "linux")]
fn keep_orphans() -> io::Result<()> {
    sys::become_subreaper()?;
    let keeper = std::process::id();
    // SAFETY: this process is std's fork of one judge thread: it has no other thread.
    let Some(program) = (unsafe { sys::clone_process(0) })? else {
        sys::die_with(keeper)?;
        return sys::new_session();
    };
    // Everything goes, std's exec-error pipe included, so that spawn() returns when the
    // program has exec'd, and the judge's pipes close when the program's do.
    let _ = sys::close_all_except(&[]);
    let status = reap_until(program);
    while sys::kill_children() && sys::wait_any().is_ok() {}
    sys::exit_like(status)
}

/// Reaps every child (orphans adopted included) until `program` ends: its status.
#[cfg(target_os = "linux")]
fn reap_until(program: u32) -> std::process::ExitStatus {
    loop {
        match sys::wait_any() {
            Ok((pid, status)) if pid == program => return status,
            Ok(_) => {}
            Err(_) => sys::exit_now(LOST),
        }
    }
}

/// A keeper's or init's exit code if it lost its child without a status (should not happen).
#[cfg(target_os = "linux")]
const LOST: i32 = 125;

fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message)
}

/// The host user id a sandbox's files and processes belong to: a writable bind must be
/// writable by it.
pub fn outside_uid() -> u32 {
    match sys::effective_ids() {
        (0, _) => OUTSIDE_ID_OF_ROOT,
        (uid, _) => uid,
    }
}

/// The bounds of the probe's child and of nothing else.
#[cfg(target_os = "linux")]
const PROBE_BOUNDS: Bounds = Bounds {
    address_space: Some(1 << 30),
    file_size: 1 << 20,
    files: 64,
    processes: 8,
    stack: None,
    one_process: false,
};

/// Whether children can run confined here: a child of the system jail is started and must
/// end well; the error says what the kernel refused.
#[cfg(not(target_os = "linux"))]
pub fn probe() -> io::Result<()> {
    Err(no_sandbox())
}

/// Why no child runs in a sandbox here: the sandbox is Linux's namespaces.
#[cfg(not(target_os = "linux"))]
fn no_sandbox() -> io::Error {
    io::Error::new(io::ErrorKind::Unsupported, "the sandbox is Linux's namespaces, and this is not Linux")
}

#[cfg(target_os = "linux")]
pub fn probe() -> io::Result<()> {
    let jail = Jail::system("/usr/bin/true", 1 << 20, PROBE_BOUNDS);
    let mut command = command(&jail, None, None)?;
    let status = command.stdout(Stdio::null()).status()?;
    match status.success() {
        true => Ok(()),
        false => Err(io::Error::other(format!("a confined child ended with {status}"))),
    }
}

/// `probe`, remembered under `cache` while nothing that decides the answer changes: the
/// boot, the user, the kernel's settings for user namespaces and the seccomp filters the judge
/// runs under (a change of any is a new entry). Only success is remembered; a refusal is
/// probed again each time.
pub fn probe_remembered(cache: &Path) -> io::Result<()> {
    let mut facts = format!("ids {:?}\n", super::sys::effective_ids());
    for file in [
        "/proc/sys/kernel/random/boot_id",
        "/proc/sys/user/max_user_namespaces",
        "/proc/sys/kernel/unprivileged_userns_clone",
        "/proc/sys/kernel/apparmor_restrict_unprivileged_userns",
    ] {
        facts.push_str(&format!("{file} {}\n", std::fs::read_to_string(file).unwrap_or_default().trim()));
    }
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    facts.extend(status.lines().filter(|l| l.starts_with("Seccomp")).map(|l| format!("{l}\n")));
    let entry = cache.join(format!("sandbox-{}", super::digest::Digest::of(facts.as_bytes()).hex()));
    if Seal::PUBLIC.read(&entry).is_some_and(|said| said == facts.as_bytes()) {
        return Ok(());
    }
    probe()?;
    let _ = Seal::PUBLIC.put(&entry, facts.as_bytes());
    Ok(())
}
