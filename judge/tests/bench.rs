//! `judge bench` through the built judge: both report forms, the chart file, the memory
//! children, and its errors. Small sizes and few reps, as these run in a debug build.

mod common;

use common::judge;

const STRATEGIES: usize = 4;

/// Every `"key": value` line of a pretty-printed JSON report for `key`, as text.
fn values<'a>(json: &'a str, key: &str) -> Vec<&'a str> {
    let start = format!("\"{key}\": ");
    json.lines().filter_map(|l| l.trim().strip_prefix(&start)).map(|v| v.trim_end_matches(',')).collect()
}

#[test]
fn json_report_and_chart_cover_every_strategy_at_every_size() {
    let svg = std::env::temp_dir().join(format!("judge-bench-{}.svg", std::process::id()));
    let run =
        judge(&["bench", "--sizes", "4096,64", "--reps", "3", "--format", "json", "--svg", svg.to_str().unwrap()]);
    let chart = std::fs::read_to_string(&svg).unwrap_or_default();
    let _ = std::fs::remove_file(&svg);
    assert_eq!(run.status, 0, "{}", run.describe());
    assert_eq!(run.stderr.contains("timings mean nothing"), cfg!(debug_assertions), "{}", run.describe());
    let sizes = values(&run.stdout, "n");
    assert_eq!(sizes, [["64"; STRATEGIES], ["4096"; STRATEGIES]].concat(), "{}", run.stdout);
    assert_eq!(values(&run.stdout, "reps"), ["3"]);
    let ratios = values(&run.stdout, "ratio_to_fastest");
    assert!(ratios.iter().all(|r| r.parse::<f64>().unwrap() >= 1.0), "{ratios:?}");
    if cfg!(target_os = "linux") {
        assert!(values(&run.stdout, "extra_kib").iter().all(|v| v.parse::<u64>().is_ok()), "{}", run.stdout);
    }
    assert!(chart.starts_with("<?xml") && chart.trim_end().ends_with("</svg>"), "{chart}");
    for panel in ["time", "memory"] {
        let series = format!("<g class=\"series\" data-panel=\"{panel}\"");
        assert_eq!(chart.matches(&series).count(), STRATEGIES, "{panel}");
    }
}

#[test]
fn text_report_has_its_header_and_one_row_per_strategy_and_size() {
    let run =
        judge(&["bench", "--sizes", "100", "--reps", "2", "--solution", "dp_array", "--solution", "four_scalars"]);
    assert_eq!(run.status, 0, "{}", run.describe());
    let profile = if cfg!(debug_assertions) { "debug build" } else { "release build" };
    let header = run.stdout.lines().next().unwrap();
    assert!(header.contains(profile) && header.contains("reps 2 ") && header.contains("stack"), "{header}");
    let rows: Vec<&str> = run.stdout.lines().filter(|l| l.split_whitespace().nth(1) == Some("100")).collect();
    assert_eq!(rows.len(), 2, "{}", run.stdout);
    assert!(rows[0].starts_with("dp_array") && rows[1].starts_with("four_scalars"), "{rows:?}");
}

/// Measured, not computed: a table of n piles shows up, four scalars do not.
#[test]
fn extra_memory_tells_a_table_from_four_scalars() {
    if !cfg!(target_os = "linux") {
        return;
    }
    let run = judge(&[
        "bench",
        "--sizes",
        "1000000",
        "--reps",
        "1",
        "--format",
        "json",
        "--solution",
        "dp_array",
        "--solution",
        "four_scalars",
    ]);
    assert_eq!(run.status, 0, "{}", run.describe());
    let extra: Vec<u64> = values(&run.stdout, "extra_kib").iter().map(|v| v.parse().unwrap()).collect();
    // dp_array's table is 4 MB (3906 KiB); the kernel's counters may blur that by a few hundred.
    assert!((3000..6000).contains(&extra[0]) && extra[1] < 1024, "{extra:?}");
}

#[test]
fn bad_arguments_are_named() {
    let cases: [(&[&str], &str); 4] = [
        (&["bench", "--solution", "nope"], "\"nope\""),
        (&["bench", "--sizes", "10,x"], "\"x\""),
        (&["bench", "--reps", "0"], "\"0\""),
        (&["bench-child", "--solution", "dp_array"], "needs one '--solution' and '--len'"),
    ];
    for (args, wanted) in cases {
        let run = judge(args);
        assert_eq!(run.status, 2, "{args:?}: {}", run.describe());
        assert!(run.stderr.contains(wanted), "{args:?}: {}", run.stderr);
    }
}
