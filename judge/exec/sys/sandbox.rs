//! The sandbox's Linux calls: mounts and the new root, files made inside it, the ids its
//! init takes, and the seccomp filter that refuses processes where no cell counts them. Each
//! is for a child between fork and exec: one or two system calls on borrowed C strings and
//! buffers, no allocation.

use std::ffi::CStr;
use std::io;
use std::os::fd::RawFd;
use std::os::raw::{c_long, c_ulong};

use super::{check, check_int, close, ffi, open, or_null, read, write_all, ENOSYS, EPERM};

/// mount(2): a new filesystem (`fstype` given) or a change of propagation (`source` None).
pub fn mount(
    source: Option<&CStr>,
    target: &CStr,
    fstype: Option<&CStr>,
    flags: u64,
    data: Option<&CStr>,
) -> io::Result<()> {
    // SAFETY: every pointer is null or a valid NUL-terminated string for the whole call.
    check_int(unsafe {
        ffi::mount(or_null(source), target.as_ptr(), or_null(fstype), flags as c_ulong, or_null(data).cast())
    })
}

/// Makes every mount of this mount namespace private, so nothing mounted here shows elsewhere.
pub fn make_mounts_private() -> io::Result<()> {
    mount(None, c"/", None, ffi::MS_REC | ffi::MS_PRIVATE, None)
}

/// Binds `source` and everything mounted under it at `target`.
pub fn bind(source: &CStr, target: &CStr) -> io::Result<()> {
    mount(Some(source), target, None, ffi::MS_BIND | ffi::MS_REC, None)
}

/// Marks the mount at `target` (and, if `recursive`, every mount under it) nosuid, and
/// read-only if asked. Adding restrictions is allowed even on mounts locked by a less
/// privileged user namespace.
pub fn restrict_mount(target: &CStr, read_only: bool, recursive: bool) -> io::Result<()> {
    let set = ffi::MOUNT_ATTR_NOSUID | if read_only { ffi::MOUNT_ATTR_RDONLY } else { 0 };
    let attr = ffi::MountAttr { set, clear: 0, propagation: 0, userns_fd: 0 };
    let flags = if recursive { ffi::AT_RECURSIVE } else { 0 };
    // SAFETY: `target` is a valid string and `attr` a valid mount_attr of the size passed.
    check(unsafe {
        ffi::syscall(
            ffi::MOUNT_SETATTR,
            c_long::from(ffi::AT_FDCWD),
            target.as_ptr(),
            c_long::from(flags),
            &attr as *const ffi::MountAttr,
            std::mem::size_of::<ffi::MountAttr>(),
        )
    })
    .map(drop)
}

/// Lazily unmounts `target`: it goes from the tree now, and from the kernel when unused.
pub fn detach(target: &CStr) -> io::Result<()> {
    // SAFETY: `target` is a valid string.
    check_int(unsafe { ffi::umount2(target.as_ptr(), ffi::MNT_DETACH) })
}

/// pivot_root(2): `new_root` becomes this mount namespace's root, the old one goes to `put_old`.
pub fn pivot_root(new_root: &CStr, put_old: &CStr) -> io::Result<()> {
    // SAFETY: both are valid strings.
    check(unsafe { ffi::syscall(ffi::nr::PIVOT_ROOT, new_root.as_ptr(), put_old.as_ptr()) }).map(drop)
}

pub fn chdir(path: &CStr) -> io::Result<()> {
    // SAFETY: `path` is a valid string.
    check_int(unsafe { ffi::chdir(path.as_ptr()) })
}

pub fn make_dir(path: &CStr, mode: u32) -> io::Result<()> {
    // SAFETY: `path` is a valid string.
    check_int(unsafe { ffi::mkdir(path.as_ptr(), mode) })
}

/// Creates an empty file (or finds one already there), to mount a file on.
pub fn make_file(path: &CStr) -> io::Result<()> {
    close(open(path, ffi::O_WRONLY | ffi::O_CREAT | ffi::O_CLOEXEC, 0o644)?);
    Ok(())
}

pub fn symlink(target: &CStr, link: &CStr) -> io::Result<()> {
    // SAFETY: both are valid strings.
    check_int(unsafe { ffi::symlink(target.as_ptr(), link.as_ptr()) })
}

/// A close-on-exec descriptor naming `path` (O_PATH: it grants no read or write).
pub fn open_path(path: &CStr) -> io::Result<RawFd> {
    open(path, ffi::O_PATH | ffi::O_CLOEXEC, 0)
}

/// A close-on-exec descriptor reading `path`.
pub fn open_read(path: &CStr) -> io::Result<RawFd> {
    open(path, ffi::O_RDONLY | ffi::O_CLOEXEC, 0)
}

/// Copies what `from` reads to a new file `to` with permissions `mode`, through a buffer on
/// the stack (safe between fork and exec).
pub fn copy_file(from: RawFd, to: &CStr, mode: u32) -> io::Result<()> {
    let fd = open(to, ffi::O_WRONLY | ffi::O_CREAT | ffi::O_EXCL | ffi::O_CLOEXEC, mode)?;
    let mut buffer = [0u8; 16 << 10];
    let copied = (|| loop {
        match read(from, &mut buffer)? {
            0 => return Ok(()),
            n => write_all(fd, &buffer[..n])?,
        }
    })();
    close(fd);
    copied
}

/// Names the calling thread (what /proc shows as its `comm`), up to 15 bytes.
pub fn set_name(name: &CStr) -> io::Result<()> {
    // SAFETY: prctl reads a NUL-terminated string of at most 16 bytes; longer ones are cut.
    check_int(unsafe { ffi::prctl(ffi::PR_SET_NAME, name.as_ptr()) })
}

/// Where this process's command line lies in its memory (the kernel's `arg_start` and
/// `arg_end`, fields 48 and 49 of /proc/self/stat).
pub fn own_arguments() -> Option<(usize, usize)> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let (_, rest) = stat.rsplit_once(')')?;
    // Field 3 is the first after the name.
    let mut fields = rest.split_whitespace().skip(48 - 3);
    let start = fields.next()?.parse().ok()?;
    let end = fields.next()?.parse().ok()?;
    (start < end).then_some((start, end))
}

/// Overwrites this process's command line, as the kernel shows it in /proc/PID/cmdline, with
/// `name` and zeros.
///
/// # Safety
///
/// `range` must be this process's own `own_arguments()`, and nothing may read the command
/// line's strings afterwards.
pub unsafe fn blank_arguments(range: Option<(usize, usize)>, name: &[u8]) {
    let Some((start, end)) = range else { return };
    let length = end - start;
    // SAFETY: the caller guarantees the range is this process's own argument strings, which
    // are writable memory of that length.
    unsafe {
        std::ptr::write_bytes(start as *mut u8, 0, length);
        std::ptr::copy_nonoverlapping(name.as_ptr(), start as *mut u8, name.len().min(length.saturating_sub(1)));
    }
}

/// Writes `bytes` to the existing file `path` in one write, as /proc files want.
pub fn write_file(path: &CStr, bytes: &[u8]) -> io::Result<()> {
    let fd = open(path, ffi::O_WRONLY | ffi::O_CLOEXEC, 0)?;
    let written = write_all(fd, bytes);
    close(fd);
    written
}

/// Refuses this process, for good, any new process: fork, vfork and a clone that is not a new
/// thread fail with EPERM (threads are still allowed), by a seccomp filter that survives exec.
/// clone3, whose flags a filter cannot read, fails with ENOSYS, which makes the C library
/// start threads with clone instead. A system call of another architecture's ABI kills the
/// process. Needs `no_new_privs` first.
pub fn refuse_new_processes() -> io::Result<()> {
    const LOAD: u16 = 0x20; // BPF_LD | BPF_W | BPF_ABS
    const EQUAL: u16 = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
    const AT_LEAST: u16 = 0x35; // BPF_JMP | BPF_JGE | BPF_K
    const ANY_BIT: u16 = 0x45; // BPF_JMP | BPF_JSET | BPF_K
    const RETURN: u16 = 0x06; // BPF_RET | BPF_K
    const ALLOW: u32 = 0x7fff_0000;
    const KILL: u32 = 0x8000_0000;
    const fn errno(e: i32) -> u32 {
        0x0005_0000 | e as u32
    }
    const CLONE_THREAD: u32 = 0x0001_0000;
    // Offsets in `struct seccomp_data`: the number, the architecture, the first argument's
    // low half (little-endian on both architectures).
    let (nr, arch, arg0): (u32, u32, u32) = (0, 4, 16);
    // A number no call has: reached only past the filter's ABI check.
    let never = u32::MAX;
    let op = |code, jt, jf, k| ffi::SockFilter { code, jt, jf, k };
    let program = [
        op(LOAD, 0, 0, arch),
        op(EQUAL, 0, 12, ffi::nr::AUDIT_ARCH),
        op(LOAD, 0, 0, nr),
        op(AT_LEAST, 10, 0, 0x4000_0000),
        op(EQUAL, 8, 0, ffi::CLONE3 as u32),
        op(EQUAL, 3, 0, ffi::nr::CLONE as u32),
        op(EQUAL, 5, 0, ffi::nr::FORK.unwrap_or(never)),
        op(EQUAL, 4, 0, ffi::nr::VFORK.unwrap_or(never)),
        op(RETURN, 0, 0, ALLOW),
        op(LOAD, 0, 0, arg0),
        op(ANY_BIT, 0, 1, CLONE_THREAD),
        op(RETURN, 0, 0, ALLOW),
        op(RETURN, 0, 0, errno(EPERM)),
        op(RETURN, 0, 0, errno(ENOSYS)),
        op(RETURN, 0, 0, KILL),
    ];
    let fprog = ffi::SockFprog { len: program.len() as u16, filter: program.as_ptr() };
    // SAFETY: `fprog` points at `program`, both alive for the call; the kernel copies them.
    check_int(unsafe { ffi::prctl(ffi::PR_SET_SECCOMP, ffi::SECCOMP_MODE_FILTER, &fprog as *const ffi::SockFprog) })
}

/// Sets the real, effective and saved user and group ids (in this user namespace).
pub fn set_ids(uid: u32, gid: u32) -> io::Result<()> {
    // SAFETY: setresgid takes integers; the raw call changes this thread only, which is the
    // whole process in a child that has one.
    check(unsafe { ffi::syscall(ffi::nr::SETRESGID, gid, gid, gid) })?;
    // SAFETY: as above.
    check(unsafe { ffi::syscall(ffi::nr::SETRESUID, uid, uid, uid) }).map(drop)
}

/// Leaves every supplementary group (needs CAP_SETGID).
pub fn drop_groups() -> io::Result<()> {
    // SAFETY: a count of 0 means the list pointer is not read.
    check(unsafe { ffi::syscall(ffi::nr::SETGROUPS, 0usize, 0usize) }).map(drop)
}

/// Forbids gaining privileges by exec (set-user-id files, file capabilities), for good.
pub fn no_new_privs() -> io::Result<()> {
    // SAFETY: prctl reads integer arguments.
    check_int(unsafe { ffi::prctl(ffi::PR_SET_NO_NEW_PRIVS, 1 as c_ulong, 0 as c_ulong, 0 as c_ulong, 0 as c_ulong) })
}
