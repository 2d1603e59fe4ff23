//! The judge's commands and the options each one takes.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    Judge,
    Run,
    Paste,
    Gen,
    Bless,
    Stress,
    Verify,
    Bench,
    /// Internal: serve one solution to the judge over stdin/stdout.
    Child,
    /// Internal: one call in a fresh process, for `bench` to read its peak memory.
    BenchChild,
    Help,
}

impl Command {
    pub fn parse(word: &str) -> Option<Command> {
        Some(match word {
            "run" => Command::Run,
            "paste" => Command::Paste,
            "gen" => Command::Gen,
            "bless" => Command::Bless,
            "stress" => Command::Stress,
            "verify" => Command::Verify,
            "bench" => Command::Bench,
            "child" => Command::Child,
            "bench-child" => Command::BenchChild,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Command::Judge => "judge",
            Command::Run => "judge run",
            Command::Paste => "judge paste",
            Command::Gen => "judge gen",
            Command::Bless => "judge bless",
            Command::Stress => "judge stress",
            Command::Verify => "judge verify",
            Command::Bench => "judge bench",
            Command::Child => "judge child",
            Command::BenchChild => "judge bench-child",
            Command::Help => "judge --help",
        }
    }

    /// The options each command takes; any other is an error that names it.
    pub fn takes(self, option: &str) -> bool {
        let allowed: &[&str] = match self {
            Command::Judge => &[
                "--solution",
                "--case",
                "--time-limit",
                "--stack-mb",
                "--jobs",
                "--format",
                "--color",
                "--verbose",
                "--cases",
            ],
            Command::Run => &["--file", "--solution", "--stack-mb", "--time-limit", "--plain"],
            Command::Paste => &[],
            Command::Gen => &["--shape", "--len", "--seed"],
            Command::Bless => &["--cases"],
            Command::Stress => {
                &["--seed", "--count", "--max-len", "--shape", "--jobs", "--solution", "--save", "--cases"]
            }
            Command::Verify => &["--max-len", "--values", "--jobs", "--solution"],
            Command::Bench => &["--sizes", "--reps", "--solution", "--svg", "--format"],
            Command::Child => &["--solution", "--stack-mb"],
            Command::BenchChild => &["--solution", "--len", "--seed"],
            Command::Help => &[],
        };
        allowed.contains(&option)
    }
}
