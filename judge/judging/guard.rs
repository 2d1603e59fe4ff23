//! The stored data is checked before and after a run: every file under `solutions/` and the
//! cases folder, and each change is named with what changed about the file. Without a sandbox
//! a change is a judge error (a solution could have written a stored `.out`); in the sandbox no
//! solution can reach the files, so a change is someone else's (an editor, `git stash`) and is
//! reported without failing the run, which judged the files as they were read.
//!
//! Files are compared by inode, size and change time (`ctime`), not content: any write or
//! rename moves `ctime` forward, and unlike the modification time no unprivileged process can
//! set it back, and reading every byte twice is not needed. The clock behind `ctime` ticks
//! coarsely, so a file changed just before the first snapshot could be changed again within
//! the same tick unseen: such "racy" files are also hashed, as git does, up to `HASHED` bytes
//! (a huge or sparse file is not read whole: its size and change time still tell).

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use std::io::Read;

use crate::exec::digest::{Digest, Hasher};

/// A file changed this recently when a snapshot is taken is compared by content as well.
const RACY: Duration = Duration::from_secs(2);
/// A racy file's content is hashed up to this many bytes: past every case and source limit.
const HASHED: u64 = 16 << 20;

/// What a file was: its identity and last change, or for anything else, its kind.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Seen {
    File { dev: u64, ino: u64, len: u64, mode: u32, changed: (i64, i64), content: Option<Digest> },
    Link(PathBuf),
    Folder,
    Other,
}

/// The guarded files as they were, and the roots to look at again.
#[derive(Clone, Debug)]
pub struct Snapshot {
    roots: Vec<PathBuf>,
    /// Files changed at or after this are hashed too, in this snapshot and the next.
    racy_since: SystemTime,
    /// By path bytes: comparing them is cheaper than comparing paths component by component.
    seen: BTreeMap<Vec<u8>, Seen>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    Added(PathBuf),
    Removed(PathBuf),
    Modified { path: PathBuf, how: How },
}

/// What changed about a file that is still there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum How {
    /// Another file now has its name (a rename over it, an editor's save by replacement).
    Replaced,
    /// Its size, in bytes.
    Resized { from: u64, to: u64 },
    /// Its permissions.
    Mode { from: u32, to: u32 },
    /// Its content, at the same size.
    Rewritten,
    /// A link that now points elsewhere.
    Relinked { from: PathBuf, to: PathBuf },
    /// A file became a folder or the other way round.
    Kind,
}

impl Change {
    pub fn path(&self) -> &Path {
        match self {
            Change::Added(path) | Change::Removed(path) | Change::Modified { path, .. } => path,
        }
    }
}

/// What changed during a run, and whether a solution could have done it.
#[derive(Clone, Debug, Default)]
pub struct Changed {
    pub changes: Vec<Change>,
    /// Every solution ran in the sandbox, which cannot reach the stored data.
    pub confined: bool,
}

impl Changed {
    /// A change a solution could have made: the run proves nothing.
    pub fn is_error(&self) -> bool {
        !self.changes.is_empty() && !self.confined
    }
}

fn how(before: &Seen, after: &Seen) -> How {
    match (before, after) {
        (Seen::File { dev, ino, .. }, Seen::File { dev: d, ino: i, .. }) if (dev, ino) != (d, i) => How::Replaced,
        (Seen::File { len, .. }, Seen::File { len: l, .. }) if len != l => How::Resized { from: *len, to: *l },
        (Seen::File { mode, .. }, Seen::File { mode: m, .. }) if mode != m => How::Mode { from: *mode, to: *m },
        (Seen::File { .. }, Seen::File { .. }) => How::Rewritten,
        (Seen::Link(from), Seen::Link(to)) => How::Relinked { from: from.clone(), to: to.clone() },
        _ => How::Kind,
    }
}

impl Snapshot {
    /// Everything under `roots`, which need not exist.
    pub fn take(roots: &[&Path]) -> Snapshot {
        let roots = roots.iter().map(|r| r.to_path_buf()).collect();
        let racy_since = SystemTime::now().checked_sub(RACY).unwrap_or(UNIX_EPOCH);
        Snapshot::at(roots, racy_since)
    }

    fn at(roots: Vec<PathBuf>, racy_since: SystemTime) -> Snapshot {
        let mut snapshot = Snapshot { roots, racy_since, seen: BTreeMap::new() };
        for root in snapshot.roots.clone() {
            if let Ok(meta) = fs::symlink_metadata(&root) {
                snapshot.walk(&root, &meta);
            }
        }
        snapshot
    }

    fn walk(&mut self, path: &Path, meta: &fs::Metadata) {
        let seen = if meta.file_type().is_symlink() {
            Seen::Link(fs::read_link(path).unwrap_or_default())
        } else if meta.is_dir() {
            // Each entry's metadata comes from its folder, without resolving its path again.
            let mut children: Vec<(PathBuf, fs::Metadata)> = fs::read_dir(path)
                .map(|d| d.filter_map(Result::ok).filter_map(|e| Some((e.path(), e.metadata().ok()?))).collect())
                .unwrap_or_default();
            children.sort_by(|a, b| a.0.as_os_str().as_bytes().cmp(b.0.as_os_str().as_bytes()));
            for (child, meta) in children {
                self.walk(&child, &meta);
            }
            Seen::Folder
        } else if !meta.is_file() {
            Seen::Other
        } else {
            Seen::File {
                dev: meta.dev(),
                ino: meta.ino(),
                len: meta.len(),
                mode: meta.mode(),
                changed: (meta.ctime(), meta.ctime_nsec()),
                content: if changed_at(meta) >= self.racy_since { digest(path) } else { None },
            }
        };
        self.seen.insert(path.as_os_str().as_bytes().to_vec(), seen);
    }

    /// What differs now, in path order. The second look hashes the same racy files as the
    /// first, so a file rewritten within one tick of the clock still differs.
    pub fn changes(&self) -> Vec<Change> {
        let after = Snapshot::at(self.roots.clone(), self.racy_since);
        let mut changes = Vec::new();
        for (path, seen) in &self.seen {
            match after.seen.get(path) {
                None => changes.push(Change::Removed(to_path(path))),
                Some(now) if now != seen => changes.push(Change::Modified { path: to_path(path), how: how(seen, now) }),
                Some(_) => {}
            }
        }
        for path in after.seen.keys().filter(|p| !self.seen.contains_key(*p)) {
            changes.push(Change::Added(to_path(path)));
        }
        changes
    }
}

fn to_path(bytes: &[u8]) -> PathBuf {
    PathBuf::from(OsStr::from_bytes(bytes))
}

fn changed_at(meta: &fs::Metadata) -> SystemTime {
    UNIX_EPOCH + Duration::new(meta.ctime().max(0) as u64, meta.ctime_nsec().clamp(0, 999_999_999) as u32)
}

/// The digest of a file's first `HASHED` bytes, read a chunk at a time.
fn digest(path: &Path) -> Option<Digest> {
    let mut file = fs::File::open(path).ok()?.take(HASHED);
    let mut hasher = Hasher::new();
    let mut chunk = vec![0u8; 1 << 16];
    loop {
        match file.read(&mut chunk) {
            Ok(0) => return Some(hasher.finish()),
            Ok(n) => drop(hasher.write(&chunk[..n])),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("judge-guard-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("suite")).unwrap();
        dir
    }

    #[test]
    fn additions_removals_and_rewrites_are_named() {
        let dir = scratch("named");
        fs::write(dir.join("suite/a.out"), "\"Bob\"\n").unwrap();
        fs::write(dir.join("suite/b.out"), "\"Tie\"\n").unwrap();
        let before = Snapshot::take(&[&dir, &dir.join("missing")]);
        assert!(before.changes().is_empty());
        // Same length, likely the same clock tick: only the content tells.
        fs::write(dir.join("suite/a.out"), "\"Ali\"\n").unwrap();
        fs::remove_file(dir.join("suite/b.out")).unwrap();
        fs::write(dir.join("suite/c.in"), "[1]\n").unwrap();
        assert_eq!(
            before.changes(),
            [
                Change::Modified { path: dir.join("suite/a.out"), how: How::Rewritten },
                Change::Removed(dir.join("suite/b.out")),
                Change::Added(dir.join("suite/c.in"))
            ]
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_huge_sparse_file_is_hashed_only_up_to_the_bound() {
        let dir = scratch("sparse");
        let (a, b) = (dir.join("suite/a.rs"), dir.join("suite/b.rs"));
        for path in [&a, &b] {
            fs::File::create(path).unwrap().set_len(3 << 30).unwrap();
        }
        // A difference past the bound is not read (the size and change time still tell).
        let mut tail = fs::OpenOptions::new().write(true).open(&b).unwrap();
        std::io::Seek::seek(&mut tail, std::io::SeekFrom::Start(HASHED + 1)).unwrap();
        std::io::Write::write_all(&mut tail, b"x").unwrap();
        assert_eq!(digest(&a), digest(&b));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn old_files_are_compared_by_change_time_alone() {
        let dir = scratch("old");
        fs::write(dir.join("suite/a.out"), "\"Bob\"\n").unwrap();
        // As if the file were old: nothing counts as racy, so nothing is read.
        let far_future = SystemTime::now() + Duration::from_secs(3600);
        let before = Snapshot::at(vec![dir.clone()], far_future);
        assert!(matches!(
            before.seen[dir.join("suite/a.out").as_os_str().as_bytes()],
            Seen::File { content: None, .. }
        ));
        assert!(before.changes().is_empty());
        // Past any coarse clock tick, a same-length rewrite moves the change time.
        std::thread::sleep(Duration::from_millis(50));
        fs::write(dir.join("suite/a.out"), "\"Ali\"\n").unwrap();
        assert_eq!(before.changes(), [Change::Modified { path: dir.join("suite/a.out"), how: How::Rewritten }]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn what_changed_about_a_file_is_named() {
        let dir = scratch("how");
        let (a, b) = (dir.join("suite/a.rs"), dir.join("suite/b.rs"));
        fs::write(&a, "fn a() {}\n").unwrap();
        fs::write(&b, "fn b() {}\n").unwrap();
        let before = Snapshot::take(&[&dir]);
        fs::write(&a, "fn a() { 1; }\n").unwrap();
        fs::write(dir.join("suite/b.new"), "fn c() {}\n").unwrap();
        fs::rename(dir.join("suite/b.new"), &b).unwrap();
        assert_eq!(
            before.changes(),
            [
                Change::Modified { path: a, how: How::Resized { from: 10, to: 14 } },
                Change::Modified { path: b, how: How::Replaced }
            ]
        );
        fs::remove_dir_all(&dir).unwrap();
    }
}
