//! The stored suite, proven by mutation. The campaign itself runs in `.ci/run` (`judge
//! mutants` exits 1 on any mutant that survives unlisted); here, that it covers every strategy
//! the workspace ships, and that one mutant a stored case must kill is killed.

use crate::common::{judge, skipped, source, text, Copy, Json, SHIPPED};

const EQUIVALENTS: &str = "judge/search/equivalent_mutants.txt";

/// The strategies the file holds to 100%, from its `hold:` line.
fn held() -> Vec<String> {
    let file = std::fs::read_to_string(source().join(EQUIVALENTS)).unwrap();
    let line = file.lines().find_map(|l| l.strip_prefix("hold:")).expect("a hold: line");
    line.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect()
}

/// The strategies the workspace ships: the files of `solutions/` the repository tracks (a
/// user's own attempt there is not one); None outside a git checkout.
fn shipped() -> Option<Vec<String>> {
    let listed = std::process::Command::new("git")
        .args(["ls-files", "--", "solutions/*.rs"])
        .current_dir(source())
        .output()
        .ok()
        .filter(|o| o.status.success() && !o.stdout.is_empty())?;
    let text = String::from_utf8_lossy(&listed.stdout).into_owned();
    let names = text.lines().filter_map(|l| l.strip_prefix("solutions/")?.strip_suffix(".rs"));
    Some(names.filter(|n| !n.contains('/')).map(str::to_string).collect())
}

#[test]
fn every_strategy_the_workspace_ships_is_held() {
    let mut held = held();
    held.sort();
    let mut listed: Vec<String> = SHIPPED.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(held, listed, "the hold: line of {EQUIVALENTS} and the judge's list of strategies");
    match shipped() {
        Some(mut shipped) => {
            shipped.sort();
            assert_eq!(shipped, listed, "the strategies solutions/ holds in the repository and the judge's list");
        }
        None => skipped("not a git checkout: the strategies shipped could not be listed against the judge's list"),
    }
}

#[test]
fn one_operator_s_mutants_are_all_killed_or_listed() {
    let run = judge(&["mutants", "--solution", "dp_array", "--operator", "plus-minus", "--format", "json"]);
    assert_eq!(run.status, 0, "{}", run.describe());
    let report = run.json();
    let counts = &report.get("strategies").unwrap().items()[0];
    assert_eq!(text(counts, "name"), "dp_array", "{counts:?}");
    let count = |key: &str| counts.get(key).and_then(Json::as_i128).unwrap();
    assert!(count("killed") > 0 && count("killed") + count("equivalent") == count("compiled"), "{counts:?}");
    assert!(report.get("survivors").unwrap().items().is_empty());
    // Every killed mutant has its margin: how many stored testcases kill it, counted up to
    // margin_counted; those under it are listed with the testcases that kill them.
    let counted = report.get("margin_counted").and_then(Json::as_i128).unwrap();
    let margins = counts.get("margins").unwrap();
    let by = |m: i128| {
        let key = if m == counted { format!("{m}+") } else { m.to_string() };
        margins.get(&key).and_then(Json::as_i128).unwrap_or_else(|| panic!("no margin {key}: {margins:?}"))
    };
    assert_eq!((1..=counted).map(by).sum::<i128>(), count("killed"), "{margins:?}");
    let thin = report.get("thinnest").unwrap().items();
    assert_eq!(thin.len() as i128, (1..counted).map(by).sum::<i128>(), "{thin:?}");
    for mutant in thin {
        let killers = mutant.get("killed_by").unwrap().items();
        assert_eq!(mutant.get("margin").and_then(Json::as_i128), Some(killers.len() as i128), "{mutant:?}");
        assert!(!killers.is_empty() && (killers.len() as i128) < counted, "{mutant:?}");
    }
}

#[test]
fn an_attempts_equivalent_mutants_are_listed_beside_it_not_in_the_judge() {
    let copy = crate::common::Copy::new("mutants-beside", &["samples", "edge"]);
    copy.write("solutions/my_dp.rs", &copy.read("solutions/dp_array.rs"));
    let args = ["mutants", "--solution", "my_dp", "--operator", "comparison", "--format", "json"];
    let run = copy.judge(&args);
    assert_eq!(run.status, 1, "{}", run.describe());
    let report = run.json();
    let survivors = report.get("survivors").unwrap().items().to_vec();
    assert!(!survivors.is_empty(), "{}", run.describe());
    let beside = "solutions/my_dp.equivalent_mutants.txt";
    let mut lines = String::new();
    for survivor in &survivors {
        assert_eq!(text(survivor, "list_in"), beside, "{survivor:?}");
        lines.push_str(&format!("my_dp | {} | the same as dp_array's, which the judge lists\n", text(survivor, "key")));
    }
    let shown = copy.judge(&args[..5]);
    assert!(shown.stdout.contains(beside) && !shown.stdout.contains(EQUIVALENTS), "{}", shown.stdout);
    copy.write(beside, &lines);
    let again = copy.judge(&args);
    assert_eq!(again.status, 0, "{}", again.describe());
    let report = again.json();
    let counts = &report.get("strategies").unwrap().items()[0];
    assert_eq!(counts.get("equivalent").and_then(Json::as_i128), Some(survivors.len() as i128), "{counts:?}");
}

/// A user's attempt among the strategies that does not compile, cannot be read or fails the
/// stored cases is left out with a line that says so, and the campaign goes on.
#[test]
fn a_campaign_goes_on_without_an_attempt_that_is_not_ready() {
    let copy = Copy::new("mutants-broken", &["samples"]);
    copy.plant("my_broken", "let n: u8 = stone_value.len();\nn.to_string()");
    copy.plant("my_panics", "panic!(\"not written yet: {}\", stone_value.len())");
    std::fs::write(copy.root.join("solutions/my_latin1.rs"), b"// caf\xe9\nimpl Solution {}\n").unwrap();
    let run = copy.judge(&["mutants", "--operator", "plus-minus", "--width", "60"]);
    assert!(run.status == 0 || run.status == 1, "by the mutants' result: {}", run.describe());
    let joined = |text: &str| text.replace("\n  ", " ");
    assert!(
        joined(&run.stdout).contains("skipped my_panics: it does not pass the stored cases itself"),
        "{}",
        run.stdout
    );
    let said = joined(&run.stderr);
    assert!(said.contains("judge: skipped my_broken: it does not compile (CE): error[E0308]"), "{}", run.describe());
    assert!(said.contains("judge: skipped solutions/my_latin1.rs:1:7: byte 0xe9 is not UTF-8"), "{}", run.describe());
    let lines = run.stdout.lines().chain(run.stderr.lines());
    assert!(lines.clone().all(|l| l.chars().count() <= 60), "fits --width 60: {}", run.describe());
}
