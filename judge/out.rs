//! The only writer to stdout and stderr: the report, notes, and the progress line on a
//! terminal. A closed stdout (`judge gen | head`) ends the run quietly.

use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The output was closed (`judge gen | head`): stop quietly.
pub struct Closed;

/// Whether a progress line is on the terminal now: read from a signal handler.
static SHOWN: AtomicBool = AtomicBool::new(false);

/// Clears the progress line, if one is shown; safe in a signal handler.
pub fn clear_from_handler() {
    if SHOWN.load(Ordering::Acquire) {
        let _ = crate::exec::sys::write_all(2, b"\r\x1b[2K");
    }
}

/// Standard output, and the progress line on standard error when it is a terminal.
pub struct Out {
    progress: Arc<Mutex<Progress>>,
}

#[derive(Default)]
struct Progress {
    /// What is running and since when; shown once it has run for a second.
    current: Option<(String, Instant)>,
    shown: bool,
    enabled: bool,
}

impl Out {
    pub fn new() -> Out {
        let enabled = io::stderr().is_terminal();
        let progress = Arc::new(Mutex::new(Progress { enabled, ..Progress::default() }));
        let ticker = Arc::clone(&progress);
        // The progress line needs a clock only on a terminal.
        if enabled {
            std::thread::spawn(move || loop {
                std::thread::sleep(Duration::from_millis(250));
                let mut p = ticker.lock().unwrap_or_else(|e| e.into_inner());
                if let Some((label, since)) = p.current.clone().filter(|(_, s)| s.elapsed() > Duration::from_secs(1)) {
                    eprint!("\r\x1b[2K{label} · {:.1}s", since.elapsed().as_secs_f64());
                    let _ = io::stderr().flush();
                    p.shown = true;
                    SHOWN.store(true, Ordering::Release);
                }
            });
        }
        Out { progress }
    }

    pub fn print(&self, text: &str) -> Result<(), Closed> {
        if text.is_empty() {
            return Ok(());
        }
        self.clear();
        let mut stdout = io::stdout().lock();
        match stdout.write_all(text.as_bytes()).and_then(|_| stdout.flush()) {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Err(Closed),
            _ => Ok(()),
        }
    }

    pub fn note(&self, text: &str) {
        self.clear();
        eprintln!("{text}");
    }

    pub fn clear(&self) {
        let mut p = self.progress.lock().unwrap_or_else(|e| e.into_inner());
        if p.shown {
            eprint!("\r\x1b[2K");
            p.shown = false;
            SHOWN.store(false, Ordering::Release);
        }
    }

    /// What is running now, for the progress line; None when nothing is. The label is made
    /// only when a terminal shows it.
    pub fn running(&self, label: impl FnOnce() -> Option<String>) {
        let mut p = self.progress.lock().unwrap_or_else(|e| e.into_inner());
        if p.enabled {
            p.current = label().map(|l| (l, Instant::now()));
        }
    }

    /// A counter for a long sweep, shown at once on a terminal.
    pub fn count(&self, label: &str) {
        let p = self.progress.lock().unwrap_or_else(|e| e.into_inner());
        if p.enabled {
            eprint!("\r\x1b[2K{label}");
            let _ = io::stderr().flush();
            SHOWN.store(true, Ordering::Release);
        }
    }
}
