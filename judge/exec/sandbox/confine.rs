//! A jail built in new namespaces, on Linux: the keeper, the init and the program (see
//! `sandbox`), and the root the init assembles from the jail's ordered list of operations.
//! Everything is prepared before the fork: between fork and exec they only make system calls.

use std::ffi::{CStr, CString};
use std::io;
use std::os::fd::RawFd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Component, Path, PathBuf};
use std::process::ExitStatus;

use super::super::files;
use super::super::sys::{self, Resource};
use super::{invalid, reap_until, Bounds, Jail, Op, LOST, OUTSIDE_ID_OF_ROOT};

/// Where the init assembles the new root: a tmpfs mounted over the host's /tmp, seen only in
/// the new mount namespace.
const STAGE: &str = "/tmp";
/// The most host paths one jail binds (their descriptors sit in a fixed array).
const MOST_BINDS: usize = 32;
/// The user and group id inside.
const INSIDE_ID: u32 = 1000;
/// The IPC namespace's limits: SysV shared memory of at most 16 MiB in all (the kernel's
/// `shmall` counts pages), and no POSIX message queue. Memory no process maps is invisible
/// to /proc, so it is bounded here; a cgroup counts it anyway.
const IPC_LIMITS: [(&CStr, &[u8]); 4] = [
    (c"/proc/sys/kernel/shmmax", b"16777216"),
    (c"/proc/sys/kernel/shmall", b"4096"),
    (c"/proc/sys/kernel/shmmni", b"16"),
    (c"/proc/sys/fs/mqueue/queues_max", b"0"),
];

/// A jail made ready for the fork: every path a C string, every host path checked, the root's
/// steps in order.
pub(super) struct Confinement {
    flags: u64,
    /// A v2 cell's folder, to clone the init into.
    cgroup: Option<RawFd>,
    /// Host paths to bind or copy, opened by the init before it gives up the judge's ids.
    sources: Vec<CString>,
    steps: Vec<Step>,
    cwd: CString,
    stage: CString,
    /// The options of the root's tmpfs: room for what is copied into it.
    root_options: CString,
    /// Where the judge's command line lies in its memory, copied into the init's, which
    /// blanks it: the init's /proc/1/cmdline is readable inside.
    arguments: Option<(usize, usize)>,
    uid_map: Vec<u8>,
    gid_map: Vec<u8>,
    privileged: bool,
    bounds: Bounds,
}

/// One step of the root, ready: paths under `STAGE`.
#[derive(Debug)]
enum Step {
    Dir(CString),
    /// An empty file to bind a file on.
    File(CString),
    Link {
        to: CString,
        at: CString,
    },
    Bind {
        source: usize,
        at: CString,
        writable: bool,
    },
    Copy {
        source: usize,
        at: CString,
    },
    Tmpfs {
        at: CString,
        options: CString,
    },
    Proc {
        at: CString,
    },
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
    pub(super) fn new(jail: &Jail, cgroup: Option<RawFd>) -> io::Result<Confinement> {
        let (euid, egid) = sys::effective_ids();
        let privileged = euid == 0;
        let (uid, gid) = if privileged { (OUTSIDE_ID_OF_ROOT, OUTSIDE_ID_OF_ROOT) } else { (euid, egid) };
        let staged = |inside: &Path| c_path(&Path::new(STAGE).join(inside.strip_prefix("/").unwrap_or(inside)));
        let mut sources = Vec::new();
        let mut steps = Vec::new();
        let mut copied: u64 = 0;
        let mut mounted: Vec<&Path> = Vec::new();
        let mut made: Vec<PathBuf> = Vec::new();
        for op in &jail.ops {
            let inside = inside_path(match op {
                Op::Bind { inside, .. }
                | Op::Copy { inside, .. }
                | Op::Link { inside, .. }
                | Op::Tmpfs { inside, .. }
                | Op::Proc { inside } => inside,
            })?;
            if let Some(under) = mounted.iter().find(|m| inside.starts_with(m) || m.starts_with(inside)) {
                return Err(invalid(format!("{} is at or inside {}, or holds it", inside.display(), under.display())));
            }
            // Its folders first, each once, parents before children.
            let parents: Vec<&Path> = inside.ancestors().skip(1).filter(|a| a.parent().is_some()).collect();
            for parent in parents.into_iter().rev() {
                if !made.iter().any(|m| m == parent) {
                    made.push(parent.to_path_buf());
                    steps.push(Step::Dir(staged(parent)?));
                }
            }
            let at = staged(inside)?;
            match op {
                Op::Bind { host, writable, .. } => {
                    if sources.len() == MOST_BINDS {
                        return Err(invalid(format!("at most {MOST_BINDS} binds")));
                    }
                    let host = std::fs::canonicalize(host).map_err(|e| files::at(host, e))?;
                    steps.push(if host.is_dir() { Step::Dir(staged(inside)?) } else { Step::File(staged(inside)?) });
                    steps.push(Step::Bind { source: sources.len(), at, writable: *writable });
                    sources.push(c_path(&host)?);
                }
                Op::Copy { host, .. } => {
                    if sources.len() == MOST_BINDS {
                        return Err(invalid(format!("at most {MOST_BINDS} binds and copies")));
                    }
                    let size = std::fs::metadata(host).map_err(|e| files::at(host, e))?.len();
                    copied += size.div_ceil(4096) * 4096 + 4096;
                    steps.push(Step::Copy { source: sources.len(), at });
                    sources.push(c_path(host)?);
                }
                Op::Link { to, .. } => steps.push(Step::Link { to: c_path(to)?, at }),
                Op::Tmpfs { bytes, .. } => {
                    steps.push(Step::Dir(staged(inside)?));
                    let options = CString::new(format!("size={bytes},mode=1777")).expect("no NUL");
                    steps.push(Step::Tmpfs { at, options });
                }
                Op::Proc { .. } => {
                    steps.push(Step::Dir(staged(inside)?));
                    steps.push(Step::Proc { at });
                }
            }
            made.push(inside.to_path_buf());
            if !matches!(op, Op::Link { .. }) {
                mounted.push(inside);
            }
        }
        let flags = sys::NEW_USER
            | sys::NEW_MOUNT
            | sys::NEW_PID
            | sys::NEW_NET
            | sys::NEW_IPC
            | sys::NEW_UTS
            | sys::NEW_CGROUP;
        let root_options = CString::new(format!("size={},mode=755", (1 << 20) + copied)).expect("no NUL");
        Ok(Confinement {
            flags,
            cgroup,
            sources,
            steps,
            cwd: c_path(&jail.cwd)?,
            stage: c_path(Path::new(STAGE))?,
            root_options,
            arguments: sys::own_arguments(),
            uid_map: format!("{INSIDE_ID} {uid} 1\n").into_bytes(),
            gid_map: format!("{INSIDE_ID} {gid} 1\n").into_bytes(),
            privileged,
            bounds: jail.bounds,
        })
    }

    /// The keeper: runs in the process std forked, as the last step of its hook. Returns only
    /// in the process that is to exec.
    pub(super) fn enter(&self) -> io::Result<()> {
        sys::block_signals()?;
        if self.privileged {
            sys::drop_groups()?;
        }
        let (from_keeper, to_init) = sys::pipe()?;
        let (from_init, to_keeper) = sys::pipe()?;
        // SAFETY: this process is std's fork of one judge thread: it has no other thread.
        let cloned = unsafe {
            match self.cgroup {
                Some(cgroup) => sys::clone_into_cgroup(self.flags, cgroup),
                None => sys::clone_process(self.flags),
            }
        }?;
        match cloned {
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

    /// The init, pid 1 of the new namespaces.
    fn init(&self, from_keeper: RawFd, to_keeper: RawFd) -> io::Result<()> {
        sys::die_with_parent()?;
        // SAFETY: the range is this process's copy of the judge's command line, which nothing
        // in this process reads again.
        unsafe { sys::blank_arguments(self.arguments, b"sandbox-init") };
        sys::set_name(c"sandbox-init")?;
        let mut word = [0; 4];
        if sys::read(from_keeper, &mut word)? != 4 {
            return Err(io::Error::from_raw_os_error(sys::ESRCH));
        }
        match i32::from_ne_bytes(word) {
            0 => {}
            errno => return Err(io::Error::from_raw_os_error(errno)),
        }
        // Still root of the new namespaces: the IPC namespace's limits can be set.
        for (file, value) in IPC_LIMITS {
            sys::write_file(file, value)?;
        }
        sys::make_mounts_private()?;
        // Opened with the judge's ids: a root judge may bind what only root can reach. A
        // copy's source is read, a bind's only named.
        let mut sources = [-1; MOST_BINDS];
        for step in &self.steps {
            match *step {
                Step::Bind { source, .. } => sources[source] = sys::open_path(&self.sources[source])?,
                Step::Copy { source, .. } => sources[source] = sys::open_read(&self.sources[source])?,
                _ => {}
            }
        }
        sys::set_ids(INSIDE_ID, INSIDE_ID)?;
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
        self.build(&sources)?;
        sys::no_new_privs()?;
        // The init is one of the processes of this user in this namespace.
        sys::limit(Resource::Processes, self.bounds.processes + 1)?;
        // The program needs the program's own descriptors only (its pipes, placed already).
        sys::limit(Resource::Files, self.bounds.files)?;
        // The program runs as the same user: it must not open the init's descriptors
        // through /proc/1/fd, nor ptrace it.
        sys::set_dumpable(false)?;
        // SAFETY: this process has one thread.
        if let Some(program) = unsafe { sys::clone_process(0) }? {
            reap(program, to_keeper);
        }
        if self.bounds.one_process {
            sys::refuse_new_processes()?;
        }
        sys::unblock_signals()
    }

    /// Mounts the new root on `STAGE`, fills it step by step, makes it the root and drops the
    /// old one.
    fn build(&self, sources: &[RawFd]) -> io::Result<()> {
        let tmpfs = Some(c"tmpfs");
        let hidden = sys::MS_NOSUID | sys::MS_NODEV;
        sys::mount(tmpfs, &self.stage, tmpfs, hidden, Some(&self.root_options))?;
        for step in &self.steps {
            match step {
                Step::Dir(at) => match sys::make_dir(at, 0o755) {
                    Err(e) if e.kind() != io::ErrorKind::AlreadyExists => return Err(e),
                    _ => {}
                },
                Step::File(at) => sys::make_file(at)?,
                Step::Link { to, at } => sys::symlink(to, at)?,
                Step::Bind { source, at, writable } => {
                    let fd = sources[*source];
                    sys::bind(StackPath::fd(fd).as_c_str(), at)?;
                    sys::close(fd);
                    sys::restrict_mount(at, !writable, true)?;
                }
                Step::Copy { source, at } => {
                    let fd = sources[*source];
                    sys::copy_file(fd, at, 0o555)?;
                    sys::close(fd);
                }
                Step::Tmpfs { at, options } => sys::mount(tmpfs, at, tmpfs, hidden, Some(options))?,
                // Before the old root goes: the kernel mounts a proc in a user namespace only
                // where a fully visible one is already mounted.
                Step::Proc { at } => {
                    let proc = Some(c"proc");
                    sys::mount(proc, at, proc, hidden | sys::MS_NOEXEC, None)?;
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

/// The init's life once the program is forked: reap every orphan until the program ends,
/// hand its status to the keeper, and end, which kills whatever is left in the namespace.
fn reap(program: u32, to_keeper: RawFd) -> ! {
    let _ = sys::close_all_except(&[to_keeper]);
    let status = reap_until(program);
    let _ = sys::write_all(to_keeper, &status.into_raw().to_ne_bytes());
    sys::exit_now(0)
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

    fn jail() -> Jail {
        Jail::system("/usr/bin/true", 1 << 20, super::super::PROBE_BOUNDS)
    }

    #[test]
    fn rejects_bad_jails() {
        let refused = |jail: &Jail| Confinement::new(jail, None).is_err();
        for (host, inside, why) in [
            ("/usr/lib", "/usr/lib", "a bind inside a bind"),
            ("/usr", "relative", "a relative inside path"),
            ("/usr", "/a/../b", "a path with .."),
            ("/nonexistent-host-path", "/x", "a missing host path"),
        ] {
            assert!(refused(jail().bind(host, inside, false)), "{why}");
        }
        let mut over = jail();
        over.bind("/etc", "/deep", false).bind("/usr", "/deep/er", false);
        assert!(refused(&over), "a bind inside an earlier bind");
    }

    #[test]
    fn steps_come_in_the_order_given_each_folder_before_what_it_holds() {
        let mut jail = jail();
        jail.bind("/etc/hostname", "/deep/er/file", false);
        let confinement = Confinement::new(&jail, None).unwrap();
        let names: Vec<String> = confinement
            .steps
            .iter()
            .map(|step| match step {
                Step::Dir(at) => format!("dir {}", at.to_str().unwrap()),
                Step::File(at) => format!("file {}", at.to_str().unwrap()),
                Step::Link { at, .. } => format!("link {}", at.to_str().unwrap()),
                Step::Bind { at, .. } => format!("bind {}", at.to_str().unwrap()),
                Step::Copy { at, .. } => format!("copy {}", at.to_str().unwrap()),
                Step::Tmpfs { at, .. } => format!("tmpfs {}", at.to_str().unwrap()),
                Step::Proc { at } => format!("proc {}", at.to_str().unwrap()),
            })
            .collect();
        let at = |s: &str| names.iter().position(|n| n == s).unwrap_or_else(|| panic!("no {s} in {names:?}"));
        assert!(at("dir /tmp/usr") < at("bind /tmp/usr"));
        assert!(at("bind /tmp/usr") < at("tmpfs /tmp/tmp"), "the order given");
        assert!(at("dir /tmp/deep") < at("dir /tmp/deep/er"));
        assert!(at("dir /tmp/deep/er") < at("file /tmp/deep/er/file"));
        assert!(at("file /tmp/deep/er/file") < at("bind /tmp/deep/er/file"));
        assert_eq!(jail.inside(Path::new("/usr/bin/true")), Some(PathBuf::from("/usr/bin/true")));
        assert_eq!(jail.inside(Path::new("/etc/hostname")), Some(PathBuf::from("/deep/er/file")));
        assert_eq!(jail.inside(Path::new("/home")), None);
    }
}
