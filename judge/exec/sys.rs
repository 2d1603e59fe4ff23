//! The few C functions std links but does not wrap, each behind a safe wrapper. Linux only:
//! elsewhere every wrapper reports `Unsupported` and the judge runs without the limit.
//!
//! This file is self-contained (no `crate::` paths): the judge uses it as `exec::sys`, and
//! every submission's driver includes the same text, so both ends share one declaration.

use std::io;

/// A limit the kernel enforces on a process and everything it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resource {
    /// Address space, in bytes: an allocation past it fails.
    AddressSpace,
    /// The largest file it may write, in bytes: a write past it gets SIGXFSZ.
    FileSize,
    /// Core dump size: 0 keeps a crash from writing one.
    CoreDump,
}

/// The signal numbers the judge names; the same on every Linux architecture it runs on.
pub const SIGABRT: i32 = 6;
pub const SIGKILL: i32 = 9;
pub const SIGSEGV: i32 = 11;
pub const SIGBUS: i32 = 7;
pub const SIGXFSZ: i32 = 25;

#[cfg(target_os = "linux")]
mod ffi {
    use std::os::raw::{c_int, c_ulong, c_void};

    #[repr(C)]
    pub struct Rlimit {
        pub current: u64,
        pub maximum: u64,
    }

    /// glibc's `struct sigaction` on x86_64 and aarch64.
    #[repr(C)]
    pub struct SigAction {
        pub handler: usize,
        pub mask: [u64; 16],
        pub flags: c_int,
        pub restorer: usize,
    }

    pub const RLIMIT_FSIZE: c_int = 1;
    pub const RLIMIT_CORE: c_int = 4;
    pub const RLIMIT_AS: c_int = 9;
    pub const PR_SET_PDEATHSIG: c_int = 1;
    pub const F_SETPIPE_SZ: c_int = 1031;
    pub const SA_SIGINFO: c_int = 4;
    pub const SA_ONSTACK: c_int = 0x0800_0000;
    /// The fault address in `siginfo_t`, after three ints and padding.
    pub const SI_ADDR_OFFSET: usize = 16;

    extern "C" {
        pub fn kill(pid: c_int, signal: c_int) -> c_int;
        pub fn setrlimit(resource: c_int, limit: *const Rlimit) -> c_int;
        pub fn prctl(option: c_int, ...) -> c_int;
        pub fn getppid() -> c_int;
        pub fn dup2(from: c_int, to: c_int) -> c_int;
        pub fn fcntl(fd: c_int, command: c_int, ...) -> c_int;
        pub fn sigaction(signal: c_int, new: *const SigAction, old: *mut SigAction) -> c_int;
        pub fn _exit(status: c_int) -> !;
    }

    pub fn check(result: c_int) -> std::io::Result<()> {
        if result == -1 {
            Err(std::io::Error::last_os_error())
        } else {
            Ok(())
        }
    }

    pub type Handler = extern "C" fn(c_int, *mut c_void, *mut c_void);
    pub type Word = c_ulong;

    pub fn c_int_from(value: usize) -> c_int {
        c_int::try_from(value).unwrap_or(c_int::MAX)
    }
}

#[cfg(not(target_os = "linux"))]
fn unsupported() -> io::Error {
    io::Error::new(io::ErrorKind::Unsupported, "needs Linux")
}

/// Sends SIGKILL to every process in the group `pgid`.
pub fn kill_group(pgid: u32) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        let pgid = i32::try_from(pgid).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
        // SAFETY: kill takes two integers and touches no memory of ours.
        ffi::check(unsafe { ffi::kill(-pgid, SIGKILL) })
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = pgid;
        Err(unsupported())
    }
}

/// Sets both the soft and the hard limit, so the process cannot raise it again (unless
/// privileged).
pub fn limit(resource: Resource, value: u64) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        let which = match resource {
            Resource::AddressSpace => ffi::RLIMIT_AS,
            Resource::FileSize => ffi::RLIMIT_FSIZE,
            Resource::CoreDump => ffi::RLIMIT_CORE,
        };
        let limit = ffi::Rlimit { current: value, maximum: value };
        // SAFETY: `limit` is a valid rlimit that outlives the call.
        ffi::check(unsafe { ffi::setrlimit(which, &limit) })
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (resource, value);
        Err(unsupported())
    }
}

/// Asks the kernel to SIGKILL this process when the thread that started it ends; fails when
/// `parent` is already gone. For use between fork and exec.
pub fn die_with_parent(parent: u32) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: prctl with PR_SET_PDEATHSIG reads one integer argument.
        ffi::check(unsafe { ffi::prctl(ffi::PR_SET_PDEATHSIG, SIGKILL as ffi::Word) })?;
        // SAFETY: getppid has no arguments and cannot fail.
        match u32::try_from(unsafe { ffi::getppid() }) {
            Ok(now) if now == parent => Ok(()),
            _ => Err(io::Error::other("the judge ended before its child started")),
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = parent;
        Err(unsupported())
    }
}

/// Makes `to` a copy of `from` that survives exec. For use between fork and exec.
pub fn move_fd(from: i32, to: i32) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: dup2 takes two descriptors; a bad one is an error, not undefined behaviour.
        let result = unsafe { ffi::dup2(from, to) };
        if result == -1 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (from, to);
        Err(unsupported())
    }
}

/// Asks for a pipe buffer of `bytes` (rounded up to pages by the kernel), so a whole request
/// goes in one write instead of a handful of wake-ups; returns the size granted.
pub fn widen_pipe(pipe: &impl std::os::fd::AsRawFd, bytes: usize) -> io::Result<usize> {
    #[cfg(target_os = "linux")]
    {
        let bytes = ffi::c_int_from(bytes);
        // SAFETY: F_SETPIPE_SZ reads one integer argument; a descriptor that is not a pipe is
        // an error, not undefined behaviour.
        let granted = unsafe { ffi::fcntl(pipe.as_raw_fd(), ffi::F_SETPIPE_SZ, bytes) };
        ffi::check(granted)?;
        Ok(granted as usize)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (pipe, bytes);
        Err(unsupported())
    }
}

/// Ends the process at once, without unwinding or flushing: safe inside a signal handler.
pub fn exit_now(code: i32) -> ! {
    #[cfg(target_os = "linux")]
    // SAFETY: _exit never returns and is async-signal-safe.
    unsafe {
        ffi::_exit(code)
    }
    #[cfg(not(target_os = "linux"))]
    std::process::exit(code)
}

#[cfg(target_os = "linux")]
static FAULT_HOOK: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
#[cfg(target_os = "linux")]
static mut PREVIOUS: [Option<ffi::SigAction>; 2] = [None, None];

#[cfg(target_os = "linux")]
extern "C" fn on_fault(signal: std::os::raw::c_int, info: *mut std::os::raw::c_void, _: *mut std::os::raw::c_void) {
    // SAFETY: the kernel passes a valid siginfo_t for SA_SIGINFO handlers; si_addr is a pointer
    // at a fixed offset for SIGSEGV and SIGBUS.
    let address = unsafe { *(info.cast::<u8>().add(ffi::SI_ADDR_OFFSET).cast::<usize>()) };
    let hook = FAULT_HOOK.load(std::sync::atomic::Ordering::Acquire);
    if hook != 0 {
        // SAFETY: only `on_memory_fault` stores here, and it stores a `fn(usize)`.
        let hook: fn(usize) = unsafe { std::mem::transmute::<usize, fn(usize)>(hook) };
        hook(address);
    }
    // Not handled: put back the handler that was there (std's, which names stack overflows of
    // other threads) and return, so the fault happens again under it.
    let slot = usize::from(signal != SIGSEGV);
    // SAFETY: PREVIOUS is written once, before the handler is installed, and only read here.
    let previous = unsafe { (*std::ptr::addr_of!(PREVIOUS))[slot].as_ref() };
    if let Some(previous) = previous {
        // SAFETY: restoring a sigaction the kernel gave us.
        unsafe { ffi::sigaction(signal, previous, std::ptr::null_mut()) };
    }
}

/// Calls `hook(fault address)` on SIGSEGV and SIGBUS, on the alternate signal stack std gives
/// each thread. The hook must only do what is safe in a signal handler; if it returns, the
/// previous handler takes over. Install it once, before other threads start.
pub fn on_memory_fault(hook: fn(usize)) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        FAULT_HOOK.store(hook as usize, std::sync::atomic::Ordering::Release);
        let handler: ffi::Handler = on_fault;
        let action = ffi::SigAction {
            handler: handler as usize,
            mask: [0; 16],
            flags: ffi::SA_SIGINFO | ffi::SA_ONSTACK,
            restorer: 0,
        };
        for (slot, signal) in [SIGSEGV, SIGBUS].into_iter().enumerate() {
            let mut old = ffi::SigAction { handler: 0, mask: [0; 16], flags: 0, restorer: 0 };
            // SAFETY: both structs are valid for the call; PREVIOUS is not read until a fault.
            unsafe {
                ffi::check(ffi::sigaction(signal, &action, &mut old))?;
                (*std::ptr::addr_of_mut!(PREVIOUS))[slot] = Some(old);
            }
        }
        Ok(())
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = hook;
        Err(unsupported())
    }
}

/// A `<field>: <n> kB` line of a /proc file of this process (`pid` None) or another, in KiB.
pub fn proc_kib(pid: Option<u32>, file: &str, field: &str) -> Option<u64> {
    let path = match pid {
        Some(pid) => format!("/proc/{pid}/{file}"),
        None => format!("/proc/self/{file}"),
    };
    kib_field(&path, field)
}

/// A `<field>: <n> kB` line of a /proc file, in KiB.
pub fn kib_field(path: &str, field: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let line = text.lines().find(|l| l.starts_with(field) && l[field.len()..].starts_with(':'))?;
    line[field.len() + 1..].trim().trim_end_matches("kB").trim().parse().ok()
}

/// Resets this process's peak resident memory (`VmHWM`) to what is resident now, so a later
/// peak counts only what came after. False where the kernel cannot.
pub fn reset_peak() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    use std::process::{Command, Stdio};

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
                move_fd(raw, 7)
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
    fn proc_fields_are_read_in_kib() {
        let rss = proc_kib(None, "status", "VmRSS").unwrap();
        assert!(rss > 100, "{rss}");
        assert!(reset_peak());
        let touched = std::hint::black_box(vec![1u8; 64 << 20]);
        let peak = proc_kib(None, "status", "VmHWM").unwrap();
        assert!(peak >= rss + (48 << 10), "{peak} after touching 64 MiB over {rss}");
        drop(touched);
        assert_eq!(proc_kib(Some(std::process::id()), "status", "VmNope"), None);
    }

    #[test]
    fn a_child_of_a_gone_parent_does_not_start() {
        let spawn = |parent: u32| {
            let mut command = Command::new("true");
            // SAFETY: the closure only calls async-signal-safe functions.
            unsafe { command.pre_exec(move || die_with_parent(parent)) };
            command.status()
        };
        assert!(spawn(std::process::id()).unwrap().success());
        // Not its parent: the check refuses, as it does once the judge has died.
        assert!(spawn(u32::MAX).is_err());
    }
}
