//! The foreign functions of `sys`, each through its safe wrapper.

use super::*;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, Stdio};

#[test]
fn a_group_is_killed_whole() {
    // A shell in its own group that starts a sleep, names it and waits: both die with the group.
    let mut shell = Command::new("sh")
        .args(["-c", "sleep 30 & echo $!; wait"])
        .stdout(Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(shell.stdout.take().unwrap()), &mut line).unwrap();
    let sleep: u32 = line.trim().parse().unwrap();
    kill_group(shell.id()).unwrap();
    assert_eq!(shell.wait().unwrap().signal(), Some(SIGKILL));
    // Gone, or a zombie waiting for whoever adopted it to reap it.
    let dead = || {
        let state = std::fs::read_to_string(format!("/proc/{sleep}/stat")).unwrap_or_default();
        state.is_empty() || state.contains(") Z ")
    };
    let give_up = std::time::Instant::now() + std::time::Duration::from_secs(2);
    while !dead() && std::time::Instant::now() < give_up {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(dead(), "the sleep outlived its group");
}

#[test]
fn limits_and_descriptors_reach_the_child() {
    let mut command = Command::new("sh");
    command.args(["-c", "ulimit -f; ulimit -c; echo moved >&7"]).stdout(Stdio::piped());
    let (reader, writer) = std::io::pipe().unwrap();
    let raw = std::os::fd::AsRawFd::as_raw_fd(&writer);
    // SAFETY: the closure only calls async-signal-safe functions.
    unsafe {
        command.pre_exec(move || {
            limit(Resource::FileSize, 4096 * 512)?;
            limit(Resource::CoreDump, 0)?;
            move_fd(raw, 7)
        });
    }
    let output = command.output().unwrap();
    drop(writer);
    let mut moved = String::new();
    std::io::Read::read_to_string(&mut { reader }, &mut moved).unwrap();
    // `ulimit -f` counts 512-byte blocks.
    assert_eq!(String::from_utf8_lossy(&output.stdout), "4096\n0\n");
    assert_eq!(moved, "moved\n");
}

#[test]
fn a_widened_pipe_takes_a_whole_request_without_a_reader() {
    let (reader, mut writer) = std::io::pipe().unwrap();
    let granted = widen_pipe(&writer, 1 << 20).unwrap();
    assert!(granted >= 1 << 20, "{granted}");
    // Blocks forever on a 64 KiB pipe, as nothing reads yet.
    std::io::Write::write_all(&mut writer, &vec![7u8; 300_000]).unwrap();
    drop(writer);
    let mut read = Vec::new();
    std::io::Read::read_to_end(&mut { reader }, &mut read).unwrap();
    assert_eq!(read.len(), 300_000);
    let file = std::fs::File::open("/proc/self/status").unwrap();
    assert!(widen_pipe(&file, 1 << 20).is_err(), "only a pipe can be widened");
}

#[test]
fn proc_fields_are_read_in_kib() {
    let rss = proc_kib(None, "status", "VmRSS").unwrap();
    assert!(rss > 100, "{rss}");
    assert!(reset_peak());
    let touched = std::hint::black_box(vec![1u8; 64 << 20]);
    let peak = proc_kib(None, "status", "VmHWM").unwrap();
    assert!(peak >= rss + (48 << 10), "{peak} after touching 64 MiB over {rss}");
    drop(touched);
    assert_eq!(proc_kib(Some(std::process::id()), "status", "VmNope"), None);
}

#[test]
fn a_child_of_a_gone_parent_does_not_start() {
    let spawn = |parent: u32| {
        let mut command = Command::new("true");
        // SAFETY: the closure only calls async-signal-safe functions.
        unsafe { command.pre_exec(move || die_with_parent(parent)) };
        command.status()
    };
    assert!(spawn(std::process::id()).unwrap().success());
    // Not its parent: the check refuses, as it does once the judge has died.
    assert!(spawn(u32::MAX).is_err());
}

#[test]
fn a_nonblocking_pipe_says_would_block_and_poll_says_when_it_may_go_on() {
    use std::io::{Read, Write};
    use std::time::{Duration, Instant};
    let (mut reader, mut writer) = std::io::pipe().unwrap();
    set_nonblocking(&reader).unwrap();
    set_nonblocking(&writer).unwrap();
    let mut buffer = [0u8; 16];
    assert_eq!(reader.read(&mut buffer).unwrap_err().kind(), std::io::ErrorKind::WouldBlock);
    // Nothing to read: the wait lasts its timeout, and the empty pipe can take more.
    let start = Instant::now();
    assert_eq!(wait_for_pipes(&reader, Some(&writer), Duration::from_millis(30)).unwrap(), (false, true));
    assert_eq!(
        wait_for_pipes(&reader, None::<&std::io::PipeWriter>, Duration::from_millis(30)).unwrap(),
        (false, false)
    );
    assert!(start.elapsed() >= Duration::from_millis(30));
    // Fill the pipe until it refuses: then it is not writable, and it is readable.
    let chunk = vec![1u8; 1 << 16];
    while writer.write(&chunk).is_ok() {}
    assert_eq!(wait_for_pipes(&reader, Some(&writer), Duration::ZERO).unwrap(), (true, false));
    drop(writer);
    let mut all = Vec::new();
    let _ = reader.read_to_end(&mut all);
    // The writer is gone: the reader is woken, and reads the end.
    assert_eq!(wait_for_pipes(&reader, None::<&std::io::PipeWriter>, Duration::from_secs(5)).unwrap(), (true, false));
    assert_eq!(reader.read(&mut buffer).unwrap(), 0);
}
