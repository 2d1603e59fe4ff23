//! What the guard on stored data found, in words: which file, what changed about it, and
//! whether a solution could have done it (only when one ran outside the sandbox).

use std::path::Path;

use super::error::path;
use super::units;
use crate::judging::guard::{Change, Changed, How};

fn how(how: &How) -> String {
    match how {
        How::Replaced => "was replaced by another file".to_string(),
        How::Resized { from, to } => format!("was rewritten ({} to {})", units::bytes(*from), units::bytes(*to)),
        How::Mode { from, to } => format!("had its permissions changed ({:o} to {:o})", from & 0o7777, to & 0o7777),
        How::Rewritten => "was rewritten (same size)".to_string(),
        How::Relinked { from, to } => format!("was a link to {} and now leads to {}", from.display(), to.display()),
        How::Kind => "changed kind (a file became a folder or a link, or the other way round)".to_string(),
    }
}

/// One change: the file, what happened to it, and what that means for the run.
pub fn line(change: &Change, confined: bool, root: Option<&Path>) -> String {
    let what = match change {
        Change::Added(_) => "appeared".to_string(),
        Change::Removed(_) => "was removed".to_string(),
        Change::Modified { how: h, .. } => how(h),
    };
    let meaning = match confined {
        true => "not by a solution (each ran in the sandbox, which cannot reach it); the run used the files as they were when it read them",
        false => "by a solution (none ran in a sandbox) or by something else: this run proves nothing",
    };
    format!("{} {what} during the run, {meaning}", units::escape(&path(change.path(), root)))
}

/// Every change, one line each.
pub fn lines(changed: &Changed, root: Option<&Path>) -> Vec<String> {
    changed.changes.iter().map(|c| line(c, changed.confined, root)).collect()
}
