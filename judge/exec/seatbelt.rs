//! macOS's sandbox for a child outside Linux's namespaces: a Seatbelt profile, applied by
//! `sandbox-exec` as it execs the program (the same process, so the judge's readings of it
//! hold). The profile denies starting a process, the network, and reading any file's data but
//! the program's own, its folder's and the system's libraries. `sandbox-exec` is deprecated
//! and may go, so the judge first runs a probe child of its own under the profile (`probe`)
//! and uses it only where that child ends well.

use std::path::Path;
#[cfg(target_os = "macos")]
use std::process::{Command, Stdio};

/// Where macOS keeps it.
pub const SANDBOX_EXEC: &str = "/usr/bin/sandbox-exec";

/// What every program reads to start and run: the dynamic linker's shared cache, the system's
/// libraries and frameworks, the devices (`/dev/null`, `/dev/urandom`).
const SYSTEM: [&str; 6] = ["/usr/lib", "/System", "/Library/Apple", "/private/var/db/dyld", "/dev", "/private/etc"];

/// The profile for `program` working in `folder`, in Seatbelt's language (SBPL).
pub fn profile(folder: &Path, program: &Path) -> String {
    let mut readable: Vec<String> = SYSTEM.iter().map(|s| format!("(subpath {})", quoted(Path::new(s)))).collect();
    readable.push(format!("(subpath {})", quoted(folder)));
    readable.push(format!("(literal {})", quoted(program)));
    format!(
        "(version 1)\n(allow default)\n(deny process-fork)\n(deny network*)\n\
         (deny file-read-data (require-not (require-any {})))\n",
        readable.join(" ")
    )
}

/// The profile for `program` in `folder`, each named by its real path: Seatbelt matches the
/// path a link resolves to (macOS's temporary folders are under `/var`, a link to
/// `/private/var`).
pub fn profile_resolved(folder: &Path, program: &Path) -> String {
    let real = |path: &Path| std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    profile(&real(folder), &real(program))
}

/// A path as an SBPL string.
fn quoted(path: &Path) -> String {
    let text = path.to_string_lossy();
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

/// Whether a child runs under the profile here: `/usr/bin/true`, working in `folder`, must
/// end well under it.
#[cfg(target_os = "macos")]
pub fn probe(folder: &Path) -> std::io::Result<()> {
    let program = Path::new("/usr/bin/true");
    let status = Command::new(SANDBOX_EXEC)
        .arg("-p")
        .arg(profile_resolved(folder, program))
        .arg(program)
        .current_dir(folder)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()?;
    match status.success() {
        true => Ok(()),
        false => Err(std::io::Error::other(format!("a child under it ended with {status}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_profile_denies_processes_the_network_and_reads_outside_its_folder() {
        let text = profile(Path::new("/tmp/judge-1/cwd"), Path::new("/w/target/judge/bin/a \"b\""));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[..4], ["(version 1)", "(allow default)", "(deny process-fork)", "(deny network*)"]);
        let reads = lines[4];
        assert!(reads.starts_with("(deny file-read-data (require-not (require-any "), "{reads}");
        for readable in ["(subpath \"/usr/lib\")", "(subpath \"/System\")", "(subpath \"/tmp/judge-1/cwd\")"] {
            assert!(reads.contains(readable), "{readable} in {reads}");
        }
        assert!(reads.contains(r#"(literal "/w/target/judge/bin/a \"b\"")"#), "the program, quoted: {reads}");
        assert!(!reads.contains("/Users") && !reads.contains("(subpath \"/\")"), "nothing else: {reads}");
        assert_eq!(text.matches('(').count(), text.matches(')').count(), "balanced: {text}");
    }
}
