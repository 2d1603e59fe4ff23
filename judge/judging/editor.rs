//! The project an editor's rust-analyzer reads for the solution files (README, "Your
//! editor"): a crate per file of `solutions/` and `solutions/wrong/`, listed in
//! `target/editor/rust-project.json`. Each crate's root, generated beside that list, gives
//! its file what LeetCode's wrapping gives it, a `pub struct Solution;` of its own (through
//! the crate's prelude, the way `core` declares its own), and reaches the file as a module:
//! the file stays exactly what is pasted, and completion, hover, go to definition and type
//! errors work in it. A crate per file rather than a module per file in one crate: a shared
//! `Solution` would make two files' `pub fn helper` one ambiguous name, and rust-analyzer
//! then resolves neither. Cargo never reads any of it, so no build compiles an attempt.
//!
//! The list holds more crates than there are files: the spare ones have empty roots, and a
//! new file takes the next one by a change to a root alone. rust-analyzer reloads its whole
//! workspace when the list changes, and a reload drops the diagnostics of the check that was
//! running; a changed root it only reads again. So the first save of a new file shows its
//! verdict, and the list changes only when the spare crates run out.
//!
//! The place is fixed, not under `$JUDGE_CACHE`: editor settings name it. A file is written
//! only when its text changes.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::workspace::Workspace;
use crate::exec::files::write_atomically;

/// Where the project is, under the workspace.
pub const FOLDER: &str = "target/editor";
/// The list of crates rust-analyzer is pointed at.
pub const PROJECT: &str = "rust-project.json";
/// The list grows and shrinks in steps of this many crates, and keeps at least this many spare.
const SPARE: usize = 16;

/// One crate of the project: its generated root, and the solution file it holds, if any.
pub struct Slot {
    pub root: PathBuf,
    pub file: Option<PathBuf>,
}

pub struct Project {
    pub folder: PathBuf,
    /// The standard library's sources, which rust-analyzer reads for `Vec`, `String`…
    pub library: PathBuf,
    pub edition: &'static str,
    /// The folders every crate's files lie in: the roots' and the solutions'. A module file
    /// must lie among the folders of the crate that declares it.
    pub folders: [PathBuf; 2],
    /// The k-th solution in name order is in the k-th slot; the rest are spare.
    pub slots: Vec<Slot>,
}

/// The standard library's sources an editor reads: the build's toolchain's (LeetCode's own
/// Rust, when it is installed, so that completion offers only what LeetCode has), or, where
/// that toolchain has none (rustup's minimal profile leaves them out), those of rustup's
/// default toolchain beside it, else of any toolchain beside it that has them. Read from
/// rustup's folders, not by running rustc: this runs on every save.
fn library(sysroot: &Path) -> PathBuf {
    let within = |root: &Path| root.join("lib/rustlib/src/rust/library");
    if within(sysroot).is_dir() {
        return within(sysroot);
    }
    let Some(toolchains) = sysroot.parent() else { return within(sysroot) };
    let settings = toolchains.parent().map(|home| home.join("settings.toml"));
    let default = settings.and_then(|s| std::fs::read_to_string(s).ok()).and_then(|text| {
        let line = text.lines().find_map(|l| l.trim().strip_prefix("default_toolchain"))?;
        Some(line.trim_start().strip_prefix('=')?.trim().trim_matches('"').to_string())
    });
    let mut beside: Vec<PathBuf> =
        std::fs::read_dir(toolchains).into_iter().flatten().flatten().map(|e| e.path()).collect();
    beside.sort();
    let chosen = beside
        .iter()
        .find(|t| default.as_deref().is_some_and(|d| t.file_name().is_some_and(|n| n.to_string_lossy().starts_with(d))))
        .filter(|t| within(t).is_dir())
        .or_else(|| beside.iter().find(|t| within(t).is_dir()));
    chosen.map_or_else(|| within(sysroot), |t| within(t))
}

impl Project {
    /// The project for the named solutions (`Catalog::names`), with the toolchain at `sysroot`.
    pub fn new(workspace: &Workspace, names: &[String], sysroot: &Path, edition: &'static str) -> Project {
        let folder = workspace.root.join(FOLDER);
        let mut files: Vec<PathBuf> = names.iter().map(|n| workspace.solutions.join(format!("{n}.rs"))).collect();
        files.sort();
        let count = (files.len() / SPARE + 2) * SPARE;
        let slots = (0..count)
            .map(|k| Slot { root: folder.join(format!("crate{k:03}.rs")), file: files.get(k).cloned() })
            .collect();
        Project {
            library: library(sysroot),
            edition,
            folders: [folder.clone(), workspace.solutions.clone()],
            folder,
            slots,
        }
    }

    pub fn list(&self) -> PathBuf {
        self.folder.join(PROJECT)
    }
}

/// Writes each file whose text differs from what is there and removes the roots of crates
/// the project no longer has; says whether anything changed.
pub fn write(project: &Project, files: &[(PathBuf, String)]) -> io::Result<bool> {
    let mut changed = false;
    for (path, text) in files {
        if fs::read(path).ok().as_deref() == Some(text.as_bytes()) {
            continue;
        }
        fs::create_dir_all(&project.folder)?;
        write_atomically(path, text.as_bytes())?;
        changed = true;
    }
    for entry in fs::read_dir(&project.folder).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "rs") && !files.iter().any(|(p, _)| *p == path) {
            fs::remove_file(&path)?;
            changed = true;
        }
    }
    Ok(changed)
}
