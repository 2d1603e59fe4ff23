//! What the compiler said, placed in the submission's own file: the map from the generated
//! source's lines back to each unit's, and rustc's first error for each unit.

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

/// Each unit's first error, in the order rustc reported them: (unit, error).
pub(super) fn diagnose(stderr: &str, map: &SourceMap) -> Vec<(usize, CompileError)> {
    let mut found: Vec<(usize, CompileError)> = Vec::new();
    let mut headline: Option<&str> = None;
    for line in stderr.lines() {
        if line.starts_with("error") && !line.starts_with("error: aborting") {
            headline = Some(line);
            continue;
        }
        let (Some(head), Some(place)) = (headline, line.trim_start().strip_prefix("--> ")) else { continue };
        headline = None;
        let mut parts = place.rsplitn(3, ':');
        let (Some(column), Some(number), Some(file)) = (parts.next(), parts.next(), parts.next()) else { continue };
        let (Ok(number), Ok(column)) = (number.parse(), column.parse()) else { continue };
        if let Some((unit, place)) = map.locate(file, number, column) {
            if !found.iter().any(|(u, _)| *u == unit) {
                let signature = place.is_none();
                found.push((unit, CompileError { headline: head.to_string(), place, signature }));
            }
        }
    }
    found
}
