//! The bench report as a text table or as JSON, both from the same `Report`.
//!
//! `--format json` prints one object with these fields:
//!   profile            "release" or "debug"
//!   cores              logical cores (`available_parallelism`), or null
//!   reps               timed calls per strategy and size, after one warm-up call
//!   seed, shape        the generator's arguments, the same for every strategy
//!   stack_bytes        the stack of the timing thread
//!   frame_bytes        stack allowed per level of recursion (see `FRAME_BYTES`)
//!   results            one object per strategy and size:
//!     strategy, n, answer
//!     median_ns, min_ns, q1_ns, q3_ns, max_ns   time of one call alone, in nanoseconds
//!     ns_per_element     median_ns / n
//!     ratio_to_fastest   median_ns / the smallest median_ns at this n
//!     extra_kib          peak minus baseline resident KiB of a child making one call, or
//!                        null where it cannot be measured (not Linux)

use std::fmt::Write as _;
use std::time::Duration;

use crate::bench::{Report, Row, FRAME_BYTES, STACK_FLOOR};
use crate::generator::Shape;
use crate::json::Json;
use crate::memory;
use crate::report::show_duration;

const HEAD: [&str; 8] = ["strategy", "n", "median", "min", "max", "ns/elt", "×fastest", "extra mem"];

fn cells(row: &Row) -> [String; 8] {
    let time = |ns: u64| show_duration(Duration::from_nanos(ns));
    [
        row.strategy.to_string(),
        row.n.to_string(),
        time(row.time.median),
        time(row.time.min),
        time(row.time.max),
        format!("{:.2}", row.ns_per_element()),
        format!("{:.2}×", row.ratio),
        memory::show_kib(row.extra_kib),
    ]
}

pub fn render_text(report: &Report) -> String {
    let mut out = String::new();
    let cores = report.cores.map_or("unknown".to_string(), |c| c.to_string());
    writeln!(
        out,
        "bench · {} build · {cores} cores · reps {} (timed calls per point, after 1 warm-up) · \
         uniform input, seed {} · stack {} ({} + {FRAME_BYTES} B × largest n)\n",
        report.profile,
        report.reps,
        report.seed,
        memory::show_kib(Some(report.stack_bytes as u64 >> 10)),
        memory::show_kib(Some(STACK_FLOOR as u64 >> 10)),
    )
    .unwrap();
    let rows: Vec<[String; 8]> = report.rows.iter().map(cells).collect();
    let mut widths = HEAD.map(|h| h.chars().count());
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: &[String; 8]| {
        let mut text = format!("{:<w$}", cells[0], w = widths[0]);
        for (cell, w) in cells.iter().zip(widths).skip(1) {
            write!(text, "  {cell:>w$}").unwrap();
        }
        text + "\n"
    };
    out.push_str(&line(&HEAD.map(String::from)));
    for (i, (row, cells)) in report.rows.iter().zip(&rows).enumerate() {
        if i > 0 && report.rows[i - 1].n != row.n {
            out.push('\n');
        }
        out.push_str(&line(cells));
    }
    out.push_str(
        "\ntimes: one call alone, its input copied before the clock starts; \
         ×fastest: median over the smallest median at that n\n",
    );
    if report.rows.iter().all(|r| r.extra_kib.is_none()) {
        out.push_str("extra mem: n/a, this system has no /proc/self/status to read a peak from\n");
    } else {
        out.push_str(
            "extra mem: resident memory a fresh child gains over one call (input already built): \
             page-exact, touched stack included, in 4 KiB pages\n",
        );
    }
    for n in report.disagreements() {
        let answers: Vec<String> =
            (report.rows.iter().filter(|r| r.n == n)).map(|r| format!("{} {}", r.strategy, r.answer)).collect();
        writeln!(out, "strategies disagree at n = {n}: {}", answers.join(", ")).unwrap();
    }
    out
}

pub fn render_json(report: &Report) -> Json {
    let int = |x: u64| Json::Int(x.into());
    let results = report.rows.iter().map(|row| {
        Json::Object(vec![
            ("strategy", Json::str(row.strategy)),
            ("n", int(row.n as u64)),
            ("answer", Json::str(row.answer.clone())),
            ("median_ns", int(row.time.median)),
            ("min_ns", int(row.time.min)),
            ("q1_ns", int(row.time.q1)),
            ("q3_ns", int(row.time.q3)),
            ("max_ns", int(row.time.max)),
            ("ns_per_element", Json::Float(row.ns_per_element())),
            ("ratio_to_fastest", Json::Float(row.ratio)),
            ("extra_kib", Json::opt(row.extra_kib, int)),
        ])
    });
    Json::Object(vec![
        ("profile", Json::str(report.profile)),
        ("cores", Json::opt(report.cores, |c| int(c as u64))),
        ("reps", int(report.reps as u64)),
        ("seed", int(report.seed)),
        ("shape", Json::str(Shape::Uniform.name())),
        ("stack_bytes", int(report.stack_bytes as u64)),
        ("frame_bytes", int(FRAME_BYTES as u64)),
        ("results", Json::Array(results.collect())),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::sample_report;
    use std::collections::HashMap;

    /// `1.2µs` as nanoseconds, and half a unit of its last printed digit.
    fn duration(text: &str) -> (f64, f64) {
        let (number, scale) = [("µs", 1e3), ("ms", 1e6), ("s", 1e9)]
            .iter()
            .find_map(|(unit, scale)| Some((text.strip_suffix(unit)?, *scale)))
            .unwrap_or_else(|| panic!("no unit in {text:?}"));
        (number.parse::<f64>().unwrap() * scale, half_digit(number) * scale)
    }

    fn half_digit(number: &str) -> f64 {
        let decimals = number.split_once('.').map_or(0, |(_, d)| d.len());
        0.5 * 10f64.powi(-(decimals as i32))
    }

    /// `812 KiB` or `1.5 MiB` as KiB with its rounding; `n/a` as None.
    fn kib(text: &str) -> Option<(f64, f64)> {
        let (number, unit) = text.split_once(' ')?;
        let scale = if unit == "MiB" { 1024.0 } else { 1.0 };
        Some((number.parse::<f64>().unwrap() * scale, half_digit(number) * scale))
    }

    /// The table's rows, cut at the runs of two or more spaces between columns.
    fn table(text: &str) -> Vec<Vec<String>> {
        let lines = text.lines().skip_while(|l| !l.starts_with("strategy")).skip(1);
        let cells = lines.filter(|l| !l.is_empty()).map(|l| {
            let cells = l.split("  ").map(str::trim).filter(|c| !c.is_empty());
            cells.map(String::from).collect::<Vec<_>>()
        });
        cells.take_while(|c| c.len() == HEAD.len()).collect()
    }

    /// The result objects of the pretty-printed JSON, one `"key": value` a line.
    fn results(json: &str) -> Vec<HashMap<String, String>> {
        let mut rows: Vec<HashMap<String, String>> = Vec::new();
        for line in json.lines() {
            let Some((key, value)) = line.trim().trim_end_matches(',').split_once("\": ") else {
                continue;
            };
            let key = key.trim_start_matches('"').to_string();
            if key == "strategy" {
                rows.push(HashMap::new());
            }
            if let Some(row) = rows.last_mut() {
                row.insert(key, value.trim_matches('"').to_string());
            }
        }
        rows
    }

    #[test]
    fn the_json_holds_the_numbers_of_the_text_table() {
        let report = sample_report();
        let text = render_text(&report);
        let json = render_json(&report).render();
        let (table, results) = (table(&text), results(&json));
        assert_eq!(table.len(), report.rows.len(), "{text}");
        assert_eq!(results.len(), report.rows.len(), "{json}");
        let close = |(shown, slack): (f64, f64), exact: &str, what: &str| {
            let exact: f64 = exact.parse().unwrap();
            assert!((shown - exact).abs() <= slack + 1e-9, "{what}: {shown} vs {exact}");
        };
        for (cells, fields) in table.iter().zip(&results) {
            assert_eq!((&cells[0], &cells[1]), (&fields["strategy"], &fields["n"]));
            for (cell, key) in [(2, "median_ns"), (3, "min_ns"), (4, "max_ns")] {
                close(duration(&cells[cell]), &fields[key], key);
            }
            let ns_per_element = cells[5].parse().unwrap();
            close((ns_per_element, 0.005), &fields["ns_per_element"], "ns/elt");
            let ratio = cells[6].trim_end_matches('×').parse().unwrap();
            close((ratio, 0.005), &fields["ratio_to_fastest"], "ratio");
            match kib(&cells[7]) {
                Some(shown) => close(shown, &fields["extra_kib"], "memory"),
                None => assert_eq!((cells[7].as_str(), fields["extra_kib"].as_str()), ("n/a", "null")),
            }
        }
        let header = format!("reps {} (timed calls", report.reps);
        assert!(text.contains(&header) && json.contains(&format!("\"reps\": {}", report.reps)));
    }
}
