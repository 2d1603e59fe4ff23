//! The attempt in an editor: the real rust-analyzer, driven as an editor drives it (LSP,
//! JSON-RPC over its stdin and stdout), on a copy of the workspace, with the settings the
//! README's "Your editor" gives and `.vscode/settings.json` holds. A new attempt gets
//! completion, hover, go to definition and type errors; a saved one gets the judge's
//! findings where they are. Where rust-analyzer (or the standard library's sources it reads)
//! is not installed, the test says so on the terminal and checks nothing.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use crate::common::{cache, source, Copy, Json, JUDGE};

/// Long enough for a loaded two-core machine; only a hung server ever waits this long.
const PATIENCE: Duration = Duration::from_secs(240);

/// What `cargo run --release` turns into here: the judge this test run built, so that the
/// README's command needs no second build of the judge.
const CARGO_RUN: [&str; 6] = ["cargo", "run", "--release", "--quiet", "--message-format=json", "--"];

/// The attempt as typed in the editor, unsaved: a type error on its third line, a place to
/// complete after `stone_value.`, and a helper called through `Self::`.
const TYPED: &str = "impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let n: u8 = stone_value.len();
        let lead = Self::helper(&stone_value);
        let _ = stone_value.len();
        todo!()
    }

    fn helper(piles: &[i32]) -> i32 {
        piles.iter().sum()
    }
}
";

/// Two compile errors: one on the first line, which LeetCode's wrapping shares as the judge
/// compiles a file, and one further down.
const BROKEN: &str = "struct Solution;
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let n: u8 = stone_value.len();
        String::new()
    }
}
";

const ALWAYS_ALICE: &str = "impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let _ = stone_value;
        \"Alice\".to_string()
    }
}
";

/// Says, past cargo's capture of a test's output, that the test checked nothing.
fn skip(why: &str) {
    let line = format!("\n*** SKIPPED: the editor test did not run: {why} ***\n");
    let _ = std::io::stderr().write_all(line.as_bytes());
}

/// Whether rust-analyzer, and the standard library's sources it completes `Vec`'s methods
/// from, are here.
fn installed() -> bool {
    let ran = Command::new("rust-analyzer").arg("--version").output();
    if !ran.is_ok_and(|o| o.status.success()) {
        skip("rust-analyzer is not installed (rustup component add rust-analyzer rust-src)");
        return false;
    }
    let sysroot = Command::new("rustc").args(["--print", "sysroot"]).output().unwrap();
    let sysroot = String::from_utf8_lossy(&sysroot.stdout).trim().to_string();
    if !Path::new(&sysroot).join("lib/rustlib/src/rust/library").is_dir() {
        skip("the standard library's sources are not installed (rustup component add rust-src)");
        return false;
    }
    true
}

/// rust-analyzer's settings from the checked-in `.vscode/settings.json`, which the README
/// shows word for word: `rust-analyzer.check.overrideCommand` as `{"check": {"overrideCommand": …}}`.
/// The override's `cargo run` becomes the judge built for this test run.
fn settings() -> Json {
    settings_but(&[])
}

/// The same settings, without those named (`check.invocationStrategy`).
fn settings_but(left_out: &[&str]) -> Json {
    let text = std::fs::read_to_string(source().join(".vscode/settings.json")).unwrap();
    let readme = std::fs::read_to_string(source().join("README.md")).unwrap();
    assert!(readme.contains(&text), "the README's \"Your editor\" shows .vscode/settings.json as it is:\n{text}");
    let helix = std::fs::read_to_string(source().join(".helix/languages.toml")).unwrap();
    assert!(readme.contains(&helix), "the README's \"Your editor\" shows .helix/languages.toml as it is:\n{helix}");
    let Json::Object(fields) = Json::parse(&text).unwrap() else { panic!("not an object: {text}") };
    let mut nested: Vec<(String, Json)> = Vec::new();
    for (key, value) in fields {
        let path: Vec<&str> = key.strip_prefix("rust-analyzer.").unwrap().split('.').collect();
        if left_out.contains(&path.join(".").as_str()) {
            continue;
        }
        let value = match path.as_slice() {
            ["check", "overrideCommand"] => {
                let words: Vec<&str> = value.items().iter().filter_map(Json::as_str).collect();
                assert_eq!(words[..CARGO_RUN.len()], CARGO_RUN, "{words:?}");
                let judge = std::iter::once(JUDGE).chain(words[CARGO_RUN.len()..].iter().copied());
                Json::Array(judge.map(Json::str).collect())
            }
            _ => value,
        };
        insert(&mut nested, &path, value);
    }
    Json::Object(nested)
}

fn insert(object: &mut Vec<(String, Json)>, path: &[&str], value: Json) {
    let Some((first, rest)) = path.split_first() else { return };
    if rest.is_empty() {
        object.push((first.to_string(), value));
        return;
    }
    if !object.iter().any(|(k, _)| k == first) {
        object.push((first.to_string(), Json::Object(Vec::new())));
    }
    if let Some((_, Json::Object(inner))) = object.iter_mut().find(|(k, _)| k == first) {
        insert(inner, rest, value);
    }
}

/// `relative` and everything under it, from `from` to `to`.
fn copy_sources(from: &Path, to: &Path, relative: &Path) {
    let source = from.join(relative);
    if source.is_dir() {
        std::fs::create_dir_all(to.join(relative)).unwrap();
        for entry in std::fs::read_dir(&source).unwrap() {
            copy_sources(from, to, &relative.join(entry.unwrap().file_name()));
        }
    } else {
        std::fs::copy(&source, to.join(relative)).unwrap();
    }
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// A rust-analyzer process and what it has said.
struct Server {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Json>,
    next: i128,
    settings: Json,
    /// The last diagnostics published for each file.
    diagnostics: HashMap<String, Vec<Json>>,
    /// Whether the server last said it has nothing left to do.
    quiescent: bool,
    /// What it said of its work in progress, in order: shown when something fails.
    progress: Vec<String>,
    /// Where its log goes, shown when something fails.
    log: PathBuf,
}

impl Server {
    fn start(root: &Path, settings: Json) -> Server {
        let log = root.join("rust-analyzer.log");
        let mut child = Command::new("rust-analyzer")
            .current_dir(root)
            .env("JUDGE_CACHE", cache())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (send, messages) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read_message(&mut reader) {
                if send.send(message).is_err() {
                    return;
                }
            }
        });
        let mut server = Server {
            child,
            stdin,
            messages,
            next: 0,
            settings,
            diagnostics: HashMap::new(),
            quiescent: false,
            progress: Vec::new(),
            log,
        };
        let folder = Json::object([("uri", Json::str(uri(root))), ("name", Json::str("workspace"))]);
        let capabilities = Json::object([
            ("experimental", Json::object([("serverStatusNotification", Json::Bool(true))])),
            ("workspace", Json::object([("configuration", Json::Bool(true))])),
            ("window", Json::object([("workDoneProgress", Json::Bool(true))])),
            (
                "textDocument",
                Json::object([
                    ("hover", Json::object([("contentFormat", Json::Array(vec![Json::str("plaintext")]))])),
                    ("publishDiagnostics", Json::object([])),
                ]),
            ),
        ]);
        let init = server.settings.clone();
        server.request(
            "initialize",
            Json::object([
                ("processId", Json::int(std::process::id())),
                ("rootUri", Json::str(uri(root))),
                ("workspaceFolders", Json::Array(vec![folder])),
                ("capabilities", capabilities),
                ("initializationOptions", init),
            ]),
        );
        server.notify("initialized", Json::object([]));
        server
    }

    fn send(&mut self, message: Json) {
        let body = message.line();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Json) {
        self.send(Json::object([("jsonrpc", Json::str("2.0")), ("method", Json::str(method)), ("params", params)]));
    }

    /// Sends a request and waits for its answer, handling whatever comes before it.
    fn request(&mut self, method: &str, params: Json) -> Json {
        self.next += 1;
        let id = self.next;
        self.send(Json::object([
            ("jsonrpc", Json::str("2.0")),
            ("id", Json::Int(id)),
            ("method", Json::str(method)),
            ("params", params),
        ]));
        let deadline = Instant::now() + PATIENCE;
        loop {
            let message = self.receive(deadline, method);
            if message.get("method").is_none() && message.get("id").and_then(Json::as_i128) == Some(id) {
                return message.get("result").cloned().unwrap_or(Json::Null);
            }
            self.handle(&message);
        }
    }

    fn receive(&mut self, deadline: Instant, waiting_for: &str) -> Json {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.messages.recv_timeout(left) {
            Ok(message) => message,
            Err(_) => panic!("rust-analyzer gave no {waiting_for} in {PATIENCE:?}\n{}", self.describe()),
        }
    }

    /// Keeps what the server says, and answers what it asks: its settings, and nothing to
    /// every other request.
    fn handle(&mut self, message: &Json) {
        let method = message.get("method").and_then(Json::as_str).unwrap_or("");
        let params = message.get("params").cloned().unwrap_or(Json::Null);
        match method {
            "textDocument/publishDiagnostics" => {
                let file = params.get("uri").and_then(Json::as_str).unwrap_or("").to_string();
                let list = params.get("diagnostics").map(|d| d.items().to_vec()).unwrap_or_default();
                self.diagnostics.insert(file, list);
            }
            "experimental/serverStatus" => {
                self.quiescent = params.get("quiescent") == Some(&Json::Bool(true));
            }
            "$/progress" => {
                let value = params.get("value").cloned().unwrap_or(Json::Null);
                let words = [text(&value, "kind"), text(&value, "title"), text(&value, "message")];
                self.progress.push(format!("{:?} {}", params.get("token"), words.join(" ").trim()));
            }
            _ => {}
        }
        if let Some(id) = message.get("id").filter(|_| !method.is_empty()).cloned() {
            let result = match method {
                "workspace/configuration" => {
                    Json::Array(params.get("items").unwrap().items().iter().map(|_| self.settings.clone()).collect())
                }
                _ => Json::Null,
            };
            self.send(Json::object([("jsonrpc", Json::str("2.0")), ("id", id), ("result", result)]));
        }
    }

    /// Handles messages until `done` holds.
    fn until(&mut self, what: &str, done: impl Fn(&Server) -> bool) {
        let deadline = Instant::now() + PATIENCE;
        while !done(self) {
            let message = self.receive(deadline, what);
            self.handle(&message);
        }
    }

    /// Saves `path` and handles messages until the check it runs makes `done` hold. A
    /// workspace reload while the check runs drops what it found; where nothing came within a
    /// minute, the file is saved once more, as its user would, and that is said.
    fn saved_until(&mut self, path: &Path, what: &str, done: impl Fn(&Server) -> bool) {
        self.save(path);
        let deadline = Instant::now() + Duration::from_secs(60);
        while !done(self) {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.messages.recv_timeout(left) {
                Ok(message) => self.handle(&message),
                Err(_) => {
                    eprintln!(
                        "LOUD: rust-analyzer showed no {what} a minute after the save; saved again\n{}",
                        self.describe()
                    );
                    self.save(path);
                    return self.until(what, done);
                }
            }
        }
    }

    fn open(&mut self, path: &Path, text: &str) {
        let document = Json::object([
            ("uri", Json::str(uri(path))),
            ("languageId", Json::str("rust")),
            ("version", Json::int(1)),
            ("text", Json::str(text)),
        ]);
        self.notify("textDocument/didOpen", Json::object([("textDocument", document)]));
    }

    fn save(&mut self, path: &Path) {
        let document = Json::object([("uri", Json::str(uri(path)))]);
        self.notify("textDocument/didSave", Json::object([("textDocument", document)]));
    }

    fn at(&mut self, method: &str, path: &Path, line: usize, character: usize) -> Json {
        let position = Json::object([("line", Json::int(line as u64)), ("character", Json::int(character as u64))]);
        let document = Json::object([("uri", Json::str(uri(path)))]);
        self.request(method, Json::object([("textDocument", document), ("position", position)]))
    }

    fn of(&self, path: &Path) -> &[Json] {
        self.diagnostics.get(&uri(path)).map_or(&[], Vec::as_slice)
    }

    fn describe(&self) -> String {
        let log = std::fs::read_to_string(&self.log).unwrap_or_default();
        let tail: Vec<&str> = log.lines().rev().take(30).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        format!(
            "diagnostics so far: {:?}\n--- its work in progress\n{}\n--- the end of rust-analyzer's log\n{}",
            self.diagnostics,
            self.progress.join("\n"),
            tail.join("\n")
        )
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn read_message(reader: &mut impl BufRead) -> Option<Json> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length: ") {
            length = n.parse().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    Json::parse(&String::from_utf8_lossy(&body)).ok()
}

fn text<'a>(value: &'a Json, key: &str) -> &'a str {
    value.get(key).and_then(Json::as_str).unwrap_or("")
}

/// (line, character) where a diagnostic starts, 0-based as LSP counts.
fn start(diagnostic: &Json) -> (i128, i128) {
    let start = diagnostic.get("range").and_then(|r| r.get("start")).unwrap();
    (start.get("line").and_then(Json::as_i128).unwrap(), start.get("character").and_then(Json::as_i128).unwrap())
}

fn code(diagnostic: &Json) -> &str {
    text(diagnostic, "code")
}

/// Whether a diagnostic came from the check the settings run: the judge's, which
/// rust-analyzer labels as rustc's, as it does cargo's.
fn from_the_judge(diagnostic: &Json) -> bool {
    text(diagnostic, "source") == "rustc"
}

/// Where `needle` is in `text`, 0-based: (line, character).
fn find(text: &str, needle: &str) -> (usize, usize) {
    text.lines().enumerate().find_map(|(l, line)| Some((l, line.find(needle)?))).unwrap()
}

/// A copy of the workspace with an attempt `judge new` made. The judge's own sources too, so
/// that rust-analyzer loads the cargo project beside the judge's as an editor on the workspace
/// does: with a project it cannot load, it reloads both whenever a file appears, and a reload
/// drops the diagnostics of a check.
fn copy_with_new(name: &str, attempt: &str) -> Copy {
    let copy = Copy::new(name, &["samples"]);
    copy_sources(&source(), &copy.root, Path::new("judge"));
    std::fs::copy(source().join("Cargo.lock"), copy.root.join("Cargo.lock")).unwrap();
    let made = copy.judge(&["new", attempt]);
    assert_eq!(made.status, 0, "{}", made.describe());
    copy
}

#[test]
#[ignore = "slow: rust-analyzer over LSP"]
fn rust_analyzer_serves_a_new_attempt_and_shows_the_judges_findings_where_they_are() {
    if !installed() {
        return;
    }
    let copy = copy_with_new("editor", "my_try");
    let stub = copy.read("solutions/my_try.rs");
    assert!(stub.contains("pub fn stone_game_iii(stone_value: Vec<i32>) -> String {"), "{stub}");
    let again = copy.judge(&["new", "my_try"]);
    assert_eq!((again.status, copy.read("solutions/my_try.rs")), (2, stub), "{}", again.describe());

    let mut server = Server::start(&copy.root, settings());
    server.until("end of loading", |s| s.quiescent);
    let attempt = copy.root.join("solutions/my_try.rs");
    server.open(&attempt, TYPED);
    server.until("type error in the attempt", |s| s.of(&attempt).iter().any(|d| code(d) == "E0308"));
    let shown = server.of(&attempt).to_vec();
    assert!(!shown.iter().any(|d| code(d) == "unlinked-file"), "{shown:?}");
    let mismatch = shown.iter().find(|d| code(d) == "E0308").unwrap();
    assert_eq!(start(mismatch).0, find(TYPED, "let n: u8").0 as i128, "{mismatch:?}");

    let (line, dot) = find(TYPED, "stone_value.len();");
    let completion = server.at("textDocument/completion", &attempt, line, dot + "stone_value.".len());
    let items = completion.get("items").map_or(completion.items(), Json::items);
    assert!(items.len() > 50, "{} completions after `stone_value.`: {completion:?}", items.len());
    let (line, column) = find(TYPED, "stone_value.len()");
    let hover = server.at("textDocument/hover", &attempt, line, column + 2);
    let words = hover.get("contents").map(|c| text(c, "value").to_string()).unwrap_or_default();
    assert!(words.contains("Vec<i32>"), "hover on stone_value: {hover:?}");
    let (line, column) = find(TYPED, "Self::helper");
    let definition = server.at("textDocument/definition", &attempt, line, column + "Self::".len() + 1);
    let target = definition.items().first().unwrap_or_else(|| panic!("Self::helper resolves nowhere: {definition:?}"));
    assert_eq!(text(target, "uri"), uri(&attempt));
    assert_eq!(start(target).0, find(TYPED, "fn helper").0 as i128, "{definition:?}");

    // Written to disk by hand, as an editor's "new file" does, and saved once: the judge's
    // check links it to the project and shows rustc's errors at the file's own lines.
    let broken = copy.root.join("solutions/broken_try.rs");
    copy.write("solutions/broken_try.rs", BROKEN);
    server.open(&broken, BROKEN);
    server.saved_until(&broken, "the judge's compile errors", |s| {
        s.of(&broken).iter().filter(|d| from_the_judge(d)).count() >= 2
    });
    let judged: Vec<Json> = server.of(&broken).iter().filter(|d| from_the_judge(d)).cloned().collect();
    let redefined = judged.iter().find(|d| code(d) == "E0428").unwrap_or_else(|| panic!("{judged:?}"));
    assert_eq!(start(redefined), (0, 0), "{redefined:?}");
    let (line, column) = find(BROKEN, "stone_value.len()");
    let mismatch = judged.iter().find(|d| code(d) == "E0308").unwrap_or_else(|| panic!("{judged:?}"));
    assert_eq!(start(mismatch), (line as i128, column as i128), "{mismatch:?}");
    server.until("the saved file in the project", |s| !s.of(&broken).iter().any(|d| code(d) == "unlinked-file"));

    let wrong = copy.root.join("solutions/alice_try.rs");
    copy.write("solutions/alice_try.rs", ALWAYS_ALICE);
    server.open(&wrong, ALWAYS_ALICE);
    server.saved_until(&wrong, "the judge's verdict", |s| s.of(&wrong).iter().any(from_the_judge));
    let verdict = server.of(&wrong).iter().find(|d| from_the_judge(d)).cloned().unwrap();
    let (line, column) = find(ALWAYS_ALICE, "stone_game_iii");
    assert_eq!((code(&verdict), start(&verdict)), ("WA", (line as i128, column as i128)), "{verdict:?}");
    let message = text(&verdict, "message");
    let case = message.strip_prefix("WA on ").and_then(|m| m.split(':').next()).unwrap();
    let stored = copy.read(&format!("testcases/{case}.out"));
    assert!(message.contains(&format!("expected {}, got \"Alice\"", stored.trim())), "{message}");
    let rerun = format!("rerun: cargo judge --solution alice_try --case {case}");
    assert!(message.contains(&rerun), "{message}");
}

/// rust-analyzer's own default for how it runs the check is one run per workspace, in that
/// workspace's folder: for the editor's project, `target/editor`. The judge's findings name
/// their files so that they land there too.
#[test]
#[ignore = "slow: rust-analyzer over LSP"]
fn the_verdict_lands_without_the_setting_that_runs_the_check_once() {
    if !installed() {
        return;
    }
    let copy = copy_with_new("editor-default", "alice_try");
    let settings = settings_but(&["check.invocationStrategy"]);
    assert!(!settings.line().contains("invocationStrategy"), "{}", settings.line());
    let mut server = Server::start(&copy.root, settings);
    server.until("end of loading", |s| s.quiescent);
    let wrong = copy.root.join("solutions/alice_try.rs");
    copy.write("solutions/alice_try.rs", ALWAYS_ALICE);
    server.open(&wrong, ALWAYS_ALICE);
    server.saved_until(&wrong, "the judge's verdict", |s| s.of(&wrong).iter().any(from_the_judge));
    let verdict = server.of(&wrong).iter().find(|d| from_the_judge(d)).cloned().unwrap();
    let (line, column) = find(ALWAYS_ALICE, "stone_game_iii");
    assert_eq!((code(&verdict), start(&verdict)), ("WA", (line as i128, column as i128)), "{verdict:?}");
}
