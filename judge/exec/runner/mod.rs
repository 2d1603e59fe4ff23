//! The runners, and everything that differs between them, a module each: how a child is
//! confined and bounded, what its driver is told, which of its accounts the judge reads (and
//! so which time rules apply, see `account`), and the words that name it. Nothing outside this
//! folder asks which runner it is: it asks the runner.

mod native;
mod portable;

/// Which runner children run on (`--runner`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RunnerKind {
    /// Linux's: a sandbox of namespaces and a cgroup cell each, where the kernel gives them.
    #[default]
    Native,
    /// What Linux and macOS both have: the child's one process, read from outside it.
    Portable,
}

/// The runner of a system without the native one (macOS).
pub const ELSEWHERE: RunnerKind = RunnerKind::Portable;

/// The best runner the machine has: the native one where it is Linux.
pub const BEST: RunnerKind = if cfg!(target_os = "linux") { RunnerKind::Native } else { ELSEWHERE };

/// `--runner`'s words and what each names.
pub const CHOICES: [(&str, RunnerKind); 2] =
    [(native::RULES.word, RunnerKind::Native), (portable::RULES.word, RunnerKind::Portable)];

/// `--runner`'s help.
pub const HELP: &str = "who keeps a solution's accounts: native (Linux: the kernel's, in a sandbox and a cgroup cell) or portable (the kernel's count of the solution's one process, on Linux and macOS; no sandbox)";

/// What a runner holds a child to and reads of it; each module gives one.
pub struct Rules {
    /// `--runner`'s word for it.
    pub word: &'static str,
    /// What the header says of it, where more than its word.
    pub note: Option<&'static str>,
    /// Whether it runs children in a sandbox of namespaces (where the kernel allows one).
    pub confines: bool,
    /// Whether it gives children a cgroup cell each (where one can be made).
    pub cells: bool,
    /// Whether a child runs under macOS's Seatbelt profile, where its probe passes.
    pub seatbelt: bool,
    /// Why a child has no sandbox on it, whatever `--sandbox` says; None where it may have one.
    pub unconfined: Option<&'static str>,
    /// Why a child has no cell on it; None where it may have one.
    pub uncounted: Option<&'static str>,
    /// Whether the kernel holds the child to an address space (limits' `address_space`) and
    /// its main stack to `--stack-mb`.
    pub address_space: bool,
    /// Where the driver runs the solution: "main" (the thread the kernel names by the
    /// program's pid, whose account the judge reads: `account`'s rule 3) or "thread" (one of
    /// the stack asked for, whose account it does not read).
    pub place: &'static str,
    /// Whether a child without a cell may start no process but threads (where nothing would
    /// count the processes it starts).
    pub one_process_without_cell: bool,
}

impl RunnerKind {
    pub const fn rules(self) -> &'static Rules {
        match self {
            RunnerKind::Native => &native::RULES,
            RunnerKind::Portable => &portable::RULES,
        }
    }

    /// Whether the judge reads the solution thread's own account (rule 3 of `account`).
    pub fn reads_thread(self) -> bool {
        self.rules().place == "main"
    }
}
