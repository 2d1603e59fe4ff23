//! `judge new NAME`: `solutions/NAME.rs` holding the empty method, never over a file that is
//! there, and the editor's project brought up to date, so rust-analyzer serves the file at once.

use std::fs::OpenOptions;
use std::io::{ErrorKind, Write as _};

use super::{Exit, Stop};
use crate::cli::Args;
use crate::judging::submissions::is_attempt_name;
use crate::judging::workbench::Setup;
use crate::out::Out;
use crate::problem::TEMPLATE;
use crate::render;
use crate::render::error::Error;

pub fn run(args: &Args, out: &Out) -> Result<Exit, Stop> {
    let workbench = super::open(&Setup { limits: None, ..super::setup(args) }, args, out)?;
    let given = &args.positional[0];
    let name = workbench.catalog.normalise(given);
    if !is_attempt_name(&name) {
        return Err(Error::NotAName { given: given.clone() }.into());
    }
    let path = workbench.workspace.solutions.join(format!("{name}.rs"));
    let created = OpenOptions::new().write(true).create_new(true).open(&path).and_then(|mut file| {
        file.write_all(TEMPLATE.as_bytes())?;
        file.sync_all()
    });
    match created {
        Err(e) if e.kind() == ErrorKind::AlreadyExists => return Err(Error::Exists { path, name }.into()),
        Err(error) => return Err(Error::Io { path, error }.into()),
        Ok(()) => {}
    }
    super::refresh_editor(&workbench, out);
    out.print(&render::attempt::created(&workbench.workspace.shown(&path), &name))?;
    Ok(Exit::Success)
}
