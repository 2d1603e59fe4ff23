//! The moment an attempt is wrong or slow, which is when a user needs the workspace most:
//! why an answer is wrong, how a slow one grows, several testcases at once, errors a program
//! can read, a long verify asked about first, and the judge again on every save.

use std::io::{BufRead, BufReader};
use std::time::Duration;

use crate::common::{judge, solution, text, Copy, Json, CORRECT};

/// An exponential recursion: right, and too slow past a few dozen piles.
pub const EXPONENTIAL: &str = "fn lead(s: &[i32], i: usize) -> i64 {
            let mut best = i64::MIN;
            let mut taken = 0i64;
            for k in 1..=3.min(s.len() - i) {
                taken += i64::from(s[i + k - 1]);
                best = best.max(taken - if i + k == s.len() { 0 } else { lead(s, i + k) });
            }
            best
        }
        match lead(&stone_value, 0) { l if l > 0 => \"Alice\", l if l < 0 => \"Bob\", _ => \"Tie\" }.to_string()";

#[test]
fn a_wrong_answer_on_a_short_input_shows_the_oracles_leads_and_play() {
    let copy = Copy::new("why", &["samples"]);
    copy.plant("ties_for_alice", "let _ = stone_value;\n\"Alice\".to_string()");
    let run = copy.judge(&["--solution", "ties_for_alice", "--case", "example-1", "--color", "never"]);
    assert_eq!(run.status, 1, "{}", run.describe());
    // [1,2,3,7]: Alice can take 1, 1+2 or 1+2+3; Bob then takes the 7 and wins by 1.
    assert!(run.stdout.contains("leads     f(0..=4) = [-1, 12, 10, 7, 0]"), "{}", run.stdout);
    assert!(run.stdout.contains("play      Alice takes piles 0..=2 (+6), Bob takes pile 3 (+7)"), "{}", run.stdout);
    assert!(run.stdout.contains("totals    Alice 6, Bob 7: margin -1 for Alice, so \"Bob\""), "{}", run.stdout);
    let json = copy.judge(&["--solution", "ties_for_alice", "--case", "example-1", "--format", "json"]).json();
    let result = &solution(&json, "ties_for_alice").get("results").unwrap().items()[0];
    let leads: Vec<i128> = result.get("leads").unwrap().items().iter().filter_map(Json::as_i128).collect();
    assert_eq!(leads, [-1, 12, 10, 7, 0]);
    let play = result.get("play").unwrap().items();
    assert_eq!(play.len(), 2);
    assert_eq!((text(&play[1], "player"), play[1].get("taken").and_then(Json::as_i128)), ("Bob", Some(7)));
}

#[test]
#[ignore = "slow: three time limits and a growth probe"]
fn an_exponential_attempt_stops_after_three_time_limits_and_its_growth_is_named() {
    let copy = Copy::new("exponential", &["samples", "edge"]);
    copy.plant("my_exp", EXPONENTIAL);
    let run = copy.judge(&["--solution", "my_exp", "--time-limit", "200ms", "--format", "json"]);
    assert_eq!(run.status, 1, "{}", run.describe());
    let report = run.json();
    let mine = solution(&report, "my_exp");
    let verdicts: Vec<&str> = mine.get("results").unwrap().items().iter().map(|r| text(r, "verdict")).collect();
    assert_eq!(verdicts.iter().filter(|v| **v == "TLE").count(), 3, "{verdicts:?}\n{}", run.describe());
    assert!(mine.get("not_judged").and_then(Json::as_i128).unwrap() > 0, "{mine:?}");
    let growth = mine.get("growth").unwrap();
    assert_eq!(text(growth, "order"), "exponential", "{growth:?}");
    let factor = growth.get("per_pile").and_then(Json::as_f64).unwrap();
    // About 1.84 on a quiet machine; the figure is a measurement, so only its sense is tested.
    assert!(factor > 1.0, "an exponential grows with every pile: {factor}");
    let shown = copy.judge(&["--solution", "my_exp", "--time-limit", "200ms", "--color", "never"]);
    assert!(shown.stdout.contains("not judged after 3 TLE"), "{}", shown.stdout);
    assert!(shown.stdout.contains("with every extra pile: exponential"), "{}", shown.stdout);
}

#[test]
fn run_takes_several_testcases_one_per_line() {
    let run = judge(&["run", "--solution", "dp_array", "[1,2,3,7]\n\n[1,2,3,-9]\n", "--format", "json"]);
    assert_eq!(run.status, 0, "{}", run.describe());
    let testcases = run.json().get("testcases").unwrap().items().to_vec();
    let expected: Vec<&str> = testcases.iter().map(|t| text(t, "expected")).collect();
    assert_eq!(expected, ["Bob", "Alice"]);
    let plain = judge(&["run", "--solution", "dp_array", "--plain", "[1,2,3,7]\n[1,2,3,6]"]);
    assert_eq!(plain.stdout, "\"Bob\"\n\"Tie\"\n", "{}", plain.describe());
    let bad = judge(&["run", "[1,2]\n[1,,2]"]);
    assert_eq!(bad.status, 2);
    assert!(bad.stderr.starts_with("judge: input:2:4: expected a number, found ','"), "{}", bad.stderr);
    // Testcases as arguments, each its own: a mistake is placed in its argument.
    let two = judge(&["run", "--solution", "dp_array", "[1,2,3,7]", "[1,2,3,-9]", "--format", "json"]);
    let testcases = two.json().get("testcases").unwrap().items().to_vec();
    assert_eq!(testcases.iter().map(|t| text(t, "expected")).collect::<Vec<_>>(), ["Bob", "Alice"]);
    let bad = judge(&["run", "[1,2]", "[1,,2]"]);
    assert_eq!(bad.status, 2);
    assert!(bad.stderr.starts_with("judge: argument 2:1:4: expected a number, found ','"), "{}", bad.stderr);
}

#[test]
fn with_json_every_error_is_a_json_document_too() {
    for args in [
        &["--solution", "no_such_file", "--format", "json"][..],
        &["run", "[1,2", "--format", "json"],
        &["--solutoin", "x", "--format", "json"],
    ] {
        let run = judge(args);
        assert_eq!(run.status, 2, "{}", run.describe());
        let error = run.json();
        assert_eq!(error.get("exit_status").and_then(Json::as_i128), Some(2), "{args:?}");
        assert!(!text(&error, "error").is_empty(), "{error:?}");
    }
}

#[test]
fn a_bound_of_hours_is_estimated_and_needs_yes() {
    let run = judge(&["verify", "--max-len", "14", "--solution", "four_scalars"]);
    assert_eq!(run.status, 2, "{}", run.describe());
    assert!(run.stderr.contains("verify would check 791,260,251,656 arrays, about"), "{}", run.stderr);
    assert!(run.stderr.contains("--yes"), "{}", run.stderr);
}

#[test]
#[ignore = "slow: a bench run with time limits"]
fn bench_names_the_time_limit_it_was_given_and_what_it_could_not_measure() {
    let copy = Copy::new("bench-slow", &["samples"]);
    copy.plant("my_exp", EXPONENTIAL);
    let run = copy.judge(&["bench", "--solution", "my_exp", "--sizes", "5,60", "--reps", "1", "--time-limit", "300ms"]);
    assert_eq!(run.status, 1, "{}", run.describe());
    assert!(
        run.stdout.contains("my_exp at n = 60: not measured: no answer within the time limit of 300ms"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("/proc"), "{}", run.stdout);
}

#[test]
#[ignore = "slow: an exponential attempt under stress"]
fn stress_says_when_an_attempt_is_far_slower_and_grows_exponentially() {
    let copy = Copy::new("stress-slow", &["samples"]);
    copy.plant("my_exp", EXPONENTIAL);
    let run = copy.judge(&["stress", "--solution", "my_exp", "--count", "3000", "--format", "json"]);
    assert_eq!(run.status, 1, "slow fails the run, as LeetCode's TLE would: {}", run.describe());
    let slow = run.json().get("slow").unwrap().items().to_vec();
    assert_eq!(slow.len(), 1, "{}", run.describe());
    assert!(text(&slow[0], "growth").contains("exponential"), "{slow:?}");
}

#[test]
fn watch_judges_again_when_the_attempt_is_saved() {
    let copy = Copy::new("watch", &["samples"]);
    copy.plant("my_try", "let _ = stone_value;\n\"Alice\".to_string()");
    let mut watch = copy
        .command(&["watch", "--solution", "my_try", "--color", "never", "--leetcode-rust", "1.84"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = BufReader::new(watch.stderr.take().unwrap());
    let (lines, heard) = std::sync::mpsc::channel();
    std::thread::spawn(move || stderr.lines().map_while(Result::ok).for_each(|l| drop(lines.send(l))));
    let stdout = BufReader::new(watch.stdout.take().unwrap());
    let (verdicts, seen) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in stdout.lines().map_while(Result::ok).filter(|l| l.contains("solutions got their expected")) {
            let _ = verdicts.send(line);
        }
    });
    // A save is more than one write (truncate, then write): on a busy machine the watch may
    // judge a state in between too, so each wait is for the verdict the save must lead to.
    let wait = |what: &str, wanted: &str| loop {
        match seen.recv_timeout(Duration::from_secs(30)) {
            Ok(line) if line.contains(wanted) => break line,
            Ok(_) => {}
            Err(_) => panic!("no verdict {wanted:?} {what}"),
        }
    };
    wait("at first", "0/1 solutions");
    // A half-written file: a CE, and the watch goes on.
    copy.write("solutions/my_try.rs", "impl Solution {\n    pub fn stone_game_iii(");
    wait("after a half-written save", "0/1");
    copy.plant("my_try", CORRECT);
    let fixed = wait("after the fix", "1/1 solutions got their expected verdicts");
    assert!(fixed.contains("1/1 solutions got their expected verdicts"), "{fixed}");
    let said: Vec<String> = heard.try_iter().collect();
    assert!(said.iter().any(|l| l.contains("saved solutions/my_try.rs")), "{said:?}");
    // Without LeetCode's 1.84 (rarely installed), what that leaves unchecked is said once in
    // the session, not before every judging.
    let notices = said.iter().filter(|l| l.starts_with("judge: not LeetCode's Rust 1.84")).count();
    assert!(notices <= 1, "{said:?}");
    if notices == 0 {
        crate::common::skipped("a 1.84 toolchain is installed here: the watch's notice was not checked");
    }
    watch.kill().unwrap();
    watch.wait().unwrap();
}

#[test]
fn paste_as_json_says_ready_with_the_file_or_what_stops_it() {
    let copy = Copy::new("paste-json", &["samples"]);
    let too_new =
        std::fs::read_to_string(crate::common::source().join("judge/tests/paste/newer_than_leetcode.rs")).unwrap();
    copy.write("solutions/too_new.rs", &too_new);
    let refused = copy.judge(&["paste", "too_new", "--format", "json"]);
    assert_eq!(refused.status, 1, "{}", refused.describe());
    let report = refused.json();
    assert_eq!(report.get("ready"), Some(&Json::Bool(false)));
    assert_eq!(report.get("source"), Some(&Json::Null));
    // A compile error, with LeetCode's own Rust or without it, naming the item and its version.
    let problems = report.get("problems").unwrap().items();
    let found = problems.iter().any(|p| {
        let error = text(p, "compile_error");
        text(p, "kind") == "does not compile" && error.contains("is_multiple_of") && error.contains("Rust 1.87")
    });
    assert!(found, "{problems:?}");
    let ready = copy.judge(&["paste", "dp_array", "--format", "json"]);
    assert_eq!(ready.status, 0, "{}", ready.describe());
    assert_eq!(text(&ready.json(), "source"), copy.read("solutions/dp_array.rs"));
}

#[test]
fn run_plain_prints_one_line_per_testcase_with_the_verdict_where_no_answer_came() {
    let copy = Copy::new("plain", &["samples"]);
    copy.plant("three_panics", &format!("if stone_value == [3] {{ panic!(\"three\"); }}\n{CORRECT}"));
    let inputs = "[1,2]\n[3]\n[0,0]";
    let run = copy.judge(&["run", "--solution", "three_panics", "--plain", inputs]);
    assert_eq!(run.stdout, "\"Alice\"\nRE\n\"Tie\"\n", "{}", run.describe());
    assert_eq!(run.status, 1, "an answer that did not come is a failed program: {}", run.describe());
    assert!(run.stderr.contains("three_panics on testcase 2: RE: panicked at"), "{}", run.describe());
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.describe());
    // A bundled wrong submission runs every testcase too, past its first wrong answer.
    let wrong = copy.judge(&["run", "--solution", "wrong/tie_counts_for_alice", "--plain", "[1,2]\n[0]\n[1,-1]\n[5]"]);
    assert_eq!(wrong.stdout, "\"Alice\"\n\"Alice\"\n\"Alice\"\n\"Alice\"\n", "{}", wrong.describe());
    assert_eq!((wrong.status, wrong.stderr.as_str()), (0, ""), "{}", wrong.describe());
    let crashes = copy.judge(&["run", "--solution", "wrong/table_without_end_slot", "--plain", "[1,2]\n[0]\n[5]"]);
    assert_eq!(crashes.stdout, "RE\nRE\nRE\n", "{}", crashes.describe());
}

#[test]
fn run_judges_every_testcase_for_every_named_solution() {
    let copy = Copy::new("run-every", &["samples"]);
    copy.plant("three_panics", &format!("if stone_value == [3] {{ panic!(\"three\"); }}\n{CORRECT}"));
    let args = ["run", "--solution", "wrong/tie_counts_for_alice", "--solution", "three_panics", "--format", "json"];
    let run = copy.judge(&[&args[..], &["[0]\n[3]\n[1,-1]\n[0,0]"]].concat());
    assert_eq!(run.status, 1, "{}", run.describe());
    let testcases = run.json().get("testcases").unwrap().items().to_vec();
    let verdicts: Vec<Vec<&str>> = testcases
        .iter()
        .map(|t| t.get("solutions").unwrap().items().iter().map(|s| text(s, "verdict")).collect())
        .collect();
    assert_eq!(verdicts, [["WA", "AC"], ["AC", "RE"], ["AC", "AC"], ["WA", "AC"]], "{}", run.describe());
    let shown = copy.judge(&["run", "--solution", "wrong/tie_counts_for_alice", "--color", "never", "[0]\n[5]"]);
    assert_eq!(shown.stdout.matches("not the oracle's answer").count(), 1, "{}", shown.stdout);
    assert_eq!(shown.stdout.matches("why \"").count(), 1, "{}", shown.stdout);
}

/// Runs the command printed after `marker` in the copy, with JSON, and returns its report.
fn printed_stress(copy: &Copy, text: &str, marker: &str) -> Json {
    let words = crate::common::printed_command(text, marker);
    assert_eq!(words[0], "stress", "{words:?}");
    let mut args: Vec<&str> = words.iter().map(String::as_str).collect();
    args.extend(["--format", "json"]);
    let run = copy.judge(&args);
    assert_eq!(run.status, 1, "{words:?} found nothing:\n{}", run.describe());
    run.json()
}

#[test]
#[ignore = "slow: time limits, shrinking a long case"]
fn the_printed_command_for_a_smaller_case_finds_one_for_a_long_wrong_answer_and_for_a_tle() {
    let copy = Copy::new("smaller", &["edge"]);
    let shown = copy.judge(&[
        "--solution",
        "wrong/narrow_i16_table",
        "--case",
        "lead-past-i16-n63",
        "--verbose",
        "--color",
        "never",
    ]);
    assert!(shown.stdout.contains("WA wrong/narrow_i16_table on edge/lead-past-i16-n63"), "{}", shown.describe());
    let report = printed_stress(&copy, &shown.stdout, "  shorter ");
    let example = report.get("counterexample").unwrap();
    assert_eq!(text(example, "verdict"), "WA", "{example:?}");
    copy.plant("my_exp", EXPONENTIAL);
    let args =
        ["--solution", "my_exp", "--case", "leads-stay-minus-one-n42", "--time-limit", "30ms", "--color", "never"];
    let shown = copy.judge(&args);
    assert!(shown.stdout.contains("TLE my_exp on edge/leads-stay-minus-one-n42"), "{}", shown.describe());
    let report = printed_stress(&copy, &shown.stdout, "  shorter ");
    let example = report.get("counterexample").unwrap();
    assert_eq!(text(example, "verdict"), "TLE", "{example:?}");
    // Tried on the shrunk case under the same limit, the printed `try it` gets TLE too.
    let try_it = text(example, "try_it").strip_prefix("cargo judge ").unwrap().to_string();
    assert!(try_it.contains("--time-limit 30ms"), "{try_it}");
}

#[test]
#[ignore = "slow: a time limit"]
fn failure_blocks_come_smallest_case_first_and_the_slowest_case_counts_a_tle() {
    let copy = Copy::new("order", &["samples", "edge"]);
    copy.plant("ties_for_alice", "let _ = stone_value;\n\"Alice\".to_string()");
    let run = copy.judge(&["--solution", "ties_for_alice", "--color", "never"]);
    let first = run.stdout.lines().find(|l| l.starts_with("WA ties_for_alice on ")).unwrap();
    assert!(first.contains("edge/n1-"), "the clearest block first: {first}\n{}", run.stdout);
    copy.plant("my_exp", EXPONENTIAL);
    let run = copy.judge(&["--solution", "my_exp", "--time-limit", "100ms", "--format", "json"]);
    let report = run.json();
    let mine = solution(&report, "my_exp");
    let slowest = text(mine, "slowest_case").to_string();
    let results = mine.get("results").unwrap().items();
    let tle = results.iter().find(|r| text(r, "case") == slowest).map(|r| text(r, "verdict"));
    assert_eq!(tle, Some("TLE"), "{slowest}: {mine:?}");
    assert!(mine.get("slowest_ns").and_then(Json::as_i128).unwrap() >= 100_000_000, "{mine:?}");
}

/// A running `judge watch`: its stderr lines and the verdict lines of its stdout, as they come.
struct Watching {
    child: std::process::Child,
    said: std::sync::mpsc::Receiver<String>,
    verdicts: std::sync::mpsc::Receiver<String>,
}

impl Watching {
    fn start(copy: &Copy, args: &[&str]) -> Watching {
        let mut child = copy
            .command(&[&["watch", "--color", "never"][..], args].concat())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let stderr = BufReader::new(child.stderr.take().unwrap());
        let (lines, said) = std::sync::mpsc::channel();
        std::thread::spawn(move || stderr.lines().map_while(Result::ok).for_each(|l| drop(lines.send(l))));
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (sent, verdicts) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in stdout.lines().map_while(Result::ok).filter(|l| l.contains("solutions got their expected")) {
                let _ = sent.send(line);
            }
        });
        Watching { child, said, verdicts }
    }

    /// Waits, up to 30 s, for a verdict line that contains `wanted`: a save is more than one
    /// write, and on a busy machine the watch may judge a state in between too.
    fn verdict(&mut self, after: &str, wanted: &str) {
        loop {
            match self.verdicts.recv_timeout(Duration::from_secs(30)) {
                Ok(line) if line.contains(wanted) => break,
                Ok(_) => {}
                Err(_) => panic!("no verdict {wanted:?} {after}"),
            }
        }
        assert!(self.child.try_wait().unwrap().is_none(), "watch ended {after}");
    }

    /// Waits for a line on stderr that contains `text`.
    fn hear(&mut self, text: &str) -> String {
        loop {
            match self.said.recv_timeout(Duration::from_secs(30)) {
                Ok(line) if line.contains(text) => return line,
                Ok(_) => {}
                Err(_) => panic!("watch never said {text:?}"),
            }
        }
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
#[ignore = "slow: a watch session over several saves"]
fn watch_follows_the_folder_created_renamed_and_re_created_files() {
    let copy = Copy::new("watch-folder", &["samples"]);
    let mut watch = Watching::start(&copy, &["--case", "samples"]);
    let strategies = crate::common::SHIPPED.len();
    watch.verdict("at first", &format!("{strategies}/{strategies} solutions"));
    copy.plant("new_one", CORRECT);
    let with_it = format!("{0}/{0} solutions", strategies + 1);
    watch.verdict("after a new file", &with_it);
    watch.hear("solutions/new_one.rs");
    std::fs::rename(copy.root.join("solutions/new_one.rs"), copy.root.join("solutions/renamed.rs")).unwrap();
    let said = watch.hear("solutions/renamed.rs");
    assert!(said.contains("renamed solutions/new_one.rs to solutions/renamed.rs"), "{said}");
    watch.verdict("after a rename", &with_it);
    drop(watch);
    // A named file removed and written again, as `git stash` and many editors do.
    copy.plant("my_try", "let _ = stone_value;\n\"Alice\".to_string()");
    let mut watch = Watching::start(&copy, &["--solution", "my_try", "--case", "samples"]);
    watch.verdict("at first", "0/1 solutions");
    std::fs::remove_file(copy.root.join("solutions/my_try.rs")).unwrap();
    watch.hear("solutions/my_try.rs is gone");
    copy.plant("my_try", CORRECT);
    watch.verdict("after the file came back", "1/1 solutions");
}
