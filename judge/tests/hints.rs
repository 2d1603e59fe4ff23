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
    // Judged on one suite, the command shows the rest of that suite's failures, not every case's.
    copy.plant("stub", "let _ = stone_value;\ntodo!()");
    let chosen = copy.judge(&["--solution", "stub", "--case", "samples", "--color", "never"]);
    let failed = |stdout: &str| stdout.matches("\nRE stub on ").count();
    assert_eq!(failed(&chosen.stdout), 3, "{}", chosen.stdout);
    let rest = run(&copy, &printed_command(&chosen.stdout, "to show them:"), &[]);
    assert_eq!(failed(&rest.stdout), 5, "{}", rest.stdout);

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

/// The command quoted after `marker` (`run 'cargo judge help gen' for its options`): its words
/// after `cargo judge`.
fn quoted_command(text: &str, marker: &str) -> Vec<String> {
    let after = &text[text.find(marker).unwrap_or_else(|| panic!("no {marker:?} in:\n{text}"))..];
    let start = after.find("'cargo judge").unwrap_or_else(|| panic!("no quoted command after {marker:?}:\n{text}"));
    let quoted = after[start + 1..].split('\'').next().unwrap();
    let words: Vec<String> = quoted.split_whitespace().map(String::from).collect();
    assert_eq!(&words[..2], ["cargo", "judge"], "{quoted}");
    words[2..].to_vec()
}

/// `cargo judge` is the workspace's cargo alias for `cargo run --release --`, as cargo itself
/// reads it from the workspace's `.cargo/config.toml`.
#[test]
fn cargo_reads_the_short_command_from_the_workspace() {
    let listed = std::process::Command::new("cargo").arg("--list").current_dir(crate::common::source()).output();
    let listed = String::from_utf8_lossy(&listed.unwrap().stdout).into_owned();
    let alias = listed.lines().find(|l| l.trim_start().starts_with("judge ")).unwrap_or_else(|| panic!("{listed}"));
    assert_eq!(alias.split_whitespace().collect::<Vec<_>>(), ["judge", "alias:", "run", "--release", "--"]);
}

#[test]
fn every_hint_usage_line_and_example_runs_as_typed() {
    let copy = Copy::new("hints-typed", &["samples"]);
    // The hint of a usage error, with and without a command.
    let mistyped = copy.judge(&["--solutoin", "x"]);
    assert_eq!(mistyped.status, 2, "{}", mistyped.describe());
    let help = run(&copy, &quoted_command(&mistyped.stderr, "hint: "), &[]);
    assert!(help.status == 0 && help.stdout.contains("\ncommands:\n"), "{}", help.describe());
    let missing = copy.judge(&["gen", "--shape", "zeros"]);
    assert!(missing.stderr.starts_with("judge: 'cargo judge gen' needs --len"), "{}", missing.describe());
    let gen_help = run(&copy, &quoted_command(&missing.stderr, "hint: "), &[]);
    assert!(gen_help.status == 0 && gen_help.stdout.contains("--seed SEED"), "{}", gen_help.describe());

    // Every command's usage line names the command as it is typed: with --help it shows that
    // same help; and its example runs (watch, bench and mutants run long: the cli's unit test
    // parses theirs).
    let overview = copy.judge(&["help"]).stdout;
    let words: Vec<&str> = overview.split_whitespace().collect();
    let listed: Vec<String> = ["new", "run", "watch", "stress", "paste", "verify", "gen", "bless", "bench", "mutants"]
        .into_iter()
        .filter(|w| words.contains(w))
        .map(String::from)
        .collect();
    assert_eq!(listed.len(), 10, "{overview}");
    for word in &listed {
        let help = copy.judge(&["help", word]);
        let usage = help.stdout.lines().next().unwrap().strip_prefix("usage: ").unwrap().to_string();
        let typed: Vec<String> =
            usage.split(" [OPTIONS]").next().unwrap().split(' ').skip(2).map(String::from).collect();
        assert_eq!(typed.join(" "), *word, "{usage}");
        let again = run(&copy, &typed, &["--help"]);
        assert_eq!((again.status, &again.stdout), (0, &help.stdout), "{}", again.describe());
    }
    let example = |word: &str| printed_command(&copy.judge(&["help", word]).stdout, "example:");
    let made = run(&copy, &example("new"), &[]);
    assert_eq!(made.status, 0, "{}", made.describe());
    // The empty method panics (todo!): a failure, never a usage error.
    for word in ["run", "stress", "verify", "diagnostics"] {
        let ran = run(&copy, &example(word), &[]);
        assert_eq!(ran.status, 1, "{word}: {}", ran.describe());
    }
    // --copy copies nothing without a terminal, and says so; the file is printed.
    let pasted = run(&copy, &example("paste"), &[]);
    assert!(
        pasted.stdout.starts_with("impl Solution {") && pasted.stderr.contains("not copied"),
        "{}",
        pasted.describe()
    );
    for word in ["gen", "bless", "help"] {
        let ran = run(&copy, &example(word), &[]);
        assert_eq!(ran.status, 0, "{word}: {}", ran.describe());
    }

    // What new says to do next, and its hint when the file is there.
    for marker in ["judge it ", "then all "] {
        let judged = run(&copy, &printed_command(&made.stdout, marker), &["--format", "json"]);
        assert_eq!(text(solution(&judged.json(), "my_try"), "verdict"), "RE", "{}", judged.describe());
    }
    let again = run(&copy, &example("new"), &[]);
    assert_eq!(again.status, 2, "{}", again.describe());
    let judged = run(&copy, &printed_command(&again.stderr, "judge that one:"), &["--format", "json"]);
    assert_eq!(text(solution(&judged.json(), "my_try"), "verdict"), "RE", "{}", judged.describe());
}
