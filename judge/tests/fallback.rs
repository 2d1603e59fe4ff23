//! `vector_min_max_pairs` takes its pairs in SSE registers where the CPU has SSE4.1, and in
//! integers elsewhere. On an x86-64 CPU with SSE4.1 the stored suite, stress, verify and the
//! mutants reach its integer step only for the piles before its first group; here the same
//! checks judge the file as every target but x86-64 compiles it, its `target_arch = "x86_64"`
//! items left out, which is also what runs on an x86-64 CPU without SSE4.1: the integer step
//! on every pile.

use crate::common::{source, text, Copy, Json};

const STRATEGY: &str = "vector_min_max_pairs";
const INTEGER: &str = "vector_min_max_pairs_integer";
const X86: &str = "target_arch = \"x86_64\"";

/// The strategy's source, and the copy of the workspace that holds it beside its integer-only
/// form: each `cfg(target_arch = "x86_64")` becomes `cfg(any())`, which holds nowhere, and
/// nothing else changes (the lines stay where they were).
fn integer_only() -> (String, Copy) {
    let original = std::fs::read_to_string(source().join(format!("solutions/{STRATEGY}.rs"))).unwrap();
    let gated = original.matches(X86).count();
    assert!(
        gated >= 3,
        "{STRATEGY}.rs has {gated} `{X86}` gates, not the 3 or more (import, check, vector step) this test removes"
    );
    let copy = Copy::new("fallback", &[]);
    copy.write(&format!("solutions/{INTEGER}.rs"), &original.replace(X86, "any()"));
    (original, copy)
}

#[test]
#[ignore = "slow: the stored suite, stress and verify"]
fn the_integer_path_passes_the_stored_suite_stress_and_verify() {
    let (_, copy) = integer_only();
    let judged = copy.judge(&["--solution", INTEGER, "--format", "json"]);
    assert_eq!(judged.status, 0, "{}", judged.describe());
    let report = judged.json();
    let ours = report.get("solutions").unwrap().items().iter().find(|s| text(s, "name") == INTEGER).cloned();
    assert_eq!(ours.as_ref().map(|s| text(s, "verdict")), Some("AC"), "{}", judged.describe());
    for args in [
        &["stress", "--solution", INTEGER, "--seed", "3", "--count", "100000", "--format", "json"][..],
        &["stress", "--solution", INTEGER, "--seed", "4", "--count", "300", "--max-len", "50000", "--format", "json"],
        &["verify", "--solution", INTEGER, "--max-len", "7", "--format", "json"],
    ] {
        let run = copy.judge(args);
        assert_eq!(run.status, 0, "{args:?}\n{}", run.describe());
        assert_eq!(run.json().get("counterexample"), Some(&Json::Null), "{args:?}");
    }
}

/// The lines of the x86-64 items: each from its `cfg` line to the line where the braces it
/// opens close (the file's comments hold no braces).
fn x86_lines(source: &str) -> Vec<usize> {
    let (mut lines, mut item) = (Vec::new(), None);
    for (number, line) in source.lines().enumerate() {
        if item.is_none() && line.contains(X86) {
            item = Some((0, false));
        }
        if let Some((depth, opened)) = item.as_mut() {
            lines.push(number + 1);
            *opened |= line.contains('{');
            *depth += line.matches('{').count() as i64 - line.matches('}').count() as i64;
            if *opened && *depth == 0 {
                item = None;
            }
        }
    }
    lines
}

#[test]
#[ignore = "slow: a mutation campaign"]
fn every_mutant_the_integer_path_runs_is_killed() {
    let (original, copy) = integer_only();
    let gated = x86_lines(&original);
    assert!(gated.len() > 10, "found only lines {gated:?} of x86-64 items in {STRATEGY}.rs");
    let listed = std::fs::read_to_string(source().join("judge/search/equivalent_mutants.txt")).unwrap();
    let listed: Vec<&str> = listed
        .lines()
        .filter_map(|l| l.strip_prefix(STRATEGY)?.strip_prefix(" | "))
        .map(|l| l.rsplit_once(" | ").map_or(l, |(key, _)| key))
        .collect();
    let run = copy.judge(&["mutants", "--solution", INTEGER, "--format", "json"]);
    let report = run.json();
    let counts = &report.get("strategies").unwrap().items()[0];
    assert!(counts.get("killed").and_then(Json::as_i128).unwrap() > 100, "{counts:?}");
    for survivor in report.get("survivors").unwrap().items() {
        let (line, key) = (survivor.get("line").and_then(Json::as_i128).unwrap() as usize, text(survivor, "key"));
        assert!(
            gated.contains(&line) || listed.contains(&key),
            "{INTEGER} line {line}: {key} survives, outside the x86-64 items and not listed as an equivalent of {STRATEGY}"
        );
    }
}
