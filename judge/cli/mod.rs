//! The command line: one small loop over the words (lexopt's way), checked against one table
//! of flags, into an `Invocation`: the command, its flags with typed values, its positional
//! words. An invocation renders back to the words that make it, so every command the judge
//! prints (rerun, try it, keep it) is an invocation, and parsing what it printed gives back
//! the same options. `Invocation::args` fills the typed `Args` through each flag's own setter.

pub mod flags;
pub mod suggest;
mod value;

pub use flags::{Args, Color, Flag, Format};
pub use value::Kind;
pub use value::Value;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    /// No command word: judge the stored cases.
    Judge,
    Run,
    Paste,
    Watch,
    Gen,
    Bless,
    Stress,
    Verify,
    Bench,
    Mutants,
    Diagnostics,
    New,
    Help,
    /// Hidden: the watchdog process (see `exec::watchdog`).
    Watchdog,
}

/// The words that run the judge from the workspace: `.cargo/config.toml` makes `cargo judge`
/// an alias of `cargo run --release --`. Every command the judge prints starts with them.
pub const PROGRAM: &str = "cargo judge";

/// Each command's word, positional arguments, one line about it, and an example: the words
/// after `PROGRAM`.
pub struct Spec {
    pub command: Command,
    pub word: &'static str,
    pub args: &'static str,
    pub about: &'static str,
    /// The example's words after `PROGRAM` (see `Spec::example`).
    pub example: &'static [&'static str],
}

/// The commands, in the order a newcomer needs them: help lists them so.
pub const COMMANDS: &[Spec] = &[
    Spec {
        command: Command::New,
        word: "new",
        args: "NAME",
        about: "create solutions/NAME.rs holding the empty method, ready to write in",
        example: &["new", "my_try"],
    },
    Spec {
        command: Command::Judge,
        word: "",
        args: "",
        about: "judge every solution on every stored case (exit 0 when each gets its expected verdict)",
        example: &["--solution", "my_try", "--case", "samples"],
    },
    Spec {
        command: Command::Watch,
        word: "watch",
        args: "",
        about: "judge again every time a solution file or a stored case is saved (Ctrl-C stops)",
        example: &["watch", "--solution", "my_try", "--case", "samples"],
    },
    Spec {
        command: Command::Run,
        word: "run",
        args: "[TESTCASES]...",
        about: "testcases (one an argument, or one a line) through the strategies (or --solution), each called in turn in one process, like LeetCode's Run",
        example: &["run", "--solution", "my_try", "[1,2,3,7]"],
    },
    Spec {
        command: Command::Stress,
        word: "stress",
        args: "[TESTCASES]",
        about:
            "the testcases given, then random cases, against the oracle; the first failure is shrunk and can be saved",
        example: &["stress", "--solution", "my_try", "--count", "1000000"],
    },
    Spec {
        command: Command::Paste,
        word: "paste",
        args: "NAME",
        about: "print a solution file exactly as it is pasted into LeetCode, after compiling it as LeetCode does",
        example: &["paste", "my_try", "--copy"],
    },
    Spec {
        command: Command::Verify,
        word: "verify",
        args: "",
        about: "every array up to --max-len over --values, every strategy against the oracle",
        example: &["verify", "--solution", "my_try", "--max-len", "7"],
    },
    Spec {
        command: Command::Gen,
        word: "gen",
        args: "",
        about: "print one generated case (--shape, --len and --seed), or every array of a range, one a line (--max-len and --values)",
        example: &["gen", "--shape", "periodic", "--len", "50000", "--seed", "12"],
    },
    Spec {
        command: Command::Bless,
        word: "bless",
        args: "",
        about: "write missing or changed .out files from the oracle (and .in files from each MANIFEST)",
        example: &["bless", "--check"],
    },
    Spec {
        command: Command::Bench,
        word: "bench",
        args: "",
        about: "each strategy's time and extra memory by input size, how its time grows, and a chart",
        example: &["bench", "--sizes", "1000,50000", "--svg"],
    },
    Spec {
        command: Command::Mutants,
        word: "mutants",
        args: "",
        about: "mutate each strategy and count the mutants the stored cases kill",
        example: &["mutants", "--solution", "dp_array"],
    },
    Spec {
        command: Command::Diagnostics,
        word: "diagnostics",
        args: "[FILE]",
        about: "the judge's findings in cargo's JSON message format, for an editor (FILE: the file just saved)",
        example: &["diagnostics", "solutions/my_try.rs"],
    },
    Spec {
        command: Command::Help,
        word: "help",
        args: "[COMMAND]",
        about: "this text, or one command's",
        example: &["help", "stress"],
    },
];

impl Spec {
    /// The example, as the invocation it is.
    pub fn example(&self) -> Invocation {
        let words = self.example.iter().map(|w| w.to_string());
        parse_from(words).unwrap_or_else(|e| unreachable!("the example of {:?} does not parse: {e:?}", self.command))
    }
}

impl Command {
    /// Its line of the table; the hidden watchdog, which has none, gets the judge's.
    pub fn spec(self) -> &'static Spec {
        let judge = COMMANDS.iter().find(|s| s.command == Command::Judge);
        COMMANDS.iter().find(|s| s.command == self).or(judge).expect("the table has the judge")
    }

    /// The word typed after `judge`, if any.
    pub fn word(self) -> &'static str {
        match self {
            Command::Watchdog => crate::exec::watchdog::COMMAND,
            _ => self.spec().word,
        }
    }

    pub fn parse(word: &str) -> Option<Command> {
        if word == crate::exec::watchdog::COMMAND {
            return Some(Command::Watchdog);
        }
        COMMANDS.iter().find(|s| !s.word.is_empty() && s.word == word).map(|s| s.command)
    }

    /// How many positional words it takes, and whether it needs one.
    fn positional(self) -> (usize, Option<&'static str>) {
        match self {
            // Each a testcase, called in order in one process per solution.
            Command::Run => (usize::MAX, None),
            Command::Stress | Command::Help | Command::Diagnostics => (1, None),
            Command::Paste | Command::New => (1, Some("NAME")),
            _ => (0, None),
        }
    }
}

/// A command line, parsed and checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Invocation {
    pub command: Command,
    pub flags: Vec<(&'static Flag, Value)>,
    pub positional: Vec<String>,
}

/// What was wrong with a command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UsageError {
    UnknownCommand {
        word: String,
        suggestion: Option<String>,
    },
    UnknownFlag {
        flag: String,
        suggestion: Option<String>,
    },
    NotForCommand {
        flag: String,
        command: Command,
    },
    MissingValue {
        flag: String,
    },
    BadValue {
        flag: String,
        value: String,
        kind: Kind,
    },
    SwitchWithValue {
        flag: String,
        value: String,
    },
    Unexpected {
        word: String,
        command: Command,
    },
    /// A required flag or argument is missing.
    Missing {
        what: &'static str,
        command: Command,
    },
    /// Two ways of giving the same thing at once.
    Conflict {
        first: &'static str,
        second: &'static str,
    },
    /// A number past the most a flag takes, such as `--len 60000` (LeetCode's limit).
    OverLimit {
        flag: &'static str,
        value: u64,
        most: u64,
    },
}

impl Invocation {
    pub fn new(command: Command) -> Invocation {
        Invocation { command, flags: Vec::new(), positional: Vec::new() }
    }

    pub fn get(&self, flag: &Flag) -> Option<&Value> {
        self.flags.iter().rev().find(|(f, _)| *f == flag).map(|(_, v)| v)
    }

    /// Replaces every value of a flag with `values`.
    pub fn set(mut self, flag: &'static Flag, values: impl IntoIterator<Item = Value>) -> Invocation {
        self.flags.retain(|(f, _)| *f != flag);
        self.flags.extend(values.into_iter().map(|v| (flag, v)));
        self
    }

    /// This invocation with `other`'s values of `flags`, for those `other` gives.
    pub fn with_flags_of(mut self, other: &Invocation, flags: &[&'static Flag]) -> Invocation {
        for &flag in flags {
            if let Some(value) = other.get(flag) {
                self = self.set(flag, [value.clone()]);
            }
        }
        self
    }

    pub fn with_positional(mut self, words: impl IntoIterator<Item = String>) -> Invocation {
        self.positional = words.into_iter().collect();
        self
    }

    /// The typed options: each flag's default for this command, then each value given.
    pub fn args(&self) -> Args {
        let mut args = Args::defaults(self.command);
        for (flag, value) in &self.flags {
            (flag.set)(&mut args, value.clone());
        }
        args.positional = self.positional.clone();
        args
    }

    /// The words after `PROGRAM` that make this invocation.
    pub fn words(&self) -> Vec<String> {
        let mut words = Vec::new();
        if !self.command.word().is_empty() {
            words.push(self.command.word().to_string());
        }
        for (flag, value) in &self.flags {
            match (value, value.word()) {
                (Value::OptionalPath(Some(_)), Some(word)) => words.push(format!("{}={word}", flag.name)),
                (_, Some(word)) => words.extend([flag.name.to_string(), word]),
                (_, None) => words.push(flag.name.to_string()),
            }
        }
        if self.positional.iter().any(|p| p.starts_with('-')) {
            words.push("--".to_string());
        }
        words.extend(self.positional.iter().cloned());
        words
    }

    /// `help` for this invocation's command (`help` alone for the judge's).
    pub fn help(command: Command) -> Invocation {
        let topic = Some(command.word()).filter(|w| !w.is_empty() && command != Command::Help);
        Invocation::new(Command::Help).with_positional(topic.map(String::from))
    }

    /// The whole command a person types: `cargo judge ...`, quoted for a POSIX shell.
    pub fn shell(&self) -> String {
        let mut line = String::from(PROGRAM);
        for word in self.words() {
            line.push(' ');
            line.push_str(&shell_word(&word));
        }
        line
    }
}

/// `text` as one shell word: as it is when that is safe, else single-quoted; a control
/// character (which would reach the terminal raw) is written as `$'\xNN'`, which bash and zsh
/// read back as the byte.
pub fn shell_word(text: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./=:@%+,#".contains(c);
    if !text.is_empty() && text.chars().all(plain) && !text.starts_with('#') {
        return text.to_string();
    }
    let mut word = String::from("'");
    for c in text.chars() {
        match c {
            '\'' => word.push_str("'\\''"),
            c if c.is_control() => word.push_str(&format!("'$'\\x{:02x}''", u32::from(c).min(0xff))),
            c => word.push(c),
        }
    }
    word.push('\'');
    word
}

/// Whether the raw words ask for JSON, for reporting an error in the command line itself.
pub fn wants_json(words: impl IntoIterator<Item = String>) -> bool {
    let words: Vec<String> = words.into_iter().collect();
    words.iter().any(|w| w == "--format=json") || words.windows(2).any(|w| w[0] == "--format" && w[1] == "json")
}

/// Parses the words after `PROGRAM`.
pub fn parse_from(words: impl IntoIterator<Item = String>) -> Result<Invocation, UsageError> {
    let words: Vec<String> = words.into_iter().collect();
    // `-h` anywhere before `--` asks for help, with the help's own flags (`--width`) wherever
    // they stand.
    let asks_help = words.iter().take_while(|w| *w != "--").any(|w| w == "-h" || w == "--help");
    let mut words = words.into_iter().peekable();
    let mut invocation = Invocation::new(Command::Judge);
    if let Some(first) = words.next_if(|w| !w.starts_with('-')) {
        invocation.command = Command::parse(&first)
            .ok_or_else(|| UsageError::UnknownCommand { suggestion: closest_command(&first), word: first })?;
    }
    let command = invocation.command;
    let mut rest_positional = false;
    while let Some(word) = words.next() {
        if rest_positional || !word.starts_with('-') || word == "-" {
            invocation.positional.push(word);
            continue;
        }
        if word == "--" {
            rest_positional = true;
            continue;
        }
        if word == "-h" || word == "--help" {
            continue;
        }
        let (name, inline) = match word.split_once('=') {
            Some((name, value)) => (name.to_string(), Some(value.to_string())),
            None => (word.clone(), None),
        };
        let flag = flags::find(&name).ok_or_else(|| UsageError::UnknownFlag {
            suggestion: suggest::closest(&name, flags::FLAGS.iter().map(|f| f.name)),
            flag: name.clone(),
        })?;
        let for_help = asks_help && flag.applies_to(Command::Help);
        if !(flag.applies_to(command) || for_help) {
            return Err(UsageError::NotForCommand { flag: name, command });
        }
        let text = match (flag.kind, inline) {
            (Kind::Switch, Some(value)) => return Err(UsageError::SwitchWithValue { flag: name, value }),
            (Kind::Switch, None) => None,
            (Kind::OptionalPath, inline) => inline.or_else(|| words.next_if(|w| !w.starts_with('-'))),
            (_, Some(value)) => Some(value),
            (_, None) => Some(words.next().ok_or_else(|| UsageError::MissingValue { flag: name.clone() })?),
        };
        let value = value::read_value(flag.name, flag.kind, text)?;
        if !flag.repeats.contains(&invocation.command) {
            invocation.flags.retain(|(f, _)| *f != flag);
        }
        invocation.flags.push((flag, value));
    }
    if asks_help {
        let mut help = Invocation::help(command);
        help.flags = invocation.flags.into_iter().filter(|(f, _)| f.applies_to(Command::Help)).collect();
        return Ok(help);
    }
    check(&invocation)?;
    Ok(invocation)
}

/// The command word a mistyped one was most likely meant to be.
fn closest_command(word: &str) -> Option<String> {
    suggest::closest(word, COMMANDS.iter().map(|s| s.word).filter(|w| !w.is_empty()))
}

fn check(invocation: &Invocation) -> Result<(), UsageError> {
    let command = invocation.command;
    let (most, needed) = command.positional();
    if let Some(extra) = invocation.positional.get(most) {
        return Err(UsageError::Unexpected { word: extra.clone(), command });
    }
    if let (Some(what), true) = (needed, invocation.positional.is_empty()) {
        return Err(UsageError::Missing { what, command });
    }
    if command == Command::Help {
        if let Some(topic) = invocation.positional.first().filter(|t| Command::parse(t).is_none()) {
            return Err(UsageError::UnknownCommand { word: topic.clone(), suggestion: closest_command(topic) });
        }
    }
    if command == Command::Gen {
        // Either one case of a shape, or every array of a range.
        let every = [&flags::MAX_LEN_FLAG, &flags::VALUES];
        let shaped = [&flags::SHAPE, &flags::LEN, &flags::SEED];
        let (wanted, other) = match every.iter().any(|f| invocation.get(f).is_some()) {
            true => (&every[..], &shaped[..]),
            false => (&shaped[..], &every[..]),
        };
        if let (Some(first), Some(second)) =
            (wanted.iter().find(|f| invocation.get(f).is_some()), other.iter().find(|f| invocation.get(f).is_some()))
        {
            return Err(UsageError::Conflict { first: first.name, second: second.name });
        }
        for required in wanted {
            if invocation.get(required).is_none() {
                return Err(UsageError::Missing { what: required.name, command });
            }
        }
    }
    if invocation.get(&flags::FILE).is_some() && !invocation.positional.is_empty() {
        return Err(UsageError::Conflict { first: "TESTCASES", second: "--file" });
    }
    Ok(())
}

#[cfg(test)]
mod tests;
