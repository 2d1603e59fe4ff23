//! The judge on a terminal, as a user sees it: every line of the default run, of a CE run and of
//! a failing run within the terminal's width (a pseudo-terminal of 80 and of 100 columns, made
//! by util-linux's `script`), 100 columns when the output is not a terminal; the progress
//! counter cleared before the result; and a closed stderr that ends nothing.

use std::io::Read;
use std::process::{Command, Stdio};

use crate::common::{Copy, CORRECT, JUDGE};

/// What a terminal shows of a run's output, line by line: each line after the last carriage
/// return (or progress-line clear), without colour codes.
fn shown_lines(raw: &str) -> Vec<String> {
    raw.split('\n')
        .map(|line| {
            let line = line.trim_end_matches('\r');
            let line = line.rsplit("\r\x1b[2K").next().unwrap_or(line);
            let line = line.rsplit('\r').next().unwrap_or(line);
            let mut plain = String::new();
            let mut chars = line.chars();
            while let Some(c) = chars.next() {
                if c == '\x1b' {
                    for c in chars.by_ref() {
                        if c.is_ascii_alphabetic() {
                            break;
                        }
                    }
                } else {
                    plain.push(c);
                }
            }
            plain
        })
        .collect()
}

/// `script`, if this machine has it.
fn script() -> bool {
    let found = Command::new("script").arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status();
    if found.is_err() {
        crate::common::skipped("no `script` (util-linux) on this machine: the judge was not run on a pseudo-terminal");
    }
    found.is_ok()
}

/// The judge run in `copy` on a pseudo-terminal `columns` wide, stdout and stderr both on it:
/// what the terminal received, and the exit status.
fn on_terminal(copy: &Copy, columns: usize, args: &[&str]) -> (String, i32) {
    let words: Vec<String> = std::iter::once(JUDGE).chain(args.iter().copied()).map(quote).collect();
    let line = format!("stty cols {columns} rows 50; exec {}", words.join(" "));
    let output = Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .current_dir(&copy.root)
        .env("JUDGE_CACHE", crate::common::cache())
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (String::from_utf8_lossy(&output.stdout).into_owned(), output.status.code().unwrap_or(-1))
}

fn quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', "'\\''"))
}

fn widest(lines: &[String]) -> (usize, String) {
    lines.iter().map(|l| (l.chars().count(), l.clone())).max().unwrap_or_default()
}

/// At `--width 60` the default run with a slow attempt fits: its summary row, with the
/// testcases not judged after three time limits, is the widest of the strategies' table.
/// The hint after a TLE, `stress --file` on the slow case, says what it is doing while each
/// call spends its time limit: the line ticks on with its seconds, on the terminal only.
#[test]
#[ignore = "slow: calls that spend their time limit"]
fn stress_on_a_slow_case_ticks_while_its_calls_run() {
    if !script() {
        return;
    }
    let copy = Copy::new("ticks", &["edge"]);
    copy.plant("my_slow", crate::attempt::EXPONENTIAL);
    let args = ["stress", "--solution", "my_slow", "--file", "testcases/edge/lead-past-i16-n63.in"];
    let (raw, status) = on_terminal(&copy, 100, &args);
    assert_eq!(status, 1, "{raw}");
    assert!(raw.contains("stress: trying the given testcases first · "), "no tick while the first call ran:\n{raw:?}");
    assert!(raw.contains("shrinking a failure"), "{raw:?}");
    let piped = copy.judge(&args);
    assert!(!piped.stderr.contains("trying the given testcases"), "a pipe gets no progress line: {}", piped.stderr);
}

#[test]
#[ignore = "slow: the default run with its time limits"]
fn the_default_run_with_a_slow_attempt_fits_sixty_columns() {
    let copy = Copy::new("sixty", &[]);
    copy.plant("my_slow", crate::attempt::EXPONENTIAL);
    let run = copy.judge(&["--width", "60", "--color", "never", "--time-limit", "200ms"]);
    assert!(run.stdout.contains("not judged"), "{}", run.describe());
    let (width, line) = widest(&shown_lines(&run.stdout));
    assert!(width <= 60, "a line of {width}:\n{line}\n\n{}", run.stdout);
}

#[test]
#[ignore = "slow: the default run with its time limits"]
fn the_default_run_a_ce_and_a_failing_run_fit_the_terminal() {
    if !script() {
        return;
    }
    let copy = Copy::new("terminal", &[]);
    copy.write(
        "solutions/my_ce.rs",
        "impl Solution {\n    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {\n        let x: i32 = \"a\";\n        let y: u8 = 300u16;\n        String::new()\n    }\n}\n",
    );
    copy.plant("my_zero_start", &CORRECT.replace("(0i64, i64::MIN)", "(0i64, 0i64)"));
    // A short time limit: the layout does not depend on it, and the TLE submissions wait less.
    let fast = ["--time-limit", "200ms"];
    let runs: [&[&str]; 3] = [&fast, &["--solution", "my_ce"], &["--solution", "my_zero_start"]];
    for columns in [80, 100] {
        for args in runs {
            let (raw, status) = on_terminal(&copy, columns, args);
            let lines = shown_lines(&raw);
            assert!(lines.iter().any(|l| l.contains("solutions got their expected verdicts")), "{args:?}:\n{raw}");
            assert_ne!(status, 2, "{args:?}:\n{raw}");
            let (width, line) = widest(&lines);
            assert!(width <= columns, "{args:?} on {columns} columns: a line of {width}:\n{line}\n\n{raw}");
        }
    }
    // A CE is one block: rustc's first error once, not a row of `·` per case.
    let (raw, _) = on_terminal(&copy, 80, &["--solution", "my_ce"]);
    assert_eq!(raw.matches("mismatched types").count(), 1, "{raw}");
    assert!(!shown_lines(&raw).iter().any(|l| l.trim_end().ends_with('·')), "{raw}");
    // Not a terminal: 100 columns.
    let piped = copy.judge(&["--color", "never", "--time-limit", "200ms"]);
    let (width, line) = widest(&shown_lines(&piped.stdout));
    assert!(width <= 100 && width > 80, "a line of {width} when piped:\n{line}");
    let full = copy.judge(&["--color", "never", "--full-matrix", "--time-limit", "200ms"]);
    let (width, _) = widest(&shown_lines(&full.stdout));
    assert!(width > 100, "--full-matrix gives every solution its column: {width}");
}

#[test]
#[ignore = "slow: the default run on a terminal"]
fn the_progress_counter_is_cleared_before_the_result() {
    if !script() {
        return;
    }
    let copy = Copy::new("counter", &["samples"]);
    // Long enough for the counter to be shown several times (it is, every tenth of a second).
    let (raw, status) = on_terminal(&copy, 100, &["stress", "--count", "2000000", "--solution", "dp_array"]);
    assert_eq!(status, 0, "{raw}");
    assert!(raw.contains("/2,000,000"), "no counter was shown:\n{raw:?}");
    let result = shown_lines(&raw).into_iter().find(|l| l.contains("no counterexample")).unwrap();
    assert!(result.starts_with("stress: no counterexample"), "{result:?}");
}

#[test]
fn a_closed_stderr_ends_nothing() {
    let copy = Copy::new("closed-stderr", &["samples"]);
    for args in
        [&["paste", "dp_array"][..], &["--solution", "dp_array", "--case", "samples", "--sandbox", "off-as-root"]]
    {
        // Stderr is a pipe whose reader is gone before the judge writes a note to it.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let mut judge = copy.command(args).stdout(Stdio::piped()).stderr(writer).spawn().unwrap();
        let mut stdout = String::new();
        judge.stdout.take().unwrap().read_to_string(&mut stdout).unwrap();
        let status = judge.wait().unwrap();
        assert!(matches!(status.code(), Some(0 | 1)), "{args:?}: {status:?}\n{stdout}");
        assert!(!stdout.is_empty(), "{args:?}");
    }
    // `paste NAME 2>&1 | head -1`: both streams on one pipe, closed after a line.
    for _ in 0..10 {
        let (reader, writer) = std::io::pipe().unwrap();
        let mut judge =
            copy.command(&["paste", "dp_array"]).stdout(writer.try_clone().unwrap()).stderr(writer).spawn().unwrap();
        let mut first = [0u8; 8];
        std::io::Read::read_exact(&mut &reader, &mut first).unwrap();
        drop(reader);
        let status = judge.wait().unwrap();
        assert!(matches!(status.code(), Some(0 | 1)), "{status:?}");
    }
}

/// With an attempt beside the strategies, every column is needed at 80: the case names are cut,
/// in the middle, and stay apart; the figures keep the case of each slowest call.
#[test]
fn at_80_columns_case_names_stay_apart_and_the_figures_keep_the_slowest_case() {
    let copy = Copy::new("narrow", &["samples"]);
    copy.plant("my_try", CORRECT);
    let run = copy.judge(&["--case", "samples", "--width", "80", "--color", "never"]);
    assert_eq!(run.status, 0, "{}", run.describe());
    assert!(run.stdout.lines().all(|l| l.chars().count() <= 80), "{}", run.stdout);
    let matrix = &run.stdout[run.stdout.find("\ncase ").unwrap()..];
    let names: Vec<&str> = matrix.lines().skip(2).take(5).map(|l| l.split_whitespace().next().unwrap()).collect();
    let apart: std::collections::HashSet<&&str> = names.iter().collect();
    assert_eq!(apart.len(), 5, "{names:?}\n{}", run.stdout);
    assert!(names.iter().all(|n| n.starts_with("sa") && n.ends_with(|c: char| c.is_ascii_digit())), "{names:?}");
    let figures = run.stdout.lines().find(|l| l.trim_start().starts_with("solution ")).unwrap();
    assert!(figures.contains("on case"), "{}", run.stdout);
    // A user's attempt is #1, before the strategies, so that it keeps a column of its own.
    let mine = run.stdout.lines().find(|l| l.starts_with("#1  my_try ")).unwrap();
    assert!(mine.contains("samples/example-"), "{mine}");
}

/// Help fits the terminal as the reports do, and 100 columns in a pipe.
#[test]
fn help_fits_the_terminal_and_a_pipe() {
    if !script() {
        return;
    }
    let copy = Copy::new("help-width", &["samples"]);
    let topics = ["", "new", "run", "watch", "stress", "paste", "verify", "gen", "bless", "bench", "mutants"];
    for topic in topics.into_iter().chain(["diagnostics", "help"]) {
        let args: Vec<&str> = std::iter::once("help").chain((!topic.is_empty()).then_some(topic)).collect();
        let (raw, status) = on_terminal(&copy, 80, &args);
        assert_eq!(status, 0, "{raw}");
        let (width, line) = widest(&shown_lines(&raw));
        // The overview's table fills its width: 80 here, 100 in a pipe.
        let filled = !topic.is_empty() || width > 60;
        assert!(width <= 80 && filled, "help {topic} on 80 columns: a line of {width}:\n{line}\n\n{raw}");
        let piped = copy.judge(&args);
        let (width, line) = widest(&shown_lines(&piped.stdout));
        assert!(
            width <= 100 && (!topic.is_empty() || width > 80),
            "help {topic} in a pipe: a line of {width}:\n{line}"
        );
    }
}

/// `run` with nothing to read but the terminal says that it waits for testcases there.
#[test]
fn run_says_it_reads_the_terminal() {
    if !script() {
        return;
    }
    let copy = Copy::new("run-stdin", &["samples"]);
    let (raw, _) = on_terminal(&copy, 60, &["run", "--solution", "dp_array"]);
    assert!(raw.contains("judge: reading testcases from the terminal, one per line;"), "{raw}");
    let given = "  or give one: cargo judge run --solution dp_array '[1,2,3,7]'";
    assert!(raw.lines().any(|l| l.trim_end() == given), "{raw}");
    let widest = raw.lines().filter(|l| !l.contains("or give one")).map(|l| l.trim_end().chars().count()).max();
    assert!(widest <= Some(60), "{raw}");
    let piped = crate::common::judge_in(&copy.root, &["run", "--solution", "dp_array"], Some("[1,2,3]\n"));
    assert!(!piped.stderr.contains("reading testcases"), "{}", piped.describe());
}
