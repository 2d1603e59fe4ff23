//! The page (`--html`) in a real browser: Debian's `chromium`, headless. Each test opens the
//! page the judge wrote, reads the DOM the browser made of it and its console, and takes
//! screenshots at a phone's width and a desktop's, light and dark, into
//! `target/judge/screenshots/` for a person to look at. Where no chromium is found the tests
//! say so and are skipped, unless `JUDGE_BROWSER_REQUIRED` is set (`.ci/run` sets it where it
//! installed one): then they fail.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{cache, command_in, judge_in, shared, Copy, Json, CORRECT};

/// The browser, or None after saying why the test cannot run.
fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let on_path: Vec<PathBuf> = ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |d| d.join(name)))
        .collect();
    let found = std::env::var_os("CHROMIUM").map(PathBuf::from).into_iter().chain(on_path);
    let found = found.into_iter().find(|p| p.is_file());
    if found.is_none() {
        let why = "no chromium found (apt-get install chromium, or CHROMIUM=/path/to/it): the page was not opened in a browser";
        if std::env::var_os("JUDGE_BROWSER_REQUIRED").is_some() {
            panic!("{why}, and JUDGE_BROWSER_REQUIRED is set");
        }
        crate::common::skipped(why);
    }
    found
}

/// A headless browser's run on `url` with `args`: what it printed (the DOM, for `--dump-dom`)
/// and the console messages it logged.
fn browse(browser: &Path, args: &[&str], url: &str) -> (String, Vec<String>) {
    let output = Command::new(browser)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--enable-logging=stderr", "--v=0"])
        .args(args)
        .arg(url)
        .stdin(Stdio::null())
        .output()
        .expect("chromium runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let console = stderr.lines().filter(|l| l.contains(":CONSOLE")).map(String::from).collect();
    (String::from_utf8_lossy(&output.stdout).into_owned(), console)
}

fn url(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// Takes the page's screenshots, each compared with one of an empty page of the same size.
fn screenshots(browser: &Path, page: &Path, label: &str) {
    let folder = cache().join("screenshots");
    std::fs::create_dir_all(&folder).unwrap();
    let empty = folder.join(format!("{label}-empty.html"));
    std::fs::write(&empty, "<!DOCTYPE html><html><body></body></html>").unwrap();
    for width in [1280, 360] {
        let size = format!("--window-size={width},2000");
        let blank = folder.join(format!("{label}-empty-{width}.png"));
        browse(browser, &[&size, &format!("--screenshot={}", blank.display())], &url(&empty));
        let blank = std::fs::metadata(&blank).map(|m| m.len()).unwrap_or(0);
        for (scheme, flags) in
            [("light", &[][..]), ("dark", &["--force-dark-mode", "--blink-settings=preferredColorScheme=0"][..])]
        {
            let shot = folder.join(format!("{label}-{width}-{scheme}.png"));
            let _ = std::fs::remove_file(&shot);
            let mut args = vec![size.clone(), format!("--screenshot={}", shot.display())];
            args.extend(flags.iter().map(|f| f.to_string()));
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let (_, console) = browse(browser, &args, &url(page));
            assert!(console.is_empty(), "{label} at {width} px, {scheme}: {console:#?}");
            let taken = std::fs::metadata(&shot).map(|m| m.len()).unwrap_or(0);
            // A page of text, tables and charts compresses far worse than an empty one.
            assert!(taken > 3 * blank.max(1), "{} is {taken} bytes, an empty page's {blank}: blank?", shot.display());
            eprintln!("screenshot: {}", shot.display());
        }
    }
}

/// The part of `dom` from the first `from` to the first `to` after it.
fn between<'a>(dom: &'a str, from: &str, to: &str) -> &'a str {
    let start = dom.find(from).unwrap_or_else(|| panic!("no {from:?} in the page"));
    let end = dom[start..].find(to).map_or(dom.len(), |k| start + k);
    &dom[start..end]
}

/// Checks the DOM the browser made of a page against the JSON of the same run: a matrix cell
/// per solution and case, a failure block per failure, a line per strategy in the chart, and
/// no console message.
fn check(browser: &Path, page: &Path, report: &Json) {
    let (dom, console) = browse(browser, &["--dump-dom"], &url(page));
    assert!(console.is_empty(), "{console:#?}");
    let solutions = report.get("solutions").unwrap().items();
    let cases = report.get("cases").unwrap().items().len();
    let matrix = between(&dom, "<table class=\"matrix\">", "</table>");
    let rows = matrix.matches("scope=\"row\"").count();
    assert_eq!(rows, solutions.len(), "a row per solution");
    // A cell per case, after the one that says what it got against what it must get.
    assert_eq!(matrix.matches("<td").count(), solutions.len() * (cases + 1), "a cell per solution and case");
    let verdict = |r: &Json| r.get("verdict").and_then(Json::as_str).map(String::from);
    let failures: usize = solutions
        .iter()
        .map(|s| match s.get("compile_error").and_then(Json::as_str) {
            Some(_) => 1,
            None => s.get("results").unwrap().items().iter().filter(|r| verdict(r).as_deref() != Some("AC")).count(),
        })
        .sum();
    assert_eq!(dom.matches("<article class=\"failure\">").count(), failures, "a block per failure");
    let strategies = solutions.iter().filter(|s| s.get("expect").and_then(Json::as_str) == Some("AC")).count();
    let time = between(&dom, "<svg id=\"time\"", "</svg>");
    assert_eq!(time.matches("class=\"series s").count(), strategies, "a line per strategy");
    assert!(dom.contains("<section id=\"sources\">") && dom.contains("<section id=\"comparison\">"));
}

#[test]
#[ignore = "slow: the default run, then a browser"]
fn the_page_of_the_default_run_opens_in_a_browser() {
    let Some(browser) = chromium() else { return };
    let page = cache().join("screenshots").join("default-run.html");
    let run = judge_in(shared(), &["--format", "json", "--html", page.to_str().unwrap()], None);
    assert_eq!(run.status, 0, "{}", run.describe());
    assert!(run.stderr.contains(&format!("judge: page written to file://{}", page.display())), "{}", run.stderr);
    let bytes = std::fs::metadata(&page).unwrap().len();
    assert!(bytes <= 1 << 20, "the page is {bytes} bytes, over 1 MiB");
    check(&browser, &page, &run.json());
    screenshots(&browser, &page, "default-run");
}

/// An attempt that starts its running maximum at 0 and calls a tie Alice's win.
const TIES_FOR_ALICE: &str = "let n = stone_value.len();
        let mut f = vec![0; n + 1];
        for i in (0..n).rev() {
            let (mut sum, mut best) = (0, 0);
            for k in 1..=3.min(n - i) {
                sum += stone_value[i + k - 1];
                best = best.max(sum - f[i + k]);
            }
            f[i] = best;
        }
        if f[0] >= 0 { \"Alice\".to_string() } else { \"Bob\".to_string() }";

#[test]
#[ignore = "slow: a browser"]
fn the_page_of_a_failing_attempt_shows_every_failure() {
    let Some(browser) = chromium() else { return };
    let copy = Copy::new("page", &["samples", "edge"]);
    copy.plant("my_try", TIES_FOR_ALICE);
    copy.plant("slow_try", crate::attempt::EXPONENTIAL);
    let page = copy.root.join("page.html");
    let mut args = vec!["--solution", "my_try", "--solution", "slow_try", "--solution", "four_scalars"];
    args.extend(["--solution", "dp_array", "--format", "json", "--time-limit", "300ms"]);
    let run = copy.judge(&[&args[..], &["--html", page.to_str().unwrap()]].concat());
    assert_eq!(run.status, 1, "{}", run.describe());
    let report = run.json();
    check(&browser, &page, &report);
    let (dom, _) = browse(&browser, &["--dump-dom"], &url(&page));
    // slow_try stops after three time limits: the cases after them are not judged, and said so.
    let slow = between(&dom, "title=\"slow_try\">slow_try</th>", "</tr>");
    assert!(slow.contains("<td class=\"v-tle\"") && slow.contains("<td class=\"nj\">not judged</td>"), "{slow}");
    assert!(dom.contains("<span class=\"nj\">not judged</span> slow_try: not judged"), "in the failures");
    // The script shows two sources side by side.
    assert_eq!(dom.matches("class=\"source shown\"").count(), 2, "two sources shown");
    let drawn: Vec<&str> = dom.split("<g class=\"series ").skip(1).filter_map(|g| g.split('>').next()).collect();
    let apart = |name: &str| format!("attempt\" data-panel=\"time\" data-name=\"{name}\"");
    assert!(drawn.iter().any(|g| g.contains(&apart("my_try"))), "the attempt drawn apart: {drawn:#?}");
    // The rerun of the run, as the JSON's.
    let reruns: Vec<&str> = dom.split("data-copy=\"").skip(1).filter_map(|s| s.split('"').next()).collect();
    assert!(
        reruns.contains(&"cargo judge --format json --time-limit 300ms --solution my_try --case edge/n1-min"),
        "{reruns:#?}"
    );
    screenshots(&browser, &page, "failing-attempt");
    std::fs::copy(&page, cache().join("screenshots").join("failing-attempt.html")).unwrap();
}

#[test]
#[ignore = "slow: watch, then a browser"]
fn watch_turns_the_pages_wa_cells_into_ac_within_two_seconds_of_the_save() {
    let Some(browser) = chromium() else { return };
    let copy = Copy::new("watch-page", &["samples"]);
    copy.plant("my_try", TIES_FOR_ALICE);
    let page = copy.root.join("page.html");
    let mut watch = command_in(&copy.root, &["watch", "--solution", "my_try", "--html", page.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let got = |dom: &str| -> Option<String> {
        let row = between(dom, "title=\"my_try\">my_try</th>", "</tr>");
        Some(row.split("<td class=\"").nth(1)?.split('"').next()?.to_string())
    };
    let read = || std::fs::read_to_string(&page).unwrap_or_default();
    let started = Instant::now();
    while !read().contains("title=\"my_try\"") && started.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(100));
    }
    let (dom, console) = browse(&browser, &["--dump-dom"], &url(&page));
    let first = got(&dom);
    assert!(console.is_empty(), "{console:#?}");
    assert!(dom.contains("<meta http-equiv=\"refresh\" content=\"1\">"), "the page reloads itself while watched");
    copy.plant("my_try", CORRECT);
    let saved = Instant::now();
    // When the page on disk says AC; an open page shows it at its next reload, a second later.
    let mut written = None;
    while saved.elapsed() < Duration::from_secs(120) {
        if got(&read()).as_deref() == Some("v-ac") {
            written = Some(saved.elapsed());
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let (dom, console) = browse(&browser, &["--dump-dom"], &url(&page));
    let _ = watch.kill();
    let _ = watch.wait();
    assert_eq!(first.as_deref(), Some("v-wa"), "before the save");
    let written = written.expect("the page never said AC after the save");
    assert_eq!(got(&dom).as_deref(), Some("v-ac"), "the browser shows AC");
    assert!(console.is_empty(), "{console:#?}");
    let shown = written + Duration::from_secs(1);
    eprintln!("the page said AC {} ms after the save; shown by {} ms", written.as_millis(), shown.as_millis());
    // Timed, so in the slow tier: on a machine at load 12 the rejudge alone took 2.4 s.
    assert!(shown <= Duration::from_secs(2), "AC written {written:?} after the save, shown by {shown:?}");
}

#[test]
fn html_writes_the_page_says_where_and_never_into_stored_data() {
    let page = std::env::temp_dir().join(format!("judge-page-{}.html", std::process::id()));
    let page_arg = page.to_str().unwrap();
    let args = ["--case", "samples", "--solution", "four_scalars", "--solution", "wrong/best_starts_at_zero"];
    let run = judge_in(shared(), &[&args[..], &["--verbose", "--color", "never", "--html", page_arg]].concat(), None);
    assert_eq!(run.status, 0, "{}", run.describe());
    assert!(run.stderr.contains(&format!("judge: page written to file://{}", page.display())), "{}", run.stderr);
    let written = std::fs::read_to_string(&page).unwrap();
    let _ = std::fs::remove_file(&page);
    assert!(written.starts_with("<!DOCTYPE html>") && written.contains("four_scalars"), "{written}");
    // A rerun printed in the text leaves the page of the whole run alone.
    assert!(run.stdout.contains("rerun     cargo judge") && !run.stdout.contains("--html"), "{}", run.stdout);
    let refused = judge_in(shared(), &["--case", "samples", "--html", "testcases/samples/page.html"], None);
    assert_eq!(refused.status, 2, "{}", refused.describe());
    assert!(refused.stderr.contains("refusing to write the page to testcases/samples/page.html"), "{}", refused.stderr);
    assert!(!shared().join("testcases/samples/page.html").exists());
}

/// A page that cannot be written costs none of the report: it is whole, then one line names
/// the page and why, and the run ends as a judge error.
#[test]
fn a_page_that_cannot_be_written_is_said_after_the_whole_report() {
    let file = std::env::temp_dir().join(format!("judge-not-a-folder-{}", std::process::id()));
    std::fs::write(&file, "").unwrap();
    let page = file.join("page.html");
    let args = ["--case", "samples", "--solution", "wrong/best_starts_at_zero", "--color", "never"];
    let whole = judge_in(shared(), &args, None);
    let run = judge_in(shared(), &[&args[..], &["--html", page.to_str().unwrap()]].concat(), None);
    let json = judge_in(shared(), &[&args[..], &["--html", page.to_str().unwrap(), "--format", "json"]].concat(), None);
    let _ = std::fs::remove_file(&file);
    assert_eq!(run.status, 2, "{}", run.describe());
    let report =
        |text: &str| -> Vec<String> { text.lines().filter(|l| !l.contains("wall")).map(String::from).collect() };
    assert_eq!(report(&run.stdout), report(&whole.stdout), "{}", run.describe());
    assert!(run.stdout.trim_end().ends_with("exit 2"), "the summary says how it ends: {}", run.stdout);
    // Last on stderr, wrapped to the width as every note is.
    let said = format!("judge: page not written to {}: not a directory", page.display());
    let last = |stderr: &str| stderr.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(last(&run.stderr).ends_with(&said), "{}", run.stderr);
    // With --format json the report stays the one document on stdout, its status a judge error.
    assert_eq!(json.status, 2, "{}", json.describe());
    assert_eq!(json.json().get("exit_status").and_then(Json::as_i128), Some(2), "{}", json.describe());
    assert!(last(&json.stderr).ends_with(&said), "{}", json.stderr);
}

#[test]
#[ignore = "slow: bench, then a browser"]
fn the_page_of_bench_draws_each_strategy_and_the_floor_it_was_given() {
    let Some(browser) = chromium() else { return };
    let copy = Copy::new("bench-page", &["samples"]);
    // A floor reading as `floor` leaves it, in a cache of the copy's own.
    let cache = copy.root.join("cache");
    std::fs::create_dir_all(&cache).unwrap();
    std::fs::write(cache.join("floor.txt"), "n 50000\nfloor 0.55\nfloor_max 0.61\n").unwrap();
    let page = copy.root.join("bench.html");
    let args =
        ["bench", "--solution", "dp_array", "--solution", "four_scalars", "--sizes", "1000,10000", "--reps", "3"];
    let run = copy
        .command(&[&args[..], &["--html", page.to_str().unwrap()]].concat())
        .env("JUDGE_CACHE", &cache)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let (dom, console) = browse(&browser, &["--dump-dom"], &url(&page));
    assert!(console.is_empty(), "{console:#?}");
    for panel in ["time", "memory"] {
        let drawn = between(&dom, &format!("<svg id=\"{panel}\""), "</svg>");
        for name in ["dp_array", "four_scalars"] {
            assert!(
                drawn.contains(&format!("reference\" data-panel=\"{panel}\" data-name=\"{name}\"")),
                "{panel}: {name}"
            );
        }
    }
    assert!(dom.contains("<line class=\"floor\""), "the floor's line");
    assert!(dom.contains("0.55 ns a pile at n = 50,000"));
    assert!(!dom.contains("<section id=\"matrix\">"), "bench judges nothing");
    screenshots(&browser, &page, "bench");
}
