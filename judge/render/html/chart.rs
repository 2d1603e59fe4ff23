//! The page's comparison: each solution's time per call against n and its memory against n,
//! both on log axes, as inline SVG that scales to the page's width; the bundled strategies
//! drawn thin and solid, the user's attempts thick and dashed with open markers; the floor
//! program's chain as a dotted line where it has run; and a legend beside, in HTML, with each
//! series' growth in words.

use std::fmt::Write as _;
use std::time::Duration;

use crate::render::axis::LogAxis;
use crate::render::units::{self, markup, scaled, BYTE_UNITS, TIME_UNITS};
use crate::search::growth::Growth;

/// Colours a series is drawn in, by the class `s0` … (see `page.css`).
const COLOURS: usize = 11;

/// One solution's points.
pub struct Series {
    pub name: String,
    /// Time per call by n, ascending.
    pub time: Vec<(usize, Duration)>,
    /// Memory in KiB by n, ascending.
    pub memory: Vec<(usize, u64)>,
    /// How its time grows, timed on prefixes of one input (bench, or a strategy that hit the
    /// time limit).
    pub growth: Option<Growth>,
}

impl Series {
    /// One of the bundled strategies, not the user's attempt.
    pub fn reference(&self) -> bool {
        crate::render::svg::KNOWN.contains(&self.name.as_str())
    }
}

/// The floor program's reading: the chain of dependent steps no strategy goes below.
#[derive(Clone, Debug, PartialEq)]
pub struct Floor {
    pub n: usize,
    pub ns_per_pile: f64,
}

/// Where the figures come from.
pub enum Measured {
    /// The judged run: each call on the stored cases, on this CPU.
    Cases { cpu: Option<String> },
    /// `bench`: the median of `reps` calls per size, and its machine.
    Bench { reps: u32, cpu: Option<String>, cores: usize, started: std::time::SystemTime },
}

pub struct Comparison {
    pub measured: Measured,
    pub series: Vec<Series>,
    /// None where `floor` has not run.
    pub floor: Option<Floor>,
    /// The time limit the growth is said against.
    pub limit: Duration,
}

/// What the floor's missing line says: how to draw it.
const NO_FLOOR: &str = "The floor program has not run here: cargo build --release --bin floor && taskset -c 1 target/release/floor draws its line on the next page.";

impl Comparison {
    /// The line under the heading: what the times and the memory are, and where from.
    pub fn says(&self) -> String {
        let cpu = |cpu: &Option<String>| cpu.clone().unwrap_or_else(|| "an unnamed CPU".to_string());
        match &self.measured {
            Measured::Cases { cpu: c } => format!(
                "Each solution's time per call on the stored cases against n, the kernel's count of its CPU time (the median where cases share an n), on {}; and its process's peak memory. These times hold each call's fixed cost: cargo judge bench --html times each strategy by size, and says how its time grows.",
                cpu(c)
            ),
            Measured::Bench { reps, cpu: c, cores, started } => format!(
                "Each strategy's median time per call over {reps} calls against n (the kernel's count of its CPU time, less a dry call's), and the resident memory a fresh child gains over one call; {}, {cores} logical cores, measured {}.",
                cpu(c),
                units::utc(*started)
            ),
        }
    }

    /// The memory axis's title, and the reading at or under which readings tell nothing apart
    /// (bench counts pages): those are drawn on it, labelled `≤`.
    fn memory(&self) -> (&'static str, u64) {
        match self.measured {
            Measured::Cases { .. } => ("peak resident memory", 0),
            Measured::Bench { .. } => ("extra resident memory", crate::render::bench::PAGE_KIB),
        }
    }
}

const W: f64 = 640.0;
const H: f64 = 360.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 14.0;
const TOP: f64 = 12.0;
const BOTTOM: f64 = 46.0;

/// Each axis ends a twentieth of its span beyond its data, or half a decade either side of a
/// single value.
const PAD: (f64, f64) = (0.0, 0.5);

/// Powers of `base` inside the axis, every `step`th so that at most eight are left.
fn ticks(axis: LogAxis, base: f64) -> Vec<f64> {
    let all = axis.powers(base, &[1.0]);
    let step = all.len().div_ceil(8).max(1);
    all.into_iter().step_by(step).collect()
}

/// A panel's points: per series, (n, value) where value is on the y axis's unit.
type Points = Vec<Vec<(f64, f64)>>;

struct Panel<'a> {
    id: &'a str,
    title: &'a str,
    units: &'a [(f64, &'a str)],
    base: f64,
    /// Values under this are drawn on it, and its tick says `≤` it.
    least: f64,
    points: Points,
}

fn panel(out: &mut String, comparison: &Comparison, x: LogAxis, panel: &Panel) {
    let values: Vec<f64> = panel.points.iter().flatten().map(|p| p.1.max(panel.least)).collect();
    let under = panel.points.iter().flatten().any(|p| p.1 <= panel.least && panel.least > 0.0);
    let y = LogAxis::covering(values.iter().copied(), (1.0, 10.0), PAD, (H - BOTTOM, TOP));
    let _ = writeln!(
        out,
        "<figure class=\"panel\"><svg id=\"{}\" viewBox=\"0 0 {W} {H}\" role=\"img\" aria-label=\"{}\">",
        panel.id,
        markup(panel.title)
    );
    let (plot_w, plot_h) = (W - LEFT - RIGHT, H - TOP - BOTTOM);
    let _ = writeln!(out, "<rect class=\"frame\" x=\"{LEFT}\" y=\"{TOP}\" width=\"{plot_w}\" height=\"{plot_h}\"/>");
    for n in ticks(x, 10.0) {
        let px = x.at(n);
        let _ =
            write!(out, "<line class=\"grid\" x1=\"{px:.1}\" y1=\"{TOP}\" x2=\"{px:.1}\" y2=\"{:.1}\"/>", H - BOTTOM);
        let _ = writeln!(
            out,
            "<text x=\"{px:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            H - BOTTOM + 16.0,
            units::thousands(n as u64)
        );
    }
    // Powers of the base, else of its root, else the ends of what is drawn.
    let mut y_ticks = ticks(y, panel.base);
    if y_ticks.len() < 2 {
        y_ticks = ticks(y, panel.base.sqrt());
    }
    if y_ticks.len() < 2 {
        y_ticks = vec![y.min, y.max];
    }
    if under {
        y_ticks.retain(|v| *v > panel.least * 1.5);
        y_ticks.insert(0, panel.least);
    }
    for v in y_ticks {
        let py = y.at(v);
        let at_most = if under && v == panel.least { "≤ " } else { "" };
        let _ =
            write!(out, "<line class=\"grid\" x1=\"{LEFT}\" y1=\"{py:.1}\" x2=\"{:.1}\" y2=\"{py:.1}\"/>", W - RIGHT);
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{at_most}{}</text>",
            LEFT - 6.0,
            py + 4.0,
            scaled(v, panel.units)
        );
    }
    let _ = writeln!(
        out,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">n, the number of piles (log scale)</text>",
        LEFT + plot_w / 2.0,
        H - 8.0
    );
    let (tx, ty) = (16.0, TOP + plot_h / 2.0);
    let _ = writeln!(
        out,
        "<text x=\"{tx}\" y=\"{ty}\" text-anchor=\"middle\" transform=\"rotate(-90 {tx} {ty})\">{} (log scale)</text>",
        markup(panel.title)
    );
    if let (Some(floor), "time") = (&comparison.floor, panel.id) {
        // time = ns_per_pile × n: the part of that line inside both axes.
        let lo = 10f64.powf(x.lo).max(10f64.powf(y.lo) / floor.ns_per_pile);
        let hi = 10f64.powf(x.hi).min(10f64.powf(y.hi) / floor.ns_per_pile);
        if lo < hi {
            let (x1, y1, x2, y2) = (x.at(lo), y.at(lo * floor.ns_per_pile), x.at(hi), y.at(hi * floor.ns_per_pile));
            let _ = writeln!(
                out,
                "<line class=\"floor\" x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\"><title>floor: {:.2} ns a pile</title></line>",
                floor.ns_per_pile
            );
        }
    }
    for (k, (series, points)) in comparison.series.iter().zip(&panel.points).enumerate() {
        let kind = if series.reference() { "reference" } else { "attempt" };
        let _ = write!(
            out,
            "<g class=\"series s{} {kind}\" data-panel=\"{}\" data-name=\"{}\">",
            colour(comparison, k),
            panel.id,
            markup(&series.name)
        );
        let path: Vec<String> =
            points.iter().map(|&(n, v)| format!("{:.1},{:.1}", x.at(n), y.at(v.max(panel.least)))).collect();
        let _ = write!(out, "<polyline points=\"{}\"/>", path.join(" "));
        for &(n, v) in points {
            let (px, py) = (x.at(n), y.at(v.max(panel.least)));
            let title = format!("{} · n = {} · {}", series.name, units::thousands(n as u64), scaled(v, panel.units));
            let mark = match series.reference() {
                true => format!("<circle cx=\"{px:.1}\" cy=\"{py:.1}\" r=\"3\">"),
                false => format!("<rect x=\"{:.1}\" y=\"{:.1}\" width=\"7\" height=\"7\">", px - 3.5, py - 3.5),
            };
            let end = if series.reference() { "</circle>" } else { "</rect>" };
            let _ = write!(out, "{mark}<title>{}</title>{end}", markup(&title));
        }
        out.push_str("</g>\n");
    }
    if values.is_empty() {
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">no reading</text>",
            LEFT + plot_w / 2.0,
            TOP + plot_h / 2.0
        );
    }
    let _ = writeln!(out, "</svg><figcaption>{}</figcaption></figure>", markup(panel.title));
}

/// Series `k`'s colour: a bundled strategy's is its own, the same on every page; an attempt
/// takes the next of those no strategy has.
fn colour(comparison: &Comparison, k: usize) -> usize {
    let known = crate::render::svg::KNOWN;
    match known.iter().position(|name| *name == comparison.series[k].name) {
        Some(own) => own,
        None => {
            let before = comparison.series[..k].iter().filter(|s| !s.reference()).count();
            (known.len() + before) % COLOURS
        }
    }
}

/// Each series' swatch, name and growth: the user's attempts first, then the references.
fn legend(out: &mut String, comparison: &Comparison) {
    let groups = [(false, "your attempts"), (true, "references: the bundled strategies")];
    for (reference, heading) in groups {
        let members: Vec<(usize, &Series)> =
            comparison.series.iter().enumerate().filter(|(_, s)| s.reference() == reference).collect();
        if members.is_empty() {
            continue;
        }
        let _ = write!(out, "<h3>{heading}</h3><ul class=\"legend\">");
        for (k, series) in members {
            let kind = if reference { "reference" } else { "attempt" };
            let _ = write!(
                out,
                "<li><svg class=\"swatch\" viewBox=\"0 0 40 10\"><g class=\"series s{} {kind}\"><polyline points=\"0,5 40,5\"/></g></svg> <b>{}</b>",
                colour(comparison, k),
                markup(&series.name)
            );
            let growth = match &series.growth {
                Some(growth) => crate::render::growth::words(growth, comparison.limit),
                None if series.time.is_empty() => "not timed".to_string(),
                None => "how its time grows: cargo judge bench --html".to_string(),
            };
            let _ = write!(out, " <span class=\"growth\">{}</span></li>", markup(&growth));
        }
        out.push_str("</ul>\n");
    }
    let said = match &comparison.floor {
        Some(floor) => format!(
            "dotted: the floor program's chain of dependent steps, {:.2} ns a pile at n = {}, which no strategy goes below",
            floor.ns_per_pile,
            units::thousands(floor.n as u64)
        ),
        None => NO_FLOOR.to_string(),
    };
    let _ = writeln!(out, "<p class=\"floor-note\">{}</p>", markup(&said));
}

pub fn render(comparison: &Comparison) -> String {
    let ns = (comparison.series.iter())
        .flat_map(|s| s.time.iter().map(|p| p.0).chain(s.memory.iter().map(|p| p.0)))
        .map(|n| n.max(1) as f64);
    let x = LogAxis::covering(ns, (1.0, 10.0), PAD, (LEFT, W - RIGHT));
    let time = Panel {
        id: "time",
        title: "time per call",
        units: &TIME_UNITS,
        base: 10.0,
        least: 0.0,
        points: (comparison.series.iter())
            .map(|s| s.time.iter().map(|&(n, t)| (n.max(1) as f64, (t.as_nanos() as f64).max(1.0))).collect())
            .collect(),
    };
    let (title, least_kib) = comparison.memory();
    let memory = Panel {
        id: "memory",
        title,
        units: &BYTE_UNITS,
        base: 4.0,
        least: least_kib as f64 * 1024.0,
        points: (comparison.series.iter())
            .map(|s| s.memory.iter().map(|&(n, kib)| (n.max(1) as f64, (kib as f64 * 1024.0).max(1.0))).collect())
            .collect(),
    };
    let mut out = String::from("<div class=\"charts\">\n");
    panel(&mut out, comparison, x, &time);
    panel(&mut out, comparison, x, &memory);
    out.push_str("</div>\n<div class=\"key\">\n");
    legend(&mut out, comparison);
    out.push_str("</div>\n");
    out
}
