//! The report as one self-contained HTML page (`--html`): the matrix of every solution against
//! every case, the comparison chart, every failure as the terminal shows it and each
//! strategy's source, each part under one line saying what it is. The style, the script and
//! the charts are inline: the page asks nothing of the network, and opens from `file://`.
//! Every verdict is written in words beside its colour; the page has a light and a dark scheme
//! and reflows from 360 px wide. Like every renderer it takes finished data: the judge's
//! report (the same the JSON is made from) and the comparison's series.

pub mod chart;
mod failures;
mod matrix;
mod sources;

use std::fmt::Write as _;
use std::path::Path;

use super::units::{self, markup};
use crate::cli::Invocation;
use crate::judging::report::Report;
use crate::judging::submissions::Submission;

pub use chart::{Comparison, Floor, Measured, Series};

const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

/// A judging, as the page shows it.
pub struct Judged<'a> {
    pub report: &'a Report,
    /// The command the page is of, which every rerun repeats.
    pub invocation: &'a Invocation,
    pub root: Option<&'a Path>,
    pub exit: u8,
}

/// Everything one page shows.
pub struct Page<'a> {
    /// What the page is of: `cargo judge`, `cargo judge bench`.
    pub command: String,
    /// When the run ended.
    pub made: std::time::SystemTime,
    pub judged: Option<Judged<'a>>,
    pub comparison: Comparison,
    /// The submissions whose sources are shown.
    pub sources: &'a [Submission],
    /// While `watch` rewrites the page: reload it every this many seconds.
    pub reload: Option<u32>,
}

/// A `file://` link to `path` (absolute), each byte a URL may not hold as it is written `%XX`.
pub fn link(path: &Path) -> String {
    let mut out = String::from("file://");
    for byte in path.to_string_lossy().bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => out.push(byte as char),
            other => {
                let _ = write!(out, "%{other:02X}");
            }
        }
    }
    out
}

/// A section: its heading, the one line that says what it shows, then `body`.
fn section(out: &mut String, id: &str, heading: &str, says: &str, body: &str) {
    let _ = writeln!(out, "<section id=\"{id}\"><h2>{}</h2><p class=\"says\">{}</p>", markup(heading), markup(says));
    out.push_str(body);
    out.push_str("</section>\n");
}

pub fn render(page: &Page) -> String {
    let mut out = String::with_capacity(256 << 10);
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str("<meta name=\"color-scheme\" content=\"light dark\">\n");
    if let Some(seconds) = page.reload {
        let _ = writeln!(out, "<meta http-equiv=\"refresh\" content=\"{seconds}\">");
    }
    let title = format!("Stone Game III: {}", page.command);
    let _ = writeln!(out, "<title>{}</title>\n<style>\n{STYLE}</style>\n</head><body>", markup(&title));
    let _ = writeln!(out, "<header><h1>{}</h1>", markup(&title));
    let mut about = vec![format!("made {}", units::utc(page.made))];
    if let Some(judged) = &page.judged {
        about.extend(failures::summary(judged));
    }
    if page.reload.is_some() {
        about.push("rewritten at every save while watch runs; this page reloads itself".to_string());
    }
    let _ = writeln!(out, "<p class=\"about\">{}</p>", markup(&about.join(" · ")));
    out.push_str("<nav>");
    let parts = [
        (page.judged.is_some(), "matrix", "matrix"),
        (true, "comparison", "comparison"),
        (page.judged.is_some(), "failures", "failures"),
        (!page.sources.is_empty(), "sources", "sources"),
    ];
    for (_, id, name) in parts.iter().filter(|(shown, ..)| *shown) {
        let _ = write!(out, "<a href=\"#{id}\">{name}</a> ");
    }
    out.push_str("</nav></header>\n<main>\n");
    if let Some(judged) = &page.judged {
        section(
            &mut out,
            "matrix",
            "Matrix",
            "Every solution against every case: the verdict in words and colour, the call's CPU time and peak memory; a group of testcases is one cell with its counts. Solutions that did not get their expected verdict come first.",
            &matrix::render(judged),
        );
    }
    section(&mut out, "comparison", "Comparison", &page.comparison.says(), &chart::render(&page.comparison));
    if let Some(judged) = &page.judged {
        section(
            &mut out,
            "failures",
            "Failures",
            "Every failure as the terminal shows it: the input, the expected and the returned answer, why, the oracle's leads and one optimal line of play, and the command that reruns it.",
            &failures::render(judged),
        );
    }
    if !page.sources.is_empty() {
        section(
            &mut out,
            "sources",
            "Sources",
            "Each solution's file, its idea in the comment at its top; choose two to read them side by side.",
            &sources::render(page.sources),
        );
    }
    let _ = write!(out, "</main>\n<script>\n{SCRIPT}</script>\n</body></html>\n");
    out
}

#[cfg(test)]
pub(crate) mod tests;
