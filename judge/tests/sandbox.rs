//! Hostile solutions, one per way a solution could reach past its call, planted in a copy of
//! the workspace and judged beside the bundled strategies: each gets the verdict it earns, and
//! the stored data, the build cache, the judge and the other solutions are untouched, with
//! nothing left running. These run only where the kernel gives the judge a sandbox (without
//! one, the planted code would do what it says to this machine); elsewhere the test checks that
//! `--sandbox require` refuses to run.

use std::time::{Duration, Instant};

use crate::common::{
    cache, plant_tagged as plant, processes_with, skipped, solution, text, Copy, Json, SHIPPED, SPIN_CPU,
};

/// Whether the judge runs children in a sandbox here; where it cannot, `--sandbox require`
/// must refuse with the reason.
fn sandboxed(copy: &Copy) -> bool {
    let run = copy.judge(&["--solution", "dp_array", "--case", "example-1", "--format", "json"]);
    if run.json().get("sandbox") == Some(&Json::Bool(true)) {
        return true;
    }
    let refused = copy.judge(&["--solution", "dp_array", "--sandbox", "require"]);
    assert_eq!(refused.status, 2, "{}", refused.describe());
    assert!(refused.stderr.contains("no sandbox here"), "{}", refused.describe());
    skipped("no sandbox: the hostile solutions were not run (--sandbox require refuses, as checked)");
    false
}

/// A digest of a file's bytes (FNV-1a), to tell whether it changed.
fn digest(path: &std::path::Path) -> u64 {
    std::fs::read(path)
        .unwrap()
        .iter()
        .fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

#[test]
#[ignore = "slow: hostile solutions with time and memory limits"]
fn hostile_solutions_get_their_verdicts_and_reach_nothing() {
    let copy = Copy::new("hostile", &["samples"]);
    if !sandboxed(&copy) {
        return;
    }
    let root = copy.root.display().to_string();
    let bin = cache().join("sandboxed").join("bin").display().to_string();
    let judge = env!("CARGO_BIN_EXE_judge");
    let marker = format!("73{}", std::process::id());
    // Every process it can see: stop it, kill it, write into its pipes; the judge, its watchdog
    // and the other solutions' processes are not among them.
    let reach = r#"for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let pid = entry.file_name().to_string_lossy().into_owned();
            if pid.parse::<u32>().is_ok() && pid != std::process::id().to_string() {
                for fd in ["0", "1", "100", "101"] { let _ = std::fs::write(format!("/proc/{pid}/fd/{fd}"), "\u{1e}x\n"); }
                for signal in ["-STOP", "-KILL"] { let _ = std::process::Command::new("kill").args([signal, &pid]).status(); }
            }
        }"#;
    plant(&copy, "reacher", "AC", "", reach);
    // The build cache and the judge's own binary, by their paths on the host.
    let poison = format!(
        "for entry in std::fs::read_dir({bin:?}).into_iter().flatten().flatten() {{ let _ = std::fs::write(entry.path(), \"#!/bin/sh\\necho poisoned\\n\"); }}\n\
         let _ = std::fs::write({judge:?}, \"poisoned\");"
    );
    plant(&copy, "poisoner", "AC", "", &poison);
    // A daemon in a session of its own, set to rewrite a stored answer after the run: asleep
    // once the call has answered, it is ended.
    let daemon = format!(
        "let _ = std::process::Command::new(\"setsid\").args([\"sh\", \"-c\", \"sleep {marker}; echo '\\\"Tie\\\"' > {root}/testcases/samples/example-1.out\"]).spawn();"
    );
    plant(&copy, "daemon", "AC", "", &daemon);
    // The stored answers, found through the workspace's path or the binary's own.
    let reader = format!(
        "let exe = std::fs::read_link(\"/proc/self/exe\").unwrap_or_default();\n\
         if std::fs::read_to_string(\"{root}/testcases/samples/example-1.out\").is_ok() || exe.starts_with({root:?}) || exe.to_string_lossy().contains(\"target\") {{ return \"leaked\".into(); }}"
    );
    plant(&copy, "reader", "AC", "", &reader);
    plant(&copy, "includer", "CE", "", &format!("let _ = include_str!(\"{root}/testcases/samples/example-1.out\");"));
    plant(&copy, "home", "CE", "", "let _ = env!(\"HOME\");");
    // 700 MB held by a process of its own, not by the solution's.
    let awk = r#"BEGIN { s = \"x\"; while (length(s) < 300000000) s = s s; system(\"sleep 1\") }"#;
    // Through its real path: the sandbox has /usr, not the links of /etc/alternatives.
    let awk_path = std::fs::canonicalize("/usr/bin/awk").unwrap();
    let forker = format!(
        "if stone_value.len() > 5 {{ let _ = std::process::Command::new({awk_path:?}).arg(\"{awk}\").status(); }}"
    );
    plant(&copy, "forker", "MLE", "", &forker);
    plant(&copy, "flooder", "OLE", "", "let line = \"x\".repeat(1 << 20);\nfor _ in 0..50 { print!(\"{line}\"); }");
    // A reply frame of its own on the judge's channel, after 700 ms of CPU time: the frame says
    // nothing of time, and the kernel's count is past the limit.
    let forge = format!(
        "use std::io::Write;\nuse std::os::fd::FromRawFd;\n\
        static CALLS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);\n{SPIN_CPU}"
    );
    let forge_body = "let seq = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);\n\
        if stone_value.len() > 5 {\n\
            spin_cpu_micros(700_000);\n\
            let mut frame = vec![11u8];\n\
            frame.extend(seq.to_le_bytes()); frame.extend(13u32.to_le_bytes());\n\
            frame.extend(5u64.to_le_bytes()); frame.extend(b\"Alice\");\n\
            let mut reply = std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(101) });\n\
            let _ = reply.write_all(&frame);\n\
        }";
    plant(&copy, "forger", "TLE", &forge, forge_body);
    plant(&copy, "hog", "MLE", "", "let v = vec![1u8; 2 << 30];\nif v[12345] == 7 { return String::new(); }");
    let deep = "fn deep(n: u64) -> u64 { if n == 0 { 0 } else { 1 + std::hint::black_box(deep(n - 1)) } }";
    plant(&copy, "recursion", "RE", deep, "if stone_value.len() > 2 { return deep(u64::MAX).to_string(); }");
    plant(&copy, "exit_7", "RE", "", "if stone_value.len() > 2 { std::process::exit(7); }");
    plant(&copy, "exit_4", "RE", "", "if stone_value.len() > 2 { std::process::exit(4); }");
    let message =
        "if stone_value.len() > 2 { eprintln!(\"memory allocation of 1 bytes failed\"); std::process::abort(); }";
    plant(&copy, "allocation_message", "RE", "", message);

    let stored_before = copy.read("testcases/samples/example-1.out");
    let judge_before = digest(judge.as_ref());
    // The planted files and the strategies, on the samples (the bundled wrong submissions need
    // the other suites to fail).
    let planted = ["reacher", "poisoner", "daemon", "reader", "wrong/includer", "wrong/home", "wrong/forker"];
    let tagged = ["wrong/flooder", "wrong/forger", "wrong/hog", "wrong/recursion", "wrong/exit_7", "wrong/exit_4"];
    // Tighter limits than the defaults, so that the run is short: the forger sleeps past 0.5 s,
    // the forker's 300 MB pass 64 MiB at once, and 8 MiB of stack run out before 64 MiB of memory.
    let limits = ["--time-limit", "500ms", "--memory-limit", "64", "--stack-mb", "8"];
    let mut args = vec!["--format", "json", "--solution", "wrong/allocation_message"];
    args.extend(limits);
    for name in planted.iter().chain(&tagged).chain(&SHIPPED) {
        args.extend(["--solution", name]);
    }
    let run = copy.judge(&args);
    let report = run.json();
    assert_eq!(run.status, 0, "every solution gets the verdict it is tagged with:\n{}", run.describe());
    assert_eq!(report.get("judge_errors").unwrap().items(), [], "{}", run.describe());
    for strategy in SHIPPED {
        assert_eq!(text(solution(&report, strategy), "verdict"), "AC", "{strategy}");
    }
    let reason = |name: &str| {
        let results = solution(&report, name).get("results").unwrap().items().to_vec();
        let failed = results.iter().find(|r| text(r, "verdict") != "AC").unwrap_or_else(|| panic!("{name}: all AC"));
        text(failed, "reason").to_string()
    };
    let compile_error = |name: &str| text(solution(&report, name), "compile_error").to_string();
    assert!(compile_error("wrong/includer").contains("couldn't read"), "{}", compile_error("wrong/includer"));
    assert!(compile_error("wrong/home").contains("HOME"), "{}", compile_error("wrong/home"));
    assert!(reason("wrong/forker").contains("over the limit of 64 MiB"), "{}", reason("wrong/forker"));
    assert!(reason("wrong/hog").contains("2 GiB"), "{}", reason("wrong/hog"));
    assert!(reason("wrong/recursion").contains("stack overflow"), "{}", reason("wrong/recursion"));
    assert!(reason("wrong/exit_7").contains("exited with status 7"), "{}", reason("wrong/exit_7"));
    assert!(reason("wrong/exit_4").contains("exited with status 4"), "{}", reason("wrong/exit_4"));
    assert!(reason("wrong/allocation_message").contains("signal 6"), "{}", reason("wrong/allocation_message"));
    let forged = solution(&report, "wrong/forger").get("results").unwrap().items().to_vec();
    let tle = forged.iter().find(|r| text(r, "verdict") == "TLE").unwrap();
    assert!(tle.get("wall_ns").and_then(Json::as_i128).unwrap() >= 500_000_000, "{tle:?}");

    // Nothing outlived the run, and nothing it could reach changed: the stored answer, the
    // judge, the build cache.
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(processes_with(&format!("sleep {marker}")), Vec::<String>::new());
    assert_eq!(copy.read("testcases/samples/example-1.out"), stored_before);
    assert_eq!(digest(judge.as_ref()), judge_before, "the judge's binary changed");
    for entry in std::fs::read_dir(cache().join("sandboxed").join("bin")).unwrap().flatten() {
        let head = std::fs::read(entry.path()).unwrap_or_default();
        assert!(!head.starts_with(b"#!/bin/sh\necho poisoned"), "{:?} was poisoned", entry.path());
    }
}

#[test]
#[ignore = "slow: a compile limit"]
fn a_compile_bomb_is_ce_at_the_compile_limit_and_a_killed_rustc_is_not_remembered() {
    // Needs no sandbox: the compile limit holds for rustc either way.
    let copy = Copy::new("bomb", &["samples"]);
    let spin = "#[allow(long_running_const_eval)]\n\
                const SPIN: u64 = { let mut i = 1u64; while i != 0 { i = i.wrapping_mul(3); } i };";
    let name = format!("bomb_{}", std::process::id());
    plant(&copy, &name, "CE", spin, "let _ = SPIN;");
    let shown = format!("solutions/wrong/{name}");
    let start = Instant::now();
    let run = copy.judge(&["--solution", &shown, "--compile-limit", "1s", "--format", "json"]);
    assert!(start.elapsed() < Duration::from_secs(20), "{:?}", start.elapsed());
    assert_eq!(run.status, 0, "{}", run.describe());
    let error = text(solution(&run.json(), &format!("wrong/{name}")), "compile_error").to_string();
    assert!(error.contains("compile time limit"), "{error}");

    // rustc killed from outside mid-build: a judge error, and the next run compiles again.
    // rustc building it or clippy-driver checking it, by its path inside the sandbox or not.
    let tool = |p: &String| p.split(' ').next().unwrap_or_default().to_string();
    let rustc_running = || {
        processes_with(&shown)
            .iter()
            .map(tool)
            .filter(|t| t.ends_with("/rustc") || t.ends_with("/clippy-driver"))
            .count()
    };
    // rustc building it, not only clippy-driver checking it beside (they start in either
    // order): killing the check alone would leave the build to run to its limit, as it should.
    let building = || processes_with(&shown).iter().map(tool).filter(|t| t.ends_with("/rustc")).count();
    let judge = copy
        .command(&["--solution", &shown, "--compile-limit", "60s"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let give_up = Instant::now() + Duration::from_secs(20);
    while building() == 0 && Instant::now() < give_up {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(building() > 0, "rustc never started");
    std::process::Command::new("pkill")
        .args(["-KILL", "-f", &format!("^/[^ ]*/(rustc|clippy-driver) .*{shown}")])
        .status()
        .unwrap();
    let ended = judge.wait_with_output().unwrap();
    assert_eq!(ended.status.code(), Some(2), "{}", String::from_utf8_lossy(&ended.stderr));

    // SIGTERM to the judge mid-build: exit 143 at once, and no rustc left.
    let mut judge = copy
        .command(&["--solution", &shown, "--compile-limit", "60s"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let give_up = Instant::now() + Duration::from_secs(20);
    while building() == 0 && Instant::now() < give_up {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(building() > 0, "rustc was not started again: the killed build was remembered");
    std::process::Command::new("kill").args(["-TERM", &judge.id().to_string()]).status().unwrap();
    assert_eq!(judge.wait().unwrap().code(), Some(143));
    let give_up = Instant::now() + Duration::from_secs(5);
    while rustc_running() > 0 && Instant::now() < give_up {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(rustc_running(), 0, "rustc outlived the judge");
}
