//! The bench report as a text table or as JSON, both from the same `bench::Report`.
//!
//! `--format json` prints one object: compiler, cores, reps (timed calls per strategy and
//! size, after one warm-up call), seed and shape (the generator's, the same for every
//! strategy), stack_bytes (of the timing thread), malloc_mmap_threshold, and results, one
//! object per strategy and size: strategy, n, answer, median_ns, min_ns, q1_ns, q3_ns,
//! max_ns (each call's CPU time less a dry call's, in nanoseconds), ns_per_element (median_ns / n), ratio_to_fastest
//! (median_ns over the smallest median_ns at this n), extra_kib (resident memory one call
//! adds in a fresh child, or null where it cannot be measured); and failures: strategy, n,
//! reason, for a strategy that could not be measured at a size.

use std::fmt::Write as _;

use super::call;
use super::fit;
use super::growth;
use super::json::Json;
use super::table;
use super::units;
use crate::bench::{Report, Row, MMAP_THRESHOLD, SEED, SHAPE};

const HEAD: [&str; 8] = ["strategy", "n", "median", "min", "max", "ns/elt", "×fastest", "extra mem"];

/// What the memory reading can tell: it counts whole pages, so a reading of 0 or of one page
/// says only that a call needed at most a page.
pub const PAGE_KIB: u64 = 4;

/// An extra memory reading: `≤ 4 KiB` for at most a page, else its size.
pub fn extra(kib: Option<u64>) -> String {
    match kib {
        Some(kib) if kib <= PAGE_KIB => format!("≤ {}", units::kib(Some(PAGE_KIB))),
        kib => units::kib(kib),
    }
}

fn cells(row: &Row) -> Vec<String> {
    vec![
        row.strategy.clone(),
        row.n.to_string(),
        units::nanos(row.time.median),
        units::nanos(row.time.min),
        units::nanos(row.time.max),
        format!("{:.2}", row.ns_per_element()),
        format!("{:.2}×", row.ratio),
        extra(row.extra_kib),
    ]
}

/// The table and what it means, fitted to `width`: a wide table gives up its min, max and
/// ns/elt columns, in that order, and cuts strategy names in the middle.
pub fn text(report: &Report, width: usize) -> String {
    let mut out = String::new();
    let cores = report.cores.map_or("unknown".to_string(), |c| c.to_string());
    let head = [
        "bench".to_string(),
        report.compiler.clone(),
        format!("{cores} cores"),
        format!("reps {} (timed calls per point, after 1 warm-up)", report.reps),
        format!("{} input, seed {SEED}", SHAPE.name()),
        format!("stack {}", units::kib(Some(report.stack_bytes >> 10))),
    ];
    let _ = writeln!(out, "{}\n", fit::joined(&head, " · ", width));
    let right: Vec<usize> = (1..HEAD.len()).collect();
    let rows: Vec<Vec<String>> = report.rows.iter().map(cells).collect();
    let lines = table::fitted(&HEAD, &rows, &right, width, &[3, 4, 5], &[0]);
    let _ = writeln!(out, "{}", lines[0]);
    for (i, line) in lines[1..].iter().enumerate() {
        if i > 0 && report.rows[i - 1].n != report.rows[i].n {
            out.push('\n');
        }
        let _ = writeln!(out, "{line}");
    }
    let paragraph = |out: &mut String, text: &str| {
        let _ = writeln!(out, "{}", fit::words("", text, "  ", width));
    };
    out.push('\n');
    paragraph(
        &mut out,
        "times: each call's CPU time by the kernel's count, less the median of dry calls on the same input (read and decoded, not called); ×fastest: median over the smallest median at that n",
    );
    paragraph(
        &mut out,
        &format!(
            "stack: {} for the thread that calls each strategy, room for a recursion one level a pile deep at n = {} (the judge gives {} MiB, --stack-mb)",
            units::kib(Some(report.stack_bytes >> 10)),
            units::thousands(report.largest() as u64),
            crate::exec::limits::DEFAULT.stack_mib
        ),
    );
    paragraph(
        &mut out,
        &format!(
            "allocator: blocks under {} always come from the heap (MALLOC_MMAP_THRESHOLD_), so no call pays for mmap and munmap",
            units::bytes(MMAP_THRESHOLD)
        ),
    );
    if !report.rows.is_empty() && report.rows.iter().all(|r| r.extra_kib.is_none()) {
        paragraph(&mut out, "extra mem: n/a, this system gives no resident memory to read");
    } else {
        paragraph(
            &mut out,
            "extra mem: resident memory a fresh child gains over one call (input already built), in 4 KiB pages; ≤ 4 KiB: at most one page, which page counting cannot tell from none",
        );
    }
    for failure in &report.failures {
        let reason = call::ending(&failure.ending, &report.limits);
        paragraph(&mut out, &format!("{} at n = {}: not measured: {reason}", failure.strategy, failure.n));
    }
    for n in report.disagreements() {
        let answers: Vec<String> = (report.rows.iter().filter(|r| r.n == n))
            .map(|r| format!("{} {}", r.strategy, units::answer(&r.answer, r.answer.len() as u64)))
            .collect();
        paragraph(&mut out, &format!("strategies disagree at n = {n}: {}", answers.join(", ")));
    }
    out.push_str("\ngrowth (each on prefixes of one uniform input of 50,000 piles):\n");
    for (strategy, growth) in report.strategies.iter().zip(&report.growth) {
        let first = format!("  {strategy}: ");
        let _ = writeln!(out, "{}", fit::words(&first, &growth::words(growth, report.limits.time), "      ", width));
    }
    out
}

pub fn json(report: &Report) -> Json {
    let int = |x: u64| Json::int(x);
    let results = report.rows.iter().map(|row| {
        Json::object([
            ("strategy", Json::str(&row.strategy)),
            ("n", int(row.n as u64)),
            ("answer", Json::str(String::from_utf8_lossy(&row.answer))),
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
    let failures = report.failures.iter().map(|f| {
        Json::object([
            ("strategy", Json::str(&f.strategy)),
            ("n", int(f.n as u64)),
            ("reason", Json::str(call::ending(&f.ending, &report.limits))),
        ])
    });
    let growth = report.strategies.iter().zip(&report.growth).map(|(s, g)| {
        Json::object([("strategy", Json::str(s)), ("words", Json::str(growth::words(g, report.limits.time)))])
    });
    Json::object([
        ("format_version", Json::int(2)),
        ("command", Json::str("bench")),
        ("compiler", Json::str(&report.compiler)),
        ("cores", Json::opt(report.cores, |c| int(c as u64))),
        ("reps", int(u64::from(report.reps))),
        ("seed", int(SEED)),
        ("shape", Json::str(SHAPE.name())),
        ("stack_bytes", int(report.stack_bytes)),
        ("malloc_mmap_threshold", int(MMAP_THRESHOLD)),
        ("results", Json::Array(results.collect())),
        ("failures", Json::Array(failures.collect())),
        ("growth", Json::Array(growth.collect())),
    ])
}

#[cfg(test)]
pub mod tests {
    use super::*;
    use crate::search::growth::{Growth, Order};

    /// A report with made-up figures of every kind: sizes, zeros and n/a readings.
    pub fn sample_report() -> Report {
        use crate::bench::Stats;
        let strategies: Vec<String> = ["dp_array", "four_scalars", "recursive_memo"].map(String::from).to_vec();
        let mut rows = Vec::new();
        for (k, n) in [10usize, 100, 1000].into_iter().enumerate() {
            for (s, name) in strategies.iter().enumerate() {
                let median = (n as u64) * (s as u64 + 1) * 7 + 3;
                let time = Stats { min: median - 2, q1: median - 1, median, q3: median + 1, max: median * 3 };
                let extra_kib = [Some(0), Some(4), Some(1536), Some(40_000), None][(k * 3 + s) % 5];
                rows.push(Row {
                    strategy: name.clone(),
                    n,
                    answer: b"Bob".to_vec(),
                    time,
                    ratio: (s + 1) as f64,
                    extra_kib,
                });
            }
        }
        Report {
            compiler: "rustc 1.95.0".into(),
            growth: strategies
                .iter()
                .map(|_| Growth {
                    points: Vec::new(),
                    order: Order::Unknown,
                    at_max_log10_s: None,
                    stopped_early: false,
                })
                .collect(),
            limits: crate::exec::limits::DEFAULT,
            cores: Some(2),
            reps: 3,
            stack_bytes: 8 << 20,
            strategies,
            rows,
            failures: Vec::new(),
        }
    }

    /// `1.2µs` as nanoseconds, and half a unit of its last printed digit.
    fn duration(text: &str) -> (f64, f64) {
        let (number, scale) = [("ns", 1.0), ("µs", 1e3), ("ms", 1e6), ("s", 1e9)]
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

    #[test]
    fn the_json_holds_the_numbers_of_the_text_table() {
        let report = sample_report();
        let text = text(&report, 1000);
        let json = Json::parse(&json(&report).render()).unwrap();
        let results: Vec<&Json> = json.get("results").unwrap().items().iter().collect();
        let table = table(&text);
        assert_eq!(table.len(), report.rows.len(), "{text}");
        assert_eq!(results.len(), report.rows.len(), "{json:?}");
        let close = |(shown, slack): (f64, f64), exact: f64, what: &str| {
            assert!((shown - exact).abs() <= slack + 1e-9, "{what}: {shown} vs {exact}");
        };
        for (cells, fields) in table.iter().zip(&results) {
            let field = |key: &str| fields.get(key).unwrap();
            assert_eq!(cells[0], field("strategy").as_str().unwrap());
            assert_eq!(cells[1], field("n").as_i128().unwrap().to_string());
            for (cell, key) in [(2, "median_ns"), (3, "min_ns"), (4, "max_ns")] {
                close(duration(&cells[cell]), field(key).as_f64().unwrap(), key);
            }
            close((cells[5].parse().unwrap(), 0.005), field("ns_per_element").as_f64().unwrap(), "ns/elt");
            close(
                (cells[6].trim_end_matches('×').parse().unwrap(), 0.005),
                field("ratio_to_fastest").as_f64().unwrap(),
                "ratio",
            );
            if let Some(page) = cells[7].strip_prefix("≤ ") {
                assert_eq!(page, "4 KiB");
                assert!(field("extra_kib").as_f64().unwrap() <= PAGE_KIB as f64);
                continue;
            }
            match kib(&cells[7]) {
                Some(shown) => close(shown, field("extra_kib").as_f64().unwrap(), "memory"),
                None => assert_eq!((cells[7].as_str(), field("extra_kib")), ("n/a", &Json::Null)),
            }
        }
        let header = format!("reps {} (timed calls", report.reps);
        assert!(text.contains(&header) && json.get("reps").and_then(Json::as_i128) == Some(i128::from(report.reps)));
    }

    #[test]
    fn the_text_fits_the_width_and_says_why_the_stack_is_what_it_is() {
        let report = sample_report();
        for width in [80, 100] {
            let text = text(&report, width);
            assert!(text.lines().all(|l| l.chars().count() <= width), "at {width}:\n{text}");
            let joined = text.replace("\n  ", " ");
            assert!(joined.contains("stack: 8 MiB for the thread that calls each strategy"), "{text}");
            assert!(joined.contains("at n = 1,000 (the judge gives 64 MiB, --stack-mb)"), "{text}");
        }
        let narrow = text(&report, 40);
        assert!(!narrow.lines().any(|l| l.starts_with("strategy") && l.contains("min")), "{narrow}");
    }
}
