//! The portable runner (`--runner portable`), as a Mac runs it, on this machine: every verdict
//! class, every command that runs solutions, and the whole suite with its tags.

use std::io::{BufRead, BufReader};
use std::time::Duration;

use crate::common::{plant_tagged as plant, solution, text, Copy, Json, CORRECT, SPIN_CPU};

/// One solution per verdict class the clock does not decide, each tagged with the verdict the
/// portable runner must give. The portable runner does not read the solution thread's waits
/// for a CPU, so its fuse is 2.5 times the limit of wall time less the process's CPU time: at
/// 10 s that is 25 s for calls of microseconds, which no load short of a broken machine reaches. The TLEs, which the clock
/// does decide, are the slow test below.
#[test]
fn every_verdict_class_under_the_portable_runner() {
    let copy = Copy::new("portable-verdicts", &["samples"]);
    copy.plant("right", CORRECT);
    plant(&copy, "wrong", "WA", "", "return \"Tie\".to_string();");
    plant(&copy, "panics", "RE", "", "if stone_value.len() > 2 { panic!(\"a panic\"); }");
    let deep = "fn deep(n: u64) -> u64 { if n == 0 { 0 } else { 1 + std::hint::black_box(deep(n - 1)) } }";
    plant(&copy, "overflows", "RE", deep, "if stone_value.len() > 2 { return deep(u64::MAX).to_string(); }");
    plant(&copy, "hoards", "MLE", "", "let held = vec![1u8; 512 << 20]; std::hint::black_box(&held);");
    plant(&copy, "floods", "OLE", "", "let line = \"x\".repeat(1 << 16); for _ in 0..64 { println!(\"{line}\"); }");
    plant(&copy, "broken", "CE", "", "let x: u8 = stone_value.len();");
    let mut args = vec!["--format", "json", "--runner", "portable", "--time-limit", "10s", "--jobs", "7"];
    for name in ["right", "wrong/wrong", "wrong/panics", "wrong/overflows", "wrong/hoards", "wrong/floods"] {
        args.extend(["--solution", name]);
    }
    args.extend(["--solution", "wrong/broken"]);
    let run = copy.judge(&args);
    assert_eq!(run.status, 0, "each gets its tag:\n{}", run.describe());
    let report = run.json();
    assert_eq!(report.get("runner"), Some(&Json::str("portable")), "the report names its runner");
    assert_eq!(report.get("sandbox"), Some(&Json::Bool(false)));
    assert!(reason(&report, "wrong/panics").contains("a panic"), "{}", reason(&report, "wrong/panics"));
    assert!(reason(&report, "wrong/overflows").contains("stack overflow"), "{}", reason(&report, "wrong/overflows"));
    assert!(
        reason(&report, "wrong/hoards").contains("memory"),
        "MLE by the kernel's count: {}",
        reason(&report, "wrong/hoards")
    );
}

/// The two TLEs of the portable runner: by CPU time (the judge's reading of the kernel, past
/// the limit) and by the wall fuse (2.5 times the limit without answering). The margin is the
/// fuse: a correct call must answer within 750 ms of wall time, which holds up to a load of
/// about twice the cores; past it the correct solution may be TLE by the wall, as the
/// README's "On a Mac" says.
#[test]
#[ignore = "slow: decided by the clock, a 300 ms limit and its 750 ms wall fuse"]
fn both_time_limits_under_the_portable_runner() {
    let copy = Copy::new("portable-time", &["samples"]);
    copy.plant("right", CORRECT);
    plant(&copy, "spins", "TLE", "", "if stone_value.len() > 2 { loop { std::hint::spin_loop(); } }");
    plant(&copy, "sleeps", "TLE", "", "std::thread::sleep(std::time::Duration::from_secs(5));");
    let args = ["--format", "json", "--runner", "portable", "--time-limit", "300ms", "--jobs", "3"];
    let mut args = args.to_vec();
    args.extend(["--solution", "right", "--solution", "wrong/spins", "--solution", "wrong/sleeps"]);
    let run = copy.judge(&args);
    assert_eq!(run.status, 0, "each gets its tag:\n{}", run.describe());
    let report = run.json();
    assert!(reason(&report, "wrong/spins").contains("CPU time"), "TLE by CPU: {}", reason(&report, "wrong/spins"));
    assert!(
        reason(&report, "wrong/sleeps").contains("off the CPU"),
        "TLE by the wall fuse: {}",
        reason(&report, "wrong/sleeps")
    );
}

/// The reason the report gives for `name`'s first case that is not AC.
fn reason(report: &Json, name: &str) -> String {
    let results = solution(report, name).get("results").unwrap().items().to_vec();
    let failed = results.into_iter().find(|r| text(r, "verdict") != "AC").unwrap();
    text(&failed, "reason").to_string()
}

/// Memory the solution holds where no allocator of its own sees it is the kernel's count of
/// its process, read by the judge: 400 MiB through `System`, `mmap`, a static in `.bss` and
/// a thread's stack are each MLE under the default 256 MiB.
#[test]
fn memory_held_past_any_allocator_is_mle_on_the_portable_runner() {
    let copy = Copy::new("portable-memory", &["samples"]);
    let touch = "fn touch(block: *mut u8, len: usize) { for at in (0..len).step_by(4096) { \
                 unsafe { block.add(at).write_volatile(1) } } }";
    let system = "let layout = std::alloc::Layout::from_size_align(400 << 20, 4096).unwrap(); \
                  touch(unsafe { std::alloc::GlobalAlloc::alloc(&std::alloc::System, layout) }, 400 << 20);";
    plant(&copy, "by_system", "MLE", touch, system);
    let mmap = format!(
        "{touch}\nextern \"C\" {{ fn mmap(at: *mut u8, len: usize, prot: i32, flags: i32, fd: i32, off: i64) -> *mut u8; }}"
    );
    // PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS (Linux's values).
    plant(
        &copy,
        "by_mmap",
        "MLE",
        &mmap,
        "touch(unsafe { mmap(std::ptr::null_mut(), 400 << 20, 3, 0x22, -1, 0) }, 400 << 20);",
    );
    let statics = format!("{touch}\nstatic mut HELD: [u8; 400 << 20] = [0; 400 << 20];");
    plant(&copy, "by_static", "MLE", &statics, "touch(unsafe { (&raw mut HELD).cast::<u8>() }, 400 << 20);");
    let stack = "std::thread::Builder::new().stack_size(512 << 20).spawn(|| { \
                 let mut held = [0u8; 400 << 20]; for at in (0..held.len()).step_by(4096) { \
                 unsafe { (&raw mut held[at]).write_volatile(1) } } std::hint::black_box(&held); \
                 }).unwrap().join().unwrap();";
    plant(&copy, "by_stack", "MLE", "", stack);
    let mut args = vec!["--format", "json", "--runner", "portable", "--case", "samples/example-1"];
    for name in ["by_system", "by_mmap", "by_static", "by_stack"] {
        args.extend(["--solution", name]);
    }
    let wrong: Vec<String> = args.iter().map(|a| a.replace("by_", "wrong/by_")).collect();
    let run = copy.judge(&wrong.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(run.status, 0, "each is MLE:\n{}", run.describe());
    let report = run.json();
    for name in ["wrong/by_system", "wrong/by_mmap", "wrong/by_static", "wrong/by_stack"] {
        let result = solution(&report, name).get("results").unwrap().items()[0].clone();
        assert_eq!(text(&result, "verdict"), "MLE", "{name}: {}", text(&result, "reason"));
    }
}

/// The solution's own `getrusage` and `setitimer` stand in for the C library's in its own
/// process; the judge reads the kernel from outside, so they change no figure: 1.2 s of CPU
/// a call is TLE.
#[test]
#[ignore = "slow: a call spins past the time limit"]
fn a_solutions_own_accounting_functions_change_no_figure_on_the_portable_runner() {
    let copy = Copy::new("portable-liar", &["samples"]);
    let liar = "#[no_mangle] pub extern \"C\" fn getrusage(_who: i32, usage: *mut u8) -> i32 { \
                unsafe { std::ptr::write_bytes(usage, 0, 144) }; 0 } \
                #[no_mangle] pub extern \"C\" fn setitimer(_which: i32, _new: *const u8, _old: *mut u8) -> i32 { 0 }";
    // 1.2 s of CPU time, whatever else the machine runs.
    plant(&copy, "liar", "TLE", &format!("{liar}\n{SPIN_CPU}"), "spin_cpu_micros(1_200_000);");
    let run = copy.judge(&[
        "--format",
        "json",
        "--runner",
        "portable",
        "--case",
        "samples/example-1",
        "--solution",
        "wrong/liar",
    ]);
    assert_eq!(run.status, 0, "TLE:\n{}", run.describe());
    let result = solution(&run.json(), "wrong/liar").get("results").unwrap().items()[0].clone();
    assert_eq!(text(&result, "verdict"), "TLE");
    assert!(text(&result, "reason").contains("CPU time"), "by its CPU time: {}", text(&result, "reason"));
}

/// The default run: every shipped solution and wrong submission gets its tag.
#[test]
#[ignore = "slow: the whole suite with its time limits"]
fn the_whole_suite_gets_its_tags_under_the_portable_runner() {
    let run = crate::common::judge(&["--format", "json", "--runner", "portable"]);
    let report = run.json();
    let missed: Vec<String> = report
        .get("solutions")
        .unwrap()
        .items()
        .iter()
        .filter(|s| text(s, "met") != "yes")
        .map(|s| format!("{} ({})", text(s, "name"), text(s, "verdict")))
        .collect();
    assert_eq!(run.status, 0, "not as tagged: {missed:?}\n{}", run.stderr);
}

/// A copy with a correct attempt, `my_try`, and the judge run there on the portable runner,
/// which it must say it used.
fn portable(label: &str) -> (Copy, impl Fn(&Copy, &[&str]) -> crate::common::Run) {
    let copy = Copy::new(label, &["samples"]);
    copy.plant("my_try", CORRECT);
    let run = |copy: &Copy, args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["--runner", "portable"]);
        let run = copy.judge(&all);
        assert!(run.stderr.contains("runner: portable"), "not said to be portable: {}", run.describe());
        run
    };
    (copy, run)
}

#[test]
#[ignore = "slow: a command of its own on the portable runner"]
fn run_works_on_the_portable_runner() {
    let (copy, portable) = portable("portable-run");
    let run = portable(&copy, &["run", "--format", "json", "--solution", "my_try", "[1,2,3,7]"]);
    assert_eq!(run.status, 0, "run: {}", run.describe());
    let answered = &run.json().get("testcases").unwrap().items()[0].get("solutions").unwrap().items()[0].clone();
    assert_eq!(text(answered, "answer"), "Bob", "run: {}", run.describe());
}

#[test]
#[ignore = "slow: a command of its own on the portable runner"]
fn stress_works_on_the_portable_runner() {
    let (copy, portable) = portable("portable-stress");
    let stress = portable(&copy, &["stress", "--solution", "my_try", "--count", "2000"]);
    assert_eq!(stress.status, 0, "stress: {}", stress.describe());
    assert!(stress.stdout.contains("no counterexample"), "stress: {}", stress.describe());
}

#[test]
#[ignore = "slow: a command of its own on the portable runner"]
fn verify_works_on_the_portable_runner() {
    let (copy, portable) = portable("portable-verify");
    let verify = portable(&copy, &["verify", "--solution", "my_try", "--max-len", "5"]);
    assert_eq!(verify.status, 0, "verify: {}", verify.describe());
}

#[test]
#[ignore = "slow: a command of its own on the portable runner"]
fn bench_works_on_the_portable_runner() {
    let (copy, portable) = portable("portable-bench");
    let bench =
        portable(&copy, &["bench", "--format", "json", "--solution", "my_try", "--sizes", "1000", "--reps", "3"]);
    assert_eq!(bench.status, 0, "bench: {}", bench.describe());
    let row = bench.json().get("results").unwrap().items()[0].clone();
    assert!(row.get("median_ns").and_then(Json::as_i128).is_some(), "bench: {row:?}");
}

#[test]
#[ignore = "slow: a command of its own on the portable runner"]
fn paste_works_on_the_portable_runner() {
    let (copy, portable) = portable("portable-paste");
    let paste = portable(&copy, &["paste", "my_try"]);
    assert_eq!(paste.status, 0, "paste: {}", paste.describe());
    assert!(paste.stdout.contains("pub fn stone_game_iii"), "paste: {}", paste.describe());
}

#[test]
#[ignore = "slow: a command of its own on the portable runner"]
fn diagnostics_work_on_the_portable_runner() {
    let (copy, portable) = portable("portable-diagnostics");
    let diagnostics = portable(&copy, &["diagnostics", "solutions/my_try.rs"]);
    assert_eq!(diagnostics.status, 0, "diagnostics: {}", diagnostics.describe());
    assert!(diagnostics.stdout.contains("build-finished"), "diagnostics: {}", diagnostics.describe());
}

#[test]
#[ignore = "slow: a command of its own on the portable runner"]
fn watch_works_on_the_portable_runner() {
    let (copy, _) = portable("portable-watch");
    // Judged once at its start, on the portable runner.
    let mut watch = copy
        .command(&["watch", "--solution", "my_try", "--color", "never", "--runner", "portable"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let stdout = BufReader::new(watch.stdout.take().unwrap());
    let (lines, heard) = std::sync::mpsc::channel();
    std::thread::spawn(move || stdout.lines().map_while(Result::ok).for_each(|l| drop(lines.send(l))));
    let mut seen = Vec::new();
    let verdict = loop {
        match heard.recv_timeout(Duration::from_secs(60)) {
            Ok(line) if line.contains("solutions got their expected verdicts") => break line,
            Ok(line) => seen.push(line),
            Err(_) => panic!("watch gave no verdict: {seen:?}"),
        }
    };
    watch.kill().unwrap();
    watch.wait().unwrap();
    assert!(verdict.contains("1/1 solutions got their expected verdicts"), "{verdict}");
    assert!(seen.iter().any(|l| l.contains("runner: portable")), "the header names the runner: {seen:?}");
}

/// A daemon that forks, leaves the session and forks again, set to write a file 8 s later:
/// outside a sandbox (the portable runner, and the native one with `--sandbox off`) the
/// program's keeper adopts it and ends it with the program, so nothing is left to write.
#[test]
#[ignore = "slow: waits past the daemon's 8 s"]
fn a_daemon_outlives_no_run_outside_a_sandbox() {
    let copy = Copy::new("portable-daemon", &["samples"]);
    let left = copy.root.join("left-by-the-daemon");
    let items = "extern \"C\" { fn fork() -> i32; fn setsid() -> i32; fn _exit(code: i32) -> !; }\n\
                 static FORKED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);";
    // Written at once by the daemon: that it ran at all.
    let started = copy.root.join("started");
    let body = format!(
        "if !FORKED.swap(true, std::sync::atomic::Ordering::Relaxed) {{ unsafe {{ if fork() == 0 {{ setsid(); \
         if fork() == 0 {{ let _ = std::fs::write({started:?}, \"x\"); std::thread::sleep(std::time::Duration::from_secs(8)); \
         let _ = std::fs::write({left:?}, std::process::id().to_string()); }} _exit(0); }} }} }}"
    );
    plant(&copy, "daemon", "AC", items, &body);
    for runner in [["--runner", "portable"], ["--sandbox", "off-as-root"]] {
        let mut args = vec!["--solution", "daemon", "--case", "samples/example-1"];
        args.extend(runner);
        let run = copy.judge(&args);
        assert_eq!(run.status, 0, "{runner:?}: AC\n{}", run.describe());
    }
    assert!(started.exists(), "the daemon never started: the test saw nothing");
    std::thread::sleep(Duration::from_secs(10));
    assert!(
        !left.exists(),
        "a daemon outlived the run and wrote {}",
        std::fs::read_to_string(&left).unwrap_or_default()
    );
}
