//! The judge's errors, every one worded here: what went wrong, in one lowercase line that
//! quotes the bad input and shows paths relative to the workspace, then a hint where one helps.

use std::io;
use std::path::Path;

use std::time::Duration;

use super::compile::{compile_error, likely};
use super::json::Json;
use super::units;
use crate::cli::{suggest, Command, Invocation, Kind, UsageError};
use crate::exec::compile::CompilerMissing;
use crate::exec::diagnose::CompileError;
use crate::exec::limits::{Unhonourable, MAX_STACK_MIB, MIN_MEMORY_MIB};
use crate::exec::trouble::{Doing, Trouble};
use crate::judging::cases::{CaseProblem, CasesError};
use crate::judging::submissions::SubmissionError;
use crate::judging::workbench::SetupError;
use crate::problem::format::{Fault, FormatError, Token};
use crate::problem::{MAX_LEN, MAX_VALUE, MIN_LEN, MIN_VALUE};
use crate::search::{Bound, SearchError};

/// Everything that ends a command with exit status 2.
#[derive(Debug)]
pub enum Error {
    Usage(UsageError),
    Setup(SetupError),
    Search(SearchError),
    /// A testcases file `judge run` could not read.
    Case {
        problem: CaseProblem,
    },
    /// `verify` estimated its bound to take longer than it starts without `--yes`.
    TooLong {
        arrays: u64,
        estimate: Duration,
        again: Invocation,
    },
    /// A file the judge could not read or write.
    Io {
        path: std::path::PathBuf,
        error: io::Error,
    },
    /// `judge run`'s input: where it came from and what was wrong with it.
    Input {
        origin: String,
        error: FormatError,
    },
    /// `--svg` or `--html` aimed at stored data: what would have been written, and where it
    /// goes when no path is given.
    Protected {
        path: std::path::PathBuf,
        what: &'static str,
        default: std::path::PathBuf,
    },
    /// `--svg` or `--html` that could not be written: which (`page`, `chart`), where, why.
    Unwritten {
        what: &'static str,
        path: std::path::PathBuf,
        error: io::Error,
    },
    /// `--plain` with other than one solution.
    PlainNeedsOne,
    /// `judge new` was given what cannot name an attempt.
    NotAName {
        given: String,
    },
    /// `judge new` was given the name of a file that exists.
    Exists {
        path: std::path::PathBuf,
        name: String,
    },
}

impl From<UsageError> for Error {
    fn from(error: UsageError) -> Error {
        Error::Usage(error)
    }
}

/// An error as the JSON document every command prints with `--format json`.
pub fn json(command: &str, message: &str, exit: u8) -> Json {
    let (first, hints) = message.split_once('\n').unwrap_or((message, ""));
    Json::object([
        ("format_version", Json::int(2)),
        ("command", Json::str(if command.is_empty() { "judge" } else { command })),
        ("exit_status", Json::int(exit)),
        ("error", Json::str(first)),
        ("hints", Json::Array(hints.lines().map(|h| Json::str(h.trim_start_matches("hint: "))).collect())),
    ])
}

/// `path` relative to `root` when inside it.
pub fn path(path: &Path, root: Option<&Path>) -> String {
    root.and_then(|r| path.strip_prefix(r).ok()).unwrap_or(path).display().to_string()
}

/// Where testcase `t` of a case is stored: its `.in` relative to `root`, with `:LINE` where the
/// file holds several testcases.
pub fn place(case: &crate::judging::cases::Case, t: usize, root: Option<&Path>) -> String {
    match case.line(t) {
        Some(line) => format!("{}:{line}", path(&case.input, root)),
        None => path(&case.input, root),
    }
}

/// The judge's trouble: what it could not do, and what the system said.
pub fn trouble(trouble: &Trouble, root: Option<&Path>) -> String {
    let doing = match &trouble.doing {
        Doing::Compiling(file) => format!("could not run the compiler on {file}"),
        Doing::Starting(name) => format!("could not start {name}'s process"),
        Doing::Reading(file) => format!("could not read {}", path(file, root)),
        Doing::Writing(file) => format!("could not write {}", path(file, root)),
    };
    format!("{doing}: {}", lower(&trouble.error))
}

fn lower(error: &io::Error) -> String {
    let text = error.to_string();
    let text = text.split(" (os error").next().unwrap_or(&text).to_string();
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| c.to_lowercase().chain(chars).collect())
}

/// The message for an error, with hint lines after it.
pub fn describe(error: &Error, root: Option<&Path>) -> String {
    match error {
        Error::Usage(usage) => format!("{}\nhint: {}", usage_line(usage), usage_hint(usage)),
        Error::Setup(setup) => setup_line(setup, root),
        Error::Case { problem } => case_problem(problem, root),
        Error::TooLong { arrays, estimate, again } => format!(
            "verify would check {} arrays, about {} on this machine\nhint: to start it anyway: {}",
            units::thousands(*arrays),
            units::long_duration(*estimate),
            again.clone().set(&crate::cli::flags::YES, [crate::cli::Value::On]).shell()
        ),
        Error::Search(search) => search_line(search, root),
        Error::Io { path: p, error } => format!("{}: {}", path(p, root), lower(error)),
        Error::Input { origin, error } => format!("{origin}:{}", format_error(error)),
        Error::Protected { path: p, what, default } => format!(
            "refusing to write {what} to {}: testcases/ and solutions/ hold stored data\nhint: give another path, or none for {}",
            path(p, root),
            path(default, root)
        ),
        Error::Unwritten { what, path: p, error } => format!("{what} not written to {}: {}", path(p, root), lower(error)),
        Error::PlainNeedsOne => "'--plain' needs exactly one '--solution'".to_string(),
        Error::NotAName { given } if given.starts_with("wrong/") => format!(
            "'{given}' is not a name for a new attempt: new writes solutions/NAME.rs\nhint: a file of solutions/wrong/ starts with the verdict it must get, `// expect: WA`: write that one by hand"
        ),
        Error::NotAName { given } => format!(
            "'{given}' is not a name for a new attempt: use letters, digits, _ and - (from a letter, at most 64), such as my_try"
        ),
        Error::Exists { path: p, name } => format!(
            "{} already exists, and new never writes over a file\nhint: pick another name, or judge that one: {}",
            path(p, root),
            Invocation::new(Command::Judge).set(&crate::cli::flags::SOLUTION, [crate::cli::Value::Text(name.clone())]).shell()
        ),
    }
}

fn expected_value(kind: Kind) -> String {
    match kind {
        Kind::Switch => "no value".to_string(),
        Kind::Text | Kind::OptionalPath => "a non-empty word".to_string(),
        Kind::Version => "a Rust version such as 1.85 or 1.74.1".to_string(),
        Kind::Count { min: 0, .. } => "a whole number".to_string(),
        Kind::Count { min, .. } => format!("a whole number of at least {min}"),
        Kind::Duration => "a time from 1ms to 1 hour, such as 1, 0.5, 1.5s, 300ms, 2min or 1h".to_string(),
        Kind::Choice(words) => words.join(" or "),
        Kind::Range => "LOW..=HIGH with LOW <= HIGH, such as -3..=3".to_string(),
        Kind::Sizes => "sizes of at least 1 separated by commas, such as 1000,50000".to_string(),
        Kind::Shape => crate::problem::generator::Shape::names(),
        Kind::Operator => crate::judging::mutate::Operator::ALL.map(|o| o.name()).join(", "),
    }
}

/// A command as it is typed, without its options: `cargo judge gen`.
fn command_name(command: Command) -> String {
    Invocation::new(command).shell()
}

fn usage_line(error: &UsageError) -> String {
    let mean = |s: &Option<String>| s.as_ref().map_or(String::new(), |s| format!("; did you mean '{s}'?"));
    match error {
        UsageError::UnknownCommand { word, suggestion } => format!("unknown command {word:?}{}", mean(suggestion)),
        UsageError::UnknownFlag { flag, suggestion } => format!("unknown option '{flag}'{}", mean(suggestion)),
        UsageError::NotForCommand { flag, command } => {
            format!("option '{flag}' does not apply to '{}'", command_name(*command))
        }
        UsageError::MissingValue { flag } => format!("option '{flag}' needs a value"),
        UsageError::BadValue { flag, value, kind } => {
            format!("invalid value {value:?} for '{flag}': expected {}", expected_value(*kind))
        }
        UsageError::SwitchWithValue { flag, value } => format!("option '{flag}' takes no value, found {value:?}"),
        UsageError::Unexpected { word, command } => {
            format!("unexpected argument {word:?} for '{}'", command_name(*command))
        }
        UsageError::Missing { what, command } => format!("'{}' needs {what}", command_name(*command)),
        UsageError::Conflict { first, second } => format!("give {first} or {second}, not both"),
        UsageError::OverLimit { flag, value, most } if *most == MAX_LEN as u64 => {
            format!("'{flag} {value}' is over LeetCode's limit of {most}")
        }
        UsageError::OverLimit { flag, value, most } => format!("'{flag} {value}' is over the most it takes, {most}"),
    }
}

fn usage_hint(error: &UsageError) -> String {
    let command = match error {
        UsageError::NotForCommand { command, .. }
        | UsageError::Unexpected { command, .. }
        | UsageError::Missing { command, .. } => Some(*command),
        _ => None,
    };
    match command.filter(|c| !c.word().is_empty()) {
        Some(command) => format!("run '{}' for its options", Invocation::help(command).shell()),
        None => format!("run '{}' for the commands and options", Invocation::help(Command::Judge).shell()),
    }
}

pub fn format_error(error: &FormatError) -> String {
    let token = |t: Token| match t {
        Token::OpenBracket => "'[' to open the array",
        Token::CommaOrClose => "',' or ']' after a value",
        Token::Number => "a number",
        Token::End => "end of input",
        Token::OpenQuote => "'\"' to open the answer",
        Token::CloseQuote => "'\"' to close the answer",
    };
    let what = match &error.fault {
        Fault::Expected { wanted, found } => {
            let found = found.map_or("end of input".to_string(), |c| format!("{c:?}"));
            format!("expected {}, found {found}", token(*wanted))
        }
        Fault::Empty => format!("the array is empty; LeetCode allows {MIN_LEN}..={MAX_LEN} values"),
        Fault::NoTestcase => "no testcase: one array a line, as [1,2,3,7]".to_string(),
        Fault::OutOfRange { value, index } => {
            format!("value {value} at index {index} is outside {MIN_VALUE}..={MAX_VALUE}")
        }
        Fault::TooMany => format!("more than {MAX_LEN} values: index {MAX_LEN} is one too many"),
        Fault::LeadingZero { number } => format!("leading zero in {number:?}"),
        Fault::NotAnAnswer { word } => format!("expected \"Alice\", \"Bob\" or \"Tie\", found {word:?}"),
        Fault::TooFewAnswers { testcases, answers } => format!(
            "expected an answer for testcase {}, found end of input: {} for {} testcases, one a line",
            units::thousands(*answers as u64 + 1),
            units::count(*answers, "answer"),
            units::thousands(*testcases as u64)
        ),
        Fault::TooManyAnswers { testcases } => {
            format!("an answer past the last of the {} testcases of the .in", units::thousands(*testcases as u64))
        }
    };
    format!("{}:{}: {what}", error.line, error.column)
}

pub fn case_problem(problem: &CaseProblem, root: Option<&Path>) -> String {
    match problem {
        CaseProblem::Unreadable { path: p, error } => format!("{}: {}", path(p, root), lower(error)),
        CaseProblem::NotAFile { path: p } => {
            format!("{}: not a regular file (a FIFO, a device or a folder); not read", path(p, root))
        }
        CaseProblem::TooLarge { path: p, bytes } => format!(
            "{}: {} is over the {} a case file may have; not read",
            path(p, root),
            units::bytes(*bytes),
            units::bytes(crate::judging::cases::CASE_FILE_LIMIT)
        ),
        CaseProblem::Format { path: p, error } => format!("{}:{}", path(p, root), format_error(error)),
        CaseProblem::Unpaired { present, missing } => format!("{} has no {}", path(present, root), path(missing, root)),
        CaseProblem::OddName { path: p } => {
            format!(
                "{}: not read as a case: a case is NAME.in with NAME.out, in lower case",
                units::escape(&path(p, root))
            )
        }
    }
}

/// An error as stderr shows it, `judge: ` first, each of its lines wrapped to `width` (a
/// hint's too), the lines after a wrap indented.
pub fn fitted(message: &str, width: usize) -> String {
    let mut lines = message.lines();
    let first = super::fit::words("judge: ", lines.next().unwrap_or(""), "  ", width);
    let rest = lines.map(|line| super::fit::words("", line, "  ", width));
    std::iter::once(first).chain(rest).collect::<Vec<_>>().join("\n")
}

/// A file a command that takes every strategy goes on without, since it cannot be read.
pub fn skipped_unreadable(error: &SubmissionError) -> String {
    format!("skipped {}", submission_error(error))
}

/// An attempt a command that takes every strategy goes on without, since it does not compile.
pub fn skipped_uncompiled(name: &str, error: &CompileError) -> String {
    format!("skipped {name}: it does not compile (CE): {}", compile_error(error))
}

pub fn submission_error(error: &SubmissionError) -> String {
    match error {
        SubmissionError::Unknown { name, known } => {
            let hint = match suggest::closest(name, known.iter().map(String::as_str)) {
                Some(close) => format!("; did you mean {close:?}?"),
                None => format!("; it would be solutions/{name}.rs (the solutions are the files in solutions/ and solutions/wrong/)"),
            };
            format!("no solution named {name:?}{hint}")
        }
        SubmissionError::Unreadable { file, error } => format!("{file}: {}", lower(error)),
        SubmissionError::NotAFile { file } => format!("{file}: not a regular file of at most 1 MiB"),
        SubmissionError::NotUtf8 { file, line, column, byte } => format!(
            "{file}:{line}:{column}: byte 0x{byte:02x} is not UTF-8; rustc and LeetCode read a file as UTF-8 (save it so)"
        ),
        SubmissionError::BadTag { file, found } => {
            format!("{file}: the first line must be '// expect: WA|RE|TLE|MLE|OLE|CE', found {found:?}")
        }
        SubmissionError::NoSuchMutant { strategy, index, count } => {
            format!("no mutant {strategy}#{index}: {strategy} has {count} (0..={})", count.saturating_sub(1))
        }
        SubmissionError::NoFolder { folder, error } => format!("{folder}: {}", lower(error)),
    }
}

fn limits_line(error: &Unhonourable) -> String {
    match error {
        Unhonourable::Stack { mib } => format!(
            "a stack of {mib} MiB cannot be given to a thread on this machine ('--stack-mb' at most {MAX_STACK_MIB}, and within its memory)"
        ),
        Unhonourable::Memory { mib, machine_mib } => match machine_mib {
            Some(total) if mib > total => format!("'--memory-limit {mib}' is more than this machine's {total} MiB"),
            _ => format!("'--memory-limit {mib}' is too small: a process needs at least {MIN_MEMORY_MIB} MiB to start"),
        },
    }
}

fn compiler_line(error: &CompilerMissing, root: Option<&Path>) -> String {
    match error {
        CompilerMissing::NotFound { program, error } => {
            format!("cannot run the compiler {program:?}: {}\nhint: put rustc on PATH or set RUSTC", lower(error))
        }
        CompilerMissing::Cache { path: p, error } => format!("{}: {}", path(p, root), lower(error)),
    }
}

fn setup_line(error: &SetupError, root: Option<&Path>) -> String {
    match error {
        SetupError::NoWorkspace(none) => format!(
            "no workspace at {} or above it: the judge looks for a folder with Cargo.toml and solutions/\n\
             hint: run it inside the workspace (where Cargo.toml, solutions/ and testcases/ are)",
            none.searched_from.display()
        ),
        SetupError::Limits(limits) => limits_line(limits),
        SetupError::Catalog(e) => submission_error(e),
        SetupError::Cases(CasesError::Missing { root: dir, error }) => format!(
            "no cases folder at {}: {}\nhint: point at a folder of suites with --cases DIR (each suite a folder of NAME.in and NAME.out)",
            path(dir, root),
            lower(error)
        ),
        SetupError::Cases(CasesError::IsASuite { root: dir }) => format!(
            "{} holds cases itself: --cases wants the folder of suites\nhint: give its parent and pick the suite with --case, e.g. --cases {} --case {}",
            path(dir, root),
            dir.parent().map_or(".".into(), |p| path(p, root)),
            dir.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned())
        ),
        SetupError::NoCases { patterns } if patterns.is_empty() => "no cases: the cases folder has no suite with a NAME.in".to_string(),
        SetupError::NoCases { patterns } => format!(
            "no case matches {}\nhint: a pattern matches a suite, a name or suite/name, with '*' as a wildcard",
            patterns.iter().map(|p| format!("{p:?}")).collect::<Vec<_>>().join(" or ")
        ),
        SetupError::Compiler(e) => compiler_line(e, root),
        SetupError::Scratch(e) => format!("cannot make a scratch folder in {}: {}", std::env::temp_dir().display(), lower(e)),
        SetupError::NoSandbox(why) => format!(
            "no sandbox here, and --sandbox require asks for one: {}\nhint: user namespaces must be allowed (sysctl user.max_user_namespaces); --sandbox auto runs without one",
            lower(why)
        ),
        SetupError::RootUnsandboxed => "--sandbox off as root runs every solution as root, with nothing between it and this machine\n\
             hint: --sandbox off-as-root if you trust the code with root; --sandbox auto otherwise"
            .to_string(),
        SetupError::NoNativeRunner => format!(
            "the native runner reads Linux's own accounts (/proc, namespaces, cgroups), and this is not Linux\n\
             hint: --runner {}, the default here",
            crate::exec::runner::ELSEWHERE.rules().word
        ),
        SetupError::Panicked(what) => format!("the judge failed while {what}: a bug of the judge's, not of a solution's"),
    }
}

fn search_line(error: &SearchError, root: Option<&Path>) -> String {
    match error {
        SearchError::Setup(setup) => setup_line(setup, root),
        SearchError::DoesNotCompile { name, error } => {
            let likely: String = likely(error).iter().map(|line| format!("\nlikely: {line}")).collect();
            format!("{name} does not compile (CE): {}{likely}", compile_error(error))
        }
        SearchError::Trouble(t) => trouble(t, root),
        SearchError::NotAStrategy { name } => {
            format!("'{}' times correct strategies only, not {name:?}", command_name(Command::Bench))
        }
        SearchError::Equivalents { file, line } => {
            format!("{file}:{line}: not `strategy | operator | line | a -> b | occurrence | reason`")
        }
        SearchError::OriginalFails { name } => format!("{name} does not pass the stored cases itself"),
        SearchError::Unjudged { ending, limits } => {
            format!("a call could not be judged: {}", super::call::ending(ending, limits))
        }
        SearchError::Bound(Bound::Values { low, high }) => {
            format!("'--values {low}..={high}' is outside LeetCode's {MIN_VALUE}..={MAX_VALUE}")
        }
        SearchError::Bound(Bound::TooMany { base, max_len }) => {
            format!("{base}^{max_len} arrays are too many to enumerate; lower --max-len or narrow --values")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::format::{parse_input, parse_output};

    fn input(text: &str) -> String {
        format_error(&parse_input(text).unwrap_err())
    }

    #[test]
    fn format_errors_say_where_and_what() {
        assert_eq!(input("1,2]"), "1:1: expected '[' to open the array, found '1'");
        assert_eq!(input("[1,2"), "1:5: expected ',' or ']' after a value, found end of input");
        let blank = crate::problem::format::parse_lines("\n").unwrap_err();
        assert_eq!(format_error(&blank), "1:1: no testcase: one array a line, as [1,2,3,7]");
        assert_eq!(input("[]"), "1:2: the array is empty; LeetCode allows 1..=50000 values");
        assert_eq!(input("[1,\n 2, 1001]"), "2:5: value 1001 at index 2 is outside -1000..=1000");
        assert_eq!(input("[007]"), "1:2: leading zero in \"007\"");
        let output = format_error(&parse_output("\"bob\"").unwrap_err());
        assert_eq!(output, "1:2: expected \"Alice\", \"Bob\" or \"Tie\", found \"bob\"");
    }

    #[test]
    fn a_call_stress_could_not_judge_is_said_in_words_not_debug_text() {
        let limits = crate::exec::limits::DEFAULT;
        let error = Error::Search(SearchError::Unjudged {
            ending: crate::exec::outcome::Ending::Refused { why: crate::exec::wire::Refusal::NoStack, confirmed: true },
            limits,
        });
        let said = describe(&error, None);
        assert_eq!(
            said,
            format!(
                "a call could not be judged: the machine could not give its thread a {} MiB stack",
                limits.stack_mib
            )
        );
    }

    #[test]
    fn usage_errors_are_one_line_and_a_hint() {
        let text = describe(
            &Error::Usage(UsageError::UnknownFlag { flag: "--solutoin".into(), suggestion: Some("--solution".into()) }),
            None,
        );
        assert_eq!(text, "unknown option '--solutoin'; did you mean '--solution'?\nhint: run 'cargo judge help' for the commands and options");
        let text = describe(&Error::Usage(UsageError::Missing { what: "--seed", command: Command::Gen }), None);
        assert_eq!(text, "'cargo judge gen' needs --seed\nhint: run 'cargo judge help gen' for its options");
    }
}
