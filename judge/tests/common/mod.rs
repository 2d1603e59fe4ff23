//! Helpers shared by the integration tests: a temporary copy of the workspace with planted
//! files, the built judge run inside it, and its JSON read with the judge's own reader.
//!
//! The tests judge the bundled solutions, never a user's own: every copy holds the strategies
//! of `SHIPPED` and the tagged files of `solutions/wrong/`, so whatever else sits in
//! `solutions/` (an attempt that is wrong, unfinished or does not compile) changes nothing
//! here. Tests that only read share one copy, made once per test run.

// The judge's own JSON reader, included whole; the tests do not write JSON with `opt`.
#[path = "../../render/json.rs"]
#[allow(dead_code)]
pub mod json;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

pub use json::Json;

pub const JUDGE: &str = env!("CARGO_BIN_EXE_judge");

// The judge's own list of the strategies the workspace ships.
#[path = "../../judging/shipped.rs"]
mod shipped;
pub use shipped::SHIPPED;

/// The workspace the copies are made from: this checkout, or `JUDGE_TEST_WORKSPACE` (the
/// test that plants a user's attempts runs the others against one).
pub fn source() -> PathBuf {
    match std::env::var_os("JUDGE_TEST_WORKSPACE") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => PathBuf::from(env!("CARGO_MANIFEST_DIR")),
    }
}

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

/// Items for a planted solution: `spin_cpu_micros(n)` spins until its thread has had `n` µs
/// of CPU time, however busy the machine; a spin by the wall clock gets only a share of that
/// on a loaded one.
pub const SPIN_CPU: &str = "extern \"C\" { fn clock_gettime(clock: i32, time: *mut [i64; 2]) -> i32; }
fn thread_cpu_micros() -> i64 { let mut t = [0i64; 2]; unsafe { clock_gettime(3, &mut t); } t[0] * 1_000_000 + t[1] / 1_000 }
fn spin_cpu_micros(n: i64) { let start = thread_cpu_micros(); while thread_cpu_micros() - start < n { std::hint::spin_loop(); } }";

/// The build cache the tests share: keyed by content, so copies reuse what the workspace built.
pub fn cache() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("target").join("judge")
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

/// Whether a file of `solutions/` ships with the workspace.
fn bundled(relative: &Path, path: &Path) -> bool {
    let name = relative.file_stem().unwrap_or_default().to_string_lossy();
    match relative.parent().and_then(|p| p.to_str()) {
        Some("") => SHIPPED.contains(&name.as_ref()),
        Some("wrong") => fs::read_to_string(path).is_ok_and(|text| text.starts_with("// expect: ")),
        _ => false,
    }
}

impl Copy {
    /// Cargo.toml, the bundled solutions and the named suites of testcases/ (all for `&[]`).
    pub fn new(label: &str, suites: &[&str]) -> Copy {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let root = std::env::temp_dir().join(format!("judge-it-{}-{label}-{n}", std::process::id()));
        Copy::at(root, suites)
    }

    fn at(root: PathBuf, suites: &[&str]) -> Copy {
        let source = source();
        let _ = fs::remove_dir_all(&root);
        fs::create_dir_all(root.join("testcases")).unwrap();
        fs::create_dir_all(root.join("solutions/wrong")).unwrap();
        fs::copy(source.join("Cargo.toml"), root.join("Cargo.toml")).unwrap();
        for relative in ["", "wrong"] {
            for entry in fs::read_dir(source.join("solutions").join(relative)).unwrap().flatten() {
                let path = entry.path();
                let name = Path::new(relative).join(entry.file_name());
                if path.extension().is_some_and(|e| e == "rs") && bundled(&name, &path) {
                    fs::copy(&path, root.join("solutions").join(&name)).unwrap();
                }
            }
        }
        for entry in fs::read_dir(source.join("testcases")).unwrap() {
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

/// The copy that tests which only read share: every suite, the bundled solutions. Made once
/// per test run; a copy left by an earlier run is replaced.
pub fn shared() -> &'static Path {
    static SHARED: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    SHARED.get_or_init(|| {
        // Copies of earlier runs whose process is gone.
        for entry in fs::read_dir(std::env::temp_dir()).into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let pid = name.strip_prefix("judge-it-shared-").and_then(|p| p.parse::<u32>().ok());
            if pid.is_some_and(|pid| !Path::new(&format!("/proc/{pid}")).exists()) {
                let _ = fs::remove_dir_all(entry.path());
            }
        }
        let root = std::env::temp_dir().join(format!("judge-it-shared-{}", std::process::id()));
        let copy = Copy::at(root, &[]);
        let root = copy.root.clone();
        std::mem::forget(copy);
        root
    })
}

/// The judge in the shared copy.
pub fn judge(args: &[&str]) -> Run {
    judge_in(shared(), args, None)
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
/// Plants `solutions/wrong/NAME.rs` in `copy`, tagged with the verdict it must get
/// (`solutions/NAME.rs` for AC): `items` above the impl, `body` before a correct answer.
pub fn plant_tagged(copy: &Copy, name: &str, expect: &str, items: &str, body: &str) {
    let method = format!(
        "{items}\nimpl Solution {{\n    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {{\n{body}\n{CORRECT}\n    }}\n}}\n"
    );
    match expect {
        "AC" => copy.write(&format!("solutions/{name}.rs"), &method),
        tag => copy.write(&format!("solutions/wrong/{name}.rs"), &format!("// expect: {tag}\n{method}")),
    };
}

/// Says, past the test harness's capture of `eprintln!`, that a test could not run its
/// subject here and why: a skip is never a quiet pass.
pub fn skipped(what: &str) {
    let line = format!("\nSKIPPED on this machine: {what}\n");
    let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
}

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

/// The words after `cargo judge` of the first command printed after `marker` in a
/// text report, its continuation lines (` \` at the end) joined, single quotes read as a POSIX
/// shell reads them.
pub fn printed_command(text: &str, marker: &str) -> Vec<String> {
    let after = &text[text.find(marker).unwrap_or_else(|| panic!("no {marker:?} in:\n{text}"))..];
    let start = after.find("cargo judge ").unwrap_or_else(|| panic!("no command after {marker:?}:\n{text}"));
    let mut line = String::new();
    for part in after[start..].lines() {
        match part.strip_suffix(" \\") {
            Some(continued) => line.push_str(continued),
            None => {
                line.push_str(part);
                break;
            }
        }
        line.push(' ');
    }
    let mut words = Vec::new();
    let (mut word, mut quoted, mut any) = (String::new(), false, false);
    for c in line.trim().chars() {
        match c {
            '\'' => (quoted, any) = (!quoted, true),
            ' ' if !quoted => {
                if any || !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                any = false;
            }
            c => word.push(c),
        }
    }
    if any || !word.is_empty() {
        words.push(word);
    }
    assert_eq!(&words[..2], ["cargo", "judge"], "{line}");
    words.split_off(2)
}

/// Busy loops, one a process, killed by pid when dropped.
pub struct BusyLoops(Vec<std::process::Child>);

impl BusyLoops {
    pub fn start(count: usize) -> BusyLoops {
        let spawn = || Command::new("sh").args(["-c", "while :; do :; done"]).spawn().unwrap();
        BusyLoops((0..count).map(|_| spawn()).collect())
    }
}

impl Drop for BusyLoops {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
