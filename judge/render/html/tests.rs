//! The page's unit tests, on a report made by hand: every verdict, a group, a case not judged,
//! a compile error, and names and sources that hold `<` and `&`.

use std::collections::BTreeMap;
use std::time::{Duration, UNIX_EPOCH};

use super::*;
use crate::cli::Command;
use crate::exec::diagnose::CompileError;
use crate::exec::limits::DEFAULT;
use crate::exec::outcome::{Answered, Call, Ending, Printed};
use crate::judging::cases::{Case, Test};
use crate::judging::engine::{CaseResult, Cut, Scorecard, Tally};
use crate::judging::report::{Figures, Met};
use crate::judging::submissions::Expect;
use crate::judging::verdict::Verdict;
use crate::problem::oracle;
use crate::problem::Answer;

fn answered(answer: &str, nanos: u64) -> Call {
    let answered =
        Answered { answer: answer.as_bytes().to_vec(), length: answer.len() as u64, nanos, peak_kib: Some(1800) };
    Call {
        result: Ok(answered),
        stdout: Printed::default(),
        stderr: Printed::default(),
        wall: Duration::from_micros(50),
    }
}

fn ended(ending: Ending) -> Call {
    Call { result: Err(ending), stdout: Printed::default(), stderr: Printed::default(), wall: Duration::from_millis(5) }
}

fn one(verdict: Verdict, call: Call) -> Option<CaseResult> {
    Some(CaseResult { verdict: Some(verdict), call, test: 0, tally: None, alone: None })
}

/// The oracle's answer, so that nothing here is an answer written by hand.
fn truth(values: &[i32]) -> Answer {
    oracle::explain(values).answer()
}

fn case(id: &str, values: Vec<i32>) -> Case {
    let expected = truth(&values);
    Case {
        id: id.into(),
        input: format!("/w/testcases/{id}.in").into(),
        tests: vec![Test { line: 1, values, expected }],
        lines: false,
        every: None,
    }
}

/// A group of every array of one pile over -1..=1.
fn group() -> Case {
    let tests =
        (-1..=1).enumerate().map(|(k, v)| Test { line: k + 1, values: vec![v], expected: truth(&[v]) }).collect();
    Case {
        id: "short/one-pile".into(),
        input: "/w/testcases/short/one-pile.in".into(),
        tests,
        lines: true,
        every: None,
    }
}

/// A submission named `name` whose source is `source`, expected to get `expect`.
fn submission(name: &str, source: &str, expect: Expect) -> Submission {
    Submission { expect, ..Submission::attempt(name, source) }
}

/// Strategy `four_scalars` passes everything; `my_<try>&co` fails with every verdict of a
/// call, and has a group with a failure and a case it was never judged on; `wrong/broken`
/// does not compile.
pub fn sample() -> (Report, Invocation) {
    let mut cases: Vec<Case> = ["samples/a", "samples/b", "samples/c", "samples/d", "samples/e", "samples/f"]
        .iter()
        .zip([vec![1, 2, 3, 7], vec![1, 2, 3, -9], vec![1, 2, 3, 6], vec![-1, -2, -3], vec![5], vec![0, 0]])
        .map(|(id, values)| case(id, values))
        .collect();
    cases.push(group());
    cases.push(case("edge/never", vec![3, -4]));
    let right = |c: &Case| c.tests[0].expected.as_str();
    let wrong = |c: &Case| if right(c) == "Bob" { "Alice" } else { "Bob" };
    let ac = |c: &Case| one(Verdict::Ac, answered(right(c), 1500));
    let limits = DEFAULT;
    let mut strategy = Scorecard::new(cases.len());
    strategy.compiled = Some(Ok(()));
    for (c, case) in cases.iter().enumerate() {
        strategy.results[c] = ac(case);
    }
    let tally = Tally { testcases: 3, judged: 3, passed: 3, failed: vec![], cut: None };
    strategy.results[6] = Some(CaseResult { tally: Some(tally), ..ac(&cases[6]).unwrap() });
    let mut attempt = Scorecard::new(cases.len());
    attempt.compiled = Some(Ok(()));
    attempt.results[0] = one(Verdict::Wa, answered(wrong(&cases[0]), 2000));
    attempt.results[1] = one(Verdict::Tle, ended(Ending::TimedOut { after: Duration::from_secs(1), asleep: false }));
    attempt.results[2] = one(Verdict::Mle, ended(Ending::MemoryLimit { peak_kib: 300 << 10 }));
    attempt.results[3] =
        one(Verdict::Ole, ended(Ending::OutputLimit { stream: crate::exec::outcome::Stream::Stdout, bytes: 2 << 20 }));
    attempt.results[4] = one(Verdict::Re, ended(Ending::StackOverflow));
    attempt.results[5] = ac(&cases[5]);
    let tally = Tally { testcases: 3, judged: 3, passed: 2, failed: vec![(1, Verdict::Wa)], cut: None };
    attempt.results[6] = Some(CaseResult {
        verdict: Some(Verdict::Wa),
        call: answered(wrong(&cases[6]), 900),
        test: 1,
        tally: Some(tally),
        alone: None,
    });
    attempt.cut = Some(Cut::TimeLimits(1));
    let mut broken = Scorecard::new(cases.len());
    broken.compiled = Some(Err(CompileError {
        headline: "error[E0308]: mismatched types <i32> & String".into(),
        place: None,
        wrapping: None,
        diagnostic: "error[E0308]: mismatched types".into(),
        likely: Vec::new(),
    }));
    let submissions = vec![
        submission("four_scalars", "// Four scalars: f(i) < f(i+1) & more.\nimpl Solution {}\n", Expect::Accepted),
        submission(
            "my_<try>&co",
            "// my idea: <b>bold</b> & \"quoted\"\nfn x() -> Vec<i32> { a && b }\n",
            Expect::Accepted,
        ),
        submission(
            "wrong/broken",
            "// expect: CE\nimpl Solution { fn f() -> i32 { \"\" } }\n",
            Expect::Verdict(Verdict::Ce),
        ),
    ];
    let cards = vec![strategy, attempt, broken];
    let figures = cards.iter().map(|card| Figures::of(card, &cases)).collect();
    let mut explained = BTreeMap::new();
    for card in &cards {
        for (c, r) in card.results.iter().enumerate() {
            if let Some(r) = r.as_ref().filter(|r| r.verdict != Some(Verdict::Ac)) {
                explained.insert((c, r.test), oracle::explain(&cases[c].tests[r.test].values));
            }
        }
    }
    let report = Report {
        submissions,
        cases,
        bad_cases: Vec::new(),
        bad_submissions: Vec::new(),
        cards,
        figures,
        met: vec![Met::Yes, Met::No, Met::Yes],
        explained,
        suspects: Vec::new(),
        newer: vec![Vec::new(); 3],
        changes: crate::judging::guard::Changed { changes: Vec::new(), confined: true },
        limits,
        about: crate::exec::compile::About {
            version: "rustc 1.85.0".into(),
            leetcode_rust: "1.85".into(),
            checks: crate::exec::compile::Checks::Everything,
            install: String::new(),
            incomplete: None,
        },
        unconfined: None,
        cgroup: None,
        runner: crate::exec::runner::RunnerKind::Native,
        uncounted: None,
        wall: Duration::from_millis(40),
    };
    (report, Invocation::new(Command::Judge))
}

/// The page of `sample`, with a comparison of its two solutions.
pub fn sample_page(report: &Report, invocation: &Invocation, reload: Option<u32>) -> String {
    let series = ["four_scalars", "my_<try>&co"]
        .iter()
        .map(|name| Series {
            name: name.to_string(),
            time: vec![(1000, Duration::from_micros(2)), (50_000, Duration::from_micros(60))],
            memory: vec![(1000, 1800), (50_000, 2400)],
            growth: None,
        })
        .collect();
    let comparison = Comparison {
        measured: Measured::Cases { cpu: Some("AMD <EPYC> & co".into()) },
        series,
        floor: Some(Floor { n: 50_000, ns_per_pile: 0.55 }),
        limit: DEFAULT.time,
    };
    let judged = Judged { report, invocation, root: Some(Path::new("/w")), exit: 1 };
    let page = Page {
        command: "cargo judge".into(),
        made: UNIX_EPOCH + Duration::from_secs(1_798_758_000),
        judged: Some(judged),
        comparison,
        sources: &report.submissions,
        reload,
    };
    render(&page)
}

/// The text of the page with its tags taken out, entities left as they are.
fn text(page: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for c in page.chars() {
        match c {
            '<' => inside = true,
            '>' => inside = false,
            c if !inside => out.push(c),
            _ => {}
        }
    }
    out
}

#[test]
fn names_sources_and_messages_are_escaped() {
    let (report, invocation) = sample();
    let page = sample_page(&report, &invocation, None);
    assert!(page.contains("my_&lt;try&gt;&amp;co"), "the name");
    assert!(!page.contains("my_<try>"), "a name unescaped");
    assert!(page.contains("fn x() -&gt; Vec&lt;i32&gt; { a &amp;&amp; b }"), "the source");
    assert!(page.contains("my idea: &lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot;"), "the idea comment");
    assert!(!page.contains("<b>bold</b>"));
    assert!(page.contains("on AMD &lt;EPYC&gt; &amp; co;"), "the CPU");
    // Every `&` left in the text starts an entity.
    let main = &page[page.find("<main>").unwrap()..page.find("</main>").unwrap()];
    let text = text(main);
    for (at, _) in text.match_indices('&') {
        let rest = &text[at..];
        assert!(
            ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"].iter().any(|e| rest.starts_with(e)),
            "{}",
            &rest[..20.min(rest.len())]
        );
    }
    assert_eq!(markup("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&#39;");
}

#[test]
fn every_verdict_is_in_words_and_not_judged_is_said() {
    let (report, invocation) = sample();
    let page = sample_page(&report, &invocation, None);
    for (verdict, words) in super::matrix::WORDS {
        let cell = format!("class=\"v-{}\"", verdict.code().to_lowercase());
        assert!(page.contains(&cell), "{verdict:?} has no cell");
        assert!(page.contains(&format!(">{}</span> {words}", verdict.code())), "{verdict:?} not in words");
    }
    // The case my_<try>&co never ran, after its time limit: not judged, in words.
    let row = page.lines().find(|l| l.contains("&gt;&amp;co</th>")).expect("its row");
    assert!(row.contains("<td class=\"nj\">not judged</td>"), "{row}");
    assert!(row.contains("<small class=\"met-no\">NOT as expected</small>"), "{row}");
    assert!(
        page.contains("<span class=\"nj\">not judged</span> my_&lt;try&gt;&amp;co: not judged"),
        "the list of the not judged"
    );
    // The group is one cell with its counts.
    assert!(row.contains("<small>2 AC, 1 WA</small>"), "{row}");
    let strategy = page.lines().find(|l| l.contains(">four_scalars</th>")).unwrap();
    assert!(strategy.contains("<small>3/3</small>"), "{strategy}");
}

#[test]
fn the_matrix_has_a_cell_per_solution_and_case_and_the_missed_come_first() {
    let (report, invocation) = sample();
    let page = sample_page(&report, &invocation, None);
    let rows: Vec<&str> = page.lines().filter(|l| l.starts_with("<tr") && l.contains("scope=\"row\"")).collect();
    assert_eq!(rows.len(), report.submissions.len());
    assert!(rows[0].contains("class=\"missed\"") && rows[0].contains("my_&lt;try&gt;&amp;co"), "{}", rows[0]);
    for row in rows {
        // One cell before the cases: what it got, against what it must get.
        assert_eq!(row.matches("<td").count(), 1 + report.cases.len(), "{row}");
    }
}

#[test]
fn every_failure_is_there_as_the_terminal_shows_it_with_its_rerun() {
    let (report, invocation) = sample();
    let page = sample_page(&report, &invocation, None);
    let failures = page.matches("<article class=\"failure\">").count();
    // Six failing cases of the attempt, the CE of the wrong submission.
    assert_eq!(failures, 7);
    assert!(page.contains("cargo judge --solution &#39;my_&lt;try&gt;&amp;co&#39; --case samples/a"), "a rerun");
    assert!(page.contains("class=\"copy\" data-copy=\"cargo judge --solution"), "a copy button");
    assert!(page.contains("<h3><span class=\"v-wa\">WA</span> my_&lt;try&gt;&amp;co on samples/a</h3>"), "a heading");
    assert!(page.contains("<details><summary>3 more failures of my_&lt;try&gt;&amp;co</summary>"));
    for label in ["input ", "expected ", "got ", "leads ", "play "] {
        assert!(page.contains(&format!("\n  {label}")) || page.contains(&format!("<pre>  {label}")), "{label}");
    }
    assert!(page.contains("<details><summary>1 expected failure of the wrong submissions"));
}

#[test]
fn the_page_asks_nothing_of_the_network() {
    let (report, invocation) = sample();
    let page = sample_page(&report, &invocation, None);
    for outside in ["http://", "https://", "src=", "<link", "@import", "url("] {
        let found = page.match_indices(outside).map(|(at, _)| &page[at.saturating_sub(40)..at + 40]).next();
        // The SVG namespace is a name, never fetched; the page uses none.
        assert!(found.is_none(), "{outside}: {found:?}");
    }
    assert!(page.starts_with("<!DOCTYPE html>") && page.trim_end().ends_with("</html>"));
    assert!(page.contains("prefers-color-scheme: dark") && page.contains("width=device-width"));
    assert!(!page.contains("http-equiv"));
    assert!(sample_page(&report, &invocation, Some(1)).contains("<meta http-equiv=\"refresh\" content=\"1\">"));
}

#[test]
fn the_chart_has_a_line_per_solution_in_each_panel_and_the_floor() {
    let (report, invocation) = sample();
    let page = sample_page(&report, &invocation, None);
    for panel in ["time", "memory"] {
        let lines = page.matches(&format!("data-panel=\"{panel}\"")).count();
        assert_eq!(lines, 2, "{panel}");
    }
    // A strategy's colour is its own (four_scalars is the second bundled one); an attempt's
    // is one no strategy has.
    assert!(page.contains("class=\"series s8 attempt\" data-panel=\"time\" data-name=\"my_&lt;try&gt;&amp;co\""));
    assert!(page.contains("class=\"series s1 reference\" data-panel=\"time\" data-name=\"four_scalars\""));
    assert!(page.contains("<line class=\"floor\""));
    assert!(page.contains("0.55 ns a pile at n = 50,000"));
}

#[test]
fn the_idea_is_the_comment_at_the_top() {
    let (idea, code) = sources::idea("// one\n//two\n//     f(i) = 0\n  // three\nimpl Solution {}\n// later\n");
    assert_eq!(idea, "one two\n    f(i) = 0\nthree");
    assert_eq!(code, "impl Solution {}\n// later");
}

#[test]
fn a_link_is_a_file_url_with_its_odd_bytes_encoded() {
    assert_eq!(link(Path::new("/w/target/judge/report.html")), "file:///w/target/judge/report.html");
    assert_eq!(link(Path::new("/my dir/a#b&é.html")), "file:///my%20dir/a%23b%26%C3%A9.html");
}

#[test]
fn memory_readings_of_at_most_a_page_sit_on_the_tick_that_says_so() {
    let series = vec![Series {
        name: "dp_array".into(),
        time: vec![(1000, Duration::from_micros(2)), (50_000, Duration::from_micros(60))],
        memory: vec![(1000, 0), (50_000, 200)],
        growth: None,
    }];
    let measured = Measured::Bench { reps: 3, cpu: None, cores: 2, started: UNIX_EPOCH };
    let comparison = Comparison { measured, series, floor: None, limit: DEFAULT.time };
    let drawn = chart::render(&comparison);
    assert!(drawn.contains(">≤ 4 KiB</text>"), "{drawn}");
    assert!(drawn.contains("The floor program has not run here"));
    assert!(!drawn.contains("<line class=\"floor\""));
}
