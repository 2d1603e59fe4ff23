//! Which compiler `rustc` is: `rustc -vV`, asked again only when something that picks the
//! compiler has changed, since through rustup it costs tens of milliseconds.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::digest::Digest;
use super::files::write_atomically;

/// `rustc -vV`'s output. One file per fingerprint: `cargo run` and a direct run see different
/// rustup variables, and each keeps its answer.
pub fn version(rustc: &str, cache: &Path) -> io::Result<String> {
    let fingerprint = toolchain_fingerprint(rustc);
    let remembered = cache.join(format!("rustc-version-{}", Digest::of(fingerprint.as_bytes()).hex()));
    if let Some(version) =
        fs::read_to_string(&remembered).ok().and_then(|t| t.strip_prefix(&fingerprint).map(String::from))
    {
        if !version.is_empty() {
            return Ok(version);
        }
    }
    let output = Command::new(rustc).arg("-vV").output()?;
    let version = String::from_utf8_lossy(&output.stdout).into_owned();
    if output.status.success() {
        let _ = write_atomically(&remembered, format!("{fingerprint}{version}").as_bytes());
    }
    Ok(version)
}

/// What decides which compiler `rustc` runs, as text: the program, PATH, the rustup settings
/// and toolchains (with each one's rustc's modification time), and the environment rustup
/// reads. Any change asks `rustc -vV` again.
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
