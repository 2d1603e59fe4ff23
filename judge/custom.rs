//! `judge run`: one custom input through every strategy, like LeetCode's "Run" button, with
//! the oracle's answer as the expected one.

use std::fs;
use std::io::Read;
use std::path::PathBuf;
use std::time::Duration;

use crate::cases::Case;
use crate::cli::Args;
use crate::error::Error;
use crate::format;
use crate::oracle;
use crate::registry::{self, Entry};
use crate::report::show_duration;
use crate::runner::{self, Limits, Outcome};
use crate::verdict::Verdict;

/// Returns the exit status: 0 when every strategy agrees with the oracle, 1 otherwise.
pub fn run(args: &Args) -> Result<u8, Error> {
    let (text, origin) = read_input(args)?;
    let values = format::parse_input(&text).map_err(|e| Error::Message(format!("{origin}:{e}")))?;
    let entries = registry::named_or_strategies(&args.solutions)?;
    let expected = oracle::answer(&values);
    let case = Case::new("custom".to_string(), PathBuf::from(origin), &text, values, expected);
    let limits = Limits { time_limit: args.time_limit, stack_mb: args.stack_mb };
    if args.plain {
        return plain(&entries, &case, limits);
    }
    println!("input     {}", format::abbreviate(&case.values));
    println!("expected  \"{}\"  (oracle)", expected.as_str());
    let mut all_agree = true;
    let width = entries.iter().map(|e| e.name.len()).max().unwrap_or(0);
    for entry in entries {
        let run = runner::run_solution(entry, Verdict::Ac, std::slice::from_ref(&case), limits);
        let line = match (&run.spawn_error, &run.outcomes[0]) {
            (Some(error), _) => format!("error {error}"),
            (None, Some(o)) => {
                let answer = o.answer.as_ref().map_or(String::new(), |a| format!("{a:?}  "));
                let time = o.nanos.map_or(String::new(), |n| show_duration(Duration::from_nanos(n)));
                let reason = o.reason.as_ref().map_or(String::new(), |r| format!("  {r}"));
                format!("{:<3} {answer}{time}{reason}", o.verdict.code())
            }
            (None, None) => "not run".to_string(),
        };
        all_agree &= run.overall() == Verdict::Ac && run.spawn_error.is_none();
        println!("{:<width$}  {line}", entry.name);
    }
    if !all_agree {
        println!("disagreement: not every solution returned the oracle's answer");
    }
    Ok(if all_agree { 0 } else { 1 })
}

/// `--plain`: only the answer, as LeetCode prints it, for tools such as `oj test -c`.
fn plain(entries: &[&'static Entry], case: &Case, limits: Limits) -> Result<u8, Error> {
    let [entry] = entries else {
        return Err(Error::Usage("'--plain' needs exactly one '--solution'".to_string()));
    };
    // Still in a child: a crash or a hang is reported, not shared.
    let run = runner::run_solution(entry, Verdict::Ac, std::slice::from_ref(case), limits);
    match (&run.spawn_error, &run.outcomes[0]) {
        (None, Some(Outcome { answer: Some(answer), .. })) => {
            println!("{answer:?}");
            Ok(0)
        }
        (Some(error), _) => Err(Error::Message(format!("{}: {error}", entry.name))),
        (None, outcome) => {
            let reason = outcome.as_ref().and_then(|o| o.reason.clone()).unwrap_or_default();
            eprintln!("judge: {}: {reason}", entry.name);
            Ok(1)
        }
    }
}

fn read_input(args: &Args) -> Result<(String, String), Error> {
    match (&args.file, args.positional.first()) {
        (Some(_), Some(_)) => Err(Error::Usage("give the input inline or with '--file', not both".to_string())),
        (Some(path), None) => {
            let text = fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
            Ok((text, path.display().to_string()))
        }
        (None, Some(text)) if text != "-" => Ok((text.clone(), "input".to_string())),
        _ => {
            let mut text = String::new();
            std::io::stdin().read_to_string(&mut text).map_err(|e| Error::io("<stdin>", e))?;
            Ok((text, "<stdin>".to_string()))
        }
    }
}
