//! The scratch folder of a judge run without a sandbox: the children's working folder, outside
//! the workspace. Removed when dropped, or by the watchdog if the judge is killed.

use std::io;
use std::path::PathBuf;
use std::process;
use std::sync::atomic::{AtomicU64, Ordering};

use super::watchdog;

pub struct Room {
    dir: PathBuf,
    /// The children's working folder.
    pub cwd: PathBuf,
    /// Whether each child runs under the Seatbelt profile (macOS, where its probe passed).
    pub seatbelt: bool,
}

impl Room {
    pub fn new() -> io::Result<Room> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        let name = format!("judge-{}-{}-{}", process::id(), stamp.subsec_nanos(), NEXT.fetch_add(1, Ordering::Relaxed));
        let dir = std::env::temp_dir().join(name);
        let cwd = dir.join("cwd");
        std::fs::create_dir_all(&cwd)?;
        watchdog::remove_after(&dir);
        Ok(Room { dir, cwd, seatbelt: false })
    }
}

impl Drop for Room {
    /// With a watchdog, which removes the folder when the judge ends, the judge does not
    /// wait for the removal.
    fn drop(&mut self) {
        if !watchdog::is_on() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}
