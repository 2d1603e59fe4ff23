//! Starts a `std::process::Command` child confined, as bubblewrap, nsjail and isolate do: in
//! new user, mount, pid, network, ipc and uts namespaces, under one unprivileged id, with a
//! root of its own that holds only what the `Spec` binds, and at most so many processes.
//!
//! Three processes make one confined child:
//!
//! * the *keeper*: the process std forks and knows (`Child::id`). It stays in the judge's
//!   namespaces, clones the init into the new ones, writes the init's id maps (only a process
//!   outside the new user namespace may map an id other than its own), then closes every
//!   descriptor, waits, and ends the way the program ended. It dies with the judge's
//!   spawning thread (parent-death signal), and the init dies with it, so killing the judge
//!   or the keeper kills everything.
//! * the *init*: pid 1 of the new pid namespace. It takes the unprivileged id, forbids nested user namespaces, builds the root and forks the program,
//!   then reaps until the program ends and hands its status to the keeper. When it ends the
//!   kernel kills whatever is left in the namespace (a daemon that called setsid included).
//! * the *program*, pid 2, which returns to std and execs. It is not pid 1 because the kernel
//!   drops signals a pid-namespace init has no handler for when they come from inside: an
//!   abort() would end by SIGSEGV instead of SIGABRT, and a write past RLIMIT_FSIZE would
//!   fail with EFBIG instead of raising SIGXFSZ.
//!
//! Everything the children need is prepared by `Confinement::new`, before the fork: between
//! fork and exec they only make system calls.

use std::collections::BTreeSet;
use std::ffi::{CStr, CString};
use std::io;
use std::os::fd::RawFd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Component, Path, PathBuf};
use std::process::{Command, ExitStatus};
use std::sync::Arc;

use super::sys::{self, Resource};

/// The most host paths one confinement binds (their descriptors sit in a fixed array).
const MOST_BINDS: usize = 32;
/// Where the init assembles the new root: a tmpfs mounted over the host's /tmp, seen only in
/// the new mount namespace.
const STAGE: &str = "/tmp";
/// The keeper's exit code if it lost its child without a status (should not happen).
const LOST: i32 = 125;

/// A host file or folder shown inside at `inside`.
#[derive(Clone, Debug)]
pub struct Bind {
    pub host: PathBuf,
    pub inside: PathBuf,
    pub writable: bool,
}

/// Which namespaces besides the user namespace (always new). All, unless measuring.
#[derive(Clone, Copy, Debug)]
pub struct Namespaces {
    pub mount: bool,
    pub pid: bool,
    pub net: bool,
    pub ipc_uts: bool,
}

impl Namespaces {
    pub const ALL: Namespaces = Namespaces { mount: true, pid: true, net: true, ipc_uts: true };
}

/// What a confined child sees and may do.
#[derive(Clone, Debug)]
pub struct Spec {
    pub binds: Vec<Bind>,
    /// Symbolic links to make: (inside path, what it points to).
    pub links: Vec<(PathBuf, PathBuf)>,
    /// A private writable tmpfs: where, and its size in bytes.
    pub scratch: Option<(PathBuf, u64)>,
    /// Whether to mount a /proc of its own (needs the pid namespace).
    pub proc: bool,
    /// The working folder, inside; it must exist there (the scratch folder, say).
    pub cwd: PathBuf,
    /// RLIMIT_NPROC: how many processes the program and its descendants may be at once.
    pub processes: Option<u64>,
    pub namespaces: Namespaces,
    /// The user and group id inside.
    pub inside_id: u32,
    /// The host user and group id the sandbox runs as when the judge is root (an unprivileged
    /// judge can only map its own ids).
    pub outside_id: u32,
}

impl Spec {
    /// What a compiled program needs on this merged-/usr system: /usr read-only, the top-level
    /// links into it (or read-only binds where they are folders), /dev/null, a 16 MiB /tmp as
    /// working folder, its own /proc, at most 64 processes, and every namespace.
    pub fn system() -> Spec {
        let mut spec = Spec {
            binds: Vec::new(),
            links: Vec::new(),
            scratch: Some(("/tmp".into(), 16 << 20)),
            proc: true,
            cwd: "/tmp".into(),
            processes: Some(64),
            namespaces: Namespaces::ALL,
            inside_id: 1000,
            outside_id: 65534,
        };
        spec.bind("/usr", "/usr", false);
        for top in ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"] {
            match std::fs::read_link(top) {
                Ok(target) => spec.links.push((top.into(), target)),
                Err(_) if Path::new(top).is_dir() => {
                    spec.bind(top, top, false);
                }
                Err(_) => {}
            }
        }
        spec.bind("/dev/null", "/dev/null", true);
        spec
    }

    pub fn bind(&mut self, host: impl Into<PathBuf>, inside: impl Into<PathBuf>, writable: bool) -> &mut Spec {
        self.binds.push(Bind { host: host.into(), inside: inside.into(), writable });
        self
    }
}

/// A `Spec` made ready for children: every path a C string, every host path opened and
/// checked. One confinement serves any number of children, from any thread.
#[derive(Debug)]
pub struct Confinement {
    flags: u64,
    pid_ns: bool,
    root: Option<Root>,
    inside_id: u32,
    outside_uid: u32,
    uid_map: Vec<u8>,
    gid_map: Vec<u8>,
    privileged: bool,
    processes: Option<u64>,
}

/// How to assemble the new root, every path under `STAGE`.
#[derive(Debug)]
struct Root {
    stage: CString,
    /// Host paths to bind, opened by the init before it gives up the judge's ids.
    sources: Vec<CString>,
    dirs: Vec<CString>,
    files: Vec<CString>,
    links: Vec<(CString, CString)>,
    steps: Vec<Step>,
    cwd: CString,
}

#[derive(Debug)]
enum Step {
    Bind { source: usize, target: CString, writable: bool },
    Tmpfs { target: CString, options: CString },
    Proc { target: CString },
}

fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message)
}

fn c_path(path: &Path) -> io::Result<CString> {
    CString::new(path.as_os_str().as_bytes()).map_err(|_| invalid(format!("{} holds a NUL", path.display())))
}

/// `inside`, if it is absolute, not the root, and free of `.` and `..`.
fn inside_path(inside: &Path) -> io::Result<&Path> {
    let mut components = inside.components();
    let plain = components.next() == Some(Component::RootDir)
        && components.clone().next().is_some()
        && components.all(|c| matches!(c, Component::Normal(_)));
    if plain {
        Ok(inside)
    } else {
        Err(invalid(format!("{} is not a plain absolute path below /", inside.display())))
    }
}

impl Confinement {
    pub fn new(spec: &Spec) -> io::Result<Confinement> {
        let ns = spec.namespaces;
        let mut flags = sys::NEW_USER;
        for (on, flag) in [
            (ns.mount, sys::NEW_MOUNT),
            (ns.pid, sys::NEW_PID),
            (ns.net, sys::NEW_NET),
            (ns.ipc_uts, sys::NEW_IPC | sys::NEW_UTS),
        ] {
            if on {
                flags |= flag;
            }
        }
        let mounts = !spec.binds.is_empty() || !spec.links.is_empty() || spec.scratch.is_some() || spec.proc;
        if mounts && !ns.mount {
            return Err(invalid("binds, links, scratch and proc need the mount namespace".into()));
        }
        if spec.proc && !ns.pid {
            return Err(invalid("a /proc of its own needs the pid namespace".into()));
        }
        let (euid, egid) = sys::effective_ids();
        let privileged = euid == 0;
        let (uid, gid) = if privileged { (spec.outside_id, spec.outside_id) } else { (euid, egid) };
        if uid == 0 {
            return Err(invalid("the sandbox must not run as the host's root".into()));
        }
        Ok(Confinement {
            flags,
            pid_ns: ns.pid,
            root: if ns.mount { Some(Root::new(spec)?) } else { None },
            inside_id: spec.inside_id,
            outside_uid: uid,
            uid_map: format!("{} {uid} 1\n", spec.inside_id).into_bytes(),
            gid_map: format!("{} {gid} 1\n", spec.inside_id).into_bytes(),
            privileged,
            processes: spec.processes,
        })
    }

    /// The host user id the sandbox's files and processes belong to: a writable bind must be
    /// writable by it.
    pub fn outside_uid(&self) -> u32 {
        self.outside_uid
    }

    /// The keeper: runs in the process std forked, as its last pre_exec hook. Returns only in
    /// the process that is to exec.
    fn enter(&self, judge: u32) -> io::Result<()> {
        // Dies with the judge's spawning thread (the judge may have asked already).
        sys::die_with(judge)?;
        sys::block_signals()?;
        if self.privileged {
            sys::drop_groups()?;
        }
        let (from_keeper, to_init) = sys::pipe()?;
        let (from_init, to_keeper) = sys::pipe()?;
        // SAFETY: this process is std's fork of one judge thread: it has no other thread.
        match unsafe { sys::clone_process(self.flags) }? {
            Some(init) => {
                sys::close(from_keeper);
                sys::close(to_keeper);
                self.keep(init, to_init, from_init)
            }
            None => {
                sys::close(to_init);
                sys::close(from_init);
                self.init(from_keeper, to_keeper)
            }
        }
    }

    /// Gives the init its ids, then waits for it and ends the way the program ended.
    fn keep(&self, init: u32, to_init: RawFd, from_init: RawFd) -> ! {
        let errno = match self.map_ids(init) {
            Ok(()) => 0,
            Err(e) => e.raw_os_error().unwrap_or(sys::ESRCH),
        };
        let _ = sys::write_all(to_init, &errno.to_ne_bytes());
        // `to_init` stays open while this process lives: the init sees it hang up if it dies.
        // Everything else goes, std's exec-error pipe included, so that spawn() returns when
        // the program has exec'd.
        let _ = sys::close_all_except(&[to_init.min(from_init), to_init.max(from_init)]);
        let status = sys::wait_for(init).unwrap_or_else(|_| sys::exit_now(LOST));
        let mut relayed = [0; 4];
        let status = match sys::read(from_init, &mut relayed) {
            Ok(4) => ExitStatus::from_raw(i32::from_ne_bytes(relayed)),
            _ => status,
        };
        sys::exit_like(status)
    }

    fn map_ids(&self, init: u32) -> io::Result<()> {
        // "deny" first: an unprivileged process may write gid_map only after it.
        sys::write_file(StackPath::proc(init, b"setgroups").as_c_str(), b"deny")?;
        sys::write_file(StackPath::proc(init, b"uid_map").as_c_str(), &self.uid_map)?;
        sys::write_file(StackPath::proc(init, b"gid_map").as_c_str(), &self.gid_map)
    }

    /// The init, pid 1 of the new namespaces (or the program itself without a pid namespace).
    fn init(&self, from_keeper: RawFd, to_keeper: RawFd) -> io::Result<()> {
        sys::die_with_parent()?;
        let mut word = [0; 4];
        if sys::read(from_keeper, &mut word)? != 4 {
            return Err(io::Error::from_raw_os_error(sys::ESRCH));
        }
        match i32::from_ne_bytes(word) {
            0 => {}
            errno => return Err(io::Error::from_raw_os_error(errno)),
        }
        let mut sources = [-1; MOST_BINDS];
        if let Some(root) = &self.root {
            sys::make_mounts_private()?;
            // Opened with the judge's ids: a root judge may bind what only root can reach.
            for (fd, path) in sources.iter_mut().zip(&root.sources) {
                *fd = sys::open_path(path)?;
            }
        }
        sys::set_ids(self.inside_id, self.inside_id)?;
        // A change of ids clears the parent-death signal: set it again, then make sure the
        // keeper did not die before.
        sys::die_with_parent()?;
        if sys::hung_up(from_keeper)? {
            return Err(io::Error::from_raw_os_error(sys::ESRCH));
        }
        // No user namespaces below this one: the program gets no capabilities back by
        // nesting, so it can make no namespace (nor mount, nor net device) at all. This is
        // the sysctl of the new user namespace, not the host's.
        sys::write_file(c"/proc/sys/user/max_user_namespaces", b"0")?;
        if let Some(root) = &self.root {
            root.build(&sources)?;
        }
        sys::no_new_privs()?;
        if let Some(processes) = self.processes {
            // The init is one of the processes of this user in this namespace.
            sys::limit(Resource::Processes, processes + u64::from(self.pid_ns))?;
        }
        if self.pid_ns {
            // The program runs as the same user: it must not open the init's descriptors
            // through /proc/1/fd, nor ptrace it.
            sys::set_dumpable(false)?;
            // SAFETY: this process has one thread.
            if let Some(program) = unsafe { sys::clone_process(0) }? {
                reap(program, to_keeper);
            }
        }
        sys::unblock_signals()
    }
}

/// The init's life once the program is forked: reap every orphan until the program ends,
/// hand its status to the keeper, and end, which kills whatever is left in the namespace.
fn reap(program: u32, to_keeper: RawFd) -> ! {
    let _ = sys::close_all_except(&[to_keeper]);
    loop {
        match sys::wait_any() {
            Ok((pid, status)) if pid == program => {
                let _ = sys::write_all(to_keeper, &status.into_raw().to_ne_bytes());
                sys::exit_now(0);
            }
            Ok(_) => {}
            Err(_) => sys::exit_now(LOST),
        }
    }
}

impl Root {
    fn new(spec: &Spec) -> io::Result<Root> {
        if spec.binds.len() > MOST_BINDS {
            return Err(invalid(format!("at most {MOST_BINDS} binds")));
        }
        let staged = |inside: &Path| c_path(&Path::new(STAGE).join(inside.strip_prefix("/").unwrap_or(inside)));
        // Every mount point, sorted so that a folder is mounted before what lies in it.
        let mut points: Vec<(&Path, Option<usize>)> = Vec::new();
        let mut sources = Vec::new();
        let mut files = Vec::new();
        let mut dirs = BTreeSet::new();
        for (i, bind) in spec.binds.iter().enumerate() {
            let inside = inside_path(&bind.inside)?;
            let host = std::fs::canonicalize(&bind.host)
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", bind.host.display())))?;
            if host.is_dir() {
                dirs.insert(inside.to_path_buf());
            } else {
                files.push(staged(inside)?);
            }
            sources.push(c_path(&host)?);
            points.push((inside, Some(i)));
        }
        for (inside, _) in &spec.links {
            points.push((inside_path(inside)?, None));
        }
        for inside in spec.scratch.iter().map(|(p, _)| p.as_path()).chain(spec.proc.then_some(Path::new("/proc"))) {
            let inside = inside_path(inside)?;
            dirs.insert(inside.to_path_buf());
            points.push((inside, None));
        }
        points.sort();
        for pair in points.windows(2) {
            if pair[1].0.starts_with(pair[0].0) {
                return Err(invalid(format!("{} is at or inside {}", pair[1].0.display(), pair[0].0.display())));
            }
        }
        for (inside, _) in &points {
            dirs.extend(inside.ancestors().skip(1).filter(|a| a.parent().is_some()).map(Path::to_path_buf));
        }
        let mut steps = Vec::new();
        for (inside, bind) in &points {
            let target = staged(inside)?;
            match bind {
                Some(i) => steps.push(Step::Bind { source: *i, target, writable: spec.binds[*i].writable }),
                None if spec.proc && *inside == Path::new("/proc") => steps.push(Step::Proc { target }),
                None => match &spec.scratch {
                    Some((at, bytes)) if at == inside => {
                        let options = CString::new(format!("size={bytes},mode=1777")).expect("no NUL");
                        steps.push(Step::Tmpfs { target, options });
                    }
                    _ => {} // a link: made with the folders
                },
            }
        }
        let links =
            spec.links.iter().map(|(inside, to)| Ok((c_path(to)?, staged(inside)?))).collect::<io::Result<Vec<_>>>()?;
        Ok(Root {
            stage: c_path(Path::new(STAGE))?,
            sources,
            dirs: dirs.iter().map(|d| staged(d)).collect::<io::Result<_>>()?,
            files,
            links,
            steps,
            cwd: c_path(&spec.cwd)?,
        })
    }

    /// Mounts the new root on `STAGE`, fills it, makes it the root and drops the old one.
    fn build(&self, sources: &[RawFd]) -> io::Result<()> {
        let tmpfs = Some(c"tmpfs");
        let hidden = sys::MS_NOSUID | sys::MS_NODEV;
        sys::mount(tmpfs, &self.stage, tmpfs, hidden, Some(c"size=1m,mode=755"))?;
        for dir in &self.dirs {
            sys::make_dir(dir, 0o755)?;
        }
        for file in &self.files {
            sys::make_file(file)?;
        }
        for (to, link) in &self.links {
            sys::symlink(to, link)?;
        }
        for step in &self.steps {
            match step {
                Step::Bind { source, target, writable } => {
                    let fd = sources[*source];
                    sys::bind(StackPath::fd(fd).as_c_str(), target)?;
                    sys::close(fd);
                    sys::restrict_mount(target, !writable, true)?;
                }
                Step::Tmpfs { target, options } => sys::mount(tmpfs, target, tmpfs, hidden, Some(options))?,
                // Before the old root goes: the kernel mounts a proc in a user namespace only
                // where a fully visible one is already mounted.
                Step::Proc { target } => {
                    let proc = Some(c"proc");
                    sys::mount(proc, target, proc, hidden | sys::MS_NOEXEC, None)?;
                }
            }
        }
        sys::chdir(&self.stage)?;
        sys::pivot_root(c".", c".")?;
        sys::detach(c".")?;
        sys::restrict_mount(c"/", true, false)?;
        sys::chdir(&self.cwd)
    }
}

/// A short path built on the stack, for use between fork and exec.
struct StackPath {
    bytes: [u8; 48],
    len: usize,
}

impl StackPath {
    fn new() -> StackPath {
        StackPath { bytes: [0; 48], len: 0 }
    }

    /// `/proc/<pid>/<file>`.
    fn proc(pid: u32, file: &[u8]) -> StackPath {
        let mut path = StackPath::new();
        path.push(b"/proc/");
        path.push_number(pid);
        path.push(b"/");
        path.push(file);
        path
    }

    /// `/proc/self/fd/<fd>`: mount follows it to what the descriptor names.
    fn fd(fd: RawFd) -> StackPath {
        let mut path = StackPath::new();
        path.push(b"/proc/self/fd/");
        path.push_number(fd as u32);
        path
    }

    /// Truncates rather than overflows; the last byte stays NUL.
    fn push(&mut self, bytes: &[u8]) {
        let room = self.bytes.len() - 1 - self.len;
        let n = bytes.len().min(room);
        self.bytes[self.len..self.len + n].copy_from_slice(&bytes[..n]);
        self.len += n;
    }

    fn push_number(&mut self, mut n: u32) {
        let mut digits = [0; 10];
        let mut i = digits.len();
        loop {
            i -= 1;
            digits[i] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        self.push(&digits[i..]);
    }

    fn as_c_str(&self) -> &CStr {
        CStr::from_bytes_until_nul(&self.bytes).unwrap_or(c"")
    }
}

/// Makes `command` start its program confined.
///
/// Call it after adding every other pre_exec hook: it must run last, since the process that
/// runs the earlier hooks is the keeper, not the program. Name the program by its path
/// inside, and give no `current_dir` (the spec's `cwd` is used). `Child::id` is the keeper's
/// pid; killing it (or its process group) ends the whole sandbox.
pub fn confine(command: &mut Command, confinement: &Arc<Confinement>) {
    let confinement = Arc::clone(confinement);
    let judge = std::process::id();
    // SAFETY: `enter` only makes system calls on memory prepared before the fork (no
    // allocation, no locks), and every process it forks either execs or calls _exit.
    unsafe {
        command.pre_exec(move || confinement.enter(judge));
    }
}

/// Whether children can run confined here: a child of the system spec is started and must end
/// well; the error says what the kernel refused.
pub fn probe() -> io::Result<()> {
    let confinement = Arc::new(Confinement::new(&Spec::system())?);
    let mut command = Command::new("/usr/bin/true");
    command.env_clear().stdin(std::process::Stdio::null()).stdout(std::process::Stdio::null());
    confine(&mut command, &confinement);
    let status = command.status()?;
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
    if super::files::read_sealed(&entry).is_some_and(|said| said == facts.as_bytes()) {
        return Ok(());
    }
    probe()?;
    let _ = super::files::put_sealed(&entry, facts.as_bytes());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stack_paths() {
        assert_eq!(StackPath::proc(4242, b"uid_map").as_c_str(), c"/proc/4242/uid_map");
        assert_eq!(StackPath::fd(0).as_c_str(), c"/proc/self/fd/0");
        let mut long = StackPath::new();
        long.push(&[b'x'; 100]);
        assert_eq!(long.as_c_str().to_bytes().len(), 47);
    }

    #[test]
    fn rejects_bad_specs() {
        let mut spec = Spec::system();
        spec.bind("/usr/lib", "/usr/lib", false);
        assert!(Confinement::new(&spec).is_err(), "a bind inside a bind");
        let mut spec = Spec::system();
        spec.bind("/usr", "relative", false);
        assert!(Confinement::new(&spec).is_err(), "a relative inside path");
        let mut spec = Spec::system();
        spec.bind("/usr", "/a/../b", false);
        assert!(Confinement::new(&spec).is_err(), "a path with ..");
        let mut spec = Spec::system();
        spec.namespaces.pid = false;
        assert!(Confinement::new(&spec).is_err(), "proc without a pid namespace");
        let mut spec = Spec::system();
        (spec.binds, spec.links, spec.scratch) = (Vec::new(), Vec::new(), None);
        spec.namespaces.mount = false;
        assert!(Confinement::new(&spec).is_err(), "proc without a mount namespace");
        let mut spec = Spec::system();
        spec.bind("/nonexistent-host-path", "/x", false);
        assert!(Confinement::new(&spec).is_err(), "a missing host path");
    }

    #[test]
    fn plans_folders_parents_first() {
        let mut spec = Spec::system();
        spec.bind("/etc/hostname", "/deep/er/file", false);
        let root = Confinement::new(&spec).unwrap().root.unwrap();
        let dirs: Vec<_> = root.dirs.iter().map(|d| d.to_str().unwrap()).collect();
        let at = |d: &str| dirs.iter().position(|x| *x == d).unwrap();
        assert!(at("/tmp/deep") < at("/tmp/deep/er"));
        assert!(!dirs.contains(&"/tmp/deep/er/file"));
        assert!(root.files.iter().any(|f| f.to_str() == Ok("/tmp/deep/er/file")));
        assert!(dirs.contains(&"/tmp/usr") && dirs.contains(&"/tmp/proc") && dirs.contains(&"/tmp/tmp"));
    }
}
