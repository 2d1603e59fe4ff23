//! Everything a person or a program reads: text, JSON and SVG, with units, table layout,
//! plurals and escaping each written once. Render never runs anything and never prints: it
//! turns the engines' data into strings, and the commands write them.

pub mod attempt;
pub mod axis;
pub mod bench;
pub mod bless;
pub mod call;
pub mod cargo_json;
pub mod compile;
pub mod conditions;
pub mod counterexample;
pub mod editor;
pub mod error;
pub mod expect;
pub mod explanation;
pub mod fit;
pub mod growth;
pub mod guard;
pub mod help;
pub mod html;
pub mod json;
pub mod judge_json;
pub mod judge_text;
pub mod matrix;
pub mod mutants;
pub mod paste;
pub mod run;
pub mod stress;
pub mod style;
pub mod svg;
pub mod table;
pub mod units;
pub mod verify;
pub mod watch;

use crate::cli::Format;

/// A report in the chosen form: `text` for a person, or the JSON document (with the exit status).
pub fn document(
    format: Format,
    exit: u8,
    text: impl FnOnce() -> String,
    json: impl FnOnce(u8) -> json::Json,
) -> String {
    match format {
        Format::Text => text(),
        Format::Json => json(exit).render(),
    }
}
