//! `judge run`, like LeetCode's Run button: testcases typed in, one per line (from the command
//! line, a file or stdin), through the strategies or the named solutions, every solution on
//! every testcase; each gets the oracle's answer, and each solution's verdict, answer, time,
//! memory and output is shown. `--plain` prints one line per testcase, as a program would.

use std::io::{self, IsTerminal, Read};
use std::path::PathBuf;

use super::{emit, status, Exit, Stop};
use crate::cli::{Args, Invocation};
use crate::judging::engine::Plan;
use crate::judging::report::{first_failure, Report};
use crate::judging::verdict::Verdict;
use crate::judging::workbench::{Cases, Setup};
use crate::out::Out;
use crate::problem::format;
use crate::render;
use crate::render::error::Error;
use crate::render::run::Typed;
use crate::render::style::Style;

pub fn run(args: &Args, invocation: &Invocation, out: &Out) -> Result<Exit, Stop> {
    let inputs = testcases(args, invocation, out)?;
    if args.plain && args.solutions.len() != 1 {
        return Err(Error::PlainNeedsOne.into());
    }
    let start = std::time::Instant::now();
    let workbench =
        super::open(&Setup { cases: Cases::Given(&inputs), strict: false, ..super::setup(args) }, args, out)?;
    let workbench = super::judge::something_to_judge(workbench)?;
    let plan = Plan {
        submissions: &workbench.submissions,
        cases: &workbench.cases,
        limits: workbench.limits(),
        jobs: 1,
        fail_fast: false,
        all_failures: true,
        every_case: true,
        stop_after: 1,
        alone: true,
    };
    // Like the judge, run warns of standard library items newer than LeetCode's Rust, and, where
    // the compiler is not LeetCode's own, of what that leaves out.
    let (judged, newer) = super::judge_and_newer(&workbench, &plan, &mut |_| {});
    if !args.plain {
        super::compiler_notice(&workbench.compiler.about(), args, out);
    }
    let report = Report::new(workbench, judged, newer, &args.solutions, false, start.elapsed());
    if args.plain {
        let (lines, notes) = render::run::plain(&report);
        out.print(&lines)?;
        notes.iter().for_each(|note| out.note(note));
        // As a program that crashed exits non-zero; a wrong answer is still an answer.
        return Ok(if notes.is_empty() { Exit::Success } else { Exit::Failure });
    }
    let all_right = report.cards.iter().all(|r| first_failure(r) == Some(Verdict::Ac));
    let exit = status(report.has_judge_errors(), !all_right);
    let from = match &args.file {
        Some(file) => Typed::File(file.to_str().unwrap_or_default()),
        None => Typed::ByHand,
    };
    let (style, width) = (Style::new(args.color), super::judge::width(args, out));
    let text =
        || render::run::text(&report, style, width, from, invocation) + &render::judge_text::newer(&report, width);
    emit(out, args.format, exit, text, |e| render::run::json(&report, e))
}

/// The testcases: of `--file`, of the arguments, or of stdin (also for `-`), which on a
/// terminal is said to be waited for. A mistake is placed in its file, its argument
/// (`argument 2:1:4` when there are several) or stdin.
fn testcases(args: &Args, invocation: &Invocation, out: &Out) -> Result<Vec<Vec<i32>>, Error> {
    let parse =
        |text: &str, origin: String| format::parse_testcases(text).map_err(|error| Error::Input { origin, error });
    if let Some(path) = &args.file {
        let text = crate::judging::cases::read_case_file(path).map_err(|problem| Error::Case { problem })?;
        return parse(&text, path.display().to_string());
    }
    match args.positional.first() {
        Some(text) if text != "-" => {
            let several = args.positional.len() > 1;
            let mut inputs = Vec::new();
            for (k, text) in args.positional.iter().enumerate() {
                let origin = if several { format!("argument {}", k + 1) } else { "input".to_string() };
                inputs.extend(parse(text, origin)?);
            }
            Ok(inputs)
        }
        _ => {
            if io::stdin().is_terminal() {
                out.note(&render::run::reading_stdin(invocation, super::judge::width(args, out)));
            }
            let mut text = String::new();
            io::stdin()
                .read_to_string(&mut text)
                .map_err(|error| Error::Io { path: PathBuf::from("<stdin>"), error })?;
            parse(&text, "<stdin>".to_string())
        }
    }
}
