//! The few C functions std links but does not wrap, each behind a safe wrapper with a test.
//! Linux and macOS, each function behind the `cfg` of the systems it exists on; constants
//! and structure layouts per system, from its headers (as the `libc` crate transcribes them),
//! with a size assertion where the two differ. System call numbers are x86_64's and
//! aarch64's.
//!
//! Most of the Linux ones are for a child between fork and exec (the sandbox's keeper and
//! init, the judge's own hook): each makes one or two system calls on borrowed C strings and
//! buffers and allocates nothing, not even for an error. Raw system calls stand where glibc's
//! wrapper would be unsafe in such a child (setresuid and setgroups signal every thread glibc
//! knows of) or does not exist.
//!
//! This file is self-contained (no `crate::` paths): the judge uses it as `exec::sys`, and
//! every submission's driver includes the same text, so both ends share one declaration.

#[cfg(target_os = "linux")]
use std::ffi::CStr;
use std::io;
use std::os::fd::RawFd;
#[cfg(target_os = "linux")]
use std::os::raw::{c_char, c_ulong};
use std::os::raw::{c_int, c_long};
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
#[cfg(target_os = "linux")]
#[cfg_attr(not(test), allow(dead_code))] // the driver's fault handler
pub const SIGBUS: i32 = 7;
#[cfg(target_os = "macos")]
#[cfg_attr(not(test), allow(dead_code))] // the driver's fault handler
pub const SIGBUS: i32 = 10;
pub const SIGKILL: i32 = 9;
#[cfg_attr(not(test), allow(dead_code))] // the driver's fault handler
pub const SIGSEGV: i32 = 11;
pub const SIGTERM: i32 = 15;
pub const SIGXFSZ: i32 = 25;
/// No such process: what a child reports when the judge ended before it started.
#[cfg(target_os = "linux")]
pub const ESRCH: i32 = 3;
const EPERM: i32 = 1;
#[cfg_attr(not(test), allow(dead_code))] // the driver's
const EINTR: i32 = 4;
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

mod ffi {
    #[cfg(target_os = "linux")]
    use std::os::raw::{c_char, c_long};
    use std::os::raw::{c_int, c_ulong, c_void};

    #[repr(C)]
    pub struct Rlimit {
        pub current: u64,
        pub maximum: u64,
    }

    #[repr(C)]
    pub struct PollFd {
        pub fd: c_int,
        pub events: i16,
        pub revents: i16,
    }

    /// glibc's `struct sigaction` on x86_64 and aarch64.
    #[cfg(target_os = "linux")]
    #[repr(C)]
    pub struct SigAction {
        pub handler: usize,
        pub mask: [u64; 16],
        pub flags: c_int,
        pub restorer: usize,
    }
    #[cfg(target_os = "linux")]
    const _: () = assert!(std::mem::size_of::<SigAction>() == 152);

    /// macOS's `struct sigaction`: the handler, a 32-bit mask, the flags.
    #[cfg(target_os = "macos")]
    #[repr(C)]
    pub struct SigAction {
        pub handler: usize,
        pub mask: u32,
        pub flags: c_int,
    }
    #[cfg(target_os = "macos")]
    const _: () = assert!(std::mem::size_of::<SigAction>() == 16);

    impl SigAction {
        pub const fn new(handler: usize, flags: c_int) -> SigAction {
            #[cfg(target_os = "linux")]
            return SigAction { handler, mask: [0; 16], flags, restorer: 0 };
            #[cfg(target_os = "macos")]
            return SigAction { handler, mask: 0, flags };
        }
    }

    /// `struct clone_args` of clone3(2), up to its `cgroup` field.
    #[cfg(target_os = "linux")]
    #[repr(C)]
    #[derive(Default)]
    pub struct CloneArgs {
        pub flags: u64,
        pub pidfd: u64,
        pub child_tid: u64,
        pub parent_tid: u64,
        pub exit_signal: u64,
        pub stack: u64,
        pub stack_size: u64,
        pub tls: u64,
        pub set_tid: u64,
        pub set_tid_size: u64,
        pub cgroup: u64,
    }

    /// `struct mount_attr` of mount_setattr(2).
    #[cfg(target_os = "linux")]
    #[repr(C)]
    pub struct MountAttr {
        pub set: u64,
        pub clear: u64,
        pub propagation: u64,
        pub userns_fd: u64,
    }

    /// `struct sock_filter`: one instruction of a classic BPF program.
    #[cfg(target_os = "linux")]
    #[repr(C)]
    #[derive(Clone, Copy)]
    pub struct SockFilter {
        pub code: u16,
        pub jt: u8,
        pub jf: u8,
        pub k: u32,
    }

    /// `struct sock_fprog`.
    #[cfg(target_os = "linux")]
    #[repr(C)]
    pub struct SockFprog {
        pub len: u16,
        pub filter: *const SockFilter,
    }

    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    pub mod nr {
        pub const CLONE: i64 = 56;
        pub const PIVOT_ROOT: i64 = 155;
        pub const SETGROUPS: i64 = 116;
        pub const SETRESUID: i64 = 117;
        pub const SETRESGID: i64 = 119;
        pub const RT_SIGPROCMASK: i64 = 14;
        pub const GETTID: i64 = 186;
        pub const READ: i64 = 0;
        pub const WRITE: i64 = 1;
        pub const GETDENTS64: i64 = 217;
        /// fork, vfork and clone, which start processes; clone3 (the same on every
        /// architecture) is below.
        pub const FORK: Option<u32> = Some(57);
        pub const VFORK: Option<u32> = Some(58);
        /// `AUDIT_ARCH_X86_64`: the architecture a seccomp filter sees.
        pub const AUDIT_ARCH: u32 = 0xC000_003E;
    }
    #[cfg(all(target_os = "linux", target_arch = "aarch64"))]
    pub mod nr {
        pub const CLONE: i64 = 220;
        pub const PIVOT_ROOT: i64 = 41;
        pub const SETGROUPS: i64 = 159;
        pub const SETRESUID: i64 = 147;
        pub const SETRESGID: i64 = 149;
        pub const RT_SIGPROCMASK: i64 = 135;
        pub const GETTID: i64 = 178;
        pub const READ: i64 = 63;
        pub const WRITE: i64 = 64;
        pub const GETDENTS64: i64 = 61;
        pub const FORK: Option<u32> = None;
        pub const VFORK: Option<u32> = None;
        /// `AUDIT_ARCH_AARCH64`.
        pub const AUDIT_ARCH: u32 = 0xC000_00B7;
    }

    /// Constants whose values differ between the systems.
    #[cfg(target_os = "linux")]
    pub mod os {
        use std::os::raw::{c_int, c_ulong};
        pub const O_NONBLOCK: c_int = 0o4000;
        pub const O_CLOEXEC: c_int = 0o2_000_000;
        pub const F_DUPFD_CLOEXEC: c_int = 1030;
        pub const RLIMIT_NPROC: c_int = 6;
        pub const RLIMIT_NOFILE: c_int = 7;
        pub const RLIMIT_AS: c_int = 9;
        /// ioctl(2): the size of a terminal, as `struct winsize`; the same on x86_64 and aarch64.
        pub const TIOCGWINSZ: c_ulong = 0x5413;
        #[cfg_attr(not(test), allow(dead_code))] // the driver's fault handler
        pub const SA_SIGINFO: c_int = 4;
        #[cfg_attr(not(test), allow(dead_code))] // the driver's fault handler
        pub const SA_ONSTACK: c_int = 0x0800_0000;
        /// In `siginfo_t`: the code, after the signal number and errno; the fault address,
        /// after three ints and padding.
        #[cfg_attr(not(test), allow(dead_code))] // the driver's fault handler
        pub const SI_ADDR_OFFSET: usize = 16;
        pub type PollCount = std::os::raw::c_ulong;
    }
    #[cfg(target_os = "macos")]
    pub mod os {
        use std::os::raw::{c_int, c_ulong};
        pub const O_NONBLOCK: c_int = 0x0004;
        pub const F_DUPFD_CLOEXEC: c_int = 67;
        pub const RLIMIT_NOFILE: c_int = 8;
        pub const TIOCGWINSZ: c_ulong = 0x4008_7468;
        #[cfg_attr(not(test), allow(dead_code))] // the driver's fault handler
        pub const SA_SIGINFO: c_int = 0x0040;
        #[cfg_attr(not(test), allow(dead_code))] // the driver's fault handler
        pub const SA_ONSTACK: c_int = 0x0001;
        /// In `siginfo_t`: signal number, errno, code, pid, uid and status (six ints), then
        /// the fault address.
        #[cfg_attr(not(test), allow(dead_code))] // the driver's fault handler
        pub const SI_ADDR_OFFSET: usize = 24;
        pub type PollCount = std::os::raw::c_uint;
    }
    pub use os::*;

    #[cfg(target_os = "linux")]
    pub mod linux {
        use std::os::raw::{c_int, c_long, c_ulong};
        pub const CLONE3: i64 = 435;
        pub const CLOSE_RANGE: i64 = 436;
        /// close_range(2)'s flag: mark close-on-exec rather than close (Linux 5.11).
        pub const CLOSE_RANGE_CLOEXEC: u32 = 4;
        pub const MOUNT_SETATTR: i64 = 442;
        pub const SIGCHLD: u64 = 17;
        pub const CLONE_INTO_CGROUP: u64 = 0x2_0000_0000;
        pub const MS_BIND: c_ulong = 4096;
        pub const MS_REC: c_ulong = 16384;
        pub const MS_PRIVATE: c_ulong = 1 << 18;
        pub const MNT_DETACH: c_int = 2;
        pub const MOUNT_ATTR_RDONLY: u64 = 1;
        pub const MOUNT_ATTR_NOSUID: u64 = 2;
        pub const AT_FDCWD: c_int = -100;
        pub const AT_RECURSIVE: c_int = 0x8000;
        pub const O_WRONLY: c_int = 1;
        pub const O_CREAT: c_int = 0o100;
        pub const O_EXCL: c_int = 0o200;
        pub const O_RDONLY: c_int = 0;
        pub const O_DIRECTORY: c_int = 0o200_000;
        pub const O_PATH: c_int = 0o10_000_000;
        pub const PR_SET_PDEATHSIG: c_int = 1;
        pub const PR_SET_CHILD_SUBREAPER: c_int = 36;
        pub const PR_SET_DUMPABLE: c_int = 4;
        pub const PR_SET_NO_NEW_PRIVS: c_int = 38;
        pub const PR_SET_SECCOMP: c_int = 22;
        pub const PR_SET_NAME: c_int = 15;
        pub const SECCOMP_MODE_FILTER: c_ulong = 2;
        pub const F_SETPIPE_SZ: c_int = 1031;
        pub const SIG_BLOCK: c_long = 0;
        pub const SIG_UNBLOCK: c_long = 1;
        pub const SIG_SETMASK: c_long = 2;
        pub const POLLHUP: i16 = 0x10;
        pub const SIG_DFL: usize = 0;
    }
    #[cfg(target_os = "linux")]
    pub use linux::*;

    /// mmap(2)'s protections and its shared mapping, the same on Linux and macOS.
    pub const PROT_READ: c_int = 1;
    pub const PROT_WRITE: c_int = 2;
    pub const MAP_SHARED: c_int = 1;
    #[cfg(all(test, target_os = "linux"))]
    pub const F_GETFD: c_int = 1;
    pub const F_SETFD: c_int = 2;
    pub const FD_CLOEXEC: c_int = 1;
    pub const F_GETFL: c_int = 3;
    pub const F_SETFL: c_int = 4;
    pub const RLIMIT_FSIZE: c_int = 1;
    pub const RLIMIT_STACK: c_int = 3;
    pub const RLIMIT_CORE: c_int = 4;
    /// In `siginfo_t`, on both systems: the code, after the signal number and errno.
    #[cfg_attr(not(test), allow(dead_code))] // the driver's fault handler
    pub const SI_CODE_OFFSET: usize = 8;

    extern "C" {
        #[cfg(target_os = "linux")]
        pub fn close(fd: c_int) -> c_int;
        // Linux reads and writes by the system-call instruction (see `direct`).
        #[cfg(target_os = "macos")]
        #[cfg_attr(not(test), allow(dead_code))] // the driver's
        pub fn read(fd: c_int, buffer: *mut c_void, count: usize) -> isize;
        #[cfg(target_os = "macos")]
        pub fn write(fd: c_int, buffer: *const c_void, count: usize) -> isize;
        pub fn dup2(from: c_int, to: c_int) -> c_int;
        pub fn setrlimit(resource: c_int, limit: *const Rlimit) -> c_int;
        #[cfg(target_os = "macos")]
        pub fn getrlimit(resource: c_int, limit: *mut Rlimit) -> c_int;
        pub fn kill(pid: c_int, signal: c_int) -> c_int;
        pub fn geteuid() -> u32;
        pub fn getegid() -> u32;
        pub fn fcntl(fd: c_int, command: c_int, ...) -> c_int;
        pub fn poll(fds: *mut PollFd, count: PollCount, timeout_ms: c_int) -> c_int;
        pub fn sigaction(signal: c_int, new: *const SigAction, old: *mut SigAction) -> c_int;
        pub fn _exit(status: c_int) -> !;
        pub fn ioctl(fd: c_int, request: c_ulong, ...) -> c_int;
        pub fn setsid() -> c_int;
        pub fn pthread_self() -> usize;
        pub fn pthread_kill(thread: usize, signal: c_int) -> c_int;
        pub fn mmap(
            at: *mut c_void,
            len: usize,
            protection: c_int,
            flags: c_int,
            fd: c_int,
            offset: i64,
        ) -> *mut c_void;
        pub fn munmap(at: *mut c_void, len: usize) -> c_int;
    }

    #[cfg(target_os = "macos")]
    extern "C" {
        pub fn pthread_threadid_np(thread: usize, id: *mut u64) -> c_int;
        pub fn proc_pid_rusage(pid: c_int, flavor: c_int, buffer: *mut RusageInfoV4) -> c_int;
        pub fn mach_timebase_info(info: *mut Timebase) -> c_int;
    }

    /// `struct rusage_info_v4` of <sys/resource.h>, as the libc crate transcribes it
    /// (src/unix/bsd/apple/mod.rs): a 16-byte uuid, then 35 u64 counters; the ones read are
    /// named, the others kept as runs. Times are in Mach absolute-time units (see `Timebase`).
    #[cfg(target_os = "macos")]
    #[repr(C)]
    #[derive(Default)]
    pub struct RusageInfoV4 {
        pub uuid: [u8; 16],
        pub user_time: u64,
        pub system_time: u64,
        /// `ri_pkg_idle_wkups` to `ri_resident_size`.
        pub before_footprint: [u64; 5],
        pub phys_footprint: u64,
        /// `ri_proc_start_abstime` to `ri_logical_writes`.
        pub between: [u64; 20],
        pub lifetime_max_phys_footprint: u64,
        /// `ri_instructions` to `ri_runnable_time`.
        pub after: [u64; 6],
    }
    #[cfg(target_os = "macos")]
    const _: () = {
        use std::mem::{offset_of, size_of};
        assert!(size_of::<RusageInfoV4>() == 296);
        assert!(offset_of!(RusageInfoV4, user_time) == 16);
        assert!(offset_of!(RusageInfoV4, system_time) == 24);
        assert!(offset_of!(RusageInfoV4, phys_footprint) == 72);
        assert!(offset_of!(RusageInfoV4, lifetime_max_phys_footprint) == 240);
    };
    /// `proc_pid_rusage`'s flavor for `RusageInfoV4`.
    #[cfg(target_os = "macos")]
    pub const RUSAGE_INFO_V4: c_int = 4;

    /// `mach_timebase_info_data_t` of <mach/mach_time.h>: nanoseconds = units × numer / denom
    /// (1/1 on Intel, 125/3 on Apple silicon).
    #[cfg(target_os = "macos")]
    #[repr(C)]
    #[derive(Default)]
    pub struct Timebase {
        pub numer: u32,
        pub denom: u32,
    }
    #[cfg(target_os = "macos")]
    const _: () = assert!(std::mem::size_of::<Timebase>() == 8);

    #[cfg(target_os = "linux")]
    extern "C" {
        pub fn syscall(number: c_long, ...) -> c_long;
        pub fn clock_gettime(clock: c_int, time: *mut [i64; 2]) -> c_int;
        pub fn mount(
            source: *const c_char,
            target: *const c_char,
            fstype: *const c_char,
            flags: c_ulong,
            data: *const c_void,
        ) -> c_int;
        pub fn umount2(target: *const c_char, flags: c_int) -> c_int;
        pub fn mkdir(path: *const c_char, mode: u32) -> c_int;
        pub fn open(path: *const c_char, flags: c_int, ...) -> c_int;
        pub fn pipe2(fds: *mut c_int, flags: c_int) -> c_int;
        pub fn symlink(target: *const c_char, link: *const c_char) -> c_int;
        pub fn chdir(path: *const c_char) -> c_int;
        pub fn prctl(option: c_int, ...) -> c_int;
        pub fn waitpid(pid: c_int, status: *mut c_int, options: c_int) -> c_int;
        pub fn signal(signal: c_int, handler: usize) -> usize;
        pub fn memfd_create(name: *const c_char, flags: std::os::raw::c_uint) -> c_int;
    }

    #[cfg_attr(not(test), allow(dead_code))] // the driver's fault handler
    pub type Handler = extern "C" fn(c_int, *mut c_void, *mut c_void);

    pub fn c_int_from(value: usize) -> c_int {
        c_int::try_from(value).unwrap_or(c_int::MAX)
    }
}

/// -1 is an error, in errno.
fn check(result: c_long) -> io::Result<c_long> {
    if result == -1 {
        Err(io::Error::last_os_error())
    } else {
        Ok(result)
    }
}

fn check_int(result: c_int) -> io::Result<()> {
    check(result.into()).map(drop)
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

/// mount(2): a new filesystem (`fstype` given) or a change of propagation (`source` None).
#[cfg(target_os = "linux")]
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
#[cfg(target_os = "linux")]
pub fn make_mounts_private() -> io::Result<()> {
    mount(None, c"/", None, ffi::MS_REC | ffi::MS_PRIVATE, None)
}

/// Binds `source` and everything mounted under it at `target`.
#[cfg(target_os = "linux")]
pub fn bind(source: &CStr, target: &CStr) -> io::Result<()> {
    mount(Some(source), target, None, ffi::MS_BIND | ffi::MS_REC, None)
}

/// Marks the mount at `target` (and, if `recursive`, every mount under it) nosuid, and
/// read-only if asked. Adding restrictions is allowed even on mounts locked by a less
/// privileged user namespace.
#[cfg(target_os = "linux")]
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
#[cfg(target_os = "linux")]
pub fn detach(target: &CStr) -> io::Result<()> {
    // SAFETY: `target` is a valid string.
    check_int(unsafe { ffi::umount2(target.as_ptr(), ffi::MNT_DETACH) })
}

/// pivot_root(2): `new_root` becomes this mount namespace's root, the old one goes to `put_old`.
#[cfg(target_os = "linux")]
pub fn pivot_root(new_root: &CStr, put_old: &CStr) -> io::Result<()> {
    // SAFETY: both are valid strings.
    check(unsafe { ffi::syscall(ffi::nr::PIVOT_ROOT, new_root.as_ptr(), put_old.as_ptr()) }).map(drop)
}

#[cfg(target_os = "linux")]
pub fn chdir(path: &CStr) -> io::Result<()> {
    // SAFETY: `path` is a valid string.
    check_int(unsafe { ffi::chdir(path.as_ptr()) })
}

#[cfg(target_os = "linux")]
pub fn make_dir(path: &CStr, mode: u32) -> io::Result<()> {
    // SAFETY: `path` is a valid string.
    check_int(unsafe { ffi::mkdir(path.as_ptr(), mode) })
}

/// Creates an empty file (or finds one already there), to mount a file on.
#[cfg(target_os = "linux")]
pub fn make_file(path: &CStr) -> io::Result<()> {
    // SAFETY: `path` is a valid string; the mode argument is read because of O_CREAT.
    let fd = unsafe { ffi::open(path.as_ptr(), ffi::O_WRONLY | ffi::O_CREAT | ffi::O_CLOEXEC, 0o644) };
    check_int(fd)?;
    close(fd);
    Ok(())
}

#[cfg(target_os = "linux")]
pub fn symlink(target: &CStr, link: &CStr) -> io::Result<()> {
    // SAFETY: both are valid strings.
    check_int(unsafe { ffi::symlink(target.as_ptr(), link.as_ptr()) })
}

/// A close-on-exec descriptor naming `path` (O_PATH: it grants no read or write).
#[cfg(target_os = "linux")]
pub fn open_path(path: &CStr) -> io::Result<RawFd> {
    // SAFETY: `path` is a valid string.
    let fd = unsafe { ffi::open(path.as_ptr(), ffi::O_PATH | ffi::O_CLOEXEC) };
    check_int(fd).map(|()| fd)
}

/// A close-on-exec descriptor reading `path`.
#[cfg(target_os = "linux")]
pub fn open_read(path: &CStr) -> io::Result<RawFd> {
    // SAFETY: `path` is a valid string.
    let fd = unsafe { ffi::open(path.as_ptr(), ffi::O_RDONLY | ffi::O_CLOEXEC) };
    check_int(fd).map(|()| fd)
}

/// Copies what `from` reads to a new file `to` with permissions `mode`, through a buffer on
/// the stack (safe between fork and exec).
#[cfg(target_os = "linux")]
pub fn copy_file(from: RawFd, to: &CStr, mode: u32) -> io::Result<()> {
    let flags = ffi::O_WRONLY | ffi::O_CREAT | ffi::O_EXCL | ffi::O_CLOEXEC;
    // SAFETY: `to` is a valid string; the mode argument is read because of O_CREAT.
    let fd = unsafe { ffi::open(to.as_ptr(), flags, mode) };
    check_int(fd)?;
    let mut buffer = [0u8; 16 << 10];
    let copied = loop {
        match read(from, &mut buffer) {
            Ok(0) => break Ok(()),
            Ok(n) => {
                if let Err(e) = write_all(fd, &buffer[..n]) {
                    break Err(e);
                }
            }
            Err(e) => break Err(e),
        }
    };
    close(fd);
    copied
}

/// Names the calling thread (what /proc shows as its `comm`), up to 15 bytes.
#[cfg(target_os = "linux")]
pub fn set_name(name: &CStr) -> io::Result<()> {
    // SAFETY: prctl reads a NUL-terminated string of at most 16 bytes; longer ones are cut.
    check_int(unsafe { ffi::prctl(ffi::PR_SET_NAME, name.as_ptr()) })
}

/// Where this process's command line lies in its memory (the kernel's `arg_start` and
/// `arg_end`, fields 48 and 49 of /proc/self/stat).
#[cfg(target_os = "linux")]
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
#[cfg(target_os = "linux")]
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
#[cfg(target_os = "linux")]
pub fn write_file(path: &CStr, bytes: &[u8]) -> io::Result<()> {
    // SAFETY: `path` is a valid string.
    let fd = unsafe { ffi::open(path.as_ptr(), ffi::O_WRONLY | ffi::O_CLOEXEC) };
    check_int(fd)?;
    let written = write_all(fd, bytes);
    close(fd);
    written
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
    // SAFETY: a valid string; the descriptor is closed below.
    let dir = unsafe { ffi::open(c"/proc/self/fd".as_ptr(), ffi::O_RDONLY | ffi::O_DIRECTORY | ffi::O_CLOEXEC) };
    check_int(dir)?;
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

/// Refuses this process, for good, any new process: fork, vfork and a clone that is not a new
/// thread fail with EPERM (threads are still allowed), by a seccomp filter that survives exec.
/// clone3, whose flags a filter cannot read, fails with ENOSYS, which makes the C library
/// start threads with clone instead. A system call of another architecture's ABI kills the
/// process. Needs `no_new_privs` first.
#[cfg(target_os = "linux")]
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

/// A system call of three arguments made with the system-call instruction itself: no function
/// a program links (its own `read` or `clock_gettime`, say) can stand in for it. The kernel's
/// answer, or minus its errno.
///
/// # Safety
///
/// As the call `number` requires of its arguments (pointers valid for what it reads and writes).
#[cfg(target_os = "linux")]
unsafe fn direct(number: i64, a: usize, b: usize, c: usize) -> isize {
    let result: isize;
    // SAFETY: the caller upholds the call's contract; the registers the instruction clobbers
    // are declared, and memory may be read and written (no `nomem`).
    #[cfg(target_arch = "x86_64")]
    unsafe {
        std::arch::asm!(
            "syscall",
            inlateout("rax") number as isize => result,
            in("rdi") a,
            in("rsi") b,
            in("rdx") c,
            lateout("rcx") _,
            lateout("r11") _,
            options(nostack),
        );
    }
    // SAFETY: as above, with aarch64's calling convention for system calls.
    #[cfg(target_arch = "aarch64")]
    unsafe {
        std::arch::asm!(
            "svc 0",
            in("x8") number,
            inlateout("x0") a as isize => result,
            in("x1") b,
            in("x2") c,
            options(nostack),
        );
    }
    result
}

/// One read(2) by a direct system call on Linux (see `direct`: the driver's pipes are read so),
/// through the C library on macOS; retried if interrupted; 0 is the end.
#[cfg_attr(not(any(test, target_os = "linux")), allow(dead_code))] // on macOS, the driver's
pub fn read(fd: RawFd, buffer: &mut [u8]) -> io::Result<usize> {
    loop {
        // SAFETY: `buffer` is valid for writes of its length.
        #[cfg(target_os = "linux")]
        let n = unsafe { direct(ffi::nr::READ, fd as usize, buffer.as_mut_ptr() as usize, buffer.len()) };
        // SAFETY: as above.
        #[cfg(target_os = "macos")]
        let n = unsafe { errno_negated(ffi::read(fd, buffer.as_mut_ptr().cast(), buffer.len())) };
        match n {
            n if n >= 0 => return Ok(n as usize),
            n if n == -(EINTR as isize) => continue,
            n => return Err(io::Error::from_raw_os_error(-n as i32)),
        }
    }
}

/// Writes all of `bytes`, as `read` reads.
pub fn write_all(fd: RawFd, mut bytes: &[u8]) -> io::Result<()> {
    while !bytes.is_empty() {
        // SAFETY: `bytes` is valid for reads of its length.
        #[cfg(target_os = "linux")]
        let n = unsafe { direct(ffi::nr::WRITE, fd as usize, bytes.as_ptr() as usize, bytes.len()) };
        // SAFETY: as above.
        #[cfg(target_os = "macos")]
        let n = unsafe { errno_negated(ffi::write(fd, bytes.as_ptr().cast(), bytes.len())) };
        match n {
            0 => return Err(io::ErrorKind::WriteZero.into()),
            n if n > 0 => bytes = &bytes[n as usize..],
            n if n == -(EINTR as isize) => continue,
            n => return Err(io::Error::from_raw_os_error(-n as i32)),
        }
    }
    Ok(())
}

/// A C library call's result as a system call gives it: minus the errno on failure.
#[cfg(target_os = "macos")]
fn errno_negated(result: isize) -> isize {
    match result {
        -1 => -(io::Error::last_os_error().raw_os_error().unwrap_or(EINTR) as isize),
        n => n,
    }
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

/// A shared mapping of the start of a file, read and written by every process that maps it;
/// unmapped when dropped.
pub struct Mapping {
    at: *mut u8,
    len: usize,
}

// SAFETY: the mapping is owned by this value alone; what other processes write there is read
// through raw pointers, never through references.
unsafe impl Send for Mapping {}

impl Mapping {
    /// The first `len` bytes of `fd`, mapped shared for reading and writing.
    pub fn shared(fd: RawFd, len: usize) -> io::Result<Mapping> {
        let (protection, flags) = (ffi::PROT_READ | ffi::PROT_WRITE, ffi::MAP_SHARED);
        // SAFETY: a new mapping at an address the kernel picks; nothing is aliased.
        let at = unsafe { ffi::mmap(std::ptr::null_mut(), len, protection, flags, fd, 0) };
        if at as isize == -1 {
            return Err(io::Error::last_os_error());
        }
        Ok(Mapping { at: at.cast(), len })
    }

    pub fn as_ptr(&self) -> *mut u8 {
        self.at
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// Leaves the mapping in place for the rest of the process's life.
    #[cfg_attr(not(test), allow(dead_code))] // the driver's
    pub fn keep(self) -> *mut u8 {
        let at = self.at;
        std::mem::forget(self);
        at
    }
}

impl Drop for Mapping {
    fn drop(&mut self) {
        // SAFETY: `at` and `len` are the mapping this value made, unmapped once.
        unsafe { ffi::munmap(self.at.cast(), self.len) };
    }
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

/// Ends this process at once, without unwinding or flushing.
pub fn exit_now(code: i32) -> ! {
    // SAFETY: _exit never returns and is async-signal-safe.
    unsafe { ffi::_exit(code) }
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

/// Sets the real, effective and saved user and group ids (in this user namespace).
#[cfg(target_os = "linux")]
pub fn set_ids(uid: u32, gid: u32) -> io::Result<()> {
    // SAFETY: setresgid takes integers; the raw call changes this thread only, which is the
    // whole process in a child that has one.
    check(unsafe { ffi::syscall(ffi::nr::SETRESGID, gid, gid, gid) })?;
    // SAFETY: as above.
    check(unsafe { ffi::syscall(ffi::nr::SETRESUID, uid, uid, uid) }).map(drop)
}

/// Leaves every supplementary group (needs CAP_SETGID).
#[cfg(target_os = "linux")]
pub fn drop_groups() -> io::Result<()> {
    // SAFETY: a count of 0 means the list pointer is not read.
    check(unsafe { ffi::syscall(ffi::nr::SETGROUPS, 0usize, 0usize) }).map(drop)
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

/// Forbids gaining privileges by exec (set-user-id files, file capabilities), for good.
#[cfg(target_os = "linux")]
pub fn no_new_privs() -> io::Result<()> {
    // SAFETY: prctl reads integer arguments.
    check_int(unsafe { ffi::prctl(ffi::PR_SET_NO_NEW_PRIVS, 1 as c_ulong, 0 as c_ulong, 0 as c_ulong, 0 as c_ulong) })
}

/// This process's effective user and group ids.
pub fn effective_ids() -> (u32, u32) {
    // SAFETY: geteuid takes nothing and cannot fail.
    let uid = unsafe { ffi::geteuid() };
    // SAFETY: getegid takes nothing and cannot fail.
    (uid, unsafe { ffi::getegid() })
}

/// The driver's alone: a handler for the faults of the solution's thread. The judge's own
/// binary installs none; every submission's driver and the tests do.
#[cfg_attr(not(test), allow(dead_code))]
pub mod fault {
    use super::*;

    /// What `on_memory_fault` installed: the hook, and the actions of SIGSEGV and SIGBUS that
    /// were there before it.
    type Installed = (fn(usize), [ffi::SigAction; 2]);
    static FAULT: std::sync::OnceLock<Installed> = std::sync::OnceLock::new();

    extern "C" fn on_fault(signal: c_int, info: *mut std::os::raw::c_void, _: *mut std::os::raw::c_void) {
        // SAFETY: the kernel passes a valid siginfo_t for SA_SIGINFO handlers; si_code is its third
        // int, and si_addr a pointer at a fixed offset for SIGSEGV and SIGBUS.
        let (code, address) = unsafe {
            let info = info.cast::<u8>();
            (*info.add(ffi::SI_CODE_OFFSET).cast::<c_int>(), *info.add(ffi::SI_ADDR_OFFSET).cast::<usize>())
        };
        // Installed before the handler, never changed: reading it takes no lock.
        let Some((hook, previous)) = FAULT.get() else { return };
        hook(address);
        // Not handled: put back the action that was there (std's, which names stack overflows of
        // other threads), as if this handler had never been installed.
        let previous = &previous[usize::from(signal != SIGSEGV)];
        // SAFETY: restoring a sigaction the kernel gave us.
        unsafe { ffi::sigaction(signal, previous, std::ptr::null_mut()) };
        // A fault happens again under it when this handler returns; a signal a process sent (a
        // code of 0 or less) does not: send it again, to reach that action as it would have.
        if code <= 0 {
            // SAFETY: the signal stays pending, for this thread, until this handler returns.
            unsafe { ffi::pthread_kill(ffi::pthread_self(), signal) };
        }
    }

    /// Calls `hook(fault address)` on SIGSEGV and SIGBUS, on the alternate signal stack std gives
    /// each thread. The hook must only do what is safe in a signal handler; if it returns, the
    /// signal goes on to the action that was there before, as if this one had not been installed
    /// (a fault by running again, a signal sent by a process by being sent again). Install it
    /// once, before other threads start.
    pub fn on_memory_fault(hook: fn(usize)) -> io::Result<()> {
        let mut previous = [const { ffi::SigAction::new(0, 0) }; 2];
        for (old, signal) in previous.iter_mut().zip([SIGSEGV, SIGBUS]) {
            // SAFETY: `old` is valid for the call; a null new action only reads the current one.
            check_int(unsafe { ffi::sigaction(signal, std::ptr::null(), old) })?;
        }
        if FAULT.set((hook, previous)).is_err() {
            return Err(io::Error::from(io::ErrorKind::AlreadyExists));
        }
        let handler: ffi::Handler = on_fault;
        let action = ffi::SigAction::new(handler as usize, ffi::SA_SIGINFO | ffi::SA_ONSTACK);
        for signal in [SIGSEGV, SIGBUS] {
            // SAFETY: `action` is valid for the call; the old action was read above.
            check_int(unsafe { ffi::sigaction(signal, &action, std::ptr::null_mut()) })?;
        }
        Ok(())
    }
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
        assert!(hung_up(r).unwrap());
        assert_eq!(read(r, &mut buffer).unwrap(), 0);
        close(r);
        assert!(read(r, &mut buffer).is_err());
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
        let mut source = *b"/proc/self/fd/\0\0\0\0\0\0";
        let digits = if usr < 10 { 1 } else { 2 };
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
