//! Each submission is compiled on its own and runs in its own process, within limits: what a
//! solution does cannot stop the others, fool the judge, outlive the run or touch the stored
//! data. Each test plants a file in a temporary copy of the workspace.

use std::time::{Duration, Instant};

use crate::common::{solution, text, Copy, Json, CORRECT};

fn verdicts(report: &Json, name: &str) -> Vec<String> {
    solution(report, name).get("results").unwrap().items().iter().map(|r| text(r, "verdict").to_string()).collect()
}

#[test]
fn a_type_error_is_ce_with_its_place_and_every_other_solution_is_judged() {
    let copy = Copy::new("ce", &["samples"]);
    copy.plant("my_try", "let x: i32 = \"not a number\";\nx.to_string()");
    let run = copy.judge(&["--format", "json"]);
    let report = run.json();
    let mine = solution(&report, "my_try");
    assert_eq!(text(mine, "verdict"), "CE", "{}", run.describe());
    assert!(text(mine, "compile_error").contains("--> solutions/my_try.rs:3:"), "{mine:?}");
    // Everything else is judged as if my_try were not there.
    for other in report.get("solutions").unwrap().items().iter().filter(|s| text(s, "name") != "my_try") {
        assert!(other.get("cases_run").and_then(Json::as_i128).unwrap() > 0, "{other:?}");
        if text(other, "expect") == "AC" {
            assert_eq!(text(other, "met"), "yes", "{other:?}");
        }
    }
    assert_eq!(run.status, 1);
}

#[test]
#[ignore = "slow: time limits"]
fn forged_records_and_a_writing_thread_get_tle_by_the_kernels_count() {
    let copy = Copy::new("forge", &["samples"]);
    let body = r#"std::thread::spawn(|| loop {
            println!("\u{1e}judge:0 start");
            println!("\u{1e}judge:0 ok 1 - 3\nBob");
            std::thread::sleep(std::time::Duration::from_millis(1));
        });
        loop { std::hint::spin_loop(); }"#;
    copy.plant("forger", body);
    let start = Instant::now();
    let run = copy.judge(&["--solution", "forger", "--case", "example-1", "--time-limit", "300ms", "--format", "json"]);
    let took = start.elapsed();
    let report = run.json();
    assert_eq!(verdicts(&report, "forger"), ["TLE"], "{}", run.describe());
    let result = &solution(&report, "forger").get("results").unwrap().items()[0];
    // Stopped once its CPU time passed the limit: never before it, whatever the machine's load.
    let wall = result.get("wall_ns").and_then(Json::as_i128).unwrap();
    assert!(wall >= 300_000_000, "killed after {wall} ns");
    assert!(text(result, "reason").contains("no answer within the time limit of 300ms"), "{result:?}");
    assert!(text(result, "stdout").contains("judge:0 ok"), "the forgery is shown as output");
    assert!(took < Duration::from_secs(10), "{took:?}");
}

#[test]
#[ignore = "slow: a time limit"]
fn a_thread_holding_stdin_does_not_hold_the_run() {
    let copy = Copy::new("stdin", &["samples"]);
    let body = "std::thread::spawn(|| { let _held = std::io::stdin().lock(); loop { std::thread::park(); } });\n\
                let mut line = String::new();\nlet _ = std::io::stdin().read_line(&mut line);\n\
                if stone_value.iter().sum::<i32>() > 0 { \"Alice\".into() } else { \"Bob\".into() }";
    copy.plant("holder", body);
    let start = Instant::now();
    let run = copy.judge(&["--solution", "holder", "--format", "json", "--time-limit", "200ms"]);
    assert!(start.elapsed() < Duration::from_secs(20), "{}", run.describe());
    assert_eq!(verdicts(&run.json(), "holder").len(), 5, "{}", run.describe());
}

#[test]
#[ignore = "slow: a gibibyte"]
fn touching_a_gibibyte_is_mle_at_the_default_limit() {
    let copy = Copy::new("mle", &["samples"]);
    copy.plant("hog", "let v = vec![7u8; 1 << 30];\nv.iter().map(|&b| b as u64).sum::<u64>().to_string()");
    let run = copy.judge(&["--solution", "hog", "--case", "example-1", "--time-limit", "5s", "--format", "json"]);
    let report = run.json();
    assert_eq!(verdicts(&report, "hog"), ["MLE"], "{}", run.describe());
    let result = &solution(&report, "hog").get("results").unwrap().items()[0];
    assert!(text(result, "reason").contains("over the limit of 256 MiB"), "{result:?}");
}

#[test]
fn a_spawned_process_does_not_outlive_the_run() {
    let copy = Copy::new("spawn", &["samples"]);
    let marker = format!("47{}", std::process::id());
    let body = format!("let _ = std::process::Command::new(\"sleep\").arg(\"{marker}\").spawn();\n\"Bob\".to_string()");
    copy.plant("spawner", &body);
    let run = copy.judge(&["--solution", "spawner", "--case", "example-1", "--format", "json"]);
    assert_eq!(verdicts(&run.json(), "spawner"), ["AC"], "{}", run.describe());
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(crate::common::processes_with(&format!("sleep {marker}")), Vec::<String>::new());
}

#[test]
#[ignore = "slow: signals mid-build and mid-call"]
fn sigterm_and_ctrl_c_end_the_judge_at_once_with_no_child_behind() {
    let copy = Copy::new("sigterm", &["samples"]);
    copy.plant("spinner", "loop { std::hint::spin_loop(); }");
    // The child's command line is its unit and its stack in bytes: an unusual stack marks it.
    let (stack_mb, marker) = ("523", (523u64 << 20).to_string());
    let args = ["--solution", "spinner", "--time-limit", "60s", "--stack-mb", stack_mb];
    for (signal, status) in [("-TERM", 143), ("-INT", 130)] {
        let mut judge = copy
            .command(&args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let give_up = Instant::now() + Duration::from_secs(20);
        while crate::common::processes_with(&marker).is_empty() && Instant::now() < give_up {
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(200));
        assert!(!crate::common::processes_with(&marker).is_empty(), "the child never started");
        let sent = Instant::now();
        std::process::Command::new("kill").args([signal, &judge.id().to_string()]).status().unwrap();
        assert_eq!(judge.wait().unwrap().code(), Some(status), "{signal}");
        assert!(sent.elapsed() < Duration::from_secs(2), "{signal} took {:?}", sent.elapsed());
        let give_up = Instant::now() + Duration::from_secs(5);
        while !crate::common::processes_with(&marker).is_empty() && Instant::now() < give_up {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert_eq!(crate::common::processes_with(&marker), Vec::<String>::new(), "{signal}");
    }
}

#[test]
#[ignore = "slow: stress of crashing attempts"]
fn abort_exit_and_stack_overflow_under_stress_are_shrunk_counterexamples() {
    let copy = Copy::new("stress-crash", &["samples"]);
    let deep = "fn deep(n: u64) -> u64 { if n == 0 { 0 } else { 1 + std::hint::black_box(deep(n - 1)) } }\n";
    let bodies = [
        ("aborter", "if stone_value.len() >= 3 { std::process::abort(); }".to_string(), "signal 6"),
        (
            "exiter",
            "if stone_value.iter().any(|&v| v > 900) { std::process::exit(0); }".to_string(),
            "exited with status 0",
        ),
        (
            "overflower",
            format!("{deep}if stone_value.len() > 5 {{ return deep(u64::MAX).to_string(); }}"),
            "stack overflow",
        ),
    ];
    for (name, crash, _) in &bodies {
        copy.plant(name, &format!("{crash}\n{CORRECT}"));
    }
    for (name, _, reason) in &bodies {
        let run = copy.judge(&["stress", "--solution", name, "--count", "5000", "--stack-mb", "8", "--format", "json"]);
        assert_eq!(run.status, 1, "{name}: {}", run.describe());
        let example = run.json().get("counterexample").cloned().unwrap();
        assert_eq!(text(&example, "verdict"), "RE", "{name}: {example:?}");
        assert!(text(&example, "reason").contains(reason), "{name}: {example:?}");
        let original = example.get("original_len").and_then(Json::as_i128).unwrap();
        let shrunk = text(&example, "input").matches(',').count() as i128 + 1;
        assert!(shrunk <= original && shrunk <= 6, "{name}: shrunk to {shrunk} from {original}");
    }
}

#[test]
fn a_solution_that_rewrites_a_stored_output_cannot_in_a_sandbox_and_is_a_judge_error_without() {
    let copy = Copy::new("vandal", &["samples"]);
    let stored = "testcases/samples/example-2.out";
    let before = copy.read(stored);
    let target = copy.root.join(stored);
    let body = format!(
        "let _ = std::fs::write({:?}, \"\\\"Alice\\\"\\n\");\n\"Bob\".to_string()",
        target.display().to_string()
    );
    copy.plant("vandal", &body);
    let run = copy.judge(&["--solution", "vandal", "--case", "example-1", "--format", "json"]);
    if run.json().get("sandbox") == Some(&Json::Bool(true)) {
        assert_eq!(run.status, 0, "{}", run.describe());
        assert_eq!(copy.read(stored), before, "the sandbox let a solution write a stored output");
    }
    let run =
        copy.judge(&["--solution", "vandal", "--case", "example-1", "--sandbox", "off-as-root", "--format", "json"]);
    assert_eq!(run.status, 2, "{}", run.describe());
    let errors = run.json().get("judge_errors").unwrap().items().to_vec();
    assert!(
        errors.iter().any(|e| e.as_str().unwrap().contains("testcases/samples/example-2.out was rewritten")),
        "{errors:?}"
    );
}

#[test]
fn a_fifo_and_a_link_to_dev_zero_are_judge_errors_naming_them_and_the_rest_is_judged() {
    let copy = Copy::new("special", &["samples"]);
    let weird = copy.root.join("testcases/weird");
    std::fs::create_dir_all(&weird).unwrap();
    assert!(std::process::Command::new("mkfifo").arg(weird.join("fifo.in")).status().unwrap().success());
    std::os::unix::fs::symlink("/dev/zero", weird.join("zero.in")).unwrap();
    copy.write("testcases/weird/fifo.out", "\"Bob\"\n").write("testcases/weird/zero.out", "\"Bob\"\n");
    let start = Instant::now();
    let run = copy.judge(&["--solution", "dp_array", "--format", "json"]);
    assert!(start.elapsed() < Duration::from_secs(20));
    assert_eq!(run.status, 2, "{}", run.describe());
    let report = run.json();
    let errors: Vec<&str> = report.get("judge_errors").unwrap().items().iter().filter_map(Json::as_str).collect();
    for name in ["testcases/weird/fifo.in", "testcases/weird/zero.in"] {
        assert!(errors.iter().any(|e| e.contains(name) && e.contains("not a regular file")), "{name}: {errors:?}");
    }
    assert_eq!(verdicts(&report, "dp_array"), ["AC"; 5]);
}

#[test]
fn a_case_name_with_escape_bytes_never_reaches_the_terminal_raw() {
    let copy = Copy::new("escapes", &["samples"]);
    let name = "testcases/samples/bad\u{1b}[31mred";
    copy.write(&format!("{name}.in"), "[1,2,3,7]\n").write(&format!("{name}.out"), "\"Alice\"\n");
    copy.plant("always_alice", "let _ = stone_value;\n\"Alice\".to_string()");
    let run = copy.judge(&["--solution", "always_alice", "--color", "never", "--all-failures"]);
    assert!(run.stdout.contains("bad\\u{1b}[31mred"), "{}", run.stdout);
    assert!(!run.stdout.contains('\u{1b}') && !run.stderr.contains('\u{1b}'), "{}", run.describe());
}

#[test]
fn the_chart_is_refused_in_stored_data_even_through_a_link() {
    let copy = Copy::new("svg-link", &["samples"]);
    std::os::unix::fs::symlink(copy.root.join("testcases/samples"), copy.root.join("elsewhere")).unwrap();
    let run = copy.judge(&["bench", "--sizes", "10", "--reps", "1", "--svg", "elsewhere/example-1.out"]);
    assert_eq!(run.status, 2, "{}", run.describe());
    assert!(run.stderr.contains("refusing to write the chart"), "{}", run.describe());
    assert_eq!(copy.read("testcases/samples/example-1.out"), "\"Bob\"\n");
}

#[test]
#[ignore = "slow: a run held while a file changes"]
fn a_file_someone_else_writes_during_a_run_is_named_and_in_the_sandbox_blames_no_solution() {
    let copy = Copy::new("bystander", &["samples"]);
    copy.plant(
        "sleeper",
        &format!("std::thread::sleep(std::time::Duration::from_millis(600));\n{}", crate::common::CORRECT),
    );
    // The child's command line holds its stack in bytes: an unusual stack marks it.
    let (stack_mb, marker) = ("519", (519u64 << 20).to_string());
    for sandbox in ["auto", "off-as-root"] {
        let args = ["--solution", "sleeper", "--case", "example-1", "--stack-mb", stack_mb, "--time-limit", "20s"];
        let judge = copy
            .command(&[&args[..], &["--sandbox", sandbox, "--format", "json"]].concat())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let give_up = Instant::now() + Duration::from_secs(20);
        while crate::common::processes_with(&marker).is_empty() && Instant::now() < give_up {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(!crate::common::processes_with(&marker).is_empty(), "the child never started");
        let made = format!("solutions/made_by_hand_{}.rs", sandbox.replace('-', "_"));
        copy.write(&made, "// a user's new file\n");
        let output = judge.wait_with_output().unwrap();
        let report = Json::parse(&String::from_utf8_lossy(&output.stdout)).unwrap();
        let strings = |key: &str| -> Vec<String> {
            report.get(key).unwrap().items().iter().map(|e| e.as_str().unwrap().to_string()).collect()
        };
        let said = format!("{made} appeared during the run");
        if report.get("sandbox") == Some(&Json::Bool(true)) {
            assert_eq!(output.status.code(), Some(0), "{report:?}");
            assert!(strings("judge_errors").is_empty(), "{report:?}");
            let notes = strings("notes");
            assert!(notes.iter().any(|n| n.starts_with(&said) && n.contains("not by a solution")), "{notes:?}");
        } else {
            assert_eq!(output.status.code(), Some(2), "{report:?}");
            let errors = strings("judge_errors");
            assert!(errors.iter().any(|e| e.starts_with(&said) && e.contains("proves nothing")), "{errors:?}");
        }
    }
}

/// The submissions of a report that did not get their tags, and the times of `four_scalars`
/// on the cases of 50,000 piles.
fn tags_and_figures(run: &crate::common::Run) -> (Vec<String>, Vec<i128>) {
    let Ok(report) = Json::parse(&run.stdout) else { return (vec!["no report".into()], Vec::new()) };
    let solutions = report.get("solutions").unwrap().items();
    let missed = solutions
        .iter()
        .filter(|s| text(s, "met") != "yes")
        .map(|s| {
            let results = s.get("results").unwrap().items();
            let first = results.iter().find(|r| text(r, "verdict") != "AC");
            let why = first.map_or(String::new(), |r| {
                format!(" on {}: {}", text(r, "case"), r.get("reason").and_then(Json::as_str).unwrap_or(""))
            });
            format!("{} ({}){why}", text(s, "name"), text(s, "verdict"))
        })
        .collect();
    let long: Vec<&str> = report
        .get("cases")
        .unwrap()
        .items()
        .iter()
        .filter(|c| c.get("n").and_then(Json::as_i128) == Some(50_000))
        .map(|c| text(c, "id"))
        .collect();
    let times: Vec<i128> = solution(&report, "four_scalars")
        .get("results")
        .unwrap()
        .items()
        .iter()
        .filter(|r| long.contains(&text(r, "case")))
        .filter_map(|r| r.get("time_ns").and_then(Json::as_i128))
        .collect();
    (missed, times)
}

/// The median of `times`.
fn median(mut times: Vec<i128>) -> i128 {
    times.sort_unstable();
    times[times.len() / 2]
}

/// A laptop with eight cores judges in sixteen lanes by default, on a two-core machine that is
/// eight children at a time per core, each started, given its descriptors, timed and read
/// under that load; and four busy loops take the cores besides. Every submission still gets
/// its tag, run after run, and a figure is the CPU time of the call, whatever the load: the
/// median of `four_scalars` on the cases of 50,000 piles stays within 1.25 times its figure
/// taken quiet, in the same test. `JUDGE_LOADED_RUNS=20,10` runs 20 at `--jobs 16` and 10
/// at `--jobs 32` (2 and 1 by default).
#[test]
#[ignore = "slow: dozens of whole-suite runs under four busy loops"]
fn many_more_lanes_than_cores_and_busy_loops_give_every_submission_its_tag() {
    let runs = std::env::var("JUDGE_LOADED_RUNS").unwrap_or_else(|_| "2,1".into());
    let (at_16, at_32) = runs.split_once(',').expect("JUDGE_LOADED_RUNS is two counts, such as 20,10");
    let (at_16, at_32): (u32, u32) = (at_16.parse().unwrap(), at_32.parse().unwrap());
    // A call's figure moves by half from case to case on these guests, and the host's own load
    // drifts over minutes: the medians are taken over every call on 50,000 piles, and each
    // loaded run follows a quiet one, so that the drift weighs on both alike.
    let (mut quiet_times, mut loaded_times) = (Vec::new(), Vec::new());
    for (jobs, rounds) in [("16", at_16), ("32", at_32)] {
        for round in 1..=rounds {
            let quiet = crate::common::judge(&["--format", "json"]);
            let (missed, times) = tags_and_figures(&quiet);
            assert_eq!(quiet.status, 0, "quiet, before round {round}: not as tagged: {missed:?}\n{}", quiet.stderr);
            quiet_times.extend(times);
            let _busy = crate::common::BusyLoops::start(4);
            let run = crate::common::judge(&["--format", "json", "--jobs", jobs]);
            let (missed, times) = tags_and_figures(&run);
            assert_eq!(run.status, 0, "--jobs {jobs}, round {round}: not as tagged: {missed:?}\n{}", run.stderr);
            loaded_times.extend(times);
        }
    }
    let (quiet_count, quiet_figure) = (quiet_times.len(), median(quiet_times));
    let (count, loaded) = (loaded_times.len(), median(loaded_times));
    let said = format!(
        "\nfour_scalars on 50,000 piles: {loaded} ns under load ({count} calls), {quiet_figure} ns quiet \
         ({quiet_count} calls)\n"
    );
    let _ = std::io::Write::write_all(&mut std::io::stderr(), said.as_bytes());
    assert!(
        loaded * 100 <= quiet_figure * 125,
        "four_scalars on 50,000 piles: a median of {loaded} ns under load against {quiet_figure} ns quiet"
    );
}

/// As root, `--sandbox off` would run every solution as root with nothing between it and the
/// machine (another child's cgroup cell included): refused, unless asked for by its own name.
#[test]
fn root_without_a_sandbox_must_say_so_by_name() {
    let copy = Copy::new("root-off", &["samples"]);
    copy.plant("right", CORRECT);
    let plain = copy.judge(&["--solution", "right", "--case", "example-1", "--sandbox", "off"]);
    let named = copy.judge(&["--solution", "right", "--case", "example-1", "--sandbox", "off-as-root"]);
    assert_eq!(named.status, 0, "{}", named.describe());
    let root = std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(2) == Some("0"));
    if !root {
        crate::common::skipped("not root: --sandbox off is not refused, as checked");
        assert_eq!(plain.status, 0, "{}", plain.describe());
        return;
    }
    assert_eq!(plain.status, 2, "{}", plain.describe());
    assert!(plain.stderr.contains("--sandbox off-as-root"), "{}", plain.describe());
}
