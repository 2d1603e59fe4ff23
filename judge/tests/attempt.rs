//! The moment an attempt is wrong or slow, which is when a user needs the workspace most:
//! why an answer is wrong, how a slow one grows, several testcases at once, errors a program
//! can read, a long verify asked about first, and the judge again on every save.

use std::io::{BufRead, BufReader};
use std::time::Duration;

use crate::common::{judge, solution, text, Copy, Json, CORRECT};

/// An exponential recursion: right, and too slow past a few dozen piles.
const EXPONENTIAL: &str = "fn lead(s: &[i32], i: usize) -> i64 {
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
fn stress_says_when_an_attempt_is_far_slower_and_grows_exponentially() {
    let copy = Copy::new("stress-slow", &["samples"]);
    copy.plant("my_exp", EXPONENTIAL);
    let run = copy.judge(&["stress", "--solution", "my_exp", "--count", "3000", "--format", "json"]);
    assert_eq!(run.status, 0, "{}", run.describe());
    let slow = run.json().get("slow").unwrap().items().to_vec();
    assert_eq!(slow.len(), 1, "{}", run.describe());
    assert!(text(&slow[0], "growth").contains("exponential"), "{slow:?}");
}

#[test]
fn watch_judges_again_when_the_attempt_is_saved() {
    let copy = Copy::new("watch", &["samples"]);
    copy.plant("my_try", "let _ = stone_value;\n\"Alice\".to_string()");
    let mut watch = copy
        .command(&["watch", "--solution", "my_try", "--color", "never"])
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
    let wait = |what: &str| match seen.recv_timeout(Duration::from_secs(30)) {
        Ok(line) => line,
        Err(_) => panic!("no verdicts {what}"),
    };
    assert!(wait("at first").contains("0/1 solutions"));
    // A half-written file: a CE, and the watch goes on.
    copy.write("solutions/my_try.rs", "impl Solution {\n    pub fn stone_game_iii(");
    assert!(wait("after a half-written save").contains("0/1"));
    copy.plant("my_try", CORRECT);
    let fixed = wait("after the fix");
    assert!(fixed.contains("1/1 solutions got their expected verdicts"), "{fixed}");
    let said: Vec<String> = heard.try_iter().collect();
    assert!(said.iter().any(|l| l.contains("saved solutions/my_try.rs")), "{said:?}");
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
    // Structured as the judge's report gives them: by LeetCode's own Rust a compile error, by
    // a newer one clippy's item, where it is used.
    let problems = report.get("problems").unwrap().items();
    let found = match text(&report, "newer_than_leetcode_checked") {
        "everything" => problems
            .iter()
            .any(|p| text(p, "kind") == "does not compile" && text(p, "compile_error").contains("is_multiple_of")),
        _ => problems.iter().filter(|p| text(p, "kind") == "too new").any(|p| {
            let items = p.get("newer_than_leetcode").unwrap().items();
            items.iter().any(|n| text(n, "item") == "is_multiple_of" && n.get("line") == Some(&Json::Int(16)))
        }),
    };
    assert!(found, "{problems:?}");
    let ready = copy.judge(&["paste", "dp_array", "--format", "json"]);
    assert_eq!(ready.status, 0, "{}", ready.describe());
    assert_eq!(text(&ready.json(), "source"), copy.read("solutions/dp_array.rs"));
}
