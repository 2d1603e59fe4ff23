//! The page's matrix: a row per solution (those not as expected first), a column per case, each
//! cell the verdict in words, with the call's time and peak memory, or a group's counts.

use std::fmt::Write as _;

use super::Judged;
use crate::judging::engine::{CaseResult, Cut};
use crate::judging::report::{first_failure, took, Met};
use crate::judging::verdict::Verdict;
use crate::render::expect;
use crate::render::units::{self, markup};

/// The class a verdict's colour is drawn from.
pub fn class(verdict: Option<Verdict>) -> String {
    verdict.map_or("nj".to_string(), |v| format!("v-{}", v.code().to_lowercase()))
}

/// Each verdict's code and its words, as the legend gives them.
pub const WORDS: [(Verdict, &str); 7] = [
    (Verdict::Ac, "accepted"),
    (Verdict::Wa, "wrong answer"),
    (Verdict::Tle, "time limit exceeded"),
    (Verdict::Mle, "memory limit exceeded"),
    (Verdict::Ole, "output limit exceeded"),
    (Verdict::Re, "runtime error"),
    (Verdict::Ce, "compile error"),
];

/// A verdict's words.
pub fn words(verdict: Verdict) -> &'static str {
    WORDS.iter().find(|(v, _)| *v == verdict).map_or("", |(_, w)| w)
}

/// The order of the rows: not as expected first, then the strategies, then the rest, each in
/// the report's order.
fn order(judged: &Judged) -> Vec<usize> {
    let report = judged.report;
    let mut rows: Vec<usize> = (0..report.submissions.len()).collect();
    rows.sort_by_key(|&s| (report.met[s] != Met::No, !report.submissions[s].is_strategy(), s));
    rows
}

fn cell(out: &mut String, judged: &Judged, s: usize, c: usize) {
    let report = judged.report;
    let (card, case) = (&report.cards[s], &report.cases[c]);
    let Some(result) = &card.results[c] else {
        let stopped = matches!(card.cut, Some(Cut::FirstFailure)) && card.fault.is_none();
        match (stopped, &card.compiled) {
            (_, Some(Err(_))) => out.push_str("<td class=\"v-ce\">CE</td>"),
            (true, _) => out.push_str("<td class=\"nr\" title=\"not run: it stopped at its failure\">·</td>"),
            (false, _) => out.push_str("<td class=\"nj\">not judged</td>"),
        }
        return;
    };
    let verdict = result.verdict;
    let code = verdict.map_or("not judged", |v| v.code());
    let title = format!("{} on {}: {}", report.submissions[s].name, case.id, verdict.map_or("not judged", words));
    let _ = write!(out, "<td class=\"{}\" title=\"{}\">{code}", class(verdict), markup(&title));
    if let Some(said) = counts(result) {
        let _ = write!(out, "<small>{said}</small>");
    }
    if let Some(took) = took(&result.call) {
        let at = if took.cut { "≥" } else { "" };
        let _ = write!(out, "<small>{at}{}</small>", units::duration(took.time));
    }
    let shown = result.tally.is_none() || verdict != Some(Verdict::Ac);
    if let Some(kib) = result.call.result.as_ref().ok().and_then(|a| a.peak_kib).filter(|_| shown) {
        let _ = write!(out, "<small>{}</small>", units::kib(Some(kib)));
    }
    out.push_str("</td>");
}

/// A group's counts: `19,530/19,530`, or `35 WA, 19,495 AC; 3 not judged`.
fn counts(result: &CaseResult) -> Option<String> {
    let tally = result.tally.as_ref()?;
    let n = |k: usize| units::thousands(k as u64);
    let mut said = match result.verdicts().as_slice() {
        [(Verdict::Ac, passed)] => format!("{}/{}", n(*passed), n(tally.testcases)),
        all => all.iter().map(|(v, k)| format!("{} {}", n(*k), v.code())).collect::<Vec<_>>().join(", "),
    };
    if tally.judged < tally.testcases {
        let _ = write!(said, "; {} not judged", n(tally.testcases - tally.judged));
    }
    Some(said)
}

pub fn render(judged: &Judged) -> String {
    let report = judged.report;
    let mut out = String::from("<p class=\"legend\">");
    for (verdict, said) in WORDS {
        let _ = write!(out, "<span class=\"{}\">{}</span> {said} ", class(Some(verdict)), verdict.code());
    }
    out.push_str("<span class=\"nj\">not judged</span> no verdict: not every testcase was called ");
    out.push_str("<span class=\"nr\">·</span> not run: a wrong submission stops at its failure</p>\n");
    out.push_str("<div class=\"scroll\"><table class=\"matrix\"><thead><tr><th class=\"name\">solution</th>");
    out.push_str("<th>got<small>expected</small></th>");
    for case in &report.cases {
        let n = crate::render::matrix::n(case);
        let _ = write!(out, "<th class=\"case\"><span>{}</span><small>n {n}</small></th>", markup(&case.id));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for s in order(judged) {
        let submission = &report.submissions[s];
        let met = report.met[s];
        let got = first_failure(&report.cards[s]);
        let row = if met == Met::No { " class=\"missed\"" } else { "" };
        let name = markup(&submission.name);
        let _ = write!(out, "<tr{row}><th class=\"name\" scope=\"row\" title=\"{name}\">{name}</th>");
        let _ = write!(
            out,
            "<td class=\"{}\">{}<small>expected {}</small><small class=\"met-{}\">{}</small></td>",
            class(got),
            got.map_or("not judged", |v| v.code()),
            markup(&expect::expect(submission.expect)),
            met_class(met),
            met_words(met)
        );
        for c in 0..report.cases.len() {
            cell(&mut out, judged, s, c);
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table></div>\n");
    out
}

fn met_words(met: Met) -> &'static str {
    match met {
        Met::Yes => "as expected",
        Met::No => "NOT as expected",
        Met::NotCaught => "not caught by these cases",
    }
}

fn met_class(met: Met) -> &'static str {
    match met {
        Met::Yes => "yes",
        Met::No => "no",
        Met::NotCaught => "nc",
    }
}
