//! What a compile error most likely means for a LeetCode file, in plain words and at the place
//! of the file it is about: a `fn main` or a `struct Solution` of its own (LeetCode writes
//! both), a method LeetCode's call does not find, an empty file, no `impl Solution`, a
//! signature the call does not fit. The judge, `watch`, the editor and `paste` all say it so.

use super::mutate::tokens::{tokenize, Kind};
use super::submissions::Submission;
use crate::exec::diagnose::{CompileError, Likely, Place};
use crate::problem::METHOD;

/// `error` with what it most likely means for a LeetCode file (`CompileError::likely`), each
/// at the place of `submission`'s file it is about: the judge, `watch`, the editor and `paste`
/// all say it so.
pub fn explain(mut error: CompileError, submission: &Submission) -> CompileError {
    let source = submission.source.as_str();
    let places = Places::new(source);
    let at = |(line, column): (u32, u32)| Place { file: submission.shown.clone(), line, column };
    error.likely = likely(&error, &places).into_iter().map(|l| (l, at(places.of(l)))).collect();
    error
}

/// Reads rustc's error codes for what they mean here: each error of the diagnostic that
/// clashes with LeetCode's items, then what the first one says of LeetCode's call.
fn likely(error: &CompileError, places: &Places) -> Vec<Likely> {
    let mut found = Vec::new();
    let headlines =
        std::iter::once(error.headline.as_str()).chain(error.diagnostic.lines().filter(|l| l.starts_with("error")));
    for headline in headlines.filter(|h| h.starts_with("error[E0428]")) {
        let clash = match () {
            _ if headline.contains("`Solution`") => Likely::DeclaresSolution,
            _ if headline.contains("`main`") => Likely::HasMain,
            _ => continue,
        };
        if !found.contains(&clash) {
            found.push(clash);
        }
    }
    let code = |c: &str| error.headline.starts_with(&format!("error[{c}]"));
    found.extend(match () {
        _ if !error.signature() => None,
        _ if places.tokens.is_empty() => Some(Likely::Empty),
        _ if places.impl_solution().is_none() => Some(Likely::NoImpl),
        _ if code("E0599") || error.headline.contains(METHOD) => Some(Likely::NoMethod),
        _ => Some(Likely::Signature),
    });
    found
}

/// The file's tokens (comments, strings and whitespace left out), to find the place each
/// meaning is about.
struct Places<'a> {
    source: &'a str,
    tokens: Vec<crate::judging::mutate::tokens::Token>,
}

impl<'a> Places<'a> {
    fn new(source: &'a str) -> Places<'a> {
        Places { source, tokens: tokenize(source) }
    }

    fn word(&self, i: usize) -> Option<&'a str> {
        self.tokens.get(i).filter(|t| t.kind == Kind::Ident).map(|t| &self.source[t.start..t.end])
    }

    fn text(&self, i: usize) -> &'a str {
        self.tokens.get(i).map_or("", |t| &self.source[t.start..t.end])
    }

    /// The first token `first` followed by `second`.
    fn pair(&self, first: &str, second: impl Fn(&str) -> bool) -> Option<usize> {
        (0..self.tokens.len()).find(|&i| self.word(i) == Some(first) && self.word(i + 1).is_some_and(&second))
    }

    /// An item's first token: its `pub` where it has one.
    fn item(&self, i: usize) -> usize {
        let public = i > 0 && self.word(i - 1) == Some("pub");
        if public {
            i - 1
        } else {
            i
        }
    }

    /// The `impl` of `impl Solution`.
    fn impl_solution(&self) -> Option<usize> {
        self.pair("impl", |w| w == "Solution")
    }

    /// The name of the method in `impl Solution` LeetCode most likely meant to call: one whose
    /// name is `stone_game_iii` but for case and underscores (`stoneGameIII`), else the first.
    fn meant_method(&self) -> Option<usize> {
        let start = self.impl_solution()?;
        let end = (start..self.tokens.len()).find(|&i| self.text(i) == "{").map_or(start, |open| {
            let mut depth = 0;
            (open..self.tokens.len())
                .find(|&i| {
                    depth += match self.text(i) {
                        "{" => 1,
                        "}" => -1,
                        _ => 0,
                    };
                    depth == 0
                })
                .unwrap_or(self.tokens.len())
        });
        let fold = |w: &str| w.replace('_', "").to_lowercase();
        let names: Vec<usize> = (start..end).filter(|&i| self.word(i) == Some("fn")).map(|i| i + 1).collect();
        names
            .iter()
            .copied()
            .find(|&i| self.word(i).is_some_and(|w| fold(w) == fold(METHOD)))
            .or(names.first().copied())
    }

    /// Where the file is about `likely`: (line, column), the file's start where nothing in it
    /// is.
    fn of(&self, likely: Likely) -> (u32, u32) {
        let found = match likely {
            Likely::DeclaresSolution => self.pair("struct", |w| w == "Solution").map(|i| self.item(i)),
            Likely::HasMain => self.pair("fn", |w| w == "main").map(|i| self.item(i)),
            Likely::Empty => None,
            Likely::NoImpl => {
                self.pair("fn", |w| w == METHOD).map(|i| i + 1).or((!self.tokens.is_empty()).then_some(0))
            }
            Likely::NoMethod => self.meant_method().or(self.impl_solution()),
            Likely::Signature => self.pair("fn", |w| w == METHOD).map(|i| i + 1),
        };
        let Some(token) = found.and_then(|i| self.tokens.get(i)) else { return (1, 1) };
        let before = &self.source[..token.start];
        let line = before.matches('\n').count() as u32 + 1;
        let column = before.rsplit('\n').next().unwrap_or("").chars().count() as u32 + 1;
        (line, column)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `explain` reads a compile error in LeetCode's call of the method as, for `source`:
    /// each meaning with the line and column it is about.
    fn explained(headline: &str, source: &str) -> Vec<(Likely, u32, u32)> {
        let mut error = CompileError::whole(headline.to_string(), String::new());
        error.wrapping = Some(crate::exec::diagnose::Wrapping::Call);
        let error = explain(error, &Submission::attempt("x.rs", source));
        assert!(error.likely.iter().all(|(_, place)| place.file == "solutions/x.rs"), "{error:?}");
        error.likely.iter().map(|(likely, place)| (*likely, place.line, place.column)).collect()
    }

    #[test]
    fn each_meaning_is_placed_where_the_file_is_about_it() {
        let no_method = "error[E0599]: no function or associated item named `stone_game_iii` found";
        let camel = "// a comment\nimpl Solution {\n    fn helper() {}\n    pub fn stoneGameIII(v: Vec<i32>) -> String { todo!() }\n}\n";
        assert_eq!(explained(no_method, camel), [(Likely::NoMethod, 4, 12)]);
        let other = "impl Solution {\n    pub fn solve(v: Vec<i32>) -> String { todo!() }\n}\n";
        assert_eq!(explained(no_method, other), [(Likely::NoMethod, 2, 12)]);
        let free = "use std::cmp::max;\n\npub fn stone_game_iii(v: Vec<i32>) -> String { todo!() }\n";
        assert_eq!(explained(no_method, free), [(Likely::NoImpl, 3, 8)]);
        assert_eq!(explained(no_method, "// nothing yet\n\n"), [(Likely::Empty, 1, 1)]);
        let mismatch = "error[E0308]: mismatched types";
        let wrong_type = "impl Solution {\n    pub fn stone_game_iii(v: Vec<i64>) -> String { todo!() }\n}\n";
        assert_eq!(explained(mismatch, wrong_type), [(Likely::Signature, 2, 12)]);
        let mut clash =
            CompileError::whole("error[E0428]: the name `main` is defined multiple times".into(), String::new());
        clash.diagnostic = "error[E0428]: the name `Solution` is defined multiple times\n".into();
        let both = "struct Solution;\nimpl Solution {}\n\n  pub fn main() {}\n";
        let places: Vec<(Likely, u32, u32)> = explain(clash, &Submission::attempt("x.rs", both))
            .likely
            .iter()
            .map(|(likely, place)| (*likely, place.line, place.column))
            .collect();
        assert_eq!(places, [(Likely::HasMain, 4, 3), (Likely::DeclaresSolution, 1, 1)]);
    }
}
