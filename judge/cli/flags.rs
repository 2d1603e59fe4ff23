//! Every flag, defined once: its name, the kind and placeholder of its value, the commands it
//! applies to, its default, its help line, and the field of `Args` it fills. The help text,
//! each command's `--help`, the per-command allowlist, the "did you mean" list and every
//! default value all come from this table.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use super::value::{Kind, Value};
use super::Command::{self, Bench, Bless, Diagnostics, Gen, Help, Judge, Mutants, Paste, Run, Stress, Verify, Watch};
use crate::exec::limits::Limits;
use crate::exec::runner::{self, RunnerKind};
use crate::judging::mutate::Operator;
use crate::judging::workbench::{Cgroup, Sandbox};
use crate::problem::generator::Shape;
use crate::problem::MAX_LEN;

/// How a report is written: the values of `--format`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    #[default]
    Text,
    Json,
}

/// When text reports are coloured: the values of `--color`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Color {
    #[default]
    Auto,
    Always,
    Never,
}

/// Each choice flag's words and what they stand for, in one table: the words help lists and
/// the parser accepts (`Kind::Choice`) are read off it, and so is the value a word sets.
pub const FORMATS: [(&str, Format); 2] = [("text", Format::Text), ("json", Format::Json)];
pub const COLORS: [(&str, Color); 3] = [("auto", Color::Auto), ("always", Color::Always), ("never", Color::Never)];
pub const SANDBOXES: [(&str, Sandbox); 4] = [
    ("auto", Sandbox::Auto),
    ("require", Sandbox::Require),
    ("off", Sandbox::Off),
    ("off-as-root", Sandbox::OffAsRoot),
];
pub const CGROUPS: [(&str, Cgroup); 2] = [("auto", Cgroup::Auto), ("off", Cgroup::Off)];
pub const RUNNERS: [(&str, RunnerKind); 2] = runner::CHOICES;

/// The words of a choice table.
const fn words<T: Copy, const N: usize>(table: &[(&'static str, T); N]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = table[i].0;
        i += 1;
    }
    out
}

static FORMAT_WORDS: [&str; 2] = words(&FORMATS);
static COLOR_WORDS: [&str; 3] = words(&COLORS);
static SANDBOX_WORDS: [&str; 4] = words(&SANDBOXES);
static CGROUP_WORDS: [&str; 2] = words(&CGROUPS);
static RUNNER_WORDS: [&str; 2] = words(&RUNNERS);

/// What a choice flag's word stands for; the parser has refused any other word.
fn chosen<T: Copy>(table: &[(&'static str, T)], value: Value) -> T {
    let word = text(value);
    match table.iter().find(|(w, _)| *w == word) {
        Some(&(_, chosen)) => chosen,
        None => unreachable!("a choice flag read {word:?}, which its kind refuses"),
    }
}

const ANY: u64 = u64::MAX;

/// A default value, made when asked for (a `Value` may own text, so it cannot be a constant).
pub type Typed = fn() -> Value;

/// What a flag is when it is not given.
#[derive(Clone, Copy, Debug)]
pub enum Default {
    /// Nothing: the field keeps its empty value.
    None,
    /// This value, for every command that takes the flag; help shows the word that reads back
    /// to it.
    Value(Typed),
    /// A value per command, where the commands differ.
    PerCommand(&'static [(Command, Typed)]),
    /// Worked out when the command runs; these words say how, per command, in the help.
    Said(&'static [(Command, &'static str)]),
    /// Worked out when the command runs, the same way for every command that takes the flag.
    SaidAlike(&'static str),
}

pub struct Flag {
    pub name: &'static str,
    pub kind: Kind,
    /// `NAME`, `DURATION`: shown in help, distinct for every kind of value.
    pub placeholder: &'static str,
    pub commands: &'static [Command],
    pub default: Default,
    /// The commands that take it more than once (the others keep the last one given).
    pub repeats: &'static [Command],
    pub help: &'static str,
    /// Writes a value of this flag into the options.
    pub set: fn(&mut Args, Value),
}

impl fmt::Debug for Flag {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// The table is written as chains: a flag applies to no command, has no default and keeps the
/// last value given, until its chain says otherwise.
impl Flag {
    /// A flag that takes no value: present or not.
    const fn switch(name: &'static str) -> Flag {
        Flag::value(name, "", Kind::Switch)
    }

    /// A flag that takes a value of `kind`, shown in help as `placeholder`.
    const fn value(name: &'static str, placeholder: &'static str, kind: Kind) -> Flag {
        let set = |_: &mut Args, value| unreachable!("a flag without a setter read {value:?}");
        Flag { name, kind, placeholder, commands: &[], default: Default::None, repeats: &[], help: "", set }
    }

    const fn commands(self, commands: &'static [Command]) -> Flag {
        Flag { commands, ..self }
    }

    const fn default(self, default: Default) -> Flag {
        Flag { default, ..self }
    }

    const fn repeats(self, repeats: &'static [Command]) -> Flag {
        Flag { repeats, ..self }
    }

    const fn help(self, help: &'static str) -> Flag {
        Flag { help, ..self }
    }

    const fn set(self, set: fn(&mut Args, Value)) -> Flag {
        Flag { set, ..self }
    }
}

impl PartialEq for Flag {
    fn eq(&self, other: &Flag) -> bool {
        self.name == other.name
    }
}

/// Every option of every command, typed. A command reads the fields of its own flags; each
/// starts at its flag's default (see `Args::defaults`), the others at their empty value.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Args {
    pub solutions: Vec<String>,
    pub cases: Vec<String>,
    pub cases_dir: Option<PathBuf>,
    pub time_limit: Duration,
    pub compile_limit: Duration,
    pub memory_mib: u64,
    pub stack_mib: u64,
    /// None: one per core, worked out by the command.
    pub jobs: Option<usize>,
    pub format: Format,
    pub color: Color,
    pub sandbox: Sandbox,
    pub cgroup: Cgroup,
    pub runner: RunnerKind,
    pub leetcode_rust: String,
    pub verbose: bool,
    pub all_failures: bool,
    pub fail_fast: bool,
    /// `--width`: the columns a text report fits; None for the terminal's.
    pub width: Option<usize>,
    pub full_matrix: bool,
    pub file: Option<PathBuf>,
    pub plain: bool,
    pub shapes: Vec<Shape>,
    pub len: usize,
    pub seed: u64,
    pub count: u64,
    pub max_len: usize,
    pub save: bool,
    pub values: (i32, i32),
    pub yes: bool,
    pub sizes: Vec<usize>,
    pub reps: u32,
    /// `--svg`: None when not given; Some(None) for the default place.
    pub svg: Option<Option<PathBuf>>,
    /// `--html`: None when not given; Some(None) for the default place.
    pub html: Option<Option<PathBuf>>,
    pub check: bool,
    pub copy: bool,
    pub operators: Vec<Operator>,
    /// The words that are not flags: an input, a name, a command for help.
    pub positional: Vec<String>,
}

fn text(value: Value) -> String {
    match value {
        Value::Text(text) => text,
        other => unreachable!("a text flag read {other:?}"),
    }
}

fn count(value: Value) -> u64 {
    match value {
        Value::Count(n) => n,
        other => unreachable!("a count flag read {other:?}"),
    }
}

/// The flags, in the order help lists them.
pub static FLAGS: [&Flag; 36] = [
    &SOLUTION,
    &CASE,
    &CASES,
    &TIME_LIMIT,
    &COMPILE_LIMIT,
    &MEMORY_LIMIT,
    &STACK_MB,
    &JOBS,
    &FORMAT,
    &COLOR,
    &SANDBOX,
    &CGROUP,
    &RUNNER,
    &LEETCODE_RUST,
    &VERBOSE,
    &ALL_FAILURES,
    &FAIL_FAST,
    &WIDTH,
    &FULL_MATRIX,
    &FILE,
    &PLAIN,
    &SHAPE,
    &LEN,
    &SEED,
    &COUNT,
    &MAX_LEN_FLAG,
    &SAVE,
    &VALUES,
    &YES,
    &SIZES,
    &REPS,
    &SVG,
    &HTML,
    &CHECK,
    &COPY,
    &OPERATOR,
];

pub static SOLUTION: Flag = Flag::value("--solution", "NAME", Kind::Text)
    .commands(&[Judge, Run, Stress, Verify, Bench, Mutants, Watch, Diagnostics])
    .default(Default::Said(&[
        (Judge, "every solution"),
        (Run, "the strategies"),
        (Stress, "the strategies"),
        (Verify, "the strategies"),
        (Bench, "the strategies"),
        (Mutants, "the strategies"),
        (Watch, "every solution not under wrong/"),
        (Diagnostics, "FILE, or every solution when no FILE is given"),
    ]))
    .repeats(&[Judge, Run, Stress, Verify, Bench, Mutants, Watch, Diagnostics])
    .help("only this solution: a name (four_scalars, wrong/sign_slip), its path (solutions/x.rs) or a mutant (dp_array#12)")
    .set(|args, value| args.solutions.push(text(value)));

pub static CASE: Flag = Flag::value("--case", "PATTERN", Kind::Text)
    .commands(&[Judge, Watch, Diagnostics])
    .default(Default::SaidAlike("every case"))
    .repeats(&[Judge, Watch, Diagnostics])
    .help("only cases whose suite, name or suite/name matches ('*' is a wildcard)")
    .set(|args, value| args.cases.push(text(value)));

pub static CASES: Flag = Flag::value("--cases", "DIR", Kind::Text)
    .commands(&[Judge, Bless, Stress, Mutants, Watch, Diagnostics])
    .default(Default::SaidAlike("testcases"))
    .help("the folder of suites (each suite a folder of NAME.in and NAME.out)")
    .set(|args, value| args.cases_dir = Some(PathBuf::from(text(value))));

pub static TIME_LIMIT: Flag = Flag::value("--time-limit", "DURATION", Kind::Duration)
    .commands(&[Judge, Run, Stress, Verify, Bench, Watch, Mutants, Diagnostics])
    .default(Default::Value(|| Value::Duration(crate::exec::limits::DEFAULT.time)))
    .help("time of one call (1, 0.5, 1.5s, 300ms, 2min, 1h): the CPU time of the solution's processes since the last answer; past it TLE, and so is 2.5 times it off the CPU by the solution's own doing")
    .set(|args, value| match value {
        Value::Duration(time) => args.time_limit = time,
        other => unreachable!("--time-limit read {other:?}"),
    });

pub static COMPILE_LIMIT: Flag = Flag::value("--compile-limit", "DURATION", Kind::Duration)
    .commands(&[Judge, Run, Paste, Stress, Verify, Bench, Watch, Mutants, Diagnostics])
    .default(Default::Value(|| Value::Duration(crate::exec::limits::COMPILE_LIMIT)))
    .help("wall time of one rustc run by the judge's clock; past it the file is CE (compile time limit)")
    .set(|args, value| match value {
        Value::Duration(time) => args.compile_limit = time,
        other => unreachable!("--compile-limit read {other:?}"),
    });

pub static MEMORY_LIMIT: Flag = Flag::value("--memory-limit", "MIB", Kind::Count { min: 1, max: ANY })
    .commands(&[Judge, Run, Stress, Verify, Watch, Mutants, Diagnostics])
    .default(Default::Value(|| Value::Count(crate::exec::limits::DEFAULT.memory_mib)))
    .help("memory of a solution's processes during one call, in MiB (all its cgroup holds, where there is one); more is MLE")
    .set(|args, value| args.memory_mib = count(value));

pub static STACK_MB: Flag = Flag::value("--stack-mb", "MIB", Kind::Count { min: 1, max: ANY })
    .commands(&[Judge, Run, Stress, Verify, Watch, Mutants, Diagnostics])
    .default(Default::Value(|| Value::Count(crate::exec::limits::DEFAULT.stack_mib)))
    .help("stack of the thread that calls the solution, in MiB; reaching its end is RE (stack overflow)")
    .set(|args, value| args.stack_mib = count(value));

pub static JOBS: Flag = Flag::value("--jobs", "N", Kind::Count { min: 1, max: ANY })
    .commands(&[Judge, Stress, Verify, Mutants, Diagnostics])
    .default(Default::Said(&[
        (Judge, "one per core for the calls that wait on a limit, beside the strategies"),
        (Diagnostics, "one per core"),
        (Stress, "one per core"),
        (Verify, "one per core"),
        (Mutants, "one per core"),
    ]))
    .help("threads that run solutions at the same time")
    .set(|args, value| args.jobs = Some(count(value) as usize));

pub static FORMAT: Flag = Flag::value("--format", "FORMAT", Kind::Choice(&FORMAT_WORDS))
    .commands(&[Judge, Run, Paste, Bless, Stress, Verify, Bench, Mutants])
    .default(Default::Value(|| Value::Text(FORMATS[0].0.into())))
    .help("text for a person, json for a program (errors too)")
    .set(|args, value| args.format = chosen(&FORMATS, value));

pub static COLOR: Flag = Flag::value("--color", "WHEN", Kind::Choice(&COLOR_WORDS))
    .commands(&[Judge, Run, Watch])
    .default(Default::Value(|| Value::Text(COLORS[0].0.into())))
    .help("colour in text reports; auto means on a terminal without NO_COLOR")
    .set(|args, value| args.color = chosen(&COLORS, value));

pub static SANDBOX: Flag = Flag::value("--sandbox", "WHEN", Kind::Choice(&SANDBOX_WORDS))
    .commands(&[Judge, Run, Paste, Stress, Verify, Bench, Mutants, Watch, Diagnostics])
    .default(Default::Value(|| Value::Text(SANDBOXES[0].0.into())))
    .help("run solutions and rustc in a sandbox of their own namespaces: auto (where the kernel allows), require, off (refused to root: off-as-root trusts the code with root)")
    .set(|args, value| args.sandbox = chosen(&SANDBOXES, value));

pub static CGROUP: Flag = Flag::value("--cgroup", "WHEN", Kind::Choice(&CGROUP_WORDS))
    .commands(&[Judge, Run, Stress, Verify, Bench, Mutants, Watch, Diagnostics])
    .default(Default::Value(|| Value::Text(CGROUPS[0].0.into())))
    .help("a cgroup per child, where one can be made: the kernel counts all its memory and CPU time, and holds it to one CPU; off reads /proc")
    .set(|args, value| args.cgroup = chosen(&CGROUPS, value));

pub static RUNNER: Flag = Flag::value("--runner", "WHICH", Kind::Choice(&RUNNER_WORDS))
    .commands(&[Judge, Run, Paste, Stress, Verify, Bench, Mutants, Watch, Diagnostics])
    .default(Default::Value(|| Value::Text(runner::BEST.rules().word.into())))
    .help(runner::HELP)
    .set(|args, value| args.runner = chosen(&RUNNERS, value));

pub static LEETCODE_RUST: Flag = Flag::value("--leetcode-rust", "VERSION", Kind::Version)
    .commands(&[Judge, Run, Paste, Watch, Diagnostics])
    .default(Default::Value(|| Value::Text(crate::problem::leetcode::RUST_VERSION.into())))
    .help("the Rust version LeetCode compiles with: built by that version where rustup has it, else std APIs newer than it are named (paste: refused)")
    .set(|args, value| args.leetcode_rust = text(value));

pub static VERBOSE: Flag = Flag::switch("--verbose")
    .commands(&[Judge, Paste, Watch])
    .help("also show the failures wrong submissions are expected to have, and rustc's whole diagnostics")
    .set(|args, _| args.verbose = true);

pub static ALL_FAILURES: Flag = Flag::switch("--all-failures")
    .commands(&[Judge, Watch])
    .help("judge and show every failure: no stop after 3 TLE, every failure block")
    .set(|args, _| args.all_failures = true);

pub static FAIL_FAST: Flag = Flag::switch("--fail-fast")
    .commands(&[Judge, Watch])
    .help("stop each solution at its first failure (wrong submissions always do)")
    .set(|args, _| args.fail_fast = true);

pub static WIDTH: Flag = Flag::value("--width", "COLUMNS", Kind::Count { min: 40, max: 1000 })
    .commands(&[Judge, Run, Stress, Verify, Watch, Bench, Help, Paste, Mutants])
    .default(Default::SaidAlike("the terminal's, or 100"))
    .help("the columns the text report fits in; lines wrap, commands continue with a backslash")
    .set(|args, value| args.width = Some(count(value) as usize));

pub static FULL_MATRIX: Flag = Flag::switch("--full-matrix")
    .commands(&[Judge, Watch])
    .help("a matrix column for every solution, with times and whole case names, and every wrong submission listed, whatever the width")
    .set(|args, _| args.full_matrix = true);

pub static FILE: Flag = Flag::value("--file", "PATH", Kind::Text)
    .commands(&[Run, Stress])
    .help("read the testcases from this file, one per line (a stored .in is one); stress tries them before the random cases")
    .set(|args, value| args.file = Some(PathBuf::from(text(value))));

pub static PLAIN: Flag = Flag::switch("--plain")
    .commands(&[Run])
    .help("print only the answers of the one --solution, as LeetCode prints them (for oj test -c)")
    .set(|args, _| args.plain = true);

pub static SHAPE: Flag = Flag::value("--shape", "SHAPE", Kind::Shape)
    .commands(&[Gen, Stress])
    .default(Default::Said(&[(Stress, "every shape")]))
    .repeats(&[Stress])
    .help("the kind of input the generator makes")
    .set(|args, value| match value {
        Value::Shape(shape) => args.shapes.push(shape),
        other => unreachable!("--shape read {other:?}"),
    });

pub static LEN: Flag = Flag::value("--len", "N", Kind::Count { min: 1, max: MAX_LEN as u64 })
    .commands(&[Gen])
    .help("how many values")
    .set(|args, value| args.len = count(value) as usize);

pub static SEED: Flag = Flag::value("--seed", "SEED", Kind::Count { min: 0, max: ANY })
    .commands(&[Gen, Stress])
    .default(Default::PerCommand(&[(Stress, || Value::Count(1))]))
    .help("the seed: the same seed makes the same cases on every machine")
    .set(|args, value| args.seed = count(value));

pub static COUNT: Flag = Flag::value("--count", "N", Kind::Count { min: 1, max: ANY })
    .commands(&[Stress])
    .default(Default::Value(|| Value::Count(100_000)))
    .help("how many random cases")
    .set(|args, value| args.count = count(value));

pub static MAX_LEN_FLAG: Flag = Flag::value("--max-len", "N", Kind::Count { min: 1, max: MAX_LEN as u64 })
    .commands(&[Gen, Stress, Verify])
    .default(Default::PerCommand(&[(Stress, || Value::Count(20)), (Verify, || Value::Count(8))]))
    .help("the longest array")
    .set(|args, value| args.max_len = count(value) as usize);

pub static SAVE: Flag = Flag::switch("--save")
    .commands(&[Stress, Verify])
    .help("store the shrunk counterexample as a case in the regressions suite (unless the same input is stored)")
    .set(|args, _| args.save = true);

pub static VALUES: Flag = Flag::value("--values", "LOW..=HIGH", Kind::Range)
    .commands(&[Gen, Verify])
    .default(Default::PerCommand(&[(Verify, || Value::Range(-3, 3))]))
    .help("the range every value is drawn from")
    .set(|args, value| match value {
        Value::Range(low, high) => args.values = (low, high),
        other => unreachable!("--values read {other:?}"),
    });

pub static YES: Flag = Flag::switch("--yes")
    .commands(&[Verify])
    .help("start even when the estimate says the run will take more than a minute")
    .set(|args, _| args.yes = true);

pub static SIZES: Flag = Flag::value("--sizes", "N,N,...", Kind::Sizes)
    .commands(&[Bench])
    .default(Default::Value(|| Value::Sizes(vec![1000, 10_000, 50_000, 200_000])))
    .help("the input sizes")
    .set(|args, value| match value {
        Value::Sizes(sizes) => args.sizes = sizes,
        other => unreachable!("--sizes read {other:?}"),
    });

pub static REPS: Flag = Flag::value("--reps", "N", Kind::Count { min: 1, max: u32::MAX as u64 })
    .commands(&[Bench])
    .default(Default::Value(|| Value::Count(31)))
    .help("timed calls per strategy and size, after one warm-up call")
    .set(|args, value| args.reps = count(value) as u32);

pub static SVG: Flag = Flag::value("--svg", "[FILE]", Kind::OptionalPath)
    .commands(&[Bench])
    .help("also draw the chart, to FILE or to target/judge/bench.svg (never under testcases/ or solutions/)")
    .set(|args, value| match value {
        Value::OptionalPath(path) => args.svg = Some(path.map(PathBuf::from)),
        other => unreachable!("--svg read {other:?}"),
    });

/// Where `--html` writes the page when no FILE is given, in the build cache (`target/judge/`):
/// the judge's and watch's, and bench's.
pub const PAGE: &str = "report.html";
pub const BENCH_PAGE: &str = "bench.html";

pub static HTML: Flag = Flag::value("--html", "[FILE]", Kind::OptionalPath)
    .commands(&[Judge, Bench, Watch])
    .help("also write the report as one page (matrix, comparison chart, failures, sources) to FILE or to target/judge/report.html (bench: bench.html), and print its file:// link; watch rewrites it at every save (never under testcases/ or solutions/)")
    .set(|args, value| match value {
        Value::OptionalPath(path) => args.html = Some(path.map(PathBuf::from)),
        other => unreachable!("--html read {other:?}"),
    });

pub static CHECK: Flag = Flag::switch("--check")
    .commands(&[Bless])
    .help("change nothing; exit 1 if anything would change")
    .set(|args, _| args.check = true);

pub static COPY: Flag = Flag::switch("--copy")
    .commands(&[Paste])
    .help("also put the file on the clipboard, through the terminal (OSC 52)")
    .set(|args, _| args.copy = true);

pub static OPERATOR: Flag = Flag::value("--operator", "OPERATOR", Kind::Operator)
    .commands(&[Mutants])
    .default(Default::Said(&[(Mutants, "every operator")]))
    .repeats(&[Mutants])
    .help("only mutants made by this operator")
    .set(|args, value| match value {
        Value::Operator(operator) => args.operators.push(operator),
        other => unreachable!("--operator read {other:?}"),
    });

/// The options that decide a verdict: a command printed to reproduce a failure carries them.
pub static VERDICT: [&Flag; 6] = [&TIME_LIMIT, &MEMORY_LIMIT, &STACK_MB, &COMPILE_LIMIT, &SANDBOX, &RUNNER];

pub fn find(name: &str) -> Option<&'static Flag> {
    FLAGS.iter().copied().find(|f| f.name == name)
}

impl Flag {
    pub fn applies_to(&self, command: Command) -> bool {
        self.commands.contains(&command)
    }

    /// The default as help shows it, for one command: the word that reads back to the
    /// default value, or the words that say how it is worked out.
    pub fn default_for(&self, command: Command) -> Option<String> {
        match self.default {
            Default::Said(table) => table.iter().find(|(c, _)| *c == command).map(|(_, said)| said.to_string()),
            Default::SaidAlike(said) => Some(said.to_string()),
            _ => self.default_value(command)?.word(),
        }
    }

    /// The default as a value, where it is one.
    pub(super) fn default_value(&self, command: Command) -> Option<Value> {
        match self.default {
            Default::Value(value) => Some(value()),
            Default::PerCommand(table) => table.iter().find(|(c, _)| *c == command).map(|(_, value)| value()),
            Default::None | Default::Said(_) | Default::SaidAlike(_) => None,
        }
    }
}

/// The flags a command takes, in table order.
pub fn of(command: Command) -> impl Iterator<Item = &'static Flag> {
    FLAGS.iter().copied().filter(move |f| f.applies_to(command))
}

impl Args {
    /// The limits every call runs under.
    pub fn limits(&self) -> Limits {
        Limits { time: self.time_limit, memory_mib: self.memory_mib, stack_mib: self.stack_mib }
    }

    /// What every field is when no flag is given to `command`: each flag's default, from the table.
    pub fn defaults(command: Command) -> Args {
        // Commands without `--leetcode-rust` still compile as LeetCode does.
        let mut args = Args { leetcode_rust: crate::problem::leetcode::RUST_VERSION.to_string(), ..Args::default() };
        for flag in of(command) {
            if let Some(value) = flag.default_value(command) {
                (flag.set)(&mut args, value);
            }
        }
        args
    }
}
