//! Every flag, defined once: its name, the kind and placeholder of its value, the commands it
//! applies to with the default for each, and its help line. The help text, each command's
//! `--help`, the per-command allowlist and the "did you mean" list all come from this table.

use super::Command::{self, Bench, Bless, Gen, Judge, Mutants, Paste, Run, Stress, Verify};

/// How a report is written: the values of `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
}

impl Format {
    pub const ALL: [Format; 2] = [Format::Text, Format::Json];
    /// The `--format` words, in the order of `ALL`.
    pub const NAMES: &[&str] = &["text", "json"];

    pub(super) fn named(word: &str) -> Option<Format> {
        Format::NAMES.iter().position(|n| *n == word).map(|i| Format::ALL[i])
    }
}

/// What a flag's value is, which decides how it is read and checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// No value: present or not.
    Switch,
    /// Any text: a name, a pattern, a path.
    Text,
    /// A whole number of at least `min`.
    Count { min: u64 },
    /// `1`, `0.5`, `1.5s` or `300ms`.
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

pub struct Flag {
    pub name: &'static str,
    pub kind: Kind,
    /// `NAME`, `DURATION`: shown in help, distinct for every kind of value.
    pub placeholder: &'static str,
    /// The commands that take it, each with its default as shown in help (None: no default).
    pub commands: &'static [(Command, Option<&'static str>)],
    /// May be given more than once.
    pub repeats: bool,
    pub help: &'static str,
}

pub const FLAGS: &[Flag] = &[
    Flag {
        name: "--solution",
        kind: Kind::Text,
        placeholder: "NAME",
        commands: &[
            (Judge, Some("every solution")),
            (Run, Some("the strategies")),
            (Stress, Some("the strategies")),
            (Verify, Some("the strategies")),
            (Bench, Some("the strategies")),
            (Mutants, Some("the strategies")),
        ],
        repeats: true,
        help: "only this solution: a name (four_scalars, wrong/sign_slip), its path (solutions/x.rs) or a mutant (dp_array#12)",
    },
    Flag {
        name: "--case",
        kind: Kind::Text,
        placeholder: "PATTERN",
        commands: &[(Judge, Some("every case"))],
        repeats: true,
        help: "only cases whose suite, name or suite/name matches ('*' is a wildcard)",
    },
    Flag {
        name: "--cases",
        kind: Kind::Text,
        placeholder: "DIR",
        commands: &[(Judge, Some("testcases")), (Bless, Some("testcases")), (Stress, Some("testcases")), (Mutants, Some("testcases"))],
        repeats: false,
        help: "the folder of suites (each suite a folder of NAME.in and NAME.out)",
    },
    Flag {
        name: "--time-limit",
        kind: Kind::Duration,
        placeholder: "DURATION",
        commands: &[(Judge, Some("1s")), (Run, Some("1s")), (Stress, Some("1s")), (Verify, Some("1s")), (Bench, Some("1s"))],
        repeats: false,
        help: "wall time of one call (1, 0.5, 1.5s, 300ms); the judge kills a call 50ms past it",
    },
    Flag {
        name: "--memory-limit",
        kind: Kind::Count { min: 1 },
        placeholder: "MIB",
        commands: &[(Judge, Some("256")), (Run, Some("256")), (Stress, Some("256")), (Verify, Some("256"))],
        repeats: false,
        help: "resident memory of a solution's process during one call, in MiB; more is MLE",
    },
    Flag {
        name: "--stack-mb",
        kind: Kind::Count { min: 1 },
        placeholder: "MIB",
        commands: &[(Judge, Some("512")), (Run, Some("512")), (Stress, Some("512")), (Verify, Some("512"))],
        repeats: false,
        help: "stack of the thread that calls the solution, in MiB (reserved; only what is touched counts)",
    },
    Flag {
        name: "--jobs",
        kind: Kind::Count { min: 1 },
        placeholder: "N",
        commands: &[
            (Judge, Some("cores - 1, beside one that runs the strategies alone")),
            (Stress, Some("cores")),
            (Verify, Some("cores")),
            (Mutants, Some("cores")),
        ],
        repeats: false,
        help: "threads that run solutions at the same time",
    },
    Flag {
        name: "--format",
        kind: Kind::Choice(Format::NAMES),
        placeholder: "FORMAT",
        commands: &[
            (Judge, Some("text")),
            (Run, Some("text")),
            (Bless, Some("text")),
            (Stress, Some("text")),
            (Verify, Some("text")),
            (Bench, Some("text")),
            (Mutants, Some("text")),
        ],
        repeats: false,
        help: "text for a person, json for a program",
    },
    Flag {
        name: "--color",
        kind: Kind::Choice(&["auto", "always", "never"]),
        placeholder: "WHEN",
        commands: &[(Judge, Some("auto")), (Run, Some("auto"))],
        repeats: false,
        help: "colour in text reports; auto means on a terminal without NO_COLOR",
    },
    Flag {
        name: "--verbose",
        kind: Kind::Switch,
        placeholder: "",
        commands: &[(Judge, None)],
        repeats: false,
        help: "also show the failures that wrong submissions are expected to have",
    },
    Flag {
        name: "--all-failures",
        kind: Kind::Switch,
        placeholder: "",
        commands: &[(Judge, None)],
        repeats: false,
        help: "show every failure, not the first 3 of each solution",
    },
    Flag {
        name: "--fail-fast",
        kind: Kind::Switch,
        placeholder: "",
        commands: &[(Judge, None)],
        repeats: false,
        help: "stop each solution at its first failure (wrong submissions always do)",
    },
    Flag {
        name: "--file",
        kind: Kind::Text,
        placeholder: "PATH",
        commands: &[(Run, None)],
        repeats: false,
        help: "read the input from this file instead of the command line or stdin",
    },
    Flag {
        name: "--plain",
        kind: Kind::Switch,
        placeholder: "",
        commands: &[(Run, None)],
        repeats: false,
        help: "print only the answer of the one --solution, as LeetCode prints it (for oj test -c)",
    },
    Flag {
        name: "--shape",
        kind: Kind::Shape,
        placeholder: "SHAPE",
        commands: &[(Gen, None), (Stress, Some("every shape"))],
        repeats: true,
        help: "the kind of input the generator makes",
    },
    Flag {
        name: "--len",
        kind: Kind::Count { min: 1 },
        placeholder: "N",
        commands: &[(Gen, None)],
        repeats: false,
        help: "how many values",
    },
    Flag {
        name: "--seed",
        kind: Kind::Count { min: 0 },
        placeholder: "SEED",
        commands: &[(Gen, None), (Stress, Some("1"))],
        repeats: false,
        help: "the seed: the same seed makes the same cases on every machine",
    },
    Flag {
        name: "--count",
        kind: Kind::Count { min: 1 },
        placeholder: "N",
        commands: &[(Stress, Some("100000"))],
        repeats: false,
        help: "how many random cases",
    },
    Flag {
        name: "--max-len",
        kind: Kind::Count { min: 1 },
        placeholder: "N",
        commands: &[(Stress, Some("20")), (Verify, Some("8"))],
        repeats: false,
        help: "the longest array",
    },
    Flag {
        name: "--save",
        kind: Kind::Switch,
        placeholder: "",
        commands: &[(Stress, None)],
        repeats: false,
        help: "store the shrunk counterexample as a case in the regressions suite",
    },
    Flag {
        name: "--values",
        kind: Kind::Range,
        placeholder: "LOW..=HIGH",
        commands: &[(Verify, Some("-3..=3"))],
        repeats: false,
        help: "the range every value is drawn from",
    },
    Flag {
        name: "--sizes",
        kind: Kind::Sizes,
        placeholder: "N,N,...",
        commands: &[(Bench, Some("1000,10000,50000,200000"))],
        repeats: false,
        help: "the input sizes",
    },
    Flag {
        name: "--reps",
        kind: Kind::Count { min: 1 },
        placeholder: "N",
        commands: &[(Bench, Some("31"))],
        repeats: false,
        help: "timed calls per strategy and size, after one warm-up call",
    },
    Flag {
        name: "--svg",
        kind: Kind::OptionalPath,
        placeholder: "[FILE]",
        commands: &[(Bench, None)],
        repeats: false,
        help: "also draw the chart, to FILE or to target/judge/bench.svg (never under testcases/ or solutions/)",
    },
    Flag {
        name: "--check",
        kind: Kind::Switch,
        placeholder: "",
        commands: &[(Bless, None)],
        repeats: false,
        help: "change nothing; exit 1 if anything would change",
    },
    Flag {
        name: "--copy",
        kind: Kind::Switch,
        placeholder: "",
        commands: &[(Paste, None)],
        repeats: false,
        help: "also put the file on the clipboard, through the terminal (OSC 52)",
    },
    Flag {
        name: "--operator",
        kind: Kind::Operator,
        placeholder: "OPERATOR",
        commands: &[(Mutants, Some("every operator"))],
        repeats: true,
        help: "only mutants made by this operator",
    },
];

pub fn find(name: &str) -> Option<&'static Flag> {
    FLAGS.iter().find(|f| f.name == name)
}

impl Flag {
    pub fn applies_to(&self, command: Command) -> bool {
        self.commands.iter().any(|(c, _)| *c == command)
    }

    pub fn default_for(&self, command: Command) -> Option<&'static str> {
        self.commands.iter().find(|(c, _)| *c == command).and_then(|(_, d)| *d)
    }
}

/// The flags a command takes, in table order.
pub fn of(command: Command) -> impl Iterator<Item = &'static Flag> {
    FLAGS.iter().filter(move |f| f.applies_to(command))
}
