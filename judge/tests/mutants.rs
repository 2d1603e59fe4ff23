//! The stored suite, proven by mutation: for every strategy the equivalents file holds, every
//! mutant that compiles is killed by a stored case or listed there as equivalent with a reason.
//! One test per strategy, so they run side by side.

use crate::common::{judge, text, Json, ROOT};

const EQUIVALENTS: &str = "judge/search/equivalent_mutants.txt";

/// The strategies the file holds to 100%, from its `hold:` line.
fn held() -> Vec<String> {
    let file = std::fs::read_to_string(format!("{ROOT}/{EQUIVALENTS}")).unwrap();
    let line = file.lines().find_map(|l| l.strip_prefix("hold:")).expect("a hold: line");
    line.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect()
}

fn no_survivor(strategy: &str) {
    assert!(held().iter().any(|h| h == strategy), "{strategy} is not held by {EQUIVALENTS}");
    let run = judge(&["mutants", "--solution", strategy, "--format", "json"]);
    let report = run.json();
    let survivors: Vec<String> = report
        .get("survivors")
        .unwrap()
        .items()
        .iter()
        .map(|s| format!("{} {}", text(s, "name"), text(s, "key")))
        .collect();
    assert!(
        survivors.is_empty(),
        "killed by no stored case and not listed in {EQUIVALENTS}:\n{}",
        survivors.join("\n")
    );
    assert_eq!(run.status, 0, "{}", run.describe());
    let counts = &report.get("strategies").unwrap().items()[0];
    let compiled = counts.get("compiled").and_then(Json::as_i128).unwrap();
    let killed = counts.get("killed").and_then(Json::as_i128).unwrap();
    let equivalent = counts.get("equivalent").and_then(Json::as_i128).unwrap();
    assert!(compiled > 100 && killed + equivalent == compiled, "{counts:?}");
}

#[test]
fn every_strategy_on_disk_that_the_workspace_ships_is_held() {
    let held = held();
    for name in [
        "dp_array",
        "four_scalars",
        "recursive_memo",
        "rolling_mod4",
        "sign_select_pairs",
        "stones_four_scalars_unrolled",
        "stones_mod4_grouped",
    ] {
        assert!(held.iter().any(|h| h == name), "{name} missing from the hold: line");
    }
}

#[test]
fn dp_array_mutants_are_all_killed_or_equivalent() {
    no_survivor("dp_array");
}

#[test]
fn four_scalars_mutants_are_all_killed_or_equivalent() {
    no_survivor("four_scalars");
}

#[test]
fn recursive_memo_mutants_are_all_killed_or_equivalent() {
    no_survivor("recursive_memo");
}

#[test]
fn rolling_mod4_mutants_are_all_killed_or_equivalent() {
    no_survivor("rolling_mod4");
}

#[test]
fn sign_select_pairs_mutants_are_all_killed_or_equivalent() {
    no_survivor("sign_select_pairs");
}

#[test]
fn stones_four_scalars_unrolled_mutants_are_all_killed_or_equivalent() {
    no_survivor("stones_four_scalars_unrolled");
}

#[test]
fn stones_mod4_grouped_mutants_are_all_killed_or_equivalent() {
    no_survivor("stones_mod4_grouped");
}
