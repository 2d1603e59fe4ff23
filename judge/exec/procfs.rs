//! Reading what the kernel says of a process in /proc: memory in KiB, a thread's scheduling
//! account, its state. Plain `std::fs`; the files a child is read through call after call are
//! held open and read again from offset 0, which makes the kernel write them afresh.

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::Path;

use super::account::Sched;

/// A `<field>: <n> kB` line of a `status` or `meminfo` text, in KiB.
pub fn kib_in(text: &str, field: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(field) && l[field.len()..].starts_with(':'))?;
    line[field.len() + 1..].trim().trim_end_matches("kB").trim().parse().ok()
}

/// A `<field>: <n> kB` line of a /proc file, in KiB.
pub fn kib(path: impl AsRef<Path>, field: &str) -> Option<u64> {
    kib_in(&std::fs::read_to_string(path).ok()?, field)
}

/// The text of a /proc file held open, read afresh; empty when it cannot be read (the process
/// has ended).
pub fn reread<'a>(file: &File, buffer: &'a mut [u8]) -> &'a str {
    let read = file.read_at(buffer, 0).unwrap_or(0);
    std::str::from_utf8(&buffer[..read]).unwrap_or("")
}

/// A thread's account, from `/proc/<pid>/task/<tid>/schedstat`: nanoseconds on a CPU, and
/// nanoseconds runnable but waiting for one (needs a kernel with scheduler statistics).
pub fn sched(text: &str) -> Option<Sched> {
    let mut fields = text.split_whitespace().map(str::parse::<u64>);
    Some(Sched { ran_ns: fields.next()?.ok()?, waited_ns: fields.next()?.ok()? })
}

/// Whether a thread's `stat` text says it is runnable (state `R`): on a CPU, or waiting for one.
pub fn runnable(stat: &str) -> bool {
    state(stat) == Some('R')
}

/// The state letter of a `stat` text: the first field after the command's closing parenthesis.
fn state(stat: &str) -> Option<char> {
    stat.rsplit_once(')')?.1.trim_start().chars().next()
}

/// Whether process `pid`'s main thread is on a CPU or waiting for one (false once it has
/// ended).
pub fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| runnable(&stat))
}

/// Whether process `pid` has ended: gone, or a zombie (state `Z`) or dead (`X`) not yet
/// reaped.
pub fn ended(pid: u32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { return true };
    matches!(state(&stat), None | Some('Z' | 'X'))
}

/// The children of thread `task` of process `pid`.
pub fn children_of_task(pid: u32, task: u32) -> Vec<u32> {
    let listed = std::fs::read_to_string(format!("/proc/{pid}/task/{task}/children")).unwrap_or_default();
    listed.split_whitespace().filter_map(|p| p.parse().ok()).collect()
}

/// The threads of `pid`, the main one first when it is still listed.
pub fn threads(pid: u32) -> Vec<u32> {
    let listed = std::fs::read_dir(format!("/proc/{pid}/task")).into_iter().flatten().flatten();
    let mut tids: Vec<u32> = listed.filter_map(|t| t.file_name().to_str()?.parse().ok()).collect();
    tids.sort_unstable_by_key(|&t| (t != pid, t));
    tids
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn fields_accounts_and_states_are_read_from_the_kernel_texts() {
        let status = "Name:\tx\nVmHWM:\t  2048 kB\nVmRSS:\t  1024 kB\n";
        assert_eq!(
            (kib_in(status, "VmRSS"), kib_in(status, "VmHWM"), kib_in(status, "Vm")),
            (Some(1024), Some(2048), None)
        );
        assert_eq!(sched("263662 17 3\n"), Some(Sched { ran_ns: 263_662, waited_ns: 17 }));
        assert_eq!(sched(""), None);
        // A command may hold spaces and parentheses: the state follows the last one.
        assert!(runnable("42 (a) b) R 1 42 42 0"));
        assert!(!runnable("42 (sleeps) S 1 42 42 0") && !runnable("42 (io) D 1") && !runnable(""));
    }

    #[test]
    fn this_process_is_read_as_any_other() {
        let me = std::process::id();
        assert!(kib(format!("/proc/{me}/status"), "VmRSS").is_some_and(|k| k > 100));
        // A thread that spins for 20 ms of its own CPU time when told, then blocks: read from
        // here, before and after. By CPU time, not wall time: a loaded machine (or its
        // hypervisor) may keep a thread off every CPU for much of 20 ms of wall time.
        let (go, told) = std::sync::mpsc::channel::<()>();
        let (done, finished) = std::sync::mpsc::channel::<u32>();
        let spinner = std::thread::spawn(move || {
            let _ = done.send(crate::exec::sys::thread_id());
            let _ = told.recv();
            let own = File::open("/proc/thread-self/schedstat").unwrap();
            let mut buffer = [0u8; 128];
            let mut ran = || sched(reread(&own, &mut buffer)).map_or(u64::MAX, |s| s.ran_ns);
            let from = ran();
            while ran().saturating_sub(from) < 20_000_000 {
                std::hint::spin_loop();
            }
            let _ = done.send(0);
            let _ = told.recv();
        });
        let tid = finished.recv().unwrap();
        assert!(threads(me).contains(&tid) && threads(me).first() == Some(&me), "{:?}", threads(me));
        let file = File::open(format!("/proc/{me}/task/{tid}/schedstat")).unwrap();
        let mut buffer = [0u8; 512];
        let before = sched(reread(&file, &mut buffer)).unwrap();
        go.send(()).unwrap();
        finished.recv().unwrap();
        // The account is brought up to date when the thread leaves the CPU, which it does now.
        let ran = |after: Sched| after.ran_ns - before.ran_ns;
        let give_up = std::time::Instant::now() + std::time::Duration::from_secs(10);
        let mut after = sched(reread(&file, &mut buffer)).unwrap();
        while ran(after) < 20_000_000 && std::time::Instant::now() < give_up {
            std::thread::sleep(std::time::Duration::from_millis(1));
            after = sched(reread(&file, &mut buffer)).unwrap();
        }
        go.send(()).unwrap();
        spinner.join().unwrap();
        assert!(ran(after) >= 20_000_000, "{before:?} then {after:?}");
    }

    #[test]
    fn a_process_has_ended_once_a_zombie_and_once_reaped() {
        assert!(!ended(std::process::id()));
        let mut child = std::process::Command::new("/bin/sh").args(["-c", "exit 3"]).spawn().unwrap();
        let pid = child.id();
        // Not reaped yet: a zombie once it has exited.
        let give_up = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while !ended(pid) && std::time::Instant::now() < give_up {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        assert!(ended(pid), "{:?}", std::fs::read_to_string(format!("/proc/{pid}/stat")));
        assert!(std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok(), "a zombie is still listed");
        assert_eq!(child.wait().unwrap().code(), Some(3));
        assert!(ended(pid));
    }
}
