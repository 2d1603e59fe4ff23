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

/// The line after a run.
pub fn waiting(solution_files: usize) -> String {
    format!("watching {} and the stored cases; Ctrl-C stops", units::count(solution_files, "solution file"))
}

/// The line when a named file is not there: it is waited for, not an error.
pub fn gone(files: &[String]) -> String {
    let files: Vec<String> = files.iter().map(|f| units::escape(f)).collect();
    format!(
        "{} gone; judging again once it is back (Ctrl-C stops)",
        files.join(", ") + if files.len() == 1 { " is" } else { " are" }
    )
}
