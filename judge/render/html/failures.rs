//! The page's failures: each block as the terminal shows it, with a button that copies its
//! rerun command; those not as expected first, the wrong submissions' expected failures after
//! them, folded; then every solution that was not judged whole, said as such.

use std::fmt::Write as _;

use super::matrix::class;
use super::Judged;
use crate::judging::engine::Fault;
use crate::judging::report::{first_failure, Met};
use crate::judging::verdict::Verdict;
use crate::render::call;
use crate::render::judge_text::{self, Block};
use crate::render::matrix::Layout;
use crate::render::style::Style;
use crate::render::units::{self, markup};

/// The columns the blocks are written for, as a terminal would show them.
const WIDTH: usize = 80;

/// The header's words on the run: how many met their expectations, the wall time, the status.
pub fn summary(judged: &Judged) -> Vec<String> {
    let report = judged.report;
    let missed = report.met.iter().filter(|m| **m == Met::No).count();
    let total = report.submissions.len();
    vec![
        format!("{}/{total} solutions got their expected verdicts", total - missed),
        format!("wall {}", units::duration(report.wall)),
        format!("exit {}", judged.exit),
    ]
}

/// A block: its first line the heading, its verdict coloured; its lines up to the rerun as
/// the terminal shows them; the rerun command with a button that copies it.
fn block(out: &mut String, block: &Block) {
    let (heading, body) = block.text.split_once('\n').unwrap_or((&block.text, ""));
    let body = body.find("  rerun     ").map_or(body, |at| &body[..at]);
    let heading = heading.strip_prefix(block.verdict.code()).unwrap_or(heading);
    let command = markup(&block.rerun.shell());
    let _ = write!(
        out,
        "<article class=\"failure\"><h3><span class=\"{}\">{}</span>{}</h3><pre>{}</pre>",
        class(Some(block.verdict)),
        block.verdict.code(),
        markup(heading),
        markup(body.trim_end())
    );
    let _ = writeln!(
        out,
        "<p class=\"rerun\">rerun <code>{command}</code> <button type=\"button\" class=\"copy\" data-copy=\"{command}\">copy</button></p></article>"
    );
}

/// One solution's blocks: as many as the terminal shows, the others folded after them.
fn solution_blocks(out: &mut String, blocks: &[&Block], judged: &Judged) {
    let shown = blocks.len().min(judge_text::FAILURES_SHOWN);
    for b in &blocks[..shown] {
        block(out, b);
    }
    if shown < blocks.len() {
        let name = &judged.report.submissions[blocks[0].submission].name;
        let more = units::count(blocks.len() - shown, "more failure");
        let _ = writeln!(out, "<details><summary>{} of {}</summary>", markup(&more), markup(name));
        for b in &blocks[shown..] {
            block(out, b);
        }
        out.push_str("</details>\n");
    }
}

/// Why a solution was not judged whole, where it was not.
fn not_judged(judged: &Judged, s: usize) -> Option<String> {
    let report = judged.report;
    let (card, figures) = (&report.cards[s], &report.figures[s]);
    let whole = first_failure(card).is_some();
    if whole && figures.not_judged == 0 && card.fault.is_none() {
        return None;
    }
    let why = match &card.fault {
        Some(Fault::Build(e) | Fault::Spawn(e)) => crate::render::error::trouble(e, judged.root),
        Some(Fault::Call(result)) => call::reason(&result.call, Verdict::Re, &report.limits).unwrap_or_default(),
        None if figures.not_judged > 0 => {
            format!("{} not judged", units::count(figures.not_judged, "testcase"))
        }
        None => "not every testcase was judged".to_string(),
    };
    Some(format!("{}: not judged; {why}", report.submissions[s].name))
}

pub fn render(judged: &Judged) -> String {
    let report = judged.report;
    let options = judge_text::Options {
        layout: Layout { style: Style { color: false }, width: WIDTH, full: false },
        verbose: false,
        all_failures: true,
        invocation: judged.invocation,
        root: judged.root,
    };
    let blocks = judge_text::blocks(report, &options);
    let (missed, expected): (Vec<&Block>, Vec<&Block>) =
        blocks.iter().partition(|b| report.met[b.submission] != Met::Yes);
    let mut out = String::new();
    if missed.is_empty() {
        out.push_str("<p class=\"none\">No failure that was not expected.</p>\n");
    }
    for group in missed.chunk_by(|a, b| a.submission == b.submission) {
        solution_blocks(&mut out, group, judged);
    }
    if !expected.is_empty() {
        let _ = writeln!(
            out,
            "<details><summary>{} of the wrong submissions, each the verdict it is tagged with</summary>",
            units::count(expected.len(), "expected failure")
        );
        for b in &expected {
            block(&mut out, b);
        }
        out.push_str("</details>\n");
    }
    let unjudged: Vec<String> = (0..report.submissions.len()).filter_map(|s| not_judged(judged, s)).collect();
    if !unjudged.is_empty() {
        out.push_str("<h3>Not judged</h3><ul class=\"unjudged\">");
        for line in unjudged {
            let _ = write!(out, "<li><span class=\"nj\">not judged</span> {}</li>", markup(&line));
        }
        out.push_str("</ul>\n");
    }
    out
}
