//! Helpers shared by the integration tests: a temporary copy of the workspace with planted
//! files, the built judge run inside it, and its JSON read with the judge's own reader.

#![allow(dead_code)]

#[path = "../../render/json.rs"]
pub mod json;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

pub use json::Json;

pub const JUDGE: &str = env!("CARGO_BIN_EXE_judge");
pub const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A correct method body, for planted solutions that are right but for what they add.
pub const CORRECT: &str = "let n = stone_value.len();
        let mut f = vec![0i64; n + 1];
        for i in (0..n).rev() {
            let (mut sum, mut best) = (0i64, i64::MIN);
            for k in 1..=3.min(n - i) {
                sum += i64::from(stone_value[i + k - 1]);
                best = best.max(sum - f[i + k]);
            }
            f[i] = best;
        }
        match f[0] { l if l > 0 => \"Alice\", l if l < 0 => \"Bob\", _ => \"Tie\" }.to_string()";

/// The build cache the tests share: keyed by content, so copies reuse what the workspace built.
pub fn cache() -> PathBuf {
    Path::new(ROOT).join("target").join("judge")
}

/// A copy of the workspace in a temporary folder, removed when dropped.
pub struct Copy {
    pub root: PathBuf,
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            fs::copy(&path, &target).unwrap();
        }
    }
}

impl Copy {
    /// Cargo.toml, solutions/ and the named suites of testcases/ (all of them for `&[]`).
    pub fn new(label: &str, suites: &[&str]) -> Copy {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let root = std::env::temp_dir().join(format!("judge-it-{}-{label}-{n}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        fs::create_dir_all(root.join("testcases")).unwrap();
        fs::copy(Path::new(ROOT).join("Cargo.toml"), root.join("Cargo.toml")).unwrap();
        copy_dir(&Path::new(ROOT).join("solutions"), &root.join("solutions"));
        for entry in fs::read_dir(Path::new(ROOT).join("testcases")).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() && (suites.is_empty() || suites.contains(&name.as_str())) {
                copy_dir(&path, &root.join("testcases").join(&name));
            }
        }
        Copy { root }
    }

    pub fn write(&self, relative: &str, text: &str) -> &Copy {
        let path = self.root.join(relative);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
        self
    }

    /// Plants `solutions/NAME.rs` whose method body is `body` (with `stone_value` in scope).
    pub fn plant(&self, name: &str, body: &str) -> &Copy {
        let source = format!(
            "impl Solution {{\n    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {{\n{body}\n    }}\n}}\n"
        );
        self.write(&format!("solutions/{name}.rs"), &source)
    }

    pub fn read(&self, relative: &str) -> String {
        fs::read_to_string(self.root.join(relative)).unwrap()
    }

    pub fn judge(&self, args: &[&str]) -> Run {
        judge_in(&self.root, args, None)
    }

    pub fn command(&self, args: &[&str]) -> Command {
        command_in(&self.root, args)
    }
}

impl Drop for Copy {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.root);
    }
}

pub struct Run {
    pub status: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    pub fn json(&self) -> Json {
        Json::parse(&self.stdout).unwrap_or_else(|at| panic!("not JSON at byte {at}:\n{}", self.describe()))
    }

    pub fn describe(&self) -> String {
        format!("exit {}\n--- stdout\n{}\n--- stderr\n{}", self.status, self.stdout, self.stderr)
    }
}

pub fn command_in(dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(JUDGE);
    command.args(args).current_dir(dir).env("JUDGE_CACHE", cache()).env_remove("NO_COLOR");
    command
}

pub fn judge_in(dir: &Path, args: &[&str], stdin: Option<&str>) -> Run {
    let mut command = command_in(dir, args);
    let input = if stdin.is_some() { Stdio::piped() } else { Stdio::null() };
    command.stdin(input).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = command.spawn().unwrap();
    if let Some(text) = stdin {
        std::io::Write::write_all(&mut child.stdin.take().unwrap(), text.as_bytes()).unwrap();
    }
    let output: Output = child.wait_with_output().unwrap();
    Run {
        status: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// The judge in the workspace itself.
pub fn judge(args: &[&str]) -> Run {
    judge_in(Path::new(ROOT), args, None)
}

/// A solution's entry in a judge report.
pub fn solution<'a>(report: &'a Json, name: &str) -> &'a Json {
    report
        .get("solutions")
        .unwrap()
        .items()
        .iter()
        .find(|s| s.get("name").and_then(Json::as_str) == Some(name))
        .unwrap_or_else(|| panic!("no {name} in the report"))
}

pub fn text<'a>(value: &'a Json, key: &str) -> &'a str {
    value.get(key).and_then(Json::as_str).unwrap_or_else(|| panic!("no text field {key:?} in {value:?}"))
}

/// Live processes whose command line mentions `marker`.
pub fn processes_with(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in fs::read_dir("/proc").unwrap().flatten() {
        let Ok(cmdline) = fs::read(entry.path().join("cmdline")) else { continue };
        let line = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        let state = fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        if line.contains(marker) && !state.contains(") Z ") {
            found.push(line);
        }
    }
    found
}
