//! A user's own attempt, from the first edit to a confident paste: each behaviour of the
//! README's path, on a temporary copy of the workspace with a planted attempt where one is
//! needed.

use crate::common::{judge, solution, text, Copy, Json, CORRECT};

const EQUIVALENTS: &str = "judge/search/equivalent_mutants.txt";

#[test]
#[ignore = "slow: the whole suite with its time limits"]
fn a_correct_extra_strategy_is_judged_like_the_others() {
    // The suites that give every wrong submission its tag without the long generated ones.
    let copy = Copy::new("extra", &["samples", "edge", "short"]);
    copy.plant("my_try", CORRECT);
    let run = copy.judge(&["--format", "json", "--jobs", "6", "--time-limit", "300ms"]);
    assert_eq!(run.status, 0, "{}", run.describe());
    let report = run.json();
    let strategies: Vec<&Json> =
        report.get("solutions").unwrap().items().iter().filter(|s| text(s, "expect") == "AC").collect();
    let on_disk = std::fs::read_dir(copy.root.join("solutions"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "rs"))
        .count();
    assert_eq!(strategies.len(), on_disk, "every file in solutions/ is a strategy");
    assert_eq!(text(solution(&report, "my_try"), "verdict"), "AC");
}

#[test]
fn the_samples_alone_exit_zero_and_say_which_wrong_ones_they_miss() {
    let run = judge(&["--case", "samples", "--color", "never"]);
    assert_eq!(run.status, 0, "{}", run.describe());
    assert!(run.stdout.contains("not caught by the selected cases"), "{}", run.describe());
    let named = judge(&["--case", "samples", "--solution", "wrong/plain_recursion", "--format", "json"]);
    assert_eq!(named.status, 1, "a named wrong submission is judged for its tag: {}", named.describe());
}

#[test]
fn mistyped_commands_and_flags_get_a_suggestion() {
    let run = judge(&["rnu"]);
    assert_eq!(run.status, 2);
    assert!(run.stderr.starts_with("judge: unknown command \"rnu\"; did you mean 'run'?"), "{}", run.stderr);
    let run = judge(&["--solutoin", "x"]);
    assert!(run.stderr.contains("did you mean '--solution'?"), "{}", run.stderr);
    let run = judge(&["--solution", "four_scalar"]);
    assert!(run.stderr.contains("did you mean \"four_scalars\"?"), "{}", run.stderr);
}

#[test]
fn help_for_a_command_shows_its_flags_and_an_example() {
    for args in [&["help", "run"][..], &["run", "--help"]] {
        let run = judge(args);
        assert_eq!(run.status, 0, "{}", run.describe());
        assert!(run.stdout.starts_with("usage: cargo judge run"), "{}", run.stdout);
        assert!(run.stdout.contains("--plain") && run.stdout.contains("example:"), "{}", run.stdout);
        assert!(!run.stdout.contains("--sizes"), "another command's flag");
    }
    assert!(judge(&["help"]).stdout.contains("mutants"));
}

#[test]
fn an_attempt_that_prints_shows_its_output_in_run() {
    let copy = Copy::new("prints", &["samples"]);
    copy.plant("chatty", &format!("println!(\"n = {{}}\", stone_value.len());\ndbg!(stone_value[0]);\n{CORRECT}"));
    let run = copy.judge(&["run", "--solution", "chatty", "[1,2,3,7]", "--format", "json"]);
    assert_eq!(run.status, 0, "{}", run.describe());
    let testcase = run.json().get("testcases").unwrap().items()[0].clone();
    let chatty = solution(&testcase, "chatty").clone();
    assert_eq!(text(&chatty, "stdout"), "n = 4\n");
    assert!(text(&chatty, "stderr").contains("stone_value[0] = 1"), "{chatty:?}");
    let shown = copy.judge(&["run", "--solution", "chatty", "[1,2,3,7]", "--color", "never"]);
    // Line by line, as LeetCode's Stdout box shows it.
    assert!(
        shown.stdout.contains("  stdout    | n = 4\n") && shown.stdout.contains("  stderr    | [solutions/chatty.rs:"),
        "{}",
        shown.stdout
    );
}

#[test]
fn a_counterexample_shows_what_the_attempt_printed_on_it() {
    let copy = Copy::new("prints-stress", &["samples"]);
    copy.plant(
        "chatty",
        "println!(\"n = {}\", stone_value.len());\neprintln!(\"first = {}\", stone_value[0]);\n\"Alice\".to_string()",
    );
    let run = copy.judge(&["stress", "--solution", "chatty", "--count", "100"]);
    assert_eq!(run.status, 1, "{}", run.describe());
    assert!(
        run.stdout.contains("  got       \"Alice\"\n  stdout    | n = 1\n  stderr    | first = 0\n"),
        "{}",
        run.stdout
    );
    let json = copy.judge(&["stress", "--solution", "chatty", "--count", "100", "--format", "json"]).json();
    let example = json.get("counterexample").unwrap();
    assert_eq!((text(example, "stdout"), text(example, "stderr")), ("n = 1\n", "first = 0\n"), "{example:?}");
}

#[test]
fn bless_check_finds_a_wrong_out_changes_nothing_and_the_judge_suspects_it() {
    let copy = Copy::new("bless", &["samples"]);
    copy.write("testcases/samples/example-1.out", "\"Alice\"\n");
    let run = copy.judge(&["bless", "--check", "--format", "json"]);
    assert_eq!(run.status, 1, "{}", run.describe());
    let changes = run.json().get("changes").unwrap().items().to_vec();
    assert_eq!(changes.len(), 1, "{changes:?}");
    assert_eq!((text(&changes[0], "old"), text(&changes[0], "new")), ("Alice", "Bob"));
    assert_eq!(copy.read("testcases/samples/example-1.out"), "\"Alice\"\n", "--check wrote");
    let judged = copy.judge(&["--format", "json"]);
    let suspects = judged.json().get("suspects").unwrap().items().to_vec();
    assert_eq!(suspects.len(), 1, "{}", judged.describe());
    assert_eq!((text(&suspects[0], "stored"), text(&suspects[0], "oracle")), ("Alice", "Bob"));
    assert!(text(&suspects[0], "check").ends_with("bless --check"));
    let blessed = copy.judge(&["bless"]);
    assert_eq!(blessed.status, 0, "{}", blessed.describe());
    assert!(blessed.stdout.contains("testcases/samples/example-1.out  \"Alice\" -> \"Bob\""), "{}", blessed.stdout);
    assert_eq!(copy.read("testcases/samples/example-1.out"), "\"Bob\"\n");
}

/// Over cases kept outside the workspace, the printed check looks at them, not the stored ones:
/// run as printed, it finds the wrong .out.
#[test]
fn the_check_of_a_suspect_out_elsewhere_looks_where_it_is() {
    let copy = Copy::new("bless-elsewhere", &["samples"]);
    let mine = copy.root.join("elsewhere");
    std::fs::create_dir_all(mine.join("mine")).unwrap();
    std::fs::write(mine.join("mine/a.in"), "[1,2,3,7]\n").unwrap();
    std::fs::write(mine.join("mine/a.out"), "\"Alice\"\n").unwrap();
    let cases = mine.to_str().unwrap();
    let judged = copy.judge(&["--cases", cases, "--solution", "four_scalars", "--color", "never"]);
    let check = crate::common::printed_command(&judged.stdout, "check it");
    assert_eq!(check[..2], ["bless", "--check"], "{check:?}");
    let checked = copy.judge(&check.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(checked.status, 1, "a change would be written: {}", checked.describe());
    assert!(checked.stdout.contains("\"Alice\" -> \"Bob\""), "{}", checked.stdout);
    assert_eq!(std::fs::read_to_string(mine.join("mine/a.out")).unwrap(), "\"Alice\"\n", "--check wrote");
}

#[test]
fn a_buggy_attempt_gets_three_failure_blocks_and_is_named_on_the_last_line() {
    let copy = Copy::new("buggy", &["samples", "edge"]);
    copy.plant("buggy", "let _ = stone_value;\n\"Alice\".to_string()");
    let run = copy.judge(&["--solution", "buggy", "--solution", "dp_array", "--color", "never"]);
    assert_eq!(run.status, 1, "{}", run.describe());
    assert_eq!(run.stdout.matches("\nWA buggy on ").count(), 3, "{}", run.stdout);
    assert!(run.stdout.contains("more buggy failures; to show them:\n    cargo judge "), "{}", run.stdout);
    let last = run.stdout.trim_end().lines().last().unwrap();
    assert!(last.contains("not as expected: buggy") && last.ends_with("exit 1"), "{last}");
}

#[test]
fn a_failure_reruns_with_the_same_options_and_the_same_verdict() {
    let copy = Copy::new("rerun", &["edge"]);
    copy.plant("deep", "fn down(n: usize) -> usize { if n == 0 { 0 } else { 1 + std::hint::black_box(down(n - 1)) } }\nlet _ = down(stone_value.len() * 64);\n\"Tie\".to_string()");
    let args = [
        "--solution",
        "deep",
        "--case",
        "max-all-zero",
        "--stack-mb",
        "1",
        "--time-limit",
        "300ms",
        "--verbose",
        "--format",
        "json",
    ];
    let first = copy.judge(&args);
    let report = first.json();
    let result = &solution(&report, "deep").get("results").unwrap().items()[0];
    assert_eq!(text(result, "verdict"), "RE", "{}", first.describe());
    let rerun = text(result, "rerun");
    for option in ["--stack-mb 1", "--time-limit 300ms", "--verbose", "--solution deep", "--case edge/max-all-zero"] {
        assert!(rerun.contains(option), "{option} missing from {rerun}");
    }
    let words: Vec<&str> = rerun.strip_prefix("cargo judge ").unwrap().split(' ').collect();
    let again = copy.judge(&words);
    let report = again.json();
    let result = &solution(&report, "deep").get("results").unwrap().items()[0];
    assert_eq!(text(result, "verdict"), "RE", "{}", again.describe());
    assert_eq!(text(result, "rerun"), rerun);
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let mut child = crate::common::command_in(
        crate::common::shared(),
        &["gen", "--shape", "uniform", "--len", "50000", "--seed", "1"],
    )
    .stdout(std::process::Stdio::piped())
    .stderr(std::process::Stdio::piped())
    .spawn()
    .unwrap();
    let mut first = [0u8; 10];
    std::io::Read::read_exact(child.stdout.as_mut().unwrap(), &mut first).unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(output.stderr.is_empty(), "{}", String::from_utf8_lossy(&output.stderr));
}

#[test]
fn paste_names_the_stored_cases_an_attempt_fails_and_prints_it_all_the_same() {
    let copy = Copy::new("paste-fails", &["samples"]);
    copy.plant("ties_for_alice", "let _ = stone_value;\n\"Alice\".to_string()");
    let run = copy.judge(&["paste", "ties_for_alice"]);
    assert_eq!(run.status, 1, "not ready, printed all the same: {}", run.describe());
    assert_eq!(run.stdout, copy.read("solutions/ties_for_alice.rs"));
    let said = run.stderr.replace("\n  ", " ");
    assert!(said.starts_with("judge: not ready: solutions/ties_for_alice.rs compiles"), "{said}");
    assert!(said.contains("fails 3 of the 5 stored testcases (WA on samples/example-1, samples/example-3"), "{said}");
    assert!(said.contains("why: cargo judge --solution ties_for_alice"), "{said}");
    assert!(run.stderr.lines().all(|l| l.chars().count() <= 100), "{}", run.stderr);
    let json = copy.judge(&["paste", "ties_for_alice", "--format", "json"]).json();
    let stored = json.get("stored_cases").unwrap();
    assert_eq!((stored.get("cases"), stored.get("judged")), (Some(&Json::Int(5)), Some(&Json::Int(5))), "{json:?}");
    let failures: Vec<&str> = stored.get("failures").unwrap().items().iter().map(|f| text(f, "case")).collect();
    assert_eq!(failures, ["samples/example-1", "samples/example-3", "samples/example-5"]);
}

#[test]
fn paste_prints_the_file_and_names_a_solution_by_its_path() {
    let run = judge(&["paste", "solutions/dp_array.rs"]);
    assert_eq!(run.status, 0, "{}", run.describe());
    assert_eq!(run.stdout, std::fs::read_to_string(crate::common::shared().join("solutions/dp_array.rs")).unwrap());
    assert!(run.stderr.contains("ready to paste: solutions/dp_array.rs compiles"), "{}", run.describe());
    assert!(run.stderr.replace("\n  ", " ").contains("passes all "), "{}", run.describe());
    let copy = judge(&["paste", "dp_array", "--copy"]);
    assert!(copy.stderr.contains("not copied"), "no terminal here: {}", copy.stderr);
    assert_eq!(copy.status, 0, "ready, whatever was done with it: {}", copy.describe());
}

#[test]
fn paste_names_an_api_newer_than_leetcodes_rust_and_prints_nothing_then() {
    let copy = Copy::new("paste-newer", &["samples"]);
    let body = format!("let _middle = i32::midpoint(stone_value[0], 0);\n{CORRECT}");
    copy.plant("my_try", &body);
    // By LeetCode's own 1.85 where it is installed (`i32::midpoint` does not compile), else by
    // a newer Rust with clippy naming it; 1.86 is rarely installed, so it is the lint there.
    for version in ["1.85", "1.86"] {
        let refused = copy.judge(&["paste", "my_try", "--leetcode-rust", version]);
        assert_eq!(refused.status, 1, "{}", refused.describe());
        assert_eq!(refused.stdout, "", "a file LeetCode refuses is not printed");
        let said = refused.stderr.replace("\n  ", " ");
        assert!(said.contains("does not compile as LeetCode compiles it"), "{version}: {}", refused.describe());
        assert!(said.contains("`i32::midpoint` is stable since Rust 1.87"), "{version}: {}", refused.describe());
        // The judge says the same, with LeetCode's own Rust or without it: a compile error.
        let judged = copy.judge(&["--solution", "my_try", "--format", "json", "--leetcode-rust", version]);
        let mine = solution(&judged.json(), "my_try").clone();
        assert_eq!(text(&mine, "verdict"), "CE", "{}", judged.describe());
    }
    let newer = copy.judge(&["paste", "my_try", "--leetcode-rust", "1.95"]);
    assert_eq!(newer.status, 0, "{}", newer.describe());
    assert_eq!(newer.stdout, copy.read("solutions/my_try.rs"));
}

#[test]
fn a_suite_folder_given_as_cases_and_an_impossible_limit_are_explained() {
    let run = judge(&["--cases", "testcases/samples"]);
    assert_eq!(run.status, 2);
    assert!(
        run.stderr.contains("testcases/samples holds cases itself: --cases wants the folder of suites"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("--cases testcases --case samples"), "{}", run.stderr);
    let run = judge(&["--cases", "no/such/folder"]);
    assert!(run.stderr.contains("point at a folder of suites with --cases DIR"), "{}", run.stderr);
    for args in [&["--stack-mb", "65536"][..], &["--memory-limit", "99999999"]] {
        let run = judge(&[args, &["--case", "samples"][..]].concat());
        assert_eq!(run.status, 2, "{args:?}: {}", run.describe());
        assert!(run.stdout.is_empty(), "judged anyway: {}", run.stdout);
    }
}

/// A user's files never break the tests: with a wrong attempt and one that does not compile in
/// `solutions/`, the checks that judge the workspace's contents still pass, since every copy
/// holds the bundled solutions alone.
#[test]
#[ignore = "slow: the other checks, again, beside planted attempts"]
fn the_checks_pass_beside_a_wrong_and_a_broken_attempt() {
    if std::env::var_os("JUDGE_TEST_WORKSPACE").is_some() {
        return; // This test is the one that runs the others against a planted workspace.
    }
    let planted = Copy::new("planted", &[]);
    planted.plant("my_zero", "\"Tie\".to_string()");
    planted.write(
        "solutions/my_broken.rs",
        "impl Solution {\n    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {\n        stone_value\n",
    );
    std::fs::create_dir_all(planted.root.join("judge/search")).unwrap();
    std::fs::copy(crate::common::source().join(EQUIVALENTS), planted.root.join(EQUIVALENTS)).unwrap();
    let checks = [
        "tools::the_stored_suite_gives_every_solution_its_expected_verdict",
        "tools::stress_passes_the_strategies_and_reports_its_rate",
        "tools::verify_checks_a_small_bound_exhaustively_and_finds_a_wrong_one",
        "user_path::a_correct_extra_strategy_is_judged_like_the_others",
        "user_path::the_samples_alone_exit_zero_and_say_which_wrong_ones_they_miss",
        "mutants::every_strategy_the_workspace_ships_is_held",
    ];
    let output = std::process::Command::new(std::env::current_exe().unwrap())
        .args(checks)
        .args(["--exact", "--include-ignored"])
        .env("JUDGE_TEST_WORKSPACE", &planted.root)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{said}\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(said.contains(&format!("{} passed", checks.len())), "{said}");
}

#[test]
fn the_stored_answer_check_and_bless_say_only_what_is_true() {
    let copy = Copy::new("true-words", &["samples"]);
    copy.write("testcases/samples/example-1.out", "\"Alice\"\n");
    copy.plant("my_try", CORRECT);
    let run = copy.judge(&["--solution", "my_try", "--color", "never"]);
    assert_eq!(run.status, 1, "{}", run.describe());
    assert!(!run.stdout.contains("every strategy"), "only my_try was judged:\n{}", run.stdout);
    let said = "the oracle answers \"Bob\" on samples/example-1, where testcases/samples/example-1.out says \"Alice\": the stored .out looks wrong (my_try answered as the oracle does)";
    assert!(run.stdout.replace("\n  ", " ").contains(said), "{}", run.stdout);
    // An .out that is there but is not an answer is neither missing nor an old answer.
    copy.write("testcases/samples/example-1.out", "\"Bbo\"\n");
    let check = copy.judge(&["bless", "--check"]);
    assert_eq!(check.status, 1, "{}", check.describe());
    assert!(check.stdout.contains("example-1.out  \"Bbo\" (not an answer) -> \"Bob\""), "{}", check.stdout);
    assert!(!check.stdout.contains("(none)"), "{}", check.stdout);
}

#[test]
fn a_file_that_is_not_utf8_is_refused_at_its_place_not_judged_as_nothing() {
    let copy = Copy::new("latin1", &["samples"]);
    std::fs::write(copy.root.join("solutions/latin.rs"), b"// caf\xe9\nimpl Solution {}\n").unwrap();
    let run = copy.judge(&["--solution", "latin", "--color", "never"]);
    assert_eq!(run.status, 2, "{}", run.describe());
    // The missing-1.85 notice may come first: the refusal is a line of its own.
    assert!(
        run.stderr.lines().any(|l| l.starts_with("judge: solutions/latin.rs:1:7: byte 0xe9 is not UTF-8")),
        "{}",
        run.describe()
    );
    assert!(!run.stdout.contains("0/0"), "{}", run.describe());
    // Among others, it is a judge error beside their verdicts.
    let all = copy.judge(&["--case", "samples", "--format", "json"]);
    assert_eq!(all.status, 2, "{}", all.describe());
    let errors = all.json().get("judge_errors").unwrap().items().to_vec();
    assert!(errors.iter().any(|e| e.as_str().unwrap().starts_with("solutions/latin.rs:1:7:")), "{errors:?}");
    // An editor is shown it at its place, as an error: it printed nothing but "finished".
    let editor = copy.judge(&["diagnostics", "solutions/latin.rs"]);
    assert_eq!(editor.status, 2, "{}", editor.describe());
    let messages: Vec<Json> = editor.stdout.lines().map(|l| Json::parse(l).unwrap()).collect();
    let error = messages.iter().filter_map(|m| m.get("message")).find(|m| m.get("level") == Some(&Json::str("error")));
    let error = error.unwrap_or_else(|| panic!("no error for the editor: {}", editor.describe()));
    let place = &error.get("spans").unwrap().items()[0];
    let at = |key: &str| place.get(key).and_then(Json::as_i128);
    assert_eq!((at("line_start"), at("column_start")), (Some(1), Some(7)), "{}", editor.describe());
    assert!(text(error, "message").contains("byte 0xe9 is not UTF-8"), "{}", editor.describe());
}

#[test]
fn version_names_the_judge_and_the_least_rust_that_builds_it() {
    for flag in ["--version", "-V"] {
        let run = judge(&[flag]);
        assert_eq!(run.status, 0, "{}", run.describe());
        let manifest = std::fs::read_to_string(crate::common::source().join("Cargo.toml")).unwrap();
        let field = |key: &str| {
            manifest.lines().find_map(|l| l.strip_prefix(key)).map(|v| v.trim().trim_matches('"').to_string()).unwrap()
        };
        let said = format!("judge {}:", field("version = "));
        assert!(run.stdout.starts_with(&said), "{}", run.describe());
        assert!(run.stdout.contains(&format!("Rust {} or later", field("rust-version = "))), "{}", run.describe());
    }
}

/// `--all-failures` judges one attempt's cases side by side, a child a lane, and reports them
/// as judging them in turn does: the same rows in the same order, the same failures.
#[test]
fn every_failure_side_by_side_reads_as_in_turn() {
    let copy = Copy::new("side-by-side", &["samples", "edge"]);
    copy.plant(
        "ties_for_alice",
        &format!("if stone_value.len() % 2 == 1 {{ return \"Alice\".to_string(); }}\n{CORRECT}"),
    );
    let run = |jobs: &str| {
        let args = ["--solution", "ties_for_alice", "--all-failures", "--jobs", jobs, "--color", "never"];
        let run = copy.judge(&args);
        assert_eq!(run.status, 1, "{}", run.describe());
        // Times differ from run to run; the rows' cases and verdicts do not.
        let rows: Vec<String> = run
            .stdout
            .lines()
            .filter(|l| {
                l.starts_with("samples/") || l.starts_with("edge/") || l.starts_with("WA ") || l.starts_with("AC ")
            })
            .map(|l| match l.starts_with("WA ") || l.starts_with("AC ") {
                true => l.to_string(),
                false => l.split_whitespace().take(3).collect::<Vec<_>>().join(" "),
            })
            .collect();
        assert!(rows.iter().filter(|r| r.starts_with("WA ")).count() >= 2, "{}", run.stdout);
        rows
    };
    assert_eq!(run("1"), run("4"));
}
