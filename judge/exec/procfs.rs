//! Reading what the kernel says of a process in /proc: memory in KiB, a thread's scheduling
//! account, its state. Plain `std::fs`; the files a child is read through call after call are
//! held open and read again from offset 0, which makes the kernel write them afresh.

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::Path;

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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Account {
    pub ran_ns: u64,
    pub waited_ns: u64,
}

impl Account {
    pub fn parse(text: &str) -> Option<Account> {
        let mut fields = text.split_whitespace().map(str::parse::<u64>);
        Some(Account { ran_ns: fields.next()?.ok()?, waited_ns: fields.next()?.ok()? })
    }

    pub fn since(self, earlier: Account) -> Account {
        Account {
            ran_ns: self.ran_ns.saturating_sub(earlier.ran_ns),
            waited_ns: self.waited_ns.saturating_sub(earlier.waited_ns),
        }
    }
}

/// Whether the `stat` text of a thread says it is running or runnable (state `R`); its
/// name, in parentheses, may hold anything, so the state is read after the last `)`.
pub fn runnable(stat: &str) -> bool {
    stat.rsplit_once(')').is_some_and(|(_, rest)| rest.trim_start().starts_with('R'))
}

/// Whether process `pid` has ended: gone, or a zombie (state `Z`) or dead (`X`) not yet
/// reaped.
pub fn ended(pid: u32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { return true };
    stat.rsplit_once(')').is_none_or(|(_, rest)| matches!(rest.trim_start().chars().next(), Some('Z' | 'X')))
}

/// The user and system time of a whole process, its ended threads included, from its `stat`
/// text, in clock ticks (fields 14 and 15).
pub fn ticks(stat: &str) -> Option<u64> {
    let (_, rest) = stat.rsplit_once(')')?;
    let mut fields = rest.split_whitespace().skip(11);
    Some(fields.next()?.parse::<u64>().ok()? + fields.next()?.parse::<u64>().ok()?)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_accounts_and_states_are_read_from_the_kernel_texts() {
        let status = "Name:\tx\nVmHWM:\t  2048 kB\nVmRSS:\t  1024 kB\n";
        assert_eq!(
            (kib_in(status, "VmRSS"), kib_in(status, "VmHWM"), kib_in(status, "Vm")),
            (Some(1024), Some(2048), None)
        );
        assert_eq!(Account::parse("263662 17 3\n"), Some(Account { ran_ns: 263_662, waited_ns: 17 }));
        assert_eq!(Account::parse(""), None);
        // A name may hold a parenthesis and a space.
        let stat = "42 (a) R b) S 1 42 42 0 -1 4194560 100 0 0 0 7 5 0 0 20 0 1 0";
        assert!(!runnable(stat));
        assert_eq!(ticks(stat), Some(12));
        assert!(runnable("42 (solution) R 1 42"));
    }

    #[test]
    fn this_process_is_read_as_any_other() {
        let me = std::process::id();
        assert!(kib(format!("/proc/{me}/status"), "VmRSS").is_some_and(|k| k > 100));
        // A thread that spins 20 ms when told, then blocks: read from here, before and after.
        let (go, told) = std::sync::mpsc::channel::<()>();
        let (done, finished) = std::sync::mpsc::channel::<u32>();
        let spinner = std::thread::spawn(move || {
            let _ = done.send(crate::exec::sys::thread_id());
            let _ = told.recv();
            let spin = std::time::Instant::now();
            while spin.elapsed() < std::time::Duration::from_millis(20) {
                std::hint::spin_loop();
            }
            let _ = done.send(0);
            let _ = told.recv();
        });
        let tid = finished.recv().unwrap();
        assert!(threads(me).contains(&tid) && threads(me).first() == Some(&me), "{:?}", threads(me));
        let file = File::open(format!("/proc/{me}/task/{tid}/schedstat")).unwrap();
        let stat = File::open(format!("/proc/{me}/task/{tid}/stat")).unwrap();
        let mut buffer = [0u8; 512];
        let before = Account::parse(reread(&file, &mut buffer)).unwrap();
        go.send(()).unwrap();
        finished.recv().unwrap();
        while runnable(reread(&stat, &mut buffer)) {
            std::hint::spin_loop();
        }
        let after = Account::parse(reread(&file, &mut buffer)).unwrap();
        go.send(()).unwrap();
        spinner.join().unwrap();
        // 20 ms of wall time spinning: on a CPU, or waiting for one on a busy machine.
        let spent = after.since(before);
        assert!(spent.ran_ns > 0 && spent.ran_ns + spent.waited_ns >= 15_000_000, "{before:?} then {after:?}");
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
