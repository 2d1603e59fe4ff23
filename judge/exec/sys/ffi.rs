//! The judge's foreign declarations, per system, from its headers (as the `libc` crate
//! transcribes them), with a size or offset assertion where a layout is the system's own; the
//! driver's, which the judge shares, are `driver_io::ffi`, re-exported here.

#[cfg(target_os = "linux")]
use std::os::raw::{c_char, c_long, c_void};
use std::os::raw::{c_int, c_ulong};

pub use super::driver_io::ffi::*;

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
    pub type PollCount = std::os::raw::c_ulong;
}
#[cfg(target_os = "macos")]
pub mod os {
    use std::os::raw::{c_int, c_ulong};
    pub const O_NONBLOCK: c_int = 0x0004;
    pub const F_DUPFD_CLOEXEC: c_int = 67;
    pub const RLIMIT_NOFILE: c_int = 8;
    pub const TIOCGWINSZ: c_ulong = 0x4008_7468;
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

#[cfg(all(test, target_os = "linux"))]
pub const F_GETFD: c_int = 1;
pub const F_SETFD: c_int = 2;
pub const FD_CLOEXEC: c_int = 1;
pub const F_GETFL: c_int = 3;
pub const F_SETFL: c_int = 4;
pub const RLIMIT_FSIZE: c_int = 1;
pub const RLIMIT_STACK: c_int = 3;
pub const RLIMIT_CORE: c_int = 4;

extern "C" {
    #[cfg(target_os = "linux")]
    pub fn close(fd: c_int) -> c_int;
    pub fn dup2(from: c_int, to: c_int) -> c_int;
    pub fn setrlimit(resource: c_int, limit: *const Rlimit) -> c_int;
    #[cfg(target_os = "macos")]
    pub fn getrlimit(resource: c_int, limit: *mut Rlimit) -> c_int;
    pub fn kill(pid: c_int, signal: c_int) -> c_int;
    pub fn geteuid() -> u32;
    pub fn getegid() -> u32;
    pub fn fcntl(fd: c_int, command: c_int, ...) -> c_int;
    pub fn poll(fds: *mut PollFd, count: PollCount, timeout_ms: c_int) -> c_int;
    pub fn ioctl(fd: c_int, request: c_ulong, ...) -> c_int;
    pub fn setsid() -> c_int;
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

pub fn c_int_from(value: usize) -> c_int {
    c_int::try_from(value).unwrap_or(c_int::MAX)
}
