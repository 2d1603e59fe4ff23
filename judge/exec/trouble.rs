//! The judge's own trouble: what it was doing when the system refused, and the system's error,
//! kept whole (its kind and its words) to the line a user reads. A submission's mistakes are
//! verdicts; this is everything that is the judge's or the machine's.

use std::io;
use std::path::PathBuf;
use std::sync::Arc;

/// What the judge was doing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Doing {
    /// Running the compiler on a submission (its shown name), or on a batch of mutants.
    Compiling(String),
    /// Starting a submission's process.
    Starting(String),
    /// Reading a file.
    Reading(PathBuf),
    /// Writing a file.
    Writing(PathBuf),
}

/// What the judge was doing, and what the system said.
#[derive(Clone, Debug)]
pub struct Trouble {
    pub doing: Doing,
    /// Shared, so that a scorecard holding it can be copied.
    pub error: Arc<io::Error>,
}

impl Trouble {
    pub fn new(doing: Doing, error: io::Error) -> Trouble {
        Trouble { doing, error: Arc::new(error) }
    }
}
