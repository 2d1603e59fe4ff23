//! What the compiler said, in the submission's own file. A submission is compiled with its
//! text first, from line 1, and LeetCode's items after it (see `compile`): `SourceMap::locate`
//! is the one map from a place rustc names in the generated source to the submission's file
//! (or to which of LeetCode's items it is). From it: each unit's errors rewritten so that no
//! line of the wrapping reaches the user, an error rustc puts in the wrapping placed at the
//! line of the file it concerns, and the standard library items a unit uses that are newer
//! than a Rust version (clippy's `incompatible_msrv`).

use std::ops::Range;
use std::path::{Path, PathBuf};

/// Which lines of a generated source belong to which unit, and which are LeetCode's items.
#[derive(Clone, Debug)]
pub struct SourceMap {
    pub(super) generated: PathBuf,
    pub(super) units: Vec<Lines>,
    /// Lines of LeetCode's items an error may point at: (line, the unit it is for, what it is).
    pub(super) wrapping: Vec<(usize, usize, Wrapping)>,
    /// A single unit's build names the unit's own file instead of the generated one.
    pub(super) remapped: bool,
}

/// Where one unit sits in the generated source.
#[derive(Clone, Debug)]
pub(super) struct Lines {
    /// The generated lines of the unit's own text: its line k is `text.start + k - 1`.
    pub text: Range<usize>,
    /// The lines that are the unit's: its text and the items around it (alone in its binary,
    /// every line).
    pub owned: Range<usize>,
    pub shown: String,
}

/// A place in a submission's own file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

/// Which of LeetCode's items, written around the submission, an error is at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wrapping {
    /// LeetCode's call of the method: the method is missing, or has another signature.
    Call,
    /// LeetCode's `pub struct Solution;`: the file declares one too.
    Solution,
    /// LeetCode's `fn main`: the file has one too.
    Main,
    /// Any other line LeetCode writes.
    Other,
}

/// Where in the generated source a place rustc names is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Spot {
    /// In the submission's own text.
    Text(Place),
    /// In LeetCode's items around it.
    Wrapping(Wrapping),
}

/// Why a unit did not compile: rustc's first error, placed in the submission's file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileError {
    /// `error[E0308]: mismatched types`.
    pub headline: String,
    /// The line of the file it is about: where rustc points, or, when that is in LeetCode's
    /// items, the first line of the file it labels (the file's own `fn main`, say).
    pub place: Option<Place>,
    /// Where rustc points when that is in LeetCode's items.
    pub wrapping: Option<Wrapping>,
    /// Every error rustc gave for the unit, with snippets and notes, each line of the file at
    /// its own number and no line of LeetCode's items; then which errors `rustc --explain`
    /// describes.
    pub diagnostic: String,
    /// What the errors most likely mean for a LeetCode file, each at the place of the file it
    /// is about. Read from the file's text by `judging::paste::explain`; empty until then.
    pub likely: Vec<(Likely, Place)>,
}

/// What a compile error most likely means for a LeetCode file, in words rustc does not use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Likely {
    /// It declares `struct Solution`, which LeetCode declares itself.
    DeclaresSolution,
    /// It has a `fn main`; LeetCode writes the `main` that calls the method.
    HasMain,
    /// It holds no code at all.
    Empty,
    /// It has code, but no `impl Solution`, where LeetCode looks for the method.
    NoImpl,
    /// Its `impl Solution` has no method `stone_game_iii` (one named `stoneGameIII`, say).
    NoMethod,
    /// The method takes or returns something LeetCode's call does not fit.
    Signature,
}

impl CompileError {
    /// An error of the build itself, owned by no line of any unit.
    pub fn whole(headline: String, diagnostic: String) -> CompileError {
        CompileError { headline, place: None, wrapping: None, diagnostic, likely: Vec::new() }
    }

    /// Whether rustc complains about LeetCode's call: the method is missing or its signature
    /// does not fit.
    pub fn signature(&self) -> bool {
        self.wrapping == Some(Wrapping::Call)
    }
}

/// A standard library item a unit uses that came in a later Rust than the one checked against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Newer {
    /// As the source writes it: `i32::midpoint`, `is_multiple_of`.
    pub item: String,
    /// The version it is stable since: `1.87.0`.
    pub since: String,
    pub place: Place,
}

impl SourceMap {
    /// The unit a place rustc names belongs to, and where it is: in the unit's own text (at
    /// the file's own line and column) or in LeetCode's items around it. None for a place in
    /// no unit's lines (another file, or in a batch the items every unit shares).
    pub fn locate(&self, file: &str, line: usize, column: u32) -> Option<(usize, Spot)> {
        let own = self.remapped && self.units.first().is_some_and(|unit| unit.shown == file);
        if Path::new(file) != self.generated && !own {
            return None;
        }
        if let Some(unit) = self.units.iter().position(|u| u.text.contains(&line)) {
            let lines = &self.units[unit];
            let line = (line + 1 - lines.text.start) as u32;
            return Some((unit, Spot::Text(Place { file: lines.shown.clone(), line, column })));
        }
        if let Some(&(_, unit, what)) = self.wrapping.iter().find(|(l, _, _)| *l == line) {
            return Some((unit, Spot::Wrapping(what)));
        }
        let unit = self.units.iter().position(|u| u.owned.contains(&line))?;
        Some((unit, Spot::Wrapping(Wrapping::Other)))
    }

    /// A panic's place, mapped to the submission's file when it lies in one.
    pub fn place(&self, file: &str, line: u32, column: u32) -> Place {
        match self.locate(file, line as usize, column) {
            Some((_, Spot::Text(place))) => place,
            _ => Place { file: file.to_string(), line, column },
        }
    }
}

pub(super) fn first_headline(stderr: &str) -> Option<String> {
    stderr.lines().find(|l| l.starts_with("error") && !l.starts_with("error: aborting")).map(str::to_string)
}

/// One diagnostic of rustc's human output: its first line, where it points, its whole text.
struct Block<'a> {
    headline: &'a str,
    at: Option<(&'a str, usize, u32)>,
    text: String,
}

/// rustc's closing lines, which name every error code of the whole build.
fn is_summary(line: &str) -> bool {
    line.starts_with("error: aborting")
        || line.starts_with("Some errors have detailed explanations")
        || line.starts_with("For more information about")
}

/// `  --> file:12:5` or `  ::: file:12:5`: the text before the path, and the place.
fn location(line: &str) -> Option<(&str, (&str, usize, u32))> {
    let trimmed = line.trim_start();
    let rest = trimmed.strip_prefix("--> ").or_else(|| trimmed.strip_prefix("::: "))?;
    let mut parts = rest.rsplitn(3, ':');
    let (column, number, file) = (parts.next()?, parts.next()?, parts.next()?);
    Some((&line[..line.len() - rest.len()], (file, number.parse().ok()?, column.parse().ok()?)))
}

/// rustc's output cut into its diagnostics.
fn blocks(stderr: &str) -> Vec<Block<'_>> {
    let mut blocks: Vec<Block> = Vec::new();
    for line in stderr.lines() {
        if is_summary(line) {
            continue;
        }
        let starts = line.starts_with("error") || line.starts_with("warning");
        if starts && !line.contains("warning emitted") && !line.contains("warnings emitted") {
            blocks.push(Block { headline: line, at: None, text: String::new() });
        }
        let Some(block) = blocks.last_mut() else { continue };
        block.text.push_str(line);
        block.text.push('\n');
        if let (None, Some((_, place))) = (block.at, location(line)) {
            block.at = Some(place);
        }
    }
    blocks
}

/// A line of a snippet, `12 |     code` or a suggestion's `12 + use std::cmp::min;`: its
/// number and where its gutter's mark is.
fn snippet_line(line: &str) -> Option<(usize, usize)> {
    let start = line.len() - line.trim_start().len();
    let digits = line[start..].find(|c: char| !c.is_ascii_digit())?;
    let number = line[start..start + digits].parse().ok()?;
    let after = &line[start + digits..];
    let spaces = after.len() - after.trim_start_matches(' ').len();
    let mark = start + digits + spaces;
    let follows = line[mark..].chars().nth(1).is_none_or(|c| c == ' ');
    (spaces >= 1 && line[mark..].starts_with(['|', '+', '-', '~']) && follows).then_some((number, mark))
}

/// `   |     ^^^ label`: a line of marks under a snippet line.
fn is_gutter(line: &str) -> bool {
    line.trim_start().starts_with('|')
}

/// A diagnostic's first part or one of its notes and helps, being rewritten.
#[derive(Default)]
struct Section {
    lines: Vec<String>,
    /// Snippet lines of the file kept, and of LeetCode's items left out.
    shown: usize,
    hidden: usize,
}

impl Section {
    /// Appends the section to `out`, unless it is a note or a help all of whose snippet lines
    /// are LeetCode's (a help to change LeetCode's call, say).
    fn end(&mut self, out: &mut Vec<String>) {
        let lines = std::mem::take(&mut self.lines);
        if out.is_empty() || !(self.shown == 0 && self.hidden > 0) {
            out.extend(lines);
        }
        (self.shown, self.hidden) = (0, 0);
    }
}

/// One diagnostic as the user sees it: the lines of `unit`'s own text at the file's numbers,
/// every line of LeetCode's items left out with the marks under it, and a help that proposes
/// a name only LeetCode's items define (rustc's "similar name" for `min`: `main`); and the
/// place in the file it is about (see `CompileError`).
fn for_user(block: &Block, map: &SourceMap, unit: usize) -> (String, Option<Place>) {
    let lines = &map.units[unit];
    let own_line = |n: usize| lines.text.contains(&n).then(|| n + 1 - lines.text.start);
    let primary = block.at.and_then(|(file, line, column)| match map.locate(file, line, column) {
        Some((u, Spot::Text(place))) if u == unit => Some(place),
        _ => None,
    });
    let mut labelled: Option<Place> = None;
    let mut out: Vec<String> = Vec::new();
    let mut section = Section::default();
    // Where the diagnostic's own place goes when rustc's is in LeetCode's items.
    let mut place_at: Option<(usize, String)> = None;
    // Under a line left out; a `...` waiting for the next line kept; the last line kept (the
    // file's number, where its gutter's mark is); a help being left out whole.
    let (mut skipping, mut elided, mut kept) = (false, false, None::<(usize, usize)>);
    let (mut similar_hidden, mut dropping) = (false, false);
    for (k, line) in block.text.lines().enumerate() {
        if k > 0 && (line.starts_with("note") || line.starts_with("help")) {
            section.end(&mut out);
            (skipping, elided, kept) = (false, false, None);
            dropping = similar_hidden && line.contains("similar name");
        }
        if dropping {
            continue;
        }
        if let Some((prefix, (file, number, column))) = location(line) {
            skipping = false;
            match map.locate(file, number, column) {
                Some((u, Spot::Text(place))) if u == unit => {
                    section.lines.push(format!("{prefix}{}:{}:{}", place.file, place.line, place.column));
                }
                _ if k == 1 => place_at = Some((section.lines.len(), prefix.to_string())),
                _ => {}
            }
            continue;
        }
        if let Some((number, mark)) = snippet_line(line) {
            match own_line(number) {
                Some(own) => {
                    if std::mem::take(&mut elided) {
                        section.lines.push("...".to_string());
                    }
                    let indent = &line[..line.len() - line.trim_start().len()];
                    section.lines.push(format!("{:<mark$}{}", format!("{indent}{own}"), &line[mark..]));
                    section.shown += 1;
                    (skipping, kept) = (false, Some((own, mark)));
                }
                None => {
                    section.hidden += 1;
                    (skipping, elided, kept) = (true, false, None);
                }
            }
            continue;
        }
        if line.trim() == "..." {
            elided = section.shown > 0;
            continue;
        }
        let bare = |l: &str| l.trim() == "|";
        if is_gutter(line) {
            if skipping {
                similar_hidden |= line.contains("similarly named");
                continue;
            }
            if let (None, Some((own, mark))) = (&labelled, kept) {
                if let Some(at) = line.find(['^', '-']).filter(|&at| at > mark + 1) {
                    let column = (at - mark - 1) as u32;
                    labelled = Some(Place { file: lines.shown.clone(), line: own as u32, column });
                }
            }
            if !(bare(line) && section.lines.last().is_some_and(|l| bare(l))) {
                section.lines.push(line.to_string());
            }
            continue;
        }
        // A note under marks whose bare gutter line was left out with a line of LeetCode's.
        let under_marks = section.lines.last().filter(|l| is_gutter(l) && !bare(l));
        if let (true, Some(marks)) = (line.trim_start().starts_with("= "), under_marks) {
            let gutter = format!("{}|", &marks[..marks.len() - marks.trim_start().len()]);
            section.lines.push(gutter);
        }
        skipping = false;
        section.lines.push(line.to_string());
    }
    section.end(&mut out);
    let place = primary.or(labelled);
    if let (Some((at, prefix)), Some(place)) = (place_at, &place) {
        out.insert(at, format!("{prefix}{}:{}:{}", place.file, place.line, place.column));
    }
    // A bare gutter line that closes a part (before a blank line, a note, a help or the end)
    // opens nothing once what it framed is left out.
    let closes = |next: Option<&String>| {
        next.is_none_or(|n| n.trim().is_empty() || n.starts_with("note") || n.starts_with("help"))
    };
    let mut text = String::new();
    for (k, line) in out.iter().enumerate() {
        let blank = line.trim().is_empty();
        if blank || (line.trim() == "|" && closes(out.get(k + 1))) {
            continue;
        }
        text.push_str(line);
        text.push('\n');
    }
    // Diagnostics are parted by one blank line, as rustc parts them.
    text.push('\n');
    (text, place)
}

/// rustc's closing lines for the errors shown: which codes `rustc --explain` describes.
fn summary(headlines: &[&str]) -> String {
    let mut codes: Vec<&str> = headlines.iter().filter_map(|h| h.strip_prefix("error[")?.split(']').next()).collect();
    codes.sort_unstable();
    codes.dedup();
    match codes.as_slice() {
        [] => String::new(),
        [code] => format!("For more information about this error, try `rustc --explain {code}`.\n"),
        [first, ..] => format!(
            "Some errors have detailed explanations: {}.\nFor more information about an error, try `rustc --explain {first}`.\n",
            codes.join(", ")
        ),
    }
}

/// Each unit's first error, in the order rustc reported them, with every error of that unit
/// in its diagnostic: (unit, error). A unit alone in its binary owns every error.
pub(super) fn diagnose(stderr: &str, map: &SourceMap) -> Vec<(usize, CompileError)> {
    let mut found: Vec<(usize, CompileError, Vec<&str>)> = Vec::new();
    let alone = map.units.len() == 1;
    for block in blocks(stderr).into_iter().filter(|b| b.headline.starts_with("error")) {
        let located = block.at.and_then(|(file, line, column)| map.locate(file, line, column));
        let (unit, wrapping) = match located {
            Some((unit, Spot::Wrapping(what))) => (unit, Some(what)),
            Some((unit, Spot::Text(_))) => (unit, None),
            None if alone => (0, block.at.map(|_| Wrapping::Other)),
            None => continue,
        };
        let (text, place) = for_user(&block, map, unit);
        match found.iter_mut().find(|(u, _, _)| *u == unit) {
            Some((_, error, headlines)) => {
                error.diagnostic.push_str(&text);
                headlines.push(block.headline);
            }
            None => {
                let headline = block.headline.to_string();
                let error = CompileError { headline, place, wrapping, diagnostic: text, likely: Vec::new() };
                found.push((unit, error, vec![block.headline]));
            }
        }
    }
    found
        .into_iter()
        .map(|(unit, mut error, headlines)| {
            error.diagnostic.push_str(&summary(&headlines));
            (unit, error)
        })
        .collect()
}

/// The errors of a build no unit owns, whole.
pub(super) fn unowned(stderr: &str) -> CompileError {
    let errors: Vec<Block> = blocks(stderr).into_iter().filter(|b| b.headline.starts_with("error")).collect();
    let mut text: String = errors.iter().map(|b| b.text.as_str()).collect();
    text.push_str(&summary(&errors.iter().map(|b| b.headline).collect::<Vec<_>>()));
    let headline = first_headline(stderr).unwrap_or_else(|| stderr.trim().lines().next().unwrap_or("").to_string());
    CompileError::whole(headline, if errors.is_empty() { stderr.to_string() } else { text })
}

/// The items clippy's `incompatible_msrv` names in a check of `sources` (the units' texts, in
/// the map's order), each read from its unit's own text where the lint points: by unit.
pub(super) fn newer(stderr: &str, map: &SourceMap, sources: &[&str]) -> Vec<Vec<Newer>> {
    let mut found = vec![Vec::new(); sources.len()];
    for block in blocks(stderr) {
        let Some(since) = block.headline.split("is stable since `").nth(1).and_then(|r| r.split('`').next()) else {
            continue;
        };
        let Some((file, number, column)) = block.at else { continue };
        let Some((unit, Spot::Text(place))) = map.locate(file, number, column) else { continue };
        let Some(source) = sources.get(unit) else { continue };
        let line = source.lines().nth(place.line as usize - 1).unwrap_or("");
        let item: String = line
            .chars()
            .skip(place.column as usize - 1)
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        found[unit].push(Newer { item, since: since.to_string(), place });
    }
    found
}

impl Newer {
    /// The compile error a unit gets for using it: LeetCode's compiler refuses it.
    pub fn refused(&self, leetcode: &str) -> CompileError {
        let since = self.since.strip_suffix(".0").unwrap_or(&self.since);
        let headline = format!(
            "error: `{}` is stable since Rust {since}, newer than LeetCode's Rust {leetcode}, which refuses it",
            self.item
        );
        let diagnostic = format!("{headline}\n --> {}:{}:{}\n", self.place.file, self.place.line, self.place.column);
        CompileError { headline, place: Some(self.place.clone()), wrapping: None, diagnostic, likely: Vec::new() }
    }
}
