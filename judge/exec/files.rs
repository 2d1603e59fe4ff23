//! Writing files so that no reader ever sees half of one.

use std::fs;
use std::io;
use std::path::Path;

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
