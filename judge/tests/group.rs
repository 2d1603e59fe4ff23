//! Every short array on every run: the stored group (testcases/short/, every array of length
//! 1 to 6 over -2..=2, one a line) is one row of the report, judged in one batch, and its
//! shortest failure is shown and rerun as any case's is.

use crate::common::{solution, text, Copy, Json, CORRECT};

const GROUP: &str = "testcases/short/len-1-to-6";

/// The 1-based line of the group's `.in` that holds `input`, and the answer its `.out` gives.
fn line_of(copy: &Copy, input: &str) -> (usize, String) {
    let inputs = copy.read(&format!("{GROUP}.in"));
    let at = inputs.lines().position(|l| l == input).unwrap_or_else(|| panic!("{input} is not in the group"));
    let answers = copy.read(&format!("{GROUP}.out"));
    (at + 1, answers.lines().nth(at).unwrap().trim_matches('"').to_string())
}

#[test]
fn every_short_array_is_one_row_and_its_shortest_failure_is_shown_and_rerun() {
    let copy = Copy::new("group", &["short"]);
    // Wrong on exactly two arrays: a pair worth 0 whose second pile is negative.
    let body = format!("if stone_value.len() == 2 && stone_value[0] + stone_value[1] == 0 && stone_value[1] < 0 {{ return \"Tie\".to_string(); }}\n{CORRECT}");
    copy.plant("pair_fast_path", &body);
    let testcases = copy.read(&format!("{GROUP}.in")).lines().count();
    let (first, expected) = line_of(&copy, "[1,-1]");
    let (second, _) = line_of(&copy, "[2,-2]");
    let run = copy.judge(&["--solution", "pair_fast_path", "--color", "never", "--width", "200"]);
    assert_eq!(run.status, 1, "{}", run.describe());
    assert!(run.stdout.contains("short/len-1-to-6: every array of length 1 to 6 over -2..=2"), "{}", run.stdout);
    assert_eq!(run.stdout.matches("short/len-1-to-6 ").count(), 1, "one row for the group:\n{}", run.stdout);
    let id = format!("short/len-1-to-6:{first}");
    assert!(run.stdout.contains(&format!("WA pair_fast_path on {id}")), "{}", run.stdout);
    assert!(run.stdout.contains(&format!("input     [1,-1]  ({GROUP}.in:{first})")), "{}", run.stdout);
    assert!(run.stdout.contains(&format!("expected  \"{expected}\"")), "{}", run.stdout);
    assert!(run.stdout.contains(&format!("then line {second}")), "{}", run.stdout);
    assert!(run.stdout.contains(&format!("--case {id}")), "the rerun names the line:\n{}", run.stdout);
    let report = copy.judge(&["--solution", "pair_fast_path", "--format", "json"]).json();
    let case = &report.get("cases").unwrap().items()[0];
    assert_eq!(case.get("testcases").and_then(Json::as_i128), Some(testcases as i128));
    let every = case.get("every").unwrap();
    let range: Vec<i128> =
        ["max_len", "low", "high"].iter().map(|k| every.get(k).and_then(Json::as_i128).unwrap()).collect();
    assert_eq!(range, [6, -2, 2]);
    let mine = solution(&report, "pair_fast_path");
    assert_eq!(mine.get("cases_run").and_then(Json::as_i128), Some(testcases as i128));
    assert_eq!(mine.get("accepted").and_then(Json::as_i128), Some(testcases as i128 - 2));
    let result = &mine.get("results").unwrap().items()[0];
    assert_eq!((text(result, "verdict"), text(result, "testcase")), ("WA", id.as_str()));
    let group = result.get("group").unwrap();
    let failed: Vec<i128> =
        group.get("failed").unwrap().items().iter().map(|f| f.get("line").and_then(Json::as_i128).unwrap()).collect();
    assert_eq!(failed, [first as i128, second as i128]);
    assert_eq!(group.get("passed").and_then(Json::as_i128), Some(testcases as i128 - 2));
    // The rerun judges that one testcase alone.
    let again = copy.judge(&["--solution", "pair_fast_path", "--case", &id, "--format", "json"]).json();
    let cases = again.get("cases").unwrap().items();
    assert_eq!(cases.len(), 1);
    assert_eq!(
        (text(&cases[0], "id"), cases[0].get("line").and_then(Json::as_i128)),
        (id.as_str(), Some(first as i128))
    );
    assert_eq!(text(solution(&again, "pair_fast_path"), "verdict"), "WA");
}

#[test]
fn a_testcase_that_panics_in_a_batch_is_found_and_the_rest_are_judged_after_it() {
    let copy = Copy::new("group-panic", &["short"]);
    let body = format!("if stone_value == [2, 2, 2] {{ panic!(\"three twos\"); }}\n{CORRECT}");
    copy.plant("three_twos", &body);
    let testcases = copy.read(&format!("{GROUP}.in")).lines().count() as i128;
    let (line, _) = line_of(&copy, "[2,2,2]");
    let report = copy.judge(&["--solution", "three_twos", "--format", "json"]).json();
    let result = &solution(&report, "three_twos").get("results").unwrap().items()[0];
    assert_eq!((text(result, "verdict"), result.get("line").and_then(Json::as_i128)), ("RE", Some(line as i128)));
    assert!(text(result, "reason").contains("three twos"), "{result:?}");
    let group = result.get("group").unwrap();
    let count = |key: &str| group.get(key).and_then(Json::as_i128).unwrap();
    assert_eq!((count("judged"), count("passed")), (testcases, testcases - 1), "{group:?}");
}
