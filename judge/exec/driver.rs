//! The driver: the `main` of every submission's own binary, never part of the judge. It reads
//! requests on the judge's pipe, calls the solution, and answers on the other pipe, both
//! pipes read and written by the system-call instruction itself on Linux, so that no function
//! the solution defines (its own `read`, say) stands in the way. It records a panic's message
//! and place, reports a stack overflow only when the fault hit the guard below the solution's
//! stack, reports an allocation that failed (through `Allocator`, the binary's global
//! allocator), and flushes what the solution printed before each answer, so the judge reads it
//! before the answer.
//!
//! On the native runner every figure of time and memory is the judge's reading of the kernel;
//! the solution runs on the main thread, whose stack the judge sets before exec (its size is
//! `RLIMIT_STACK`): the kernel names that thread by the program's pid, which is how the judge
//! finds it (see `account`). On the portable runner the driver keeps the accounts itself: the
//! solution runs on a thread of the stack asked for; each reply carries the process's CPU time
//! (`getrusage`), that thread's, and what the allocator held; a CPU timer (`ITIMER_PROF`) stops
//! a call at the time limit, and the allocator refuses what would pass the memory limit.
//!
//! Its parent module provides `sys`, `wire` and `Solve`, the solution's function type.
//! Command line: `<unit> <stack bytes>` (native), or `<unit> <stack bytes> <time limit in ns>
//! <memory limit in bytes>` (portable); `unit` picks the solution of a batch build.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::io::{self, Read, Write};
use std::os::fd::RawFd;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicPtr, AtomicU32, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread;
use std::time::Duration;

use super::sys;
use super::wire::{self, Exit, Refusal, Reply, Request, Usage};
use super::Solve;

/// How far from the bottom of the solution's stack a fault still counts as an overflow: the
/// guard page, and the thread's bookkeeping beside it.
const GUARD_WINDOW: usize = 1 << 20;

/// The portable runner's memory limit, in bytes (0: none, on the native runner), and what the
/// allocator holds now and has held at most since the call began.
static MEMORY_LIMIT: AtomicUsize = AtomicUsize::new(0);
static HELD: AtomicUsize = AtomicUsize::new(0);
static MOST_HELD: AtomicUsize = AtomicUsize::new(0);

/// The binary's global allocator: the system's, and a frame to the judge when an allocation
/// fails (std then aborts), so that the judge can tell a failed allocation from another abort.
/// With a memory limit (the portable runner) it counts what it holds and refuses what would
/// pass the limit.
pub struct Allocator;

impl Allocator {
    fn failed(size: usize) {
        let frame = wire::allocation_frame(SERVING.load(Ordering::Acquire), size as u64);
        let _ = sys::write_all(wire::REPLY_FD, &frame);
    }

    /// Counts `more` bytes held; false (and nothing counted) if that passes the limit.
    fn take(more: usize) -> bool {
        let limit = MEMORY_LIMIT.load(Ordering::Relaxed);
        if limit == 0 {
            return true;
        }
        let held = HELD.fetch_add(more, Ordering::Relaxed) + more;
        if held > limit {
            HELD.fetch_sub(more, Ordering::Relaxed);
            return false;
        }
        MOST_HELD.fetch_max(held, Ordering::Relaxed);
        true
    }

    fn give(less: usize) {
        if MEMORY_LIMIT.load(Ordering::Relaxed) != 0 {
            HELD.fetch_sub(less, Ordering::Relaxed);
        }
    }
}

// SAFETY: every method hands the call to the system allocator unchanged, or refuses it (null)
// before the system sees it; on failure it only writes a frame built on the stack.
unsafe impl GlobalAlloc for Allocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is System's.
        let block = if Allocator::take(layout.size()) { unsafe { System.alloc(layout) } } else { std::ptr::null_mut() };
        if block.is_null() {
            Allocator::give(layout.size());
            Allocator::failed(layout.size());
        }
        block
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as above.
        let block =
            if Allocator::take(layout.size()) { unsafe { System.alloc_zeroed(layout) } } else { std::ptr::null_mut() };
        if block.is_null() {
            Allocator::give(layout.size());
            Allocator::failed(layout.size());
        }
        block
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        Allocator::give(layout.size());
        // SAFETY: as above.
        unsafe { System.dealloc(block, layout) }
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        let grows = size.saturating_sub(layout.size());
        if !Allocator::take(grows) {
            Allocator::failed(size);
            return std::ptr::null_mut();
        }
        // SAFETY: as above.
        let moved = unsafe { System.realloc(block, layout, size) };
        match moved.is_null() {
            true => {
                Allocator::give(grows);
                Allocator::failed(size);
            }
            false => Allocator::give(layout.size().saturating_sub(size)),
        }
        moved
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

/// The portable runner's time limit, by the driver's own account.
#[derive(Clone, Copy)]
struct Portable {
    limit: Duration,
}

pub fn main(solutions: &[Solve]) {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let (solve, stack, portable) = match args[..] {
        [unit, stack] if unit < solutions.len() => (solutions[unit], stack, None),
        [unit, stack, limit_ns, memory] if unit < solutions.len() => {
            let limit = Duration::from_nanos(limit_ns as u64);
            MEMORY_LIMIT.store(memory, Ordering::Relaxed);
            (solutions[unit], stack, Some(Portable { limit }))
        }
        _ => refuse(Refusal::BadArguments),
    };
    if let Ok(ledger) = sys::Mapping::shared(wire::LEDGER_FD, wire::LEDGER_BYTES) {
        LEDGER.store(ledger.keep(), Ordering::Release);
    }
    panic::set_hook(Box::new(record_panic));
    // Without the hook an overflow still kills the process; it is only named less precisely.
    let _ = sys::fault::on_memory_fault(on_fault);
    let exit = match portable {
        None => serve(solve, stack, None),
        Some(portable) => {
            let _ = sys::on_signals(&[sys::SIGPROF], out_of_time);
            let worker = thread::Builder::new()
                .name("solution".to_string())
                .stack_size(stack)
                .spawn(move || serve(solve, stack, Some(portable)));
            match worker {
                Ok(worker) => worker.join().unwrap_or(Exit::Panicked),
                Err(_) => refuse(Refusal::NoStack),
            }
        }
    };
    let _ = io::stdout().flush();
    std::process::exit(exit as i32);
}

/// The CPU timer ran out (the portable runner): the call is over its limit.
extern "C" fn out_of_time(_: std::os::raw::c_int) {
    let _ = sys::write_all(wire::REPLY_FD, &wire::time_limit_frame(SERVING.load(Ordering::Acquire)));
    sys::exit_now(Exit::TimeLimit as i32);
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

/// The driver's account of its process for a reply: on the native runner none (the judge
/// reads the kernel's).
fn usage(portable: Option<Portable>, heap_base: usize) -> Usage {
    if portable.is_none() {
        return Usage::default();
    }
    let (cpu_ns, peak_kib) = sys::process_usage();
    let (heap_base, heap_peak) = (heap_base as u64, MOST_HELD.load(Ordering::Relaxed) as u64);
    Usage { cpu_ns, thread_ns: sys::thread_cpu_ns(), heap_base, heap_peak, peak_kib }
}

/// Serves requests until the judge closes the pipe; returns how the process should end.
fn serve(solve: Solve, stack: usize, portable: Option<Portable>) -> Exit {
    // The stack ends `stack` bytes below its top, which is a few pages above this frame.
    let top = 0u8;
    STACK_LOW.store((&top as *const u8 as usize).saturating_sub(stack), Ordering::Release);
    CALLS.with(|calls| calls.set(true));
    let mut requests = Requests(wire::REQUEST_FD);
    let send = |seq: u32, reply: Reply| {
        let _ = io::stdout().flush();
        sys::write_all(wire::REPLY_FD, &reply.encode(seq))
    };
    let mut answered = usage(portable, 0);
    if send(0, Reply::Ready { usage: answered }).is_err() {
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
        let heap_base = HELD.load(Ordering::Relaxed);
        MOST_HELD.store(heap_base, Ordering::Relaxed);
        if let Some(Portable { limit }) = portable {
            // What the process used since the last reply counts toward this call.
            let used = Duration::from_nanos(sys::process_usage().0.saturating_sub(answered.cpu_ns));
            match limit.checked_sub(used).filter(|left| !left.is_zero()) {
                Some(left) => drop(sys::cpu_alarm(left)),
                None => out_of_time(sys::SIGPROF),
            }
        }
        let served = match request {
            Request::Call { values, dry: true } => {
                drop(values);
                Ok(Reply::Answer { length: 0, answer: Vec::new(), usage: Usage::default() })
            }
            Request::Call { values, dry: false } => call(solve, values.into_owned()).map(|answer| {
                let length = answer.len() as u64;
                Reply::Answer { length, answer: answer.into_bytes(), usage: Usage::default() }
            }),
            Request::Batch { cases } => {
                batch(solve, cases, seq).map(|packed| Reply::Answers { packed, usage: Usage::default() })
            }
        };
        if portable.is_some() {
            let _ = sys::cpu_alarm(Duration::ZERO);
        }
        answered = usage(portable, heap_base);
        let reply = match served {
            Ok(Reply::Answer { length, answer, .. }) => Reply::Answer { length, answer, usage: answered },
            Ok(Reply::Answers { packed, .. }) => Reply::Answers { packed, usage: answered },
            Ok(other) => other,
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
