//! `judge watch`: the judge again every time a watched file is saved, as cargo-watch does for
//! a build. It follows the folder, not a list made at the start: twenty times a second it lists
//! `solutions/` (or looks at the named files) and the stored cases, by size, inode and times,
//! so a file created, renamed, removed or re-created is seen; it waits for a burst of writes to
//! settle, and judges. A named file that is gone (between an editor's delete and write, during
//! `git stash`) is waited for; a file that does not compile is a CE like any other; the watch
//! goes on until Ctrl-C.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::thread;
use std::time::{Duration, SystemTime};

use super::{judge, report_error, Exit, Stop};
use crate::cli::{flags, Args, Command, Format, Invocation};
use crate::judging::submissions::Catalog;
use crate::judging::workbench::SetupError;
use crate::judging::workspace::Workspace;
use crate::out::Out;
use crate::render;
use crate::render::watch::Saved;

/// How often the files are looked at.
const LOOK: Duration = Duration::from_millis(50);
/// How long the files must stay the same before they are judged: an editor's save can be
/// several writes.
const SETTLE: Duration = Duration::from_millis(30);

/// How often the page (`--html`) reloads itself while the watch rewrites it, in seconds.
const RELOAD: u32 = 1;

/// What a file was when last looked at: enough to see any save.
type Seen = BTreeMap<PathBuf, (u64, u64, i64, i64)>;

/// What is watched: the named solutions' files (which may be gone for a while), or every file
/// directly in `solutions/`; and the cases folder.
struct Watched {
    named: Vec<PathBuf>,
    solutions: PathBuf,
    cases: PathBuf,
}

pub fn run(args: &Args, invocation: &Invocation, out: &Out) -> Result<Exit, Stop> {
    let workspace = Workspace::find(args.cases_dir.as_deref()).map_err(SetupError::NoWorkspace)?;
    let mut judging = Invocation { command: Command::Judge, ..invocation.clone() };
    judging.flags.retain(|(flag, _)| flag.applies_to(Command::Judge));
    let watched = Watched {
        named: named_files(&workspace, &args.solutions)?,
        solutions: workspace.solutions.clone(),
        cases: workspace.cases.clone(),
    };
    let mut changed: Vec<Saved> = Vec::new();
    let mut seen = watched.look();
    loop {
        let gone: Vec<&PathBuf> = watched.named.iter().filter(|p| !seen.contains_key(*p)).collect();
        if gone.is_empty() {
            // Without names: every strategy file as it is now, a new one included.
            if watched.named.is_empty() {
                let catalog = Catalog::scan(&workspace).map_err(SetupError::Catalog)?;
                let strategies = catalog.strategies().into_iter().map(crate::cli::Value::Text);
                judging = judging.set(&flags::SOLUTION, strategies);
            }
            let mut judge_args = judging.args();
            judge_args.format = Format::Text;
            out.note(&render::watch::header(&changed, SystemTime::now()));
            match judge::run_with(&judge_args, &judging, out, Some(RELOAD)) {
                Ok(_) => {}
                Err(Stop::Closed) => return Err(Stop::Closed),
                Err(Stop::Error(error)) => drop(report_error(&error, Some(&judging), false, out)),
            }
            out.note(&render::watch::waiting(seen.keys().filter(|p| watched.is_solution(p)).count()));
        } else {
            let gone: Vec<String> = gone.iter().map(|p| shown(p, &workspace.root)).collect();
            out.note(&render::watch::gone(&gone));
        }
        let now = watched.wait_for_change(&seen);
        changed = changed_names(&seen, &now, &workspace.root);
        seen = now;
    }
}

/// The file of each named solution (a mutant's is its strategy's), each of which must exist
/// now; later it may be gone for a while.
fn named_files(workspace: &Workspace, names: &[String]) -> Result<Vec<PathBuf>, Stop> {
    let catalog = Catalog::scan(workspace).map_err(SetupError::Catalog)?;
    let mut files = Vec::new();
    for name in names {
        let submission = catalog.resolve(workspace, name).map_err(SetupError::Catalog)?;
        let file = workspace.root.join(&submission.shown);
        if !files.contains(&file) {
            files.push(file);
        }
    }
    Ok(files)
}

impl Watched {
    fn is_solution(&self, path: &Path) -> bool {
        !path.starts_with(&self.cases)
    }

    /// Every watched file as it is now; a folder stands for every file under it.
    fn look(&self) -> Seen {
        let mut seen = Seen::new();
        if self.named.is_empty() {
            let listed = fs::read_dir(&self.solutions).into_iter().flatten().flatten().map(|e| e.path());
            for path in listed.filter(|p| p.extension().is_some_and(|e| e == "rs")) {
                visit(&path, &mut seen);
            }
        }
        for path in &self.named {
            visit(path, &mut seen);
        }
        visit(&self.cases, &mut seen);
        seen
    }

    /// Looks until something changes, then until it has stayed the same for `SETTLE`.
    fn wait_for_change(&self, before: &Seen) -> Seen {
        loop {
            thread::sleep(LOOK);
            let now = self.look();
            if now != *before {
                let mut settled = now;
                loop {
                    thread::sleep(SETTLE);
                    let again = self.look();
                    if again == settled {
                        return settled;
                    }
                    settled = again;
                }
            }
        }
    }
}

fn visit(path: &Path, seen: &mut Seen) {
    let Ok(meta) = fs::symlink_metadata(path) else { return };
    if meta.is_dir() {
        for entry in fs::read_dir(path).into_iter().flatten().flatten() {
            visit(&entry.path(), seen);
        }
    } else {
        let modified = meta.mtime().saturating_mul(1_000_000_000).saturating_add(meta.mtime_nsec());
        seen.insert(path.to_path_buf(), (meta.ino(), meta.len(), modified, meta.ctime()));
    }
}

fn shown(path: &Path, root: &Path) -> String {
    path.strip_prefix(root).unwrap_or(path).display().to_string()
}

/// The files that differ between two looks, relative to the workspace: a file gone whose
/// inode reappears under another name was renamed.
fn changed_names(before: &Seen, after: &Seen, root: &Path) -> Vec<Saved> {
    let gone: Vec<&PathBuf> = before.keys().filter(|p| !after.contains_key(*p)).collect();
    let renamed_from = |path: &PathBuf| {
        let inode = after.get(path)?.0;
        gone.iter().copied().find(|g| before.get(*g).is_some_and(|seen| seen.0 == inode))
    };
    let mut changes = Vec::new();
    let mut moved = Vec::new();
    for path in after.keys().filter(|path| before.get(*path) != after.get(*path)) {
        match renamed_from(path).filter(|_| !before.contains_key(path)) {
            Some(from) => {
                moved.push(from);
                changes.push(Saved::Renamed { from: shown(from, root), to: shown(path, root) });
            }
            None => changes.push(Saved::File(shown(path, root))),
        }
    }
    changes.extend(gone.iter().filter(|g| !moved.contains(g)).map(|g| Saved::Removed(shown(g, root))));
    changes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_gone_whose_inode_reappears_was_renamed() {
        let root = Path::new("/w");
        let seen = |entries: &[(&str, u64)]| -> Seen {
            entries.iter().map(|(p, inode)| (root.join(p), (*inode, 10, 1, 1))).collect()
        };
        let before = seen(&[("solutions/second_try.rs", 7), ("solutions/old.rs", 8), ("solutions/kept.rs", 9)]);
        let after = seen(&[("solutions/third_try.rs", 7), ("solutions/kept.rs", 9), ("solutions/new.rs", 12)]);
        let changes = changed_names(&before, &after, root);
        assert_eq!(
            changes,
            [
                Saved::File("solutions/new.rs".into()),
                Saved::Renamed { from: "solutions/second_try.rs".into(), to: "solutions/third_try.rs".into() },
                Saved::Removed("solutions/old.rs".into()),
            ]
        );
    }
}
