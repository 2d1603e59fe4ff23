//! What a submission starts never outlives the run. Each child runs in a process group of its
//! own, which the judge kills whole at every verdict. For the judge's own end, however it
//! comes (SIGINT, SIGTERM, SIGKILL, a panic), a small watchdog process, the judge binary
//! started as `judge __watchdog` in a group of its own, holds the list of live groups on a
//! pipe from the judge. When that pipe closes, the judge is gone: it kills every group still
//! listed, removes the run's scratch folders, and exits.

use std::collections::BTreeSet;
use std::io::{self, BufRead, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{ChildStdin, Command, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::thread;

use super::sys;

/// The hidden command that makes the judge binary a watchdog.
pub const COMMAND: &str = "__watchdog";

/// The line to the watchdog: being started on a thread of its own, so the judge does not wait
/// for the exec, then ready.
enum Line {
    Off,
    Starting(thread::JoinHandle<Option<ChildStdin>>),
    Ready(ChildStdin),
}

static LINE: Mutex<Line> = Mutex::new(Line::Off);

fn line() -> MutexGuard<'static, Line> {
    let mut line = LINE.lock().unwrap_or_else(|p| p.into_inner());
    if let Line::Starting(_) = &*line {
        let Line::Starting(starting) = std::mem::replace(&mut *line, Line::Off) else { unreachable!() };
        if let Ok(Some(stdin)) = starting.join() {
            *line = Line::Ready(stdin);
        }
    }
    line
}

/// Starts the watchdog, once per judge process, in the background: the first message to it
/// waits for it. Without it (it could not start) children are still killed at every verdict
/// and on a normal exit, only not when the judge is killed.
pub fn start() {
    let mut line = LINE.lock().unwrap_or_else(|p| p.into_inner());
    if matches!(*line, Line::Off) {
        *line = Line::Starting(thread::spawn(|| spawn().ok()));
    }
}

fn spawn() -> io::Result<ChildStdin> {
    let mut child = Command::new(std::env::current_exe()?)
        .arg(COMMAND)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()?;
    child.stdin.take().ok_or_else(|| io::Error::other("no pipe to the watchdog"))
}

/// Whether a watchdog is there (or coming) to clean up after the judge.
pub fn is_on() -> bool {
    !matches!(*line(), Line::Off)
}

fn tell(message: &str) {
    if let Line::Ready(stdin) = &mut *line() {
        let _ = stdin.write_all(message.as_bytes()).and_then(|_| stdin.flush());
    }
}

/// The group is live: kill it if the judge ends first.
pub fn watch(pgid: u32) {
    tell(&format!("+{pgid}\n"));
}

/// The group has been killed and reaped.
pub fn forget(pgid: u32) {
    tell(&format!("-{pgid}\n"));
}

/// Remove this folder if the judge ends without removing it.
pub fn remove_after(dir: &Path) {
    tell(&format!("d{}\n", dir.display()));
}

/// The watchdog itself: reads until the judge is gone, then cleans up.
pub fn serve(input: impl BufRead) {
    let mut groups = BTreeSet::new();
    let mut folders = Vec::new();
    for line in input.lines() {
        let Ok(line) = line else { break };
        match line.split_at_checked(1) {
            Some(("+", pgid)) => drop(pgid.parse().map(|p: u32| groups.insert(p))),
            Some(("-", pgid)) => drop(pgid.parse().map(|p: u32| groups.remove(&p))),
            Some(("d", dir)) => folders.push(dir.to_string()),
            _ => {}
        }
    }
    for pgid in groups {
        let _ = sys::kill_group(pgid);
    }
    for dir in folders {
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::os::unix::process::ExitStatusExt;

    #[test]
    fn listed_groups_are_killed_and_forgotten_ones_spared_when_the_judge_is_gone() {
        let spawn = || Command::new("sleep").arg("30").process_group(0).spawn().unwrap();
        let (mut listed, mut forgotten) = (spawn(), spawn());
        let folder = std::env::temp_dir().join(format!("judge-watchdog-test-{}", std::process::id()));
        std::fs::create_dir_all(folder.join("inner")).unwrap();
        let script = format!("+{}\n+{}\n-{}\nd{}\n", listed.id(), forgotten.id(), forgotten.id(), folder.display());
        serve(script.as_bytes());
        assert_eq!(listed.wait().unwrap().signal(), Some(sys::SIGKILL));
        assert!(forgotten.try_wait().unwrap().is_none(), "a forgotten group was killed");
        assert!(!folder.exists());
        forgotten.kill().unwrap();
        forgotten.wait().unwrap();
    }
}
