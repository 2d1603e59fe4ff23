//! What `judge mutants` measured, as text or JSON: counts per strategy and per operator, how
//! many stored testcases kill each killed mutant (its margin) with the thinnest listed, every
//! survivor with a one-line diff and the command that judges it alone.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use super::fit;
use super::guard;
use super::json::Json;
use super::table;
use super::units;
use crate::cli::{flags, Invocation, Value};
use crate::judging::mutate::Operator;
use crate::judging::verdict::Verdict;
use crate::search::mutants::{Judged, Outcome, Status, MARGIN_COUNTED, TIME_FACTOR, TIME_FLOOR};

/// The verdicts that kill a mutant: every one but CE (a mutant that does not compile is
/// dropped) and AC, which `PRECEDENCE` puts first and last.
const KILLERS: &[Verdict] = {
    let (_, rest) = Verdict::PRECEDENCE.split_first().expect("CE comes first");
    rest.split_last().expect("AC comes last").1
};

/// Thin margins listed one by one in the text, the thinnest first; JSON lists them all.
const THIN_SHOWN: usize = 12;

#[derive(Default)]
struct Counts {
    generated: usize,
    compiled: usize,
    killed: BTreeMap<Verdict, usize>,
    /// Killed mutants by margin, `margins[m - 1]` for m in 1..=MARGIN_COUNTED.
    margins: [usize; MARGIN_COUNTED],
    equivalent: usize,
    survived: usize,
    not_judged: usize,
}

impl Counts {
    fn add(&mut self, status: &Status) {
        self.generated += 1;
        match status {
            Status::NotCompiled => return,
            Status::Killed { verdict, killers } => {
                *self.killed.entry(*verdict).or_default() += 1;
                self.margins[killers.len().clamp(1, MARGIN_COUNTED) - 1] += 1;
            }
            Status::Equivalent { .. } => self.equivalent += 1,
            Status::Survived => self.survived += 1,
            Status::NotJudged => self.not_judged += 1,
        }
        self.compiled += 1;
    }

    fn killed(&self) -> usize {
        self.killed.values().sum()
    }

    fn row(&self, name: &str) -> Vec<String> {
        let mut row =
            vec![name.to_string(), self.generated.to_string(), self.compiled.to_string(), self.killed().to_string()];
        row.extend(KILLERS.iter().map(|v| self.killed.get(v).copied().unwrap_or(0).to_string()));
        row.extend([self.equivalent.to_string(), self.survived.to_string()]);
        row
    }

    /// The margins' row: the strategy, its killed mutants, and how many by each margin.
    fn margin_row(&self, name: &str) -> Vec<String> {
        let mut row = vec![name.to_string(), self.killed().to_string()];
        row.extend(self.margins.iter().map(usize::to_string));
        row
    }

    fn json(&self) -> Vec<(&'static str, Json)> {
        let killed = KILLERS.iter().map(|v| (v.code(), Json::int(self.killed.get(v).copied().unwrap_or(0) as i128)));
        let margins = (1..=MARGIN_COUNTED).map(|m| (margin_key(m), Json::int(self.margins[m - 1] as i128)));
        vec![
            ("generated", Json::int(self.generated as i128)),
            ("compiled", Json::int(self.compiled as i128)),
            ("killed", Json::int(self.killed() as i128)),
            ("killed_by", Json::object(killed)),
            ("margins", Json::object(margins)),
            ("equivalent", Json::int(self.equivalent as i128)),
            ("survived", Json::int(self.survived as i128)),
            ("not_judged", Json::int(self.not_judged as i128)),
        ]
    }
}

/// A margin as a column and a JSON key: `1`, `2`, and `3+` for the last, counted up to it.
fn margin_key(margin: usize) -> &'static str {
    const KEYS: [&str; 9] = ["1", "2", "3", "4", "5", "6", "7", "8", "9"];
    const LAST: [&str; 9] = ["1+", "2+", "3+", "4+", "5+", "6+", "7+", "8+", "9+"];
    if margin == MARGIN_COUNTED {
        LAST[margin - 1]
    } else {
        KEYS[margin - 1]
    }
}

/// Killed mutants with a margin under `MARGIN_COUNTED`, the thinnest first.
fn thinnest(outcome: &Outcome) -> Vec<&Judged> {
    let mut thin: Vec<&Judged> =
        outcome.mutants.iter().filter(|j| j.margin().is_some_and(|m| m < MARGIN_COUNTED)).collect();
    thin.sort_by_key(|j| (j.margin(), j.strategy.clone(), j.index));
    thin
}

fn killers(judged: &Judged) -> &[String] {
    match &judged.status {
        Status::Killed { killers, .. } => killers,
        _ => &[],
    }
}

fn by<K: Ord>(outcome: &Outcome, key: impl Fn(&Judged) -> K) -> BTreeMap<K, Counts> {
    let mut counts: BTreeMap<K, Counts> = BTreeMap::new();
    for judged in &outcome.mutants {
        counts.entry(key(judged)).or_default().add(&judged.status);
    }
    counts
}

/// The command that judges one mutant alone, under the time limit its strategy's mutants had.
pub fn judge_it(outcome: &Outcome, judged: &Judged, invocation: &Invocation) -> Invocation {
    let strategy = outcome.strategies.iter().position(|s| *s == judged.strategy).unwrap_or(0);
    let mut command = Invocation::new(crate::cli::Command::Judge)
        .set(&flags::SOLUTION, [Value::Text(format!("{}#{}", judged.strategy, judged.index))]);
    if let Some(time) = outcome.time_limits.get(strategy) {
        let whole_ms = std::time::Duration::from_millis(time.as_millis().max(1) as u64);
        command = command.set(&flags::TIME_LIMIT, [Value::Duration(whole_ms)]);
    }
    if let Some(cases) = invocation.get(&flags::CASES) {
        command = command.set(&flags::CASES, [cases.clone()]);
    }
    command
}

fn survivors(outcome: &Outcome) -> impl Iterator<Item = &Judged> {
    outcome.mutants.iter().filter(|j| j.status == Status::Survived)
}

pub fn text(outcome: &Outcome, invocation: &Invocation, root: Option<&Path>, width: usize) -> String {
    let mut out = String::new();
    let all = by(outcome, |_| ()).remove(&()).unwrap_or_default();
    // Each line of prose wrapped to the width, its next lines indented by two more; a word of
    // code longer than the width is broken where the width ends (JSON gives each whole).
    let say = |out: &mut String, text: &str| {
        let margin = " ".repeat(text.len() - text.trim_start().len());
        let wrapped = fit::words(&margin, text.trim_start(), &format!("{margin}  "), width);
        for line in wrapped.lines() {
            let chars: Vec<char> = line.chars().collect();
            for piece in chars.chunks(width.max(1)) {
                let _ = writeln!(out, "{}", piece.iter().collect::<String>());
            }
        }
    };
    let head_line = format!(
        "mutants · {} · {} · time limit {TIME_FACTOR}× each original's slowest case, at least {}",
        units::count_as(outcome.strategies.len(), "strategy", "strategies"),
        units::count(all.generated, "mutant"),
        units::limit(TIME_FLOOR)
    );
    say(&mut out, &head_line);
    out.push('\n');
    for name in &outcome.skipped {
        say(&mut out, &format!("skipped {name}: it does not pass the stored cases itself"));
        out.push('\n');
    }
    let mut head = vec!["strategy", "generated", "compiled", "killed"];
    head.extend(KILLERS.iter().map(|v| v.code()));
    head.extend(["equivalent", "survived"]);
    let right: Vec<usize> = (1..head.len()).collect();
    // What gives way first to the width: the rarer verdicts, then what the others imply.
    let verdicts = head.len() - 2 - KILLERS.len();
    let mut give: Vec<usize> = (verdicts..verdicts + KILLERS.len()).collect();
    give.extend([1, head.len() - 2, 0]);
    let rows: Vec<Vec<String>> = by(outcome, |j| j.strategy.clone()).iter().map(|(s, c)| c.row(s)).collect();
    out.extend(table::fitted(&head, &rows, &right, width, &give, &[0]).into_iter().map(|l| l + "\n"));
    head[0] = "operator";
    let rows: Vec<Vec<String>> = by(outcome, |j| j.mutant.operator).iter().map(|(o, c)| c.row(o.name())).collect();
    out.push('\n');
    out.extend(table::fitted(&head, &rows, &right, width, &give, &[0]).into_iter().map(|l| l + "\n"));
    out.push('\n');
    say(
        &mut out,
        &format!("margins: how many stored testcases kill each killed mutant (a group's testcases each count; counted up to {MARGIN_COUNTED})"),
    );
    let mut margin_head = vec!["strategy", "killed"];
    let named: Vec<String> = (1..=MARGIN_COUNTED).map(|m| format!("by {}", margin_key(m))).collect();
    margin_head.extend(named.iter().map(String::as_str));
    let margin_right: Vec<usize> = (1..margin_head.len()).collect();
    let mut rows: Vec<Vec<String>> = by(outcome, |j| j.strategy.clone()).iter().map(|(s, c)| c.margin_row(s)).collect();
    rows.push(all.margin_row("all"));
    let margin_give: Vec<usize> = (1..margin_head.len()).rev().chain([0]).collect();
    out.extend(
        table::fitted(&margin_head, &rows, &margin_right, width, &margin_give, &[0]).into_iter().map(|l| l + "\n"),
    );
    let thin = thinnest(outcome);
    if !thin.is_empty() {
        out.push('\n');
        say(&mut out, &format!("thinnest margins: killed by fewer than {MARGIN_COUNTED} stored testcases"));
    }
    for judged in thin.iter().take(THIN_SHOWN) {
        let (before, after) = judged.mutant.diff();
        let line = format!(
            "  {}#{}  by {}: {}:{}: {before}  →  {after}",
            judged.strategy,
            judged.index,
            units::count(killers(judged).len(), "testcase"),
            file(outcome, judged),
            judged.mutant.line
        );
        say(&mut out, &line);
        let by = killers(judged).iter().map(|k| units::escape(k)).collect::<Vec<_>>().join(", ");
        say(&mut out, &format!("    killed by {by}"));
    }
    if thin.len() > THIN_SHOWN {
        say(&mut out, &format!("  … and {} more (--format json lists each)", thin.len() - THIN_SHOWN));
    }
    let survived: Vec<&Judged> = survivors(outcome).collect();
    if !survived.is_empty() {
        out.push('\n');
        say(&mut out, "survivors: no stored case tells these from the original");
    }
    for judged in survived {
        let (before, after) = judged.mutant.diff();
        let line = format!(
            "{}#{}  {}:{}: {before}  →  {after}",
            judged.strategy,
            judged.index,
            file(outcome, judged),
            judged.mutant.line
        );
        out.push('\n');
        say(&mut out, &line);
        let _ = writeln!(out, "{}", fit::command("  judge it  ", &judge_it(outcome, judged, invocation), width));
        say(
            &mut out,
            &format!("  if it cannot change any answer, list it in {} with why:", list(outcome, &judged.strategy)),
        );
        say(&mut out, &format!("    {} | {} | <why>", judged.strategy, judged.mutant.key()));
    }
    for stale in &outcome.stale {
        let line = format!(
            "listed as equivalent but killed or gone (remove it from {}): {} | {}",
            list(outcome, &stale.strategy),
            stale.strategy,
            stale.key
        );
        out.push('\n');
        say(&mut out, &line);
    }
    let label = if outcome.changes.confined { "note" } else { "judge error" };
    for line in guard::lines(&outcome.changes, root) {
        out.push('\n');
        say(&mut out, &format!("{label}: {line}"));
    }
    if all.not_judged > 0 {
        let said = "judge error: not judged on every stored testcase, through no fault of their own, so neither killed nor survived";
        out.push('\n');
        say(&mut out, &format!("{said}: {}", units::count(all.not_judged, "mutant")));
    }
    let alive = all.compiled - all.equivalent - all.not_judged;
    let percent = if alive == 0 { 100.0 } else { 100.0 * all.killed() as f64 / alive as f64 };
    let thinnest = (1..MARGIN_COUNTED).find(|m| all.margins[m - 1] > 0);
    let margins = match thinnest {
        None => format!("every one by {MARGIN_COUNTED} stored testcases or more"),
        Some(m) => format!(
            "the thinnest margin {m} ({} by {m}, {} by fewer than {MARGIN_COUNTED})",
            units::count(all.margins[m - 1], "mutant"),
            all.margins[..MARGIN_COUNTED - 1].iter().sum::<usize>()
        ),
    };
    let last = format!(
        "mutants: {percent:.1}% of non-equivalent mutants killed ({} of {}; {} equivalent; {} did not compile), {margins} · wall {}",
        units::thousands(all.killed() as u64),
        units::thousands(alive as u64),
        units::thousands(all.equivalent as u64),
        units::thousands((all.generated - all.compiled) as u64),
        units::duration(outcome.wall)
    );
    out.push('\n');
    say(&mut out, &last);
    out
}

/// Where a strategy's equivalent mutants are listed.
fn list(outcome: &Outcome, strategy: &str) -> String {
    let at = outcome.strategies.iter().position(|s| s == strategy).unwrap_or(0);
    outcome.lists.get(at).cloned().unwrap_or_default()
}

fn file(outcome: &Outcome, judged: &Judged) -> String {
    let strategy = outcome.strategies.iter().position(|s| *s == judged.strategy).unwrap_or(0);
    outcome.files.get(strategy).cloned().unwrap_or_default()
}

pub fn json(outcome: &Outcome, invocation: &Invocation, exit: u8, root: Option<&Path>) -> Json {
    let strategies = by(outcome, |j| j.strategy.clone()).into_iter().map(|(name, counts)| {
        let index = outcome.strategies.iter().position(|s| *s == name).unwrap_or(0);
        let mut fields = vec![("name", Json::str(&name))];
        fields.push(("time_limit_ns", Json::opt(outcome.time_limits.get(index), |t| Json::int(t.as_nanos() as i128))));
        fields.extend(counts.json());
        Json::object(fields)
    });
    let operators = by(outcome, |j| j.mutant.operator).into_iter().map(|(op, counts): (Operator, Counts)| {
        let mut fields = vec![("name", Json::str(op.name()))];
        fields.extend(counts.json());
        Json::object(fields)
    });
    let survivors = survivors(outcome).map(|j| {
        let (before, after) = j.mutant.diff();
        Json::object([
            ("name", Json::str(format!("{}#{}", j.strategy, j.index))),
            ("operator", Json::str(j.mutant.operator.name())),
            ("line", Json::int(j.mutant.line as i128)),
            ("before", Json::str(before)),
            ("after", Json::str(after)),
            ("key", Json::str(j.mutant.key())),
            ("judge_it", Json::str(judge_it(outcome, j, invocation).shell())),
            ("list_in", Json::str(list(outcome, &j.strategy))),
        ])
    });
    let thin = thinnest(outcome).into_iter().map(|j| {
        let (before, after) = j.mutant.diff();
        Json::object([
            ("name", Json::str(format!("{}#{}", j.strategy, j.index))),
            ("margin", Json::int(killers(j).len() as i128)),
            ("killed_by", Json::Array(killers(j).iter().map(Json::str).collect())),
            ("operator", Json::str(j.mutant.operator.name())),
            ("line", Json::int(j.mutant.line as i128)),
            ("before", Json::str(before)),
            ("after", Json::str(after)),
        ])
    });
    let stale = outcome.stale.iter().map(|s| Json::str(format!("{} | {}", s.strategy, s.key)));
    let changes: Vec<Json> = guard::lines(&outcome.changes, root).into_iter().map(Json::str).collect();
    Json::object([
        ("format_version", Json::int(2)),
        ("command", Json::str("mutants")),
        ("exit_status", Json::int(exit)),
        ("wall_ns", Json::int(outcome.wall.as_nanos() as i128)),
        ("strategies", Json::Array(strategies.collect())),
        ("skipped", Json::Array(outcome.skipped.iter().map(Json::str).collect())),
        ("operators", Json::Array(operators.collect())),
        ("margin_counted", Json::int(MARGIN_COUNTED as i128)),
        ("thinnest", Json::Array(thin.collect())),
        ("survivors", Json::Array(survivors.collect())),
        ("stale_equivalents", Json::Array(stale.collect())),
        ("judge_errors", Json::Array(if outcome.changes.confined { Vec::new() } else { changes.clone() })),
        ("notes", Json::Array(if outcome.changes.confined { changes } else { Vec::new() })),
    ])
}
