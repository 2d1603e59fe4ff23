//! The paste check: every solution file compiles exactly as LeetCode compiles it, a crate of
//! `pub struct Solution;` followed by the file and nothing else.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn solution_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for folder in ["solutions", "solutions/wrong"] {
        for entry in fs::read_dir(Path::new(ROOT).join(folder)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Why a file is not pasteable as it is, or None.
fn paste_problem(path: &Path, scratch: &Path) -> Option<String> {
    let text = fs::read_to_string(path).unwrap();
    let code: Vec<&str> = text.lines().filter(|l| !l.trim_start().starts_with("//")).collect();
    if code.iter().any(|l| l.contains("struct Solution")) {
        return Some("declares `struct Solution`; LeetCode declares it".to_string());
    }
    if code.iter().any(|l| l.contains("crate::") || l.contains("super::")) {
        return Some("uses a `crate::` or `super::` path, which LeetCode's crate does not have".to_string());
    }
    if !text.contains("pub fn stone_game_iii(stone_value: Vec<i32>) -> String") {
        return Some("lacks LeetCode's signature `pub fn stone_game_iii(stone_value: Vec<i32>) -> String`".to_string());
    }
    let stem = path.file_stem().unwrap().to_string_lossy();
    let source = scratch.join(format!("{stem}.rs"));
    fs::write(&source, format!("pub struct Solution;\n{text}")).unwrap();
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let output = Command::new(rustc)
        .args(["--edition", "2021", "--crate-type", "lib", "--emit", "metadata", "--crate-name", "paste"])
        .arg("-o")
        .arg(scratch.join(format!("{stem}.rmeta")))
        .arg(&source)
        .output()
        .expect("run rustc");
    (!output.status.success()).then(|| format!("does not compile:\n{}", String::from_utf8_lossy(&output.stderr)))
}

#[test]
fn every_solution_file_compiles_as_leetcode_compiles_it() {
    let scratch = std::env::temp_dir().join(format!("judge-paste-{}", std::process::id()));
    fs::create_dir_all(&scratch).unwrap();
    let files = solution_files();
    assert!(files.len() >= 4, "found only {files:?}");
    let problems: Vec<String> = files
        .iter()
        .filter_map(|f| paste_problem(f, &scratch).map(|p| format!("{}: {p}", f.strip_prefix(ROOT).unwrap().display())))
        .collect();
    let _ = fs::remove_dir_all(&scratch);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_check_catches_what_leetcode_would_reject() {
    let scratch = std::env::temp_dir().join(format!("judge-paste-bad-{}", std::process::id()));
    fs::create_dir_all(&scratch).unwrap();
    let good = fs::read_to_string(Path::new(ROOT).join("solutions/four_scalars.rs")).unwrap();
    let cases = [
        ("declares", format!("struct Solution;\n{good}"), "declares `struct Solution`"),
        ("crate_path", good.replace("impl Solution {", "use crate::x;\nimpl Solution {"), "`crate::`"),
        ("broken", good.replace("match", "matc"), "does not compile"),
        ("renamed", good.replace("stone_game_iii", "stoneGameIII"), "lacks LeetCode's signature"),
    ];
    for (name, text, wanted) in cases {
        let path = scratch.join(format!("{name}.rs"));
        fs::write(&path, text).unwrap();
        let problem = paste_problem(&path, &scratch).unwrap_or_default();
        assert!(problem.contains(wanted), "{name}: {problem:?}");
    }
    let _ = fs::remove_dir_all(&scratch);
}
