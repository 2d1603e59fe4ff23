//! Writing files so that no reader ever sees half of one, and sealing cache entries so that
//! one changed since it was made is made again rather than trusted.
//!
//! A seal is a file beside the entry, `NAME.digest`, holding the entry's keyed tag
//! (`digest::keyed`). A folder's key is made once, at random, and kept in the folder
//! (`seal.key`, readable by its owner only): bytes sealed under one folder's key are not
//! trusted under another's, and nobody who has not read the key can seal bytes of their own.

use std::fs;
use std::io::{self, Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use super::digest;

/// A number no other call in this process gets: with the process id, a unique file name.
pub fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// `error`, said with the path it was about (`PATH: No such file or directory`); its kind kept.
pub fn at(path: &Path, error: io::Error) -> io::Error {
    io::Error::new(error.kind(), format!("{}: {error}", path.display()))
}

/// The temporary name `write_atomically` writes `path` under before the rename:
/// `NAME.partPID-N`, so that one a killed process left can be told by its process id.
pub const PART: &str = ".part";

/// Writes through a temporary file and a rename, so a reader never sees half a file. It never
/// replaces what is not a regular file: a rename onto `/dev/null` would put a file in its place.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    match fs::symlink_metadata(path) {
        Ok(meta) if !meta.is_file() => {
            return Err(io::Error::new(io::ErrorKind::AlreadyExists, "exists and is not a regular file; not replaced"));
        }
        _ => {}
    }
    let partial = partial(path);
    fs::write(&partial, bytes)?;
    fs::rename(&partial, path).inspect_err(|_| drop(fs::remove_file(&partial)))
}

fn partial(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(format!("{PART}{}-{}", std::process::id(), unique()));
    PathBuf::from(name)
}

/// Where an entry's seal is: `NAME.digest` beside it.
pub fn seal_of(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".digest");
    PathBuf::from(name)
}

/// The key cache entries are sealed under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seal {
    key: [u64; 2],
}

impl Seal {
    /// A key everyone knows: for entries whose worst forgery decides nothing (the sandbox
    /// probe remembers only success; a forged one fails at the first child, loudly).
    pub const PUBLIC: Seal = Seal { key: [0, 0] };

    /// The key of `folder`, made at random the first time and kept in `folder/seal.key`.
    pub fn open(folder: &Path) -> io::Result<Seal> {
        let file = folder.join("seal.key");
        if let Some(seal) = Seal::read_key(&file) {
            return Ok(seal);
        }
        let mut random = [0u8; 16];
        fs::File::open("/dev/urandom")?.read_exact(&mut random)?;
        let text = format!("{:032x}\n", u128::from_le_bytes(random));
        // Made under another name and linked into place, so two judges starting at once agree
        // on one key: the second link fails and that judge reads the first one's.
        let made = partial(&file);
        let mut out = fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(&made)?;
        out.write_all(text.as_bytes())?;
        drop(out);
        let linked = fs::hard_link(&made, &file);
        let _ = fs::remove_file(&made);
        match linked {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
        Seal::read_key(&file).ok_or_else(|| io::Error::other(format!("{}: not a seal key", file.display())))
    }

    fn read_key(file: &Path) -> Option<Seal> {
        let text = fs::read_to_string(file).ok()?;
        let key = u128::from_str_radix(text.trim(), 16).ok().filter(|_| text.trim().len() == 32)?;
        Some(Seal { key: [key as u64, (key >> 64) as u64] })
    }

    fn tag(&self, bytes: &[u8]) -> String {
        format!("{:016x}", digest::keyed(self.key, bytes))
    }

    /// Writes a cache entry and its seal, the seal first: a reader who sees the entry sees its
    /// seal.
    pub fn put(&self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        write_atomically(&seal_of(path), self.tag(bytes).as_bytes())?;
        write_atomically(path, bytes)
    }

    /// Moves a file made elsewhere (a compiler's output) into the cache as a sealed entry.
    pub fn place(&self, made: &Path, path: &Path) -> io::Result<()> {
        let bytes = fs::read(made).map_err(|e| at(made, e))?;
        write_atomically(&seal_of(path), self.tag(&bytes).as_bytes())?;
        fs::rename(made, path).map_err(|e| at(path, e))
    }

    /// A cache entry's bytes, if it is there and matches its seal; None for one that is missing,
    /// unsealed or changed since (it is then made again, and the new one replaces it). An entry
    /// read is marked used now, for pruning the least recently used.
    pub fn read(&self, path: &Path) -> Option<Vec<u8>> {
        let mut file = fs::File::open(path).ok()?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).ok()?;
        let seal = fs::read(seal_of(path)).ok()?;
        if seal != self.tag(&bytes).as_bytes() {
            return None;
        }
        let _ = file.set_modified(std::time::SystemTime::now());
        Some(bytes)
    }
}
