//! The command line: one small loop over the arguments, in the manner of lexopt.

use std::path::PathBuf;
use std::time::Duration;

pub use crate::command::Command;
use crate::error::Error;
use crate::generator::Shape;

pub const HELP: &str = "\
judge: a local judge for LeetCode 1406, Stone Game III

usage:
  judge [OPTIONS]                  judge every solution on every stored case
  judge run [INPUT] [--file PATH]  every strategy's answer and time on one input
                                   (INPUT like '[1,2,3,7]'; stdin when neither is given)
  judge paste NAME                 print a solution file exactly as it is pasted
  judge gen --shape S --len N --seed S   print one generated case
  judge bless                      write missing or changed .out files from the oracle
  judge stress --seed S --count N  random cases against the oracle, shrinking failures
  judge verify                     every small array, every strategy against the oracle
  judge bench                      time and memory of each strategy by size

options for judging:
  --solution NAME      only this solution (repeatable; 'wrong/NAME' for a wrong one)
  --case PATTERN       only cases whose suite, name or suite/name matches ('*' wildcards; repeatable)
  --time-limit SECS    per case, measured around the call alone [default: 1]
  --stack-mb N         stack of the thread that calls the solution [default: 512]
  --jobs N             solutions judged at once [default: 1, so timings stay undisturbed]
  --format text|json   the report's form [default: text]
  --color auto|always|never   colour in the text report [default: auto; NO_COLOR honoured]
  --verbose            show details for expected failures of wrong solutions too
  --cases DIR          the folder of suites [default: testcases/ of this crate]

options for the other commands:
  --file PATH          run: read the input from PATH
  --plain              run: print only the answer of the one --solution, as LeetCode does
  --shape NAME         gen, stress: one of the generator's shapes (stress: repeatable)
  --len N              gen: the number of values
  --seed S             gen, stress: the seed [stress default: 1]
  --count N            stress: how many cases [default: 100000]
  --max-len L          stress [default: 20], verify [default: 8]: the longest array
  --save               stress: store a shrunk failure under testcases/regressions/
  --values A..=B       verify: the value range [default: -3..=3]
  --sizes N,N,...      bench: the input sizes [default: 1000,10000,50000,200000]
  --reps R             bench: timed calls per strategy and size [default: 31]
  --svg FILE           bench: also write the chart as SVG
  -h, --help           this text

exit status: 0 every solution got its expected verdict, 1 one did not (or strategies
disagree, or stress/verify found a counterexample), 2 a judge error (bad case file, bad flag).
";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Clone, Debug)]
pub struct Args {
    pub command: Command,
    /// Positional words after the command: the input for `run`, the name for `paste`.
    pub positional: Vec<String>,
    pub solutions: Vec<String>,
    pub case_patterns: Vec<String>,
    pub time_limit: Duration,
    pub stack_mb: usize,
    pub jobs: Option<usize>,
    pub format: Format,
    pub color: ColorChoice,
    pub verbose: bool,
    pub cases_dir: PathBuf,
    pub file: Option<PathBuf>,
    pub plain: bool,
    pub shapes: Vec<Shape>,
    pub len: Option<usize>,
    pub seed: Option<u64>,
    pub count: Option<u64>,
    pub max_len: Option<usize>,
    pub save: bool,
    pub values: Option<(i32, i32)>,
    pub sizes: Option<Vec<usize>>,
    pub reps: Option<usize>,
    pub svg: Option<PathBuf>,
}

impl Default for Args {
    fn default() -> Args {
        Args {
            command: Command::Judge,
            positional: Vec::new(),
            solutions: Vec::new(),
            case_patterns: Vec::new(),
            time_limit: Duration::from_secs(1),
            stack_mb: crate::runner::DEFAULT_STACK_MB,
            jobs: None,
            format: Format::Text,
            color: ColorChoice::Auto,
            verbose: false,
            cases_dir: PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/testcases")),
            file: None,
            plain: false,
            shapes: Vec::new(),
            len: None,
            seed: None,
            count: None,
            max_len: None,
            save: false,
            values: None,
            sizes: None,
            reps: None,
            svg: None,
        }
    }
}

/// Past this a thread's stack cannot be reserved on any machine this runs on.
const MAX_STACK_MB: usize = 65_536;

pub fn parse() -> Result<Args, Error> {
    parse_from(std::env::args().skip(1))
}

pub fn parse_from(words: impl IntoIterator<Item = String>) -> Result<Args, Error> {
    let mut args = Args::default();
    let mut words = words.into_iter();
    let mut first = true;
    while let Some(word) = words.next() {
        if word == "-h" || word == "--help" {
            args.command = Command::Help;
            return Ok(args);
        }
        if first && !word.starts_with('-') {
            first = false;
            if let Some(command) = Command::parse(&word) {
                args.command = command;
                continue;
            }
            if args.command == Command::Judge {
                return Err(Error::Usage(format!("unknown command {word:?}")));
            }
        }
        first = false;
        let (option, inline) = match word.split_once('=') {
            Some((o, v)) if o.starts_with("--") => (o.to_string(), Some(v.to_string())),
            _ => (word.clone(), None),
        };
        if !option.starts_with('-') || option == "-" {
            args.positional.push(word);
            continue;
        }
        if !args.command.takes(&option) {
            return Err(Error::Usage(if known_option(&option) {
                format!("option '{option}' does not apply to '{}'", args.command.name())
            } else {
                format!("unknown option '{option}'")
            }));
        }
        let mut value = || {
            inline
                .clone()
                .or_else(|| words.next())
                .ok_or_else(|| Error::Usage(format!("option '{option}' needs a value")))
        };
        match option.as_str() {
            "--solution" => args.solutions.push(value()?),
            "--case" => args.case_patterns.push(value()?),
            "--time-limit" => args.time_limit = parse_seconds(&option, &value()?)?,
            "--stack-mb" => {
                args.stack_mb = parse_number(&option, &value()?, 1)?;
                if args.stack_mb > MAX_STACK_MB {
                    return Err(bad_value(&option, &args.stack_mb.to_string(), "at most 65536 (64 GiB)"));
                }
            }
            "--jobs" => args.jobs = Some(parse_number(&option, &value()?, 1)?),
            "--format" => {
                args.format = match value()?.as_str() {
                    "text" => Format::Text,
                    "json" => Format::Json,
                    other => return Err(bad_value(&option, other, "text or json")),
                }
            }
            "--color" => {
                args.color = match value()?.as_str() {
                    "auto" => ColorChoice::Auto,
                    "always" => ColorChoice::Always,
                    "never" => ColorChoice::Never,
                    other => return Err(bad_value(&option, other, "auto, always or never")),
                }
            }
            "--verbose" => args.verbose = switch(&option, &inline)?,
            "--cases" => args.cases_dir = PathBuf::from(value()?),
            "--file" => args.file = Some(PathBuf::from(value()?)),
            "--plain" => args.plain = switch(&option, &inline)?,
            "--shape" => {
                let name = value()?;
                let shape = Shape::parse(&name).ok_or_else(|| bad_value(&option, &name, &Shape::names()))?;
                args.shapes.push(shape);
            }
            "--len" => args.len = Some(parse_number(&option, &value()?, 1)?),
            "--seed" => args.seed = Some(parse_number(&option, &value()?, 0)?),
            "--count" => args.count = Some(parse_number(&option, &value()?, 1)?),
            "--max-len" => args.max_len = Some(parse_number(&option, &value()?, 1)?),
            "--save" => args.save = switch(&option, &inline)?,
            "--values" => args.values = Some(parse_range(&option, &value()?)?),
            "--sizes" => {
                let text = value()?;
                let sizes = text.split(',').map(|s| parse_number(&option, s.trim(), 1)).collect::<Result<_, _>>()?;
                args.sizes = Some(sizes);
            }
            "--reps" => args.reps = Some(parse_number(&option, &value()?, 1)?),
            "--svg" => args.svg = Some(PathBuf::from(value()?)),
            _ => unreachable!("every option in Command::takes is handled"),
        }
    }
    check_positional(&args)?;
    Ok(args)
}

fn check_positional(args: &Args) -> Result<(), Error> {
    let most = match args.command {
        Command::Run | Command::Paste => 1,
        _ => 0,
    };
    if args.positional.len() > most {
        return Err(Error::Usage(format!(
            "unexpected argument {:?} for '{}'",
            args.positional[most],
            args.command.name()
        )));
    }
    if args.command == Command::Paste && args.positional.is_empty() {
        return Err(Error::Usage("'judge paste' needs a solution name".to_string()));
    }
    Ok(())
}

/// A flag that takes no value: `--save`, not `--save=false`.
fn switch(option: &str, inline: &Option<String>) -> Result<bool, Error> {
    match inline {
        None => Ok(true),
        Some(value) => Err(Error::Usage(format!("option '{option}' takes no value, found {value:?}"))),
    }
}

fn known_option(option: &str) -> bool {
    [
        Command::Judge,
        Command::Run,
        Command::Gen,
        Command::Bless,
        Command::Stress,
        Command::Verify,
        Command::Bench,
        Command::Child,
    ]
    .iter()
    .any(|c| c.takes(option))
}

fn bad_value(option: &str, value: &str, wanted: &str) -> Error {
    Error::Usage(format!("invalid value {value:?} for '{option}': expected {wanted}"))
}

fn parse_number<T: std::str::FromStr + PartialOrd + From<u8>>(option: &str, text: &str, min: u8) -> Result<T, Error> {
    let wanted = if min == 0 { "a whole number" } else { "a whole number of at least 1" };
    match text.replace('_', "").parse::<T>() {
        Ok(n) if n >= T::from(min) => Ok(n),
        _ => Err(bad_value(option, text, wanted)),
    }
}

/// `1`, `0.5`, `1.5s` or `500ms`.
fn parse_seconds(option: &str, text: &str) -> Result<Duration, Error> {
    let (number, scale) = match text.strip_suffix("ms") {
        Some(ms) => (ms, 1e-3),
        None => (text.strip_suffix('s').unwrap_or(text), 1.0),
    };
    match number.parse::<f64>() {
        Ok(x) if x.is_finite() && x * scale >= 1e-3 && x * scale <= 3600.0 => Ok(Duration::from_secs_f64(x * scale)),
        _ => Err(bad_value(option, text, "seconds from 1ms to 3600, like 1, 0.5 or 500ms")),
    }
}

/// `A..=B` with A ≤ B.
fn parse_range(option: &str, text: &str) -> Result<(i32, i32), Error> {
    let parsed = text.split_once("..=").and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)));
    match parsed {
        Some((a, b)) if a <= b => Ok((a, b)),
        _ => Err(bad_value(option, text, "a range like -3..=3")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(words: &[&str]) -> Result<Args, Error> {
        parse_from(words.iter().map(|w| w.to_string()))
    }

    #[test]
    fn no_arguments_judge_everything_with_the_defaults() {
        let args = parse(&[]).unwrap();
        assert_eq!(args.command, Command::Judge);
        assert_eq!(args.time_limit, Duration::from_secs(1));
        assert_eq!(args.stack_mb, 512);
        assert!(args.solutions.is_empty() && args.case_patterns.is_empty());
    }

    #[test]
    fn options_take_values_separately_or_after_an_equals_sign() {
        let args = parse(&["--solution", "dp_array", "--solution=wrong/greedy", "--time-limit", "250ms"]).unwrap();
        assert_eq!(args.solutions, ["dp_array", "wrong/greedy"]);
        assert_eq!(args.time_limit, Duration::from_millis(250));
    }

    #[test]
    fn commands_and_their_options() {
        let args = parse(&["stress", "--seed", "3", "--count", "1_000", "--shape", "zeros", "--save"]).unwrap();
        assert_eq!(args.command, Command::Stress);
        assert_eq!((args.seed, args.count, args.save), (Some(3), Some(1000), true));
        assert_eq!(args.shapes, [Shape::Zeros]);
        let args = parse(&["verify", "--values", "-2..=2", "--max-len", "5"]).unwrap();
        assert_eq!((args.values, args.max_len), (Some((-2, 2)), Some(5)));
        let args = parse(&["run", "[1,2,3]"]).unwrap();
        assert_eq!(args.positional, ["[1,2,3]"]);
    }

    #[test]
    fn bad_arguments_name_what_was_wrong() {
        let message = |words: &[&str]| parse(words).unwrap_err().to_string();
        assert!(message(&["--nope"]).contains("unknown option '--nope'"));
        assert!(message(&["--svg", "x"]).contains("'--svg' does not apply to 'judge'"));
        assert!(message(&["--jobs", "zero"]).contains("invalid value \"zero\" for '--jobs'"));
        assert!(message(&["--jobs", "0"]).contains("at least 1"));
        assert!(message(&["--time-limit"]).contains("needs a value"));
        assert!(message(&["frobnicate"]).contains("unknown command \"frobnicate\""));
        assert!(message(&["gen", "--shape", "round"]).contains("uniform"));
        assert!(message(&["verify", "--values", "3..=1"]).contains("-3..=3"));
        assert!(message(&["paste"]).contains("needs a solution name"));
        assert!(message(&["stress", "--save=false"]).contains("'--save' takes no value, found \"false\""));
        assert!(message(&["--time-limit", "1e-12"]).contains("from 1ms"));
        assert!(message(&["--stack-mb", "17592186044417"]).contains("at most 65536"));
        assert!(message(&["paste", "a", "b"]).contains("unexpected argument \"b\""));
    }
}
