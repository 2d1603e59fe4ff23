//! Every command the judge prints, run as it is printed (continuation lines joined, quotes read
//! as a shell reads them): each does what the words before it promise, for the case at hand.
//! (The smaller-case command of a failure block has its own test in `attempt`; `verify`'s
//! `--yes` starts a run of hours, so only its wording is tested there.)

use crate::common::{printed_command, solution, text, Copy, Json, CORRECT};

/// Runs a printed command in the copy, with `extra` words after it.
fn run(copy: &Copy, words: &[String], extra: &[&str]) -> crate::common::Run {
    let mut args: Vec<&str> = words.iter().map(String::as_str).collect();
    args.extend(extra);
    copy.judge(&args)
}

#[test]
#[ignore = "slow: the whole suite"]
fn the_judges_commands_show_every_failure_judge_every_case_and_check_the_stored_answers() {
    let copy = Copy::new("hints-judge", &["samples", "edge"]);
    copy.plant("ties_for_alice", "let _ = stone_value;\n\"Alice\".to_string()");
    let shown = copy.judge(&["--solution", "ties_for_alice", "--color", "never"]);
    let blocks = |stdout: &str| stdout.matches("\nWA ties_for_alice on ").count();
    assert_eq!(blocks(&shown.stdout), 3, "{}", shown.stdout);
    let more: usize = shown.stdout.split("… and ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    let all = run(&copy, &printed_command(&shown.stdout, "to show them:"), &[]);
    assert_eq!(blocks(&all.stdout), 3 + more, "{}", all.stdout);
    // Every failure of the rerun is the same solution's on the same cases.
    let rerun = run(&copy, &printed_command(&shown.stdout, "  rerun "), &["--format", "json"]);
    let report = rerun.json();
    let results = solution(&report, "ties_for_alice").get("results").unwrap().items().to_vec();
    assert_eq!(results.len(), 1, "{}", rerun.describe());
    assert_eq!(text(&results[0], "verdict"), "WA");

    copy.plant("my_exp", crate::attempt::EXPONENTIAL);
    let slow = copy.judge(&["--solution", "my_exp", "--time-limit", "30ms", "--color", "never"]);
    assert!(slow.stdout.contains("not judged after 3 TLE"), "{}", slow.describe());
    let every = run(&copy, &printed_command(&slow.stdout, "to judge them all:"), &["--format", "json"]);
    let report = every.json();
    let mine = solution(&report, "my_exp");
    assert_eq!(mine.get("not_judged").and_then(Json::as_i128), Some(0), "{mine:?}");
    assert_eq!(mine.get("cases_run").and_then(Json::as_i128), Some(report.get("cases").unwrap().items().len() as i128));

    copy.write("testcases/samples/example-1.out", "\"Alice\"\n");
    copy.plant("my_try", CORRECT);
    let suspect = copy.judge(&["--solution", "my_try", "--case", "samples", "--color", "never"]);
    let check = run(&copy, &printed_command(&suspect.stdout, "  check it "), &[]);
    assert_eq!(check.status, 1, "{}", check.describe());
    assert!(check.stdout.contains("testcases/samples/example-1.out  \"Alice\" -> \"Bob\""), "{}", check.stdout);
}

#[test]
fn a_counterexamples_commands_make_it_rerun_it_try_it_and_keep_it() {
    let copy = Copy::new("hints-stress", &["samples"]);
    let args = ["stress", "--count", "10000", "--solution", "wrong/sign_slip"];
    let found = copy.judge(&args);
    assert_eq!(found.status, 1, "{}", found.describe());
    let report = copy.judge(&[&args[..], &["--format", "json"]].concat()).json();
    let example = report.get("counterexample").unwrap().clone();
    let original_len = example.get("original_len").and_then(Json::as_i128).unwrap();
    let made = run(&copy, &printed_command(&found.stdout, "  original "), &[]);
    assert_eq!(made.stdout.matches(',').count() as i128 + 1, original_len, "{}", made.describe());
    let rerun = run(&copy, &printed_command(&found.stdout, "  rerun "), &["--format", "json"]);
    assert_eq!(rerun.json().get("counterexample"), Some(&example), "{}", rerun.describe());
    let tried = run(&copy, &printed_command(&found.stdout, "  try it "), &["--format", "json"]);
    let testcase = tried.json().get("testcases").unwrap().items()[0].clone();
    assert_eq!(text(solution(&testcase, "wrong/sign_slip"), "verdict"), "WA", "{}", tried.describe());
    let kept = run(&copy, &printed_command(&found.stdout, "  keep it "), &["--format", "json"]);
    let saved = text(&kept.json(), "saved").to_string();
    assert!(copy.root.join(&saved).exists(), "{saved}");
}

#[test]
fn runs_command_for_a_smaller_case_finds_one() {
    let copy = Copy::new("hints-run", &["samples"]);
    let input = std::fs::read_to_string(crate::common::source().join("testcases/edge/lead-past-i16-n63.in")).unwrap();
    let shown = copy.judge(&["run", "--solution", "wrong/narrow_i16_table", "--color", "never", input.trim()]);
    assert_eq!(shown.status, 1, "{}", shown.describe());
    let stress = run(&copy, &printed_command(&shown.stdout, "  shorter "), &["--format", "json"]);
    assert_eq!(stress.status, 1, "{}", stress.describe());
    let example = stress.json().get("counterexample").unwrap().clone();
    assert_eq!(text(&example, "verdict"), "WA", "{example:?}");
}

#[test]
fn a_surviving_mutants_command_judges_it_alone() {
    let copy = Copy::new("hints-mutants", &["samples", "edge"]);
    copy.write("solutions/my_dp.rs", &copy.read("solutions/dp_array.rs"));
    let shown = copy.judge(&["mutants", "--solution", "my_dp", "--operator", "comparison"]);
    assert_eq!(shown.status, 1, "{}", shown.describe());
    let words = printed_command(&shown.stdout, "  judge it ");
    let judged = run(&copy, &words, &["--format", "json"]);
    let report = judged.json();
    let name = &words[words.iter().position(|w| w == "--solution").unwrap() + 1];
    let mutant = solution(&report, name);
    // It survives: every case it ran is AC, which a mutant must not get.
    assert_eq!((text(mutant, "verdict"), text(mutant, "met")), ("AC", "no"), "{mutant:?}");
}
