//! The few C functions std links but does not wrap, each behind a safe wrapper. Linux only
//! (the `exec` module refuses to build elsewhere). The wrappers meant for the time between
//! fork and exec allocate nothing, not even for an error.
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
    pub const F_GETFL: c_int = 3;
    pub const F_SETFL: c_int = 4;
    pub const O_NONBLOCK: c_int = 0o4000;
    pub const POLLIN: i16 = 0x1;
    pub const POLLOUT: i16 = 0x4;

    #[repr(C)]
    pub struct PollFd {
        pub fd: c_int,
        pub events: i16,
        pub revents: i16,
    }
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
        pub fn poll(fds: *mut PollFd, count: c_ulong, timeout_ms: c_int) -> c_int;
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

/// Sends SIGKILL to every process in the group `pgid`.
pub fn kill_group(pgid: u32) -> io::Result<()> {
    let pgid = i32::try_from(pgid).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
    // SAFETY: kill takes two integers and touches no memory of ours.
    ffi::check(unsafe { ffi::kill(-pgid, SIGKILL) })
}

/// Sets both the soft and the hard limit, so the process cannot raise it again (unless
/// privileged).
pub fn limit(resource: Resource, value: u64) -> io::Result<()> {
    let which = match resource {
        Resource::AddressSpace => ffi::RLIMIT_AS,
        Resource::FileSize => ffi::RLIMIT_FSIZE,
        Resource::CoreDump => ffi::RLIMIT_CORE,
    };
    let limit = ffi::Rlimit { current: value, maximum: value };
    // SAFETY: `limit` is a valid rlimit that outlives the call.
    ffi::check(unsafe { ffi::setrlimit(which, &limit) })
}

/// Asks the kernel to SIGKILL this process when the thread that started it ends; fails when
/// `parent` is already gone. For use between fork and exec.
pub fn die_with_parent(parent: u32) -> io::Result<()> {
    // SAFETY: prctl with PR_SET_PDEATHSIG reads one integer argument.
    ffi::check(unsafe { ffi::prctl(ffi::PR_SET_PDEATHSIG, SIGKILL as ffi::Word) })?;
    // SAFETY: getppid has no arguments and cannot fail.
    match u32::try_from(unsafe { ffi::getppid() }) {
        Ok(now) if now == parent => Ok(()),
        // ESRCH, made without allocating: this runs between fork and exec.
        _ => Err(io::Error::from_raw_os_error(3)),
    }
}

/// Makes `to` a copy of `from` that survives exec. For use between fork and exec.
pub fn move_fd(from: i32, to: i32) -> io::Result<()> {
    // SAFETY: dup2 takes two descriptors; a bad one is an error, not undefined behaviour.
    let result = unsafe { ffi::dup2(from, to) };
    if result == -1 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Asks for a pipe buffer of `bytes` (rounded up to pages by the kernel), so a whole request
/// goes in one write instead of a handful of wake-ups; returns the size granted.
pub fn widen_pipe(pipe: &impl std::os::fd::AsRawFd, bytes: usize) -> io::Result<usize> {
    let bytes = ffi::c_int_from(bytes);
    // SAFETY: F_SETPIPE_SZ reads one integer argument; a descriptor that is not a pipe is
    // an error, not undefined behaviour.
    let granted = unsafe { ffi::fcntl(pipe.as_raw_fd(), ffi::F_SETPIPE_SZ, bytes) };
    ffi::check(granted)?;
    Ok(granted as usize)
}

/// Makes reads and writes on `fd` return `WouldBlock` instead of waiting.
pub fn set_nonblocking(fd: &impl std::os::fd::AsRawFd) -> io::Result<()> {
    // SAFETY: F_GETFL takes no argument and F_SETFL one integer; a bad descriptor is an
    // error, not undefined behaviour.
    let flags = unsafe { ffi::fcntl(fd.as_raw_fd(), ffi::F_GETFL) };
    ffi::check(flags)?;
    // SAFETY: as above.
    ffi::check(unsafe { ffi::fcntl(fd.as_raw_fd(), ffi::F_SETFL, flags | ffi::O_NONBLOCK) })
}

/// Waits up to `timeout` until `read` has data (or its writer is gone), or `write`, when
/// given, can take more; says which. An interrupted wait reports neither.
pub fn wait_for_pipes(
    read: &impl std::os::fd::AsRawFd,
    write: Option<&impl std::os::fd::AsRawFd>,
    timeout: std::time::Duration,
) -> io::Result<(bool, bool)> {
    let mut fds = [
        ffi::PollFd { fd: read.as_raw_fd(), events: ffi::POLLIN, revents: 0 },
        // A negative descriptor is skipped by poll.
        ffi::PollFd { fd: write.map_or(-1, |w| w.as_raw_fd()), events: ffi::POLLOUT, revents: 0 },
    ];
    // Rounded up, so a short wait is not a busy loop.
    let millis = ffi::c_int_from(timeout.as_micros().div_ceil(1000) as usize);
    // SAFETY: `fds` is a valid array of two pollfd structs for the whole call.
    match unsafe { ffi::poll(fds.as_mut_ptr(), 2, millis) } {
        -1 if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted => Ok((false, false)),
        -1 => Err(io::Error::last_os_error()),
        _ => Ok((fds[0].revents != 0, fds[1].revents != 0)),
    }
}

/// Ends the process at once, without unwinding or flushing: safe inside a signal handler.
pub fn exit_now(code: i32) -> ! {
    // SAFETY: _exit never returns and is async-signal-safe.
    unsafe { ffi::_exit(code) }
}

static FAULT_HOOK: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
static mut PREVIOUS: [Option<ffi::SigAction>; 2] = [None, None];

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

/// The foreign functions, each through its safe wrapper.
#[cfg(test)]
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

    #[test]
    fn a_nonblocking_pipe_says_would_block_and_poll_says_when_it_may_go_on() {
        use std::io::{Read, Write};
        use std::time::{Duration, Instant};
        let (mut reader, mut writer) = std::io::pipe().unwrap();
        set_nonblocking(&reader).unwrap();
        set_nonblocking(&writer).unwrap();
        let mut buffer = [0u8; 16];
        assert_eq!(reader.read(&mut buffer).unwrap_err().kind(), std::io::ErrorKind::WouldBlock);
        // Nothing to read: the wait lasts its timeout, and the empty pipe can take more.
        let start = Instant::now();
        assert_eq!(wait_for_pipes(&reader, Some(&writer), Duration::from_millis(30)).unwrap(), (false, true));
        assert_eq!(
            wait_for_pipes(&reader, None::<&std::io::PipeWriter>, Duration::from_millis(30)).unwrap(),
            (false, false)
        );
        assert!(start.elapsed() >= Duration::from_millis(30));
        // Fill the pipe until it refuses: then it is not writable, and it is readable.
        let chunk = vec![1u8; 1 << 16];
        while writer.write(&chunk).is_ok() {}
        assert_eq!(wait_for_pipes(&reader, Some(&writer), Duration::ZERO).unwrap(), (true, false));
        drop(writer);
        let mut all = Vec::new();
        let _ = reader.read_to_end(&mut all);
        // The writer is gone: the reader is woken, and reads the end.
        assert_eq!(
            wait_for_pipes(&reader, None::<&std::io::PipeWriter>, Duration::from_secs(5)).unwrap(),
            (true, false)
        );
        assert_eq!(reader.read(&mut buffer).unwrap(), 0);
    }
}
