//! `judge paste NAME`: the file exactly as it is pasted into LeetCode, on stdout, once it
//! compiles as LeetCode compiles it; what stops it, on stderr, and nothing on stdout, so
//! `judge paste x | xclip` never copies a file LeetCode would refuse. NAME is a solution's
//! name, or the path of a `.rs` file anywhere.

use std::io::IsTerminal;
use std::path::Path;

use super::{Exit, Stop};
use crate::cli::{Args, Format};
use crate::judging::paste::{self, Problem};
use crate::judging::submissions;
use crate::judging::workbench::{Chosen, Setup, SetupError};
use crate::out::Out;
use crate::render;

pub fn run(args: &Args, out: &Out) -> Result<Exit, Stop> {
    let name = &args.positional[0];
    // A path names a file that may lie outside solutions/; it is read as it is.
    let path = name.contains('/') || name.ends_with(".rs");
    let named = if path { &[][..] } else { &args.positional[..1] };
    let setup =
        Setup { solutions: named, by_default: Chosen::Strategies, limits: None, strict: !path, ..super::setup(args) };
    let workbench = super::open(&setup, out)?;
    let submission = match (path, workbench.submissions.first()) {
        (false, Some(submission)) => submission.clone(),
        (false, None) => {
            let bad = workbench.bad_submissions.into_iter().next().expect("a name was resolved or refused");
            return Err(SetupError::Catalog(bad).into());
        }
        (true, _) => match workbench.catalog.resolve(&workbench.workspace, name) {
            Ok(submission) => submission,
            Err(_) => submissions::outside(Path::new(name)).map_err(SetupError::Catalog)?,
        },
    };
    let problems = paste::check(&workbench.compiler, &submission);
    let about = workbench.compiler.about();
    let unchecked = problems.iter().any(|p| matches!(p, Problem::Unchecked { .. }));
    let exit = match (problems.is_empty(), unchecked) {
        (true, _) => Exit::Success,
        (false, true) => Exit::Error,
        (false, false) => Exit::Failure,
    };
    if args.format == Format::Json {
        let json = |exit| render::paste::json(&submission.shown, &problems, &submission.source, &about, exit);
        return super::emit(out, args.format, exit, String::new, json);
    }
    for problem in &problems {
        let words = render::paste::problem(&submission.shown, problem, &about.leetcode_rust, args.verbose);
        out.note(&format!("judge: {words}"));
    }
    if !problems.is_empty() {
        out.note(&format!("judge: {}", render::paste::compiler(&about)));
        return Ok(exit);
    }
    out.print(&submission.source)?;
    out.note(&render::paste::ready(&submission.shown, &about));
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
