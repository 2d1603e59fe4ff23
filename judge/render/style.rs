//! Colour for text reports: on a terminal by default, never when NO_COLOR is set.

use std::io::IsTerminal;

use crate::cli::Color;
use crate::judging::verdict::Verdict;

#[derive(Clone, Copy, Debug)]
pub struct Style {
    pub color: bool,
}

impl Style {
    pub fn new(choice: Color) -> Style {
        let color = match choice {
            Color::Always => true,
            Color::Never => false,
            Color::Auto => std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stdout().is_terminal(),
        };
        Style { color }
    }

    fn paint(self, code: &str, text: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    /// `text` (already padded) in the verdict's colour.
    pub fn verdict(self, verdict: Verdict, text: &str) -> String {
        let code = match verdict {
            Verdict::Ac => "32",
            Verdict::Wa => "31",
            Verdict::Re => "35",
            Verdict::Tle | Verdict::Mle | Verdict::Ole => "33",
            Verdict::Ce => "36",
        };
        self.paint(code, text)
    }

    pub fn good(self, text: &str) -> String {
        self.paint("32", text)
    }

    pub fn bad(self, text: &str) -> String {
        self.paint("1;31", text)
    }

    pub fn dim(self, text: &str) -> String {
        self.paint("2", text)
    }

    pub fn bold(self, text: &str) -> String {
        self.paint("1", text)
    }
}
