//! Colour for the text report: on a terminal by default, never when NO_COLOR is set.

use std::io::IsTerminal;

use crate::cli::ColorChoice;
use crate::verdict::Verdict;

#[derive(Clone, Copy)]
pub struct Style {
    pub color: bool,
}

impl Style {
    pub fn new(choice: ColorChoice) -> Style {
        let color = match choice {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stdout().is_terminal()
            }
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
            Verdict::Tle => "33",
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
