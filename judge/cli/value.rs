//! A flag's value: typed, read and checked by the flag's kind, and written back as the word
//! that reads back to it.

use std::time::Duration;

use super::UsageError;
use crate::judging::mutate::Operator;
use crate::problem::generator::Shape;

/// What a flag's value is, which decides how it is read and checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// No value: present or not.
    Switch,
    /// Any text: a name, a pattern, a path.
    Text,
    /// A Rust version: `1.85` or `1.74.1`.
    Version,
    /// A whole number from `min` to `max`.
    Count { min: u64, max: u64 },
    /// `1`, `0.5`, `1.5s`, `300ms`, `2min` or `1h`.
    Duration,
    /// One of a fixed set of words.
    Choice(&'static [&'static str]),
    /// `LOW..=HIGH`.
    Range,
    /// `N,N,...`.
    Sizes,
    /// A path, optional: `--svg` alone, or `--svg FILE`.
    OptionalPath,
    /// One of the generator's shapes.
    Shape,
    /// One of the mutation operators.
    Operator,
}

/// A flag's value, typed.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    On,
    Text(String),
    Count(u64),
    /// Whole milliseconds.
    Duration(Duration),
    Range(i32, i32),
    Sizes(Vec<usize>),
    OptionalPath(Option<String>),
    Shape(Shape),
    Operator(Operator),
}

impl Value {
    /// The word that parses back to this value; None for a switch or a bare `--svg`.
    pub fn word(&self) -> Option<String> {
        Some(match self {
            Value::On | Value::OptionalPath(None) => return None,
            Value::Text(text) | Value::OptionalPath(Some(text)) => text.clone(),
            Value::Count(n) => n.to_string(),
            Value::Duration(d) if d.as_millis() % 1000 == 0 => format!("{}s", d.as_secs()),
            Value::Duration(d) => format!("{}ms", d.as_millis()),
            Value::Range(low, high) => format!("{low}..={high}"),
            Value::Sizes(sizes) => sizes.iter().map(usize::to_string).collect::<Vec<_>>().join(","),
            Value::Shape(shape) => shape.name().to_string(),
            Value::Operator(operator) => operator.name().to_string(),
        })
    }
}

/// Reads and checks the value of the flag `name` by its kind.
pub fn read_value(name: &'static str, kind: Kind, text: Option<String>) -> Result<Value, UsageError> {
    let Some(text) = text else {
        return Ok(if kind == Kind::OptionalPath { Value::OptionalPath(None) } else { Value::On });
    };
    let bad = || UsageError::BadValue { flag: name.to_string(), value: text.clone(), kind };
    let number = |t: &str| t.replace('_', "").parse::<u64>().ok();
    Ok(match kind {
        Kind::Switch => Value::On,
        Kind::Text if text.is_empty() => return Err(bad()),
        Kind::Text => Value::Text(text),
        Kind::Version if is_rust_version(&text) => Value::Text(text),
        Kind::Version => return Err(bad()),
        Kind::OptionalPath => Value::OptionalPath(Some(text).filter(|t| !t.is_empty())),
        Kind::Count { min, max } => {
            let n = number(&text).filter(|n| *n >= min).ok_or_else(bad)?;
            if n > max {
                return Err(UsageError::OverLimit { flag: name, value: n, most: max });
            }
            Value::Count(n)
        }
        Kind::Duration => Value::Duration(parse_duration(&text).ok_or_else(bad)?),
        Kind::Choice(words) if words.contains(&text.as_str()) => Value::Text(text),
        Kind::Choice(_) => return Err(bad()),
        Kind::Range => {
            let (low, high) = text.split_once("..=").ok_or_else(bad)?;
            let (low, high) = (low.trim().parse().map_err(|_| bad())?, high.trim().parse().map_err(|_| bad())?);
            if low > high {
                return Err(bad());
            }
            Value::Range(low, high)
        }
        Kind::Sizes => {
            let sizes: Option<Vec<usize>> =
                text.split(',').map(|s| number(s.trim()).filter(|n| *n >= 1).map(|n| n as usize)).collect();
            Value::Sizes(sizes.ok_or_else(bad)?)
        }
        Kind::Shape => Value::Shape(Shape::parse(&text).ok_or_else(bad)?),
        Kind::Operator => Value::Operator(Operator::parse(&text).ok_or_else(bad)?),
    })
}

/// `1.MINOR` or `1.MINOR.PATCH`, in plain decimal: the versions Rust 1 has had.
fn is_rust_version(text: &str) -> bool {
    let parts: Vec<&str> = text.split('.').collect();
    let number = |p: &&str| !p.is_empty() && p.len() <= 4 && p.bytes().all(|b| b.is_ascii_digit());
    (2..=3).contains(&parts.len()) && parts[0] == "1" && parts.iter().all(number)
}

/// `1`, `0.5`, `1.5s`, `300ms`, `2min` (or `2m`) or `1h`, rounded to whole milliseconds, from
/// 1ms to one hour; a bare number is seconds.
fn parse_duration(text: &str) -> Option<Duration> {
    let units = [("ms", 1.0), ("min", 60_000.0), ("m", 60_000.0), ("h", 3_600_000.0), ("s", 1000.0)];
    let (number, scale) =
        units.iter().find_map(|(unit, scale)| Some((text.strip_suffix(unit)?, *scale))).unwrap_or((text, 1000.0));
    let ms = (number.parse::<f64>().ok()? * scale).round();
    (ms.is_finite() && (1.0..=3_600_000.0).contains(&ms)).then(|| Duration::from_millis(ms as u64))
}
