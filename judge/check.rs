//! In-process checking of solutions against the oracle, for `stress` and `verify`, where a
//! child process per case would cost a thousand times the case itself. Panics are caught and
//! count as disagreements; the judge proper (runner.rs) is where crashes are isolated.

use std::cell::RefCell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;
use std::time::Duration;

use crate::oracle;
use crate::registry::Entry;

/// A case or shrinking candidate that runs this long in-process is a hang: say so rather
/// than wait forever.
pub const STALL: Duration = Duration::from_secs(20);

thread_local! {
    static LAST_PANIC: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Replaces the default panic hook, once, with one that records the message quietly:
/// a stress run may see millions of expected panics from a wrong solution.
pub fn quiet_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        panic::set_hook(Box::new(|info| {
            let text = crate::serve::panic_text(info);
            LAST_PANIC.with(|p| *p.borrow_mut() = text);
        }));
    });
}

/// What a solution returned, or `panicked: …`.
pub fn call(entry: &Entry, values: &[i32]) -> String {
    let input = values.to_vec();
    match panic::catch_unwind(AssertUnwindSafe(|| (entry.run)(input))) {
        Ok(answer) => answer,
        Err(_) => LAST_PANIC.with(|p| format!("panicked: {}", p.borrow())),
    }
}

/// The first solution, in order, whose answer differs from the oracle's, with its answer.
pub fn first_disagreement(entries: &[&'static Entry], values: &[i32]) -> Option<(usize, String)> {
    let expected = oracle::answer(values).as_str();
    entries.iter().enumerate().find_map(|(i, entry)| {
        let got = call(entry, values);
        (got != expected).then_some((i, got))
    })
}

/// Stack for worker threads: recursive strategies go `len` frames deep. 256 bytes a frame is
/// several times a debug build's frame; 64 MiB is the floor.
pub fn stack_bytes(max_len: usize) -> usize {
    (max_len.saturating_mul(256)).max(64 << 20)
}
