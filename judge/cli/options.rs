//! Each command's typed options, made from an invocation. Defaults are applied here, once:
//! a flag that was not given takes the default its table entry states for the command.

use std::path::PathBuf;
use std::time::Duration;

use super::flags;
use super::{read_value, Command, Invocation, UsageError, Value};
use crate::bench;
use crate::exec::limits::Limits;
use crate::judging::mutate::Operator;
use crate::judging::session;
use crate::problem::generator::Shape;
use crate::problem::MAX_LEN;
use crate::search::{mutants, stress, verify};

pub use super::flags::Format;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Color {
    Auto,
    Always,
    Never,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Judge {
    pub request: session::Request,
    pub cases: Option<PathBuf>,
    pub format: Format,
    pub color: Color,
    pub verbose: bool,
    pub all_failures: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    pub input: Option<String>,
    pub file: Option<PathBuf>,
    pub plain: bool,
    pub solutions: Vec<String>,
    pub limits: Limits,
    pub format: Format,
    pub color: Color,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Paste {
    pub name: String,
    pub copy: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Gen {
    pub shape: Shape,
    pub len: usize,
    pub seed: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Bless {
    pub cases: Option<PathBuf>,
    pub check: bool,
    pub format: Format,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stress {
    pub request: stress::Request,
    pub cases: Option<PathBuf>,
    pub format: Format,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Verify {
    pub request: verify::Request,
    pub format: Format,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Bench {
    pub request: bench::Request,
    /// `--svg`: None when not given; Some(None) for the default place.
    pub svg: Option<Option<PathBuf>>,
    pub format: Format,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Mutants {
    pub request: mutants::Request,
    pub cases: Option<PathBuf>,
    pub format: Format,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Options {
    Judge(Judge),
    Run(Run),
    Paste(Paste),
    Gen(Gen),
    Bless(Bless),
    Stress(Stress),
    Verify(Verify),
    Bench(Bench),
    Mutants(Mutants),
    Help(Option<Command>),
    Watchdog,
}

/// A flag's value as given, else its default for this command (when the default is a value).
fn value(invocation: &Invocation, name: &str) -> Option<Value> {
    invocation.get(name).cloned().or_else(|| {
        let flag = flags::find(name)?;
        read_value(flag, Some(flag.default_for(invocation.command)?.to_string())).ok()
    })
}

fn count(invocation: &Invocation, name: &str) -> Option<u64> {
    match value(invocation, name)? {
        Value::Count(n) => Some(n),
        _ => None,
    }
}

fn texts(invocation: &Invocation, name: &str) -> Vec<String> {
    invocation.all(name).filter_map(|v| if let Value::Text(t) = v { Some(t.clone()) } else { None }).collect()
}

fn text(invocation: &Invocation, name: &str) -> Option<String> {
    texts(invocation, name).pop()
}

fn format(invocation: &Invocation) -> Format {
    match value(invocation, "--format") {
        Some(Value::Text(t)) => Format::named(&t).unwrap_or(Format::Text),
        _ => Format::Text,
    }
}

fn color(invocation: &Invocation) -> Color {
    match value(invocation, "--color") {
        Some(Value::Text(t)) if t == "always" => Color::Always,
        Some(Value::Text(t)) if t == "never" => Color::Never,
        _ => Color::Auto,
    }
}

fn limits(invocation: &Invocation) -> Limits {
    let defaults = Limits::default();
    let time = match value(invocation, "--time-limit") {
        Some(Value::Duration(d)) => d,
        _ => defaults.time,
    };
    Limits {
        time,
        memory_mib: count(invocation, "--memory-limit").unwrap_or(defaults.memory_mib),
        stack_mib: count(invocation, "--stack-mb").unwrap_or(defaults.stack_mib),
    }
}

/// `--jobs`, else the cores (the judge keeps one for the strategies).
fn jobs(invocation: &Invocation) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let default = if invocation.command == Command::Judge { cores.saturating_sub(1).max(1) } else { cores };
    count(invocation, "--jobs").map_or(default, |n| n as usize)
}

fn switch(invocation: &Invocation, name: &str) -> bool {
    invocation.has(name)
}

fn path(invocation: &Invocation, name: &str) -> Option<PathBuf> {
    text(invocation, name).map(PathBuf::from)
}

fn at_most(invocation: &Invocation, name: &'static str, most: usize) -> Result<usize, UsageError> {
    let given = count(invocation, name).unwrap_or(0) as usize;
    if given > most {
        return Err(UsageError::OverLimit { flag: name, value: given as u64, most: most as u64 });
    }
    Ok(given)
}

pub fn options(invocation: &Invocation) -> Result<Options, UsageError> {
    let i = invocation;
    Ok(match i.command {
        Command::Judge => Options::Judge(Judge {
            request: session::Request {
                solutions: texts(i, "--solution"),
                cases: texts(i, "--case"),
                limits: limits(i),
                jobs: jobs(i),
                fail_fast: switch(i, "--fail-fast"),
            },
            cases: path(i, "--cases"),
            format: format(i),
            color: color(i),
            verbose: switch(i, "--verbose"),
            all_failures: switch(i, "--all-failures"),
        }),
        Command::Run => Options::Run(Run {
            input: i.positional.first().cloned(),
            file: path(i, "--file"),
            plain: switch(i, "--plain"),
            solutions: texts(i, "--solution"),
            limits: limits(i),
            format: format(i),
            color: color(i),
        }),
        Command::Paste => Options::Paste(Paste { name: i.positional[0].clone(), copy: switch(i, "--copy") }),
        Command::Gen => Options::Gen(Gen {
            shape: match value(i, "--shape") {
                Some(Value::Shape(shape)) => shape,
                _ => return Err(UsageError::Missing { what: "--shape", command: i.command }),
            },
            len: at_most(i, "--len", MAX_LEN)?,
            seed: count(i, "--seed").unwrap_or(0),
        }),
        Command::Bless => {
            Options::Bless(Bless { cases: path(i, "--cases"), check: switch(i, "--check"), format: format(i) })
        }
        Command::Stress => Options::Stress(Stress {
            request: stress::Request {
                seed: count(i, "--seed").unwrap_or(1),
                count: count(i, "--count").unwrap_or(1),
                max_len: at_most(i, "--max-len", MAX_LEN)?,
                shapes: i
                    .all("--shape")
                    .filter_map(|v| if let Value::Shape(s) = v { Some(*s) } else { None })
                    .collect(),
                solutions: texts(i, "--solution"),
                jobs: jobs(i),
                limits: limits(i),
                save: switch(i, "--save"),
            },
            cases: path(i, "--cases"),
            format: format(i),
        }),
        Command::Verify => {
            let (low, high) = match value(i, "--values") {
                Some(Value::Range(low, high)) => (low, high),
                _ => (-3, 3),
            };
            Options::Verify(Verify {
                request: verify::Request {
                    max_len: at_most(i, "--max-len", MAX_LEN)?,
                    low,
                    high,
                    solutions: texts(i, "--solution"),
                    jobs: jobs(i),
                    limits: limits(i),
                },
                format: format(i),
            })
        }
        Command::Bench => Options::Bench(Bench {
            request: bench::Request {
                sizes: match value(i, "--sizes") {
                    Some(Value::Sizes(sizes)) => sizes,
                    _ => bench::SIZES.to_vec(),
                },
                reps: count(i, "--reps").unwrap_or(u64::from(bench::REPS)).min(u64::from(u32::MAX)) as u32,
                solutions: texts(i, "--solution"),
                limits: Limits { time: limits(i).time, memory_mib: bench::MEMORY_MIB, ..Limits::default() },
            },
            svg: match i.get("--svg") {
                Some(Value::OptionalPath(path)) => Some(path.as_ref().map(PathBuf::from)),
                _ => None,
            },
            format: format(i),
        }),
        Command::Mutants => Options::Mutants(Mutants {
            request: mutants::Request {
                solutions: texts(i, "--solution"),
                operators: i
                    .all("--operator")
                    .filter_map(|v| if let Value::Operator(o) = v { Some(*o) } else { None })
                    .collect::<Vec<Operator>>(),
                jobs: jobs(i),
            },
            cases: path(i, "--cases"),
            format: format(i),
        }),
        Command::Help => Options::Help(i.positional.first().and_then(|w| Command::parse(w))),
        Command::Watchdog => Options::Watchdog,
    })
}

/// The time limit a mutant ran under, as the flag that reproduces it.
pub fn time_limit(time: Duration) -> Value {
    Value::Duration(Duration::from_millis(time.as_millis().max(1) as u64))
}
