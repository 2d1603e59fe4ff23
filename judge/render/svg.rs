//! The bench chart as one self-contained SVG (no scripts, fonts or links): median time per call
//! against n with bars from min to max, and extra resident memory against n, both log-log, each
//! axis ending just beyond its data; readings of at most one page (what page counting cannot
//! tell apart from none) in a band below the log scale. A bundled strategy's colour, marker and
//! dash are its own, the same whichever strategies are shown; any other series takes a colour
//! no other has; marker and dash tell the series apart in black and white, and markers that
//! would cover one another are set side by side. The machine, the date and the load it was
//! measured under are written on it.

use std::fmt::Write as _;
use std::time::Duration;

use super::axis::LogAxis;
use super::bench::PAGE_KIB;
use super::units::{self, markup, scaled, BYTE_UNITS, TIME_UNITS};
use crate::bench::machine::Conditions;
use crate::bench::{Report, Row, SEED};

const WIDTH: f64 = 960.0;
const HEIGHT: f64 = 900.0;
const LEFT: f64 = 90.0;
const PLOT_W: f64 = 560.0;
const PLOT_H: f64 = 300.0;
const TIME_TOP: f64 = 110.0;
const MEMORY_TOP: f64 = 510.0;
/// Markers closer than this, in both directions, would cover one another.
const CLOSE: f64 = 5.0;
/// How far apart markers that would cover one another are set.
const DODGE: f64 = 7.0;
/// The memory panel's band of readings of at most a page, below its log scale and set off
/// from it by a gap.
const ZERO_GAP: f64 = 12.0;
const ZERO_BAND: f64 = 36.0;
const GRID: &str = "stroke=\"#e4e4e4\"";
/// Okabe–Ito colours, safe for colour blindness, less the yellow (faint on white), then four of
/// Paul Tol's that differ from them: every series up to eleven gets a colour of its own.
const COLORS: [&str; 11] = [
    "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#882255", "#44aa99", "#999933",
    "#332288",
];
/// Solid, dashed, dash-dot, long-short, dotted, dash-dot-dot, long-dot, short-dashed.
const DASHES: [&str; 8] = ["none", "7 3", "9 3 2 3", "14 4 4 4", "2 3", "9 3 2 3 2 3", "14 3 2 3", "4 2"];
/// Markers about (0, 0), split at `|`: circle, square, triangle up, diamond, triangle down, cross.
const SHAPES: &str = "<circle r='4.5'|<rect x='-4' y='-4' width='8' height='8'|<polygon points='0,-5.5 5,3.5 -5,3.5'|\
    <polygon points='0,-5.5 5.5,0 0,5.5 -5.5,0'|<polygon points='0,5.5 5,-3.5 -5,-3.5'|<path d='M-4 -4l8 8m0 -8l-8 8'";
/// The strategies of `solutions/`, each with a colour, marker and dash of its own; the page
/// draws every other series apart, as the user's.
pub const KNOWN: [&str; 8] = [
    "dp_array",
    "four_scalars",
    "recursive_memo",
    "rolling_mod4",
    "stones_four_scalars_unrolled",
    "stones_mod4_grouped",
    "sign_select_pairs",
    "vector_min_max_pairs",
];
/// Ticks (each mantissa times each power of the base) on a decimal axis: powers of ten, else
/// 1-2-5 steps, else finer; on a byte axis: powers of 1024, 16 (4 KiB, 64 KiB, 1 MiB …), 4, 2.
const DECIMAL: [(f64, &[f64]); 3] = [(10.0, &[1.0]), (10.0, &[1.0, 2.0, 5.0]), (10.0, &[1.0, 1.5, 2.0, 3.0, 5.0, 7.0])];
const BINARY: [(f64, &[f64]); 5] = [(1024.0, &[1.0]), (16.0, &[1.0]), (4.0, &[1.0]), (2.0, &[1.0]), (2.0, &[1.0, 1.5])];
/// Each axis ends a twentieth of its span and at least 0.02 decades beyond its data, or 0.3
/// decades either side of a single value.
const PAD: (f64, f64) = (0.02, 0.3);

#[derive(Clone, Copy, Debug)]
struct Style {
    color: &'static str,
    /// Which of `SHAPES`.
    shape: usize,
    /// An outline only, so that what lies beneath shows through.
    open: bool,
    /// Which of `DASHES`; also the strategy's row in the memory panel's zero band.
    dash: usize,
}

/// Each series' style. A known strategy keeps its own, whatever else is shown; any other
/// takes, in order, the first colour no series drawn has, an open marker or a cross (which no
/// known strategy has) and a line with gaps, never solid.
fn styles(names: &[String]) -> Vec<Style> {
    let known = |name: &str| KNOWN.iter().position(|k| *k == name);
    let mut taken: Vec<&str> = names.iter().filter_map(|n| known(n)).map(|i| COLORS[i]).collect();
    let mut others = 0;
    names
        .iter()
        .map(|name| match known(name) {
            Some(i) => Style { color: COLORS[i], shape: [0, 1, 2, 3, 4, 0, 1, 3][i], open: i >= 5, dash: i },
            None => {
                let color =
                    COLORS.iter().find(|c| !taken.contains(c)).copied().unwrap_or(COLORS[others % COLORS.len()]);
                taken.push(color);
                others += 1;
                Style { color, shape: 2 + (others - 1) % 4, open: true, dash: 1 + (others - 1) % 5 }
            }
        })
        .collect()
}

/// One series' style, among those drawn.
fn style_of(report: &Report, name: &str) -> Style {
    let at = report.strategies.iter().position(|s| s == name).unwrap_or(0);
    styles(&report.strategies)[at]
}

/// The first family of ticks that puts `want` or more inside `axis`, else the fullest if it
/// puts two there, else the data's own ends; each with its label in `units`.
fn ticks(axis: LogAxis, families: &[(f64, &[f64])], want: usize, units: &[(f64, &str)]) -> Vec<(f64, String)> {
    let mut best = Vec::new();
    for &(base, mantissas) in families {
        let ticks = axis.powers(base, mantissas);
        best = if ticks.len() > best.len() { ticks } else { best };
        if best.len() >= want {
            break;
        }
    }
    if best.len() < 2 {
        best = if axis.min < axis.max { vec![axis.min, axis.max] } else { vec![axis.min] };
    }
    best.into_iter().map(|v| (v, scaled(v, units))).collect()
}

/// Where and when: the CPU, the date, the load average at the start and at the end.
fn measured(conditions: &Conditions) -> [String; 2] {
    let cpu = conditions.cpu.as_deref().unwrap_or("an unnamed CPU");
    let load = |l: Option<f64>| l.map_or("unknown".to_string(), |l| format!("{l:.2}"));
    [
        format!("{cpu}, {} logical cores", conditions.cores),
        format!(
            "measured {} · load average {} at the start, {} at the end",
            units::utc(conditions.started),
            load(conditions.load.0),
            load(conditions.load.1)
        ),
    ]
}

pub fn render(report: &Report, conditions: &Conditions) -> String {
    let mut out = String::new();
    writeln!(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>").unwrap();
    write!(out, r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}""#).unwrap();
    writeln!(out, r#" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#).unwrap();
    writeln!(out, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>").unwrap();
    let title = "Stone Game III strategies: time and extra memory by input size";
    text(&mut out, LEFT, 30.0, "start", "font-size=\"17\" font-weight=\"bold\"", title);
    let [machine, when] = measured(conditions);
    text(&mut out, LEFT, 52.0, "start", "fill=\"#444\"", &format!("{} · {machine}", report.compiler));
    let how = format!("median of {} calls per point, bars from min to max · uniform input, seed {SEED}", report.reps);
    text(&mut out, LEFT, 68.0, "start", "fill=\"#444\"", &how);
    text(&mut out, LEFT, 84.0, "start", "fill=\"#444\"", &when);
    let mut sizes: Vec<usize> = report.rows.iter().map(|r| r.n.max(1)).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let x = LogAxis::covering(sizes.iter().map(|&n| n as f64), (1.0, 10.0), PAD, (LEFT, LEFT + PLOT_W));
    time_panel(&mut out, report, x, &sizes);
    memory_panel(&mut out, report, x, &sizes);
    legend(&mut out, report);
    out.push_str("</svg>\n");
    out
}

fn time_panel(out: &mut String, report: &Report, x: LogAxis, sizes: &[usize]) {
    let times = report.rows.iter().flat_map(|r| [r.time.min, r.time.max]).map(|t| t.max(1) as f64);
    let y = LogAxis::covering(times, (100.0, 1000.0), PAD, (TIME_TOP + PLOT_H, TIME_TOP));
    frame(out, (x, y), sizes, &ticks(y, &DECIMAL, 2, &TIME_UNITS), "time per call (log scale)");
    let (d, at) = (|ns: u64| units::duration(Duration::from_nanos(ns)), |ns: u64| y.at(ns.max(1) as f64));
    plot(out, report, "time", |r| {
        let (t, n) = (r.time, units::thousands(r.n as u64));
        let title = format!("{} · n = {n} · median {} ({} to {})", r.strategy, d(t.median), d(t.min), d(t.max));
        Some((x.at(r.n.max(1) as f64), at(t.median), Some((at(t.min), at(t.max))), title))
    });
}

fn memory_panel(out: &mut String, report: &Report, x: LogAxis, sizes: &[usize]) {
    let (bytes, zero) = (|kib: u64| kib as f64 * 1024.0, MEMORY_TOP + PLOT_H - ZERO_BAND / 2.0);
    let measured = report.rows.iter().filter_map(|r| r.extra_kib.filter(|k| *k > PAGE_KIB).map(bytes));
    let y =
        LogAxis::covering(measured, (8192.0, 65536.0), PAD, (MEMORY_TOP + PLOT_H - ZERO_BAND - ZERO_GAP, MEMORY_TOP));
    frame(out, (x, y), sizes, &ticks(y, &BINARY, 4, &BYTE_UNITS), "extra resident memory (log scale)");
    text(out, LEFT - 8.0, zero + 4.0, "end", "", &format!("≤ {}", units::kib(Some(PAGE_KIB))));
    if report.rows.iter().all(|r| r.extra_kib.is_none()) {
        let (mid, why) = (MEMORY_TOP + PLOT_H / 2.0, "n/a: this system gives no peak resident memory to read");
        text(out, LEFT + PLOT_W / 2.0, mid, "middle", "fill=\"#a00\"", why);
    }
    let note = "extra memory: resident memory a fresh child process gains over one call, its input already built;";
    text(out, LEFT, MEMORY_TOP + PLOT_H + 62.0, "start", "fill=\"#444\"", note);
    let note = "counted page by page (4 KiB), touched stack included; a call that gains at most one page sits on the ≤ 4 KiB row";
    text(out, LEFT, MEMORY_TOP + PLOT_H + 78.0, "start", "fill=\"#444\"", note);
    plot(out, report, "memory", |r| {
        let (kib, n) = (r.extra_kib?, units::thousands(r.n as u64));
        let title = format!("{} · n = {n} · {}", r.strategy, units::kib(Some(kib)));
        let py = match kib <= PAGE_KIB {
            true => zero + 4.0 * (style_of(report, &r.strategy).dash as f64 - 3.5),
            false => y.at(bytes(kib)),
        };
        Some((x.at(r.n.max(1) as f64), py, None, title))
    });
}

/// A series per strategy, of the points that `point` makes of its rows; markers that would
/// cover one another set side by side.
fn plot(out: &mut String, report: &Report, panel: &str, point: impl Fn(&Row) -> Option<Point>) {
    let mut all: Vec<Vec<Point>> = (report.strategies.iter())
        .map(|name| report.rows.iter().filter(|r| &r.strategy == name).filter_map(&point).collect())
        .collect();
    dodge(&mut all);
    for ((name, style), points) in report.strategies.iter().zip(styles(&report.strategies)).zip(&all) {
        series(out, panel, name, style, points);
    }
}

/// Moves each marker that would fall on one drawn before it (of another series) aside: the
/// first right, the next left, then further out; its bar and line go with it.
fn dodge(series: &mut [Vec<Point>]) {
    let mut placed: Vec<(f64, f64)> = Vec::new();
    for points in series.iter_mut() {
        for point in points.iter_mut() {
            let (x, y) = (point.0, point.1);
            let under = placed.iter().filter(|(px, py)| (px - x).abs() < CLOSE && (py - y).abs() < CLOSE).count();
            placed.push((x, y));
            let step = under.div_ceil(2) as f64 * DODGE;
            point.0 += if under % 2 == 1 { step } else { -step };
        }
    }
}

/// The measured sizes, less those whose labels would overlap; the smallest and largest always.
fn x_ticks(x: LogAxis, sizes: &[usize]) -> Vec<usize> {
    let wide = |n: usize| units::thousands(n as u64).len() as f64;
    let room = |a: usize, b: usize| x.at(b as f64) - x.at(a as f64) >= 3.6 * (wide(a) + wide(b)) + 8.0;
    let largest = sizes.last().copied().unwrap_or(1);
    let mut kept: Vec<usize> = Vec::new();
    for &n in sizes {
        if kept.last().is_none_or(|&last| n == largest || (room(last, n) && room(n, largest))) {
            kept.push(n);
        }
    }
    kept
}

/// The plot boxes (the zero band is one of its own), grid lines, tick labels and axis titles.
fn frame(out: &mut String, (x, y): (LogAxis, LogAxis), sizes: &[usize], ticks: &[(f64, String)], title: &str) {
    let (top, bottom) = (y.to, y.to + PLOT_H);
    let boxes = [(top, y.from), (y.from + ZERO_GAP, bottom)];
    let boxes = &boxes[..if y.from < bottom { 2 } else { 1 }];
    for n in x_ticks(x, sizes) {
        let px = x.at(n as f64);
        boxes.iter().for_each(|&(y1, y2)| line(out, (px, y1), (px, y2), GRID));
        text(out, px, bottom + 18.0, "middle", "", &units::thousands(n as u64));
    }
    for (v, label) in ticks {
        let py = y.at(*v);
        line(out, (LEFT, py), (LEFT + PLOT_W, py), GRID);
        text(out, LEFT - 8.0, py + 4.0, "end", "", label);
    }
    for (t, h) in boxes.iter().map(|&(y1, y2)| (y1, y2 - y1)) {
        writeln!(out, r##"<rect x="{LEFT}" y="{t}" width="{PLOT_W}" height="{h}" fill="none" stroke="#333"/>"##)
            .unwrap();
    }
    text(out, LEFT + PLOT_W / 2.0, bottom + 40.0, "middle", "", "n, the number of piles (log scale)");
    let (tx, ty) = (24.0, top + PLOT_H / 2.0);
    text(out, tx, ty, "middle", &format!("transform=\"rotate(-90 {tx} {ty})\""), title);
}

/// x, y, the y of the min and of the max for a bar, and the tooltip.
type Point = (f64, f64, Option<(f64, f64)>, String);

/// One strategy's points in one panel: a polyline in its dash, its bars, and a marker per point.
fn series(out: &mut String, panel: &str, name: &str, style: Style, points: &[Point]) {
    let name = markup(name);
    let open = format!("<g class=\"series\" data-panel=\"{panel}\" data-strategy=\"{name}\"");
    writeln!(out, "{open} fill=\"{c}\" stroke=\"{c}\">", c = style.color).unwrap();
    let path: Vec<String> = points.iter().map(|(x, y, ..)| format!("{x:.1},{y:.1}")).collect();
    let (path, dash) = (path.join(" "), DASHES[style.dash]);
    writeln!(out, r#"<polyline fill="none" stroke-width="1.6" stroke-dasharray="{dash}" points="{path}"/>"#).unwrap();
    for &(x, y, bar, ref title) in points {
        if let Some((low, high)) = bar {
            let left = x - 3.0; // a bar from min to max, capped at each end
            writeln!(out, r#"<path d="M{left:.1} {low:.1}h6m-3 0V{high:.1}m-3 0h6" fill="none"/>"#).unwrap();
        }
        marker(out, style, x, y, &format!("<title>{}</title>", markup(title)));
    }
    out.push_str("</g>\n");
}

/// A marker; a filled one has a white rim, so that markers on top of each other stay apart.
fn marker(out: &mut String, style: Style, x: f64, y: f64, title: &str) {
    let paint = if style.open { "fill-opacity=\"0\" stroke-width=\"1.8\"" } else { "stroke=\"white\"" };
    let shape = SHAPES.split('|').nth(style.shape).unwrap();
    writeln!(out, r#"<g transform="translate({x:.1} {y:.1})">{title}{shape} {paint}/></g>"#).unwrap();
}

/// Each strategy's line in its dash, its marker on it, and its name; one that could not be
/// measured at some size says so, and why, under the legend.
fn legend(out: &mut String, report: &Report) {
    let x = LEFT + PLOT_W + 28.0;
    out.push_str("<g class=\"legend\">\n");
    let styles = styles(&report.strategies);
    for (i, name) in report.strategies.iter().enumerate() {
        let (y, style) = (TIME_TOP + 14.0 + 24.0 * i as f64, styles[i]);
        writeln!(out, "<g fill=\"{c}\" stroke=\"{c}\">", c = style.color).unwrap();
        line(out, (x, y), (x + 56.0, y), &format!("stroke-width=\"1.6\" stroke-dasharray=\"{}\"", DASHES[style.dash]));
        marker(out, style, x + 28.0, y, "");
        out.push_str("</g>\n");
        let measured = report.rows.iter().any(|r| &r.strategy == name);
        let label = if measured { name.clone() } else { format!("{name} (not measured)") };
        text(out, x + 64.0, y + 4.0, "start", "", &label);
    }
    let below = TIME_TOP + 14.0 + 24.0 * report.strategies.len() as f64 + 8.0;
    for (k, failure) in report.failures.iter().enumerate() {
        let why = super::call::ending(&failure.ending, &report.limits);
        let note = format!("{} at n = {}: {why}", failure.strategy, units::thousands(failure.n as u64));
        text(out, x, below + 16.0 * k as f64, "start", "fill=\"#a00\" font-size=\"11\"", &note);
    }
    out.push_str("</g>\n");
}

fn line(out: &mut String, (x1, y1): (f64, f64), (x2, y2): (f64, f64), extra: &str) {
    writeln!(out, "<line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\" {extra}/>").unwrap();
}

fn text(out: &mut String, x: f64, y: f64, anchor: &str, extra: &str, content: &str) {
    let content = markup(content);
    writeln!(out, r#"<text x="{x:.1}" y="{y:.1}" text-anchor="{anchor}" {extra}>{content}</text>"#).unwrap();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::bench::tests::sample_report;
    use xml::well_formed;

    fn conditions() -> Conditions {
        let started = std::time::UNIX_EPOCH + Duration::from_secs(1_798_758_000);
        Conditions { cpu: Some("Intel(R) Xeon(R) Processor".into()), cores: 2, started, load: (Some(0.2), Some(1.85)) }
    }

    #[test]
    fn the_chart_says_on_what_machine_when_and_under_what_load() {
        let svg = render(&sample_report(), &conditions());
        assert!(svg.contains("Intel(R) Xeon(R) Processor, 2 logical cores"), "{svg}");
        assert!(svg.contains("measured 2026-12-31 23:00 UTC · load average 0.20 at the start, 1.85 at the end"));
    }

    /// Each marker's position in a panel, by strategy: the `translate` of each `<g>` inside
    /// the strategy's series.
    fn markers(svg: &str, panel: &str, strategy: &str) -> Vec<(f64, f64)> {
        let start = format!("<g class=\"series\" data-panel=\"{panel}\" data-strategy=\"{strategy}\"");
        let at = svg.find(&start).unwrap();
        let group = &svg[at..at + svg[at..].find("\n</g>").unwrap()];
        group
            .match_indices("translate(")
            .map(|(k, _)| {
                let inner = group[k + 10..].split(')').next().unwrap();
                let (x, y) = inner.split_once(' ').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect()
    }

    #[test]
    fn markers_that_would_cover_one_another_are_set_side_by_side() {
        // An attempt measured exactly as dp_array: every point of it where dp_array's is.
        let mut report = sample_report();
        let copies: Vec<Row> = (report.rows.iter().filter(|r| r.strategy == "dp_array"))
            .map(|r| Row { strategy: "my_try".into(), ..r.clone() })
            .collect();
        report.rows.extend(copies);
        report.strategies.push("my_try".into());
        let svg = render(&report, &conditions());
        for panel in ["time", "memory"] {
            let (theirs, mine) = (markers(&svg, panel, "dp_array"), markers(&svg, panel, "my_try"));
            assert_eq!(theirs.len(), mine.len(), "{panel}");
            for (a, b) in theirs.iter().zip(&mine) {
                assert!((a.0 - b.0).abs() >= CLOSE || (a.1 - b.1).abs() >= CLOSE, "{panel}: {a:?} and {b:?}");
            }
        }
    }

    #[test]
    fn a_reading_of_at_most_a_page_sits_on_the_band_that_says_so() {
        let mut report = sample_report();
        for row in &mut report.rows {
            row.extra_kib = Some(if row.n == 10 { 4 } else { 0 });
        }
        let svg = render(&report, &conditions());
        assert!(svg.contains(">≤ 4 KiB</text>"), "{svg}");
        let ys: Vec<f64> = markers(&svg, "memory", "dp_array").iter().map(|p| p.1).collect();
        assert!(ys.windows(2).all(|w| w[0] == w[1]), "4 KiB and 0 on one row: {ys:?}");
    }

    /// The strategies of a panel's `<g class="series"` elements, in order.
    fn series_of(svg: &str, panel: &str) -> Vec<String> {
        let start = format!("<g class=\"series\" data-panel=\"{panel}\" data-strategy=\"");
        svg.match_indices(&start)
            .map(|(at, _)| svg[at + start.len()..].split('"').next().unwrap().to_string())
            .collect()
    }

    /// The texts of the `<text>` elements with the attribute `at`: `x="82.0"` for the y tick labels.
    fn texts<'a>(svg: &'a str, at: &str) -> Vec<&'a str> {
        let lines = svg.lines().filter(|l| l.starts_with("<text") && l.contains(at));
        lines.filter_map(|l| l.split('>').nth(1)?.strip_suffix("</text")).collect()
    }

    #[test]
    fn the_chart_is_well_formed_with_one_series_per_strategy_in_each_panel() {
        let report = sample_report();
        let svg = render(&report, &conditions());
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
        assert_eq!(svg.matches("<title>").count(), points.iter().sum::<usize>());
        assert!(svg.contains("2 logical cores") && svg.contains(&format!("seed {SEED}")));
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
        let svg = render(&report, &conditions());
        well_formed(&svg).unwrap();
        assert!(svg.contains("a&lt;b &amp; &quot;c&quot;") && svg.contains("n/a"));
        assert_eq!(series_of(&svg, "memory").len(), 1);
    }

    #[test]
    fn a_strategy_keeps_its_style_whatever_else_is_shown() {
        let mut fewer = sample_report();
        fewer.rows.retain(|r| r.strategy != "four_scalars");
        fewer.rows.iter_mut().filter(|r| r.strategy == "dp_array").for_each(|r| r.strategy = "my_try".into());
        fewer.strategies = vec!["my_try".into(), "recursive_memo".into()];
        let up = "<polygon points='0,-5.5 5,3.5 -5,3.5' stroke=\"white\"/>";
        for svg in [render(&sample_report(), &conditions()), render(&fewer, &conditions())] {
            for at in svg.match_indices("data-strategy=\"recursive_memo\"").map(|(at, _)| at) {
                let group = &svg[at..at + svg[at..].find("\n</g>").unwrap()];
                assert!(["=\"#009e73\"", "dasharray=\"9 3 2 3\"", up].iter().all(|t| group.contains(t)), "{group}");
            }
        }
        let names: Vec<String> = KNOWN.iter().map(|k| k.to_string()).chain(["my_try".into()]).collect();
        let all = styles(&names);
        let mine = all[KNOWN.len()];
        assert!(all[..KNOWN.len()].iter().all(|k| (k.shape, k.open) != (mine.shape, mine.open)), "{mine:?}");
    }

    #[test]
    fn the_known_strategies_differ_in_marker_in_dash_and_in_colour() {
        let styles = styles(&KNOWN.map(String::from));
        for (i, a) in styles.iter().enumerate() {
            let differ = |b: &Style| (a.shape, a.open) != (b.shape, b.open) && a.dash != b.dash && a.color != b.color;
            assert!(styles[i + 1..].iter().all(differ), "{a:?} {styles:?}");
        }
    }

    #[test]
    fn every_series_up_to_eleven_has_a_colour_of_its_own_and_an_unmeasured_one_says_why() {
        let mut report = sample_report();
        let extra: Vec<String> = (0..4).map(|k| format!("my_try_{k}")).collect();
        report.strategies.extend(extra.iter().cloned());
        report.strategies.extend(KNOWN[4..].iter().map(|k| k.to_string()));
        let colours: Vec<&str> = styles(&report.strategies).iter().map(|s| s.color).collect();
        let mut distinct = colours.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), colours.len(), "{colours:?}");
        report.failures.push(crate::bench::Failure {
            strategy: "my_try_0".into(),
            n: 1000,
            ending: crate::exec::outcome::Ending::TimedOut { after: Duration::from_secs(1), asleep: false },
        });
        let svg = render(&report, &conditions());
        well_formed(&svg).unwrap();
        assert!(svg.contains("my_try_0 (not measured)") && svg.contains("my_try_0 at n = 1,000: no answer"), "{svg}");
    }

    #[test]
    fn the_x_axis_spans_the_measured_sizes_and_ticks_at_them() {
        let sizes = [1_000, 10_000, 50_000, 200_000];
        let x = LogAxis::covering(sizes.iter().map(|&n| n as f64), (1.0, 10.0), PAD, (LEFT, LEFT + PLOT_W));
        assert_eq!(x_ticks(x, &sizes), sizes);
        let (first, last) = (x.at(1000.0) - LEFT, LEFT + PLOT_W - x.at(200_000.0));
        assert!(first > 0.0 && first < 30.0 && last > 0.0 && last < 30.0, "{first} {last}");
        assert_eq!(x_ticks(x, &[1000, 1100, 1200, 5000, 190_000, 200_000]), [1000, 5000, 200_000]);
        let svg = render(&sample_report(), &conditions());
        assert_eq!(texts(&svg, &format!("y=\"{:.1}\"", TIME_TOP + PLOT_H + 18.0)), ["10", "100", "1,000"]);
    }

    #[test]
    fn tick_labels_are_in_the_units_of_the_table_and_clear_of_the_zero_row() {
        let svg = render(&sample_report(), &conditions());
        let labels = texts(&svg, &format!("x=\"{:.1}\"", LEFT - 8.0));
        // Readings of 1.5 MiB and 40,000 KiB on the scale; those of 0 and 4 KiB on the page row.
        assert_eq!(labels, ["100ns", "1µs", "10µs", "2 MiB", "4 MiB", "8 MiB", "16 MiB", "32 MiB", "≤ 4 KiB"]);
        assert!(!svg.contains("kB") && !svg.contains(" MB"));
        let y = |label: &str| -> f64 {
            let line = svg.lines().find(|l| l.ends_with(&format!(">{label}</text>"))).unwrap();
            line.split("y=\"").nth(1).unwrap().split('"').next().unwrap().parse().unwrap()
        };
        assert!(
            y("≤ 4 KiB") - y("2 MiB") >= 20.0,
            "the page row at {}, the lowest tick at {}",
            y("≤ 4 KiB"),
            y("2 MiB")
        );
        let narrow = LogAxis::covering([3000.0, 9000.0].into_iter(), (1.0, 2.0), PAD, (0.0, 1.0));
        let labels: Vec<String> = ticks(narrow, &DECIMAL, 2, &TIME_UNITS).into_iter().map(|(_, l)| l).collect();
        assert_eq!(labels, ["3µs", "5µs", "7µs"]);
    }

    /// A small XML well-formedness checker for the chart (std has no parser).
    mod xml {
        /// A small well-formedness check: tags close in order, one root, attributes quoted,
        /// and no `<` or `&` outside markup except as an entity.
        pub fn well_formed(doc: &str) -> Result<(), String> {
            let mut open: Vec<&str> = Vec::new();
            let (mut rest, mut roots) = (doc.strip_prefix("<?xml").ok_or("no XML declaration")?, 0);
            rest = &rest[rest.find("?>").ok_or("unclosed declaration")? + 2..];
            while let Some(at) = rest.find('<') {
                check_text(&rest[..at])?;
                let end = rest[at..].find('>').ok_or("unclosed tag")? + at;
                let tag = &rest[at + 1..end];
                rest = &rest[end + 1..];
                if let Some(name) = tag.strip_prefix('/') {
                    let top = open.pop().ok_or(format!("</{name}> closes nothing"))?;
                    (top == name).then_some(()).ok_or(format!("<{top}> closed by </{name}>"))?;
                    continue;
                }
                let (body, empty) = tag.strip_suffix('/').map_or((tag, false), |b| (b, true));
                let name = body.split_whitespace().next().ok_or("empty tag")?;
                check_attributes(&body[name.len()..])?;
                roots += usize::from(open.is_empty());
                if !empty {
                    open.push(name);
                }
            }
            check_text(rest)?;
            match (open.last(), roots) {
                (Some(name), _) => Err(format!("<{name}> never closed")),
                (None, 1) => Ok(()),
                (None, n) => Err(format!("{n} root elements")),
            }
        }

        fn check_text(text: &str) -> Result<(), String> {
            let entities = ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"];
            for (at, _) in text.match_indices('&') {
                if !entities.iter().any(|e| text[at..].starts_with(e)) {
                    return Err(format!("stray '&' in {text:?}"));
                }
            }
            match text.contains('<') || text.contains('>') {
                true => Err(format!("stray '<' or '>' in {text:?}")),
                false => Ok(()),
            }
        }

        /// ` name="value" name='value'`, nothing else.
        fn check_attributes(mut rest: &str) -> Result<(), String> {
            while !rest.trim_start().is_empty() {
                rest = rest.trim_start();
                let (name, after) = rest.split_once('=').ok_or(format!("attribute without value in {rest:?}"))?;
                let quote = after.chars().next().filter(|q| *q == '"' || *q == '\'');
                let quote = quote.ok_or(format!("unquoted attribute {name:?}"))?;
                let close = after[1..].find(quote).ok_or(format!("unclosed attribute {name:?}"))?;
                if name.is_empty() || name.contains(char::is_whitespace) {
                    return Err(format!("bad attribute name {name:?}"));
                }
                check_text(&after[1..close + 1])?;
                rest = &after[close + 2..];
            }
            Ok(())
        }

        mod tests {
            use super::*;

            #[test]
            fn the_checker_finds_each_kind_of_fault() {
                let doc = |body: &str| format!("<?xml version=\"1.0\"?>\n<svg a=\"1\">{body}</svg>\n");
                assert_eq!(well_formed(&doc("<g b='2'><text>a &amp; b</text></g><rect/>")), Ok(()));
                for bad in ["<g>", "<g></text>", "</g>", "<g b=2/>", "<g b=\"2/>", "a & b", "a < b", "<g b=\"<\"/>"] {
                    assert!(well_formed(&doc(bad)).is_err(), "{bad:?} passed");
                }
                assert!(well_formed("<?xml?><svg/><svg/>").is_err());
            }
        }
    }
}
