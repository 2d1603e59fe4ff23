//! Writing files so that no reader ever sees half of one, and sealing cache entries so that
//! one changed since it was made is made again rather than trusted.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::digest::Digest;

/// A number no other call in this process gets: with the process id, a unique file name.
pub fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// Writes through a temporary file and a rename, so a reader never sees half a file. It never
/// replaces what is not a regular file: a rename onto `/dev/null` would put a file in its place.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    match fs::symlink_metadata(path) {
        Ok(meta) if !meta.is_file() => {
            return Err(io::Error::new(io::ErrorKind::AlreadyExists, "exists and is not a regular file; not replaced"));
        }
        _ => {}
    }
    let partial = path.with_extension(format!("part{}-{}", std::process::id(), unique()));
    fs::write(&partial, bytes)?;
    fs::rename(&partial, path).inspect_err(|_| drop(fs::remove_file(&partial)))
}

/// Where an entry's seal is: `NAME.digest` beside it.
fn seal_of(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".digest");
    PathBuf::from(name)
}

/// Writes a cache entry and its seal, the seal first: a reader who sees the entry sees its
/// seal.
pub fn put_sealed(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomically(&seal_of(path), Digest::of(bytes).hex().as_bytes())?;
    write_atomically(path, bytes)
}

/// Moves a file made elsewhere (a compiler's output) into the cache as a sealed entry.
pub fn place_sealed(made: &Path, path: &Path) -> io::Result<()> {
    let bytes = fs::read(made)?;
    write_atomically(&seal_of(path), Digest::of(&bytes).hex().as_bytes())?;
    fs::rename(made, path)
}

/// A cache entry's bytes, if it is there and matches its seal; None for one that is missing,
/// unsealed or changed since (it is then made again, and the new one replaces it).
pub fn read_sealed(path: &Path) -> Option<Vec<u8>> {
    let bytes = fs::read(path).ok()?;
    let seal = fs::read(seal_of(path)).ok()?;
    (seal == Digest::of(&bytes).hex().as_bytes()).then_some(bytes)
}
