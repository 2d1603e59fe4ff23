//! The judge's text report after the live matrix, in one call: each strategy's figures and the
//! wrong submissions' verdicts, at most three failure blocks per solution (smallest case first,
//! each with the oracle's explanation and the commands that rerun it and find a smaller case),
//! how a strategy that hit the time limit grows, what is newer than LeetCode's Rust, the notes
//! and judge errors, and a last line that names every solution that did not get its expected
//! verdict. Every line fits the layout's width, a command continued with a backslash (a word
//! longer than a whole line, such as a very long path, stays whole).

use std::fmt::Write as _;
use std::path::Path;

use super::call;
use super::compile;
use super::error::{case_problem, path, place, submission_error};
use super::expect;
use super::explanation;
use super::fit;
use super::growth as growth_words;
use super::guard;
use super::matrix::Layout;
use super::table;
use super::units;
use crate::cli::{flags, Command, Invocation, Value};
use crate::judging::cases::Case;
use crate::judging::engine::{self, CaseResult, Cut, Fault, GroupCut, Scorecard};
use crate::judging::report::{first_failure, Figures, Met, Report, Took};
use crate::judging::verdict::Verdict;
use crate::search::growth::Growth;

/// Failure blocks shown per solution unless `--all-failures`.
pub const FAILURES_SHOWN: usize = 3;
/// Wrong submissions listed one by one, however many got their tagged verdicts, up to this.
const LISTED: usize = 3;

/// What the report is written for.
pub struct Options<'a> {
    pub layout: Layout,
    pub verbose: bool,
    pub all_failures: bool,
    /// The command this report answers, which every rerun repeats.
    pub invocation: &'a Invocation,
    pub root: Option<&'a Path>,
}

/// Everything after the matrix.
pub fn report(report: &Report, growth: &[Option<Growth>], options: &Options, exit: u8) -> String {
    let width = options.layout.width;
    [
        summary(report, options),
        failures(report, options),
        growth_lines(report, growth, width),
        newer(report, width),
        notes(report, options),
        footer(report, exit, options),
    ]
    .concat()
}

/// The command that judges one solution on one case with the same options as this run.
pub fn rerun(invocation: &Invocation, solution: &str, case: Option<&str>) -> Invocation {
    again(invocation, solution).set(&flags::CASE, case.map(|c| Value::Text(c.to_string())))
}

/// The command that judges one solution on this run's cases, with the same options.
/// `bless --check` over the cases the run judged: the stored ones, or those of its `--cases`.
pub fn bless_check(invocation: &Invocation) -> Invocation {
    Invocation::new(Command::Bless).set(&flags::CHECK, [Value::On]).with_flags_of(invocation, &[&flags::CASES])
}

fn again(invocation: &Invocation, solution: &str) -> Invocation {
    invocation.clone().set(&flags::SOLUTION, [Value::Text(solution.to_string())])
}

/// `58/58 AC`, `3 AC, then WA`, `3 TLE, 12 AC; 60 not judged`, `CE`; each a count of testcases.
fn verdicts(figures: &Figures, card: &Scorecard, cases: usize, strategy: bool) -> String {
    let n = |n: usize| units::thousands(n as u64);
    let failed: Vec<&(Verdict, usize)> = figures.counts.iter().filter(|(v, _)| *v != Verdict::Ac).collect();
    let words = match (first_failure(card), failed.as_slice()) {
        (Some(Verdict::Ce), _) => "CE".to_string(),
        (None, []) if figures.ran == 0 => "not judged".to_string(),
        (None, []) => format!("{}/{} AC, not judged whole", n(figures.accepted), n(cases)),
        (_, []) => format!("{}/{} AC", n(figures.accepted), n(cases)),
        (_, [(only, 1)]) if !strategy => format!("{} AC, then {}", n(figures.accepted), only.code()),
        _ => figures.counts.iter().map(|(v, k)| format!("{} {}", n(*k), v.code())).collect::<Vec<_>>().join(", "),
    };
    match figures.not_judged {
        0 => words,
        skipped => format!("{words}; {} not judged", n(skipped)),
    }
}

/// A time as the summary shows it: `≥1s` when the call was cut at the limit.
fn time(took: Option<Took>) -> String {
    match took {
        None => "-".to_string(),
        Some(Took { time, cut: true }) => format!("≥{}", units::duration(time)),
        Some(Took { time, .. }) => units::duration(time),
    }
}

/// The strategies' figures as a table, then the other submissions: those that did not get
/// their tagged verdict one by one, the rest counted in a line (each listed with
/// `--full-matrix`, or when there are few).
fn summary(report: &Report, options: &Options) -> String {
    let (style, width) = (options.layout.style, options.layout.width);
    let cases = report.testcases();
    let mut out = String::new();
    let strategies: Vec<usize> =
        (0..report.submissions.len()).filter(|&i| report.submissions[i].is_strategy()).collect();
    if !strategies.is_empty() {
        let head = ["", "solution", "verdicts", "total", "median", "slowest", "on case", "peak mem"];
        let rows: Vec<Vec<String>> = strategies
            .iter()
            .map(|&i| {
                let f = &report.figures[i];
                vec![
                    format!("#{}", i + 1),
                    report.submissions[i].name.clone(),
                    verdicts(f, &report.cards[i], cases, true),
                    time(f.total),
                    time(f.median),
                    time(f.slowest.map(|(t, _)| t)),
                    f.slowest.map_or_else(String::new, |(_, c)| units::escape(&report.cases[c].id)),
                    units::kib(f.peak_kib),
                ]
            })
            .collect();
        // The case of the slowest call goes last: total and median first, then its name is cut;
        // then the solutions' names are cut in the middle, and last the slowest call's time.
        let lines = table::fitted(&head, &rows, &[3, 4, 5], width, &[3, 4, 6, 7, 1, 5], &[1, 6]);
        let _ = writeln!(out, "\n{}", style.bold(&lines[0]));
        for (line, &i) in lines[1..].iter().zip(&strategies) {
            let _ = writeln!(out, "{}", if report.met[i] == Met::No { style.bad(line) } else { line.clone() });
        }
    }
    let others: Vec<usize> = (0..report.submissions.len()).filter(|&i| !report.submissions[i].is_strategy()).collect();
    let listed: Vec<usize> = others
        .iter()
        .copied()
        .filter(|&i| options.layout.full || others.len() <= LISTED || report.met[i] == Met::No)
        .collect();
    if !listed.is_empty() {
        let head = ["", "solution", "expect", "got", "on case", "as expected"];
        let rows: Vec<Vec<String>> = listed
            .iter()
            .map(|&i| {
                let card = &report.cards[i];
                let first = first_failure(card);
                let at = card.results.iter().enumerate().find_map(|(c, r)| {
                    let r = r.as_ref().filter(|r| r.verdict != Some(Verdict::Ac))?;
                    Some(report.cases[c].test_id(r.test))
                });
                vec![
                    format!("#{}", i + 1),
                    report.submissions[i].name.clone(),
                    expect::expect(report.submissions[i].expect),
                    first.map_or("not judged".to_string(), |v| v.code().to_string()),
                    at.map_or_else(String::new, |id| units::escape(&id)),
                    expect::met(report.met[i]).to_string(),
                ]
            })
            .collect();
        let lines = table::fitted(&head, &rows, &[], width, &[4, 2], &[1, 4]);
        let _ = writeln!(out, "\n{}", style.bold(&lines[0]));
        for (line, &i) in lines[1..].iter().zip(&listed) {
            let _ = writeln!(out, "{}", if report.met[i] == Met::No { style.bad(line) } else { line.clone() });
        }
    }
    let counted: Vec<usize> = others.iter().copied().filter(|i| !listed.contains(i)).collect();
    if !counted.is_empty() {
        out.push_str(&counted_line(report, &counted, width));
    }
    out
}

/// The wrong submissions and mutants not listed one by one: how many got their tagged
/// verdicts, by verdict, and how many the selected cases did not catch.
fn counted_line(report: &Report, counted: &[usize], width: usize) -> String {
    let what = match counted.iter().map(|&i| report.submissions[i].name.contains('#')).collect::<Vec<_>>() {
        mutants if mutants.iter().all(|m| *m) => "mutants",
        mutants if mutants.iter().any(|m| *m) => "wrong submissions and mutants",
        _ => "wrong submissions",
    };
    let met: Vec<usize> = counted.iter().copied().filter(|&i| report.met[i] == Met::Yes).collect();
    let by: Vec<String> = Verdict::PRECEDENCE
        .iter()
        .map(|v| (v, met.iter().filter(|&&i| first_failure(&report.cards[i]) == Some(*v)).count()))
        .filter(|(_, n)| *n > 0)
        .map(|(v, n)| format!("{n} {}", v.code()))
        .collect();
    let mut line = format!("{} of {} {what} got their tagged verdicts", met.len(), counted.len());
    if !by.is_empty() {
        let _ = write!(line, " ({})", by.join(", "));
    }
    let missed = counted.len() - met.len();
    if missed > 0 {
        let _ = write!(line, "; {missed} not caught by the selected cases");
    }
    line.push_str("; --full-matrix lists each");
    format!("\n{}\n", fit::words("", &line, "  ", width))
}

/// The command that finds a smaller failing case: stress from this very case, shrunk, under
/// the same limits.
fn smaller(options: &Options, solution: &str, input: &str) -> Invocation {
    Invocation::new(Command::Stress)
        .with_flags_of(options.invocation, &flags::VERDICT)
        .set(&flags::SOLUTION, [Value::Text(solution.to_string())])
        .set(&flags::FILE, [Value::Text(input.to_string())])
}

/// Writes the failure block of submission `s` on case `c` (which it failed), and returns its
/// rerun command.
fn block(out: &mut String, report: &Report, s: usize, c: usize, options: &Options) -> Invocation {
    let width = options.layout.width;
    let Some(result) = &report.cards[s].results[c] else {
        return again(options.invocation, &report.submissions[s].name);
    };
    let (submission, case) = (&report.submissions[s], &report.cases[c]);
    let (t, test) = (result.test, &report.cases[c].tests[result.test]);
    let verdict = result.verdict.unwrap_or(Verdict::Re);
    let id = units::escape(&case.test_id(t));
    let _ =
        writeln!(out, "\n{}", fit::words("", &format!("{} {} on {id}", verdict.code(), submission.name), "  ", width));
    let input = place(case, t, options.root);
    let shown = units::input_within(&test.values, width.saturating_sub(12));
    match fit::chars(&shown) + fit::chars(&input) + 16 <= width {
        true => out.push_str(&fit::labelled("input", &format!("{shown}  ({input})"), width)),
        false => {
            out.push_str(&fit::labelled("input", &shown, width));
            let input = format!("({input})");
            match fit::chars(&input) + 12 <= width {
                true => out.push_str(&fit::labelled("", &input, width)),
                // A path too long for the labels' column starts further left.
                false => out.push_str(&format!("{}\n", fit::words("  ", &input, "  ", width))),
            }
        }
    }
    out.push_str(&fit::labelled("expected", &format!("\"{}\"", test.expected.as_str()), width));
    if let Ok(answered) = &result.call.result {
        out.push_str(&fit::labelled("got", &units::answer(&answered.answer, answered.length), width));
    }
    if let Some(reason) = call::reason(&result.call, verdict, &report.limits) {
        out.push_str(&fit::labelled("reason", &reason, width));
    }
    out.push_str(&call::output(&result.call, width));
    if let Some(said) = group(case, result) {
        out.push_str(&fit::labelled("group", &said, width));
    }
    if let Some(said) = alone(case, result, &report.limits) {
        out.push_str(&fit::labelled("alone", &said, width));
    }
    if let Some(explained) = report.explained(c, t) {
        out.push_str(&explanation::lines(explained, width));
        let smaller = || Some(smaller(options, &submission.name, &path(&case.input, options.root)));
        out.push_str(&explanation::shorter(explained, smaller, width));
    }
    let rerun = rerun(options.invocation, &submission.name, rerun_case(case, result).as_deref());
    let _ = writeln!(out, "{}", fit::command("  rerun     ", &rerun, width));
    rerun
}

/// The `--case` that shows a failure again: its testcase, or its whole group where the testcase
/// passes alone (the calls before it in its batch make it fail).
/// None where only the cases before it do: the whole run is then the rerun.
pub fn rerun_case(case: &Case, result: &CaseResult) -> Option<String> {
    match result.alone.as_ref().map(|a| a.batch_from) {
        None => Some(case.test_id(result.test)),
        Some(Some(_)) => Some(case.id.clone()),
        Some(None) => None,
    }
}

/// Why a group's failure is its batch's, where its testcase passed when called alone.
pub fn alone(case: &Case, result: &CaseResult, limits: &crate::exec::limits::Limits) -> Option<String> {
    let alone = result.alone.as_ref()?;
    let time =
        crate::judging::report::took(&alone.call).map_or(String::new(), |t| format!(" in {}", units::duration(t.time)));
    let said = match (result.verdict, alone.batch_from) {
        (Some(Verdict::Tle), Some(from)) => format!(
            "it passed{time} when called alone: its batch, from line {} to this one, passed the time limit of {} together",
            units::thousands(case.tests[from].line as u64),
            units::limit(limits.time)
        ),
        _ => format!(
            "it passed{time} when called alone, in a fresh process: it fails only after the {} before it in the same process, on what they left behind (a static, a thread_local, memory not freed)",
            units::count(alone.before as usize, "call")
        ),
    };
    Some(said)
}

/// Failing lines of a group named after the one shown, before `and N more`.
const LINES_NAMED: usize = 5;

/// How a group went, for the failure shown from it: `3,870 of 3,905 passed; 35 failed (35
/// WA): this one first, the shortest, then lines 18, 23 …`.
pub fn group(case: &Case, result: &CaseResult) -> Option<String> {
    let tally = result.tally.as_ref()?;
    let by: Vec<String> = result
        .verdicts()
        .iter()
        .filter(|(v, _)| *v != Verdict::Ac)
        .map(|(v, n)| format!("{} {}", units::thousands(*n as u64), v.code()))
        .collect();
    let total = case.tests.len();
    let mut said = format!(
        "{} of {} passed; {} failed ({}): this one first, the shortest",
        units::thousands(tally.passed as u64),
        units::thousands(total as u64),
        units::thousands(tally.failed.len() as u64),
        by.join(", ")
    );
    let others: Vec<String> =
        tally.failed.iter().skip(1).take(LINES_NAMED).map(|&(t, _)| case.tests[t].line.to_string()).collect();
    if !others.is_empty() {
        let lines = if tally.failed.len() == 2 { "line" } else { "lines" };
        let _ = write!(said, ", then {lines} {}", others.join(", "));
        let more = tally.failed.len() - 1 - others.len();
        if more > 0 {
            let _ = write!(said, " and {} more", units::thousands(more as u64));
        }
    }
    if tally.judged < total {
        let why = match tally.cut {
            Some(GroupCut::Endings) => format!(" after {} batches that failed", engine::GROUP_ENDINGS),
            None => ", as it stopped at its failures".to_string(),
        };
        let _ = write!(said, "; {} not judged{why}", units::thousands((total - tally.judged) as u64));
    }
    Some(said)
}

/// A sentence, then a command on the lines below it.
fn said_then(out: &mut String, said: &str, command: &Invocation, width: usize) {
    let _ = writeln!(out, "\n{}", fit::words("  ", said, "  ", width));
    let _ = writeln!(out, "{}", fit::command("    ", command, width));
}

/// One failure block as the terminal shows it, for a report that shows each apart.
pub struct Block {
    pub submission: usize,
    pub verdict: Verdict,
    /// The block's lines, its heading first.
    pub text: String,
    /// The command that shows it again, the block's last line.
    pub rerun: Invocation,
}

/// The CE block of a submission that did not compile.
fn compile_block(report: &Report, s: usize, options: &Options) -> Option<Block> {
    let Some(Err(error)) = &report.cards[s].compiled else { return None };
    let (name, width) = (&report.submissions[s].name, options.layout.width);
    let rerun = again(options.invocation, name);
    let mut text = format!("CE {name}\n");
    text.push_str(&compile::block(error, options.verbose, width));
    let _ = writeln!(text, "{}", fit::command("  rerun     ", &rerun, width));
    Some(Block { submission: s, verdict: Verdict::Ce, text, rerun })
}

/// The cases submission `s` failed on, the clearest first: the shortest input, then the
/// suite's order.
fn failed_cases(report: &Report, s: usize) -> Vec<usize> {
    let card = &report.cards[s];
    let mut failed: Vec<usize> = (0..report.cases.len())
        .filter(|&c| card.results[c].as_ref().is_some_and(|r| r.verdict != Some(Verdict::Ac)))
        .collect();
    let shown_len = |c: usize| card.results[c].as_ref().map_or(0, |r| report.cases[c].tests[r.test].values.len());
    failed.sort_by_key(|&c| (shown_len(c), c));
    failed
}

/// Every failure of every submission, each block as the terminal shows it, the clearest first
/// within a submission; the expected failures of wrong submissions included.
pub fn blocks(report: &Report, options: &Options) -> Vec<Block> {
    let mut blocks = Vec::new();
    for s in 0..report.submissions.len() {
        if let Some(block) = compile_block(report, s, options) {
            blocks.push(block);
            continue;
        }
        for c in failed_cases(report, s) {
            let mut text = String::new();
            let rerun = block(&mut text, report, s, c, options);
            let verdict = report.cards[s].results[c].as_ref().and_then(|r| r.verdict).unwrap_or(Verdict::Re);
            let text = text.trim_start_matches('\n').to_string();
            blocks.push(Block { submission: s, verdict, text, rerun });
        }
    }
    blocks
}

fn failures(report: &Report, options: &Options) -> String {
    let width = options.layout.width;
    let mut out = String::new();
    for (s, (submission, card)) in report.submissions.iter().zip(&report.cards).enumerate() {
        if report.met[s] == Met::Yes && !options.verbose {
            continue;
        }
        if let Some(block) = compile_block(report, s, options) {
            let _ = write!(out, "\n{}", block.text);
            continue;
        }
        let failed = failed_cases(report, s);
        if report.met[s] == Met::No && failed.is_empty() && first_failure(card) == Some(Verdict::Ac) {
            let said = format!(
                "{} is tagged {} but passed all {} it ran: the stored cases miss its mistake",
                submission.name,
                expect::expect(submission.expect),
                units::count(report.figures[s].ran, "case")
            );
            let _ = writeln!(out, "\n{}", fit::words("", &said, "  ", width));
        }
        let shown = if options.all_failures { failed.len() } else { failed.len().min(FAILURES_SHOWN) };
        for &c in &failed[..shown] {
            block(&mut out, report, s, c, options);
        }
        let all = again(options.invocation, &submission.name).set(&flags::ALL_FAILURES, [Value::On]);
        if shown < failed.len() {
            let more = failed.len() - shown;
            let more = units::thousands(more as u64);
            said_then(&mut out, &format!("… and {more} more {} failures; to show them:", submission.name), &all, width);
        }
        if let Some(Cut::TimeLimits(count)) = card.cut {
            let skipped = report.figures[s].not_judged;
            let said = format!(
                "{} more {} not judged after {count} TLE, each a whole time limit of waiting; to judge them all:",
                units::thousands(skipped as u64),
                if skipped == 1 { "case" } else { "cases" },
            );
            said_then(&mut out, &said, &all, width);
        }
    }
    out
}

/// How the time of each solution that hit a time limit grows with n.
fn growth_lines(report: &Report, growth: &[Option<Growth>], width: usize) -> String {
    let mut out = String::new();
    for (submission, growth) in report.submissions.iter().zip(growth) {
        if let Some(growth) = growth {
            let said =
                format!("{} hit the time limit: {}", submission.name, growth_words::words(growth, report.limits.time));
            let _ = writeln!(out, "\n{}", fit::words("", &said, "  ", width));
        }
    }
    out
}

/// The standard library items each submission uses that LeetCode's Rust does not have: it
/// would be a compile error there.
pub fn newer(report: &Report, width: usize) -> String {
    let mut out = String::new();
    for (submission, items) in report.submissions.iter().zip(&report.newer).filter(|(_, items)| !items.is_empty()) {
        let said = format!(
            "warning: {} uses what LeetCode's Rust {} does not have yet (a compile error there):",
            submission.name, report.about.leetcode_rust
        );
        let _ = writeln!(out, "\n{}", fit::words("", &said, "  ", width));
        for item in items {
            let _ = writeln!(out, "{}", fit::words("  ", &super::paste::newer(item), "    ", width));
        }
    }
    out
}

/// A paragraph of a note, wrapped.
fn note(out: &mut String, text: &str, width: usize) {
    let _ = writeln!(out, "\n{}", fit::words("", text, "  ", width));
}

/// Stray tags, suspect outputs, filtered passes, changes to stored data and judge errors.
fn notes(report: &Report, options: &Options) -> String {
    let (root, width, style) = (options.root, options.layout.width, options.layout.style);
    let mut out = String::new();
    for submission in &report.submissions {
        if let Some(tag) = &submission.stray_tag {
            note(
                &mut out,
                &format!(
                    "note: {} starts with `{tag}`, but tags are read only in solutions/wrong/: here every file is expected to get AC (move it there to judge it by its tag)",
                    submission.shown
                ),
                width,
            );
        }
    }
    for suspect in &report.suspects {
        let case = &report.cases[suspect.case];
        let mut said = format!(
            "the oracle answers \"{}\" on {}, where {} says \"{}\": the stored .out looks wrong",
            suspect.oracle.as_str(),
            units::escape(&case.id),
            path(&case.output(), root),
            suspect.stored.as_str(),
        );
        if !suspect.agreeing.is_empty() {
            let _ = write!(said, " ({} answered as the oracle does)", suspect.agreeing.join(", "));
        }
        note(&mut out, &said, width);
        let check = bless_check(options.invocation);
        let _ = writeln!(out, "{}", fit::command("  check it  ", &check, width));
    }
    for (submission, card) in report.submissions.iter().zip(&report.cards) {
        for (case, result) in report.cases.iter().zip(&card.results) {
            let Some(tally) = result.as_ref().and_then(|r| r.tally.as_ref()) else { continue };
            let why = match tally.cut {
                None => continue,
                Some(GroupCut::Endings) => format!(
                    "it stops after {} batches that fail (a panic, a time or memory limit), and that many did",
                    engine::GROUP_ENDINGS
                ),
            };
            let said = format!(
                "note: {} was not judged on {} of the {} testcases of {}: {why}",
                submission.name,
                units::thousands((case.tests.len() - tally.judged) as u64),
                units::thousands(case.tests.len() as u64),
                units::escape(&case.id)
            );
            note(&mut out, &said, width);
        }
    }
    let not_caught: Vec<&str> = (report.submissions.iter().zip(&report.met))
        .filter(|(_, m)| **m == Met::NotCaught)
        .map(|(s, _)| s.name.as_str())
        .collect();
    if !not_caught.is_empty() {
        let said = format!(
            "not caught by the selected cases (fine: bundled wrong submissions are judged for their tags on the whole suite or when named): {}",
            not_caught.join(", ")
        );
        note(&mut out, &said, width);
    }
    if report.changes.confined {
        for line in guard::lines(&report.changes, root) {
            note(&mut out, &format!("note: {line}"), width);
        }
    }
    let mut errors: Vec<String> = report
        .bad_cases
        .iter()
        .map(|b| format!("{}: {}", units::escape(&b.id), case_problem(&b.problem, root)))
        .collect();
    errors.extend(report.bad_submissions.iter().map(submission_error));
    for (submission, card) in report.submissions.iter().zip(&report.cards) {
        match &card.fault {
            Some(Fault::Build(e) | Fault::Spawn(e)) => {
                errors.push(format!("{}: {}", submission.name, super::error::trouble(e, None)))
            }
            Some(Fault::Call(result)) => {
                let reason = call::reason(&result.call, Verdict::Re, &report.limits).unwrap_or_default();
                errors.push(format!("{}: not judged: {reason}", submission.name));
            }
            None => {}
        }
    }
    if !report.changes.confined {
        errors.extend(guard::lines(&report.changes, root));
    }
    if !errors.is_empty() {
        let _ = writeln!(out, "\n{}", style.bad("judge errors (not verdicts: fix these and judge again)"));
        for error in errors {
            let _ = writeln!(out, "{}", fit::words("  ", &error, "    ", width));
        }
    }
    out
}

/// The last line: how many met their expectations, who did not, the wall time, the status.
fn footer(report: &Report, exit: u8, options: &Options) -> String {
    let style = options.layout.style;
    let total = report.submissions.len();
    let missed: Vec<&str> = (report.submissions.iter().zip(&report.met))
        .filter(|(_, m)| **m == Met::No)
        .map(|(s, _)| s.name.as_str())
        .collect();
    let met = format!("{}/{total} solutions got their expected verdicts", total - missed.len());
    let mut items = vec![met.clone()];
    if !missed.is_empty() {
        items.push(format!("not as expected: {}", missed.join(", ")));
    }
    if report.has_judge_errors() {
        items.push("judge errors above".to_string());
    }
    items.push(format!("wall {}", units::duration(report.wall)));
    items.push(format!("exit {exit}"));
    let text = fit::joined(&items, " · ", options.layout.width);
    // Coloured after fitting: the escape codes take no column.
    let paint = if missed.is_empty() { style.good(&met) } else { style.bad(&met) };
    let text = text.replacen(&met, &paint, 1);
    let text = text.replacen("judge errors above", &style.bad("judge errors above"), 1);
    format!("\n{text}\n")
}
