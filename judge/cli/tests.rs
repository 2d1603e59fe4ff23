//! The command line: parsing, the table's checks, and the round trip of every invocation.

use std::time::Duration;

use super::*;

fn parse(words: &[&str]) -> Result<Invocation, UsageError> {
    parse_from(words.iter().map(|w| w.to_string()))
}

/// A value for every flag that takes one, other than its default for any command.
const SAMPLES: &[(&str, &str)] = &[
    ("--solution", "solutions/my try.rs"),
    ("--case", "edge/max-*"),
    ("--cases", "/tmp/it's here"),
    ("--time-limit", "0.3"),
    ("--compile-limit", "45s"),
    ("--memory-limit", "300"),
    ("--stack-mb", "1"),
    ("--jobs", "3"),
    ("--format", "json"),
    ("--color", "never"),
    ("--sandbox", "off"),
    ("--cgroup", "off"),
    ("--runner", "portable"),
    ("--leetcode-rust", "1.79"),
    ("--width", "80"),
    ("--file", "in put.txt"),
    ("--shape", "periodic"),
    ("--len", "7"),
    ("--seed", "18446744073709551615"),
    ("--count", "1_000"),
    ("--max-len", "5"),
    ("--values", "-2..=2"),
    ("--sizes", "10,20"),
    ("--reps", "3"),
    ("--svg", "out.svg"),
    ("--html", "page.html"),
    ("--operator", "max-min"),
];

/// Every flag of `command` with a sample value, and the positional words it needs.
fn every_flag(command: Command) -> Vec<String> {
    let mut words: Vec<String> = command.word().split_whitespace().map(String::from).collect();
    for flag in flags::of(command) {
        if matches!(command, Command::Run | Command::Stress) && flag.name == "--file" {
            continue;
        }
        // gen makes one shaped case or every array of a range, not both.
        if command == Command::Gen && ["--max-len", "--values"].contains(&flag.name) {
            continue;
        }
        words.push(flag.name.to_string());
        if let Some((_, value)) = SAMPLES.iter().find(|(n, _)| *n == flag.name) {
            words.push(value.to_string());
        }
    }
    match command {
        Command::Paste | Command::Run | Command::Stress | Command::New => words.extend(["--".into(), "-lead".into()]),
        Command::Help => words.push("stress".into()),
        _ => {}
    }
    words
}

#[test]
fn no_arguments_judge_everything_with_the_defaults() {
    let args = parse(&[]).unwrap().args();
    assert_eq!((args.time_limit, args.memory_mib, args.stack_mib), (Duration::from_secs(1), 256, 64));
    assert!(args.solutions.is_empty() && args.cases.is_empty());
    assert_eq!(args.format, Format::Text);
}

#[test]
fn defaults_differ_by_command_only_where_the_table_says() {
    let stress = parse(&["stress"]).unwrap().args();
    let verify = parse(&["verify"]).unwrap().args();
    assert_eq!((stress.max_len, verify.max_len), (20, 8));
    assert_eq!((stress.count, stress.seed), (100_000, 1));
    assert_eq!(verify.values, (-3, 3));
}

#[test]
fn values_come_separately_or_after_an_equals_sign() {
    let args = parse(&["--solution", "dp_array", "--solution=wrong/greedy", "--time-limit", "250ms"]).unwrap().args();
    assert_eq!(args.solutions, ["dp_array", "wrong/greedy"]);
    assert_eq!(args.time_limit, Duration::from_millis(250));
}

#[test]
fn a_time_reads_in_every_unit_the_help_names_up_to_an_hour() {
    let time = |word: &str| parse(&["--time-limit", word]).map(|i| i.args().time_limit);
    for (word, ms) in [("1", 1000), ("0.5", 500), ("1.5s", 1500), ("300ms", 300), ("2min", 120_000), ("2m", 120_000)] {
        assert_eq!(time(word), Ok(Duration::from_millis(ms)), "{word}");
    }
    assert_eq!(time("1h"), Ok(Duration::from_secs(3600)));
    assert!(time("1.5h").is_err() && time("0ms").is_err() && time("1d").is_err());
}

#[test]
fn bad_words_are_named_with_a_suggestion() {
    assert_eq!(parse(&["rnu"]), Err(UsageError::UnknownCommand { word: "rnu".into(), suggestion: Some("run".into()) }));
    assert_eq!(
        parse(&["--solutoin", "x"]),
        Err(UsageError::UnknownFlag { flag: "--solutoin".into(), suggestion: Some("--solution".into()) })
    );
    assert_eq!(parse(&["--svg"]), Err(UsageError::NotForCommand { flag: "--svg".into(), command: Command::Judge }));
    assert!(matches!(parse(&["--jobs", "0"]), Err(UsageError::BadValue { .. })));
    assert_eq!(parse(&["--time-limit"]), Err(UsageError::MissingValue { flag: "--time-limit".into() }));
    assert!(matches!(parse(&["stress", "--save=false"]), Err(UsageError::SwitchWithValue { .. })));
    assert!(matches!(parse(&["--time-limit", "1e-12"]), Err(UsageError::BadValue { .. })));
    assert!(matches!(parse(&["--time-limit", "61min"]), Err(UsageError::BadValue { .. })));
    assert!(matches!(parse(&["--width", "20"]), Err(UsageError::BadValue { .. })));
    assert!(matches!(parse(&["verify", "--values", "3..=1"]), Err(UsageError::BadValue { .. })));
    assert_eq!(parse(&["paste"]), Err(UsageError::Missing { what: "NAME", command: Command::Paste }));
    assert!(matches!(parse(&["paste", "a", "b"]), Err(UsageError::Unexpected { .. })));
    assert_eq!(
        parse(&["gen", "--shape", "zeros", "--len", "3"]),
        Err(UsageError::Missing { what: "--seed", command: Command::Gen })
    );
    assert!(matches!(
        parse(&["gen", "--shape", "zeros", "--len", "60000", "--seed", "1"]),
        Err(UsageError::OverLimit { flag: "--len", value: 60000, most: 50000 })
    ));
    assert!(matches!(parse(&["help", "strss"]), Err(UsageError::UnknownCommand { .. })));
}

#[test]
fn help_is_asked_three_ways() {
    for words in [&["help", "run"][..], &["run", "--help"], &["run", "-h", "[1]"]] {
        let invocation = parse(words).unwrap();
        assert_eq!((invocation.command, invocation.positional.as_slice()), (Command::Help, &["run".to_string()][..]));
    }
    assert_eq!(parse(&["--help"]).unwrap(), Invocation::new(Command::Help));
    // The help's width holds wherever it stands, for a command that has no width of its own too.
    for words in
        [&["run", "--help", "--width", "60"][..], &["new", "--width", "60", "--help"], &["--help", "--width=60"]]
    {
        let invocation = parse(words).unwrap_or_else(|e| panic!("{words:?}: {e:?}"));
        assert_eq!((invocation.command, invocation.args().width), (Command::Help, Some(60)), "{words:?}");
    }
}

#[test]
fn every_flag_of_every_command_round_trips_through_its_words() {
    for spec in COMMANDS {
        let words = every_flag(spec.command);
        let first = parse_from(words.clone()).unwrap_or_else(|e| panic!("{words:?} does not parse: {e:?}"));
        let again = parse_from(first.words()).unwrap_or_else(|e| panic!("{:?}: {e:?}", first.words()));
        assert_eq!(again, first, "{words:?}");
        assert_eq!(again.args(), first.args());
    }
}

#[test]
fn every_flag_fills_its_own_field() {
    for spec in COMMANDS {
        for flag in flags::of(spec.command) {
            let mut words: Vec<String> = spec.command.word().split_whitespace().map(String::from).collect();
            words.push(flag.name.to_string());
            if let Some((_, value)) = SAMPLES.iter().find(|(n, _)| *n == flag.name) {
                words.push(value.to_string());
            }
            if spec.command == Command::Paste {
                words.push("x".into());
            }
            if spec.command == Command::Gen {
                let shaped = [("--shape", "zeros"), ("--len", "3"), ("--seed", "1")];
                let every = [("--max-len", "3"), ("--values", "-1..=1")];
                let mode = if every.iter().any(|(n, _)| *n == flag.name) { &every[..] } else { &shaped[..] };
                for (name, value) in mode {
                    if *name != flag.name {
                        words.extend([name.to_string(), value.to_string()]);
                    }
                }
            }
            let given = parse_from(words.clone()).unwrap_or_else(|e| panic!("{words:?}: {e:?}"));
            let without = given.clone().set(flag, None);
            assert_ne!(given.args(), without.args(), "{} changes nothing for '{}'", flag.name, spec.word);
        }
    }
}

#[test]
fn gen_takes_a_shaped_case_or_a_range_not_both() {
    let every = parse(&["gen", "--max-len", "5", "--values", "-2..=2"]).unwrap().args();
    assert_eq!((every.max_len, every.values), (5, (-2, 2)));
    assert_eq!(parse(&["gen", "--max-len", "5"]), Err(UsageError::Missing { what: "--values", command: Command::Gen }));
    assert_eq!(
        parse(&["gen", "--values", "-2..=2", "--max-len", "5", "--len", "3"]),
        Err(UsageError::Conflict { first: "--max-len", second: "--len" })
    );
    assert_eq!(parse(&["verify"]).unwrap().args().values, (-3, 3), "verify keeps its default range");
}

#[test]
fn shell_words_quote_only_what_a_shell_would_split() {
    assert_eq!(shell_word("edge/max-all-1000"), "edge/max-all-1000");
    assert_eq!(shell_word("dp_array#3"), "dp_array#3");
    assert_eq!(shell_word("#3"), "'#3'");
    assert_eq!(shell_word("[1,2,3]"), "'[1,2,3]'");
    assert_eq!(shell_word("it's"), "'it'\\''s'");
    assert_eq!(shell_word(""), "''");
    assert_eq!(shell_word("a\u{1b}[31mb"), "'a'$'\\x1b''[31mb'");
}

#[test]
fn json_is_seen_in_words_that_do_not_parse() {
    let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(wants_json(words(&["--solutoin", "x", "--format", "json"])));
    assert!(wants_json(words(&["run", "--format=json"])));
    assert!(!wants_json(words(&["run", "json"])));
}

#[test]
fn every_default_is_a_typed_value_whose_word_reads_back_to_it() {
    for spec in COMMANDS {
        for flag in flags::of(spec.command) {
            let Some(value) = flag.default_value(spec.command) else { continue };
            // The word help shows reads back to the typed default.
            let word = flag.default_for(spec.command).expect("a default value has a word");
            let read = value::read_value(flag.name, flag.kind, Some(word.clone()));
            assert_eq!(read.as_ref(), Ok(&value), "{} {} (help shows {word})", spec.word, flag.name);
        }
    }
    // Each choice's words are its table's, and each word sets what the table says.
    for (word, format) in flags::FORMATS {
        assert_eq!(parse(&["--format", word]).unwrap().args().format, format);
    }
    for (word, sandbox) in flags::SANDBOXES {
        assert_eq!(parse(&["--sandbox", word]).unwrap().args().sandbox, sandbox);
    }
    for (word, runner) in flags::RUNNERS {
        assert_eq!(parse(&["--runner", word]).unwrap().args().runner, runner);
    }
    for (word, cgroup) in flags::CGROUPS {
        assert_eq!(parse(&["--cgroup", word]).unwrap().args().cgroup, cgroup);
    }
    for (word, color) in flags::COLORS {
        assert_eq!(parse(&["--color", word]).unwrap().args().color, color);
    }
    assert!(parse(&["--sandbox", "sometimes"]).is_err(), "an unknown choice is an error");
}

#[test]
fn every_example_parses_and_is_its_own_commands() {
    for spec in COMMANDS {
        let example = spec.example();
        assert_eq!(example.command, spec.command, "{:?}", spec.example);
        assert!(example.shell().starts_with(&format!("{PROGRAM} {}", spec.word).trim_end().to_string()));
    }
}

/// The short command every printed command starts with is what `.cargo/config.toml` makes it:
/// `cargo judge` is `cargo run --release --`.
#[test]
fn the_short_command_is_the_workspaces_cargo_alias() {
    let config = include_str!("../../.cargo/config.toml");
    let alias = PROGRAM.strip_prefix("cargo ").unwrap();
    let line = config.lines().find(|l| l.starts_with(&format!("{alias} ="))).unwrap_or_else(|| panic!("{config}"));
    assert_eq!(line, format!("{alias} = [\"run\", \"--release\", \"--\"]"));
    assert!(config.contains("[alias]"), "{config}");
}
