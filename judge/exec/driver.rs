//! The driver: the `main` of every submission's own binary, never part of the judge. It reads
//! requests on the judge's pipe, calls the solution, and answers on the other pipe, both
//! pipes read and written by the system-call instruction itself on Linux, so that no function
//! the solution defines (its own `read`, say) stands in the way. It records a panic's message
//! and place, reports a stack overflow only when the fault hit the guard below the solution's
//! stack, reports an allocation that failed (through `Allocator`, the binary's global
//! allocator), and flushes what the solution printed before each answer, so the judge reads it
//! before the answer. It measures nothing: every figure of time and memory is the judge's
//! reading of the kernel.
//!
//! The solution runs on the main thread, whose stack the judge sets before exec (its size is
//! `RLIMIT_STACK`), or, where the runner says so, on a thread of the stack asked for.
//!
//! Its parent module provides `sys`, `wire` and `Solve`, the solution's function type.
//! Command line: `<unit> <stack bytes> <main|thread>`; `unit` picks the solution of a batch
//! build.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::io::{self, Read, Write};
use std::os::fd::RawFd;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicPtr, AtomicU32, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread;

use super::sys;
use super::wire::{self, Exit, Refusal, Reply, Request};
use super::Solve;

/// How far from the bottom of the solution's stack a fault still counts as an overflow: the
/// guard page, and the thread's bookkeeping beside it.
const GUARD_WINDOW: usize = 1 << 20;

/// The binary's global allocator: the system's, and a frame to the judge when an allocation
/// fails (std then aborts), so that the judge can tell a failed allocation from another abort.
pub struct Allocator;

impl Allocator {
    /// `block` as the system gave it, the judge told when it is null (`size` bytes failed).
    fn told(block: *mut u8, size: usize) -> *mut u8 {
        if block.is_null() {
            let frame = wire::allocation_frame(SERVING.load(Ordering::Acquire), size as u64);
            let _ = sys::write_all(wire::REPLY_FD, &frame);
        }
        block
    }
}

// SAFETY: every method hands the call to the system allocator unchanged, or refuses it (null)
// before the system sees it; on failure it only writes a frame built on the stack.
unsafe impl GlobalAlloc for Allocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is System's.
        Allocator::told(unsafe { System.alloc(layout) }, layout.size())
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as above.
        Allocator::told(unsafe { System.alloc_zeroed(layout) }, layout.size())
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(block, layout) }
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        // SAFETY: as above.
        Allocator::told(unsafe { System.realloc(block, layout, size) }, size)
    }
}

/// Tells the judge why the driver cannot serve, then ends.
fn refuse(why: Refusal) -> ! {
    let _ = sys::write_all(wire::REPLY_FD, &Reply::Refused { why }.encode(SERVING.load(Ordering::Acquire)));
    std::process::exit(Exit::Refused as i32)
}

struct Panic {
    message: String,
    file: String,
    line: u32,
    column: u32,
}

static LAST_PANIC: Mutex<Option<Panic>> = Mutex::new(None);
/// The lowest address of the solution's stack; 0 before it is known.
static STACK_LOW: AtomicUsize = AtomicUsize::new(0);
/// The request being served, for a report sent from the fault handler.
static SERVING: AtomicU32 = AtomicU32::new(0);
/// The ledger the judge shares (see `wire::LEDGER_FD`), mapped at start; null without one.
static LEDGER: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());

thread_local! {
    /// Whether this thread is the one that calls the solution: the panic hook records panics
    /// there alone.
    static CALLS: Cell<bool> = const { Cell::new(false) };
}

pub fn main(solutions: &[Solve]) {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (solve, stack, on_thread) = match &args[..] {
        [unit, stack, place] => match (unit.parse::<usize>(), stack.parse::<usize>(), place.as_str()) {
            (Ok(unit), Ok(stack), "main" | "thread") if unit < solutions.len() => {
                (solutions[unit], stack, place == "thread")
            }
            _ => refuse(Refusal::BadArguments),
        },
        _ => refuse(Refusal::BadArguments),
    };
    if let Ok(ledger) = sys::Mapping::shared(wire::LEDGER_FD, wire::LEDGER_BYTES) {
        LEDGER.store(ledger.keep(), Ordering::Release);
    }
    panic::set_hook(Box::new(record_panic));
    // Without the hook an overflow still kills the process; it is only named less precisely.
    let _ = sys::fault::on_memory_fault(on_fault);
    let exit = match on_thread {
        false => serve(solve, stack),
        true => {
            let worker = thread::Builder::new()
                .name("solution".to_string())
                .stack_size(stack)
                .spawn(move || serve(solve, stack));
            match worker {
                Ok(worker) => worker.join().unwrap_or(Exit::Panicked),
                Err(_) => refuse(Refusal::NoStack),
            }
        }
    };
    let _ = io::stdout().flush();
    std::process::exit(exit as i32);
}

fn record_panic(info: &panic::PanicHookInfo) {
    let payload = info.payload();
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "Box<dyn Any>".to_string());
    let (file, line, column) =
        info.location().map_or((String::new(), 0, 0), |l| (l.file().to_string(), l.line(), l.column()));
    if CALLS.with(Cell::get) {
        *LAST_PANIC.lock().unwrap_or_else(|p| p.into_inner()) = Some(Panic { message, file, line, column });
    } else {
        // A thread the solution started: say so where the default hook would.
        let name = thread::current().name().unwrap_or("<unnamed>").to_string();
        eprintln!("thread '{name}' panicked at {file}:{line}:{column}:\n{message}");
    }
}

fn on_fault(address: usize) {
    let low = STACK_LOW.load(Ordering::Acquire);
    if low == 0 || address < low.saturating_sub(GUARD_WINDOW) || address > low.saturating_add(GUARD_WINDOW) {
        return;
    }
    let _ = sys::write_all(wire::REPLY_FD, &wire::overflow_frame(SERVING.load(Ordering::Acquire)));
    sys::exit_now(Exit::StackOverflow as i32);
}

/// The request pipe, read by direct system calls.
struct Requests(RawFd);

impl Read for Requests {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        sys::read(self.0, buffer)
    }
}

/// Serves requests until the judge closes the pipe; returns how the process should end.
fn serve(solve: Solve, stack: usize) -> Exit {
    // The stack ends `stack` bytes below its top, which is a few pages above this frame.
    let top = 0u8;
    STACK_LOW.store((&top as *const u8 as usize).saturating_sub(stack), Ordering::Release);
    CALLS.with(|calls| calls.set(true));
    let mut requests = Requests(wire::REQUEST_FD);
    let send = |seq: u32, reply: Reply| {
        let _ = io::stdout().flush();
        sys::write_all(wire::REPLY_FD, &reply.encode(seq))
    };
    if send(0, Reply::Ready).is_err() {
        return Exit::ReplyClosed;
    }
    let mut buffer = Vec::new();
    loop {
        let (seq, request) = match wire::read_request(&mut requests, &mut buffer) {
            Ok(Some(request)) => request,
            Ok(None) => return Exit::Served,
            Err(_) => refuse(Refusal::BadRequest),
        };
        SERVING.store(seq, Ordering::Release);
        let served = match request {
            Request::Call { values, dry: true } => {
                drop(values);
                Ok(Reply::Answer { length: 0, answer: Vec::new() })
            }
            Request::Call { values, dry: false } => call(solve, values.into_owned()).map(|answer| {
                let length = answer.len() as u64;
                Reply::Answer { length, answer: answer.into_bytes() }
            }),
            Request::Batch { cases } => batch(solve, cases, seq).map(|packed| Reply::Answers { packed }),
        };
        let reply = match served {
            Ok(reply) => reply,
            Err(panic) => {
                let dropped = panic.message.len().saturating_sub(wire::MESSAGE_KEPT) as u64;
                let reply = Reply::Panicked {
                    message: panic.message,
                    file: panic.file,
                    line: panic.line,
                    column: panic.column,
                    dropped,
                };
                return match send(seq, reply) {
                    Ok(()) => Exit::Panicked,
                    Err(_) => Exit::ReplyClosed,
                };
            }
        };
        if send(seq, reply).is_err() {
            return Exit::ReplyClosed;
        }
    }
}

/// Calls the solution; a panic comes back as its record.
fn call(solve: Solve, values: Vec<i32>) -> Result<String, Panic> {
    *LAST_PANIC.lock().unwrap_or_else(|p| p.into_inner()) = None;
    panic::catch_unwind(AssertUnwindSafe(|| solve(values))).map_err(|_| {
        LAST_PANIC.lock().unwrap_or_else(|p| p.into_inner()).take().unwrap_or(Panic {
            message: "a panic whose hook did not run (the solution replaced it)".to_string(),
            file: String::new(),
            line: 0,
            column: 0,
        })
    })
}

/// Calls the solution on each case of batch `seq` in turn, writing each answer in the ledger
/// as it is given, so that the judge can tell how far a batch that ends badly got.
fn batch(solve: Solve, cases: Vec<Vec<i32>>, seq: u32) -> Result<Vec<u8>, Panic> {
    let mut packed = Vec::with_capacity(cases.len() * 9);
    let ledger = Ledger::open(seq);
    for (answered, values) in (1..).zip(cases) {
        let from = packed.len();
        wire::pack(&mut packed, call(solve, values)?.as_bytes());
        if let Some(ledger) = &ledger {
            ledger.record(answered, from, &packed[from..]);
        }
    }
    Ok(packed)
}

/// The ledger, for one batch.
struct Ledger(*mut u8);

impl Ledger {
    /// The ledger, made ready for batch `seq` with nothing answered; None without one.
    fn open(seq: u32) -> Option<Ledger> {
        let ledger = Ledger(Some(LEDGER.load(Ordering::Acquire)).filter(|p| !p.is_null())?);
        ledger.word(1).store(0, Ordering::Release);
        ledger.word(2).store(0, Ordering::Release);
        ledger.word(0).store(seq, Ordering::Release);
        Some(ledger)
    }

    /// Word `k` of the ledger's head.
    fn word(&self, k: usize) -> &AtomicU32 {
        // SAFETY: the head's three words lie in the mapping, which is page-aligned and mapped
        // for the process's life; other processes only read them.
        unsafe { &*self.0.add(4 * k).cast::<AtomicU32>() }
    }

    /// Testcase `answered` (counting from 1) answered: its packed answer, at `from` of the
    /// packed list, where it fits; then the counts, which say the answer is there.
    fn record(&self, answered: u32, from: usize, answer: &[u8]) {
        let at = wire::LEDGER_HEAD + from;
        if at + answer.len() <= wire::LEDGER_BYTES {
            // SAFETY: the bytes lie in the mapping (checked above); nothing in this process
            // holds a reference to them.
            unsafe { std::ptr::copy_nonoverlapping(answer.as_ptr(), self.0.add(at), answer.len()) };
            self.word(2).store(answered, Ordering::Release);
        }
        self.word(1).store(answered, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    /// The driver's allocator is the system's, with a word to the judge only when one fails.
    #[test]
    fn the_drivers_allocator_hands_blocks_through() {
        use std::alloc::{GlobalAlloc, Layout};
        let layout = Layout::from_size_align(64, 8).unwrap();
        // SAFETY: the layout is valid and non-zero; every block is freed with its layout.
        unsafe {
            let block = super::Allocator.alloc_zeroed(layout);
            assert!(!block.is_null() && *block.add(63) == 0);
            *block = 7;
            let grown = super::Allocator.realloc(block, layout, 4096);
            assert!(!grown.is_null() && *grown == 7, "realloc keeps the bytes");
            super::Allocator.dealloc(grown, Layout::from_size_align(4096, 8).unwrap());
        }
    }
}
