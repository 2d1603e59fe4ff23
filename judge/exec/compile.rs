//! Compiling submissions the way LeetCode does: `pub struct Solution;`, then the file, then a
//! `main` that hands the method to a driver the judge owns, built by the rustc cargo uses
//! (`$RUSTC`, else `rustc` on PATH), edition 2021, optimised, overflow checks off. `pub struct
//! Solution;` shares the file's first line, so a compiler error or a panic points at the
//! file's own line numbers. The driver is a library built once and linked into every binary.
//!
//! Builds are cached under the cache folder, named by a digest of the whole generated source,
//! the driver, the compiler's version and the flags: only what changed is rebuilt, and a file
//! that does not compile is not compiled again until it changes.
//!
//! A batch build puts many units (mutants) in one binary, each in its own module, and drops
//! the ones the compiler rejects until the rest compile.

use std::fs;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use super::diagnose::{diagnose, first_headline, CompileError, SourceMap};
use super::digest::Hasher;
use super::files::{unique, write_atomically};
use super::toolchain;
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

struct Layout {
    source: String,
    map: SourceMap,
    key: String,
    remap: Option<String>,
}

/// Why the compiler could not be used at all.
#[derive(Debug)]
pub enum CompilerMissing {
    NotFound { program: String, error: io::Error },
    Cache { path: PathBuf, error: io::Error },
}

pub struct Compiler {
    rustc: String,
    version: String,
    cache: PathBuf,
    /// The driver library, built on first use by whichever thread needs it first.
    driver: OnceLock<Result<PathBuf, String>>,
}

/// The judge's own modules that go into every submission's binary.
const DRIVER: [(&str, &str); 3] =
    [("sys", include_str!("sys.rs")), ("wire", include_str!("wire.rs")), ("driver", include_str!("driver.rs"))];

/// LeetCode's build: edition 2021, optimised, overflow checks off; the driver library gets
/// the same code generation.
const CODEGEN: [&str; 9] = [
    "--edition=2021",
    "-Copt-level=2",
    "-Coverflow-checks=off",
    "-Cdebug-assertions=off",
    "-Cpanic=unwind",
    "--cap-lints=allow",
    "--color=never",
    "--error-format=human",
    "-Cdebuginfo=0",
];
const BINARY: [&str; 3] = ["--crate-type=bin", "--crate-name=submission", "-Cstrip=symbols"];

/// The driver is built once, as a library every submission links, rather than compiled into
/// every binary again (the README's "where the time goes" has the figures).
const DRIVER_CRATE: &str = "judge_driver";

fn driver_source() -> String {
    let mut source = format!("#![allow(dead_code, unused, clippy::all)]\npub type Solve = {};\n", problem::FN_TYPE);
    for (name, text) in DRIVER {
        source.push_str(&format!("pub mod {name} {{\n{text}}}\n"));
    }
    source
}

impl Compiler {
    /// Finds the compiler and prepares the cache folder.
    pub fn new(cache: &Path) -> Result<Compiler, CompilerMissing> {
        let rustc = std::env::var("RUSTC").ok().filter(|r| !r.is_empty()).unwrap_or_else(|| "rustc".to_string());
        for folder in ["src", "bin", "lib"] {
            let path = cache.join(folder);
            fs::create_dir_all(&path).map_err(|error| CompilerMissing::Cache { path, error })?;
        }
        let version = toolchain::version(&rustc, cache)
            .map_err(|error| CompilerMissing::NotFound { program: rustc.clone(), error })?;
        Ok(Compiler { rustc, version, cache: cache.to_path_buf(), driver: OnceLock::new() })
    }

    /// `rustc 1.95.0 (59807616e 2026-04-14)`.
    pub fn version(&self) -> &str {
        self.version.lines().next().unwrap_or("rustc")
    }

    /// One submission, alone in its binary, exactly as LeetCode lays it out.
    pub fn build(&self, unit: &Unit) -> io::Result<Result<Binary, CompileError>> {
        let batch = self.build_batch(std::slice::from_ref(unit))?;
        Ok(match (batch.errors.into_iter().next().flatten(), batch.binary) {
            (None, Some(binary)) => Ok(binary),
            (error, _) => Err(error.unwrap_or_else(|| CompileError {
                headline: "the build produced no binary".to_string(),
                place: None,
                signature: false,
            })),
        })
    }

    /// The generated source of `chosen`, its map, and the name its build is cached under.
    fn layout(&self, chosen: &[&Unit]) -> io::Result<Layout> {
        let (source, units_at, entries) = generate(chosen);
        let mut key = Hasher::new();
        key.write(source.as_bytes()).write(self.version.as_bytes()).write(self.driver()?.as_os_str().as_bytes());
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
            [unit] => Some(format!("--remap-path-prefix={}={}", generated.display(), unit.shown)),
            _ => None,
        };
        let map = SourceMap { generated, units: units_at, entries, remapped: remap.is_some() };
        Ok(Layout { source, map, key, remap })
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
            let Layout { source, map, key, remap } = self.layout(&chosen)?;
            let binary = self.cache.join("bin").join(&key);
            if binary.exists() {
                return Ok(Batch { errors, binary: Some(Binary { path: binary, map }) });
            }
            let failure = self.cache.join("bin").join(format!("{key}.ce"));
            let stderr = match fs::read_to_string(&failure) {
                Ok(cached) => cached,
                Err(_) => match self.rustc(&source, &map.generated, &binary, remap.as_deref())? {
                    None => return Ok(Batch { errors, binary: Some(Binary { path: binary, map }) }),
                    Some(stderr) => {
                        write_atomically(&failure, stderr.as_bytes())?;
                        stderr
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
                let headline = first_headline(&stderr).unwrap_or_else(|| stderr.trim().to_string());
                for i in alive {
                    errors[i] = Some(CompileError { headline: headline.clone(), place: None, signature: false });
                }
                return Ok(Batch { errors, binary: None });
            }
        }
    }

    /// Type-checks one unit as LeetCode lays it out, in another edition, without building.
    pub fn check(&self, unit: &Unit, edition: &str) -> io::Result<Result<(), CompileError>> {
        let mut source = format!("pub struct Solution; {}", unit.source);
        source.push_str(&format!("\nfn main() {{ let _: {} = Solution::{}; }}\n", problem::FN_TYPE, problem::METHOD));
        let key = Hasher::new()
            .write(source.as_bytes())
            .write(edition.as_bytes())
            .write(self.version.as_bytes())
            .finish()
            .hex();
        let path = self.cache.join("src").join(format!("check-{key}.rs"));
        // A file that passed is not checked again until it, the edition or the compiler changes.
        let passed = self.cache.join("bin").join(format!("check-{key}.ok"));
        if passed.exists() {
            return Ok(Ok(()));
        }
        write_atomically(&path, source.as_bytes())?;
        let output = Command::new(&self.rustc)
            .arg(format!("--edition={edition}"))
            .args(["--crate-type=bin", "--crate-name=paste", "--emit=metadata", "--color=never", "--cap-lints=allow"])
            .arg("-o")
            .arg(self.cache.join("src").join(format!("check-{key}.rmeta")))
            .arg(&path)
            .output()?;
        if output.status.success() {
            write_atomically(&passed, b"")?;
            return Ok(Ok(()));
        }
        let stderr = String::from_utf8_lossy(&output.stderr);
        let map = SourceMap {
            generated: path,
            units: vec![(1, unit.source.lines().count(), unit.shown.clone())],
            entries: vec![],
            remapped: false,
        };
        Ok(Err(diagnose(&stderr, &map).into_iter().next().map(|(_, e)| e).unwrap_or_else(|| CompileError {
            headline: first_headline(&stderr).unwrap_or_default(),
            place: None,
            signature: true,
        })))
    }

    /// Runs rustc; `Ok(None)` when the binary was written, `Ok(Some(stderr))` when it failed.
    fn rustc(&self, source: &str, path: &Path, binary: &Path, remap: Option<&str>) -> io::Result<Option<String>> {
        write_atomically(path, source.as_bytes())?;
        let partial = binary.with_extension(format!("part{}-{}", std::process::id(), unique()));
        let mut extern_driver = std::ffi::OsString::from(format!("{DRIVER_CRATE}="));
        extern_driver.push(self.driver()?);
        let mut command = Command::new(&self.rustc);
        command.args(CODEGEN).args(BINARY).arg("--extern").arg(extern_driver).args(remap);
        let output = command.arg("-o").arg(&partial).arg(path).output()?;
        if output.status.success() {
            fs::rename(&partial, binary)?;
            return Ok(None);
        }
        let _ = fs::remove_file(&partial);
        Ok(Some(String::from_utf8_lossy(&output.stderr).into_owned()))
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
        key.write(source.as_bytes()).write(self.version.as_bytes());
        for flag in CODEGEN {
            key.write(flag.as_bytes());
        }
        let key = key.finish().hex();
        let folder = self.cache.join("lib").join(&key);
        let library = folder.join(format!("lib{DRIVER_CRATE}.rlib"));
        if library.exists() {
            return Ok(library);
        }
        fs::create_dir_all(&folder)?;
        let path = self.cache.join("src").join(format!("driver-{key}.rs"));
        write_atomically(&path, source.as_bytes())?;
        // rustc keeps its object files beside the output: each build gets a folder of its own,
        // so two judges building at once do not clobber each other's.
        let scratch = folder.join(format!("build-{}-{}", std::process::id(), unique()));
        fs::create_dir_all(&scratch)?;
        let partial = scratch.join(format!("lib{DRIVER_CRATE}.rlib"));
        let output = Command::new(&self.rustc)
            .args(CODEGEN)
            .args(["--crate-type=rlib", &format!("--crate-name={DRIVER_CRATE}")])
            .arg("-o")
            .arg(&partial)
            .arg(&path)
            .output();
        let built = match output {
            Ok(output) if output.status.success() => fs::rename(&partial, &library),
            Ok(output) => Err(io::Error::other(String::from_utf8_lossy(&output.stderr).into_owned())),
            Err(e) => Err(e),
        };
        let _ = fs::remove_dir_all(&scratch);
        built.map(|()| library)
    }
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
    out.push("fn main() {");
    out.push(&format!("let solutions: [{DRIVER_CRATE}::Solve; {}] = [", units.len()));
    for i in 0..units.len() {
        let path = if single { String::new() } else { format!("__u{i}::") };
        entries.push(out.push(&format!("{path}Solution::{},", problem::METHOD)));
    }
    out.push(&format!("];\n{DRIVER_CRATE}::driver::main(&solutions);\n}}"));
    (out.source, at, entries)
}
