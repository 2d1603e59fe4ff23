//! `judge paste NAME`: the file exactly as it is pasted into LeetCode, on stdout, once it
//! compiles as LeetCode compiles it; what stops it, on stderr, and nothing on stdout, so
//! `judge paste x | xclip` never copies a file LeetCode would refuse. NAME is a solution's
//! name, or the path of a `.rs` file anywhere. A file that compiles is judged on the stored
//! cases, and the status line names those it fails; the file is printed all the same.

use std::io::IsTerminal;
use std::path::Path;

use super::{Exit, Stop};
use crate::cli::{flags, Args, Command, Format, Invocation, Value};
use crate::exec::limits;
use crate::judging::engine::Event;
use crate::judging::paste::{self, Problem};
use crate::judging::submissions;
use crate::judging::workbench::{Cases, Chosen, Setup, SetupError};
use crate::out::Out;
use crate::render;
use crate::render::error::Error;

pub fn run(args: &Args, out: &Out) -> Result<Exit, Stop> {
    let name = &args.positional[0];
    // A path names a file that may lie outside solutions/; it is read as it is.
    let path = name.contains('/') || name.ends_with(".rs");
    let named = if path { &[][..] } else { &args.positional[..1] };
    let setup =
        Setup { solutions: named, by_default: Chosen::Strategies, limits: None, strict: !path, ..super::setup(args) };
    // The stored cases too, and LeetCode's limits, to judge the file on them once it compiles;
    // without stored cases, paste goes on without them.
    let judging = Setup { cases: Cases::Stored(&[]), limits: Some(limits::DEFAULT), ..setup };
    let mut workbench = match super::open(&judging, args, out) {
        Err(Stop::Error(Error::Setup(SetupError::NoCases { .. } | SetupError::Cases(_)))) => {
            super::open(&setup, args, out)?
        }
        opened => opened?,
    };
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
    let stored = match problems.is_empty() && !workbench.cases.is_empty() {
        true => {
            workbench.submissions = vec![submission.clone()];
            let shown = submission.name.clone();
            let mut progress = |event: &Event| match event {
                Event::Running { case, .. } => out.running(|| Some(format!("judging {shown} on case {}", case + 1))),
                _ => out.running(|| None),
            };
            let stored = paste::on_stored_cases(&workbench, limits::DEFAULT, &mut progress);
            out.running(|| None);
            Some(stored)
        }
        false => None,
    };
    // The judge's command for the file, where the judge can name it.
    let judge = workbench
        .catalog
        .resolve(&workbench.workspace, name)
        .ok()
        .map(|s| Invocation::new(Command::Judge).set(&flags::SOLUTION, [Value::Text(s.name)]));
    // Not ready while it fails a stored case: the status says so whatever is printed.
    let exit = match stored.as_ref().is_some_and(|s| !s.accepted) {
        true => Exit::Failure,
        false => exit,
    };
    if args.format == Format::Json {
        let json =
            |exit| render::paste::json(&submission.shown, &problems, &submission.source, &about, stored.as_ref(), exit);
        return super::emit(out, args.format, exit, String::new, json);
    }
    let width = super::note_width(args, out);
    for problem in &problems {
        let rust = &about.leetcode_rust;
        out.note(&render::paste::problem("judge: ", &submission.shown, problem, rust, args.verbose, width));
    }
    if !problems.is_empty() {
        out.note(&format!("judge: {}", render::paste::compiler(&about)));
        super::compiler_notice(&about, args, out);
        return Ok(exit);
    }
    out.print(&submission.source)?;
    out.note(&render::paste::ready(&submission.shown, &about, stored.as_ref(), judge.as_ref(), width));
    super::compiler_notice(&about, args, out);
    // The status says ready (0) or not (1), whatever is done with the text.
    if !args.copy {
        return Ok(exit);
    }
    if !std::io::stdout().is_terminal() {
        out.note(render::paste::not_copied());
        return Ok(exit);
    }
    out.print(&render::paste::osc52(&submission.source))?;
    out.note(&render::paste::copied(super::note_width(args, out)));
    Ok(exit)
}
