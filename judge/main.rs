//! The local judge for LeetCode 1406, Stone Game III. `main` parses the command line, hands it
//! to its command, and turns how that ended into an exit status: 0 as expected, 1 a failure
//! found, 2 a judge error. A closed stdout ends quietly.

mod bench;
mod cli;
mod commands;
mod exec;
mod judging;
mod out;
mod parallel;
mod problem;
mod render;
mod search;

use std::process::ExitCode;

use commands::{Exit, Stop};
use out::Out;

/// Ctrl-C or SIGTERM: every child killed at once, the progress line cleared, and the exit
/// status a shell expects (128 + the signal).
extern "C" fn interrupted(signal: std::os::raw::c_int) {
    out::clear_from_handler();
    exec::child::kill_all();
    exec::sys::exit_now(128 + signal);
}

fn main() -> ExitCode {
    let _ = exec::sys::on_signals(&[exec::sys::SIGINT, exec::sys::SIGTERM], interrupted);
    let out = Out::new();
    let words: Vec<String> = std::env::args().skip(1).collect();
    if words == ["--version"] || words == ["-V"] {
        // A closed pipe is no error here, as for every report.
        let _ = out.print(&render::help::version());
        return ExitCode::from(Exit::Success as u8);
    }
    let exit = match cli::parse_from(words.clone()) {
        Ok(invocation) => match commands::run(&invocation, &out) {
            Ok(exit) => exit,
            Err(Stop::Closed) => Exit::Success,
            Err(Stop::Error(error)) => commands::report_error(&error, Some(&invocation), cli::wants_json(words), &out),
        },
        Err(usage) => commands::report_error(&usage.into(), None, cli::wants_json(words), &out),
    };
    out.clear();
    ExitCode::from(exit as u8)
}
