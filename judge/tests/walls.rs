//! What crosses the box's walls: nothing the judge inherited reaches a solution, nothing a
//! solution sends back is kept past a bound, nothing inside names the judge or the host, and a
//! solution's signals reach no process of the judge's. Each in every mode the machine gives.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::common::{plant_tagged as plant, skipped, solution, text, Copy, Json, Run};

extern "C" {
    fn dup2(from: i32, to: i32) -> i32;
}

/// Runs `command` to its end: its output, and the judge's own peak resident memory in KiB, its
/// `VmHWM`, read until it exits (a descendant's, rustc's say, is not the judge's).
fn run_measured(mut command: std::process::Command) -> (Run, u64) {
    command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = command.spawn().unwrap();
    let (mut out, mut err) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let stdout = std::thread::spawn(move || {
        let mut text = Vec::new();
        out.read_to_end(&mut text).unwrap();
        text
    });
    let stderr = std::thread::spawn(move || {
        let mut text = Vec::new();
        err.read_to_end(&mut text).unwrap();
        text
    });
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak_kib = 0;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        let text = std::fs::read_to_string(&status_file).unwrap_or_default();
        let hwm = text
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok());
        peak_kib = peak_kib.max(hwm.unwrap_or(0));
        std::thread::sleep(Duration::from_millis(5));
    };
    let run = Run {
        status: status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&stdout.join().unwrap()).into_owned(),
        stderr: String::from_utf8_lossy(&stderr.join().unwrap()).into_owned(),
    };
    assert!(peak_kib > 0, "the judge's memory was never read");
    (run, peak_kib)
}

/// The modes to judge in: the default (a sandbox and a cell where the machine gives them),
/// without a cell, without a sandbox, and without either.
const MODES: [&[&str]; 4] =
    [&[], &["--cgroup", "off"], &["--sandbox", "off-as-root"], &["--sandbox", "off-as-root", "--cgroup", "off"]];

#[test]
#[ignore = "slow: four modes"]
fn a_descriptor_the_judge_inherits_reaches_no_solution_in_any_mode() {
    let copy = Copy::new("inherited", &["samples"]);
    // A solution that looks for the workspace through descriptor 7 and for anything else open
    // but its standard streams, the driver's two pipes and its ledger.
    let items = "extern \"C\" { fn openat(dir: i32, path: *const std::ffi::c_char, flags: i32) -> i32; fn fcntl(fd: i32, command: i32, ...) -> i32; }";
    let body = "let stored = unsafe { openat(7, c\"testcases/samples/example-1.out\".as_ptr(), 0) };\n\
        if stored >= 0 { panic!(\"read a stored answer through descriptor 7\"); }\n\
        let open: Vec<i32> = (3..1024).filter(|&fd| !(100..=102).contains(&fd) && unsafe { fcntl(fd, 1) } >= 0).collect();\n\
        if !open.is_empty() { panic!(\"holds descriptors {open:?}\"); }";
    plant(&copy, "looks_around", "AC", items, body);
    for mode in MODES {
        let mut args = vec!["--format", "json", "--solution", "looks_around"];
        args.extend(mode);
        let mut command = copy.command(&args);
        let workspace = std::fs::File::open(&copy.root).unwrap();
        let (_reader, writer) = std::io::pipe().unwrap();
        let (dir, pipe) = (std::os::fd::AsRawFd::as_raw_fd(&workspace), std::os::fd::AsRawFd::as_raw_fd(&writer));
        // SAFETY: dup2 is async-signal-safe, and all the hook does: as a shell's `7<DIR 9>PIPE`.
        unsafe {
            command.pre_exec(move || {
                for (from, to) in [(dir, 7), (pipe, 9)] {
                    if dup2(from, to) < 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                }
                Ok(())
            });
        }
        let (run, _) = run_measured(command);
        let report = run.json();
        let verdict = text(solution(&report, "looks_around"), "verdict").to_string();
        assert_eq!(verdict, "AC", "{mode:?}: {}", run.describe());
    }
}

#[test]
#[ignore = "slow: a 250 MiB frame"]
fn a_reply_frame_of_any_size_is_kept_to_a_bound() {
    let copy = Copy::new("frame", &["samples"]);
    // Its own panic frame on the reply pipe, 250 MiB long, then an exit.
    let items = "use std::io::Write;\nuse std::os::fd::FromRawFd;\n\
        static CALLS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);";
    let body = "let seq = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);\n\
        let length: u32 = 250 << 20;\n\
        let mut head = vec![15u8]; head.extend(seq.to_le_bytes()); head.extend(length.to_le_bytes());\n\
        head.extend(1u32.to_le_bytes()); head.extend(1u32.to_le_bytes()); head.extend(0u64.to_le_bytes()); head.extend(0u32.to_le_bytes());\n\
        let mut reply = std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(101) });\n\
        let _ = reply.write_all(&head);\n\
        let chunk = vec![b'x'; 1 << 20]; let mut left = length as usize - 20;\n\
        while left > 0 { let n = left.min(chunk.len()); if reply.write_all(&chunk[..n]).is_err() { break; } left -= n; }\n\
        std::process::exit(3);";
    plant(&copy, "flood_frame", "RE", items, body);
    let mut strategies = vec!["--format", "json", "--jobs", "16", "--solution", "wrong/flood_frame"];
    for strategy in ["dp_array", "four_scalars", "recursive_memo", "rolling_mod4"] {
        strategies.extend(["--solution", strategy]);
    }
    let (run, peak_kib) = run_measured(copy.command(&strategies));
    let report = run.json();
    let flood = solution(&report, "wrong/flood_frame");
    assert_eq!(text(flood, "verdict"), "RE", "{}", run.describe());
    let reason = text(&flood.get("results").unwrap().items()[0], "reason").to_string();
    assert!(reason.contains("more bytes of the message dropped"), "{}", &reason[reason.len().saturating_sub(200)..]);
    assert!(peak_kib < 200 << 10, "the judge held {peak_kib} KiB");
    assert!(run.stdout.len() < 1 << 20, "a report of {} bytes", run.stdout.len());
    assert_eq!(run.status, 0, "every other solution is judged as ever");
}

#[test]
fn nothing_inside_the_sandbox_names_the_judge_or_the_host() {
    let copy = Copy::new("inside", &["samples"]);
    let body = "for file in [\"/proc/1/cmdline\", \"/proc/1/comm\", \"/proc/self/mountinfo\", \"/proc/self/cgroup\"] {\n\
            let text = std::fs::read(file).map(|b| String::from_utf8_lossy(&b).replace('\\0', \" \")).unwrap_or_default();\n\
            eprintln!(\"{file}: {text}\");\n\
        }";
    plant(&copy, "looks_inside", "AC", "", body);
    let run = copy.judge(&["--format", "json", "--solution", "looks_inside", "--case", "samples/example-1"]);
    let report = run.json();
    if report.get("sandbox") != Some(&Json::Bool(true)) {
        skipped("no sandbox here: what a sandbox shows inside was not checked");
        return;
    }
    let result = &solution(&report, "looks_inside").get("results").unwrap().items()[0];
    let seen = text(result, "stderr").to_string();
    assert!(seen.contains("/proc/1/cmdline: sandbox-init"), "{}", run.describe());
    let host = copy.root.to_string_lossy().into_owned();
    let cache = crate::common::cache().to_string_lossy().into_owned();
    for named in [host.as_str(), cache.as_str(), "--solution", "judge-", "stone-judge"] {
        assert!(!seen.contains(named), "{named:?} seen inside:\n{seen}");
    }
}

#[test]
#[ignore = "slow: twenty solutions built"]
fn a_sigsegv_a_solution_sends_itself_twice_ends_it_every_time() {
    let copy = Copy::new("segv", &["samples"]);
    let items = "extern \"C\" { fn kill(pid: i32, signal: i32) -> i32; fn getpid() -> i32; }";
    let body = "unsafe { kill(getpid(), 11); kill(getpid(), 11); }";
    let mut args = vec!["--format", "json", "--case", "samples/example-1"];
    let names: Vec<String> = (0..20).map(|k| format!("segv_{k}")).collect();
    for name in &names {
        plant(&copy, name, "RE", items, body);
    }
    let wrong: Vec<String> = names.iter().map(|n| format!("wrong/{n}")).collect();
    for name in &wrong {
        args.extend(["--solution", name]);
    }
    let run = copy.judge(&args);
    let report = run.json();
    for name in &wrong {
        let first = &solution(&report, name).get("results").unwrap().items()[0];
        assert_eq!(text(first, "verdict"), "RE", "{name}: {first:?}");
        assert!(text(first, "reason").contains("signal 11"), "{name}: {first:?}");
    }
}

#[test]
#[ignore = "slow: time limits, two modes"]
fn a_solution_that_stops_its_group_or_joins_the_judges_holds_nothing_up() {
    let copy = Copy::new("groups", &["samples"]);
    let items = "extern \"C\" { fn kill(pid: i32, signal: i32) -> i32; fn setpgid(pid: i32, group: i32) -> i32; fn getpgid(pid: i32) -> i32; fn getppid() -> i32; }";
    // Stops every process of its own group: itself alone.
    plant(&copy, "stops_group", "TLE", items, "unsafe { kill(0, 19); }");
    // Joins the group of the process that started it, then stops that group.
    plant(&copy, "joins_group", "TLE", items, "unsafe { setpgid(0, getpgid(getppid())); kill(0, 19); }");
    for mode in [&[][..], &["--sandbox", "off-as-root"]] {
        let mut args = vec![
            "--format",
            "json",
            "--time-limit",
            "200ms",
            "--solution",
            "wrong/stops_group",
            "--solution",
            "wrong/joins_group",
        ];
        args.extend(mode);
        let start = Instant::now();
        let run = copy.judge(&args);
        assert!(start.elapsed() < Duration::from_secs(60), "{mode:?}: the judge was held {:?}", start.elapsed());
        assert_eq!(run.status, 0, "{mode:?}: {}", run.describe());
    }
}

#[test]
#[ignore = "slow: ten thousand compile errors"]
fn a_flood_of_compile_errors_is_kept_to_a_bound() {
    let copy = Copy::new("errors", &["samples"]);
    // Ten thousand type errors, each its own, from macros: some 7 MB of rustc's output.
    let mut items = String::from("macro_rules! e0 { () => { let _: u8 = 1usize; }; }\n");
    for level in 1..=4 {
        let calls = format!("e{}!(); ", level - 1).repeat(10);
        items.push_str(&format!("macro_rules! e{level} {{ () => {{ {calls} }}; }}\n"));
    }
    plant(&copy, "errors", "CE", &items, "e4!();");
    let cache = copy.root.join("cache");
    let mut command = copy.command(&["--format", "json", "--compile-limit", "5min", "--solution", "wrong/errors"]);
    command.env("JUDGE_CACHE", &cache);
    let (run, peak_kib) = run_measured(command);
    let report = run.json();
    let errors = solution(&report, "wrong/errors");
    assert_eq!(text(errors, "verdict"), "CE", "{}", run.describe());
    assert!(text(errors, "compile_error").contains("mismatched types"), "{}", run.describe());
    assert!(peak_kib < 200 << 10, "the judge held {peak_kib} KiB");
    assert!(run.stdout.len() < 1 << 20, "a report of {} bytes", run.stdout.len());
    // What is remembered of the build: its error, bounded.
    let mut remembered = 0;
    for entry in walk(&cache) {
        let name = entry.file_name().unwrap().to_string_lossy().into_owned();
        if name.ends_with(".ce") || name.starts_with("check-") {
            let bytes = std::fs::metadata(&entry).unwrap().len();
            assert!(bytes < 1 << 20, "{} is {bytes} bytes", entry.display());
            remembered += 1;
        }
    }
    assert!(remembered > 0, "no compile error was remembered under {}", cache.display());
}

/// Every file under `dir`.
fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        match path.is_dir() {
            true => found.extend(walk(&path)),
            false => found.push(path),
        }
    }
    found
}
