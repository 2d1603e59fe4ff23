//! The judge's live text report, first part: the header, printed at once, then the matrix, one
//! row per case printed as soon as every solution has judged that case (or stopped before it).
//! A strategy's cell shows its verdict and the call's time; a wrong submission's only the
//! verdict, so two dozen columns fit a terminal; `·` where a solution had stopped.

use std::fmt::Write as _;

use super::style::Style;
use super::units;
use super::words;
use crate::judging::engine::Event;
use crate::judging::verdict::Verdict;
use crate::judging::workbench::Workbench;

/// What one cell shows.
#[derive(Clone)]
struct Cell {
    verdict: Verdict,
    nanos: Option<u64>,
}

/// The legend of column numbers is wrapped at this width.
const LEGEND_WIDTH: usize = 100;

/// `items` joined by `separator`, a new line before an item that would pass `width`.
fn wrapped(items: &[String], separator: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for (i, item) in items.iter().enumerate() {
        let needed = item.chars().count() + if i == 0 { 0 } else { separator.chars().count() };
        if i > 0 && line + needed > width {
            out.push('\n');
            line = 0;
        } else if i > 0 {
            out.push_str(separator);
        }
        out.push_str(item);
        line += if line == 0 { item.chars().count() } else { needed };
    }
    out
}

pub struct Matrix {
    style: Style,
    names: Vec<String>,
    strategy: Vec<bool>,
    cases: Vec<(String, usize)>,
    /// `cells[case][submission]`.
    cells: Vec<Vec<Option<Cell>>>,
    /// Cases judged so far, per submission (each judges cases in order).
    judged: Vec<usize>,
    /// Whether a submission will judge no more cases.
    stopped: Vec<bool>,
    printed: usize,
    case_width: usize,
}

impl Matrix {
    /// The header and the matrix's column heads, and the state to print its rows.
    pub fn start(bench: &Workbench, style: Style) -> (Matrix, String) {
        let names: Vec<String> = bench.submissions.iter().map(|s| s.name.clone()).collect();
        let strategy: Vec<bool> = bench.submissions.iter().map(|s| s.is_strategy()).collect();
        let cases: Vec<(String, usize)> = bench.cases.iter().map(|c| (units::escape(&c.id), c.values.len())).collect();
        let suites: std::collections::BTreeSet<&str> = bench.cases.iter().map(|c| c.suite()).collect();
        let case_width = cases.iter().map(|(id, _)| id.chars().count()).max().unwrap_or(4).max(4);
        let mut out = String::new();
        let limits = bench.limits();
        let _ = writeln!(
            out,
            "{} {} on {} in {} · time limit {} · memory {} MiB · stack {} MiB\n{} · {} · {} · judge: {} build",
            style.bold("judging"),
            units::count(names.len(), "solution"),
            units::count(cases.len(), "case"),
            units::count(suites.len(), "suite"),
            units::limit(limits.time),
            limits.memory_mib,
            limits.stack_mib,
            words::sandbox(bench.unconfined.as_deref()),
            words::counting(bench.cgroup(), bench.uncounted.as_deref()),
            super::paste::compiler(&bench.compiler.about()),
            words::build_profile()
        );
        let legend: Vec<String> = names.iter().enumerate().map(|(i, n)| format!("#{} {n}", i + 1)).collect();
        let _ = writeln!(out, "{}\n", style.dim(&wrapped(&legend, " · ", LEGEND_WIDTH)));
        let count = names.len();
        let matrix = Matrix {
            style,
            cells: vec![vec![None; count]; cases.len()],
            judged: vec![0; count],
            stopped: vec![false; count],
            printed: 0,
            case_width,
            names,
            strategy,
            cases,
        };
        if !matrix.cases.is_empty() && count > 0 {
            let mut head = format!("{:w$}  {:>6}", "case", "n", w = case_width);
            for i in 0..count {
                let _ = write!(head, "  {:<w$}", format!("#{}", i + 1), w = matrix.width(i));
            }
            let _ = writeln!(out, "{}", head.trim_end());
        }
        (matrix, out)
    }

    fn width(&self, i: usize) -> usize {
        let label = format!("#{}", i + 1).len();
        label.max(if self.strategy[i] { 9 } else { 3 })
    }

    /// The rows an event completes, if any.
    pub fn event(&mut self, event: &Event) -> String {
        match event {
            Event::Compiled { submission, error: Some(_) } => {
                if let Some(row) = self.cells.first_mut() {
                    row[*submission] = Some(Cell { verdict: Verdict::Ce, nanos: None });
                }
                self.stopped[*submission] = true;
            }
            Event::Compiled { .. } | Event::Running { .. } => return String::new(),
            Event::Judged { submission, case, result } => {
                let verdict = result.verdict.unwrap_or(Verdict::Re);
                let nanos = result.call.result.as_ref().ok().map(|a| a.nanos);
                self.cells[*case][*submission] = Some(Cell { verdict, nanos });
                self.judged[*submission] = case + 1;
            }
            Event::Stopped { submission } | Event::Faulted { submission } => self.stopped[*submission] = true,
        }
        self.rows(false)
    }

    /// Every row not yet printed; `all` prints even those still waiting (at the end).
    pub fn rows(&mut self, all: bool) -> String {
        let mut out = String::new();
        while self.printed < self.cases.len() {
            let c = self.printed;
            let ready = (0..self.names.len()).all(|s| self.stopped[s] || self.judged[s] > c);
            if !ready && !all {
                break;
            }
            let (id, n) = &self.cases[c];
            let mut line = format!("{:w$}  {:>6}", id, n, w = self.case_width);
            for s in 0..self.names.len() {
                let width = self.width(s);
                let cell = match &self.cells[c][s] {
                    None => self.style.dim(&format!("{:<width$}", "·")),
                    Some(cell) => {
                        let text = match (self.strategy[s], cell.nanos) {
                            (true, Some(ns)) => format!("{} {}", cell.verdict.code(), units::nanos(ns)),
                            _ => cell.verdict.code().to_string(),
                        };
                        self.style.verdict(cell.verdict, &format!("{text:<width$}"))
                    }
                };
                let _ = write!(line, "  {cell}");
            }
            let _ = writeln!(out, "{}", line.trim_end());
            self.printed += 1;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::wrapped;

    #[test]
    fn a_legend_wraps_before_an_item_that_would_pass_the_width() {
        let items: Vec<String> = ["#1 aaaa", "#2 bbbb", "#3 cccc"].map(String::from).to_vec();
        assert_eq!(wrapped(&items, " · ", 17), "#1 aaaa · #2 bbbb\n#3 cccc");
        assert_eq!(wrapped(&items, " · ", 100), "#1 aaaa · #2 bbbb · #3 cccc");
        assert_eq!(wrapped(&items[..1], " · ", 3), "#1 aaaa");
    }
}
