//! The help text, made from the command table and the flag table, so every flag is defined
//! once and documented where it is defined.

use std::fmt::Write as _;

use crate::cli::{flags, Command, Kind, COMMANDS};
use crate::exec::limits::OUTPUT_LIMIT;
use crate::judging::mutate::Operator;
use crate::problem::generator::Shape;

fn flag_lines(command: Command, out: &mut String) {
    let rows: Vec<(String, &flags::Flag)> =
        flags::of(command).map(|f| (format!("{} {}", f.name, f.placeholder).trim_end().to_string(), f)).collect();
    let width = rows.iter().map(|(left, _)| left.chars().count()).max().unwrap_or(0);
    for (left, flag) in rows {
        let mut line = format!("  {left:width$}  {}", flag.help);
        // The values the generator and the mutation code know, from their own tables.
        let values: Vec<&str> = match flag.kind {
            Kind::Shape => Shape::ALL.iter().map(|s| s.name()).collect(),
            Kind::Operator => Operator::ALL.iter().map(|o| o.name()).collect(),
            _ => Vec::new(),
        };
        if !values.is_empty() {
            let _ = write!(line, ": {}", values.join(", "));
        }
        if flag.repeats.contains(&command) {
            line.push_str(" (repeatable)");
        }
        if let Some(default) = flag.default_for(command) {
            let _ = write!(line, " [default: {default}]");
        }
        let _ = writeln!(out, "{line}");
    }
}

/// `judge help`: every command, then the limits and exit statuses.
pub fn overview() -> String {
    let mut out = String::from(
        "judge: a local judge for LeetCode 1406, Stone Game III\n\nusage: judge [COMMAND] [OPTIONS]\n\ncommands:\n",
    );
    let name = |spec: &crate::cli::Spec| match spec.word.is_empty() {
        true => "(none)".to_string(),
        false => format!("{} {}", spec.word, spec.args).trim_end().to_string(),
    };
    let width = COMMANDS.iter().map(|s| name(s).chars().count()).max().unwrap_or(0) + 2;
    for spec in COMMANDS {
        let _ = writeln!(out, "  {:width$}{}", name(spec), spec.about);
    }
    let _ = writeln!(out, "\noptions of judging (no command):");
    flag_lines(Command::Judge, &mut out);
    out.push_str(&limits());
    out.push_str("\n'judge help COMMAND' or 'judge COMMAND --help' shows a command's options and an example.\n");
    out
}

fn limits() -> String {
    format!(
        "\nverdicts, first one wins: CE (does not compile), TLE, MLE, OLE, RE, WA, AC. Each solution is\n\
         compiled on its own (edition {}, optimised, overflow checks off) and runs in its own process:\n\
         the judge stops a call at the time limit by the kernel's count of it, watches its memory, and allows {}\n\
         per stream of output per call.\n\
         exit status: 0 every solution got its expected verdict (or nothing failed), 1 one did not\n\
         (or a counterexample was found), 2 a judge error (a bad flag, case file, or changed stored data)\n",
        crate::problem::leetcode::EDITION,
        super::units::bytes(OUTPUT_LIMIT)
    )
}

/// `judge help COMMAND`: its usage, what it does, its flags with their defaults, an example.
pub fn command(command: Command) -> String {
    let spec = command.spec();
    let mut out = format!("usage: judge {} [OPTIONS] {}\n\n{}\n", spec.word, spec.args, spec.about).replace("  ", " ");
    if flags::of(command).next().is_some() {
        out.push_str("\noptions:\n");
        flag_lines(command, &mut out);
    }
    let _ =
        writeln!(out, "\nexample:\n  cargo run --release -- {}", spec.example.trim_start_matches("judge").trim_start());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_flag_appears_in_the_help_of_each_command_it_applies_to() {
        for spec in COMMANDS {
            let text = command(spec.command);
            for flag in flags::FLAGS {
                assert_eq!(
                    text.contains(&format!("  {} ", flag.name)),
                    flag.applies_to(spec.command),
                    "{} in {}",
                    flag.name,
                    spec.word
                );
            }
            assert!(text.contains("example:"));
        }
        let all = overview();
        assert!(COMMANDS.iter().filter(|s| !s.word.is_empty()).all(|s| all.contains(&format!("  {}", s.word))));
    }
}
