//! `judge watch`: the judge again every time a watched file is saved, as cargo-watch does for
//! a build. It looks at the files' size, inode and times ten times a second, waits for a burst
//! of writes to settle, and judges; a file that does not compile is a CE like any other, and
//! the watch goes on until Ctrl-C.

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

/// How often the files are looked at.
const LOOK: Duration = Duration::from_millis(50);
/// How long the files must stay the same before they are judged: an editor's save can be
/// several writes.
const SETTLE: Duration = Duration::from_millis(30);

/// What a file was when last looked at: enough to see any save.
type Seen = BTreeMap<PathBuf, (u64, u64, i64, i64)>;

pub fn run(args: &Args, invocation: &Invocation, out: &Out) -> Result<Exit, Stop> {
    let workspace = Workspace::find(args.cases_dir.as_deref()).map_err(SetupError::NoWorkspace)?;
    let mut judging = Invocation { command: Command::Judge, ..invocation.clone() };
    judging.flags.retain(|(flag, _)| flag.applies_to(Command::Judge));
    let named = !args.solutions.is_empty();
    let mut changed: Vec<String> = Vec::new();
    let mut seen = look(&watched(&workspace, args, named)?);
    loop {
        // Without names: every strategy file as it is now, a new attempt included.
        if !named {
            let catalog = Catalog::scan(&workspace).map_err(SetupError::Catalog)?;
            let strategies = catalog.strategies().into_iter().map(crate::cli::Value::Text);
            judging = judging.set(&flags::SOLUTION, strategies);
        }
        let mut judge_args = judging.args();
        judge_args.format = Format::Text;
        out.note(&render::watch::header(&changed, SystemTime::now()));
        match judge::run(&judge_args, &judging, out) {
            Ok(_) => {}
            Err(Stop::Closed) => return Err(Stop::Closed),
            Err(Stop::Error(error)) => drop(report_error(&error, Some(&judging), false, out)),
        }
        let watched = watched(&workspace, args, named)?;
        out.note(&render::watch::waiting(watched.len()));
        let now = wait_for_change(&watched, &seen);
        changed = changed_names(&seen, &now, &workspace.root);
        seen = now;
    }
}

/// The files a save of which is judged: the named solutions, else every file directly in
/// `solutions/`; and every stored case.
fn watched(workspace: &Workspace, args: &Args, named: bool) -> Result<Vec<PathBuf>, Stop> {
    let mut files = Vec::new();
    if named {
        let catalog = Catalog::scan(workspace).map_err(SetupError::Catalog)?;
        for name in &args.solutions {
            let submission = catalog.resolve(workspace, name).map_err(SetupError::Catalog)?;
            files.push(workspace.root.join(&submission.shown));
        }
    } else {
        let listed = fs::read_dir(&workspace.solutions).into_iter().flatten().flatten();
        files.extend(listed.map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "rs")));
    }
    files.push(workspace.cases.clone());
    Ok(files)
}

/// Every watched file as it is now; a folder stands for every file under it.
fn look(watched: &[PathBuf]) -> Seen {
    let mut seen = Seen::new();
    for path in watched {
        visit(path, &mut seen);
    }
    seen
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

/// Looks until something changes, then until it has stayed the same for `SETTLE`.
fn wait_for_change(watched: &[PathBuf], before: &Seen) -> Seen {
    loop {
        thread::sleep(LOOK);
        let now = look(watched);
        if now != *before {
            let mut settled = now;
            loop {
                thread::sleep(SETTLE);
                let again = look(watched);
                if again == settled {
                    return settled;
                }
                settled = again;
            }
        }
    }
}

/// The files that differ between two looks, relative to the workspace.
fn changed_names(before: &Seen, after: &Seen, root: &Path) -> Vec<String> {
    let mut names: Vec<String> = after
        .iter()
        .filter(|(path, seen)| before.get(*path) != Some(seen))
        .map(|(path, _)| path.strip_prefix(root).unwrap_or(path).display().to_string())
        .collect();
    let removed = before.keys().filter(|p| !after.contains_key(*p));
    names.extend(removed.map(|p| p.strip_prefix(root).unwrap_or(p).display().to_string()));
    names
}
