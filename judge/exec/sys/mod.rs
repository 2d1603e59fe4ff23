//! The few C functions std links but does not wrap, each behind a safe wrapper with a test.
//! Linux and macOS, each function behind the `cfg` of the systems it exists on; constants
//! and structure layouts per system, from its headers (as the `libc` crate transcribes them),
//! with a size assertion where the two differ. System call numbers are x86_64's and
//! aarch64's.
//!
//! By purpose: `driver_io`, the driver's I/O, the one part a submission's build includes;
//! `ffi`, the judge's other foreign declarations per system; then here the processes (limits,
//! sessions, signals, waits, clones, accounts), the descriptors, and the sandbox's Linux calls
//! (mounts, ids, seccomp).
//!
//! Most of the Linux ones are for a child between fork and exec (the sandbox's keeper and
//! init, the judge's own hook): each makes one or two system calls on borrowed C strings and
//! buffers and allocates nothing, not even for an error. Raw system calls stand where glibc's
//! wrapper would be unsafe in such a child (setresuid and setgroups signal every thread glibc
//! knows of) or does not exist.

mod driver_io;
pub use driver_io::*;

/// What only a submission's driver calls of `driver_io`, named so the judge's build sees it
/// used.
const _: fn(fn(usize)) -> std::io::Result<()> = fault::on_memory_fault;
const _: fn(Mapping) -> *mut u8 = Mapping::keep;
const _: fn(RawFd, &mut [u8]) -> io::Result<usize> = read;

#[cfg(target_os = "linux")]
use std::ffi::CStr;
use std::io;
use std::os::fd::RawFd;
use std::os::raw::c_int;
#[cfg(target_os = "linux")]
use std::os::raw::{c_char, c_long, c_ulong};
#[cfg(target_os = "linux")]
use std::os::unix::process::ExitStatusExt;
#[cfg(target_os = "linux")]
use std::process::ExitStatus;

/// A limit the kernel enforces on a process and everything it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resource {
    /// Processes of the real user id in its user namespace, this one included.
    #[cfg(target_os = "linux")]
    Processes,
    /// Address space, in bytes: an allocation past it fails (macOS does not enforce one).
    #[cfg(target_os = "linux")]
    AddressSpace,
    /// The largest file it may write, in bytes: a write past it gets SIGXFSZ.
    FileSize,
    /// Core dump size: 0 keeps a crash from writing one.
    CoreDump,
    /// One more than the highest descriptor number it may open (those it has stay open).
    Files,
    /// The main thread's stack, in bytes: it grows on demand up to this, and a fault past it
    /// is a stack overflow. Read at exec.
    Stack,
}

/// The signal numbers the judge names: the same on Linux and macOS, but for SIGBUS.
pub const SIGINT: i32 = 2;
pub const SIGABRT: i32 = 6;
pub const SIGKILL: i32 = 9;
pub const SIGTERM: i32 = 15;
pub const SIGXFSZ: i32 = 25;
/// No such process: what a child reports when the judge ended before it started.
#[cfg(target_os = "linux")]
pub const ESRCH: i32 = 3;
const EPERM: i32 = 1;
#[cfg(target_os = "linux")]
const EINVAL: i32 = 22;
#[cfg(target_os = "linux")]
const ENOSYS: i32 = 38;

/// New namespaces, as clone(2) flags.
#[cfg(target_os = "linux")]
pub mod namespaces {
    pub const NEW_USER: u64 = 0x1000_0000;
    pub const NEW_MOUNT: u64 = 0x0002_0000;
    pub const NEW_PID: u64 = 0x2000_0000;
    pub const NEW_NET: u64 = 0x4000_0000;
    pub const NEW_IPC: u64 = 0x0800_0000;
    pub const NEW_UTS: u64 = 0x0400_0000;
    pub const NEW_CGROUP: u64 = 0x0200_0000;

    /// mount(2) flags the sandbox uses.
    pub const MS_NOSUID: u64 = 2;
    pub const MS_NODEV: u64 = 4;
    pub const MS_NOEXEC: u64 = 8;
}
#[cfg(target_os = "linux")]
pub use namespaces::*;

/// What `wait_for_fds` asks of a descriptor, and what it found.
pub const READABLE: i16 = 0x1;
pub const WRITABLE: i16 = 0x4;

mod ffi;
#[cfg(target_os = "linux")]
mod sandbox;
#[cfg(target_os = "linux")]
pub use sandbox::*;

/// -1 is an error, in errno.
#[cfg(target_os = "linux")]
fn check(result: c_long) -> io::Result<c_long> {
    if result == -1 {
        Err(io::Error::last_os_error())
    } else {
        Ok(result)
    }
}

/// open(2): a new descriptor of `path`; `mode` is read only where `flags` create a file.
#[cfg(target_os = "linux")]
fn open(path: &CStr, flags: c_int, mode: u32) -> io::Result<RawFd> {
    // SAFETY: `path` is a valid string; the mode argument is an integer.
    let fd = unsafe { ffi::open(path.as_ptr(), flags, mode) };
    check_int(fd).map(|()| fd)
}

#[cfg(target_os = "linux")]
fn or_null(value: Option<&CStr>) -> *const c_char {
    value.map_or(std::ptr::null(), CStr::as_ptr)
}

/// Sends `signal` to process `pid`.
pub fn kill(pid: u32, signal: i32) -> io::Result<()> {
    let pid = c_int::try_from(pid).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
    // SAFETY: kill takes integers and touches no memory of ours.
    check_int(unsafe { ffi::kill(pid, signal) })
}

/// Whether a process `pid` exists (alive, or ended and not yet reaped): a signal 0 may be
/// sent to it, or it exists and is another user's.
pub fn exists(pid: u32) -> bool {
    let Ok(pid) = c_int::try_from(pid) else { return false };
    // SAFETY: kill takes integers; signal 0 is only a check.
    unsafe { ffi::kill(pid, 0) == 0 || io::Error::last_os_error().raw_os_error() == Some(EPERM) }
}

/// Sends SIGKILL to every process in the group `pgid`.
pub fn kill_group(pgid: u32) -> io::Result<()> {
    let pgid = c_int::try_from(pgid).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
    // SAFETY: kill takes integers and touches no memory of ours.
    check_int(unsafe { ffi::kill(-pgid, SIGKILL) })
}

/// Sets both the soft and the hard limit, so the process cannot raise it again (unless
/// privileged).
pub fn limit(resource: Resource, value: u64) -> io::Result<()> {
    let which = match resource {
        #[cfg(target_os = "linux")]
        Resource::Processes => ffi::RLIMIT_NPROC,
        #[cfg(target_os = "linux")]
        Resource::AddressSpace => ffi::RLIMIT_AS,
        Resource::FileSize => ffi::RLIMIT_FSIZE,
        Resource::CoreDump => ffi::RLIMIT_CORE,
        Resource::Files => ffi::RLIMIT_NOFILE,
        Resource::Stack => ffi::RLIMIT_STACK,
    };
    let limit = ffi::Rlimit { current: value, maximum: value };
    // SAFETY: `limit` is a valid rlimit that outlives the call.
    check_int(unsafe { ffi::setrlimit(which, &limit) })
}

/// Asks for a pipe buffer of `bytes` (rounded up to pages by the kernel), so a whole request
/// goes in one write instead of a handful of wake-ups; returns the size granted.
#[cfg(target_os = "linux")]
pub fn widen_pipe(pipe: &impl std::os::fd::AsRawFd, bytes: usize) -> io::Result<usize> {
    let bytes = ffi::c_int_from(bytes);
    // SAFETY: F_SETPIPE_SZ reads one integer argument; a descriptor that is not a pipe is
    // an error, not undefined behaviour.
    let granted = unsafe { ffi::fcntl(pipe.as_raw_fd(), ffi::F_SETPIPE_SZ, bytes) };
    check_int(granted)?;
    Ok(granted as usize)
}

/// macOS's pipes cannot be widened: a request then takes a few round trips.
#[cfg(target_os = "macos")]
pub fn widen_pipe(_pipe: &impl std::os::fd::AsRawFd, _bytes: usize) -> io::Result<usize> {
    Err(io::ErrorKind::Unsupported.into())
}

/// Makes reads and writes on `fd` return `WouldBlock` instead of waiting.
pub fn set_nonblocking(fd: &impl std::os::fd::AsRawFd) -> io::Result<()> {
    // SAFETY: F_GETFL takes no argument and F_SETFL one integer; a bad descriptor is an
    // error, not undefined behaviour.
    let flags = unsafe { ffi::fcntl(fd.as_raw_fd(), ffi::F_GETFL) };
    check_int(flags)?;
    // SAFETY: as above.
    check_int(unsafe { ffi::fcntl(fd.as_raw_fd(), ffi::F_SETFL, flags | ffi::O_NONBLOCK) })
}

/// Waits up to `timeout` until one of `fds` (descriptor, `READABLE` and/or `WRITABLE`) is
/// ready, a reader's writer is gone, or a writer's reader is; fills each one's readiness in
/// the same order (0 for none). An interrupted wait reports none ready. A negative
/// descriptor is skipped. At most eight descriptors.
pub fn wait_for_fds(fds: &[(RawFd, i16)], ready: &mut [i16], timeout: std::time::Duration) -> io::Result<()> {
    let mut polled = [const { ffi::PollFd { fd: -1, events: 0, revents: 0 } }; 8];
    let count = fds.len().min(polled.len());
    for (slot, &(fd, events)) in polled.iter_mut().zip(fds) {
        *slot = ffi::PollFd { fd, events, revents: 0 };
    }
    // Rounded up, so a short wait is not a busy loop.
    let millis = ffi::c_int_from(timeout.as_micros().div_ceil(1000) as usize);
    // SAFETY: `polled` holds `count` valid pollfd structs for the whole call.
    let result = unsafe { ffi::poll(polled.as_mut_ptr(), count as ffi::PollCount, millis) };
    for (slot, polled) in ready.iter_mut().zip(&polled[..count]) {
        *slot = if result > 0 { polled.revents } else { 0 };
    }
    match result {
        -1 if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted => Ok(()),
        -1 => Err(io::Error::last_os_error()),
        _ => Ok(()),
    }
}

/// A close-on-exec pipe: (read end, write end).
#[cfg(target_os = "linux")]
pub fn pipe() -> io::Result<(RawFd, RawFd)> {
    let mut fds = [-1; 2];
    // SAFETY: `fds` has room for the two descriptors pipe2 writes.
    check_int(unsafe { ffi::pipe2(fds.as_mut_ptr(), ffi::O_CLOEXEC) })?;
    Ok((fds[0], fds[1]))
}

/// Puts a copy of each `from` at its `to`, open across exec, whatever numbers the sources
/// have: a source may already sit at its own target (dup2 would then do nothing and leave
/// close-on-exec set) or at another pair's target (moving one would overwrite the other). So
/// every source is first copied above every target (close-on-exec, gone at exec), and only
/// then copied down. At most eight pairs.
pub fn place_fds(pairs: &[(RawFd, RawFd)]) -> io::Result<()> {
    let above = pairs.iter().map(|&(_, to)| to).max().unwrap_or(0).saturating_add(1);
    let mut staged = [-1; 8];
    for (slot, &(from, _)) in staged.iter_mut().zip(pairs) {
        // SAFETY: F_DUPFD_CLOEXEC reads one integer argument; a bad descriptor is an error.
        let copy = unsafe { ffi::fcntl(from, ffi::F_DUPFD_CLOEXEC, above) };
        check_int(copy)?;
        *slot = copy;
    }
    for (&copy, &(_, to)) in staged.iter().zip(pairs) {
        // SAFETY: dup2 takes two integers; `copy` is above every target, so never equal to
        // `to`, and the copy dup2 makes at `to` is open across exec.
        check_int(unsafe { ffi::dup2(copy, to) })?;
    }
    Ok(())
}

/// Closes `fd`; an error (it was not open) changes nothing worth reporting.
#[cfg(target_os = "linux")]
pub fn close(fd: RawFd) {
    // SAFETY: close takes an integer; closing a descriptor no one else owns is sound.
    unsafe { ffi::close(fd) };
}

/// What `sweep` does to each descriptor it does not keep.
#[cfg(target_os = "linux")]
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sweep {
    Close,
    OnExec,
}

/// Closes every descriptor but `keep` (ascending). For a child that holds what its parent
/// held and must not keep it open.
#[cfg(target_os = "linux")]
pub fn close_all_except(keep: &[RawFd]) -> io::Result<()> {
    sweep(keep, Sweep::Close)
}

/// Marks every descriptor but `keep` (ascending) close-on-exec, so that a program execed next
/// holds only those, whatever this process inherited (a shell's redirection, an editor's
/// pipe). std's own error pipe is close-on-exec already and still reports a failed exec.
#[cfg(target_os = "linux")]
pub fn close_on_exec_all_except(keep: &[RawFd]) -> io::Result<()> {
    sweep(keep, Sweep::OnExec)
}

/// As on Linux; macOS has no close_range nor /proc: every descriptor number up to the limit
/// on open files is marked.
#[cfg(target_os = "macos")]
pub fn close_on_exec_all_except(keep: &[RawFd]) -> io::Result<()> {
    let mut limit = ffi::Rlimit { current: 0, maximum: 0 };
    // SAFETY: `limit` is a valid rlimit for getrlimit to fill.
    check_int(unsafe { ffi::getrlimit(ffi::RLIMIT_NOFILE, &mut limit) })?;
    let highest = RawFd::try_from(limit.current.min(1 << 16)).unwrap_or(1 << 16);
    for fd in 0..highest {
        if !keep.contains(&fd) {
            // SAFETY: F_SETFD takes one integer argument; a closed descriptor is an error.
            unsafe { ffi::fcntl(fd, ffi::F_SETFD, ffi::FD_CLOEXEC) };
        }
    }
    Ok(())
}

/// close_range(2) between the kept descriptors; where the kernel has no close_range (before
/// 5.9) or no close-on-exec flag for it (before 5.11), each descriptor listed in
/// /proc/self/fd.
#[cfg(target_os = "linux")]
fn sweep(keep: &[RawFd], how: Sweep) -> io::Result<()> {
    let flags = match how {
        Sweep::Close => 0,
        Sweep::OnExec => ffi::CLOSE_RANGE_CLOEXEC,
    };
    let mut first: u32 = 0;
    for &fd in keep.iter().chain(&[RawFd::MAX]) {
        let fd = fd as u32;
        if fd > first {
            // SAFETY: close_range takes integers; the descriptors it closes are not used again.
            let ranged = check(unsafe { ffi::syscall(ffi::CLOSE_RANGE, first, fd - 1, flags) });
            match ranged {
                Ok(_) => {}
                Err(e) if matches!(e.raw_os_error(), Some(ENOSYS | EINVAL)) => return sweep_listed(keep, how),
                Err(e) => return Err(e),
            }
        }
        first = fd.saturating_add(1);
    }
    Ok(())
}

/// `sweep` by a walk of /proc/self/fd, read with getdents64 into a buffer on the stack: safe
/// between fork and exec.
#[cfg(target_os = "linux")]
fn sweep_listed(keep: &[RawFd], how: Sweep) -> io::Result<()> {
    let dir = open(c"/proc/self/fd", ffi::O_RDONLY | ffi::O_DIRECTORY | ffi::O_CLOEXEC, 0)?;
    let mut buffer = [0u8; 2048];
    let result = loop {
        // SAFETY: `buffer` is valid for writes of its length.
        let n = unsafe { ffi::syscall(ffi::nr::GETDENTS64, dir, buffer.as_mut_ptr(), buffer.len()) };
        let n = match check(n) {
            Ok(0) => break Ok(()),
            Ok(n) => n as usize,
            Err(e) => break Err(e),
        };
        // Each record: inode (8), offset (8), record length (2), type (1), then the name.
        let mut at = 0;
        while at + 19 <= n {
            let length = usize::from(u16::from_ne_bytes([buffer[at + 16], buffer[at + 17]]));
            let name = &buffer[at + 19..(at + length).min(n)];
            let digits = name.iter().take_while(|b| b.is_ascii_digit());
            let fd = digits.fold(0i64, |fd, b| fd.saturating_mul(10).saturating_add(i64::from(b - b'0')));
            let named = name.first().is_some_and(u8::is_ascii_digit);
            if let Ok(fd) = RawFd::try_from(fd) {
                if named && fd != dir && !keep.contains(&fd) {
                    match how {
                        Sweep::Close => close(fd),
                        // SAFETY: F_SETFD takes one integer argument.
                        Sweep::OnExec => drop(unsafe { ffi::fcntl(fd, ffi::F_SETFD, ffi::FD_CLOEXEC) }),
                    }
                }
            }
            at += length.max(1);
        }
    };
    close(dir);
    result
}

/// Whether `fd` is open and stays open across exec.
#[cfg(all(test, target_os = "linux"))]
fn open_across_exec(fd: RawFd) -> bool {
    // SAFETY: F_GETFD takes no argument; a closed descriptor is an error.
    let flags = unsafe { ffi::fcntl(fd, ffi::F_GETFD) };
    flags >= 0 && flags & ffi::FD_CLOEXEC == 0
}

/// Makes this process the leader of a new session and process group: a signal to its group
/// reaches nothing of its parent's, and it has no controlling terminal to read or stop on.
pub fn new_session() -> io::Result<()> {
    // SAFETY: setsid takes nothing.
    check_int(unsafe { ffi::setsid() })
}

/// The CPU time of process `pid` (every thread, live or ended), in nanoseconds, by the kernel's
/// count of its runtime (its process CPU clock, which any process may read); None once it is
/// gone.
#[cfg(target_os = "linux")]
pub fn process_cpu_ns(pid: u32) -> Option<u64> {
    // `CPUCLOCK_SCHED` of a process, as glibc's clock_getcpuclockid makes it.
    let clock = (!(i32::try_from(pid).ok()?) << 3) | 2;
    let mut time = [0i64; 2];
    // SAFETY: clock_gettime writes one `struct timespec` (two 64-bit words) into `time`.
    let result = unsafe { ffi::clock_gettime(clock, &mut time) };
    (result == 0).then(|| (time[0] as u64).saturating_mul(1_000_000_000).saturating_add(time[1] as u64))
}

/// What the kernel counts for process `pid`, read from outside it: its CPU time, every
/// thread, in nanoseconds, and its memory footprint now and at most, in KiB; None once it is
/// gone or not ours.
#[cfg(target_os = "macos")]
fn rusage(pid: u32) -> Option<ffi::RusageInfoV4> {
    let mut usage = ffi::RusageInfoV4::default();
    // SAFETY: `usage` is a valid rusage_info_v4 for the call to fill.
    let result = unsafe { ffi::proc_pid_rusage(c_int::try_from(pid).ok()?, ffi::RUSAGE_INFO_V4, &mut usage) };
    (result == 0).then_some(usage)
}

/// The CPU time of process `pid` (every thread), in nanoseconds; None once it is gone.
#[cfg(target_os = "macos")]
pub fn process_cpu_ns(pid: u32) -> Option<u64> {
    static TIMEBASE: std::sync::OnceLock<(u64, u64)> = std::sync::OnceLock::new();
    let &(numer, denom) = TIMEBASE.get_or_init(|| {
        let mut base = ffi::Timebase::default();
        // SAFETY: `base` is a valid mach_timebase_info_data_t for the call to fill.
        let ok = unsafe { ffi::mach_timebase_info(&mut base) } == 0 && base.denom != 0;
        if ok {
            (u64::from(base.numer), u64::from(base.denom))
        } else {
            (1, 1)
        }
    });
    let usage = rusage(pid)?;
    let units = u128::from(usage.user_time.saturating_add(usage.system_time));
    Some(u64::try_from(units * u128::from(numer) / u128::from(denom)).unwrap_or(u64::MAX))
}

/// The memory footprint of process `pid` (everything it maps that is its own, resident or
/// compressed: heap, stacks, `mmap`, statics), now and at most over its life, in KiB.
#[cfg(target_os = "macos")]
pub fn process_memory_kib(pid: u32) -> Option<(u64, u64)> {
    let usage = rusage(pid)?;
    Some((usage.phys_footprint >> 10, usage.lifetime_max_phys_footprint >> 10))
}

/// Whether every writer of the pipe `fd` is gone, without waiting.
#[cfg(target_os = "linux")]
pub fn hung_up(fd: RawFd) -> io::Result<bool> {
    let mut poll = ffi::PollFd { fd, events: 0, revents: 0 };
    // SAFETY: `poll` is one valid pollfd for the call.
    check_int(unsafe { ffi::poll(&mut poll, 1, 0) })?;
    Ok(poll.revents & ffi::POLLHUP != 0)
}

/// A fork that can also start the child in new namespaces (clone(2) without a new stack):
/// `None` in the child, `Some(pid)` in the parent.
///
/// # Safety
///
/// As after fork(2): if the calling process has other threads, the child may only make
/// async-signal-safe calls (no allocation, no locks) until it execs or exits. glibc is not
/// told of the new process, so the child must not rely on its cached thread id (no raise,
/// abort or pthread calls).
#[cfg(target_os = "linux")]
pub unsafe fn clone_process(namespaces: u64) -> io::Result<Option<u32>> {
    // SAFETY: no CLONE_VM and no stack: the child gets a copy of this address space and
    // returns here on its copy of this stack, as after fork; the caller upholds the rest.
    let pid =
        check(unsafe { ffi::syscall(ffi::nr::CLONE, namespaces | ffi::SIGCHLD, 0usize, 0usize, 0usize, 0usize) })?;
    Ok(if pid == 0 { None } else { Some(pid as u32) })
}

/// `clone_process`, with the child started in the cgroup whose folder `cgroup` names
/// (clone3(2) with CLONE_INTO_CGROUP, cgroup v2 only): it is born there, so nothing moves it.
///
/// # Safety
///
/// As `clone_process`.
#[cfg(target_os = "linux")]
pub unsafe fn clone_into_cgroup(namespaces: u64, cgroup: RawFd) -> io::Result<Option<u32>> {
    let args = ffi::CloneArgs {
        flags: namespaces | ffi::CLONE_INTO_CGROUP,
        exit_signal: ffi::SIGCHLD,
        cgroup: cgroup as u64,
        ..ffi::CloneArgs::default()
    };
    // SAFETY: `args` is a valid clone_args of the size passed; no stack is given, so the child
    // returns here on its copy of this stack, as after fork; the caller upholds the rest.
    let pid = check(unsafe {
        ffi::syscall(ffi::CLONE3, &args as *const ffi::CloneArgs, std::mem::size_of::<ffi::CloneArgs>())
    })?;
    Ok(if pid == 0 { None } else { Some(pid as u32) })
}

/// A file of `bytes` zero bytes that lives in memory only, to share with a child: a memfd on
/// Linux, a temporary file unlinked at once on macOS. Closed at exec, unless given to a child.
pub fn shared_file(bytes: u64) -> io::Result<std::fs::File> {
    #[cfg(target_os = "linux")]
    let file = {
        use std::os::fd::FromRawFd;
        const MFD_CLOEXEC: std::os::raw::c_uint = 1;
        // SAFETY: the name is a valid C string; memfd_create returns a new descriptor or -1.
        let fd = unsafe { ffi::memfd_create(c"judge-ledger".as_ptr(), MFD_CLOEXEC) };
        check_int(fd)?;
        // SAFETY: `fd` is a new descriptor that nothing else owns.
        unsafe { std::fs::File::from_raw_fd(fd) }
    };
    #[cfg(target_os = "macos")]
    let file = {
        use std::sync::atomic::{AtomicU64, Ordering};
        static MADE: AtomicU64 = AtomicU64::new(0);
        let name = format!("judge-ledger-{}-{}", std::process::id(), MADE.fetch_add(1, Ordering::Relaxed));
        let path = std::env::temp_dir().join(name);
        let file = std::fs::OpenOptions::new().read(true).write(true).create_new(true).open(&path)?;
        std::fs::remove_file(&path)?;
        file
    };
    file.set_len(bytes)?;
    Ok(file)
}

/// The calling thread's id, as the kernel knows it.
#[cfg(target_os = "macos")]
pub fn thread_id() -> u32 {
    let mut id = 0u64;
    // SAFETY: `id` is valid for the call; 0 names the calling thread.
    unsafe { ffi::pthread_threadid_np(0, &mut id) };
    id as u32
}

/// The calling thread's id, as the kernel knows it (`/proc/<pid>/task/<id>`).
#[cfg(target_os = "linux")]
pub fn thread_id() -> u32 {
    // SAFETY: gettid takes nothing and cannot fail.
    unsafe { ffi::syscall(ffi::nr::GETTID) as u32 }
}

#[cfg(target_os = "linux")]
fn wait(pid: c_int) -> io::Result<(u32, ExitStatus)> {
    let mut status = 0;
    loop {
        // SAFETY: `status` is a valid int for waitpid to fill.
        let reaped = unsafe { ffi::waitpid(pid, &mut status, 0) };
        match check(reaped.into()) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            other => return other.map(|pid| (pid as u32, ExitStatus::from_raw(status))),
        }
    }
}

/// Waits for the child `pid` to end.
#[cfg(target_os = "linux")]
pub fn wait_for(pid: u32) -> io::Result<ExitStatus> {
    wait(pid as c_int).map(|(_, status)| status)
}

/// Waits for any child to end: (its pid, its status).
#[cfg(target_os = "linux")]
pub fn wait_any() -> io::Result<(u32, ExitStatus)> {
    wait(-1)
}

/// Ends this process the way `status` says another ended: the same exit code, or death by
/// the same signal (128 + signal as a code if that signal cannot kill it).
#[cfg(target_os = "linux")]
pub fn exit_like(status: ExitStatus) -> ! {
    if let Some(code) = status.code() {
        exit_now(code);
    }
    let signal = status.signal().unwrap_or(SIGKILL);
    let _ = limit(Resource::CoreDump, 0);
    // SAFETY: signal takes integers; SIG_DFL installs no handler.
    unsafe { ffi::signal(signal, ffi::SIG_DFL) };
    let _ = set_signal_mask(ffi::SIG_UNBLOCK, 1 << (signal - 1));
    let _ = kill(std::process::id(), signal);
    exit_now(128 + signal)
}

#[cfg(target_os = "linux")]
fn set_signal_mask(how: c_long, mask: u64) -> io::Result<()> {
    // SAFETY: `mask` is a valid 8-byte kernel sigset; the old mask is not asked for.
    check(unsafe { ffi::syscall(ffi::nr::RT_SIGPROCMASK, how, &mask as *const u64, 0usize, 8usize) }).map(drop)
}

/// Holds every signal but SIGKILL and SIGSTOP, so none runs a handler inherited from the
/// judge. The mask survives exec: unblock before it.
#[cfg(target_os = "linux")]
pub fn block_signals() -> io::Result<()> {
    set_signal_mask(ffi::SIG_BLOCK, !0)
}

#[cfg(target_os = "linux")]
pub fn unblock_signals() -> io::Result<()> {
    set_signal_mask(ffi::SIG_SETMASK, 0)
}

/// Asks for SIGKILL when the thread that started this process ends. Cleared by fork and by
/// any change of user or group id, so set it again after one.
#[cfg(target_os = "linux")]
pub fn die_with_parent() -> io::Result<()> {
    // SAFETY: prctl reads one integer argument.
    check_int(unsafe { ffi::prctl(ffi::PR_SET_PDEATHSIG, SIGKILL as c_ulong) })
}

/// Makes this process the reaper of its orphans: a process below it whose parent ends becomes
/// its child, not init's, whatever sessions it left.
#[cfg(target_os = "linux")]
pub fn become_subreaper() -> io::Result<()> {
    // SAFETY: prctl reads one integer argument.
    check_int(unsafe { ffi::prctl(ffi::PR_SET_CHILD_SUBREAPER, 1 as c_ulong) })
}

/// Kills every child of this process, as the kernel lists them now; false if the list could
/// not be read. Reads into a buffer on the stack (safe between fork and exec); a list longer
/// than it is killed in part, and the rest on the next call.
#[cfg(target_os = "linux")]
pub fn kill_children() -> bool {
    let Ok(fd) = open_read(c"/proc/thread-self/children") else { return false };
    let mut listed = [0u8; 1024];
    let read = read(fd, &mut listed);
    close(fd);
    let Ok(read) = read else { return false };
    let mut pid = 0u32;
    for &byte in &listed[..read] {
        match byte {
            b'0'..=b'9' => pid = pid.saturating_mul(10).saturating_add(u32::from(byte - b'0')),
            _ if pid != 0 => {
                let _ = kill(pid, SIGKILL);
                pid = 0;
            }
            _ => {}
        }
    }
    true
}

/// Asks for SIGKILL when the thread that started this process ends, and fails (ESRCH) if the
/// parent is already not `parent`: a judge that ended before its child armed the signal.
#[cfg(target_os = "linux")]
pub fn die_with(parent: u32) -> io::Result<()> {
    die_with_parent()?;
    match std::os::unix::process::parent_id() == parent {
        true => Ok(()),
        false => Err(io::Error::from_raw_os_error(ESRCH)),
    }
}

/// Whether other processes of the same user may ptrace this one or open its /proc files
/// (fd, environ, maps...). Exec makes a process dumpable again.
#[cfg(target_os = "linux")]
pub fn set_dumpable(dumpable: bool) -> io::Result<()> {
    // SAFETY: prctl reads one integer argument.
    check_int(unsafe { ffi::prctl(ffi::PR_SET_DUMPABLE, c_ulong::from(dumpable)) })
}

/// This process's effective user and group ids.
pub fn effective_ids() -> (u32, u32) {
    // SAFETY: geteuid takes nothing and cannot fail.
    let uid = unsafe { ffi::geteuid() };
    // SAFETY: getegid takes nothing and cannot fail.
    (uid, unsafe { ffi::getegid() })
}

/// Runs `handler(signal)` on each of `signals` (SIGINT, SIGTERM) instead of their default.
/// The handler must only do what is safe in a signal handler.
pub fn on_signals(signals: &[i32], handler: extern "C" fn(c_int)) -> io::Result<()> {
    let action = ffi::SigAction::new(handler as usize, 0);
    for &signal in signals {
        // SAFETY: `action` is valid for the call; the old action is not asked for.
        check_int(unsafe { ffi::sigaction(signal, &action, std::ptr::null_mut()) })?;
    }
    Ok(())
}

/// How many columns wide the terminal on `fd` is; None when `fd` is not a terminal (or says 0).
pub fn terminal_columns(fd: RawFd) -> Option<u16> {
    // `struct winsize`: rows, columns, and two pixel sizes, each an unsigned short.
    let mut size = [0u16; 4];
    // SAFETY: TIOCGWINSZ writes one `struct winsize` into the buffer, which is that size.
    let result = unsafe { ffi::ioctl(fd, ffi::TIOCGWINSZ, size.as_mut_ptr()) };
    (result == 0 && size[1] > 0).then_some(size[1])
}

/// The foreign functions, each through its safe wrapper (on Linux, where they can run here).
#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt;
    use std::path::PathBuf;
    use std::process::{Command, Stdio};

    #[test]
    fn a_pipe_has_no_terminal_width() {
        let (read, write) = pipe().unwrap();
        assert_eq!((terminal_columns(read), terminal_columns(write)), (None, None));
        close(read);
        close(write);
    }

    #[test]
    fn a_group_is_killed_whole() {
        // A shell in its own group that starts a sleep, names it and waits: both die with the group.
        let mut shell = Command::new("sh")
            .args(["-c", "sleep 30 & echo $!; wait"])
            .stdout(Stdio::piped())
            .process_group(0)
            .spawn()
            .unwrap();
        let mut line = String::new();
        std::io::BufRead::read_line(&mut std::io::BufReader::new(shell.stdout.take().unwrap()), &mut line).unwrap();
        let sleep: u32 = line.trim().parse().unwrap();
        kill_group(shell.id()).unwrap();
        assert_eq!(shell.wait().unwrap().signal(), Some(SIGKILL));
        // Gone, or a zombie waiting for whoever adopted it to reap it.
        let dead = || {
            let state = std::fs::read_to_string(format!("/proc/{sleep}/stat")).unwrap_or_default();
            state.is_empty() || state.contains(") Z ")
        };
        let give_up = std::time::Instant::now() + std::time::Duration::from_secs(2);
        while !dead() && std::time::Instant::now() < give_up {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert!(dead(), "the sleep outlived its group");
    }

    #[test]
    fn limits_and_descriptors_reach_the_child() {
        let mut command = Command::new("sh");
        command.args(["-c", "ulimit -f; ulimit -c; echo moved >&7"]).stdout(Stdio::piped());
        let (reader, writer) = std::io::pipe().unwrap();
        let raw = std::os::fd::AsRawFd::as_raw_fd(&writer);
        // SAFETY: the closure only calls async-signal-safe functions.
        unsafe {
            command.pre_exec(move || {
                limit(Resource::FileSize, 4096 * 512)?;
                limit(Resource::CoreDump, 0)?;
                place_fds(&[(raw, 7)])
            });
        }
        let output = command.output().unwrap();
        drop(writer);
        let mut moved = String::new();
        std::io::Read::read_to_string(&mut { reader }, &mut moved).unwrap();
        // `ulimit -f` counts 512-byte blocks.
        assert_eq!(String::from_utf8_lossy(&output.stdout), "4096\n0\n");
        assert_eq!(moved, "moved\n");
    }

    #[test]
    fn a_widened_pipe_takes_a_whole_request_without_a_reader() {
        let (reader, mut writer) = std::io::pipe().unwrap();
        let granted = widen_pipe(&writer, 1 << 20).unwrap();
        assert!(granted >= 1 << 20, "{granted}");
        // Blocks forever on a 64 KiB pipe, as nothing reads yet.
        std::io::Write::write_all(&mut writer, &vec![7u8; 300_000]).unwrap();
        drop(writer);
        let mut read = Vec::new();
        std::io::Read::read_to_end(&mut { reader }, &mut read).unwrap();
        assert_eq!(read.len(), 300_000);
        let file = std::fs::File::open("/proc/self/status").unwrap();
        assert!(widen_pipe(&file, 1 << 20).is_err(), "only a pipe can be widened");
    }

    #[test]
    fn a_nonblocking_pipe_says_would_block_and_poll_says_when_it_may_go_on() {
        use std::io::{Read, Write};
        use std::os::fd::AsRawFd;
        use std::time::{Duration, Instant};
        let (mut reader, mut writer) = std::io::pipe().unwrap();
        set_nonblocking(&reader).unwrap();
        set_nonblocking(&writer).unwrap();
        let mut buffer = [0u8; 16];
        assert_eq!(reader.read(&mut buffer).unwrap_err().kind(), std::io::ErrorKind::WouldBlock);
        let both = [(reader.as_raw_fd(), READABLE), (writer.as_raw_fd(), WRITABLE)];
        let mut ready = [0; 2];
        // Nothing to read: the wait lasts its timeout, and the empty pipe can take more.
        let start = Instant::now();
        wait_for_fds(&both, &mut ready, Duration::from_millis(30)).unwrap();
        assert_eq!(ready, [0, WRITABLE]);
        wait_for_fds(&both[..1], &mut ready, Duration::from_millis(30)).unwrap();
        assert_eq!(ready[0], 0);
        assert!(start.elapsed() >= Duration::from_millis(30));
        // Fill the pipe until it refuses: then it is not writable, and it is readable.
        let chunk = vec![1u8; 1 << 16];
        while writer.write(&chunk).is_ok() {}
        wait_for_fds(&both, &mut ready, Duration::ZERO).unwrap();
        assert_eq!(ready, [READABLE, 0]);
        drop(writer);
        let mut all = Vec::new();
        let _ = reader.read_to_end(&mut all);
        // The writer is gone: the reader is woken, and reads the end.
        wait_for_fds(&both[..1], &mut ready, Duration::from_secs(5)).unwrap();
        assert_ne!(ready[0], 0);
        assert_eq!(reader.read(&mut buffer).unwrap(), 0);
    }

    /// Runs `hook` in a fork of this (multithreaded) test process, as the pre_exec hook of
    /// /bin/true: an error it returns comes back from spawn, an `exit_now` code as the status.
    fn in_child(hook: impl FnMut() -> io::Result<()> + Send + Sync + 'static) -> io::Result<ExitStatus> {
        let mut command = Command::new("/bin/true");
        // SAFETY: the hooks in these tests only make system calls and exit.
        unsafe { command.pre_exec(hook) };
        command.status()
    }

    fn scratch_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("proto-sys-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn c(path: &std::path::Path) -> std::ffi::CString {
        std::ffi::CString::new(path.to_str().unwrap()).unwrap()
    }

    #[test]
    fn pipes_read_write_close_and_hang_up() {
        let (r, w) = pipe().unwrap();
        write_all(w, b"abc").unwrap();
        let mut buffer = [0; 8];
        assert_eq!(read(r, &mut buffer).unwrap(), 3);
        assert!(!hung_up(r).unwrap());
        close(w);
        // Another test's fork holds a copy of `w` until its exec, longer on a loaded machine.
        let patience = std::time::Instant::now();
        while !hung_up(r).unwrap() {
            assert!(patience.elapsed() < std::time::Duration::from_secs(60), "no hang-up a minute after the close");
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        assert_eq!(read(r, &mut buffer).unwrap(), 0);
        close(r);
    }

    /// The places a judge's pipes can have: anywhere, at their own target, at each other's.
    #[test]
    fn places_descriptors_whatever_numbers_they_have() {
        // Each case: where the two sources sit before the move, to land at 100 and 101.
        for (a, b) in [(60, 61), (100, 101), (101, 100), (100, 60), (60, 100), (101, 60)] {
            // bash, since dash takes only one-digit descriptors; both must be open after exec.
            let mut command = Command::new("bash");
            command.args(["-c", "echo from-a >&100; echo from-b >&101"]).stdout(Stdio::null());
            let (read_a, write_a) = std::io::pipe().unwrap();
            let (read_b, write_b) = std::io::pipe().unwrap();
            let (raw_a, raw_b) = (std::os::fd::AsRawFd::as_raw_fd(&write_a), std::os::fd::AsRawFd::as_raw_fd(&write_b));
            // SAFETY: the hook only makes system calls.
            unsafe {
                command.pre_exec(move || {
                    // Put the sources where this case wants them (close-on-exec, as pipes are).
                    let at = |from: RawFd, to: RawFd| -> io::Result<()> {
                        check_int(ffi::dup2(from, to))?;
                        check_int(ffi::fcntl(to, 2, 1)) // F_SETFD FD_CLOEXEC
                    };
                    let parked = ffi::fcntl(raw_b, ffi::F_DUPFD_CLOEXEC, 200);
                    at(raw_a, a)?;
                    at(parked, b)?;
                    place_fds(&[(a, 100), (b, 101)])
                });
            }
            let status = command.status().unwrap();
            drop((write_a, write_b));
            let text = |r: std::io::PipeReader| {
                let mut s = String::new();
                std::io::Read::read_to_string(&mut { r }, &mut s).unwrap();
                s
            };
            assert!(status.success(), "sources at {a} and {b}: {status}");
            assert_eq!((text(read_a), text(read_b)), ("from-a\n".into(), "from-b\n".into()), "sources at {a}, {b}");
        }
        assert!(place_fds(&[(-1, 100)]).is_err());
    }

    /// Descriptors inherited from whatever started the process, open across exec, and those a
    /// child is given: after the sweep only the given ones (and the standard streams) reach
    /// the program it execs, by close_range and by the walk of /proc/self/fd alike.
    #[test]
    fn only_the_given_descriptors_reach_an_exec() {
        for listed in [false, true] {
            let (reader, writer) = std::io::pipe().unwrap();
            let inherited = std::fs::File::open("/").unwrap();
            let (raw_dir, raw_pipe) =
                (std::os::fd::AsRawFd::as_raw_fd(&inherited), std::os::fd::AsRawFd::as_raw_fd(&writer));
            let mut command = Command::new("sh");
            command.args(["-c", "ls /proc/self/fd"]).stdout(Stdio::piped());
            // SAFETY: the hook only makes system calls.
            unsafe {
                command.pre_exec(move || {
                    // As a shell's `7</` and `9>&1` leave them: open across exec. The sources
                    // are first moved above every target, whatever numbers they had.
                    let (dir, pipe) = (
                        ffi::fcntl(raw_dir, ffi::F_DUPFD_CLOEXEC, 300),
                        ffi::fcntl(raw_pipe, ffi::F_DUPFD_CLOEXEC, 300),
                    );
                    for (from, to) in [(dir, 7), (pipe, 9)] {
                        check_int(ffi::dup2(from, to))?;
                    }
                    place_fds(&[(pipe, 100)])?;
                    let before = open_across_exec(7) && open_across_exec(9) && open_across_exec(100);
                    let keep = [0, 1, 2, 100];
                    match listed {
                        true => sweep_listed(&keep, Sweep::OnExec)?,
                        false => close_on_exec_all_except(&keep)?,
                    }
                    match before && !open_across_exec(7) && !open_across_exec(9) && open_across_exec(100) {
                        true => Ok(()),
                        false => Err(io::Error::from_raw_os_error(EINVAL)),
                    }
                });
            }
            let output = command.output().unwrap();
            drop((reader, writer, inherited));
            assert!(output.status.success(), "listed: {listed}: {:?}", output.status);
            let mut open: Vec<u32> =
                String::from_utf8(output.stdout).unwrap().split_whitespace().map(|f| f.parse().unwrap()).collect();
            open.sort_unstable();
            // ls's own descriptor on the folder it lists is the one more.
            assert!(open.len() == 5 && open[..3] == [0, 1, 2] && open.contains(&100), "listed: {listed}: {open:?}");
        }
    }

    /// A program in a session of its own leads it and its process group.
    #[test]
    fn a_new_session_is_led_by_the_child() {
        let mut command = Command::new("sh");
        command.args(["-c", "cat /proc/self/stat"]).stdout(Stdio::piped());
        // SAFETY: the hook only makes a system call.
        unsafe { command.pre_exec(new_session) };
        let child = command.spawn().unwrap();
        let pid = child.id().to_string();
        let output = child.wait_with_output().unwrap();
        let stat = String::from_utf8(output.stdout).unwrap();
        let fields: Vec<&str> = stat.rsplit_once(')').unwrap().1.split_whitespace().collect();
        // After the name: state, parent, group, session.
        assert_eq!((fields[2], fields[3]), (pid.as_str(), pid.as_str()), "{stat}");
    }

    /// Under the filter a process may start no process: a shell cannot fork, nor a clone.
    #[test]
    fn a_process_refused_new_processes_starts_none() {
        let refused = |script: &str| {
            let mut command = Command::new("sh");
            command.args(["-c", script]).stdout(Stdio::null()).stderr(Stdio::null());
            // SAFETY: the hook only makes system calls.
            unsafe {
                command.pre_exec(|| {
                    no_new_privs()?;
                    refuse_new_processes()
                })
            };
            command.status().unwrap()
        };
        assert!(refused("exit 0").success(), "a process that starts none runs");
        assert!(!refused("/bin/true; exit 0").success(), "a shell forked under the filter");
        let status = in_child(|| {
            no_new_privs()?;
            refuse_new_processes()?;
            // SAFETY: this fork of the test process has one thread; a clone would only exit.
            let forked = unsafe { clone_process(0) };
            exit_now(match forked {
                Err(e) if e.raw_os_error() == Some(EPERM) => 0,
                Ok(None) => exit_now(9),
                _ => 1,
            })
        });
        // Threads under the filter are started by real solutions: exec::tests.
        assert_eq!(status.unwrap().code(), Some(0));
    }

    #[test]
    fn direct_reads_and_writes_go_round_a_pipe() {
        let (r, w) = pipe().unwrap();
        write_all(w, b"request").unwrap();
        let mut buffer = [0u8; 16];
        assert_eq!(read(r, &mut buffer).unwrap(), 7);
        assert_eq!(&buffer[..7], b"request");
        close(w);
        assert_eq!(read(r, &mut buffer).unwrap(), 0);
        assert!(read(-1, &mut buffer).is_err_and(|e| e.raw_os_error() == Some(9)));
        close(r);
    }

    /// A file copied into a new one with its permissions; this process's command line found
    /// and blanked in a fork of it.
    #[test]
    fn copies_and_command_lines() {
        let dir = scratch_dir("copies");
        make_dir(&c(&dir), 0o755).unwrap();
        let from = open_read(c"/etc/hostname").unwrap();
        copy_file(from, &c(&dir.join("copy")), 0o555).unwrap();
        close(from);
        assert_eq!(std::fs::read(dir.join("copy")).unwrap(), std::fs::read("/etc/hostname").unwrap());
        let mode = std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(dir.join("copy")).unwrap().permissions());
        assert_eq!(mode & 0o777, 0o555);
        std::fs::remove_dir_all(&dir).unwrap();

        let range = own_arguments().expect("the command line's place");
        let (told, tell) = pipe().unwrap();
        let status = in_child(move || {
            // SAFETY: this fork reads its command line no more.
            unsafe { blank_arguments(Some(range), b"blanked") };
            let fd = open_read(c"/proc/self/cmdline")?;
            let mut text = [0u8; 64];
            let n = read(fd, &mut text)?;
            write_all(tell, &text[..n.min(8)])?;
            exit_now(0)
        });
        assert_eq!(status.unwrap().code(), Some(0));
        close(tell);
        let mut said = [0u8; 8];
        assert_eq!(read(told, &mut said).unwrap(), 8);
        close(told);
        assert_eq!(&said, b"blanked\0");
    }

    #[test]
    fn close_all_except_keeps_only_those_given() {
        let status = in_child(|| {
            block_signals()?; // a write to a pipe without reader then fails instead of killing
            let (r1, w1) = pipe()?;
            let (r2, w2) = pipe()?;
            close_all_except(&[r1, w2])?;
            let ebadf = |r: io::Result<()>| r.is_err_and(|e| e.raw_os_error() == Some(9));
            let checks = [
                hung_up(r1)?,                                                     // w1 went, r1 stayed
                ebadf(write_all(w1, b"x")),                                       // closed
                ebadf(read(r2, &mut [0]).map(drop)),                              // closed
                ebadf(read(0, &mut [0]).map(drop)),                               // stdin too
                write_all(w2, b"x").is_err_and(|e| e.raw_os_error() == Some(32)), // open, no reader
            ];
            exit_now(checks.iter().position(|ok| !ok).map_or(0, |i| i as i32 + 1))
        });
        assert_eq!(status.unwrap().code(), Some(0));
    }

    /// A child cloned into a cgroup v2 folder is born there. Where no v2 hierarchy can be
    /// written, the test says so on the terminal.
    #[test]
    fn a_clone_into_a_cgroup_is_born_in_it() {
        let mounts = std::fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
        let point = mounts.lines().find_map(|l| {
            let (before, after) = l.split_once(" - ")?;
            after.starts_with("cgroup2 ").then(|| before.split(' ').nth(4).map(str::to_string)).flatten()
        });
        let folder = point.map(|p| PathBuf::from(p).join(format!("judge-sys-test-{}", std::process::id())));
        let Some(folder) = folder.filter(|f| std::fs::create_dir(f).is_ok()) else {
            let line = "\nSKIPPED on this machine: no writable cgroup v2 hierarchy for clone3 into a cgroup\n";
            let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
            return;
        };
        let dir = std::fs::File::open(&folder).unwrap();
        let fd = std::os::fd::AsRawFd::as_raw_fd(&dir);
        // The clone tells its pid on one pipe, then waits on the other until it has been seen.
        let (told, tell) = pipe().unwrap();
        let (wait, release) = pipe().unwrap();
        let forked = std::thread::spawn(move || {
            in_child(move || {
                // SAFETY: this fork of the test process has one thread; the clone only reads
                // and exits.
                match unsafe { clone_into_cgroup(0, fd) }? {
                    None => {
                        let _ = read(wait, &mut [0]);
                        exit_now(0)
                    }
                    Some(clone) => {
                        write_all(tell, &clone.to_ne_bytes())?;
                        exit_like(wait_for(clone)?)
                    }
                }
            })
        });
        let mut pid = [0u8; 4];
        assert_eq!(read(told, &mut pid).unwrap(), 4);
        let members = std::fs::read_to_string(folder.join("cgroup.procs")).unwrap();
        write_all(release, b"g").unwrap();
        let status = forked.join().unwrap();
        for fd in [told, tell, wait, release] {
            close(fd);
        }
        let _ = std::fs::remove_dir(&folder);
        assert_eq!(status.unwrap().code(), Some(0));
        let pid = u32::from_ne_bytes(pid).to_string();
        assert!(members.lines().any(|m| m == pid), "clone {pid} not among {members:?}");
    }

    #[test]
    fn clones_wait_and_mirror_endings() {
        let status = in_child(|| {
            // SAFETY: this fork of the test process has one thread; the clone only exits.
            let exited = match unsafe { clone_process(0) }? {
                None => exit_now(7),
                Some(pid) => wait_for(pid)?.code() == Some(7),
            };
            // SAFETY: as above.
            let signalled = match unsafe { clone_process(0) }? {
                None => {
                    block_signals()?;
                    exit_like(ExitStatus::from_raw(6))
                }
                Some(pid) => {
                    let (reaped, status) = wait_any()?;
                    reaped == pid && status.signal() == Some(6)
                }
            };
            exit_now(i32::from(!exited) + 2 * i32::from(!signalled))
        });
        assert_eq!(status.unwrap().code(), Some(0));
    }

    #[test]
    fn a_process_exists_until_it_is_reaped() {
        let mut sleeper = Command::new("sleep").arg("10").spawn().unwrap();
        assert!(exists(sleeper.id()) && exists(1), "a live process, and init (another user's as a user)");
        sleeper.kill().unwrap();
        sleeper.wait().unwrap();
        assert!(!exists(sleeper.id()));
    }

    #[test]
    fn kills() {
        let mut sleeper = Command::new("sleep").arg("10").spawn().unwrap();
        kill(sleeper.id(), SIGKILL).unwrap();
        assert_eq!(sleeper.wait().unwrap().signal(), Some(SIGKILL));
        assert!(kill(u32::MAX, 0).is_err());
    }

    #[test]
    fn files_folders_and_links() {
        let dir = scratch_dir("files");
        make_dir(&c(&dir), 0o755).unwrap();
        assert_eq!(make_dir(&c(&dir), 0o755).unwrap_err().kind(), io::ErrorKind::AlreadyExists);
        let file = dir.join("file");
        make_file(&c(&file)).unwrap();
        make_file(&c(&file)).unwrap();
        write_file(&c(&file), b"written").unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "written");
        symlink(c"file", &c(&dir.join("link"))).unwrap();
        assert_eq!(std::fs::read_to_string(dir.join("link")).unwrap(), "written");
        let fd = open_path(&c(&file)).unwrap();
        assert!(read(fd, &mut [0; 4]).is_err(), "O_PATH grants no reading");
        close(fd);
        assert!(write_file(c"/nonexistent/file", b"x").is_err());
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn ids_and_groups() {
        let (euid, egid) = effective_ids();
        let id = |flag: &str| Command::new("id").arg(flag).output().unwrap().stdout;
        assert_eq!(String::from_utf8(id("-u")).unwrap().trim(), euid.to_string());
        assert_eq!(String::from_utf8(id("-g")).unwrap().trim(), egid.to_string());
        let target = if euid == 0 { 65534 } else { euid };
        let mut command = Command::new("sh");
        command.args(["-c", "id -u; id -G"]);
        // SAFETY: the hook only makes system calls.
        unsafe {
            command.pre_exec(move || {
                match drop_groups() {
                    Err(e) if euid != 0 && e.raw_os_error() == Some(1) => {} // EPERM without CAP_SETGID
                    other => other?,
                }
                set_ids(target, target)
            })
        };
        let output = String::from_utf8(command.output().unwrap().stdout).unwrap();
        let mut lines = output.lines();
        assert_eq!(lines.next(), Some(target.to_string().as_str()));
        if euid == 0 {
            assert_eq!(lines.next(), Some("65534"), "no group left but the primary one");
        }
    }

    #[test]
    fn limits_and_process_flags() {
        let mut command = Command::new("cat");
        command.args(["/proc/self/limits", "/proc/self/status"]);
        // SAFETY: the hook only makes system calls.
        unsafe {
            command.pre_exec(|| {
                limit(Resource::Processes, 77)?;
                limit(Resource::FileSize, 1 << 20)?;
                limit(Resource::CoreDump, 0)?;
                limit(Resource::AddressSpace, 8 << 30)?;
                die_with_parent()?;
                set_dumpable(false)?;
                no_new_privs()
            })
        };
        let output = String::from_utf8(command.output().unwrap().stdout).unwrap();
        let has = |name: &str, value: &str| {
            output.lines().any(|l| l.starts_with(name) && l.split_whitespace().filter(|w| *w == value).count() == 2)
        };
        assert!(has("Max processes", "77"), "{output}");
        assert!(has("Max file size", "1048576"), "{output}");
        assert!(has("Max core file size", "0"), "{output}");
        assert!(has("Max address space", &(8u64 << 30).to_string()), "{output}");
        assert!(output.contains("NoNewPrivs:\t1"), "{output}");
    }

    #[test]
    fn a_child_starts_only_while_its_parent_is_the_one_it_names() {
        let start = |parent: u32| {
            let mut command = Command::new("true");
            // SAFETY: the hook only makes system calls.
            unsafe { command.pre_exec(move || die_with(parent)) };
            command.status()
        };
        assert!(start(std::process::id()).unwrap().success());
        assert_eq!(start(1).unwrap_err().raw_os_error(), Some(ESRCH));
    }

    #[test]
    fn blocks_and_unblocks_signals() {
        let blocked = |unblock: bool| {
            let mut command = Command::new("cat");
            command.arg("/proc/self/status");
            // SAFETY: the hook only makes system calls.
            unsafe {
                command.pre_exec(move || {
                    block_signals()?;
                    if unblock {
                        unblock_signals()?;
                    }
                    Ok(())
                })
            };
            let status = String::from_utf8(command.output().unwrap().stdout).unwrap();
            status.lines().find_map(|l| l.strip_prefix("SigBlk:\t")).unwrap().to_string()
        };
        // Everything but SIGKILL (9) and SIGSTOP (19), which cannot be blocked.
        assert_eq!(blocked(false), "fffffffffffbfeff");
        assert_eq!(blocked(true), "0000000000000000");
    }

    /// In new user, mount and pid namespaces: a tmpfs, folders, a file, a link, a read-only bind,
    /// a proc, a pivot and a detach, each checked.
    #[test]
    fn mounts_and_pivots() {
        let (euid, egid) = effective_ids();
        let uid_map = format!("0 {euid} 1\n");
        let gid_map = format!("0 {egid} 1\n");
        let status = in_child(move || {
            let (from_parent, to_child) = pipe()?;
            // SAFETY: this fork of the test process has one thread.
            let Some(child) = (unsafe { clone_process(NEW_USER | NEW_MOUNT | NEW_PID) })? else {
                close(to_child);
                let mut go = [0];
                read(from_parent, &mut go)?;
                exit_now(match in_namespaces() {
                    Ok(()) => 0,
                    Err(e) => 100 + e.raw_os_error().unwrap_or(99).min(99),
                });
            };
            let file = |name: &str| std::ffi::CString::new(format!("/proc/{child}/{name}")).unwrap();
            write_file(&file("setgroups"), b"deny")?;
            write_file(&file("uid_map"), uid_map.as_bytes())?;
            write_file(&file("gid_map"), gid_map.as_bytes())?;
            write_all(to_child, b"g")?;
            exit_like(wait_for(child)?)
        });
        assert_eq!(status.unwrap().code(), Some(0), "100 + errno of the first failure");
    }

    fn in_namespaces() -> io::Result<()> {
        set_ids(0, 0)?;
        make_mounts_private()?;
        let usr = open_path(c"/usr")?;
        mount(Some(c"tmpfs"), c"/tmp", Some(c"tmpfs"), MS_NOSUID | MS_NODEV, Some(c"size=1m"))?;
        make_dir(c"/tmp/usr", 0o755)?;
        make_dir(c"/tmp/proc", 0o755)?;
        make_file(c"/tmp/file")?;
        symlink(c"usr/bin", c"/tmp/bin")?;
        // Whatever its number: a fork of a test process with many files open gets a high one.
        let mut source = *b"/proc/self/fd/\0\0\0\0\0\0\0\0\0\0\0";
        let digits = usr.max(1).ilog10() as usize + 1;
        for (i, slot) in source[14..14 + digits].iter_mut().rev().enumerate() {
            *slot = b'0' + (usr / 10i32.pow(i as u32) % 10) as u8;
        }
        bind(CStr::from_bytes_until_nul(&source).unwrap(), c"/tmp/usr")?;
        restrict_mount(c"/tmp/usr", true, true)?;
        if make_dir(c"/tmp/usr/planted", 0o755).map_err(|e| e.raw_os_error()) != Err(Some(30)) {
            return Err(io::Error::from_raw_os_error(98)); // EROFS expected
        }
        mount(Some(c"proc"), c"/tmp/proc", Some(c"proc"), MS_NOSUID | MS_NODEV | MS_NOEXEC, None)?;
        chdir(c"/tmp")?;
        pivot_root(c".", c".")?;
        detach(c".")?;
        chdir(c"/")?;
        close(open_path(c"/bin/sh")?);
        close(open_path(c"/proc/1/status")?);
        if open_path(c"/work").is_ok() || open_path(c"/proc/2").is_ok() {
            return Err(io::Error::from_raw_os_error(97)); // the host's folders and processes
        }
        Ok(())
    }
}
