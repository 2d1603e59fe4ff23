//! `judge bless`: every generated input made again from its MANIFEST line, every `.out` from
//! the oracle; `--check` writes nothing and exits 1 when anything would change.

use super::{emit, status, Exit, Stop};
use crate::cli::Args;
use crate::judging::bless;
use crate::judging::workbench::SetupError;
use crate::judging::workspace::Workspace;
use crate::out::Out;
use crate::render;

pub fn run(args: &Args, out: &Out) -> Result<Exit, Stop> {
    let workspace = Workspace::find(args.cases_dir.as_deref()).map_err(SetupError::NoWorkspace)?;
    let blessed = bless::bless(&workspace.cases, args.check).map_err(SetupError::Cases)?;
    let exit = status(!blessed.broken.is_empty(), args.check && !blessed.changes.is_empty());
    let root = Some(workspace.root.as_path());
    emit(out, args.format, exit, || render::bless::text(&blessed, root), |e| render::bless::json(&blessed, e, root))
}
