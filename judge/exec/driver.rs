//! The driver: the `main` of every submission's own binary, never part of the judge. It reads
//! requests on the judge's pipe, calls the solution on a thread with the stack it was given
//! (named `solution`: the judge reads that thread's account in /proc), and answers on the other
//! pipe. It records a panic's message and place, reports a stack overflow only when the fault
//! hit the guard page below the solution's stack, reports an allocation that failed (through
//! `Allocator`, the binary's global allocator), and flushes what the solution printed before
//! each answer, so the judge reads it before the answer. It reads the CPU time of the solution's
//! thread around each call through the system-call instruction itself, which no symbol of the
//! solution's can replace; the judge takes that figure only where its own reading of the
//! kernel's account agrees (see `child`), and every amount of memory is the judge's reading.
//!
//! Its parent module provides `sys`, `wire` and `Solve`, the solution's function type.
//! Command line: `<unit> <stack bytes>`; `unit` picks the solution of a batch build.

use std::alloc::{GlobalAlloc, Layout, System};
use std::fs::File;
use std::io::{self, Write};
use std::os::fd::FromRawFd;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread;

use super::sys;
use super::wire::{self, Exit, Refusal, Reply, Request};
use super::Solve;

/// The thread that runs the solution; the panic hook records panics on it alone.
const THREAD: &str = "solution";
/// How far from the bottom of the solution's stack a fault still counts as an overflow: the
/// guard page, and the thread's bookkeeping beside it.
const GUARD_WINDOW: usize = 1 << 20;

/// The binary's global allocator: the system's, and a frame to the judge when an allocation
/// fails (std then aborts), so that the judge can tell a failed allocation from another abort.
pub struct Allocator;

impl Allocator {
    fn failed(size: usize) {
        let frame = wire::allocation_frame(SERVING.load(Ordering::Acquire), size as u64);
        let _ = sys::write_all(wire::REPLY_FD, &frame);
    }
}

// SAFETY: every method hands the call to the system allocator unchanged; on failure it only
// writes a frame built on the stack.
unsafe impl GlobalAlloc for Allocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is System's.
        let block = unsafe { System.alloc(layout) };
        if block.is_null() {
            Allocator::failed(layout.size());
        }
        block
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as above.
        let block = unsafe { System.alloc_zeroed(layout) };
        if block.is_null() {
            Allocator::failed(layout.size());
        }
        block
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(block, layout) }
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        // SAFETY: as above.
        let moved = unsafe { System.realloc(block, layout, size) };
        if moved.is_null() {
            Allocator::failed(size);
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
/// The lowest address of the solution thread's stack, once it runs; 0 before.
static STACK_LOW: AtomicUsize = AtomicUsize::new(0);
/// The request being served, for a report sent from the fault handler.
static SERVING: AtomicU32 = AtomicU32::new(0);

pub fn main(solutions: &[Solve]) {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let (solve, stack) = match args[..] {
        [unit, stack] if unit < solutions.len() => (solutions[unit], stack),
        _ => refuse(Refusal::BadArguments),
    };
    panic::set_hook(Box::new(record_panic));
    // Without the hook an overflow still kills the process; it is only named less precisely.
    let _ = sys::fault::on_memory_fault(on_fault);
    let worker = thread::Builder::new().name(THREAD.to_string()).stack_size(stack).spawn(move || serve(solve, stack));
    let exit = match worker {
        Ok(worker) => worker.join().unwrap_or(Exit::Panicked),
        Err(_) => refuse(Refusal::NoStack),
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
    if thread::current().name() == Some(THREAD) {
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

/// Serves requests until the judge closes the pipe; returns how the process should end.
fn serve(solve: Solve, stack: usize) -> Exit {
    let top = 0u8;
    STACK_LOW.store((&top as *const u8 as usize).saturating_sub(stack), Ordering::Release);
    // SAFETY: the judge placed these pipes here before exec; nothing else in this process owns them.
    let (mut requests, mut replies) =
        unsafe { (File::from_raw_fd(wire::REQUEST_FD), File::from_raw_fd(wire::REPLY_FD)) };
    if wire::send(&mut replies, &Reply::Ready.encode(0)).is_err() {
        return Exit::ReplyClosed;
    }
    // The input of the next call, decoded while the judge waits to start its clock.
    let mut loaded: Option<Vec<i32>> = None;
    let mut buffer = Vec::new();
    loop {
        let (seq, request) = match wire::read_request(&mut requests, &mut buffer) {
            Ok(Some(request)) => request,
            Ok(None) => return Exit::Served,
            Err(_) => refuse(Refusal::BadRequest),
        };
        SERVING.store(seq, Ordering::Release);
        let mut send = |reply: Reply| {
            let _ = io::stdout().flush();
            wire::send(&mut replies, &reply.encode(seq))
        };
        let served = match request {
            Request::Call { values } => {
                loaded = Some(values.into_owned());
                Ok(send(Reply::Loaded))
            }
            Request::Go { dry } => match (loaded.take(), dry) {
                (None, _) => refuse(Refusal::BadRequest),
                (Some(values), true) => {
                    let start = sys::thread_cpu_ns();
                    drop(values);
                    let cpu_ns = sys::thread_cpu_ns().saturating_sub(start);
                    Ok(send(Reply::Answer { length: 0, answer: Vec::new(), cpu_ns }))
                }
                (Some(values), false) => {
                    let start = sys::thread_cpu_ns();
                    let called = call(solve, values);
                    let cpu_ns = sys::thread_cpu_ns().saturating_sub(start);
                    called.map(|answer| {
                        let length = answer.len() as u64;
                        send(Reply::Answer { length, answer: kept(answer), cpu_ns })
                    })
                }
            },
            Request::Batch { cases } => batch(solve, cases).map(&mut send),
        };
        match served {
            Ok(Ok(())) => {}
            Ok(Err(_)) => return Exit::ReplyClosed,
            Err(panic) => {
                let reply = Reply::Panicked {
                    message: panic.message,
                    file: panic.file,
                    line: panic.line,
                    column: panic.column,
                };
                return match send(reply) {
                    Ok(()) => Exit::Panicked,
                    Err(_) => Exit::ReplyClosed,
                };
            }
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

fn kept(answer: String) -> Vec<u8> {
    let mut bytes = answer.into_bytes();
    bytes.truncate(wire::ANSWER_KEPT);
    bytes
}

fn batch(solve: Solve, cases: Vec<Vec<i32>>) -> Result<Reply, Panic> {
    let mut packed = Vec::with_capacity(cases.len() * 9);
    for values in cases {
        wire::pack(&mut packed, call(solve, values)?.as_bytes());
    }
    Ok(Reply::Answers { packed })
}
