//! Lists `solutions/*.rs` and `solutions/wrong/*.rs` and writes the registry that compiles
//! each one inside its own module, so adding a strategy is adding one file.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    let root = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let mut code = String::new();
    let mut entries = String::new();
    for (folder, prefix) in [("solutions", ""), ("solutions/wrong", "wrong/")] {
        let dir = root.join(folder);
        println!("cargo:rerun-if-changed={}", dir.display());
        for path in rust_files(&dir) {
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            let valid = stem.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
                && stem.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
            assert!(valid, "{}: a solution file name must be a snake_case identifier", path.display());
            let module = format!("{}{}", prefix.replace('/', "_"), stem);
            println!("cargo:rerun-if-changed={}", path.display());
            let shown = format!("{folder}/{stem}.rs");
            // Wrong submissions are written to be realistic, not lint-clean.
            let allow = if prefix.is_empty() { "" } else { "#[allow(clippy::all, unused)] " };
            writeln!(
                code,
                "{allow}mod {module} {{ pub struct Solution; include!({path:?}); }}",
                path = path.display().to_string()
            )
            .unwrap();
            writeln!(
                entries,
                "    Entry {{ name: \"{prefix}{stem}\", file: {shown:?}, run: {module}::Solution::stone_game_iii, source: include_str!({path:?}) }},",
                path = path.display().to_string()
            )
            .unwrap();
        }
    }
    code.push_str("\n/// Every solution file, in file-name order: the strategies, then the wrong ones.\n");
    code.push_str("pub const ENTRIES: &[Entry] = &[\n");
    code.push_str(&entries);
    code.push_str("];\n");
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("registry.rs");
    fs::write(out, code).expect("write registry.rs");
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(read) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = read
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "rs"))
        .collect();
    files.sort();
    files
}
