//! `judge paste NAME`: the file exactly as it is pasted into LeetCode, on stdout, once it
//! compiles as LeetCode compiles it; what stops it, on stderr, and nothing on stdout, so
//! `judge paste x | xclip` never copies a file LeetCode would refuse.

use std::io::IsTerminal;

use super::{Exit, Stop};
use crate::cli::{Args, Format};
use crate::judging::paste;
use crate::judging::workbench::{Chosen, Setup};
use crate::out::Out;
use crate::render;

pub fn run(args: &Args, out: &Out) -> Result<Exit, Stop> {
    let bench = super::open(
        &Setup { solutions: &args.positional[..1], by_default: Chosen::Every, limits: None, ..super::setup(args) },
        out,
    )?;
    let Some(submission) = bench.submissions.first() else {
        let bad = bench.bad_submissions.into_iter().next().expect("a name was resolved or refused");
        return Err(crate::judging::workbench::SetupError::Catalog(bad).into());
    };
    let checked = paste::check(&bench.compiler, submission);
    let version = &args.leetcode_rust;
    if args.format == Format::Json {
        let exit = if checked.problems.is_empty() { Exit::Success } else { Exit::Failure };
        let json = |exit| render::paste::json(&submission.shown, &checked.problems, &submission.source, version, exit);
        return super::emit(out, args.format, exit, String::new, json);
    }
    for problem in &checked.problems {
        out.note(&format!("judge: {}", render::paste::problem(&submission.shown, problem, version, args.verbose)));
    }
    if !checked.problems.is_empty() {
        return Ok(Exit::Failure);
    }
    out.print(&submission.source)?;
    out.note(&render::paste::ready(&submission.shown, version, checked.version_checked));
    if !args.copy {
        return Ok(Exit::Success);
    }
    if !std::io::stdout().is_terminal() {
        out.note(render::paste::not_copied());
        return Ok(Exit::Failure);
    }
    out.print(&render::paste::osc52(&submission.source))?;
    out.note(render::paste::copied());
    Ok(Exit::Success)
}
