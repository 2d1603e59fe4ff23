//! The judge's own errors: everything that is not a solution's fault. Each prints as one
//! lowercase line that quotes what was wrong.

use std::fmt;
use std::io;
use std::path::PathBuf;

#[derive(Debug)]
pub enum Error {
    /// A bad command line; the message names the offending argument.
    Usage(String),
    /// A file or folder that could not be read or written.
    Io { path: PathBuf, source: io::Error },
    /// A solution name that is not in the registry.
    UnknownSolution { name: String, known: Vec<&'static str> },
    /// A solution file whose `// expect:` line is missing or unknown.
    BadTag { file: &'static str, message: String },
    /// Anything else, already worded.
    Message(String),
}

impl Error {
    pub fn io(path: impl Into<PathBuf>, source: io::Error) -> Error {
        Error::Io { path: path.into(), source }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Error::Usage(message) => {
                write!(f, "{message}\nhint: run 'judge --help' for the options")
            }
            Error::Io { path, source } => {
                write!(f, "{:?}: {}", path.display().to_string(), lowercase_first(&source.to_string()))
            }
            Error::UnknownSolution { name, known } => {
                write!(f, "no solution named {name:?}; known: {}", known.join(", "))
            }
            Error::BadTag { file, message } => write!(f, "{file}: {message}"),
            Error::Message(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for Error {}

/// The OS's "No such file or directory" as "no such file or directory", like our own messages.
fn lowercase_first(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| c.to_lowercase().chain(chars).collect())
}
