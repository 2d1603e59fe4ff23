//! The local judge for LeetCode 1406, Stone Game III. See `judge --help` and the README.

mod bench;
mod bench_report;
mod bless;
mod cases;
mod check;
mod child;
mod cli;
mod command;
mod counterexample;
mod custom;
mod error;
mod format;
mod frames;
mod generator;
mod json;
mod json_report;
mod manifest;
mod memory;
mod oracle;
mod registry;
mod report;
mod runner;
mod serve;
mod shrink;
mod stress;
mod style;
mod summary;
mod svg;
mod sweep;
mod verdict;
mod verify;
#[cfg(test)]
mod xml_check;

use std::process::ExitCode;
use std::time::Instant;

use cli::{Args, Command, Format};
use error::Error;

fn main() -> ExitCode {
    match try_main() {
        Ok(status) => ExitCode::from(status),
        Err(error) => {
            eprintln!("judge: {error}");
            ExitCode::from(2)
        }
    }
}

/// Runs the command and returns its exit status: 0 ok, 1 wrong verdicts, 2 judge error.
fn try_main() -> Result<u8, Error> {
    let args = cli::parse()?;
    match args.command {
        Command::Help => {
            print!("{}", cli::HELP);
            Ok(0)
        }
        Command::Judge => judge(&args),
        Command::Run => custom::run(&args),
        Command::Paste => {
            print!("{}", registry::find(&args.positional[0])?.source);
            Ok(0)
        }
        Command::Gen => gen(&args),
        Command::Bless => bless::run(&args.cases_dir),
        Command::Child => {
            let [name] = args.solutions.as_slice() else {
                return Err(Error::Usage("'judge child' needs one '--solution'".to_string()));
            };
            let entry = registry::find(name)?;
            Ok(serve::serve(entry, args.stack_mb))
        }
        Command::Stress => stress::run(&args),
        Command::Verify => verify::run(&args),
        Command::Bench => bench::run(&args),
        Command::BenchChild => bench::child(&args),
    }
}

fn judge(args: &Args) -> Result<u8, Error> {
    let start = Instant::now();
    let entries = registry::select(&args.solutions)?
        .into_iter()
        .map(|e| e.expected().map(|v| (e, v)))
        .collect::<Result<Vec<_>, _>>()?;
    let (cases, bad) = cases::load(&args.cases_dir, &args.case_patterns)?;
    if cases.is_empty() && bad.is_empty() {
        let filter =
            if args.case_patterns.is_empty() { String::new() } else { format!(" matching {:?}", args.case_patterns) };
        return Err(Error::Message(format!("no cases{filter} under {}", args.cases_dir.display())));
    }
    let limits = runner::Limits { time_limit: args.time_limit, stack_mb: args.stack_mb };
    let runs = runner::run_all(&entries, &cases, limits, args.jobs.unwrap_or(1));
    let default_dir = cli::Args::default().cases_dir;
    let session = summary::Session {
        cases: &cases,
        bad: &bad,
        runs: &runs,
        limits,
        wall: start.elapsed(),
        cases_arg: (args.cases_dir != default_dir).then(|| args.cases_dir.display().to_string()),
    };
    match args.format {
        Format::Text => print!("{}", report::render(&session, style::Style::new(args.color), args.verbose)),
        Format::Json => print!("{}", json_report::render(&session)),
    }
    Ok(session.exit_status())
}

fn gen(args: &Args) -> Result<u8, Error> {
    let missing = |what: &str| Error::Usage(format!("'judge gen' needs '{what}'"));
    let shape = *args.shapes.first().ok_or_else(|| missing("--shape"))?;
    let len = args.len.ok_or_else(|| missing("--len"))?;
    let seed = args.seed.ok_or_else(|| missing("--seed"))?;
    if args.shapes.len() > 1 {
        return Err(Error::Usage("'judge gen' takes one '--shape'".to_string()));
    }
    if len > format::MAX_LEN {
        return Err(Error::Usage(format!("'--len {len}' is over LeetCode's limit of {}", format::MAX_LEN)));
    }
    print!("{}", format::write_input(&generator::generate(shape, len, seed)));
    Ok(0)
}
