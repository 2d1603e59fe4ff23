//! What `judge watch` says between its runs.

use std::time::{SystemTime, UNIX_EPOCH};

use super::units;

/// What changed in a watched file between two looks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Saved {
    /// Written, or made.
    File(String),
    /// The same file under a new name.
    Renamed {
        from: String,
        to: String,
    },
    Removed(String),
}

fn saved(change: &Saved) -> String {
    match change {
        Saved::File(file) => format!("saved {}", units::escape(file)),
        Saved::Renamed { from, to } => format!("renamed {} to {}", units::escape(from), units::escape(to)),
        Saved::Removed(file) => format!("removed {}", units::escape(file)),
    }
}

/// The line before a run: what changed, and when (UTC, to the second).
pub fn header(changed: &[Saved], at: SystemTime) -> String {
    let seconds = at.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let clock = format!("{:02}:{:02}:{:02}", seconds / 3600 % 24, seconds / 60 % 60, seconds % 60);
    let what = match changed {
        [] => "judging".to_string(),
        [one] => saved(one),
        [first, rest @ ..] => format!("{} and {}", saved(first), units::count(rest.len(), "more file")),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rename_is_said_as_one() {
        let at = UNIX_EPOCH + std::time::Duration::from_secs(3600 + 61);
        let renamed = Saved::Renamed { from: "solutions/second_try.rs".into(), to: "solutions/third_try.rs".into() };
        assert_eq!(
            header(&[renamed], at),
            "\n── renamed solutions/second_try.rs to solutions/third_try.rs · 01:01:01 UTC ──"
        );
        let two = [Saved::File("solutions/a.rs".into()), Saved::Removed("solutions/b.rs".into())];
        assert_eq!(header(&two, at), "\n── saved solutions/a.rs and 1 more file · 01:01:01 UTC ──");
    }
}
