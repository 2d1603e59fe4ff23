//! The command line: parsing, the table's checks, and the round trip of every invocation.

use std::time::Duration;

use super::options::{options, Options};
use super::*;

fn parse(words: &[&str]) -> Result<Invocation, UsageError> {
    parse_from(words.iter().map(|w| w.to_string()))
}

#[test]
fn no_arguments_judge_everything_with_the_defaults() {
    let invocation = parse(&[]).unwrap();
    let Ok(Options::Judge(judge)) = options(&invocation) else { panic!() };
    assert_eq!(judge.request.limits, crate::exec::limits::Limits::default());
    assert!(judge.request.solutions.is_empty() && judge.request.cases.is_empty());
}

#[test]
fn values_come_separately_or_after_an_equals_sign() {
    let invocation = parse(&["--solution", "dp_array", "--solution=wrong/greedy", "--time-limit", "250ms"]).unwrap();
    let Ok(Options::Judge(judge)) = options(&invocation) else { panic!() };
    assert_eq!(judge.request.solutions, ["dp_array", "wrong/greedy"]);
    assert_eq!(judge.request.limits.time, Duration::from_millis(250));
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
    assert!(matches!(parse(&["verify", "--values", "3..=1"]), Err(UsageError::BadValue { .. })));
    assert_eq!(parse(&["paste"]), Err(UsageError::Missing { what: "NAME", command: Command::Paste }));
    assert!(matches!(parse(&["paste", "a", "b"]), Err(UsageError::Unexpected { .. })));
    assert_eq!(
        parse(&["gen", "--shape", "zeros", "--len", "3"]),
        Err(UsageError::Missing { what: "--seed", command: Command::Gen })
    );
    let over = parse(&["gen", "--shape", "zeros", "--len", "60000", "--seed", "1"]).unwrap();
    assert!(matches!(options(&over), Err(UsageError::OverLimit { flag: "--len", .. })));
    assert!(matches!(parse(&["help", "strss"]), Err(UsageError::UnknownCommand { .. })));
}

#[test]
fn help_is_asked_three_ways() {
    for words in [&["help", "run"][..], &["run", "--help"], &["run", "-h", "[1]"]] {
        let invocation = parse(words).unwrap();
        assert_eq!(options(&invocation), Ok(Options::Help(Some(Command::Run))), "{words:?}");
    }
    assert_eq!(options(&parse(&["--help"]).unwrap()), Ok(Options::Help(None)));
}

#[test]
fn every_flag_of_every_command_round_trips_through_its_words() {
    let samples: &[(&str, &str)] = &[
        ("--solution", "solutions/my try.rs"),
        ("--case", "edge/max-*"),
        ("--cases", "/tmp/it's here"),
        ("--time-limit", "0.3"),
        ("--memory-limit", "300"),
        ("--stack-mb", "1"),
        ("--jobs", "3"),
        ("--format", "json"),
        ("--color", "never"),
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
        ("--operator", "max-min"),
    ];
    for spec in COMMANDS {
        let mut words: Vec<String> = spec.word.split_whitespace().map(String::from).collect();
        for flag in flags::of(spec.command) {
            words.push(flag.name.to_string());
            if let Some((_, value)) = samples.iter().find(|(n, _)| *n == flag.name) {
                words.push(value.to_string());
            }
        }
        if spec.command == Command::Gen {
            words.retain(|w| w != "--file");
        }
        if matches!(spec.command, Command::Paste | Command::Run) {
            words.push("-lead".into());
        }
        if spec.command == Command::Run {
            words.retain(|w| w != "--file" && w != "in put.txt");
        }
        let Ok(first) = parse_from(words.clone()) else { continue };
        let again = parse_from(first.words()).unwrap_or_else(|e| panic!("{:?}: {e:?}", first.words()));
        assert_eq!(again, first, "{words:?}");
        assert_eq!(options(&again), options(&first));
    }
}

#[test]
fn shell_words_quote_only_what_a_shell_would_split() {
    assert_eq!(shell_word("edge/max-all-1000"), "edge/max-all-1000");
    assert_eq!(shell_word("dp_array#3"), "dp_array#3");
    assert_eq!(shell_word("#3"), "'#3'");
    assert_eq!(shell_word("[1,2,3]"), "'[1,2,3]'");
    assert_eq!(shell_word("it's"), "'it'\\''s'");
    assert_eq!(shell_word(""), "''");
}
