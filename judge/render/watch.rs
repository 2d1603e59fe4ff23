//! What `judge watch` says between its runs.

use std::time::{SystemTime, UNIX_EPOCH};

use super::units;

/// The line before a run: what was saved, and when (UTC, to the second).
pub fn header(changed: &[String], at: SystemTime) -> String {
    let seconds = at.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let clock = format!("{:02}:{:02}:{:02}", seconds / 3600 % 24, seconds / 60 % 60, seconds % 60);
    let what = match changed {
        [] => "judging".to_string(),
        [one] => format!("saved {}", units::escape(one)),
        [first, rest @ ..] => format!("saved {} and {}", units::escape(first), units::count(rest.len(), "more file")),
    };
    format!("\n── {what} · {clock} UTC ──")
}

/// The line after a run; `watched` counts the cases folder as one.
pub fn waiting(watched: usize) -> String {
    format!("watching {} and the stored cases; Ctrl-C stops", units::count(watched.saturating_sub(1), "solution file"))
}
