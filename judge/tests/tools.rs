//! gen, bless, stress (with shrinking and --save) and verify, through the built judge; and the
//! stored suite against every wrong solution.

mod common;

use common::{judge, Scratch, ROOT};

/// The wrong solutions tagged WA, from their files.
fn wrong_answers() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(format!("{ROOT}/solutions/wrong"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| std::fs::read_to_string(p).unwrap().starts_with("// expect: WA"))
        .map(|p| format!("wrong/{}", p.file_stem().unwrap().to_string_lossy()))
        .collect();
    names.sort();
    names
}

/// The shrunk input printed by stress or verify.
fn shrunk_input(stdout: &str) -> Vec<i32> {
    let line = stdout.lines().find_map(|l| l.trim().strip_prefix("input")).expect("an input line");
    let list = line.trim();
    assert!(list.starts_with('[') && list.ends_with(']'), "{list}");
    list[1..list.len() - 1].split(',').map(|v| v.parse().unwrap()).collect()
}

#[test]
fn gen_is_deterministic_and_checks_its_arguments() {
    let make = |seed: &str| judge(&["gen", "--shape", "mixed", "--len", "300", "--seed", seed]).stdout;
    assert_eq!(make("5"), make("5"));
    assert_ne!(make("5"), make("6"));
    assert_eq!(make("5").matches(',').count(), 299);
    let run = judge(&["gen", "--shape", "uniform", "--len", "3"]);
    assert_eq!(
        (run.status, run.stderr.as_str()),
        (2, "judge: 'judge gen' needs '--seed'\nhint: run 'judge --help' for the options\n")
    );
}

#[test]
fn bless_writes_missing_and_changed_outputs_from_the_oracle_only() {
    let scratch = Scratch::new("bless");
    scratch
        .write("mine/lonely.in", "[1,2,3,7]\n")
        .write("mine/wrong.in", "[1,2,3,-9]\n")
        .write("mine/wrong.out", "\"Bob\"\n")
        .write("mine/right.in", "[1,2,3,6]\n")
        .write("mine/right.out", "\"Tie\"\n")
        .write("made/MANIFEST", "z3  judge gen --shape zeros --len 3 --seed 1\n");
    let run = judge(&["bless", "--cases", scratch.dir.to_str().unwrap()]);
    assert_eq!(run.status, 0, "{}", run.describe());
    let read = |f: &str| std::fs::read_to_string(scratch.dir.join(f)).unwrap();
    assert_eq!(read("mine/lonely.out"), "\"Bob\"\n");
    assert_eq!(read("mine/wrong.out"), "\"Alice\"\n");
    assert_eq!(read("made/z3.in"), "[0,0,0]\n");
    assert_eq!(read("made/z3.out"), "\"Tie\"\n");
    assert!(run.stdout.contains("created") && run.stdout.contains("changed") && run.stdout.contains("generated"));
    assert!(run.stdout.contains("blessed: 4 written, 1 unchanged"), "{}", run.describe());
    let again = judge(&["bless", "--cases", scratch.dir.to_str().unwrap()]);
    assert!(again.stdout.contains("blessed: 0 written, 4 unchanged"), "{}", again.describe());
}

#[test]
fn bless_reports_an_unreadable_input_and_blesses_the_rest() {
    let scratch = Scratch::new("bless-broken");
    scratch.write("a/broken.in", "[1,,2]\n").write("b/fine.in", "[7]\n");
    std::fs::create_dir_all(scratch.dir.join("a/folder.in")).unwrap();
    let run = judge(&["bless", "--cases", scratch.dir.to_str().unwrap()]);
    assert_eq!(run.status, 2, "{}", run.describe());
    assert!(run.stderr.contains("broken.in:1:4: expected a number"), "{}", run.describe());
    assert!(run.stderr.contains("folder.in"), "{}", run.describe());
    assert!(run.stdout.contains("blessed: 1 written, 0 unchanged, 2 unreadable"), "{}", run.describe());
    assert_eq!(std::fs::read_to_string(scratch.dir.join("b/fine.out")).unwrap(), "\"Alice\"\n");
}

#[test]
fn stress_passes_the_strategies_and_reports_its_rate() {
    let run = judge(&["stress", "--seed", "7", "--count", "20000"]);
    assert_eq!(run.status, 0, "{}", run.describe());
    let last = run.stdout.lines().last().unwrap();
    assert!(last.starts_with("stress: 20000 cases checked in ") && last.contains(" cases/s"), "{last}");
}

#[test]
fn stress_finds_every_wrong_answer_and_shrinks_it() {
    let names = wrong_answers();
    assert!(names.len() >= 10, "{names:?}");
    for name in &names {
        // A lead past i16 needs at least 33 piles (each moves it by at most 1000): search
        // long periodic cases for that one; every other mistake shows within 8 values.
        let narrow = name.contains("i16");
        let mut args = vec!["stress", "--seed", "1", "--count", "200000", "--solution", name];
        if narrow {
            args.extend(["--max-len", "300", "--shape", "periodic"]);
        }
        let run = judge(&args);
        assert_eq!(run.status, 1, "{name} was not caught:\n{}", run.describe());
        let input = shrunk_input(&run.stdout);
        let most = if narrow { 300 } else { 8 };
        assert!(input.len() <= most, "{name} shrank only to {} values", input.len());
        let rerun = judge(&["run", "--solution", name, &format!("{input:?}").replace(' ', "")]);
        assert_eq!(rerun.status, 1, "the shrunk input passes {name}:\n{}", rerun.describe());
    }
}

#[test]
fn stress_is_the_same_for_the_same_seed_whatever_the_thread_count() {
    let run = |jobs: &str| {
        let r = judge(&[
            "stress",
            "--seed",
            "3",
            "--count",
            "50000",
            "--jobs",
            jobs,
            "--solution",
            "wrong/greedy_largest_take",
        ]);
        r.stdout.lines().take_while(|l| !l.starts_with("stress:")).map(String::from).collect::<Vec<_>>()
    };
    let one = run("1");
    assert!(one[0].contains("on case #"), "{one:?}");
    assert_eq!(one, run("2"));
}

#[test]
fn stress_save_stores_a_regression_the_judge_then_runs() {
    let scratch = Scratch::new("save");
    let dir = scratch.dir.to_str().unwrap();
    let run = judge(&["stress", "--count", "10000", "--solution", "wrong/sign_slip", "--save", "--cases", dir]);
    assert_eq!(run.status, 1, "{}", run.describe());
    assert!(run.stdout.contains("saved"), "{}", run.describe());
    let judged = scratch.judge(&["--solution", "wrong/sign_slip", "--solution", "dp_array"]);
    assert_eq!(judged.status, 0, "{}", judged.describe());
    assert!(judged.stdout.contains("regressions/wrong-sign_slip-s1-c"), "{}", judged.describe());
    assert!(judged.row("wrong/sign_slip").contains("0 AC, then WA"), "{}", judged.describe());
}

#[test]
fn verify_checks_a_small_bound_exhaustively() {
    let run = judge(&["verify", "--max-len", "5", "--values", "-2..=2"]);
    assert_eq!(run.status, 0, "{}", run.describe());
    // 5 + 25 + 125 + 625 + 3125 arrays.
    assert!(run.stdout.contains("all 3905 arrays of length 1..=5 over -2..=2 agree"), "{}", run.describe());
    let run = judge(&["verify", "--max-len", "5", "--values", "-2..=2", "--solution", "wrong/half_total_rounding"]);
    assert_eq!(run.status, 1, "{}", run.describe());
    assert!(shrunk_input(&run.stdout).len() <= 5);
}

#[test]
fn the_stored_suite_gives_every_solution_its_expected_verdict() {
    let run = judge(&["--color", "never"]);
    assert_eq!(run.status, 0, "{}", run.describe());
    let names = wrong_answers();
    for name in names {
        assert!(run.row(&name).ends_with("yes"), "{}", run.row(&name));
    }
    for strategy in ["dp_array", "four_scalars", "recursive_memo", "rolling_mod4"] {
        assert!(run.row(strategy).ends_with("yes"), "{}", run.row(strategy));
    }
    // The statement's examples catch many mistakes at once; the other suites must too, and
    // the generated stress suite on its own.
    for suites in [&["--case", "edge", "--case", "stress"][..], &["--case", "stress"]] {
        let run = judge(&[&["--color", "never"], suites].concat());
        assert_eq!(run.status, 0, "{suites:?}: {}", run.describe());
    }
}

#[test]
fn stress_reports_a_failure_without_waiting_for_a_worker_stuck_past_it() {
    // Case #0 fails fast; with two threads the other worker meets plain_recursion on a long
    // later case, which would run for hours.
    let run = |jobs: &str| {
        let solutions = ["--solution", "wrong/sign_slip", "--solution", "wrong/plain_recursion"];
        let start = std::time::Instant::now();
        let r = judge(&[&["stress", "--max-len", "50000", "--jobs", jobs][..], &solutions].concat());
        assert!(start.elapsed().as_secs() < 10, "{}", r.describe());
        assert_eq!(r.status, 1, "{}", r.describe());
        r.stdout.lines().take_while(|l| !l.starts_with("stress:")).map(String::from).collect::<Vec<_>>()
    };
    let one = run("1");
    assert!(one[0].contains("on case #0 "), "{one:?}");
    assert_eq!(one, run("2"));
}

#[test]
fn verify_refuses_arrays_longer_than_leetcode_allows() {
    let run = judge(&["verify", "--values", "0..=0", "--max-len", "60000"]);
    assert_eq!(run.status, 2, "{}", run.describe());
    assert!(run.stderr.contains("'--max-len 60000' is over LeetCode's limit of 50000"), "{}", run.describe());
}
