//! Compiling submissions the way LeetCode does: `pub struct Solution;`, then the file, then a
//! `main` that calls the method as LeetCode's own code does, `Solution::stone_game_iii(v)`
//! with a `Vec<i32>`, wanting a `String`: any parameter name, `mut`, layout or visibility that
//! LeetCode accepts compiles here. Built by the toolchain's own rustc (see `toolchain`) in
//! LeetCode's edition, optimised, overflow checks off. `pub struct Solution;` shares the file's
//! first line, so a compiler error or a panic points at the file's own line numbers. The
//! judge's driver is a library built once and linked into every binary.
//!
//! Builds are cached under the cache folder, named by a digest of the whole generated source,
//! the driver, the compiler's version and the flags: only what changed is rebuilt, and a file
//! that does not compile is not compiled again until it changes. Every entry is sealed with
//! a digest of its bytes (`files`): one changed since it was made is made again, not trusted.
//!
//! A batch build puts many units (mutants) in one binary, each in its own module, and drops
//! the ones the compiler rejects until the rest compile. A check (for `paste`, and beside a
//! judged build) compiles one unit without code generation through `clippy-driver`, which also
//! names every standard library item newer than LeetCode's Rust.

use std::fs;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use super::diagnose::{diagnose, newer, unowned, CompileError, Newer, SourceMap};
use super::digest::Hasher;
use super::files::{place_sealed, put_sealed, read_sealed, unique, write_atomically};
use super::sandbox::{self, Confinement, Spec};
use super::sys;
use super::toolchain::{self, Toolchain};
use crate::problem;

/// One submission's text and the path it is shown under (`solutions/x.rs`).
#[derive(Clone, Debug)]
pub struct Unit {
    pub source: String,
    pub shown: String,
}

/// A built binary and the means to map its source lines back to the units.
#[derive(Clone, Debug)]
pub struct Binary {
    pub path: PathBuf,
    pub map: SourceMap,
}

/// A built submission: a binary and which of its units to serve.
#[derive(Clone, Debug)]
pub struct Program {
    pub binary: Binary,
    pub unit: usize,
}

/// What a batch build made: each unit's error, if any, and one binary with the others.
pub struct Batch {
    pub errors: Vec<Option<CompileError>>,
    pub binary: Option<Binary>,
}

/// What checking one file as LeetCode compiles it found.
#[derive(Clone, Debug)]
pub struct Checked {
    pub error: Option<CompileError>,
    /// The standard library items it uses that are newer than LeetCode's Rust; None when the
    /// toolchain has no `clippy-driver` to tell.
    pub newer: Option<Vec<Newer>>,
}

struct Layout {
    source: String,
    map: SourceMap,
    key: String,
    /// The shown path a single unit's file is remapped to.
    remap: Option<String>,
    /// Where the generated source is written, on the host.
    path: PathBuf,
}

/// Why the compiler could not be used at all.
#[derive(Debug)]
pub enum CompilerMissing {
    NotFound { program: String, error: io::Error },
    Cache { path: PathBuf, error: io::Error },
}

/// What LeetCode compiles with, as far as the judge follows it.
#[derive(Clone, Debug)]
pub struct Settings {
    /// `2021`.
    pub edition: &'static str,
    /// `1.85`: items newer than this are named.
    pub rust_version: String,
    /// How long one rustc run may take, by the judge's clock; more is a compile error of its
    /// own ("compile time limit"), not remembered.
    pub time_limit: std::time::Duration,
}

pub struct Compiler {
    toolchain: Toolchain,
    cache: PathBuf,
    settings: Settings,
    /// Whether rustc runs in a sandbox: it then sees the toolchain, its one source file, the
    /// driver library and a folder to write in, and nothing of the workspace.
    sandboxed: bool,
    /// The driver library, built on first use by whichever thread needs it first.
    driver: OnceLock<Result<PathBuf, String>>,
}

/// The judge's own modules that go into every submission's binary.
const DRIVER: [(&str, &str); 3] =
    [("sys", include_str!("sys.rs")), ("wire", include_str!("wire.rs")), ("driver", include_str!("driver.rs"))];

/// LeetCode's build, besides the edition: optimised, overflow checks off; the driver library
/// gets the same code generation. Lints are not capped: a deny-by-default lint such as a
/// constant evaluation that runs too long stops the build, as it would on LeetCode.
const CODEGEN: [&str; 7] = [
    "-Copt-level=2",
    "-Coverflow-checks=off",
    "-Cdebug-assertions=off",
    "-Cpanic=unwind",
    "--color=never",
    "--error-format=human",
    "-Cdebuginfo=0",
];
const BINARY: [&str; 3] = ["--crate-type=bin", "--crate-name=submission", "-Cstrip=symbols"];
/// A check builds metadata only, and of clippy's lints asks only for `incompatible_msrv`.
const CHECK: [&str; 6] = [
    "--crate-type=bin",
    "--crate-name=leetcode",
    "--emit=metadata",
    "--color=never",
    "-Aclippy::all",
    "-Wclippy::incompatible_msrv",
];

/// The driver is built once, as a library every submission links, rather than compiled into
/// every binary again (the README's "where the time goes" has the figures).
const DRIVER_CRATE: &str = "judge_driver";
const DRIVER_FILE: &str = "libjudge_driver.rlib";

/// A compile gets this much address space; more is a compile error of its own ("compile
/// memory limit").
const COMPILE_MEMORY: u64 = 8 << 30;
/// A compiler's private /tmp, and how many processes (threads count) it may run.
const COMPILE_SCRATCH: u64 = 512 << 20;
const COMPILE_PROCESSES: u64 = 512;
/// Where a sandboxed compiler sees the toolchain, its source, its output folder, the driver
/// library and clippy's settings.
const TOOLCHAIN: &str = "/toolchain";
const SOURCES: &str = "/src";
const OUTPUT: &str = "/out";
const DRIVER_FOLDER: &str = "/driver";
const CLIPPY: &str = "/clippy";

fn driver_source() -> String {
    let mut source = format!("#![allow(dead_code, unused, clippy::all)]\npub type Solve = {};\n", problem::FN_TYPE);
    for (name, text) in DRIVER {
        source.push_str(&format!("pub mod {name} {{\n{text}}}\n"));
    }
    source
}

impl Compiler {
    /// Finds the compiler and prepares the cache folder.
    pub fn new(cache: &Path, settings: Settings, sandboxed: bool) -> Result<Compiler, CompilerMissing> {
        let rustc = std::env::var("RUSTC").ok().filter(|r| !r.is_empty()).unwrap_or_else(|| "rustc".to_string());
        for folder in ["src", "bin", "lib"] {
            let path = cache.join(folder);
            fs::create_dir_all(&path).map_err(|error| CompilerMissing::Cache { path, error })?;
        }
        let toolchain = toolchain::find(&rustc, cache)
            .map_err(|error| CompilerMissing::NotFound { program: rustc.clone(), error })?;
        Ok(Compiler { toolchain, cache: cache.to_path_buf(), settings, sandboxed, driver: OnceLock::new() })
    }

    /// `rustc 1.95.0 (59807616e 2026-04-14)`.
    pub fn version(&self) -> &str {
        self.toolchain.version.lines().next().unwrap_or("rustc")
    }

    /// The toolchain's root, where an editor finds the standard library's sources.
    pub fn sysroot(&self) -> &Path {
        &self.toolchain.sysroot
    }

    /// One submission, alone in its binary, exactly as LeetCode lays it out.
    pub fn build(&self, unit: &Unit) -> io::Result<Result<Binary, CompileError>> {
        let batch = self.build_batch(std::slice::from_ref(unit))?;
        Ok(match (batch.errors.into_iter().next().flatten(), batch.binary) {
            (None, Some(binary)) => Ok(binary),
            (error, _) => {
                Err(error
                    .unwrap_or_else(|| CompileError::whole("the build produced no binary".to_string(), String::new())))
            }
        })
    }

    /// The generated source of `chosen`, its map, and the name its build is cached under.
    fn layout(&self, chosen: &[&Unit]) -> io::Result<Layout> {
        let (source, units_at, entries) = generate(chosen);
        let mut key = Hasher::new();
        key.write(source.as_bytes())
            .write(self.toolchain.version.as_bytes())
            .write(self.driver()?.as_os_str().as_bytes())
            .write(self.settings.edition.as_bytes())
            // What a file can read at compile time (`include_str!`) depends on the sandbox.
            .write(&[u8::from(self.sandboxed)]);
        for flag in CODEGEN.iter().chain(&BINARY) {
            key.write(flag.as_bytes());
        }
        if let [unit] = chosen {
            key.write(unit.shown.as_bytes());
        }
        let key = key.finish().hex();
        let generated = self.cache.join("src").join(format!("{key}.rs"));
        // One unit: panics, `dbg!` and errors name the submission's own file.
        let remap = match chosen {
            [unit] => Some(unit.shown.clone()),
            _ => None,
        };
        let map = SourceMap { generated: self.seen(&generated), units: units_at, entries, remapped: remap.is_some() };
        Ok(Layout { source, map, key, remap, path: generated })
    }

    /// Many units in one binary, the n-th one that compiled served as unit n. Units the
    /// compiler rejects are dropped, their error kept in their slot, and the rest rebuilt.
    pub fn build_batch(&self, units: &[Unit]) -> io::Result<Batch> {
        let mut errors: Vec<Option<CompileError>> = vec![None; units.len()];
        loop {
            let alive: Vec<usize> = (0..units.len()).filter(|&i| errors[i].is_none()).collect();
            if alive.is_empty() {
                return Ok(Batch { errors, binary: None });
            }
            let chosen: Vec<&Unit> = alive.iter().map(|&i| &units[i]).collect();
            let Layout { source, map, key, remap, path } = self.layout(&chosen)?;
            let binary = self.cache.join("bin").join(&key);
            if read_sealed(&binary).is_some() {
                return Ok(Batch { errors, binary: Some(Binary { path: binary, map }) });
            }
            let failure = self.cache.join("bin").join(format!("{key}.ce"));
            let stderr = match read_sealed(&failure) {
                Some(cached) => String::from_utf8_lossy(&cached).into_owned(),
                None => match self.rustc(&source, &path, &binary, remap.as_deref())? {
                    Ran::Finished { success: true, .. } => {
                        return Ok(Batch { errors, binary: Some(Binary { path: binary, map }) })
                    }
                    Ran::Finished { stderr, .. } => {
                        put_sealed(&failure, stderr.as_bytes())?;
                        stderr
                    }
                    // Not cached: a loaded machine may pass the limit where a quiet one does not.
                    Ran::OverLimit(error) => {
                        let errors = units.iter().map(|_| Some(error.clone())).collect();
                        return Ok(Batch { errors, binary: None });
                    }
                },
            };
            let mut dropped = false;
            for (unit, error) in diagnose(&stderr, &map) {
                let slot = &mut errors[alive[unit]];
                if slot.is_none() {
                    *slot = Some(error);
                    dropped = true;
                }
            }
            if !dropped {
                // An error no unit owns: nothing can be built from these units.
                let error = unowned(&stderr);
                for i in alive {
                    errors[i] = Some(error.clone());
                }
                return Ok(Batch { errors, binary: None });
            }
        }
    }

    /// Compiles one unit as LeetCode wraps it, without code generation, and asks clippy which
    /// standard library items it uses that LeetCode's Rust does not have yet. A result is not
    /// checked again until the file, the settings or the compiler change.
    pub fn check(&self, unit: &Unit) -> io::Result<Checked> {
        let mut source = format!("pub struct Solution; {}", unit.source);
        if !source.ends_with('\n') {
            source.push('\n');
        }
        let call_line = source.lines().count() + 1;
        source.push_str(&format!(
            "fn main() {{\n    let _: String = Solution::{}(Vec::<i32>::new());\n}}\n",
            problem::METHOD
        ));
        let clippy = self.toolchain.clippy_driver.as_deref();
        let key = Hasher::new()
            .write(source.as_bytes())
            .write(self.settings.edition.as_bytes())
            .write(self.settings.rust_version.as_bytes())
            .write(self.toolchain.version.as_bytes())
            .write(&[u8::from(clippy.is_some()), u8::from(self.sandboxed)])
            .write(unit.shown.as_bytes())
            .write(CHECK.concat().as_bytes())
            .finish()
            .hex();
        let path = self.cache.join("src").join(format!("check-{key}.rs"));
        let map = SourceMap {
            generated: self.seen(&path),
            units: vec![(1, unit.source.lines().count().max(1), unit.shown.clone())],
            entries: vec![call_line + 1],
            remapped: true,
        };
        let remembered = self.cache.join("bin").join(format!("check-{key}"));
        let said = match read_sealed(&remembered) {
            Some(said) => String::from_utf8_lossy(&said).into_owned(),
            None => {
                write_atomically(&path, source.as_bytes())?;
                let job = Job {
                    tool: if clippy.is_some() { Tool::Clippy } else { Tool::Rustc },
                    source: &path,
                    output: "leetcode.rmeta",
                    keep: None,
                    driver: None,
                    shown: Some(&unit.shown),
                    args: CHECK.iter().map(|a| a.to_string()).collect(),
                };
                let said = match self.run(&job)? {
                    Ran::Finished { success, stderr } => format!("{}\n{stderr}", u8::from(success)),
                    Ran::OverLimit(error) => return Ok(Checked { error: Some(error), newer: None }),
                };
                put_sealed(&remembered, said.as_bytes())?;
                said
            }
        };
        let (passed, stderr) = said.split_once('\n').unwrap_or(("0", ""));
        let error = (passed != "1")
            .then(|| diagnose(stderr, &map).into_iter().next().map(|(_, e)| e).unwrap_or_else(|| unowned(stderr)));
        let newer = clippy.map(|_| newer(stderr, &map, &unit.source));
        Ok(Checked { error, newer })
    }

    /// A folder holding the `clippy.toml` that sets LeetCode's Rust version for clippy.
    fn clippy_conf(&self) -> io::Result<PathBuf> {
        let folder = self.cache.join("clippy").join(&self.settings.rust_version);
        let file = folder.join("clippy.toml");
        let text = format!("msrv = \"{}\"\n", self.settings.rust_version);
        if fs::read_to_string(&file).ok().as_deref() != Some(text.as_str()) {
            fs::create_dir_all(&folder)?;
            write_atomically(&file, text.as_bytes())?;
        }
        Ok(folder)
    }

    /// Where rustc sees a host file: in its sandbox, by name under `/src`; else where it is.
    fn seen(&self, host: &Path) -> PathBuf {
        match (self.sandboxed, host.file_name()) {
            (true, Some(name)) => Path::new(SOURCES).join(name),
            _ => host.to_path_buf(),
        }
    }

    /// One run of the compiler, in a sandbox of its own where children have one, with a clean
    /// environment (only PATH, for the linker), a fresh folder to write in, a wall-clock limit
    /// and a ceiling on its address space; killed with the judge.
    fn run(&self, job: &Job) -> io::Result<Ran> {
        let folder = self.cache.join("bin").join(format!("run-{}-{}", std::process::id(), unique()));
        fs::create_dir_all(&folder)?;
        let ran = self.run_in(job, &folder).and_then(|ran| {
            if let (Ran::Finished { success: true, .. }, Some(keep)) = (&ran, job.keep) {
                place_sealed(&folder.join(job.output), keep)?;
            }
            Ok(ran)
        });
        let _ = fs::remove_dir_all(&folder);
        ran
    }

    fn run_in(&self, job: &Job, folder: &Path) -> io::Result<Ran> {
        let host_tool = match job.tool {
            Tool::Clippy => self.toolchain.clippy_driver.clone().unwrap_or_else(|| self.toolchain.rustc.clone()),
            Tool::Rustc => self.toolchain.rustc.clone(),
        };
        let conf = match job.tool {
            Tool::Clippy => Some(self.clippy_conf()?),
            Tool::Rustc => None,
        };
        let mut spec = Spec::system();
        let (tool, source, out, driver, conf_seen) = if self.sandboxed {
            spec.bind(&self.toolchain.sysroot, TOOLCHAIN, false);
            spec.bind(job.source, self.seen(job.source), false);
            spec.bind(folder, OUTPUT, true);
            if let Some(driver) = job.driver {
                spec.bind(driver, Path::new(DRIVER_FOLDER).join(DRIVER_FILE), false);
            }
            if let Some(conf) = &conf {
                spec.bind(conf, CLIPPY, false);
            }
            // Debian's `cc` is a link through /etc/alternatives.
            if Path::new("/etc/alternatives").is_dir() {
                spec.bind("/etc/alternatives", "/etc/alternatives", false);
            }
            spec.scratch = Some(("/tmp".into(), COMPILE_SCRATCH));
            spec.processes = Some(COMPILE_PROCESSES);
            let tool_name = host_tool.file_name().unwrap_or_default();
            let tool = Path::new(TOOLCHAIN).join("bin").join(tool_name);
            let driver = job.driver.map(|_| Path::new(DRIVER_FOLDER).join(DRIVER_FILE));
            (tool, self.seen(job.source), PathBuf::from(OUTPUT), driver, conf.as_ref().map(|_| PathBuf::from(CLIPPY)))
        } else {
            (host_tool, job.source.to_path_buf(), folder.to_path_buf(), job.driver.map(Path::to_path_buf), conf)
        };
        let mut command = Command::new(&tool);
        command.arg(format!("--edition={}", self.settings.edition)).args(&job.args);
        command.arg("-o").arg(out.join(job.output));
        if let Some(driver) = driver {
            let mut extern_driver = std::ffi::OsString::from(format!("{DRIVER_CRATE}="));
            extern_driver.push(driver);
            command.arg("--extern").arg(extern_driver);
        }
        if let Some(shown) = job.shown {
            command.arg(format!("--remap-path-prefix={}={shown}", source.display()));
        }
        command.arg(&source);
        let path = match self.sandboxed {
            true => "/usr/bin:/bin".into(),
            false => std::env::var_os("PATH").unwrap_or_else(|| "/usr/local/bin:/usr/bin:/bin".into()),
        };
        command.env_clear().env("PATH", path).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::piped());
        command.process_group(0);
        if let Some(conf) = conf_seen {
            command.env("CLIPPY_CONF_DIR", conf);
        }
        let judge = std::process::id();
        // SAFETY: between fork and exec the closure only makes system calls.
        unsafe {
            command.pre_exec(move || {
                sys::die_with(judge)?;
                sys::limit(sys::Resource::AddressSpace, COMPILE_MEMORY)
            });
        }
        if self.sandboxed {
            let confinement = std::sync::Arc::new(Confinement::new(&spec)?);
            std::os::unix::fs::chown(folder, Some(confinement.outside_uid()), None)?;
            sandbox::confine(&mut command, &confinement);
        }
        let mut child = command.spawn()?;
        let said = child.stderr.take().map(|mut pipe| {
            std::thread::spawn(move || {
                let mut text = Vec::new();
                let _ = io::Read::read_to_end(&mut pipe, &mut text);
                text
            })
        });
        let finished = within(&mut child, self.settings.time_limit)?;
        let said = said.and_then(|reading| reading.join().ok()).unwrap_or_default();
        let stderr = String::from_utf8_lossy(&said).into_owned();
        let Some(status) = finished else {
            let limit = self.settings.time_limit;
            let error =
                CompileError::whole(format!("compile time limit: rustc ran past {limit:?} and was killed"), stderr);
            return Ok(Ran::OverLimit(error));
        };
        match (status.code(), status.signal()) {
            (Some(code), _) => Ok(Ran::Finished { success: code == 0, stderr }),
            (None, Some(sys::SIGABRT)) if stderr.contains("memory allocation of") => {
                let gib = COMPILE_MEMORY >> 30;
                let error =
                    CompileError::whole(format!("compile memory limit: rustc ran out of its {gib} GiB"), stderr);
                Ok(Ran::OverLimit(error))
            }
            // Killed by something else (the kernel's out-of-memory killer, say): the judge's
            // trouble, not the file's, and nothing to remember.
            (None, signal) => Err(io::Error::other(format!("rustc was killed by signal {}", signal.unwrap_or(0)))),
        }
    }

    /// Writes `source` to `path` and runs rustc on it to build a binary kept at `binary`.
    fn rustc(&self, source: &str, path: &Path, binary: &Path, remap: Option<&str>) -> io::Result<Ran> {
        write_atomically(path, source.as_bytes())?;
        let driver = self.driver()?.to_path_buf();
        let args: Vec<String> = CODEGEN.iter().chain(&BINARY).map(|a| a.to_string()).collect();
        let job = Job {
            tool: Tool::Rustc,
            source: path,
            output: "submission",
            keep: Some(binary),
            driver: Some(&driver),
            shown: remap,
            args,
        };
        self.run(&job)
    }

    /// The driver library, built once for this compiler and these flags, then cached.
    fn driver(&self) -> io::Result<&Path> {
        match self.driver.get_or_init(|| self.build_driver().map_err(|e| e.to_string())) {
            Ok(path) => Ok(path),
            Err(error) => Err(io::Error::other(format!("the judge's driver did not build: {error}"))),
        }
    }

    fn build_driver(&self) -> io::Result<PathBuf> {
        let source = driver_source();
        let mut key = Hasher::new();
        key.write(source.as_bytes()).write(self.toolchain.version.as_bytes()).write(self.settings.edition.as_bytes());
        for flag in CODEGEN {
            key.write(flag.as_bytes());
        }
        let key = key.finish().hex();
        let folder = self.cache.join("lib").join(&key);
        let library = folder.join(DRIVER_FILE);
        if read_sealed(&library).is_some() {
            return Ok(library);
        }
        fs::create_dir_all(&folder)?;
        let path = self.cache.join("src").join(format!("driver-{key}.rs"));
        write_atomically(&path, source.as_bytes())?;
        let mut args: Vec<String> = CODEGEN.iter().map(|a| a.to_string()).collect();
        args.extend(["--crate-type=rlib".to_string(), format!("--crate-name={DRIVER_CRATE}")]);
        let job = Job {
            tool: Tool::Rustc,
            source: &path,
            output: DRIVER_FILE,
            keep: Some(&library),
            driver: None,
            shown: None,
            args,
        };
        match self.run(&job)? {
            Ran::Finished { success: true, .. } => {}
            Ran::Finished { stderr, .. } => return Err(io::Error::other(stderr)),
            Ran::OverLimit(error) => return Err(io::Error::other(error.headline)),
        }
        Ok(library)
    }
}

/// Waits for a compiler up to `limit`; past it kills its whole process group (the linker it
/// started too, before anything is reaped, so the group's id is still its own) and says None.
fn within(child: &mut std::process::Child, limit: std::time::Duration) -> io::Result<Option<std::process::ExitStatus>> {
    let deadline = std::time::Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Some(status));
        }
        if std::time::Instant::now() >= deadline {
            let _ = sys::kill_group(child.id());
            child.wait()?;
            return Ok(None);
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

/// Which compiler a run starts.
#[derive(Clone, Copy)]
enum Tool {
    Rustc,
    /// `clippy-driver`, where the toolchain has it (else rustc).
    Clippy,
}

/// One compiler run: its source file (on the host), the file it writes by name, the driver
/// library it links, the shown path its source is remapped to, and its other arguments.
struct Job<'a> {
    tool: Tool,
    source: &'a Path,
    output: &'a str,
    /// Where that file is kept, on the host, when the run succeeds.
    keep: Option<&'a Path>,
    driver: Option<&'a Path>,
    shown: Option<&'a str>,
    args: Vec<String>,
}

/// How a compiler run ended.
enum Ran {
    /// It ran to its end; when it succeeded, the file it wrote is where the job keeps it.
    Finished { success: bool, stderr: String },
    /// It passed the compile time or memory limit: a compile error of its own.
    OverLimit(CompileError),
}

/// A source being generated, and how many lines it has.
#[derive(Default)]
struct Generated {
    source: String,
    lines: usize,
}

impl Generated {
    /// Appends `text` on lines of its own; returns the number of its last line.
    fn push(&mut self, text: &str) -> usize {
        self.source.push_str(text);
        if !text.ends_with('\n') {
            self.source.push('\n');
        }
        self.lines += text.lines().count().max(1);
        self.lines
    }
}

/// The generated source for `units`, each unit's (first line, line count, shown path), and
/// the line of `main` that names each unit's method.
#[allow(clippy::type_complexity)]
fn generate(units: &[&Unit]) -> (String, Vec<(usize, usize, String)>, Vec<usize>) {
    let mut out = Generated::default();
    let (mut at, mut entries) = (Vec::new(), Vec::new());
    let single = units.len() == 1;
    for (i, unit) in units.iter().enumerate() {
        if !single {
            out.push(&format!("mod __u{i} {{"));
        }
        let first = out.lines + 1;
        let last = out.push(&format!("pub struct Solution; {}", unit.source));
        at.push((first, last + 1 - first, unit.shown.clone()));
        if !single {
            out.push("}");
        }
    }
    // The driver's allocator tells the judge of an allocation that failed.
    out.push(&format!(
        "#[global_allocator] static ALLOCATOR: {DRIVER_CRATE}::driver::Allocator = {DRIVER_CRATE}::driver::Allocator;"
    ));
    out.push("fn main() {");
    out.push(&format!("let solutions: [{DRIVER_CRATE}::Solve; {}] = [", units.len()));
    for i in 0..units.len() {
        // LeetCode's own call, so that whatever it accepts (any parameter name, `mut`, a
        // method that is not `pub`) is accepted here.
        let path = if single { String::new() } else { format!("__u{i}::") };
        entries.push(out.push(&format!("|v| -> String {{ {path}Solution::{}(v) }},", problem::METHOD)));
    }
    out.push(&format!("];\n{DRIVER_CRATE}::driver::main(&solutions);\n}}"));
    (out.source, at, entries)
}
