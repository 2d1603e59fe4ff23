//! The help text, made from the command table and the flag table, so every flag is defined
//! once and documented where it is defined.

use std::fmt::Write as _;

use super::fit;
use crate::cli::{flags, Command, Invocation, Kind, COMMANDS, PROGRAM};
use crate::exec::limits::OUTPUT_LIMIT;
use crate::judging::mutate::Operator;
use crate::problem::generator::Shape;

/// The narrowest column a table's text is wrapped in beside its names; narrower than this, the
/// text goes under the name instead.
const NARROWEST_TEXT: usize = 30;

/// Rows of `  name  text`, the names in one column and each text wrapped at `width` under its
/// own column (or, where that column would be too narrow, on lines of its own under the name).
fn table(rows: &[(String, String)], width: usize, out: &mut String) {
    let names = rows.iter().map(|(name, _)| fit::chars(name)).max().unwrap_or(0);
    let column = 2 + names + 2;
    for (name, text) in rows {
        if width >= column + NARROWEST_TEXT {
            let first = format!("  {name:names$}  ");
            let _ = writeln!(out, "{}", fit::words(&first, text, &" ".repeat(column), width));
        } else {
            let _ = writeln!(out, "  {name}");
            let _ = writeln!(out, "{}", fit::words("      ", text, "      ", width));
        }
    }
}

fn flag_lines(command: Command, width: usize, out: &mut String) {
    let rows: Vec<(String, String)> = flags::of(command)
        .map(|flag| {
            let name = format!("{} {}", flag.name, flag.placeholder).trim_end().to_string();
            let mut text = flag.help.to_string();
            // The values the generator and the mutation code know, from their own tables.
            let values: Vec<&str> = match flag.kind {
                Kind::Shape => Shape::ALL.iter().map(|s| s.name()).collect(),
                Kind::Operator => Operator::ALL.iter().map(|o| o.name()).collect(),
                _ => Vec::new(),
            };
            if !values.is_empty() {
                let _ = write!(text, ": {}", values.join(", "));
            }
            if flag.repeats.contains(&command) {
                text.push_str(" (repeatable)");
            }
            if let Some(default) = flag.default_for(command) {
                let _ = write!(text, " [default: {default}]");
            }
            (name, text)
        })
        .collect();
    table(&rows, width, out);
}

/// A paragraph wrapped at `width`, with a newline.
fn paragraph(text: &str, width: usize) -> String {
    format!("{}\n", fit::words("", text, "", width))
}

/// `help`: every command, then the limits and exit statuses, fitted to `width`.
pub fn overview(width: usize) -> String {
    let mut out = paragraph("judge: a local judge for LeetCode 1406, Stone Game III", width);
    out.push('\n');
    out.push_str(&paragraph(&format!("usage: {PROGRAM} [COMMAND] [OPTIONS]"), width));
    out.push_str(&paragraph(
        &format!("({PROGRAM} is cargo run --release --, by the alias in .cargo/config.toml; run it in the workspace)"),
        width,
    ));
    out.push_str("\ncommands:\n");
    let rows: Vec<(String, String)> = COMMANDS
        .iter()
        .map(|spec| {
            let name = match spec.word.is_empty() {
                true => "(none)".to_string(),
                false => format!("{} {}", spec.word, spec.args).trim_end().to_string(),
            };
            (name, spec.about.to_string())
        })
        .collect();
    table(&rows, width, &mut out);
    out.push_str("\noptions of judging (no command):\n");
    flag_lines(Command::Judge, width, &mut out);
    out.push('\n');
    out.push_str(&limits(width));
    let help = Invocation::help(Command::Stress).shell().replace(" stress", " COMMAND");
    let flag = format!("{PROGRAM} COMMAND --help");
    out.push_str(&format!(
        "\n{}",
        paragraph(&format!("'{help}' or '{flag}' shows a command's options and an example; '{PROGRAM} --version' the judge's version."), width)
    ));
    out
}

/// `--version`: the judge's own version and the least Rust that builds it.
pub fn version() -> String {
    format!(
        "judge {}: a local judge for LeetCode 1406, Stone Game III (builds with Rust {} or later)\n",
        env!("CARGO_PKG_VERSION"),
        env!("CARGO_PKG_RUST_VERSION")
    )
}

fn limits(width: usize) -> String {
    let verdicts = format!(
        "verdicts, first one wins: CE (does not compile), TLE, MLE, OLE, RE, WA, AC. Each solution is \
         compiled on its own (edition {}, optimised, overflow checks off) and runs in its own process: \
         the judge stops a call at the time limit by the kernel's count of it, watches its memory, and allows {} \
         per stream of output per call.",
        crate::problem::leetcode::EDITION,
        super::units::bytes(OUTPUT_LIMIT)
    );
    let exit = "exit status: 0 every solution got its expected verdict (or nothing failed), 1 one did not \
                (or a counterexample was found), 2 a judge error (a bad flag, case file, or changed stored data)";
    format!("{}{}", paragraph(&verdicts, width), paragraph(exit, width))
}

/// `help COMMAND`: its usage, what it does, its flags with their defaults, an example; fitted
/// to `width`.
pub fn command(command: Command, width: usize) -> String {
    let spec = command.spec();
    let usage = format!("usage: {} [OPTIONS] {}", Invocation::new(command).shell(), spec.args);
    let mut out = paragraph(usage.trim_end(), width);
    out.push('\n');
    out.push_str(&paragraph(spec.about, width));
    if flags::of(command).next().is_some() {
        out.push_str("\noptions:\n");
        flag_lines(command, width, &mut out);
    }
    let _ = writeln!(out, "\nexample:\n{}", fit::command("  ", &spec.example(), width));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_flag_appears_in_the_help_of_each_command_it_applies_to() {
        for spec in COMMANDS {
            let text = command(spec.command, 100);
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
        let all = overview(100);
        assert!(COMMANDS.iter().filter(|s| !s.word.is_empty()).all(|s| all.contains(&format!("  {}", s.word))));
    }

    /// The words of a text, whatever lines they are on (a continued command's ` \` aside).
    fn words(text: &str) -> Vec<&str> {
        text.split_whitespace().filter(|w| *w != "\\").collect()
    }

    #[test]
    fn help_fits_the_width_and_breaks_only_between_words() {
        let texts = |width| {
            let mut all = vec![overview(width)];
            all.extend(COMMANDS.iter().map(|s| command(s.command, width)));
            all
        };
        let wide = texts(1000);
        for width in [100, 80, 60, 40] {
            for (text, whole) in texts(width).iter().zip(&wide) {
                let longest = text.lines().map(fit::chars).max().unwrap_or(0);
                assert!(longest <= width, "a line of {longest} at width {width}:\n{text}");
                assert_eq!(words(text), words(whole), "at width {width}:\n{text}");
            }
        }
    }

    #[test]
    fn commands_are_listed_in_the_order_a_newcomer_needs_them() {
        let all = overview(100);
        let at = |row: &str| all.find(&format!("\n  {row}")).unwrap_or_else(|| panic!("no {row}:\n{all}"));
        let order = ["new NAME", "(none)", "watch", "run [TESTCASES]", "stress [TESTCASES]", "paste NAME", "verify"];
        assert!(order.windows(2).all(|w| at(w[0]) < at(w[1])), "{all}");
        assert!(command(Command::Run, 100).starts_with("usage: cargo judge run [OPTIONS] [TESTCASES]...\n"));
        assert!(command(Command::Run, 100).contains("\nexample:\n  cargo judge run --solution my_try '[1,2,3,7]'\n"));
    }
}
