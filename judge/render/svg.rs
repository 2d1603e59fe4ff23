//! The bench chart as one self-contained SVG: no scripts, fonts or links, so it opens offline
//! in any browser. Top panel: median time per call against n, log-log, bars from min to max.
//! Bottom panel: extra resident memory against n, log-log, with zeros on a row of their own
//! below the log scale (a log axis has no zero).

use std::fmt::Write as _;
use std::time::Duration;

use super::units::duration as show_duration;
use crate::bench::{Report, SEED};

const WIDTH: f64 = 860.0;
const HEIGHT: f64 = 880.0;
const LEFT: f64 = 90.0;
const PLOT_W: f64 = 560.0;
const PLOT_H: f64 = 300.0;
const TIME_TOP: f64 = 90.0;
const MEMORY_TOP: f64 = 480.0;
/// The band at the bottom of the memory panel where zero readings sit.
const ZERO_BAND: f64 = 28.0;
/// Okabe–Ito colours: distinct for the common kinds of colour blindness.
const COLORS: [&str; 6] = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9"];

/// Decades 10^lo ..= 10^hi.
#[derive(Clone, Copy)]
struct LogAxis {
    lo: i32,
    hi: i32,
}

impl LogAxis {
    fn covering(values: impl Iterator<Item = f64>) -> Option<LogAxis> {
        let (mut min, mut max) = (f64::INFINITY, 0.0f64);
        for v in values.filter(|v| *v > 0.0) {
            (min, max) = (min.min(v), max.max(v));
        }
        if max <= 0.0 {
            return None;
        }
        let lo = min.log10().floor() as i32;
        Some(LogAxis { lo, hi: (max.log10().ceil() as i32).max(lo + 1) })
    }

    /// Where `v` falls, 0 at 10^lo and 1 at 10^hi.
    fn fraction(self, v: f64) -> f64 {
        (v.log10() - f64::from(self.lo)) / f64::from(self.hi - self.lo)
    }
}

struct Panel {
    top: f64,
    x: LogAxis,
    y: LogAxis,
    /// Height of the log part; a zero band, when there is one, lies below it.
    log_h: f64,
}

impl Panel {
    fn px(&self, n: f64) -> f64 {
        LEFT + self.x.fraction(n) * PLOT_W
    }

    /// Zero (and below) maps to the middle of the zero band.
    fn py(&self, v: f64) -> f64 {
        if v <= 0.0 {
            return self.top + PLOT_H - ZERO_BAND / 2.0;
        }
        self.top + (1.0 - self.y.fraction(v)) * self.log_h
    }
}

pub fn render(report: &Report) -> String {
    let mut out = String::new();
    let cores = report.cores.map_or("unknown".to_string(), |c| c.to_string());
    let caption = format!(
        "{} · {cores} logical cores · median of {} calls per point, bars from min to max \
         · uniform input, seed {SEED}",
        report.compiler, report.reps
    );
    writeln!(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>").unwrap();
    writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
         viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"sans-serif\" font-size=\"12\">"
    )
    .unwrap();
    writeln!(out, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>").unwrap();
    let title = "Stone Game III strategies: time and extra memory by input size";
    text(&mut out, LEFT, 30.0, "start", "font-size=\"17\" font-weight=\"bold\"", title);
    text(&mut out, LEFT, 52.0, "start", "fill=\"#444\"", &caption);
    let x = LogAxis::covering(report.rows.iter().map(|r| r.n as f64));
    let x = x.unwrap_or(LogAxis { lo: 0, hi: 1 });
    time_panel(&mut out, report, x);
    memory_panel(&mut out, report, x);
    legend(&mut out, report);
    out.push_str("</svg>\n");
    out
}

fn time_panel(out: &mut String, report: &Report, x: LogAxis) {
    let times = report.rows.iter().flat_map(|r| [r.time.min, r.time.max]);
    let y = LogAxis::covering(times.map(|t| t.max(1) as f64));
    let panel = Panel { top: TIME_TOP, x, y: y.unwrap_or(LogAxis { lo: 2, hi: 3 }), log_h: PLOT_H };
    frame(out, &panel, "time per call (log scale)", |k| decade_label(k, &["ns", "µs", "ms", "s"]));
    for (i, name) in report.strategies.iter().enumerate() {
        let rows: Vec<_> = report.rows.iter().filter(|r| &r.strategy == name).collect();
        let show = |ns: u64| show_duration(Duration::from_nanos(ns));
        let points: Vec<Point> = rows
            .iter()
            .map(|r| Point {
                x: panel.px(r.n as f64),
                y: panel.py(r.time.median.max(1) as f64),
                bar: Some((panel.py(r.time.min.max(1) as f64), panel.py(r.time.max.max(1) as f64))),
                title: format!("{name} · n = {} · median {}", r.n, show(r.time.median)),
            })
            .collect();
        series(out, "time", i, name, &points);
    }
}

fn memory_panel(out: &mut String, report: &Report, x: LogAxis) {
    let bytes = |kib: u64| kib as f64 * 1024.0;
    let measured = report.rows.iter().filter_map(|r| r.extra_kib.map(bytes));
    let panel = Panel {
        top: MEMORY_TOP,
        x,
        y: LogAxis::covering(measured).unwrap_or(LogAxis { lo: 3, hi: 4 }),
        log_h: PLOT_H - ZERO_BAND,
    };
    frame(out, &panel, "extra resident memory (log scale)", |k| decade_label(k, &["B", "kB", "MB", "GB", "TB"]));
    // The zero band, set off from the log scale by a dashed line.
    let edge = MEMORY_TOP + panel.log_h;
    line(out, (LEFT, edge), (LEFT + PLOT_W, edge), "stroke=\"#999\" stroke-dasharray=\"4 3\"");
    text(out, LEFT - 8.0, panel.py(0.0) + 4.0, "end", "", "0");
    if report.rows.iter().all(|r| r.extra_kib.is_none()) {
        let (mid, why) = (MEMORY_TOP + PLOT_H / 2.0, "n/a: this system gives no peak resident memory to read");
        text(out, LEFT + PLOT_W / 2.0, mid, "middle", "fill=\"#a00\"", why);
    }
    let notes = [
        "extra memory: resident memory a fresh child process gains over one call, its input",
        "already built; counted page by page (4 KiB), touched stack included",
    ];
    for (i, note) in notes.iter().enumerate() {
        text(out, LEFT, MEMORY_TOP + PLOT_H + 62.0 + 16.0 * i as f64, "start", "fill=\"#444\"", note);
    }
    for (i, name) in report.strategies.iter().enumerate() {
        let points: Vec<Point> = report
            .rows
            .iter()
            .filter(|r| &r.strategy == name)
            .filter_map(|r| {
                let kib = r.extra_kib?;
                Some(Point {
                    x: panel.px(r.n as f64),
                    y: panel.py(bytes(kib)),
                    bar: None,
                    title: format!("{name} · n = {} · {kib} KiB", r.n),
                })
            })
            .collect();
        series(out, "memory", i, name, &points);
    }
}

/// The plot area, grid lines and tick labels at each power of ten, and the axis titles.
fn frame(out: &mut String, panel: &Panel, y_title: &str, y_label: impl Fn(i32) -> String) {
    let (top, bottom) = (panel.top, panel.top + PLOT_H);
    for k in panel.x.lo..=panel.x.hi {
        let x = panel.px(10f64.powi(k));
        line(out, (x, top), (x, bottom), "stroke=\"#e4e4e4\"");
        text(out, x, bottom + 18.0, "middle", "", &power_of_ten(k));
    }
    for k in panel.y.lo..=panel.y.hi {
        let y = panel.py(10f64.powi(k));
        line(out, (LEFT, y), (LEFT + PLOT_W, y), "stroke=\"#e4e4e4\"");
        text(out, LEFT - 8.0, y + 4.0, "end", "", &y_label(k));
    }
    writeln!(
        out,
        "<rect x=\"{LEFT}\" y=\"{top}\" width=\"{PLOT_W}\" height=\"{PLOT_H}\" fill=\"none\" stroke=\"#333\"/>"
    )
    .unwrap();
    let mid_x = LEFT + PLOT_W / 2.0;
    text(out, mid_x, bottom + 40.0, "middle", "", "n, the number of piles (log scale)");
    let (tx, ty) = (24.0, top + PLOT_H / 2.0);
    let turn = format!("transform=\"rotate(-90 {tx} {ty})\"");
    text(out, tx, ty, "middle", &turn, y_title);
}

struct Point {
    x: f64,
    y: f64,
    /// The y of the min and of the max, for a bar.
    bar: Option<(f64, f64)>,
    title: String,
}

/// One strategy's points in one panel: a polyline, its bars, and a marker per point.
fn series(out: &mut String, panel: &str, index: usize, name: &str, points: &[Point]) {
    let color = COLORS[index % COLORS.len()];
    writeln!(
        out,
        "<g class=\"series\" data-panel=\"{panel}\" data-strategy=\"{}\" fill=\"{color}\" stroke=\"{color}\">",
        escape(name)
    )
    .unwrap();
    let path: Vec<String> = points.iter().map(|p| format!("{:.1},{:.1}", p.x, p.y)).collect();
    writeln!(out, "<polyline fill=\"none\" stroke-width=\"1.6\" points=\"{}\"/>", path.join(" ")).unwrap();
    for p in points {
        if let Some((low, high)) = p.bar {
            line(out, (p.x, low), (p.x, high), "stroke-width=\"1\"");
        }
        marker(out, index, p.x, p.y, Some(&p.title));
    }
    out.push_str("</g>\n");
}

/// A marker whose shape tells the strategy apart without colour.
fn marker(out: &mut String, index: usize, x: f64, y: f64, title: Option<&str>) {
    let poly = |pts: &[(f64, f64)]| {
        let pts: Vec<String> = pts.iter().map(|(dx, dy)| format!("{:.1},{:.1}", x + dx, y + dy)).collect();
        format!("<polygon points=\"{}\"", pts.join(" "))
    };
    let open = match index % 6 {
        0 => format!("<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"4.5\""),
        1 => format!("<rect x=\"{:.1}\" y=\"{:.1}\" width=\"8\" height=\"8\"", x - 4.0, y - 4.0),
        2 => poly(&[(0.0, -5.5), (5.0, 3.5), (-5.0, 3.5)]),
        3 => poly(&[(0.0, -5.5), (5.5, 0.0), (0.0, 5.5), (-5.5, 0.0)]),
        4 => poly(&[(0.0, 5.5), (5.0, -3.5), (-5.0, -3.5)]),
        _ => format!("<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"4.5\" fill=\"white\" stroke-width=\"2\""),
    };
    match title {
        Some(t) => writeln!(out, "{open}><title>{}</title>{}>", escape(t), closing(&open)),
        None => writeln!(out, "{open}/>"),
    }
    .unwrap();
}

fn closing(open: &str) -> String {
    let tag = open[1..].split(' ').next().unwrap_or("g");
    format!("</{tag}")
}

fn legend(out: &mut String, report: &Report) {
    let x = LEFT + PLOT_W + 28.0;
    out.push_str("<g class=\"legend\">\n");
    for (i, name) in report.strategies.iter().enumerate() {
        let y = TIME_TOP + 14.0 + 24.0 * i as f64;
        let color = COLORS[i % COLORS.len()];
        writeln!(out, "<g fill=\"{color}\" stroke=\"{color}\">").unwrap();
        line(out, (x, y), (x + 28.0, y), "stroke-width=\"1.6\"");
        marker(out, i, x + 14.0, y, None);
        out.push_str("</g>\n");
        text(out, x + 36.0, y + 4.0, "start", "", name);
    }
    out.push_str("</g>\n");
}

fn line(out: &mut String, (x1, y1): (f64, f64), (x2, y2): (f64, f64), extra: &str) {
    writeln!(out, "<line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\" {extra}/>").unwrap();
}

fn text(out: &mut String, x: f64, y: f64, anchor: &str, extra: &str, content: &str) {
    writeln!(out, "<text x=\"{x:.1}\" y=\"{y:.1}\" text-anchor=\"{anchor}\" {extra}>{}</text>", escape(content))
        .unwrap();
}

/// `1`, `10`, `10²` … `10⁹`.
fn power_of_ten(k: i32) -> String {
    const SUPERSCRIPTS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    match k {
        0 => "1".to_string(),
        1 => "10".to_string(),
        k if k > 1 => {
            let digits = k.to_string();
            let sup: String = digits.chars().map(|d| SUPERSCRIPTS[d as usize - '0' as usize]).collect();
            format!("10{sup}")
        }
        k => format!("1e{k}"),
    }
}

/// 10^k of the first unit, each unit 1000 of the one before: `1 kB`, `100 µs`.
fn decade_label(k: i32, units: &[&str]) -> String {
    let k = k.max(0) as usize;
    let unit = (k / 3).min(units.len() - 1);
    format!("{} {}", 10u64.pow((k - unit * 3) as u32), units[unit])
}

fn escape(text: &str) -> String {
    // `&` first, so the other entities are not escaped twice.
    let text = text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    text.replace('"', "&quot;").replace('\'', "&apos;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::bench::sample_report;
    use crate::render::xml_check::well_formed;

    /// How many `<g class="series"` elements each panel has, by strategy.
    fn series_of(svg: &str, panel: &str) -> Vec<String> {
        let start = format!("<g class=\"series\" data-panel=\"{panel}\" data-strategy=\"");
        svg.match_indices(&start)
            .map(|(at, _)| svg[at + start.len()..].split('"').next().unwrap().to_string())
            .collect()
    }

    #[test]
    fn the_chart_is_well_formed_with_one_series_per_strategy_in_each_panel() {
        let report = sample_report();
        let svg = render(&report);
        well_formed(&svg).unwrap();
        for panel in ["time", "memory"] {
            assert_eq!(series_of(&svg, panel), report.strategies, "{panel}");
        }
        let lines = svg.lines().filter(|l| l.starts_with("<polyline"));
        let points: Vec<usize> = lines.map(|l| l.matches(',').count()).collect();
        let sizes = report.rows.iter().filter(|r| r.strategy == report.strategies[0]).count();
        let measured = |s: &str| report.rows.iter().filter(|r| r.strategy == s && r.extra_kib.is_some()).count();
        let memory: Vec<usize> = report.strategies.iter().map(|s| measured(s)).collect();
        assert_eq!(points, [vec![sizes; report.strategies.len()], memory].concat());
        let cores = report.cores.map_or("unknown".to_string(), |c| c.to_string());
        assert!(svg.contains(&format!("{cores} logical cores")));
        assert!(!svg.contains("<script") && !svg.contains("href"));
    }

    #[test]
    fn text_is_escaped_and_missing_memory_is_said() {
        let mut report = sample_report();
        report.strategies[0] = "a<b & \"c\"".to_string();
        for row in &mut report.rows {
            (row.strategy, row.extra_kib) = (report.strategies[0].clone(), None);
        }
        report.strategies.truncate(1);
        let svg = render(&report);
        well_formed(&svg).unwrap();
        assert!(svg.contains("a&lt;b &amp; &quot;c&quot;") && svg.contains("n/a"));
        assert_eq!(series_of(&svg, "memory").len(), 1);
    }

    #[test]
    fn tick_labels_name_powers_of_ten_with_units() {
        let labels: Vec<String> = (0..=10).map(|k| decade_label(k, &["ns", "µs", "ms", "s"])).collect();
        assert_eq!(labels[..5], ["1 ns", "10 ns", "100 ns", "1 µs", "10 µs"]);
        assert_eq!(labels[9..], ["1 s", "10 s"]);
        assert_eq!([power_of_ten(0), power_of_ten(1), power_of_ten(7)], ["1", "10", "10⁷"]);
    }
}
