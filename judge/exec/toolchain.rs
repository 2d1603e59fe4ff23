//! Which compiler builds submissions: the real `rustc` of the toolchain cargo uses (`$RUSTC`,
//! else `rustc` on PATH), found through its sysroot so that rustup's proxy is not in every
//! build, beside `clippy-driver` when the toolchain has it, and `rustc -vV`. Asking costs tens
//! of milliseconds through rustup, so the answer is remembered under the cache folder, asked
//! again only when something that picks the compiler has changed.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::digest::Digest;
use super::files::{put_sealed, read_sealed};

/// The compiler a build runs.
#[derive(Clone, Debug)]
pub struct Toolchain {
    /// The sysroot's own `rustc`, or the command given when it has no sysroot binary.
    pub rustc: PathBuf,
    /// The sysroot's `clippy-driver`, when the toolchain has clippy.
    pub clippy_driver: Option<PathBuf>,
    /// The toolchain's root: rustc finds its libraries below it.
    pub sysroot: PathBuf,
    /// `rustc -vV`.
    pub version: String,
}

/// The toolchain `rustc` stands for. One answer per fingerprint: `cargo run` and a direct run
/// see different rustup variables, and each keeps its own.
pub fn find(rustc: &str, cache: &Path) -> io::Result<Toolchain> {
    let fingerprint = toolchain_fingerprint(rustc);
    let remembered = cache.join(format!("toolchain-{}", Digest::of(fingerprint.as_bytes()).hex()));
    let known = read_sealed(&remembered)
        .and_then(|t| String::from_utf8(t).ok())
        .and_then(|t| t.strip_prefix(&fingerprint).map(String::from));
    let (sysroot, version) = match known.as_deref().and_then(|t| t.split_once('\n')) {
        Some((sysroot, version)) if !version.is_empty() => (PathBuf::from(sysroot), version.to_string()),
        _ => {
            let sysroot = ask(Command::new(rustc).args(["--print", "sysroot"]))?.trim().to_string();
            let version = ask(Command::new(rustc).arg("-vV"))?;
            let _ = put_sealed(&remembered, format!("{fingerprint}{sysroot}\n{version}").as_bytes());
            (PathBuf::from(sysroot), version)
        }
    };
    let own = sysroot.join("bin").join("rustc");
    let clippy = sysroot.join("bin").join("clippy-driver");
    Ok(Toolchain {
        rustc: if own.is_file() { own } else { PathBuf::from(rustc) },
        clippy_driver: clippy.is_file().then_some(clippy),
        sysroot,
        version,
    })
}

fn ask(command: &mut Command) -> io::Result<String> {
    let output = command.output()?;
    if !output.status.success() {
        let said = String::from_utf8_lossy(&output.stderr).into_owned();
        return Err(io::Error::other(said.lines().next().unwrap_or("failed").to_string()));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// What decides which compiler `rustc` runs, as text: the program, PATH, the rustup settings
/// and toolchains (with each one's rustc's modification time), and the environment rustup
/// reads. Any change asks again.
fn toolchain_fingerprint(rustc: &str) -> String {
    let mut text = format!("rustc={rustc}\n");
    for var in ["PATH", "RUSTUP_TOOLCHAIN", "RUSTUP_HOME", "CARGO_HOME"] {
        text.push_str(&format!("{var}={}\n", std::env::var(var).unwrap_or_default()));
    }
    let modified = |path: &Path| fs::metadata(path).and_then(|m| m.modified()).ok();
    let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_default();
    let rustup = std::env::var_os("RUSTUP_HOME").map(PathBuf::from).unwrap_or_else(|| home.join(".rustup"));
    text.push_str(&format!("settings={:?}\n", modified(&rustup.join("settings.toml"))));
    let mut toolchains: Vec<PathBuf> = fs::read_dir(rustup.join("toolchains"))
        .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    toolchains.sort();
    for toolchain in toolchains {
        text.push_str(&format!("{}={:?}\n", toolchain.display(), modified(&toolchain.join("bin").join("rustc"))));
    }
    if Path::new(rustc).is_absolute() {
        text.push_str(&format!("program={:?}\n", modified(Path::new(rustc))));
    }
    text.push_str("--\n");
    text
}
