//! Which compiler builds submissions: LeetCode's own version where rustup has it installed
//! (a toolchain named `1.85.0-…`, `1.85-…` or `1.85.1-…` for LeetCode's 1.85), else the real
//! `rustc` of the toolchain cargo uses (`$RUSTC`, else `rustc` on PATH), found through its
//! sysroot so that rustup's proxy is not in every build; beside it `clippy-driver` when the
//! toolchain has it, and `rustc -vV`. Asking costs tens of milliseconds through rustup, so
//! the answer is remembered in the cache, asked again only when something that picks the
//! compiler has changed.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::digest::Digest;
use super::files::Seal;

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
    /// Whether it is LeetCode's own version: its release is the version asked for.
    pub leetcode: bool,
    /// A toolchain of LeetCode's version rustup has without its standard library for the host
    /// (still being installed, or cut short), not used: its name.
    pub incomplete: Option<String>,
}

/// The one command that installs LeetCode's version `1.85` (as `1.85.0`) for the judge to use.
pub fn install_command(leetcode: &str) -> String {
    let full = if leetcode.split('.').count() == 2 { format!("{leetcode}.0") } else { leetcode.to_string() };
    format!("rustup toolchain install {full} --profile minimal")
}

/// The toolchain a build uses for LeetCode's Rust `leetcode`: rustup's toolchain of that
/// version if there is one (and `own` asks for it), else the one `rustc` stands for. One
/// answer per fingerprint: `cargo run` and a direct run see different rustup variables, and
/// each keeps its own.
pub fn find(rustc: &str, leetcode: &str, own: bool, cache: &Path, seal: &Seal) -> io::Result<Toolchain> {
    let (leetcode_rustc, incomplete) = if own { leetcode_toolchain(leetcode) } else { (None, None) };
    let program = leetcode_rustc.as_ref().map_or_else(|| rustc.to_string(), |p| p.display().to_string());
    let fingerprint = toolchain_fingerprint(&program, leetcode);
    let remembered = cache.join(format!("toolchain-{}", Digest::of(fingerprint.as_bytes()).hex()));
    let known = seal
        .read(&remembered)
        .and_then(|t| String::from_utf8(t).ok())
        .and_then(|t| t.strip_prefix(&fingerprint).map(String::from));
    let (sysroot, version) = match known.as_deref().and_then(|t| t.split_once('\n')) {
        Some((sysroot, version)) if !version.is_empty() => (PathBuf::from(sysroot), version.to_string()),
        _ => {
            let sysroot = ask(Command::new(&program).args(["--print", "sysroot"]))?.trim().to_string();
            let version = ask(Command::new(&program).arg("-vV"))?;
            let _ = seal.put(&remembered, format!("{fingerprint}{sysroot}\n{version}").as_bytes());
            (PathBuf::from(sysroot), version)
        }
    };
    let own = sysroot.join("bin").join("rustc");
    let clippy = sysroot.join("bin").join("clippy-driver");
    Ok(Toolchain {
        rustc: if own.is_file() { own } else { PathBuf::from(program) },
        clippy_driver: clippy.is_file().then_some(clippy),
        sysroot,
        leetcode: is_release(&version, leetcode),
        version,
        incomplete,
    })
}

/// Whether `rustc -vV` says release `leetcode`: `1.85` is any 1.85.x, `1.85.1` only itself.
fn is_release(version: &str, leetcode: &str) -> bool {
    let release = version.lines().find_map(|l| l.strip_prefix("release: ")).unwrap_or("").trim();
    release == leetcode || release.strip_prefix(leetcode).is_some_and(|rest| rest.starts_with('.'))
}

/// Where rustup keeps its toolchains.
fn rustup_home() -> PathBuf {
    let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_default();
    std::env::var_os("RUSTUP_HOME").map(PathBuf::from).unwrap_or_else(|| home.join(".rustup"))
}

/// The `rustc` of rustup's toolchain for `leetcode`, if one is installed whole: the newest
/// patch release of it, by the name rustup gave the toolchain
/// (`1.85.0-x86_64-unknown-linux-gnu`); beside it the name of a newer one that is not whole.
fn leetcode_toolchain(leetcode: &str) -> (Option<PathBuf>, Option<String>) {
    let patch = |name: &str| -> Option<u64> {
        let rest = name.strip_prefix(leetcode)?;
        match rest.strip_prefix('.') {
            Some(rest) if leetcode.split('.').count() == 2 => rest.split('-').next()?.parse().ok(),
            Some(_) => None,
            None => rest.starts_with('-').then_some(0),
        }
    };
    let Ok(listed) = fs::read_dir(rustup_home().join("toolchains")) else { return (None, None) };
    let mut found: Vec<(u64, String, PathBuf)> = listed
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            Some((patch(&name)?, name, e.path()))
        })
        .collect();
    found.sort();
    let (mut whole, mut incomplete) = (None, None);
    for (_, name, path) in found {
        match is_whole(&path, &name) {
            true => (whole, incomplete) = (Some(path.join("bin").join("rustc")), None),
            false => incomplete = Some(name),
        }
    }
    (whole, incomplete)
}

/// Whether the toolchain at `path`, named `1.85.0-<host>` by rustup, has its `rustc` and the
/// standard library for its host: rustup makes `bin/rustc` before it unpacks `std`.
fn is_whole(path: &Path, name: &str) -> bool {
    let Some((_, host)) = name.split_once('-') else { return false };
    let has_std = fs::read_dir(path.join("lib").join("rustlib").join(host).join("lib"))
        .map(|d| d.flatten().any(|e| e.file_name().to_string_lossy().starts_with("libstd-")))
        .unwrap_or(false);
    path.join("bin").join("rustc").is_file() && has_std
}

fn ask(command: &mut Command) -> io::Result<String> {
    let output = command.output()?;
    if !output.status.success() {
        let said = String::from_utf8_lossy(&output.stderr).into_owned();
        return Err(io::Error::other(said.lines().next().unwrap_or("failed").to_string()));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// What decides which compiler `rustc` runs, as text: the program, LeetCode's version, PATH,
/// the rustup settings and toolchains (with each one's rustc's modification time), and the
/// environment rustup reads. Any change asks again.
fn toolchain_fingerprint(rustc: &str, leetcode: &str) -> String {
    let mut text = format!("rustc={rustc}\nleetcode={leetcode}\n");
    for var in ["PATH", "RUSTUP_TOOLCHAIN", "RUSTUP_HOME", "CARGO_HOME"] {
        text.push_str(&format!("{var}={}\n", std::env::var(var).unwrap_or_default()));
    }
    let modified = |path: &Path| fs::metadata(path).and_then(|m| m.modified()).ok();
    let rustup = rustup_home();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_release_is_leetcodes_version_at_the_precision_given() {
        let said = |release: &str| format!("rustc {release} (4d91de4e4 2025-02-17)\nrelease: {release}\n");
        assert!(is_release(&said("1.85.0"), "1.85"));
        assert!(is_release(&said("1.85.1"), "1.85"));
        assert!(is_release(&said("1.85.1"), "1.85.1"));
        assert!(!is_release(&said("1.85.0"), "1.85.1"));
        assert!(!is_release(&said("1.850.0"), "1.85"));
        assert!(!is_release(&said("1.95.0"), "1.85"));
        assert_eq!(install_command("1.85"), "rustup toolchain install 1.85.0 --profile minimal");
        assert_eq!(install_command("1.74.1"), "rustup toolchain install 1.74.1 --profile minimal");
    }

    #[test]
    fn a_toolchain_is_whole_only_with_its_standard_library_for_its_host() {
        let dir = std::env::temp_dir().join(format!("judge-toolchain-{}", std::process::id()));
        let name = "1.85.0-x86_64-unknown-linux-gnu";
        let root = dir.join(name);
        fs::create_dir_all(root.join("bin")).unwrap();
        fs::write(root.join("bin/rustc"), "").unwrap();
        assert!(!is_whole(&root, name), "rustc alone, as rustup leaves it half-way");
        let lib = root.join("lib/rustlib/x86_64-unknown-linux-gnu/lib");
        fs::create_dir_all(&lib).unwrap();
        fs::write(lib.join("libcore-0a1b2c.rlib"), "").unwrap();
        assert!(!is_whole(&root, name), "no std yet");
        fs::write(lib.join("libstd-0a1b2c.rlib"), "").unwrap();
        assert!(is_whole(&root, name));
        assert!(!is_whole(&root, "1.85.0-aarch64-apple-darwin"), "std for another host");
        fs::remove_dir_all(&dir).unwrap();
    }
}
