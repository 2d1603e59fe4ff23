//! The judge's live text report, first part: the header, printed at once; once every solution
//! is built, the legend and the matrix's column heads; then one row per case, printed as soon as
//! every solution has judged that case (or stopped before it).
//!
//! The matrix fits the width it is given. A strategy's cell shows its verdict and the call's
//! time, a wrong submission's only the verdict, `·` where a solution had stopped; a solution
//! that did not build has no column (its CE block says why). When a column for every solution
//! does not fit, the wrong submissions (and, on a narrow terminal, the strategies past those
//! that fit) share the last column, which counts the failures on each case by verdict; the
//! times go before the strategies' columns do, and long case names are cut in the middle, so
//! that names that share a start stay apart. `--full-matrix`
//! gives every solution its column, whatever the width.

use std::fmt::Write as _;

use super::conditions;
use super::fit;
use super::style::Style;
use super::units;
use crate::judging::cases::Case;
use crate::judging::engine::{Event, Fault};
use crate::judging::report::took;
use crate::judging::verdict::Verdict;
use crate::judging::workbench::Workbench;

/// How the judge's text report is laid out.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    pub style: Style,
    /// The columns of the terminal, or of `--width`.
    pub width: usize,
    /// `--full-matrix`: a column for every solution, times and whole case names.
    pub full: bool,
}

/// What one cell shows.
#[derive(Clone)]
struct Cell {
    verdict: Verdict,
    /// The call's time, when it answered within the limit.
    time: Option<std::time::Duration>,
}

/// The `n` column of a case: its piles, or a group's shortest and longest, `1-5`.
pub fn n(case: &Case) -> String {
    let shortest = case.tests.iter().map(|t| t.values.len()).min().unwrap_or(0);
    match case.longest() {
        longest if longest == shortest => longest.to_string(),
        longest => format!("{shortest}-{longest}"),
    }
}

/// The header's line for a group: `short/len-1-to-5: every array of length 1 to 5 over
/// -2..=2, 3,905 cases in one row`.
fn group(case: &Case) -> String {
    let what = match case.every {
        Some(every) => format!(
            "every array of length 1 to {} over {}..={}, {}",
            every.max_len,
            every.low,
            every.high,
            units::count(case.tests.len(), "case")
        ),
        None => format!("{}, one a line", units::count(case.tests.len(), "case")),
    };
    format!("{}: {what} in one row", units::escape(&case.id))
}

/// Case names are cut to no fewer characters than these, first the longer, then the shorter.
const CASE_CUTS: [usize; 2] = [20, 12];
/// The `n` column: the longest input has five digits.
const N_WIDTH: usize = 6;
/// The shared column's width: room for `12 WA, 2 RE`.
const SHARED_WIDTH: usize = 11;

/// Which solutions have a column, and how wide everything is.
#[derive(Clone, Debug)]
struct Columns {
    own: Vec<usize>,
    /// Solutions that ran but have no column: the last column counts their failures.
    shared: Vec<usize>,
    times: bool,
    case_width: usize,
    /// Each case's name cut to `case_width`, in the middle, so that the names stay apart.
    case_names: Vec<String>,
}

pub struct Matrix {
    layout: Layout,
    names: Vec<String>,
    strategy: Vec<bool>,
    /// Each case's id and its `n` column.
    cases: Vec<(String, String)>,
    /// `cells[case][submission]`.
    cells: Vec<Vec<Option<Cell>>>,
    /// Cases judged so far, per submission (each judges cases in order).
    judged: Vec<usize>,
    /// Whether a submission will judge no more cases.
    stopped: Vec<bool>,
    /// Whether a submission was built, once it is known.
    built: Vec<Option<bool>>,
    columns: Option<Columns>,
    printed: usize,
}

impl Matrix {
    /// The header, and the state to print the rest as events come.
    pub fn start(workbench: &Workbench, layout: Layout) -> (Matrix, String) {
        let names: Vec<String> = workbench.submissions.iter().map(|s| s.name.clone()).collect();
        let strategy: Vec<bool> = workbench.submissions.iter().map(|s| s.is_strategy()).collect();
        let cases: Vec<(String, String)> = workbench.cases.iter().map(|c| (units::escape(&c.id), n(c))).collect();
        let suites: std::collections::BTreeSet<&str> = workbench.cases.iter().map(|c| c.suite()).collect();
        let testcases: usize = workbench.cases.iter().map(|c| c.tests.len()).sum();
        let limits = workbench.limits();
        let first = [
            format!(
                "judging {} on {} in {}",
                units::count(names.len(), "solution"),
                units::count(testcases, "case"),
                units::count(suites.len(), "suite")
            ),
            format!("time limit {}", units::limit(limits.time)),
            format!("memory {} MiB", limits.memory_mib),
            format!("stack {} MiB", limits.stack_mib),
        ];
        let rules = workbench.housing.kind.rules();
        let counting = rules.cells.then(|| conditions::counting(workbench.cgroup(), workbench.uncounted.as_deref()));
        let second: Vec<String> = rules
            .note
            .map(str::to_string)
            .into_iter()
            .chain([conditions::sandbox(workbench.unconfined.as_deref())])
            .chain(counting)
            .chain([
                super::paste::compiler(&workbench.compiler.about()),
                format!("judge: {} build", conditions::build_profile()),
            ])
            .collect();
        // Fitted as plain words, then the first made bold: its escape codes take no column.
        let first = fit::joined(&first, " · ", layout.width);
        let groups: String = workbench
            .cases
            .iter()
            .filter(|c| c.is_group())
            .map(|c| fit::words("", &group(c), "  ", layout.width) + "\n")
            .collect();
        let header = format!(
            "{}{}\n{groups}{}\n",
            layout.style.bold("judging"),
            first.strip_prefix("judging").unwrap_or(&first),
            fit::joined(&second, " · ", layout.width)
        );
        let count = names.len();
        let mut matrix = Matrix {
            layout,
            cells: vec![vec![None; count]; cases.len()],
            judged: vec![0; count],
            stopped: vec![false; count],
            built: vec![None; count],
            columns: None,
            printed: 0,
            names,
            strategy,
            cases,
        };
        let head = if count == 0 { matrix.head() } else { String::new() };
        (matrix, header + &head)
    }

    /// A column's width.
    fn width(&self, i: usize, times: bool) -> usize {
        let label = format!("#{}", i + 1).len();
        label.max(if times && self.strategy[i] { 9 } else { 3 })
    }

    /// The width of a layout with these columns and case names cut to `case_width`.
    fn total(&self, own: &[usize], shared: bool, times: bool, case_width: usize) -> usize {
        let columns: usize = own.iter().map(|&i| 2 + self.width(i, times)).sum();
        case_width + 2 + N_WIDTH + columns + if shared { 2 + SHARED_WIDTH } else { 0 }
    }

    /// The layout: a column each if asked or if it fits; else the strategies with their times,
    /// then without, then as many as fit; case names cut as far as `CASE_CUTS` allows first.
    fn choose(&self) -> Columns {
        let ran: Vec<usize> = (0..self.names.len()).filter(|&i| self.built[i] == Some(true)).collect();
        let longest = self.cases.iter().map(|(id, _)| fit::chars(id)).max().unwrap_or(4).max(4);
        if self.layout.full {
            return self.named(Columns {
                own: ran,
                shared: Vec::new(),
                times: true,
                case_width: longest,
                case_names: Vec::new(),
            });
        }
        let (strategies, others): (Vec<usize>, Vec<usize>) = ran.iter().partition(|&&i| self.strategy[i]);
        let width = self.layout.width;
        let fits = |own: &[usize], shared: bool, times: bool, cut: usize| {
            let case_width = longest.min(cut.max(width.saturating_sub(self.total(own, shared, times, 0))));
            (self.total(own, shared, times, case_width) <= width).then_some(case_width)
        };
        let mut tries: Vec<(Vec<usize>, Vec<usize>, bool, usize)> = vec![(ran.clone(), Vec::new(), true, CASE_CUTS[0])];
        for (times, cut) in [(true, CASE_CUTS[0]), (false, CASE_CUTS[0]), (false, CASE_CUTS[1])] {
            tries.push((strategies.clone(), others.clone(), times, cut));
        }
        for (own, shared, times, cut) in tries {
            if let Some(case_width) = fits(&own, !shared.is_empty(), times, cut) {
                return self.named(Columns { own, shared, times, case_width, case_names: Vec::new() });
            }
        }
        // As many strategies as fit beside the shared column, the rest counted in it.
        let mut own = strategies;
        while !own.is_empty() && fits(&own, true, false, CASE_CUTS[1]).is_none() {
            own.pop();
        }
        let shared: Vec<usize> = ran.iter().copied().filter(|i| !own.contains(i)).collect();
        let case_width = fits(&own, !shared.is_empty(), false, CASE_CUTS[1]).unwrap_or(CASE_CUTS[1]);
        self.named(Columns { own, shared, times: false, case_width, case_names: Vec::new() })
    }

    /// `columns` with the case names cut to its width.
    fn named(&self, columns: Columns) -> Columns {
        let ids: Vec<String> = self.cases.iter().map(|(id, _)| id.clone()).collect();
        Columns { case_names: fit::cut_apart(&ids, columns.case_width), ..columns }
    }

    /// The shared column's head: the range of numbers it stands for, or `others`.
    fn shared_label(shared: &[usize]) -> String {
        match (shared.first(), shared.last()) {
            (Some(a), Some(b)) if b - a + 1 == shared.len() && a != b => format!("#{}–#{}", a + 1, b + 1),
            (Some(a), _) if shared.len() == 1 => format!("#{}", a + 1),
            _ => "others".to_string(),
        }
    }

    /// Once every solution is built: the legend of the columns and the column heads.
    fn head(&mut self) -> String {
        let columns = self.choose();
        let style = self.layout.style;
        let mut legend: Vec<String> = columns.own.iter().map(|&i| format!("#{} {}", i + 1, self.names[i])).collect();
        if !columns.shared.is_empty() {
            legend.push(format!(
                "{}: {} without a column of their own (--full-matrix gives each one), counted by verdict in the last column where they failed",
                Matrix::shared_label(&columns.shared),
                units::count(columns.shared.len(), "solution")
            ));
        }
        let mut out = String::new();
        if !legend.is_empty() {
            let _ = writeln!(out, "{}", style.dim(&fit::joined(&legend, " · ", self.layout.width)));
        }
        if !self.cases.is_empty() && (!columns.own.is_empty() || !columns.shared.is_empty()) {
            let mut head = format!("\n{:w$}  {:>N_WIDTH$}", "case", "n", w = columns.case_width);
            for &i in &columns.own {
                let _ = write!(head, "  {:<w$}", format!("#{}", i + 1), w = self.width(i, columns.times));
            }
            if !columns.shared.is_empty() {
                let _ = write!(head, "  {}", Matrix::shared_label(&columns.shared));
            }
            let _ = writeln!(out, "{}", head.trim_end());
        }
        self.columns = Some(columns);
        out
    }

    /// The rows an event completes, if any; the legend and heads once every solution is built.
    pub fn event(&mut self, event: &Event) -> String {
        let mut out = String::new();
        match event {
            Event::Compiled { submission, error } => self.built[*submission] = Some(error.is_none()),
            Event::Faulted { submission, fault: Fault::Build(_) } => self.built[*submission] = Some(false),
            Event::Running { .. } => return out,
            Event::Judged { submission, case, result } => {
                let verdict = result.verdict.unwrap_or(Verdict::Re);
                let time = took(&result.call).filter(|t| !t.cut).map(|t| t.time);
                self.cells[*case][*submission] = Some(Cell { verdict, time });
                self.judged[*submission] = case + 1;
            }
            Event::Stopped { submission, .. } | Event::Faulted { submission, .. } => self.stopped[*submission] = true,
        }
        if let Event::Compiled { submission, .. } | Event::Faulted { submission, fault: Fault::Build(_) } = event {
            if self.built[*submission] == Some(false) {
                self.stopped[*submission] = true;
            }
            if self.columns.is_none() && self.built.iter().all(Option::is_some) {
                out.push_str(&self.head());
            }
        }
        out + &self.rows(false)
    }

    /// What the shared column says on case `c`: how many of its solutions failed there, by
    /// verdict.
    fn shared_cell(&self, c: usize, shared: &[usize]) -> String {
        let failed: Vec<Verdict> =
            shared.iter().filter_map(|&s| self.cells[c][s].as_ref()).map(|cell| cell.verdict).collect();
        let counts: Vec<String> = Verdict::PRECEDENCE
            .iter()
            .filter(|v| **v != Verdict::Ac)
            .map(|v| (v, failed.iter().filter(|f| *f == v).count()))
            .filter(|(_, n)| *n > 0)
            .map(|(v, n)| format!("{n} {}", v.code()))
            .collect();
        fit::cut(&counts.join(", "), SHARED_WIDTH)
    }

    /// Every row not yet printed; `all` prints even those still waiting (at the end).
    pub fn rows(&mut self, all: bool) -> String {
        let mut out = String::new();
        let Some(columns) = self.columns.clone() else { return out };
        if columns.own.is_empty() && columns.shared.is_empty() {
            return out;
        }
        while self.printed < self.cases.len() {
            let c = self.printed;
            let ready = (0..self.names.len()).all(|s| self.stopped[s] || self.judged[s] > c);
            if !ready && !all {
                break;
            }
            // Once every solution has stopped before a case, the rows left would hold only `·`.
            let shown = columns.own.iter().chain(&columns.shared);
            if shown.clone().all(|&s| self.stopped[s] && self.judged[s] <= c) {
                let left = self.cases.len() - c;
                let said =
                    format!("… {} not run: every solution had stopped before them", units::count(left, "more case"));
                let _ = writeln!(out, "{}", self.layout.style.dim(&said));
                self.printed = self.cases.len();
                break;
            }
            let (id, n) = (&columns.case_names[c], fit::cut(&self.cases[c].1, N_WIDTH));
            let mut line = format!("{id:w$}  {n:>N_WIDTH$}", w = columns.case_width);
            for &s in &columns.own {
                let width = self.width(s, columns.times);
                let cell = match &self.cells[c][s] {
                    None => self.layout.style.dim(&format!("{:<width$}", "·")),
                    Some(cell) => {
                        let text = match (columns.times && self.strategy[s], cell.time) {
                            (true, Some(time)) => format!("{} {}", cell.verdict.code(), units::duration(time)),
                            _ => cell.verdict.code().to_string(),
                        };
                        self.layout.style.verdict(cell.verdict, &format!("{text:<width$}"))
                    }
                };
                let _ = write!(line, "  {cell}");
            }
            if !columns.shared.is_empty() {
                let _ = write!(line, "  {}", self.shared_cell(c, &columns.shared));
            }
            let _ = writeln!(out, "{}", line.trim_end());
            self.printed += 1;
        }
        out
    }
}
