//! The only writer to stdout and stderr: the report, notes, and the progress line on a
//! terminal. A closed stdout (`judge gen | head`) ends the run quietly; a closed stderr
//! (`judge paste x 2>&1 | head -1`) loses the notes, never the run.

use std::collections::HashSet;
use std::io::{self, IsTerminal, Write};
use std::os::fd::AsRawFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The output was closed (`judge gen | head`): stop quietly.
pub struct Closed;

/// Whether a progress line is on the terminal now: read from a signal handler.
static SHOWN: AtomicBool = AtomicBool::new(false);

/// What clears the progress line: back to its start, then erase it.
const CLEAR: &str = "\r\x1b[2K";

/// Clears the progress line, if one is shown; safe in a signal handler.
pub fn clear_from_handler() {
    if SHOWN.load(Ordering::Acquire) {
        let _ = crate::exec::sys::write_all(2, CLEAR.as_bytes());
    }
}

/// Writes to stderr, whatever became of it: a note that cannot be written is lost.
fn to_stderr(text: &str) {
    let mut stderr = io::stderr().lock();
    let _ = stderr.write_all(text.as_bytes()).and_then(|_| stderr.flush());
}

/// Standard output, and the progress line on standard error when it is a terminal.
pub struct Out {
    progress: Arc<Mutex<Progress>>,
    /// The columns of the terminal stdout is, if it is one.
    columns: Option<usize>,
    /// The notes said once (`note_once`) so far.
    said: Mutex<HashSet<String>>,
    /// Whether what stdout last got did not end its line: on one terminal with stderr, a note
    /// would go on after it (a pasted file without a final newline).
    mid_line: AtomicBool,
    /// Whether stdout and stderr are both terminals, as they are when neither is redirected.
    one_terminal: bool,
}

/// How long a progress line waits before it shows what is running: with the clock's tick of a
/// quarter second, a terminal that shows it hears of the run at least once a second.
const QUIET: Duration = Duration::from_millis(750);

#[derive(Default)]
struct Progress {
    /// What is running and since when; shown once it has run for `QUIET`.
    current: Option<(String, Instant)>,
    shown: bool,
    /// The columns of the terminal stderr is; None when it is not one (no progress line).
    columns: Option<usize>,
}

impl Progress {
    /// Puts `line` on the terminal in place of the last one, cut to fit on one row so that
    /// clearing it clears all of it.
    fn show(&mut self, line: &str) {
        let Some(columns) = self.columns else { return };
        let cut: String = line.chars().take(columns.saturating_sub(1)).collect();
        to_stderr(&format!("{CLEAR}{cut}"));
        self.shown = true;
        SHOWN.store(true, Ordering::Release);
    }

    fn clear(&mut self) {
        if self.shown {
            to_stderr(CLEAR);
            self.shown = false;
            SHOWN.store(false, Ordering::Release);
        }
    }
}

/// How many columns the terminal on `stream` has, if it is a terminal.
fn columns(stream: &impl AsRawFd) -> Option<usize> {
    crate::exec::sys::terminal_columns(stream.as_raw_fd()).map(usize::from)
}

impl Out {
    pub fn new() -> Out {
        let stderr = io::stderr();
        let progress_columns = if stderr.is_terminal() { columns(&stderr).or(Some(80)) } else { None };
        let progress = Arc::new(Mutex::new(Progress { columns: progress_columns, ..Progress::default() }));
        let ticker = Arc::clone(&progress);
        // The progress line needs a clock only on a terminal.
        if progress_columns.is_some() {
            std::thread::spawn(move || loop {
                std::thread::sleep(Duration::from_millis(250));
                let mut p = ticker.lock().unwrap_or_else(|e| e.into_inner());
                if let Some((label, since)) = p.current.clone().filter(|(_, s)| s.elapsed() >= QUIET) {
                    p.show(&format!("{label} · {:.1}s", since.elapsed().as_secs_f64()));
                }
            });
        }
        let stdout = io::stdout();
        Out {
            progress,
            columns: if stdout.is_terminal() { columns(&stdout) } else { None },
            said: Mutex::new(HashSet::new()),
            mid_line: AtomicBool::new(false),
            one_terminal: stdout.is_terminal() && progress_columns.is_some(),
        }
    }

    /// The columns of the terminal the report goes to; None when it does not go to one.
    pub fn columns(&self) -> Option<usize> {
        self.columns
    }

    /// The columns of the terminal notes go to (stderr); None when it is not one.
    pub fn note_columns(&self) -> Option<usize> {
        self.progress.lock().unwrap_or_else(|e| e.into_inner()).columns
    }

    pub fn print(&self, text: &str) -> Result<(), Closed> {
        if text.is_empty() {
            return Ok(());
        }
        self.clear();
        let mut stdout = io::stdout().lock();
        self.mid_line.store(!text.ends_with('\n'), Ordering::Relaxed);
        match stdout.write_all(text.as_bytes()).and_then(|_| stdout.flush()) {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Err(Closed),
            _ => Ok(()),
        }
    }

    pub fn note(&self, text: &str) {
        self.clear();
        // Both on one terminal: the note starts a line of its own.
        let fresh = if self.one_terminal && self.mid_line.swap(false, Ordering::Relaxed) { "\n" } else { "" };
        to_stderr(&format!("{fresh}{text}\n"));
    }

    /// A note said once in the whole run, however often it is given (a `watch` judges many
    /// times in one run).
    pub fn note_once(&self, text: &str) {
        if self.said.lock().unwrap_or_else(|e| e.into_inner()).insert(text.to_string()) {
            self.note(text);
        }
    }

    pub fn clear(&self) {
        self.progress.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }

    /// What is running now, for the progress line; None when nothing is. The label is made
    /// only when a terminal shows it.
    pub fn running(&self, label: impl FnOnce() -> Option<String>) {
        let mut p = self.progress.lock().unwrap_or_else(|e| e.into_inner());
        if p.columns.is_some() {
            p.current = label().map(|l| (l, Instant::now()));
        }
    }

    /// A counter for a long sweep, shown at once on a terminal, and cleared like the progress
    /// line before anything else is written.
    pub fn count(&self, label: &str) {
        self.progress.lock().unwrap_or_else(|e| e.into_inner()).show(label);
    }
}
