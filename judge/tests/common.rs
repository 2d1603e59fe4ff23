//! Helpers shared by the integration tests: the built judge and scratch case folders.

#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

pub const JUDGE: &str = env!("CARGO_BIN_EXE_judge");
pub const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A scratch folder of suites, removed when dropped.
pub struct Scratch {
    pub dir: PathBuf,
}

impl Scratch {
    pub fn new(label: &str) -> Scratch {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("judge-test-{}-{label}-{n}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        Scratch { dir }
    }

    /// A copy of one of the stored suites.
    pub fn copy_suite(&self, suite: &str) -> &Scratch {
        let from = Path::new(ROOT).join("testcases").join(suite);
        let to = self.dir.join(suite);
        fs::create_dir_all(&to).unwrap();
        for entry in fs::read_dir(from).unwrap() {
            let path = entry.unwrap().path();
            fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
        }
        self
    }

    pub fn write(&self, relative: &str, text: &str) -> &Scratch {
        let path = self.dir.join(relative);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
        self
    }

    /// Runs the judge on this folder with extra arguments.
    pub fn judge(&self, args: &[&str]) -> Run {
        let mut all = vec!["--cases", self.dir.to_str().unwrap(), "--color", "never"];
        all.extend_from_slice(args);
        judge(&all)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
    }
}

pub struct Run {
    pub status: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// The summary row of one solution in the text report.
    pub fn row(&self, solution: &str) -> &str {
        self.stdout
            .lines()
            .find(|l| {
                let words: Vec<&str> = l.split_whitespace().collect();
                words.len() > 3 && words[1] == solution && ["AC", "WA", "RE", "TLE"].contains(&words[2])
            })
            .unwrap_or_else(|| panic!("no summary row for {solution} in:\n{}", self.stdout))
    }

    pub fn describe(&self) -> String {
        format!("exit {}\n--- stdout\n{}\n--- stderr\n{}", self.status, self.stdout, self.stderr)
    }
}

pub fn judge(args: &[&str]) -> Run {
    let output: Output = Command::new(JUDGE).args(args).env_remove("NO_COLOR").output().unwrap();
    Run {
        status: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// `[v,v,…]` of `n` copies of `value`.
pub fn repeated(value: i32, n: usize) -> String {
    format!("[{}]\n", vec![value.to_string(); n].join(","))
}
