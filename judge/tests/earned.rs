//! AC is earned: every testcase called and answered right. A group slower than its time limit
//! together is judged whole; a refusal a solution writes itself is its own runtime error; no
//! way of stopping before the first case reads as a pass; and a failure that needs the calls
//! before it comes back as a counterexample that fails when tried as printed.

use crate::common::{plant_tagged, printed_command, solution, text, BusyLoops, Copy, Json, SPIN_CPU};

const GROUP: &str = "testcases/short/len-1-to-6";

/// A method body, with `SPIN_CPU`'s items, that spins `micros` of CPU time a call, then answers right, but for the
/// group's last 3,125 arrays (six piles, the first 2), where it answers what no answer is.
fn slow_and_late_wrong(micros: u64) -> String {
    format!(
        "spin_cpu_micros({micros});
        if stone_value.len() == 6 && stone_value[0] == 2 {{ return \"Nobody\".to_string(); }}"
    )
}

/// The 1-based line of the group's `.in` that holds `input`.
fn line_of(copy: &Copy, input: &str) -> usize {
    let inputs = copy.read(&format!("{GROUP}.in"));
    1 + inputs.lines().position(|l| l == input).unwrap_or_else(|| panic!("{input} is not in the group"))
}

/// The result a solution got on its one case, by the JSON report.
fn only_result(report: &Json, name: &str) -> Json {
    let results = solution(report, name).get("results").unwrap().items();
    assert_eq!(results.len(), 1, "{results:?}");
    results[0].clone()
}

#[test]
fn a_group_slower_than_its_limit_together_is_judged_whole_and_a_late_wrong_answer_found() {
    let copy = Copy::new("earned-late", &["short"]);
    // 19,530 calls of 10 us: 0.2 s of CPU time, twice the limit, which one batch of them all
    // passed; in batches of 1,000 each is a tenth of it.
    plant_tagged(&copy, "late", "AC", SPIN_CPU, &slow_and_late_wrong(10));
    let run = copy.judge(&["--solution", "late", "--time-limit", "100ms", "--format", "json"]);
    assert_eq!(run.status, 1, "{}", run.describe());
    let report = run.json();
    let late = solution(&report, "late");
    assert_eq!(text(late, "verdict"), "WA");
    assert_eq!(late.get("not_judged").and_then(Json::as_i128), Some(0), "{late:?}");
    let result = only_result(&report, "late");
    let first = line_of(&copy, "[2,-2,-2,-2,-2,-2]");
    assert_eq!(text(&result, "testcase"), format!("short/len-1-to-6:{first}"));
    let group = result.get("group").unwrap();
    let testcases = group.get("testcases").and_then(Json::as_i128).unwrap();
    assert_eq!(group.get("judged").and_then(Json::as_i128), Some(testcases), "every testcase judged: {group:?}");
    assert_eq!(group.get("failed").unwrap().items().len(), 3125);
    // As an attempt in solutions/, the run that judges every file fails.
    let all = copy.judge(&["--case", "short", "--time-limit", "100ms"]);
    assert_eq!(all.status, 1, "{}", all.describe());
    assert!(all.stdout.contains("not as expected: late"), "{}", all.stdout);
}

/// What a static initialiser can run before the driver: items for `plant_tagged`, writing
/// `bytes` on the judge's reply pipe (descriptor 101) and exiting with `code`, or, for `None`,
/// doing `act`.
fn before_main(act: &str) -> String {
    format!(
        "extern \"C\" {{
    fn write(fd: i32, buf: *const u8, count: usize) -> isize;
    fn _exit(code: i32) -> !;
    fn close(fd: i32) -> i32;
}}
extern \"C\" fn early() {{
    #[allow(unused_unsafe)]
    unsafe {{ {act} }}
}}
#[used]
#[link_section = \".init_array\"]
static EARLY: extern \"C\" fn() = early;"
    )
}

/// The driver's refusal frame for `why` (1 bad arguments, 2 bad request, 3 no stack), written
/// as it would, then an exit.
fn forged_refusal(why: u8) -> String {
    before_main(&format!(
        "let frame = [19u8, 0, 0, 0, 0, 1, 0, 0, 0, {why}]; write(101, frame.as_ptr(), frame.len()); _exit(2);"
    ))
}

#[test]
fn a_refusal_written_by_the_solution_before_main_is_its_runtime_error_not_the_machines() {
    let copy = Copy::new("earned-refusal", &["samples"]);
    plant_tagged(&copy, "forges", "AC", &forged_refusal(3), "");
    plant_tagged(&copy, "leaves", "AC", &before_main("_exit(3);"), "");
    let run = copy.judge(&["--solution", "forges", "--solution", "leaves", "--format", "json"]);
    assert_eq!(run.status, 1, "the solutions' failures, not a judge error:\n{}", run.describe());
    let report = run.json();
    assert!(report.get("judge_errors").unwrap().items().is_empty(), "{}", run.stdout);
    for name in ["forges", "leaves"] {
        let mine = solution(&report, name);
        assert_eq!(text(mine, "verdict"), "RE", "{mine:?}");
        assert_eq!(mine.get("fault"), Some(&Json::Null), "{mine:?}");
    }
    let results = solution(&report, "forges").get("results").unwrap().items();
    assert_eq!(text(&results[0], "ending"), "false refusal");
    assert!(text(&results[0], "reason").contains("the judge's own program"), "{:?}", results[0]);
}

/// Every way a solution can stop before its first case: none reads as AC, in the JSON or in
/// the text's rows.
#[test]
#[ignore = "slow: a dozen solutions, some spending a time limit at start-up"]
fn no_solution_that_stops_before_its_first_case_reads_as_accepted() {
    let copy = Copy::new("earned-none", &["samples"]);
    let ways: [(&str, String); 12] = [
        ("exits", before_main("_exit(0);")),
        ("exits_badly", before_main("_exit(7);")),
        ("forges_no_stack", forged_refusal(3)),
        ("forges_bad_request", forged_refusal(2)),
        ("forges_bad_arguments", forged_refusal(1)),
        ("closes_the_pipe", before_main("close(101); close(100);")),
        ("aborts", before_main("std::process::abort();")),
        ("spins", before_main("loop { std::hint::spin_loop(); }")),
        ("sleeps", before_main("std::thread::sleep(std::time::Duration::from_secs(30));")),
        ("hoards", before_main("let held = vec![7u8; 600 << 20]; std::hint::black_box(&held); loop { std::thread::sleep(std::time::Duration::from_secs(1)); }")),
        ("floods", before_main("let line = [b'x'; 4096]; for _ in 0..1024 { write(1, line.as_ptr(), line.len()); } loop { std::hint::spin_loop(); }")),
        ("signals", before_main("write(2, b\"bye\\n\".as_ptr(), 4); std::process::abort();")),
    ];
    let mut args = vec!["--time-limit", "300ms", "--format", "json"];
    for (name, items) in &ways {
        plant_tagged(&copy, name, "AC", items, "");
        args.extend(["--solution", name]);
    }
    copy.write("solutions/broken.rs", "impl Solution { pub fn stone_game_iii(v: Vec<i32>) -> String { v } }\n");
    args.extend(["--solution", "broken"]);
    let run = copy.judge(&args);
    assert_ne!(run.status, 0, "{}", run.describe());
    let report = run.json();
    for (name, _) in ways.iter().map(|(n, i)| (*n, i)).chain([("broken", &String::new())]) {
        let mine = solution(&report, name);
        let verdict = mine.get("verdict").and_then(Json::as_str);
        assert!(verdict.is_some_and(|v| v != "AC"), "{name}: {mine:?}");
        for result in mine.get("results").unwrap().items() {
            assert_ne!(text(result, "verdict"), "AC", "{name}: {result:?}");
        }
    }
    let mut text_args: Vec<&str> = args.iter().copied().filter(|a| *a != "--format" && *a != "json").collect();
    text_args.extend(["--color", "never", "--width", "200"]);
    let shown = copy.judge(&text_args);
    for (name, _) in &ways {
        let row = shown.stdout.lines().find(|l| l.split_whitespace().nth(1) == Some(name)).unwrap_or("");
        assert!(!row.contains(" AC"), "{name}'s row reads as a pass: {row}\n{}", shown.stdout);
    }
}

/// A solution given no case at all (the only case file cannot be read) has no verdict: not
/// AC in the JSON, nor in its row, nor counted as a tag met.
#[test]
fn a_solution_judged_on_no_case_is_not_accepted() {
    let copy = Copy::new("earned-no-case", &["samples"]);
    let elsewhere = copy.root.join("elsewhere/mine");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::write(elsewhere.join("a.in"), "[1,2,x]\n").unwrap();
    std::fs::write(elsewhere.join("a.out"), "\"Bob\"\n").unwrap();
    let cases = copy.root.join("elsewhere");
    let args = ["--cases", cases.to_str().unwrap(), "--solution", "four_scalars"];
    let run = copy.judge(&[&args[..], &["--format", "json"]].concat());
    assert_eq!(run.status, 2, "a bad case is the judge's error: {}", run.describe());
    let mine = solution(&run.json(), "four_scalars").clone();
    assert_eq!(mine.get("verdict"), Some(&Json::Null), "{mine:?}");
    assert_eq!(text(&mine, "met"), "no", "{mine:?}");
    let shown = copy.judge(&[&args[..], &["--color", "never"]].concat());
    // The summary's row, after the matrix's heading of the same words.
    let row = shown.stdout.lines().rfind(|l| l.split_whitespace().nth(1) == Some("four_scalars")).unwrap_or("");
    assert!(row.contains("not judged") && !row.contains(" AC"), "{row}\n{}", shown.stdout);
    assert!(shown.stdout.contains("0/1 solutions got their expected verdicts"), "{}", shown.stdout);
}

/// `try it`, as stress prints it for an attempt that keeps a memo between calls, fails as
/// printed; `--save` stores a case the judge then fails it on.
fn a_kept_memo_reproduces(label: &str, items: &str, lookup: &str, keep: &str) {
    let copy = Copy::new(label, &["samples"]);
    // f(i) memoised by the pile's index alone, never cleared: right on a fresh process's first
    // call, wrong once an earlier call has filled the memo.
    let body = format!(
        "fn f(i: usize, s: &[i32]) -> i64 {{
            if i >= s.len() {{ return 0; }}
            if let Some(v) = {lookup} {{ return v; }}
            let (mut taken, mut best) = (0i64, i64::MIN);
            for k in 0..3.min(s.len() - i) {{
                taken += i64::from(s[i + k]);
                best = best.max(taken - f(i + k + 1, s));
            }}
            {keep};
            best
        }}
        return match f(0, &stone_value) {{ l if l > 0 => \"Alice\", l if l < 0 => \"Bob\", _ => \"Tie\" }}.to_string();"
    );
    plant_tagged(&copy, "kept", "AC", items, &body);
    let stress = copy.judge(&["stress", "--solution", "kept"]);
    assert_eq!(stress.status, 1, "{}", stress.describe());
    assert!(stress.stdout.contains("it fails after"), "the calls it needs are said:\n{}", stress.stdout);
    let try_it = printed_command(&stress.stdout, "try it");
    let words: Vec<&str> = try_it.iter().map(String::as_str).collect();
    let tried = copy.judge(&words);
    assert_eq!(tried.status, 1, "try it, as printed, fails:\n{}\n{}", stress.stdout, tried.describe());
    assert!(tried.stdout.contains(" WA "), "{}", tried.stdout);
    let saved = copy.judge(&["stress", "--solution", "kept", "--save"]);
    assert_eq!(saved.status, 1, "{}", saved.describe());
    let judged = copy.judge(&["--solution", "kept", "--case", "regressions", "--format", "json"]);
    assert_eq!(judged.status, 1, "the stored case fails it:\n{}", judged.describe());
    assert_eq!(text(solution(&judged.json(), "kept"), "verdict"), "WA");
}

#[test]
fn a_memo_kept_in_a_static_between_calls_gives_a_counterexample_that_fails_as_printed() {
    let items = "static MEMO: std::sync::Mutex<Vec<Option<i64>>> = std::sync::Mutex::new(Vec::new());";
    let lookup = "MEMO.lock().unwrap().get(i).copied().flatten()";
    let keep = "{ let mut m = MEMO.lock().unwrap(); if m.len() <= i { m.resize(i + 1, None); } m[i] = Some(best); }";
    a_kept_memo_reproduces("earned-static", items, lookup, keep);
}

#[test]
fn a_memo_kept_in_a_thread_local_between_calls_gives_a_counterexample_that_fails_as_printed() {
    let items = "thread_local! { static MEMO: std::cell::RefCell<std::collections::HashMap<usize, i64>> = Default::default(); }";
    let lookup = "MEMO.with(|m| m.borrow().get(&i).copied())";
    let keep = "MEMO.with(|m| m.borrow_mut().insert(i, best))";
    a_kept_memo_reproduces("earned-thread-local", items, lookup, keep);
}

/// A wrong attempt that spends 100 us a call on the short arrays and is wrong on the last
/// 3,125 of them: WA alone, and at --jobs 16 under four busy loops.
#[test]
#[ignore = "slow: two seconds of CPU a run, one run under four busy loops"]
fn a_slow_attempt_wrong_on_the_last_short_arrays_is_wa_alone_and_under_load() {
    let copy = Copy::new("earned-slow", &["short"]);
    plant_tagged(&copy, "slow_late", "WA", SPIN_CPU, &slow_and_late_wrong(100));
    let first = line_of(&copy, "[2,-2,-2,-2,-2,-2]");
    let check = |run: crate::common::Run| {
        let report = run.json();
        let mine = solution(&report, "wrong/slow_late");
        assert_eq!((text(mine, "verdict"), text(mine, "met")), ("WA", "yes"), "{}", run.describe());
        let result = only_result(&report, "wrong/slow_late");
        assert_eq!(text(&result, "testcase"), format!("short/len-1-to-6:{first}"));
    };
    check(copy.judge(&["--solution", "wrong/slow_late", "--format", "json"]));
    let _busy = BusyLoops::start(4);
    check(copy.judge(&["--jobs", "16", "--format", "json"]));
}

/// An attempt that spins 3 s of CPU time on one late array, only after a thousand calls in one
/// process, as a batch makes them: TLE, on that array.
#[test]
#[ignore = "slow: a time limit spent, and one more for the same array alone"]
fn a_spin_on_one_late_array_only_inside_a_batch_is_a_time_limit_on_that_array() {
    let copy = Copy::new("earned-spin", &["short"]);
    let items =
        format!("{SPIN_CPU}\nstatic CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);");
    let body =
        "if CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed) > 1000 && stone_value == [2, 2, 2, 2, 2, 1] {
            spin_cpu_micros(3_000_000);
        }";
    plant_tagged(&copy, "spins_late", "AC", &items, body);
    let run = copy.judge(&["--solution", "spins_late", "--format", "json"]);
    assert_eq!(run.status, 1, "{}", run.describe());
    let report = run.json();
    assert_eq!(text(solution(&report, "spins_late"), "verdict"), "TLE");
    let result = only_result(&report, "spins_late");
    let line = line_of(&copy, "[2,2,2,2,2,1]");
    assert_eq!(text(&result, "testcase"), format!("short/len-1-to-6:{line}"), "the testcase that was running");
    assert!(result.get("alone").and_then(|a| a.get("calls_before")).is_some(), "alone it passes: {result:?}");
    assert!(text(&result, "rerun").ends_with("--case short/len-1-to-6"), "rerun with its batch: {result:?}");
}
