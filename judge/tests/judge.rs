//! The built judge on scratch copies of the cases: bad case files, crashing, overflowing and
//! looping solutions, and exit statuses.

mod common;

use common::{repeated, Scratch};

#[test]
fn the_samples_pass_and_exit_zero() {
    let scratch = Scratch::new("samples");
    scratch.copy_suite("samples");
    let run = scratch.judge(&["--solution", "four_scalars", "--solution", "dp_array"]);
    assert_eq!(run.status, 0, "{}", run.describe());
    assert!(run.row("four_scalars").contains("5/5 AC"), "{}", run.describe());
    assert!(run.stdout.contains("samples/example-1"), "{}", run.describe());
}

#[test]
fn a_malformed_input_is_a_judge_error_with_its_position_and_the_rest_still_runs() {
    let scratch = Scratch::new("malformed");
    scratch.copy_suite("samples").write("bad/broken.in", "[1,2,,3]\n").write("bad/broken.out", "\"Bob\"\n");
    let run = scratch.judge(&["--solution", "four_scalars"]);
    assert_eq!(run.status, 2, "{}", run.describe());
    assert!(run.stdout.contains("bad/broken.in:1:6: expected a number, found ','"), "{}", run.describe());
    assert!(run.row("four_scalars").contains("5/5 AC"), "{}", run.describe());
}

#[test]
fn an_out_of_range_value_names_its_index_and_value() {
    let scratch = Scratch::new("range");
    scratch.copy_suite("samples").write("bad/big.in", "[1, 2, 1001]\n").write("bad/big.out", "\"Bob\"\n");
    let run = scratch.judge(&["--solution", "dp_array"]);
    assert_eq!(run.status, 2, "{}", run.describe());
    assert!(run.stdout.contains("big.in:1:8: value 1001 at index 2 is outside -1000..=1000"), "{}", run.describe());
    assert!(run.row("dp_array").contains("5/5 AC"), "{}", run.describe());
}

#[test]
fn a_missing_output_names_both_paths() {
    let scratch = Scratch::new("missing");
    scratch.copy_suite("samples").write("bad/lonely.in", "[1]\n").write("bad/orphan.out", "\"Tie\"\n");
    let run = scratch.judge(&["--solution", "rolling_mod4"]);
    assert_eq!(run.status, 2, "{}", run.describe());
    let lonely = scratch.dir.join("bad/lonely");
    let orphan = scratch.dir.join("bad/orphan");
    let has = |a: &std::path::Path, b: &std::path::Path, ea: &str, eb: &str| {
        run.stdout.contains(&format!("{}.{ea} has no {}.{eb}", a.display(), b.display()))
    };
    assert!(has(&lonely, &lonely, "in", "out"), "{}", run.describe());
    assert!(has(&orphan, &orphan, "out", "in"), "{}", run.describe());
    assert!(run.row("rolling_mod4").contains("5/5 AC"), "{}", run.describe());
}

#[test]
fn a_panicking_solution_is_re_with_its_message_and_others_are_intact() {
    let scratch = Scratch::new("panic");
    scratch.copy_suite("samples");
    let run = scratch.judge(&["--solution", "wrong/unguarded_lookahead", "--solution", "four_scalars", "--verbose"]);
    // RE is what that solution is tagged to get, so the run as a whole is as expected.
    assert_eq!(run.status, 0, "{}", run.describe());
    assert!(run.row("wrong/unguarded_lookahead").contains("0 AC, then RE"), "{}", run.describe());
    assert!(run.stdout.contains("index out of bounds"), "{}", run.describe());
    assert!(run.row("four_scalars").contains("5/5 AC"), "{}", run.describe());
}

#[test]
fn a_stack_overflow_is_re_and_a_fresh_child_judges_the_next_cases() {
    let scratch = Scratch::new("overflow");
    scratch
        .copy_suite("samples")
        .write("a-deep/zeros.in", &repeated(0, 50_000))
        .write("a-deep/zeros.out", "\"Tie\"\n")
        .write("b-after/one.in", "[3]\n")
        .write("b-after/one.out", "\"Alice\"\n");
    // One MiB of stack cannot hold 50,000 recursive frames.
    let run = scratch.judge(&["--solution", "recursive_memo", "--solution", "four_scalars", "--stack-mb", "1"]);
    assert_eq!(run.status, 1, "{}", run.describe());
    assert!(run.stdout.contains("reason    stack overflow"), "{}", run.describe());
    assert!(run.row("recursive_memo").contains("6 AC, 1 RE"), "{}", run.describe());
    assert!(run.row("four_scalars").contains("7/7 AC"), "{}", run.describe());
    assert!(run.stdout.contains("rerun     cargo run --release -- --solution recursive_memo --case a-deep/zeros"));
}

#[test]
fn a_looping_solution_is_killed_at_the_time_limit() {
    let scratch = Scratch::new("loop");
    scratch.copy_suite("samples").write("long/ones.in", &repeated(1, 200)).write("long/ones.out", "\"Alice\"\n");
    let start = std::time::Instant::now();
    let run = scratch.judge(&["--solution", "wrong/plain_recursion", "--solution", "dp_array", "--time-limit", "0.3"]);
    assert!(start.elapsed().as_secs() < 20, "the child was not killed in time");
    assert_eq!(run.status, 0, "{}", run.describe());
    assert!(run.row("wrong/plain_recursion").contains("5 AC, then TLE"), "{}", run.describe());
    assert!(run.row("dp_array").contains("6/6 AC"), "{}", run.describe());
}

#[test]
fn a_wrong_answer_from_a_strategy_exits_one_with_the_rerun_command() {
    let scratch = Scratch::new("wa");
    // The stored answer is deliberately wrong here: [5] is Alice's.
    scratch.write("lie/five.in", "[5]\n").write("lie/five.out", "\"Bob\"\n");
    let run = scratch.judge(&["--solution", "four_scalars"]);
    assert_eq!(run.status, 1, "{}", run.describe());
    assert!(run.stdout.contains("expected  \"Bob\"") && run.stdout.contains("got       \"Alice\""));
    assert!(run.stdout.contains("--solution four_scalars --case lie/five --cases"), "{}", run.describe());
}

#[test]
fn json_holds_the_documented_fields() {
    let scratch = Scratch::new("json");
    scratch.copy_suite("samples");
    let run = scratch.judge(&["--solution", "dp_array", "--format", "json"]);
    assert_eq!(run.status, 0, "{}", run.describe());
    for field in [
        "\"format_version\": 1",
        "\"exit_status\": 0",
        "\"name\": \"dp_array\"",
        "\"expected_verdict\": \"AC\"",
        "\"met_expectation\": true",
        "\"accepted\": 5",
        "\"peak_rss_kib\": ",
        "\"case\": \"samples/example-1\"",
        "\"time_ns\": ",
    ] {
        assert!(run.stdout.contains(field), "missing {field} in:\n{}", run.stdout);
    }
}

#[test]
fn bad_flags_get_one_line_and_a_hint() {
    let run = common::judge(&["--frobnicate"]);
    assert_eq!(run.status, 2);
    assert_eq!(run.stderr, "judge: unknown option '--frobnicate'\nhint: run 'judge --help' for the options\n");
    let run = common::judge(&["--solution", "nope"]);
    assert_eq!(run.status, 2);
    assert!(run.stderr.starts_with("judge: no solution named \"nope\"; known: "), "{}", run.stderr);
}

#[test]
fn custom_input_runs_every_strategy_and_paste_prints_the_file() {
    let run = common::judge(&["run", "[1,2,3,7]"]);
    assert_eq!(run.status, 0, "{}", run.describe());
    assert!(run.stdout.contains("expected  \"Bob\""));
    assert_eq!(run.stdout.matches("AC  \"Bob\"").count(), 4, "{}", run.describe());
    let run = common::judge(&["run", "--solution", "wrong/sign_slip", "[1,2,3,7]"]);
    assert_eq!(run.status, 1, "{}", run.describe());
    assert!(run.stdout.contains("disagreement"));
    let run = common::judge(&["run", "[1,2,"]);
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("input:1:6: expected a number, found end of input"), "{}", run.stderr);
    let run = common::judge(&["run", "--plain", "--solution", "dp_array", "[1,2,3,-9]"]);
    assert_eq!((run.status, run.stdout.as_str()), (0, "\"Alice\"\n"), "{}", run.describe());
    let run = common::judge(&["run", "--plain", "--solution", "wrong/table_without_end_slot", "[1]"]);
    assert_eq!(run.status, 1, "{}", run.describe());
    assert!(run.stderr.contains("index out of bounds"), "{}", run.describe());
    let run = common::judge(&["paste", "four_scalars"]);
    let file = std::fs::read_to_string(format!("{}/solutions/four_scalars.rs", common::ROOT)).unwrap();
    assert_eq!(run.stdout, file);
}
