//! Compiling submissions the way LeetCode does: the file from its first line, then LeetCode's
//! items after it, `pub struct Solution;` and a `main` that calls the method as LeetCode's own
//! code does, `Solution::stone_game_iii(v)` with a `Vec<i32>`, wanting a `String`: any
//! parameter name, `mut`, layout or visibility that LeetCode accepts compiles here, and a file
//! that opens with `//!` or `#![allow(…)]` too. The file's lines are rustc's lines, so an
//! error or a panic names the file's own line; `diagnose` keeps every line of LeetCode's items
//! out of what the user reads. Built by LeetCode's own version of rustc where rustup has it,
//! else by the toolchain's own (see `toolchain`), in LeetCode's edition, optimised, overflow
//! checks off. The judge's driver is a library built once and linked into every binary.
//!
//! Builds are cached (see `cache`), named by a digest of the whole generated source, the
//! driver, the compiler's version, the flags and the limits: only what changed is rebuilt, and
//! a file that does not compile, or passes the compile memory or binary size limit, is not
//! compiled again until it changes. Every entry is sealed under its folder's key (`files`):
//! one changed since it was made is made again, not trusted.
//!
//! A batch build puts many units (mutants) in one binary, each in its own module, and drops
//! the ones the compiler rejects until the rest compile. Where the compiler is not LeetCode's
//! own version, a check (for `paste`, and beside a judged build) compiles one unit without
//! code generation through `clippy-driver`, which names every standard library item newer
//! than LeetCode's Rust; language features newer than it are then not checked.

use std::fs;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::sync::OnceLock;

use super::cache::Cache;
use super::diagnose::{diagnose, newer, unowned, CompileError, Lines, Newer, SourceMap, Wrapping};
use super::digest::Hasher;
use super::files::{at, unique, write_atomically};
use super::sandbox;
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

/// A built submission: a binary and which of its units to serve, and the submission's name.
#[derive(Clone, Debug)]
pub struct Program {
    pub binary: Binary,
    pub unit: usize,
    pub name: String,
}

/// What a batch build made: each unit's error, if any, and one binary with the others.
pub struct Batch {
    pub errors: Vec<Option<CompileError>>,
    pub binary: Option<Binary>,
}

/// How much of what LeetCode's Rust would refuse for being newer a build refuses too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checks {
    /// Built by LeetCode's own version: whatever is newer, a language feature or a library
    /// item, does not compile.
    Everything,
    /// Built by another version; clippy names the standard library items newer than
    /// LeetCode's, and language features newer than it are not checked.
    LibraryItems,
    /// Built by another version that has no `clippy-driver`: nothing newer is named.
    Nothing,
}

/// Which compiler builds, as a report says it once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct About {
    /// `rustc 1.85.0 (4d91de4e4 2025-02-17)`.
    pub version: String,
    /// LeetCode's Rust, as set: `1.85`.
    pub leetcode_rust: String,
    pub checks: Checks,
    /// The one command that installs LeetCode's own version for the judge to build with.
    pub install: String,
    /// A toolchain of LeetCode's version without its standard library, not used: its name.
    pub incomplete: Option<String>,
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
    /// `1.85`: built by that version where rustup has it, else items newer than it are named.
    pub rust_version: String,
    /// How long one rustc run may take, by the judge's clock; more is a compile error of its
    /// own ("compile time limit"), not remembered.
    pub time_limit: std::time::Duration,
    /// Whether to build with rustup's toolchain of `rust_version` where it is installed (a
    /// test turns this off to try the other way on a machine that has it).
    pub own_toolchain: bool,
}

pub struct Compiler {
    toolchain: Toolchain,
    cache: Cache,
    settings: Settings,
    /// Whether rustc runs in a sandbox: it then sees the toolchain, its one source file, the
    /// driver library and a folder to write in, and nothing of the workspace.
    sandboxed: bool,
    /// The driver library, built on first use by whichever thread needs it first.
    driver: OnceLock<Result<PathBuf, std::sync::Arc<io::Error>>>,
    /// The build cache's root, where `newer_compiler` keeps its builds too.
    root: PathBuf,
    /// The toolchain cargo uses, when this one is LeetCode's own: its clippy says which
    /// version a library item LeetCode's refuses as unstable came in. Found on first use.
    newer: OnceLock<Option<Box<Compiler>>>,
}

/// The judge's own modules that go into every submission's binary.
const DRIVER: [(&str, &str); 3] = [
    ("sys", include_str!("sys/driver_io.rs")),
    ("wire", include_str!("wire.rs")),
    ("driver", include_str!("driver.rs")),
];

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

/// The driver library could not be built: the cause, shared by every build that needed it.
#[derive(Debug)]
struct DriverFailed(std::sync::Arc<io::Error>);

impl std::fmt::Display for DriverFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "the judge's driver did not build: {}", self.0)
    }
}

impl std::error::Error for DriverFailed {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.0)
    }
}

/// The driver is built once, as a library every submission links, rather than compiled into
/// every binary again (the README's "where the time goes" has the figures).
const DRIVER_CRATE: &str = "judge_driver";
const DRIVER_FILE: &str = "libjudge_driver.rlib";

/// A compile gets this much address space; more is a compile error of its own ("compile
/// memory limit"), remembered: the same file passes it again on any machine.
const COMPILE_MEMORY: u64 = 8 << 30;
/// The largest file a compile may write (the binary, and each object file on the way to it);
/// a larger one is a compile error of its own ("binary size limit"), remembered. A submission
/// here is about 0.5 MiB; a larger one holds initialised data, which every edit would store again.
pub const BINARY_LIMIT: u64 = 64 << 20;
/// A compiler's private /tmp, and how many processes (threads count) it may run.
const COMPILE_SCRATCH: u64 = 512 << 20;
const COMPILE_PROCESSES: u64 = 512;
/// rustc and the linker open a few hundred files at most.
const COMPILE_FILES: u64 = 4096;
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

/// How a generated source calls the method: through the judge's driver, or as LeetCode's
/// `main` would, for a check that generates no code.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Harness {
    Driver,
    Check,
}

/// A generated source, its map, and the name its build is cached under.
struct Layout {
    source: String,
    map: SourceMap,
    key: String,
    /// The shown path a single unit's file is remapped to.
    remap: Option<String>,
    /// Where the generated source is written, on the host.
    path: PathBuf,
}

impl Compiler {
    /// Finds the compiler and prepares the cache folder of this mode (see `cache`).
    pub fn new(cache: &Path, settings: Settings, sandboxed: bool) -> Result<Compiler, CompilerMissing> {
        let root = cache;
        let rustc = std::env::var("RUSTC").ok().filter(|r| !r.is_empty()).unwrap_or_else(|| "rustc".to_string());
        let cache = Cache::open(cache, sandboxed)
            .map_err(|error| CompilerMissing::Cache { path: cache.to_path_buf(), error })?;
        let leetcode = &settings.rust_version;
        let toolchain = toolchain::find(&rustc, leetcode, settings.own_toolchain, &cache.folder, &cache.seal)
            .map_err(|error| CompilerMissing::NotFound { program: rustc.clone(), error })?;
        let (driver, newer, root) = (OnceLock::new(), OnceLock::new(), root.to_path_buf());
        Ok(Compiler { toolchain, cache, settings, sandboxed, driver, root, newer })
    }

    /// The compiler the unit tests build with: the crate's own build cache, LeetCode's edition,
    /// `rust_version` (built by that release itself where `own` and rustup has it), in a
    /// sandbox where the machine gives one.
    #[cfg(test)]
    pub fn for_tests(rust_version: &str, own: bool) -> Compiler {
        let cache = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/target/judge"));
        let settings = Settings {
            edition: crate::problem::leetcode::EDITION,
            rust_version: rust_version.to_string(),
            time_limit: std::time::Duration::from_secs(20),
            own_toolchain: own,
        };
        Compiler::new(cache, settings, sandbox::probe().is_ok()).unwrap_or_else(|e| panic!("{e:?}"))
    }

    /// `rustc 1.95.0 (59807616e 2026-04-14)`.
    pub fn version(&self) -> &str {
        self.toolchain.version.lines().next().unwrap_or("rustc")
    }

    /// How much of what is newer than LeetCode's Rust the builds refuse or name.
    pub fn checks(&self) -> Checks {
        match (self.toolchain.leetcode, &self.toolchain.clippy_driver) {
            (true, _) => Checks::Everything,
            (false, Some(_)) => Checks::LibraryItems,
            (false, None) => Checks::Nothing,
        }
    }

    /// Which compiler builds, and how much of what is newer than LeetCode's Rust it tells.
    pub fn about(&self) -> About {
        About {
            version: self.version().to_string(),
            leetcode_rust: self.settings.rust_version.clone(),
            checks: self.checks(),
            install: toolchain::install_command(&self.settings.rust_version),
            incomplete: self.toolchain.incomplete.clone(),
        }
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
    fn layout(&self, chosen: &[&Unit], harness: Harness) -> io::Result<Layout> {
        let (source, units, wrapping) = generate(chosen, harness);
        let mut key = Hasher::new();
        key.write(source.as_bytes())
            .write(self.toolchain.version.as_bytes())
            .write(self.settings.edition.as_bytes())
            .write(&COMPILE_MEMORY.to_le_bytes())
            .write(&BINARY_LIMIT.to_le_bytes());
        let flags: Vec<&str> = match harness {
            Harness::Driver => {
                key.write(self.driver()?.as_os_str().as_bytes());
                CODEGEN.iter().chain(&BINARY).copied().collect()
            }
            Harness::Check => {
                key.write(self.settings.rust_version.as_bytes());
                CHECK.to_vec()
            }
        };
        for flag in flags {
            key.write(flag.as_bytes());
        }
        if let [unit] = chosen {
            key.write(unit.shown.as_bytes());
        }
        let key = key.finish().hex();
        let name = match harness {
            Harness::Driver => format!("{key}.rs"),
            Harness::Check => format!("check-{key}.rs"),
        };
        let generated = self.cache.folder.join("src").join(name);
        // One unit: panics, `dbg!` and errors name the submission's own file.
        let remap = match chosen {
            [unit] => Some(unit.shown.clone()),
            _ => None,
        };
        let map = SourceMap { generated: self.seen(&generated), units, wrapping, remapped: remap.is_some() };
        Ok(Layout { source, map, key, remap, path: generated })
    }

    /// Many units in one binary, the n-th one that compiled served as unit n. Units the
    /// compiler rejects are dropped, their error kept in their slot, and the rest rebuilt.
    pub fn build_batch(&self, units: &[Unit]) -> io::Result<Batch> {
        let mut batch = self.build_batch_as_it_is(units)?;
        for (unit, slot) in units.iter().zip(&mut batch.errors) {
            let Some(error) = slot.as_mut() else { continue };
            if self.checks() == Checks::Everything && error.headline.contains("unstable library feature") {
                let said = self.newer_compiler().map(|other| other.newer(unit));
                if let Some(Ok(Some(items))) = said {
                    if let Some(item) = items.iter().find(|i| Some(&i.place) == error.place.as_ref()).or(items.first())
                    {
                        let refused = item.refused(&self.settings.rust_version).headline;
                        let code = error.headline.split(':').next().unwrap_or("error");
                        let headline = format!("{code}:{}", refused.split_once(':').map_or("", |(_, said)| said));
                        error.diagnostic = error.diagnostic.replacen(&error.headline, &headline, 1);
                        error.headline = headline;
                    }
                }
            }
        }
        Ok(batch)
    }

    /// The compiler cargo's own toolchain stands for, when this one is LeetCode's own and
    /// that one is another.
    fn newer_compiler(&self) -> Option<&Compiler> {
        let other = self.newer.get_or_init(|| {
            let settings = Settings { own_toolchain: false, ..self.settings.clone() };
            let other = Compiler::new(&self.root, settings, self.sandboxed).ok()?;
            (other.checks() == Checks::LibraryItems).then(|| Box::new(other))
        });
        other.as_deref()
    }

    /// `build_batch` with rustc's own words for every error.
    fn build_batch_as_it_is(&self, units: &[Unit]) -> io::Result<Batch> {
        let mut errors: Vec<Option<CompileError>> = vec![None; units.len()];
        let seal = &self.cache.seal;
        loop {
            let alive: Vec<usize> = (0..units.len()).filter(|&i| errors[i].is_none()).collect();
            if alive.is_empty() {
                return Ok(Batch { errors, binary: None });
            }
            let chosen: Vec<&Unit> = alive.iter().map(|&i| &units[i]).collect();
            let Layout { source, map, key, remap, path } = self.layout(&chosen, Harness::Driver)?;
            let binary = self.cache.folder.join("bin").join(&key);
            let failure = self.cache.folder.join("bin").join(format!("{key}.ce"));
            let limit = |error: CompileError| Ok(Batch { errors: vec![Some(error); units.len()], binary: None });
            // What rustc said of a build that made no binary; None for one that did.
            let said = match seal.read(&binary) {
                Some(_) => None,
                None => match seal.read(&failure).map(|said| Remembered::read(&String::from_utf8_lossy(&said))) {
                    Some(Remembered::Said(stderr)) => Some(stderr),
                    Some(Remembered::Limit(error)) => return limit(error),
                    None => match self.rustc(&source, &path, &binary, remap.as_deref())? {
                        Ran::Finished { success: true, .. } => None,
                        Ran::Finished { stderr, .. } => {
                            seal.put(&failure, Remembered::Said(stderr.clone()).text().as_bytes())?;
                            Some(stderr)
                        }
                        Ran::OverLimit { error, remembered } => {
                            if remembered {
                                seal.put(&failure, Remembered::Limit(error.clone()).text().as_bytes())?;
                            }
                            return limit(error);
                        }
                    },
                },
            };
            let Some(stderr) = said else {
                if self.refuse_newer(&chosen, &alive, &mut errors)? {
                    continue;
                }
                return Ok(Batch { errors, binary: Some(Binary { path: binary, map }) });
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

    /// The standard library items one unit uses that LeetCode's Rust does not have yet, as
    /// clippy names them: none to name when the compiler is LeetCode's own (they do not
    /// compile), None when it cannot tell (no `clippy-driver`, or the check ran past its time).
    /// A result is not asked again until the file, the settings or the compiler change.
    pub fn newer(&self, unit: &Unit) -> io::Result<Option<Vec<Newer>>> {
        Ok(self.newer_each(&[unit])?.map(|mut each| each.swap_remove(0)))
    }

    /// `newer` of several units by one check of them all, by unit.
    fn newer_each(&self, units: &[&Unit]) -> io::Result<Option<Vec<Vec<Newer>>>> {
        match self.checks() {
            Checks::Everything => return Ok(Some(vec![Vec::new(); units.len()])),
            Checks::Nothing => return Ok(None),
            Checks::LibraryItems => {}
        }
        let Layout { source, map, key, remap, path } = self.layout(units, Harness::Check)?;
        let remembered = self.cache.folder.join("bin").join(format!("check-{key}"));
        let stderr = match self.cache.seal.read(&remembered) {
            Some(said) => String::from_utf8_lossy(&said).into_owned(),
            None => {
                write_atomically(&path, source.as_bytes())?;
                let job = Job {
                    tool: Tool::Clippy,
                    source: &path,
                    output: "leetcode.rmeta",
                    keep: None,
                    driver: None,
                    shown: remap.as_deref(),
                    args: CHECK.iter().map(|a| a.to_string()).collect(),
                };
                let stderr = match self.run(&job)? {
                    Ran::Finished { stderr, .. } => stderr,
                    Ran::OverLimit { .. } => return Ok(None),
                };
                self.cache.seal.put(&remembered, stderr.as_bytes())?;
                stderr
            }
        };
        let sources: Vec<&str> = units.iter().map(|u| u.source.as_str()).collect();
        Ok(Some(newer(&stderr, &map, &sources)))
    }

    /// Gives each of the units a build accepted (`chosen`, at `alive` in `errors`) that uses a
    /// library item LeetCode's Rust does not have its error, and whether there was one:
    /// LeetCode refuses them, so the judge does, with or without LeetCode's own compiler.
    fn refuse_newer(&self, chosen: &[&Unit], alive: &[usize], errors: &mut [Option<CompileError>]) -> io::Result<bool> {
        if self.checks() != Checks::LibraryItems {
            return Ok(false);
        }
        let leetcode = &self.settings.rust_version;
        let mut refused = false;
        for (k, items) in self.newer_each(chosen)?.unwrap_or_default().iter().enumerate() {
            if let Some(item) = items.first() {
                errors[alive[k]] = Some(item.refused(leetcode));
                refused = true;
            }
        }
        Ok(refused)
    }

    /// A folder holding the `clippy.toml` that sets LeetCode's Rust version for clippy.
    fn clippy_conf(&self) -> io::Result<PathBuf> {
        let folder = self.cache.folder.join("clippy").join(&self.settings.rust_version);
        let file = folder.join("clippy.toml");
        let text = format!("msrv = \"{}\"\n", self.settings.rust_version);
        if fs::read_to_string(&file).ok().as_deref() != Some(text.as_str()) {
            fs::create_dir_all(&folder).map_err(|e| at(&folder, e))?;
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
    /// and ceilings on its address space and on the size of any file it writes; killed with
    /// the judge.
    fn run(&self, job: &Job) -> io::Result<Ran> {
        let folder = self.cache.folder.join("bin").join(format!("run-{}-{}", std::process::id(), unique()));
        fs::create_dir_all(&folder).map_err(|e| at(&folder, e))?;
        let ran = self.run_in(job, &folder).and_then(|ran| {
            if let (Ran::Finished { success: true, .. }, Some(keep)) = (&ran, job.keep) {
                self.cache.seal.place(&folder.join(job.output), keep)?;
            }
            Ok(ran)
        });
        let _ = fs::remove_dir_all(&folder);
        ran
    }

    /// What a compiler run sees: the system, its toolchain, its files and its output folder.
    fn jail(&self, job: &Job, folder: &Path, tool: &Path, conf: Option<&Path>) -> sandbox::Jail {
        let bounds = sandbox::Bounds {
            address_space: Some(COMPILE_MEMORY),
            file_size: BINARY_LIMIT,
            files: COMPILE_FILES,
            processes: COMPILE_PROCESSES,
            stack: None,
            one_process: false,
        };
        let mut jail = sandbox::Jail::system(tool, COMPILE_SCRATCH, bounds);
        jail.bind(&self.toolchain.sysroot, TOOLCHAIN, false);
        // The source and the driver are copied in, not bound: another build may put a new one
        // in their place at any moment, and the kernel binds no file that has been replaced.
        jail.copy(job.source, self.seen(job.source));
        jail.bind(folder, OUTPUT, true);
        if let Some(driver) = job.driver {
            jail.copy(driver, Path::new(DRIVER_FOLDER).join(DRIVER_FILE));
        }
        if let Some(conf) = conf {
            jail.bind(conf, CLIPPY, false);
        }
        // Debian's `cc` is a link through /etc/alternatives.
        if Path::new("/etc/alternatives").is_dir() {
            jail.bind("/etc/alternatives", "/etc/alternatives", false);
        }
        jail
    }

    fn run_in(&self, job: &Job, folder: &Path) -> io::Result<Ran> {
        let rustc = &self.toolchain.rustc;
        let (host_tool, conf) = match job.tool {
            Tool::Clippy => (self.toolchain.clippy_driver.as_ref().unwrap_or(rustc), Some(self.clippy_conf()?)),
            Tool::Rustc => (rustc, None),
        };
        let jail = self.jail(job, folder, host_tool, conf.as_deref());
        // Where rustc sees each host path: inside, in a sandbox; where it is, without one.
        let seen = |host: &Path| match self.sandboxed {
            true => jail.inside(host).unwrap_or_else(|| host.to_path_buf()),
            false => host.to_path_buf(),
        };
        let (source, out) = (seen(job.source), seen(folder));
        let mut command = sandbox::command(&jail, (!self.sandboxed).then_some(folder), None)?;
        command.arg(format!("--edition={}", self.settings.edition)).args(&job.args);
        command.arg("-o").arg(out.join(job.output));
        if let Some(driver) = job.driver {
            let mut extern_driver = std::ffi::OsString::from(format!("{DRIVER_CRATE}="));
            extern_driver.push(seen(driver));
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
        command.env("PATH", path).stdout(Stdio::null()).stderr(Stdio::piped());
        if let Some(conf) = &conf {
            command.env("CLIPPY_CONF_DIR", seen(conf));
        }
        if self.sandboxed {
            std::os::unix::fs::chown(folder, Some(sandbox::outside_uid()), None).map_err(|e| at(folder, e))?;
        }
        let mut child = command.spawn().map_err(|e| at(host_tool, e))?;
        let said = child.stderr.take().map(|pipe| std::thread::spawn(move || bounded(pipe)));
        let finished = within(&mut child, self.settings.time_limit)?;
        let stderr = said.and_then(|reading| reading.join().ok()).unwrap_or_default();
        match finished {
            Some(status) => ended(status, stderr),
            None => {
                let limit = self.settings.time_limit;
                let error =
                    CompileError::whole(format!("compile time limit: rustc ran past {limit:?} and was killed"), stderr);
                // Not remembered: a loaded machine may pass the limit where a quiet one does not.
                Ok(Ran::OverLimit { error, remembered: false })
            }
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
        match self.driver.get_or_init(|| self.build_driver().map_err(std::sync::Arc::new)) {
            Ok(path) => Ok(path),
            // Every build that needs it fails with the same cause, kept as the source.
            Err(error) => Err(io::Error::new(error.kind(), DriverFailed(std::sync::Arc::clone(error)))),
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
        let folder = self.cache.folder.join("lib").join(&key);
        let library = folder.join(DRIVER_FILE);
        if self.cache.seal.read(&library).is_some() {
            return Ok(library);
        }
        fs::create_dir_all(&folder).map_err(|e| at(&folder, e))?;
        let path = self.cache.folder.join("src").join(format!("driver-{key}.rs"));
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
            Ran::OverLimit { error, .. } => return Err(io::Error::other(error.headline)),
        }
        Ok(library)
    }
}

/// How a compiler run that ended, ended: for the file, or as the judge's own trouble (a full
/// disk, a crash), which is an error and never remembered.
fn ended(status: ExitStatus, stderr: String) -> io::Result<Ran> {
    let said = |words: &[&str]| stderr.lines().find(|l| words.iter().any(|w| l.contains(w))).map(str::trim);
    if let Some(line) = said(&["No space left on device", "Disk quota exceeded"]) {
        let line = line.strip_prefix("= note: ").unwrap_or(line);
        let message = format!("the disk is full: rustc could not write the build ({line})");
        return Err(io::Error::new(io::ErrorKind::StorageFull, message));
    }
    let over = |headline: String| {
        Ok(Ran::OverLimit { error: CompileError::whole(headline, stderr.clone()), remembered: true })
    };
    let size = || over(format!("binary size limit: the build wrote a file past {} MiB", BINARY_LIMIT >> 20));
    let linker_crashed =
        said(&["terminated with signal", "failed: signal:"]).filter(|_| stderr.contains("linking with"));
    match (status.code(), status.signal()) {
        (Some(0), _) => Ok(Ran::Finished { success: true, stderr }),
        (_, Some(sys::SIGXFSZ)) => size(),
        (Some(_), _) if said(&["File size limit exceeded", "File too large"]).is_some() => size(),
        (Some(_), _) if linker_crashed.is_some() => {
            let line = linker_crashed.unwrap_or_default();
            Err(io::Error::other(format!("the linker was killed ({line}); a full disk does this")))
        }
        (Some(_), _) => Ok(Ran::Finished { success: false, stderr }),
        (None, Some(sys::SIGABRT)) if said(&["memory allocation of", "out of memory"]).is_some() => {
            over(format!("compile memory limit: rustc ran out of its {} GiB", COMPILE_MEMORY >> 30))
        }
        // Killed by something else (the kernel's out-of-memory killer, say): the judge's
        // trouble, not the file's, and nothing to remember.
        (None, signal) => Err(io::Error::other(format!("rustc was killed by signal {}", signal.unwrap_or(0)))),
    }
}

/// What a build that made no binary remembers: what rustc said, or the limit it passed.
enum Remembered {
    Said(String),
    Limit(CompileError),
}

impl Remembered {
    fn text(&self) -> String {
        match self {
            Remembered::Said(stderr) => format!("said\n{stderr}"),
            Remembered::Limit(error) => format!("limit\n{}\n{}", error.headline, error.diagnostic),
        }
    }

    fn read(text: &str) -> Remembered {
        match text.split_once('\n') {
            Some(("limit", rest)) => {
                let (headline, diagnostic) = rest.split_once('\n').unwrap_or((rest, ""));
                Remembered::Limit(CompileError::whole(headline.to_string(), diagnostic.to_string()))
            }
            Some((_, stderr)) => Remembered::Said(stderr.to_string()),
            None => Remembered::Said(text.to_string()),
        }
    }
}

/// Of what a compiler writes on stderr, the judge keeps this much of the start (every error
/// a report or the editor shows, and many more) and of the end (rustc's count of its errors);
/// the rest is counted and dropped, so that no file's errors can fill the judge or the cache.
const SAID_HEAD: usize = 256 << 10;
const SAID_TAIL: usize = 16 << 10;

/// What `pipe` carries to its end, bounded (see `SAID_HEAD`): whole lines of the start and of
/// the end, and between them a line saying how much was dropped.
fn bounded(mut pipe: impl io::Read) -> String {
    let (mut head, mut tail, mut dropped) = (Vec::new(), Vec::new(), 0usize);
    let mut chunk = vec![0u8; 64 << 10];
    loop {
        let n = match pipe.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let into_head = n.min(SAID_HEAD - head.len());
        head.extend_from_slice(&chunk[..into_head]);
        tail.extend_from_slice(&chunk[into_head..n]);
        if tail.len() > 2 * SAID_TAIL {
            let cut = tail.len() - SAID_TAIL;
            tail.drain(..cut);
            dropped += cut;
        }
    }
    if dropped == 0 && tail.len() <= SAID_TAIL {
        head.extend_from_slice(&tail);
        return String::from_utf8_lossy(&head).into_owned();
    }
    // Whole lines only: the head up to its last line break, the tail from after its first.
    let head_end = head.iter().rposition(|&b| b == b'\n').map_or(head.len(), |i| i + 1);
    let tail_start = tail.iter().position(|&b| b == b'\n').map_or(0, |i| i + 1);
    dropped += head.len() - head_end + tail_start;
    let (head, tail) = (String::from_utf8_lossy(&head[..head_end]), String::from_utf8_lossy(&tail[tail_start..]));
    format!("{head}… {dropped} bytes of the compiler's output dropped …\n{tail}")
}

/// Waits for a compiler up to `limit`; past it kills its whole process group (the linker it
/// started too, before anything is reaped, so the group's id is still its own) and says None.
fn within(child: &mut std::process::Child, limit: std::time::Duration) -> io::Result<Option<ExitStatus>> {
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
    /// It passed the compile time, memory or binary size limit: a compile error of its own,
    /// remembered when the same file would pass it on any machine (memory, size), not when a
    /// loaded machine may pass it where a quiet one does not (time).
    OverLimit { error: CompileError, remembered: bool },
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

/// The generated source for `units`: each unit's text from the first line of its own (alone,
/// the file's first line; in a batch, inside a module of its own), LeetCode's
/// `pub struct Solution;` after it, then `main`. With where each unit is, and which of
/// LeetCode's lines an error may point at.
#[allow(clippy::type_complexity)]
fn generate(units: &[&Unit], harness: Harness) -> (String, Vec<Lines>, Vec<(usize, usize, Wrapping)>) {
    let mut out = Generated::default();
    let (mut lines, mut wrapping) = (Vec::new(), Vec::new());
    let single = units.len() == 1;
    for (i, unit) in units.iter().enumerate() {
        let open = out.lines + 1;
        if !single {
            out.push(&format!("mod __u{i} {{"));
        }
        let first = out.lines + 1;
        let last = out.push(&unit.source);
        wrapping.push((out.push("pub struct Solution;"), i, Wrapping::Solution));
        if !single {
            out.push("}");
        }
        lines.push(Lines { text: first..last + 1, owned: open..out.lines + 1, shown: unit.shown.clone() });
    }
    let main = match harness {
        Harness::Driver => {
            // The driver's allocator tells the judge of an allocation that failed.
            out.push(&format!(
                "#[global_allocator] static ALLOCATOR: {DRIVER_CRATE}::driver::Allocator = {DRIVER_CRATE}::driver::Allocator;"
            ));
            let main = out.push("fn main() {");
            out.push(&format!("let solutions: [{DRIVER_CRATE}::Solve; {}] = [", units.len()));
            for i in 0..units.len() {
                // LeetCode's own call, so that whatever it accepts (any parameter name, `mut`,
                // a method that is not `pub`) is accepted here.
                let path = if single { String::new() } else { format!("__u{i}::") };
                let call = out.push(&format!("|v| -> String {{ {path}Solution::{}(v) }},", problem::METHOD));
                wrapping.push((call, i, Wrapping::Call));
            }
            out.push(&format!("];\n{DRIVER_CRATE}::driver::main(&solutions);\n}}"));
            main
        }
        Harness::Check => {
            let main = out.push("fn main() {");
            let call = out.push(&format!("    let _: String = Solution::{}(Vec::<i32>::new());", problem::METHOD));
            wrapping.push((call, 0, Wrapping::Call));
            out.push("}");
            main
        }
    };
    // Alone in its binary, a unit owns every line: LeetCode's `main` is its `main`.
    if let ([unit], true) = (lines.as_mut_slice(), single) {
        unit.owned = 1..out.lines + 1;
        wrapping.push((main, 0, Wrapping::Main));
    }
    (out.source, lines, wrapping)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How a compiler run ended, by its status (as `wait` gives it) and what it said, in words.
    fn ending(raw: i32, stderr: &str) -> String {
        match ended(ExitStatus::from_raw(raw), stderr.to_string()) {
            Ok(Ran::Finished { success, .. }) => format!("finished, success {success}"),
            Ok(Ran::OverLimit { error, remembered }) => format!("{}, remembered {remembered}", error.headline),
            Err(e) => format!("judge error: {e}"),
        }
    }

    /// Another build may replace any file of the cache at any moment (the same source or
    /// driver, built at once by two judges or two tests), and the kernel refuses to bind a file
    /// that has been replaced: a compile then failed to start ("No such file or directory").
    /// So the sandbox binds nothing of the cache but the run's own output folder.
    #[test]
    fn a_compile_binds_nothing_of_the_cache_but_its_own_output_folder() {
        let compiler = Compiler::for_tests(crate::problem::leetcode::RUST_VERSION, true);
        let folder = compiler.cache.folder.clone();
        let (source, driver) = (folder.join("src/0123.rs"), folder.join("lib/0123").join(DRIVER_FILE));
        let conf = folder.join("clippy/1.85");
        let output = folder.join("bin/run-1-2");
        let job = Job {
            tool: Tool::Clippy,
            source: &source,
            output: "submission",
            keep: None,
            driver: Some(&driver),
            shown: None,
            args: Vec::new(),
        };
        let jail = compiler.jail(&job, &output, &compiler.toolchain.rustc, Some(&conf));
        let bound: Vec<&Path> = jail.bound().filter(|host| host.starts_with(&folder)).collect();
        assert_eq!(bound, [output.as_path(), conf.as_path()], "only the output and clippy's settings folder");
        assert!(jail.inside(&source).is_some() && jail.inside(&driver).is_some(), "the source and driver are shown");
    }

    #[test]
    fn a_compile_past_a_limit_is_a_remembered_ce_and_a_full_disk_is_the_judges_error() {
        let exit = |code: i32| code << 8;
        // What rustc said in each case on this machine (rustc 1.85 and 1.95, cc and rust-lld).
        let oom = "rustc-LLVM ERROR: out of memory\nAllocation failed";
        assert_eq!(ending(sys::SIGABRT, oom), "compile memory limit: rustc ran out of its 8 GiB, remembered true");
        let own = "memory allocation of 8589934592 bytes failed";
        assert_eq!(ending(sys::SIGABRT, own), "compile memory limit: rustc ran out of its 8 GiB, remembered true");
        let size = "binary size limit: the build wrote a file past 64 MiB, remembered true";
        assert_eq!(ending(sys::SIGXFSZ, ""), size);
        let linker = "error: linking with `cc` failed: exit status: 1\n  = note: collect2: fatal error: ld terminated with signal 25 [File size limit exceeded]";
        assert_eq!(ending(exit(1), linker), size);
        let full = "error: linking with `cc` failed: exit status: 1\n  = note: /usr/bin/ld: final link failed: No space left on device";
        assert!(ending(exit(1), full).starts_with("judge error: the disk is full"), "{}", ending(exit(1), full));
        let full = "error: failed to write to `/out/rmeta/full.rmeta`: No space left on device (os error 28)";
        assert!(ending(exit(1), full).starts_with("judge error: the disk is full"));
        let bus = "error: linking with `cc` failed: exit status: 1\n  = note: collect2: fatal error: ld terminated with signal 7 [Bus error]";
        assert!(ending(exit(1), bus).starts_with("judge error: the linker was killed"), "{}", ending(exit(1), bus));
        assert_eq!(ending(exit(1), "error[E0308]: mismatched types"), "finished, success false");
        assert_eq!(ending(exit(0), ""), "finished, success true");
        assert_eq!(ending(sys::SIGKILL, ""), "judge error: rustc was killed by signal 9");
        assert_eq!(ending(sys::SIGABRT, "thread panicked"), "judge error: rustc was killed by signal 6");
    }

    #[test]
    fn a_compilers_output_is_kept_whole_when_short_and_its_ends_when_long() {
        let short = "error[E0308]: mismatched types\n --> a.rs:1:1\n";
        assert_eq!(bounded(short.as_bytes()), short);
        let error = "error[E0308]: mismatched types\n --> src/a.rs:3:9\n  |\n3 |     x\n  |     ^ expected `u8`\n\n";
        let mut long = error.repeat(100_000);
        long.push_str("error: aborting due to 100000 previous errors\n");
        let kept = bounded(long.as_bytes());
        assert!(kept.len() < SAID_HEAD + SAID_TAIL + 100, "{} bytes kept", kept.len());
        assert!(kept.starts_with(error) && kept.ends_with("error: aborting due to 100000 previous errors\n"));
        let (head, rest) = kept.split_once("… ").unwrap();
        let (dropped, tail) = rest.split_once(" bytes of the compiler's output dropped …\n").unwrap();
        assert_eq!(head.len() + dropped.parse::<usize>().unwrap() + tail.len(), long.len(), "every byte counted");
        assert!(head.ends_with('\n') && long.starts_with(head), "the head is whole lines of the start");
        assert!(long.ends_with(&format!("\n{tail}")), "the tail is whole lines of the end");
    }

    #[test]
    fn a_remembered_failure_reads_back_as_it_was_written() {
        let error = CompileError::whole("compile memory limit: rustc ran out of its 8 GiB".into(), "LLVM\nsaid".into());
        match Remembered::read(&Remembered::Limit(error.clone()).text()) {
            Remembered::Limit(read) => assert_eq!(read, error),
            Remembered::Said(said) => panic!("read back as rustc's words: {said}"),
        }
        match Remembered::read(&Remembered::Said("error[E0308]: x\nlimit\n".into()).text()) {
            Remembered::Said(said) => assert_eq!(said, "error[E0308]: x\nlimit\n"),
            Remembered::Limit(read) => panic!("read back as a limit: {read:?}"),
        }
    }

    #[test]
    fn the_file_comes_first_and_its_lines_are_the_generated_lines() {
        let unit = Unit { source: "#![allow(dead_code)]\nimpl Solution {}".into(), shown: "solutions/x.rs".into() };
        let (source, lines, wrapping) = generate(&[&unit], Harness::Driver);
        assert!(source.starts_with("#![allow(dead_code)]\nimpl Solution {}\npub struct Solution;\n"), "{source}");
        assert_eq!(lines[0].text, 1..3);
        let at = |what: Wrapping| wrapping.iter().find(|w| w.2 == what).map(|w| w.0);
        let line = |n: usize| source.lines().nth(n - 1).unwrap_or("");
        assert_eq!(line(at(Wrapping::Solution).unwrap()), "pub struct Solution;");
        assert_eq!(line(at(Wrapping::Main).unwrap()), "fn main() {");
        assert!(line(at(Wrapping::Call).unwrap()).contains("Solution::stone_game_iii(v)"));
        // In a batch, each unit's text opens its own module, whose inner attributes it may hold.
        let (source, lines, _) = generate(&[&unit, &unit], Harness::Driver);
        assert_eq!(source.lines().nth(lines[1].text.start - 2), Some("mod __u1 {"));
        assert_eq!(source.lines().nth(lines[1].text.start - 1), Some("#![allow(dead_code)]"));
    }
}
