//! The build cache: a folder per way rustc and the children run (in a sandbox or not), each
//! with its own seal key, and pruning.
//!
//! A solution judged without a sandbox runs as the judge's user and can write anything the
//! judge can, this cache included. So a sandboxed run never reads what an unconfined run
//! wrote: it has its own folder, and trusts an entry only under its own folder's key. What
//! this does not stop, the README's "Stored data and caches" says.
//!
//! Pruning keeps the cache under a size: the least recently used entries go first (reading
//! an entry marks it used), never one used in the last `FRESH`; the working folders and
//! half-written files of judges that were killed are removed too.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::files::{seal_of, Seal, PART};

/// How much the entries of one folder may take before the oldest are removed.
pub const CAP: u64 = 1 << 30;
/// An entry used this recently is kept whatever the size: another judge may be about to run it.
const FRESH: Duration = Duration::from_secs(10 * 60);
/// How often a folder is pruned at most: a prune lists every entry.
const EVERY: Duration = Duration::from_secs(10 * 60);

/// The folders, under a mode's folder, that hold entries.
pub const FOLDERS: [&str; 3] = ["src", "bin", "lib"];

/// One mode's folder and its key.
pub struct Cache {
    pub folder: PathBuf,
    pub seal: Seal,
}

impl Cache {
    /// The folder under `root` for builds made in a sandbox or without one, ready to use,
    /// pruned if it has not been for a while.
    pub fn open(root: &Path, sandboxed: bool) -> io::Result<Cache> {
        let folder = root.join(if sandboxed { "sandboxed" } else { "unconfined" });
        for name in FOLDERS {
            fs::create_dir_all(folder.join(name))?;
        }
        let seal = Seal::open(&folder)?;
        let marker = folder.join("pruned");
        let since = fs::metadata(&marker).and_then(|m| m.modified()).ok().and_then(|t| t.elapsed().ok());
        if since.is_none_or(|since| since >= EVERY) {
            fs::write(&marker, b"")?;
            prune(&folder, CAP, SystemTime::now());
            forget_old_layout(root);
        }
        Ok(Cache { folder, seal })
    }
}

/// Removes the cache of judges that kept one folder for both modes (`bin/`, `src/`, `lib/`,
/// `clippy/` and `toolchain-*` beside the mode folders): nothing reads it now. Only what such
/// a judge named is removed (a digest's 32 hex digits, or a Rust version for clippy's
/// settings), and a folder only once it is empty, so a `$JUDGE_CACHE` pointed at a folder of
/// other things loses none of them.
fn forget_old_layout(root: &Path) {
    for folder in ["src", "bin", "lib", "clippy"] {
        let named = if folder == "clippy" { version_named } else { digest_named };
        let folder = root.join(folder);
        for entry in fs::read_dir(&folder).into_iter().flatten().flatten() {
            if named(&entry.file_name().to_string_lossy()) {
                let path = entry.path();
                let _ = if path.is_dir() { fs::remove_dir_all(&path) } else { fs::remove_file(&path) };
            }
        }
        let _ = fs::remove_dir(&folder);
    }
    for entry in fs::read_dir(root).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.strip_prefix("toolchain-").is_some_and(digest_named) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// `0123…cdef`, `check-0123….rs`: a name the judge gave an entry, by its digest.
fn digest_named(name: &str) -> bool {
    let name = name.strip_prefix("check-").or_else(|| name.strip_prefix("driver-")).unwrap_or(name);
    name.len() >= 32 && name.bytes().take(32).all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// `1.85`: the folder of clippy's settings for a Rust version.
fn version_named(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit() || b == b'.')
}

/// Whether a process with this id is alive.
fn alive(pid: &str) -> bool {
    pid.parse::<u32>().is_ok_and(super::sys::exists)
}

/// The process id in a name `write_atomically` or a compiler run made: `NAME.partPID-N`,
/// `run-PID-N`.
fn maker(name: &str) -> Option<&str> {
    if let Some(rest) = name.strip_prefix("run-") {
        return rest.split('-').next();
    }
    name.rsplit_once(PART).and_then(|(_, rest)| rest.split('-').next())
}

/// Removes what killed judges left under `folder` (compiler folders, half-written files), then
/// the least recently used entries until the rest take at most `cap` bytes. An entry and its
/// seal go together. Errors are ignored: another judge may be pruning too.
pub fn prune(folder: &Path, cap: u64, now: SystemTime) {
    // (last used, bytes, the entry's files)
    let mut entries: Vec<(SystemTime, u64, Vec<PathBuf>)> = Vec::new();
    for name in FOLDERS {
        let Ok(listed) = fs::read_dir(folder.join(name)) else { continue };
        for entry in listed.flatten() {
            let path = entry.path();
            let file_name = entry.file_name().to_string_lossy().into_owned();
            let Ok(meta) = fs::symlink_metadata(&path) else { continue };
            if maker(&file_name).is_some_and(|pid| !alive(pid)) {
                let _ = if meta.is_dir() { fs::remove_dir_all(&path) } else { fs::remove_file(&path) };
                continue;
            }
            if file_name.ends_with(".digest") || file_name.starts_with("run-") || file_name.contains(PART) {
                continue;
            }
            let (used, bytes, files) = if meta.is_dir() {
                let (used, bytes) = walk(&path);
                (used.unwrap_or(now), bytes, vec![path])
            } else {
                let seal = seal_of(&path);
                let sealed = fs::metadata(&seal).map_or(0, |m| m.len());
                (meta.modified().unwrap_or(now), meta.len() + sealed, vec![path, seal])
            };
            entries.push((used, bytes, files));
        }
    }
    let mut total: u64 = entries.iter().map(|e| e.1).sum();
    entries.sort_by_key(|e| e.0);
    for (used, bytes, files) in entries {
        if total <= cap || now.duration_since(used).unwrap_or_default() < FRESH {
            break;
        }
        for file in files {
            let _ = if file.is_dir() { fs::remove_dir_all(&file) } else { fs::remove_file(&file) };
        }
        total -= bytes;
    }
}

/// When a file under a folder was last used (written, or read as an entry), and their bytes.
fn walk(folder: &Path) -> (Option<SystemTime>, u64) {
    let (mut used, mut bytes) = (None, 0);
    for entry in fs::read_dir(folder).into_iter().flatten().flatten() {
        let (u, b) = match entry.metadata() {
            Ok(m) if m.is_dir() => walk(&entry.path()),
            Ok(m) => (m.modified().ok(), m.len()),
            Err(_) => (None, 0),
        };
        used = used.max(u);
        bytes += b;
    }
    (used, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pruning_removes_the_least_recently_used_past_the_cap_and_what_killed_runs_left() {
        let folder = std::env::temp_dir().join(format!("judge-prune-test-{}", std::process::id()));
        let _ = fs::remove_dir_all(&folder);
        for name in FOLDERS {
            fs::create_dir_all(folder.join(name)).unwrap();
        }
        let now = SystemTime::now();
        let hours = |h: u64| now - Duration::from_secs(h * 3600);
        let put = |name: &str, bytes: usize, used: SystemTime| {
            let path = folder.join("bin").join(name);
            fs::write(&path, vec![7u8; bytes]).unwrap();
            fs::write(seal_of(&path), b"0123456789abcdef").unwrap();
            fs::File::options().write(true).open(&path).unwrap().set_modified(used).unwrap();
        };
        put("oldest", 1000, hours(30));
        put("old", 1000, hours(20));
        put("recent", 1000, hours(2));
        put("fresh", 5000, now);
        // A process id above the kernel's largest (4,194,304) belongs to no process.
        let dead = "4294967";
        let leftover = folder.join("bin").join(format!("run-{dead}-3"));
        fs::create_dir_all(&leftover).unwrap();
        fs::write(leftover.join("submission"), b"half a binary").unwrap();
        let half = folder.join("src").join(format!("x.rs{PART}{dead}-0"));
        fs::write(&half, b"half a file").unwrap();
        let mine = folder.join("bin").join(format!("run-{}-9", std::process::id()));
        fs::create_dir_all(&mine).unwrap();

        prune(&folder, 6100, now);
        let there = |name: &str| folder.join("bin").join(name).exists();
        assert!(!there("oldest") && !there("old"), "the two least recently used go");
        assert!(!seal_of(&folder.join("bin/oldest")).exists(), "a seal goes with its entry");
        assert!(there("recent") && there("fresh"), "the rest fit under the cap");
        assert!(!leftover.exists() && !half.exists(), "a killed run's leftovers go");
        assert!(mine.exists(), "a live judge's working folder stays");

        prune(&folder, 0, now);
        assert!(!there("recent"), "past the cap, anything not used lately goes");
        assert!(there("fresh"), "an entry used in the last minutes stays");
        fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn a_mode_folder_has_its_own_key_and_the_one_folder_of_old_judges_goes() {
        let root = std::env::temp_dir().join(format!("judge-cache-test-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        fs::create_dir_all(root.join("bin")).unwrap();
        let old = "0123456789abcdef0123456789abcdef";
        fs::write(root.join("bin").join(old), b"an old binary").unwrap();
        fs::write(root.join("bin").join(format!("{old}.digest")), b"its seal").unwrap();
        fs::write(root.join(format!("toolchain-{old}")), b"an old answer").unwrap();
        fs::create_dir_all(root.join("src")).unwrap();
        fs::write(root.join("src").join("notes.txt"), b"not the judge's").unwrap();
        fs::write(root.join("sandbox-0123"), b"the sandbox probe").unwrap();
        let (sandboxed, unconfined) = (Cache::open(&root, true).unwrap(), Cache::open(&root, false).unwrap());
        assert_ne!(sandboxed.folder, unconfined.folder);
        assert_ne!(sandboxed.seal, unconfined.seal, "each mode seals under a key of its own");
        assert_eq!(Cache::open(&root, true).unwrap().seal, sandboxed.seal, "a folder keeps its key");
        let entry = sandboxed.folder.join("bin").join("x");
        sandboxed.seal.put(&entry, b"made in a sandbox").unwrap();
        assert_eq!(sandboxed.seal.read(&entry).as_deref(), Some(&b"made in a sandbox"[..]));
        assert_eq!(unconfined.seal.read(&entry), None, "another folder's key does not open it");
        assert!(!root.join("bin").exists() && !root.join(format!("toolchain-{old}")).exists(), "the old layout goes");
        assert!(root.join("sandbox-0123").exists(), "what is not the build cache's stays");
        assert!(root.join("src").join("notes.txt").exists(), "a file the judge did not name stays");
        fs::remove_dir_all(&root).unwrap();
    }
}
