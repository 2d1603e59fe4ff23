//! The driver's I/O: the part of `sys` a submission's driver uses, and the only part its
//! build includes (as its `sys` module). Its requests and replies go by the system-call
//! instruction itself on Linux (`direct`), so that no function the solution defines stands in
//! their way; by the C library on macOS. Also its shared ledger (`Mapping`), its fault handler
//! and its exit. The judge uses the same functions through `exec::sys`.
//!
//! Self-contained: no path outside this file, since the driver's crate has nothing else.

use std::io;
use std::os::fd::RawFd;
use std::os::raw::c_int;

/// The signals of a memory fault: the same number on Linux and macOS for SIGSEGV, not for
/// SIGBUS.
pub const SIGSEGV: i32 = 11;
#[cfg(target_os = "linux")]
pub const SIGBUS: i32 = 7;
#[cfg(target_os = "macos")]
pub const SIGBUS: i32 = 10;
/// Interrupted: a call to make again.
pub const EINTR: i32 = 4;

/// The C functions and layouts the driver needs, per system, from its headers (as the `libc`
/// crate transcribes them); the judge's other declarations are in `sys::ffi`, which re-exports
/// these.
pub mod ffi {
    use std::os::raw::{c_int, c_void};

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

    pub type Handler = extern "C" fn(c_int, *mut c_void, *mut c_void);

    /// mmap(2)'s protections and its shared mapping, the same on Linux and macOS.
    pub const PROT_READ: c_int = 1;
    pub const PROT_WRITE: c_int = 2;
    pub const MAP_SHARED: c_int = 1;
    /// sigaction(2)'s flags, and where `siginfo_t` holds the code (after the signal number
    /// and errno, on both) and the fault address.
    #[cfg(target_os = "linux")]
    pub const SA_SIGINFO: c_int = 4;
    #[cfg(target_os = "linux")]
    pub const SA_ONSTACK: c_int = 0x0800_0000;
    /// After three ints and padding.
    #[cfg(target_os = "linux")]
    pub const SI_ADDR_OFFSET: usize = 16;
    #[cfg(target_os = "macos")]
    pub const SA_SIGINFO: c_int = 0x0040;
    #[cfg(target_os = "macos")]
    pub const SA_ONSTACK: c_int = 0x0001;
    /// After signal number, errno, code, pid, uid and status (six ints).
    #[cfg(target_os = "macos")]
    pub const SI_ADDR_OFFSET: usize = 24;
    pub const SI_CODE_OFFSET: usize = 8;

    /// read(2) and write(2), by number (x86_64's and aarch64's).
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    pub mod nr {
        pub const READ: i64 = 0;
        pub const WRITE: i64 = 1;
    }
    #[cfg(all(target_os = "linux", target_arch = "aarch64"))]
    pub mod nr {
        pub const READ: i64 = 63;
        pub const WRITE: i64 = 64;
    }

    extern "C" {
        // Linux reads and writes by the system-call instruction (see `direct`).
        #[cfg(target_os = "macos")]
        pub fn read(fd: c_int, buffer: *mut c_void, count: usize) -> isize;
        #[cfg(target_os = "macos")]
        pub fn write(fd: c_int, buffer: *const c_void, count: usize) -> isize;
        pub fn sigaction(signal: c_int, new: *const SigAction, old: *mut SigAction) -> c_int;
        pub fn _exit(status: c_int) -> !;
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
}

/// A C call's result: its errno as an error where it failed (-1).
pub fn check_int(result: c_int) -> io::Result<()> {
    match result {
        -1 => Err(io::Error::last_os_error()),
        _ => Ok(()),
    }
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

/// Ends this process at once, without unwinding or flushing.
pub fn exit_now(code: i32) -> ! {
    // SAFETY: _exit never returns and is async-signal-safe.
    unsafe { ffi::_exit(code) }
}

/// A handler for the faults of the solution's thread. The judge's own binary installs none;
/// every submission's driver and the tests do.
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
