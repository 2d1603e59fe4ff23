//! What the judge found in each file, placed where an editor shows it (`judge diagnostics`):
//! rustc's errors at the file's own lines, the standard library items newer than LeetCode's
//! Rust where the file uses them, and a failing verdict at the method's name. Made from a
//! finished report; `render::cargo_json` words them.

use super::engine::{CaseResult, Fault};
use super::mutate::tokens::{byte_offset, tokenize, Kind};
use super::report::{first_failure, Met, Report};
use super::submissions::{Expect, SubmissionError};
use super::verdict::Verdict;
use crate::exec::diagnose::{CompileError, Likely, Newer};
use crate::exec::outcome::Ending;
use crate::problem::METHOD;

/// A stretch of one line of a file: 1-based, columns in characters, the end exclusive, as
/// rustc's spans are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    pub line: u32,
    pub column: u32,
    pub end_column: u32,
    pub byte_start: usize,
    pub byte_end: usize,
    /// The line's text.
    pub text: String,
}

/// One of rustc's errors, in rustc's words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RustcError {
    /// `E0308`, when rustc gives one.
    pub code: Option<String>,
    /// `mismatched types`.
    pub message: String,
    /// What rustc writes under the place it points at: ``expected `u8`, found `usize` ``.
    pub label: Option<String>,
    /// Its notes and help, in order: (`note` or `help`, the text).
    pub notes: Vec<(String, String)>,
    /// The error as rustc printed it.
    pub rendered: String,
    /// It points into LeetCode's wrapping (its call of the method), not into the file, and is
    /// shown at the method instead.
    pub in_wrapping: bool,
    /// What it most likely means for a LeetCode file (see `CompileError::likely`).
    pub likely: Vec<Likely>,
}

pub enum Found<'a> {
    Rustc(RustcError),
    Newer(&'a Newer),
    /// The first failing verdict, on `case`; `panicked` is where a panic was raised, when
    /// that is in the file.
    Verdict {
        case: usize,
        result: &'a CaseResult,
        panicked: Option<Span>,
    },
    /// A wrong submission whose first failure is not its tag's verdict: `got`, or AC on all
    /// `ran` cases it ran.
    Tag {
        expect: Expect,
        got: Verdict,
        ran: usize,
    },
    /// The judge could not judge it: not a verdict.
    Fault(&'a Fault),
    /// It failed nothing it ran, but was not judged on every testcase (`ran` of `of`): no
    /// verdict, and never a pass.
    NotJudged {
        ran: usize,
        of: usize,
    },
    /// The file could not be taken as a submission (a bad tag, unreadable).
    Refused(&'a SubmissionError),
}

pub struct Finding<'a> {
    /// The file as the workspace shows it: `solutions/my_try.rs`.
    pub file: String,
    /// Which submission of the report it is about, when the file is one.
    pub submission: Option<usize>,
    pub span: Span,
    pub found: Found<'a>,
}

impl Finding<'_> {
    /// An error, which stops the file getting its verdict; the rest are warnings.
    pub fn is_error(&self) -> bool {
        !matches!(self.found, Found::Newer(_) | Found::Tag { .. })
    }
}

/// Everything the report says about each file, in the order of its submissions; `newer[s]`
/// are submission `s`'s items newer than LeetCode's Rust.
pub fn findings<'a>(report: &'a Report) -> Vec<Finding<'a>> {
    let newer = &report.newer;
    let mut found = Vec::new();
    for (s, (submission, card)) in report.submissions.iter().zip(&report.cards).enumerate() {
        let source = submission.source.as_str();
        let method = method_span(source);
        let mut add = |span: Span, what: Found<'a>| {
            found.push(Finding { file: submission.shown.clone(), submission: Some(s), span, found: what })
        };
        if let Some(Err(error)) = &card.compiled {
            for (place, error) in rustc_errors(error, &submission.shown, source) {
                let span =
                    place.map_or_else(|| method.clone(), |(line, column, width)| span(source, line, column, width));
                add(span, Found::Rustc(error));
            }
        }
        for item in newer.get(s).into_iter().flatten() {
            let width = item.item.chars().count().max(1) as u32;
            add(span(source, item.place.line, item.place.column, width), Found::Newer(item));
        }
        let failed = card.results.iter().enumerate().find_map(|(case, result)| {
            let result = result.as_ref()?;
            (result.verdict.is_some_and(|v| v != Verdict::Ac)).then_some((case, result))
        });
        if let Some((case, result)) = failed {
            let panicked = match &result.call.result {
                Err(Ending::Panicked { place, .. }) if place.file == submission.shown => {
                    Some(span(source, place.line, place.column, 1))
                }
                _ => None,
            };
            add(method.clone(), Found::Verdict { case, result, panicked });
        }
        let ran = card.results.iter().flatten().map(CaseResult::judged).sum();
        match (&card.fault, first_failure(card)) {
            (Some(fault), _) => add(method.clone(), Found::Fault(fault)),
            (None, None) if matches!(card.compiled, Some(Ok(()))) => {
                add(method.clone(), Found::NotJudged { ran, of: report.testcases() })
            }
            (None, Some(got)) if matches!(submission.expect, Expect::Verdict(_)) && report.met[s] == Met::No => {
                let tag = source.lines().next().unwrap_or("").chars().count() as u32;
                add(span(source, 1, 1, tag), Found::Tag { expect: submission.expect, got, ran });
            }
            _ => {}
        }
    }
    for refused in &report.bad_submissions {
        let (file, span) = match refused {
            SubmissionError::BadTag { file, found } => (file, span(found, 1, 1, found.chars().count() as u32)),
            SubmissionError::Unreadable { file, .. } | SubmissionError::NotAFile { file } => (file, span("", 1, 1, 0)),
            // The file's text is not at hand (it is not UTF-8): the place alone.
            SubmissionError::NotUtf8 { file, line, column, .. } => {
                let (line, column) = (*line as u32, *column as u32);
                let text = String::new();
                (file, Span { line, column, end_column: column + 1, byte_start: 0, byte_end: 0, text })
            }
            _ => continue,
        };
        found.push(Finding { file: file.clone(), submission: None, span, found: Found::Refused(refused) });
    }
    found
}

/// Where a place rustc names lies in the submission's own text: the compiler's messages are
/// already at the file's own lines (`exec::diagnose` rewrites rustc's spans; the file starts at
/// line 1 of what is compiled), so a place is the file's unless it lies past its last line,
/// where LeetCode's items are.
pub fn wrapped_to_own(source: &str, line: u32, column: u32) -> Option<(u32, u32)> {
    let lines = source.lines().count().max(1) as u32;
    (1..=lines).contains(&line).then_some((line, column))
}

/// The method's name where the file defines it (`fn stone_game_iii`), else the file's start.
pub fn method_span(source: &str) -> Span {
    let tokens = tokenize(source);
    let word = |i: usize| tokens.get(i).filter(|t| t.kind == Kind::Ident).map(|t| &source[t.start..t.end]);
    let named = (0..tokens.len()).find(|&i| word(i) == Some("fn") && word(i + 1) == Some(METHOD));
    let Some(token) = named.map(|i| tokens[i + 1]) else { return span(source, 1, 1, 0) };
    let before = &source[..token.start];
    let line = before.matches('\n').count() as u32 + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() as u32 + 1;
    span(source, line, column, METHOD.len() as u32)
}

/// `width` characters of `source` from `line` and `column`, kept within the line.
fn span(source: &str, line: u32, column: u32, width: u32) -> Span {
    let text = source.lines().nth(line.max(1) as usize - 1).unwrap_or("").to_string();
    let length = text.chars().count() as u32;
    let column = column.clamp(1, length + 1);
    let end_column = (column + width).min(length + 1).max(column);
    let line = line.clamp(1, source.lines().count().max(1) as u32);
    let start = byte_offset(source, line as usize, column as usize);
    let end = byte_offset(source, line as usize, end_column as usize);
    Span { line, column, end_column, byte_start: start, byte_end: end, text }
}

/// A place in a file and how many characters from it: (line, column, width).
type At = (u32, u32, u32);

/// Every error of a failed compile, each with its place in the file when it has one there.
fn rustc_errors(error: &CompileError, shown: &str, source: &str) -> Vec<(Option<At>, RustcError)> {
    let mut errors: Vec<(Option<At>, RustcError)> = blocks(&error.diagnostic)
        .into_iter()
        .map(|block| {
            let own = block.at.as_ref().filter(|(file, ..)| file == shown);
            let place = own.and_then(|&(_, line, column)| wrapped_to_own(source, line, column));
            let in_wrapping = block.at.is_some() && place.is_none();
            let (code, message) = headline(&block.headline);
            let width = block.mark.as_ref().map_or(1, |(carets, _)| *carets);
            let error = RustcError {
                code,
                message,
                label: block.mark.and_then(|(_, label)| label),
                notes: block.notes,
                rendered: block.text,
                in_wrapping,
                likely: Vec::new(),
            };
            (place.map(|(line, column)| (line, column, width)), error)
        })
        .collect();
    if errors.is_empty() {
        // An error of the build itself (the compile limit, say), with nothing to point at.
        let (code, message) = headline(&error.headline);
        let place = error.place.as_ref().map(|p| (p.line, p.column, 1));
        let rendered = if error.diagnostic.is_empty() { error.headline.clone() } else { error.diagnostic.clone() };
        let whole = RustcError {
            code,
            message,
            label: None,
            notes: Vec::new(),
            rendered,
            in_wrapping: false,
            likely: Vec::new(),
        };
        errors.push((place, whole));
    }
    // Each meaning goes with the error at its line; else with an error that has no place in
    // the file (one in LeetCode's call), which it then places; else with the first.
    for (likely, at) in &error.likely {
        let word = source.lines().nth(at.line as usize - 1).unwrap_or("").chars().skip(at.column as usize - 1);
        let width = word.take_while(|c| c.is_alphanumeric() || *c == '_').count().max(1) as u32;
        let k = (errors.iter().position(|(place, _)| place.is_some_and(|(line, ..)| line == at.line)))
            .or_else(|| errors.iter().position(|(place, _)| place.is_none()))
            .unwrap_or(0);
        let (place, error) = &mut errors[k];
        place.get_or_insert((at.line, at.column, width));
        error.likely.push(*likely);
    }
    errors
}

/// `error[E0308]: mismatched types` as its code and its message.
fn headline(line: &str) -> (Option<String>, String) {
    let rest = line.strip_prefix("error").unwrap_or(line);
    let (code, rest) = match rest.strip_prefix('[').and_then(|r| r.split_once(']')) {
        Some((code, rest)) => (Some(code.to_string()), rest),
        None => (None, rest),
    };
    (code, rest.strip_prefix(':').unwrap_or(rest).trim().to_string())
}

/// One error of rustc's human output.
struct Block {
    headline: String,
    /// Where it points first: (file, line, column), in the file as compiled.
    at: Option<(String, u32, u32)>,
    /// The carets under that place: how many, and the label after them.
    mark: Option<(u32, Option<String>)>,
    notes: Vec<(String, String)>,
    text: String,
}

/// rustc's human output cut into its errors, with where each points and its notes.
fn blocks(diagnostic: &str) -> Vec<Block> {
    let mut blocks: Vec<Block> = Vec::new();
    // Inside a `note:` or `help:` of its own after the error's snippet, and inside a `= note:`.
    let (mut in_child, mut in_note) = (false, false);
    for line in diagnostic.lines() {
        let summary = ["error: aborting", "Some errors have detailed", "For more information about"];
        if summary.iter().any(|s| line.starts_with(s)) {
            continue;
        }
        if line.starts_with("error") {
            let text = String::new();
            blocks.push(Block { headline: line.to_string(), at: None, mark: None, notes: Vec::new(), text });
            (in_child, in_note) = (false, false);
        }
        let Some(block) = blocks.last_mut() else { continue };
        block.text.push_str(line);
        block.text.push('\n');
        let trimmed = line.trim_start();
        if let Some((level, text)) = ["note: ", "help: "].iter().find_map(|p| Some((&p[..4], line.strip_prefix(p)?))) {
            block.notes.push((level.to_string(), text.to_string()));
            (in_child, in_note) = (true, false);
            continue;
        }
        if let Some((level, text)) =
            ["= note: ", "= help: "].iter().find_map(|p| Some((&p[2..6], trimmed.strip_prefix(p)?)))
        {
            block.notes.push((level.to_string(), text.to_string()));
            in_note = true;
            continue;
        }
        let gutter =
            trimmed.starts_with('|') || trimmed.split_once(" |").is_some_and(|(n, _)| n.parse::<u32>().is_ok());
        if in_note && !gutter && !trimmed.is_empty() && !trimmed.starts_with("-->") {
            if let Some((_, note)) = block.notes.last_mut() {
                note.push('\n');
                note.push_str(trimmed);
            }
            continue;
        }
        in_note = false;
        if block.at.is_none() {
            if let Some(place) = trimmed.strip_prefix("--> ") {
                let mut parts = place.rsplitn(3, ':');
                if let (Some(column), Some(number), Some(file)) = (parts.next(), parts.next(), parts.next()) {
                    if let (Ok(number), Ok(column)) = (number.parse(), column.parse()) {
                        block.at = Some((file.to_string(), number, column));
                    }
                }
            }
        } else if block.mark.is_none() && !in_child && trimmed.starts_with('|') && trimmed.contains('^') {
            let after = &trimmed[trimmed.find('^').unwrap_or(0)..];
            let carets = after.chars().take_while(|&c| c == '^').count();
            let label = after[carets..].trim();
            block.mark = Some((carets as u32, (!label.is_empty()).then(|| label.to_string())));
        }
    }
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;

    /// rustc's words for three errors of one file, at the file's own lines as `exec::diagnose`
    /// gives them, and one past its last line, in LeetCode's items.
    const SAID: &str = "error: expected `;`, found `}`
 --> solutions/t.rs:6:22
  |
6 |             let x = i
  |                      ^ help: add `;` here
7 |         }
  |         - unexpected token

error[E0308]: mismatched types
 --> solutions/t.rs:3:21
  |
3 |         let n: u8 = stone_value.len();
  |                --   ^^^^^^^^^^^^^^^^^ expected `u8`, found `usize`
  |                |
  |                expected due to this
  |
help: you can convert a `usize` to a `u8` and panic if the converted value doesn't fit
  |
3 |         let n: u8 = stone_value.len().try_into().unwrap();
  |                                      ++++++++++++++++++++

error[E0428]: the name `Solution` is defined multiple times
 --> solutions/t.rs:1:1
  |
1 | struct Solution;
  | ^^^^^^^^^^^^^^^^ `Solution` redefined here
  |
  = note: `Solution` must be defined only once in the type namespace of this module

error[E0308]: mismatched types
  --> solutions/t.rs:12:42
   |
12 | |v| -> String { Solution::stone_game_iii(v) },
   |                 ------------------------ ^ expected `Vec<i64>`, found `Vec<i32>`
   |
   = note: expected struct `Vec<i64>`
              found struct `Vec<i32>`

Some errors have detailed explanations: E0308, E0428.
For more information about an error, try `rustc --explain E0308`.
";

    const FILE: &str = "struct Solution;\nimpl Solution {\n    pub fn stone_game_iii(stone_value: Vec<i64>) -> String {\n        let n: u8 = stone_value.len();\n        for i in 0..3 {\n            let x = i\n        }\n        String::new()\n    }\n}\n";

    fn error(diagnostic: &str) -> CompileError {
        CompileError::whole(String::new(), diagnostic.to_string())
    }

    #[test]
    fn each_of_rustcs_errors_lands_on_the_files_own_line() {
        let errors = rustc_errors(&error(SAID), "solutions/t.rs", FILE);
        let places: Vec<Option<At>> = errors.iter().map(|(p, _)| *p).collect();
        // LeetCode's call (line 12, past the file's ten lines) is no place in the file.
        assert_eq!(places, [Some((6, 22, 1)), Some((3, 21, 17)), Some((1, 1, 16)), None]);
        let (_, mismatch) = &errors[1];
        assert_eq!((mismatch.code.as_deref(), mismatch.message.as_str()), (Some("E0308"), "mismatched types"));
        assert_eq!(mismatch.label.as_deref(), Some("expected `u8`, found `usize`"));
        assert_eq!(mismatch.notes[0].0, "help");
        assert_eq!(errors[0].1.label.as_deref(), Some("help: add `;` here"));
        assert_eq!(
            errors[2].1.notes,
            [(
                "note".to_string(),
                "`Solution` must be defined only once in the type namespace of this module".to_string()
            )]
        );
        let (_, call) = &errors[3];
        assert!(call.in_wrapping);
        assert_eq!(call.notes[0].1, "expected struct `Vec<i64>`\nfound struct `Vec<i32>`");
        assert!(!errors.iter().any(|(_, e)| e.rendered.contains("For more information")));
    }

    #[test]
    fn a_build_error_without_a_place_is_kept_whole() {
        let limit = CompileError::whole("compile time limit: rustc ran past 20s and was killed".into(), String::new());
        let errors = rustc_errors(&limit, "solutions/t.rs", FILE);
        assert_eq!(errors.len(), 1);
        assert_eq!(
            (errors[0].0, errors[0].1.message.as_str()),
            (None, "compile time limit: rustc ran past 20s and was killed")
        );
    }

    #[test]
    fn the_method_is_found_by_its_definition_not_by_a_mention() {
        let source = "// fn stone_game_iii is below\n/* fn stone_game_iii */\nimpl Solution {\n  pub fn  stone_game_iii(v: Vec<i32>) -> String { todo!() }\n}\n";
        let span = method_span(source);
        assert_eq!((span.line, span.column, span.end_column), (4, 11, 25));
        assert_eq!(&source[span.byte_start..span.byte_end], "stone_game_iii");
        assert_eq!(method_span("").line, 1);
    }

    #[test]
    fn places_in_the_wrapping_are_no_place_in_the_file() {
        let source = "impl Solution {}\n\n";
        assert_eq!(wrapped_to_own(source, 1, 5), Some((1, 5)));
        assert_eq!(wrapped_to_own(source, 2, 1), Some((2, 1)));
        assert_eq!(wrapped_to_own(source, 3, 1), None, "LeetCode's items after the file");
        assert_eq!(wrapped_to_own(source, 0, 1), None);
    }
}
