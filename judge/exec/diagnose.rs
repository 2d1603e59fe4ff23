//! What the compiler said, placed in the submission's own file: the map from the generated
//! source's lines back to each unit's, rustc's first error for each unit with its whole
//! diagnostic, and the standard library items a unit uses that are newer than a Rust version
//! (clippy's `incompatible_msrv`).

use std::path::{Path, PathBuf};

/// Which lines of a generated source belong to which unit.
#[derive(Clone, Debug)]
pub struct SourceMap {
    pub(super) generated: PathBuf,
    /// (first generated line of the unit's text, its line count, shown path).
    pub(super) units: Vec<(usize, usize, String)>,
    /// The line of `main` that names each unit's function.
    pub(super) entries: Vec<usize>,
    /// A single unit's build names the unit's own file instead of the generated one.
    pub(super) remapped: bool,
}

/// A place in a submission's own file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

/// Why a unit did not compile: rustc's first error, placed in the submission's file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileError {
    /// `error[E0308]: mismatched types`.
    pub headline: String,
    /// Where, when the error is in the submission's own text.
    pub place: Option<Place>,
    /// The method is missing or has another signature: rustc complains about the driver's call.
    pub signature: bool,
    /// rustc's whole diagnostic for the unit: every error, with its snippets and notes.
    pub diagnostic: String,
}

impl CompileError {
    /// An error of the build itself, owned by no line of any unit.
    pub fn whole(headline: String, diagnostic: String) -> CompileError {
        CompileError { headline, place: None, signature: false, diagnostic }
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
    /// The unit and place in its file of a line of the generated source.
    fn locate(&self, file: &str, line: usize, column: u32) -> Option<(usize, Option<Place>)> {
        let own = self.remapped && self.units.first().is_some_and(|(_, _, shown)| shown == file);
        if Path::new(file) != self.generated && !own {
            return None;
        }
        if let Some(unit) = self.entries.iter().position(|&l| l == line) {
            return Some((unit, None));
        }
        let unit = self.units.iter().position(|&(first, count, _)| (first..first + count).contains(&line))?;
        let (first, _, shown) = &self.units[unit];
        // The first line carries `pub struct Solution; ` before the file's own text.
        let column = if line == *first { column.saturating_sub(21).max(1) } else { column };
        Some((unit, Some(Place { file: shown.clone(), line: (line + 1 - first) as u32, column })))
    }

    /// A panic's place, mapped to the submission's file when it lies in one.
    pub fn place(&self, file: &str, line: u32, column: u32) -> Place {
        match self.locate(file, line as usize, column) {
            Some((_, Some(place))) => place,
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

/// rustc's output cut into its diagnostics.
fn blocks(stderr: &str) -> Vec<Block<'_>> {
    let mut blocks: Vec<Block> = Vec::new();
    for line in stderr.lines() {
        let starts = line.starts_with("error") || line.starts_with("warning");
        if starts
            && !line.starts_with("error: aborting")
            && !line.contains("warning emitted")
            && !line.contains("warnings emitted")
        {
            blocks.push(Block { headline: line, at: None, text: String::new() });
        }
        let Some(block) = blocks.last_mut() else { continue };
        if line.starts_with("error: aborting") {
            continue;
        }
        block.text.push_str(line);
        block.text.push('\n');
        if let (None, Some(place)) = (block.at, line.trim_start().strip_prefix("--> ")) {
            let mut parts = place.rsplitn(3, ':');
            if let (Some(column), Some(number), Some(file)) = (parts.next(), parts.next(), parts.next()) {
                if let (Ok(number), Ok(column)) = (number.parse(), column.parse()) {
                    block.at = Some((file, number, column));
                }
            }
        }
    }
    blocks
}

/// Each unit's first error, in the order rustc reported them, with every error of that unit
/// as its diagnostic: (unit, error).
pub(super) fn diagnose(stderr: &str, map: &SourceMap) -> Vec<(usize, CompileError)> {
    let mut found: Vec<(usize, CompileError)> = Vec::new();
    for block in blocks(stderr).into_iter().filter(|b| b.headline.starts_with("error")) {
        let Some((file, number, column)) = block.at else { continue };
        let Some((unit, place)) = map.locate(file, number, column) else { continue };
        match found.iter_mut().find(|(u, _)| *u == unit) {
            Some((_, error)) => error.diagnostic.push_str(&block.text),
            None => {
                let signature = place.is_none();
                let error =
                    CompileError { headline: block.headline.to_string(), place, signature, diagnostic: block.text };
                found.push((unit, error));
            }
        }
    }
    found
}

/// The errors of a build no unit owns, whole.
pub(super) fn unowned(stderr: &str) -> CompileError {
    let text: String = blocks(stderr).into_iter().filter(|b| b.headline.starts_with("error")).map(|b| b.text).collect();
    let headline = first_headline(stderr).unwrap_or_else(|| stderr.trim().lines().next().unwrap_or("").to_string());
    CompileError::whole(headline, if text.is_empty() { stderr.to_string() } else { text })
}

/// The items clippy's `incompatible_msrv` names in one unit's check, each read from the
/// unit's own text where the lint points.
pub(super) fn newer(stderr: &str, map: &SourceMap, source: &str) -> Vec<Newer> {
    let mut found = Vec::new();
    for block in blocks(stderr) {
        let Some(since) = block.headline.split("is stable since `").nth(1).and_then(|r| r.split('`').next()) else {
            continue;
        };
        let Some((file, number, column)) = block.at else { continue };
        let Some((_, Some(place))) = map.locate(file, number, column) else { continue };
        let line = source.lines().nth(place.line as usize - 1).unwrap_or("");
        let item: String = line
            .chars()
            .skip(place.column as usize - 1)
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        found.push(Newer { item, since: since.to_string(), place });
    }
    found
}
