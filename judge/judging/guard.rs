//! The stored data is checked before and after a run: every file under `solutions/` and the
//! cases folder, by content. A run that changed any of it (a solution writing a stored `.out`,
//! say) never ends "as expected": the change is a judge error that names the files.

use std::collections::BTreeMap;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::exec::digest::{Digest, Hasher};

/// Files larger than this are compared by size and modification time, not content.
const HASHED_LIMIT: u64 = 16 << 20;

/// What a file was: its content digest, or for anything that is not a regular file, its kind.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Seen {
    File(Digest),
    Large { len: u64, modified: Option<std::time::SystemTime> },
    Link(PathBuf),
    Folder,
    Other,
}

#[derive(Clone, Debug, Default)]
pub struct Snapshot {
    seen: BTreeMap<PathBuf, Seen>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    Added(PathBuf),
    Removed(PathBuf),
    Modified(PathBuf),
}

impl Snapshot {
    /// Everything under `roots`, which need not exist.
    pub fn take(roots: &[&Path]) -> Snapshot {
        let mut snapshot = Snapshot::default();
        for root in roots {
            snapshot.walk(root);
        }
        snapshot
    }

    fn walk(&mut self, path: &Path) {
        let Ok(meta) = fs::symlink_metadata(path) else { return };
        let seen = if meta.file_type().is_symlink() {
            Seen::Link(fs::read_link(path).unwrap_or_default())
        } else if meta.is_dir() {
            let mut children: Vec<PathBuf> =
                fs::read_dir(path).map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect()).unwrap_or_default();
            children.sort();
            for child in children {
                self.walk(&child);
            }
            Seen::Folder
        } else if !meta.is_file() {
            Seen::Other
        } else if meta.len() > HASHED_LIMIT {
            Seen::Large { len: meta.len(), modified: meta.modified().ok() }
        } else {
            let mut hasher = Hasher::new();
            let mut bytes = Vec::with_capacity(meta.len() as usize);
            match fs::File::open(path).and_then(|f| f.take(HASHED_LIMIT).read_to_end(&mut bytes)) {
                Ok(_) => Seen::File(hasher.write(&bytes).finish()),
                Err(_) => Seen::Other,
            }
        };
        self.seen.insert(path.to_path_buf(), seen);
    }

    /// What differs in `after`, in path order.
    pub fn changes(&self, after: &Snapshot) -> Vec<Change> {
        let mut changes = Vec::new();
        for (path, seen) in &self.seen {
            match after.seen.get(path) {
                None => changes.push(Change::Removed(path.clone())),
                Some(now) if now != seen => changes.push(Change::Modified(path.clone())),
                Some(_) => {}
            }
        }
        for path in after.seen.keys().filter(|p| !self.seen.contains_key(*p)) {
            changes.push(Change::Added(path.clone()));
        }
        changes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn additions_removals_and_rewrites_are_named() {
        let dir = std::env::temp_dir().join(format!("judge-guard-test-{}", std::process::id()));
        fs::create_dir_all(dir.join("suite")).unwrap();
        fs::write(dir.join("suite/a.out"), "\"Bob\"\n").unwrap();
        fs::write(dir.join("suite/b.out"), "\"Tie\"\n").unwrap();
        let before = Snapshot::take(&[&dir, &dir.join("missing")]);
        assert!(before.changes(&Snapshot::take(&[&dir])).is_empty());
        fs::write(dir.join("suite/a.out"), "\"Ali\"\n").unwrap();
        fs::remove_file(dir.join("suite/b.out")).unwrap();
        fs::write(dir.join("suite/c.in"), "[1]\n").unwrap();
        let changes = before.changes(&Snapshot::take(&[&dir]));
        assert_eq!(
            changes,
            [
                Change::Modified(dir.join("suite/a.out")),
                Change::Removed(dir.join("suite/b.out")),
                Change::Added(dir.join("suite/c.in"))
            ]
        );
        fs::remove_dir_all(&dir).unwrap();
    }
}
