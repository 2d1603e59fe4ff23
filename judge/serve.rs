//! The child side of a judged run: `judge child --solution NAME` reads one case per line on
//! stdin, calls the solution on a thread with an explicit stack, and answers on stdout.
//! Only the call is timed, not parsing nor process start.
//!
//! Each answer is one framed record that starts with MARK, a nonce the judge chose and a
//! space (written M below), so nothing the solution prints by chance reads as a result:
//!   M start\n                                  (just before the call, so the judge's
//!                                                deadline counts from here, not from parsing)
//!   M ok <nanos> <peak KiB or -> <byte length>\n<answer>\n
//!   M re <byte length>\n<panic message>\n     (then the child exits)

use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Mutex;
use std::thread;
use std::time::Instant;

use crate::memory;
use crate::registry::Entry;

/// Every record starts with MARK, the child's nonce (from NONCE_VAR) and a space.
pub const MARK: &str = "\u{1e}judge:";
pub const NONCE_VAR: &str = "JUDGE_CHILD_NONCE";

/// The last panic's message and place, kept by the hook for the worker to report.
static LAST_PANIC: Mutex<String> = Mutex::new(String::new());

/// Serves until stdin closes; returns the process's exit status.
pub fn serve(entry: &'static Entry, stack_mb: usize) -> u8 {
    panic::set_hook(Box::new(|info| {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/");
        let place = info
            .location()
            .map(|l| format!(" at {}:{}", l.file().trim_start_matches(root), l.line()))
            .unwrap_or_default();
        let text = panic_text(info);
        *LAST_PANIC.lock().unwrap_or_else(|p| p.into_inner()) = format!("panicked{place}: {text}");
    }));
    let worker =
        thread::Builder::new().name("solution".to_string()).stack_size(stack_mb << 20).spawn(move || work(entry));
    match worker.map(|w| w.join()) {
        Ok(Ok(Ok(()))) => 0,
        Ok(Ok(Err(status))) => status,
        _ => 3,
    }
}

/// The message a panic was raised with.
pub fn panic_text(info: &panic::PanicHookInfo) -> String {
    let payload = info.payload();
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a non-string panic payload".to_string())
}

fn work(entry: &'static Entry) -> Result<(), u8> {
    let mark = format!("{MARK}{} ", std::env::var(NONCE_VAR).unwrap_or_default());
    let stdin = io::stdin();
    let mut line = String::new();
    loop {
        line.clear();
        match stdin.lock().read_line(&mut line) {
            Ok(0) => return Ok(()),
            Ok(_) => {}
            Err(_) => return Err(4),
        }
        let Ok(values) = crate::format::parse_input(&line) else {
            return Err(5);
        };
        let mut out = io::stdout().lock();
        if writeln!(out, "{mark}start").and_then(|_| out.flush()).is_err() {
            return Err(6);
        }
        drop(out);
        let start = Instant::now();
        let result = panic::catch_unwind(AssertUnwindSafe(|| (entry.run)(values)));
        let nanos = start.elapsed().as_nanos();
        let mut out = io::stdout().lock();
        let sent = match &result {
            Ok(answer) => {
                let peak = memory::peak_rss_kib().map_or("-".to_string(), |k| k.to_string());
                write!(out, "{mark}ok {nanos} {peak} {}\n{answer}\n", answer.len())
            }
            Err(_) => {
                let mut message = LAST_PANIC.lock().unwrap_or_else(|p| p.into_inner()).clone();
                if message.is_empty() {
                    message = "panicked (no message: the solution replaced the panic hook)".to_string();
                }
                write!(out, "{mark}re {}\n{message}\n", message.len())
            }
        };
        if sent.and_then(|_| out.flush()).is_err() {
            return Err(6);
        }
        // A panicked solution may have left statics half-written: the judge starts afresh.
        if result.is_err() {
            return Err(101);
        }
    }
}
