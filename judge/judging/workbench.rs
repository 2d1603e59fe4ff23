//! The workbench: what every command needs, opened once. The workspace and its submissions,
//! the limits (checked against the machine), the cases (loaded and parsed), a snapshot of the
//! stored data, the compiler and the scratch room; then builds, and a runner per program that
//! starts a child when it needs one. Each command is its options, this, its engine and render.

use std::path::Path;

use super::cases::{self, BadCase, Case, CasesError};
use super::guard::{Change, Snapshot};
use super::submissions::{Catalog, Submission, SubmissionError};
use super::workspace::{NoWorkspace, Workspace};
use crate::exec::cgroup::Cells;
use crate::exec::child::{Housing, Probe, Runner};
use crate::exec::compile::{Compiler, CompilerMissing, Program, Settings, Unit};
use crate::exec::diagnose::{CompileError, Newer};
use crate::exec::limits::{Limits, Unhonourable};
use crate::exec::room::Room;
use crate::exec::runner::RunnerKind;
use crate::exec::sandbox::{self, Isolation};
use crate::exec::trouble::{Doing, Trouble};
use crate::parallel;
use crate::problem::{leetcode, oracle};

/// Whether children run in a sandbox: `--sandbox`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Sandbox {
    /// Where the kernel allows one; otherwise say so and run without.
    #[default]
    Auto,
    /// Refuse to run without one.
    Require,
    /// Never: a process group, a scratch folder outside the workspace and the watchdog only.
    /// Refused to root, whose children would run as root with nothing between them and the
    /// machine (a sibling's cgroup cell, the stored data, the judge).
    Off,
    /// `Off`, asked for by root knowing that: the code is trusted with root.
    OffAsRoot,
}

/// Whether children get a cgroup cell each: `--cgroup`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Cgroup {
    /// Where one can be made; otherwise say so and read /proc.
    #[default]
    Auto,
    /// Never: memory and CPU time from /proc.
    Off,
}

/// Which submissions a command takes when none is named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chosen {
    /// Every file, wrong submissions included: the judge.
    Every,
    /// The strategies, `solutions/*.rs`: everything else.
    Strategies,
}

/// Which cases a command needs.
#[derive(Clone, Copy, Debug)]
pub enum Cases<'a> {
    None,
    /// The stored suites, filtered by `--case` patterns (every case for none).
    Stored(&'a [String]),
    /// Inputs given by hand (`judge run`), each expected to get the oracle's answer.
    Given(&'a [Vec<i32>]),
}

/// What to open.
#[derive(Clone, Copy, Debug)]
pub struct Setup<'a> {
    /// `--cases DIR`, else the workspace's `testcases/`.
    pub cases_dir: Option<&'a Path>,
    pub solutions: &'a [String],
    pub by_default: Chosen,
    pub cases: Cases<'a>,
    /// The limits calls run under; None for a command that runs no solution (`paste`).
    pub limits: Option<Limits>,
    /// Refuse a submission that cannot be read or has a bad tag, instead of reporting it beside
    /// the others' verdicts: a search needs every one it was given.
    pub strict: bool,
    /// LeetCode's Rust version (`--leetcode-rust`): newer standard library items are named.
    pub rust_version: &'a str,
    /// How long one rustc run may take (`--compile-limit`).
    pub compile_limit: std::time::Duration,
    /// Whether children (and rustc) run in a sandbox.
    pub sandbox: Sandbox,
    /// Whether children get a cgroup cell each.
    pub cgroup: Cgroup,
    /// Who keeps the children's accounts.
    pub runner: RunnerKind,
}

/// Why nothing could be done.
#[derive(Debug)]
pub enum SetupError {
    NoWorkspace(NoWorkspace),
    Limits(Unhonourable),
    Catalog(SubmissionError),
    Cases(CasesError),
    /// No case matched (or the folder has none).
    NoCases {
        patterns: Vec<String>,
    },
    Compiler(CompilerMissing),
    Scratch(std::io::Error),
    /// `--sandbox require`, and the kernel refuses one: why.
    NoSandbox(std::io::Error),
    /// `--runner native` on a system that has no native runner (it needs Linux).
    NoNativeRunner,
    /// `--sandbox off` asked for by root, without saying `off-as-root`.
    RootUnsandboxed,
    /// A thread of the judge's own set-up panicked while doing this: a bug of the judge's.
    Panicked(&'static str),
}

pub struct Workbench {
    pub workspace: Workspace,
    pub catalog: Catalog,
    pub submissions: Vec<Submission>,
    /// Files that could not be read or carry a bad tag, reported beside the others' verdicts.
    pub bad_submissions: Vec<SubmissionError>,
    /// Whether the submissions are those a command takes when none is named: the strategies,
    /// a user's attempts among them, any of which may be half-written.
    pub by_default: bool,
    limits: Option<Limits>,
    pub cases: Vec<Case>,
    pub bad_cases: Vec<BadCase>,
    pub compiler: Compiler,
    /// Where children run, and what counts what they use.
    pub housing: Housing,
    /// Why children run without a sandbox, when they do.
    pub unconfined: Option<String>,
    /// Why children have no cgroup of their own, when they have none: their memory and CPU
    /// time are then read from /proc.
    pub uncounted: Option<String>,
    before: Snapshot,
    /// The judge's own program (see `Probe`), built on first need.
    probe: std::sync::OnceLock<Option<Program>>,
}

/// The judge's own program: the method as LeetCode's editor shows it, answering without
/// looking at its input, built as every submission is.
const PROBE: &str = "impl Solution {\n    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {\n        drop(stone_value);\n        String::new()\n    }\n}\n";

impl Probe for Workbench {
    fn program(&self) -> Option<&Program> {
        let build = || {
            let unit = Unit { source: PROBE.to_string(), shown: "the judge's own program".to_string() };
            let binary = self.compiler.build(&unit).ok()?.ok()?;
            Some(Program { binary, unit: 0, name: unit.shown })
        };
        self.probe.get_or_init(build).as_ref()
    }
}

/// A submission built, or why not: its own compile error, or the judge's trouble running the
/// compiler.
pub type Built = Result<Result<Program, CompileError>, Trouble>;

impl Workbench {
    pub fn open(setup: &Setup) -> Result<Workbench, SetupError> {
        // Whether the machine can give the stack asked for, and whether the kernel allows a
        // sandbox, take a child each: found out while the rest opens.
        // A runner that confines children does it with Linux's namespaces, and reads its /proc.
        if setup.runner.rules().confines && !cfg!(target_os = "linux") {
            return Err(SetupError::NoNativeRunner);
        }
        let rules = setup.runner.rules();
        if setup.sandbox == Sandbox::Off && rules.confines && crate::exec::sys::effective_ids().0 == 0 {
            return Err(SetupError::RootUnsandboxed);
        }
        let choice = match (rules.confines, setup.sandbox) {
            (false, _) | (true, Sandbox::OffAsRoot) => Sandbox::Off,
            (true, choice) => choice,
        };
        let limits = setup.limits;
        let honourable = std::thread::spawn(move || limits.map_or(Ok(()), |l| l.check()));
        let workspace = Workspace::find(setup.cases_dir).map_err(SetupError::NoWorkspace)?;
        let cache = workspace.cache.clone();
        let probed = std::thread::spawn(move || (choice != Sandbox::Off).then(|| sandbox::probe_remembered(&cache)));
        // Only a command that runs solutions needs cells; a few are made now, together.
        let runs = setup.limits.is_some() && setup.cgroup == Cgroup::Auto && rules.cells;
        let cells = std::thread::spawn(move || {
            let cells = runs.then(Cells::open)?;
            if let Ok(cells) = &cells {
                // Made while the builds run: the first children find them ready.
                let warming = cells.clone();
                std::thread::spawn(move || warming.warm(WARM_CELLS));
            }
            Some(cells)
        });
        let catalog = Catalog::scan(&workspace).map_err(SetupError::Catalog)?;
        let by_default = setup.by_default == Chosen::Strategies && setup.solutions.is_empty();
        let names = match by_default {
            true => catalog.strategies(),
            false => setup.solutions.to_vec(),
        };
        let (submissions, mut bad_submissions) = catalog.select(&workspace, &names);
        // A name that stands for nothing is a typo: stop at once.
        let typo =
            |e: &SubmissionError| matches!(e, SubmissionError::Unknown { .. } | SubmissionError::NoSuchMutant { .. });
        if let Some(at) = bad_submissions.iter().position(|e| (setup.strict && !by_default) || typo(e)) {
            return Err(SetupError::Catalog(bad_submissions.swap_remove(at)));
        }
        let settings = Settings {
            edition: leetcode::EDITION,
            rust_version: setup.rust_version.to_string(),
            time_limit: setup.compile_limit,
            own_toolchain: true,
        };
        let before = Snapshot::take(&[&workspace.solutions, &workspace.cases]);
        let (cases, bad_cases) = match setup.cases {
            Cases::None => (Vec::new(), Vec::new()),
            Cases::Stored(patterns) => {
                let loaded = cases::load(&workspace.cases, patterns).map_err(SetupError::Cases)?;
                if loaded.cases.is_empty() && loaded.bad.is_empty() {
                    return Err(SetupError::NoCases { patterns: patterns.to_vec() });
                }
                (loaded.cases, loaded.bad)
            }
            Cases::Given(inputs) => (given(inputs), Vec::new()),
        };
        honourable.join().map_err(|_| SetupError::Panicked("checking the limits"))?.map_err(SetupError::Limits)?;
        let probed = probed.join().map_err(|_| SetupError::Panicked("probing for a sandbox"))?;
        let (isolation, unconfined) = isolate(choice, probed, setup.runner)?;
        let sandboxed = matches!(isolation, Isolation::Sandbox);
        let cells = cells.join().map_err(|_| SetupError::Panicked("making the children's cgroups"))?;
        let (cells, uncounted) = match cells {
            Some(Ok(cells)) => (Some(cells), None),
            Some(Err(why)) => (None, Some(why)),
            None if rules.uncounted.is_some() => (None, rules.uncounted.map(str::to_string)),
            None if setup.cgroup == Cgroup::Off => (None, Some("--cgroup off was given".to_string())),
            None => (None, None),
        };
        let compiler = Compiler::new(&workspace.cache, settings, sandboxed).map_err(SetupError::Compiler)?;
        Ok(Workbench {
            workspace,
            catalog,
            submissions,
            bad_submissions,
            by_default,
            limits,
            cases,
            bad_cases,
            compiler,
            housing: Housing { isolation, cells, kind: setup.runner },
            unconfined,
            uncounted,
            before,
            probe: std::sync::OnceLock::new(),
        })
    }

    /// The cgroup version of the children's cells, when they have cells.
    pub fn cgroup(&self) -> Option<crate::exec::cgroup::Version> {
        self.housing.cells.as_ref().map(Cells::version)
    }

    /// The limits every call runs under, checked against the machine.
    pub fn limits(&self) -> Limits {
        self.limits.expect("a command that runs solutions opens the workbench with limits")
    }

    /// What changed in the stored data since the workbench was opened.
    pub fn changes(&self) -> Vec<Change> {
        self.before.changes()
    }

    /// One submission alone in its binary; a compile error says what it most likely means.
    pub fn build(&self, submission: &Submission) -> Built {
        let unit = submission.unit();
        let built = self.compiler.build(&unit).map_err(|e| Trouble::new(Doing::Compiling(unit.shown.clone()), e))?;
        let built = built.map_err(|error| super::likely::explain(error, submission));
        Ok(built.map(|binary| Program { binary, unit: 0, name: submission.name.clone() }))
    }

    /// Drops each submission that does not compile when they were chosen by default, and says
    /// which, with its error: a command that takes every strategy goes on without a user's
    /// attempt that is not ready. Errors of the machine's are left for the command to meet.
    pub fn drop_uncompiled(&mut self) -> Vec<(Submission, CompileError)> {
        if !self.by_default {
            return Vec::new();
        }
        let built = self.build_all(&mut |_, _| {});
        let mut dropped = Vec::new();
        let mut kept = Vec::new();
        for (submission, built) in std::mem::take(&mut self.submissions).into_iter().zip(built) {
            match built {
                Ok(Err(error)) => dropped.push((submission, error)),
                _ => kept.push(submission),
            }
        }
        self.submissions = kept;
        dropped
    }

    /// Every submission, on every core; `on` hears each as it is built, on this thread.
    pub fn build_all(&self, on: &mut dyn FnMut(usize, &Built)) -> Vec<Built> {
        let count = self.submissions.len();
        let mut built: Vec<Option<Built>> = (0..count).map(|_| None).collect();
        parallel::each(
            count,
            parallel::cores(),
            |claims, send| {
                for i in claims {
                    let _ = send.send((i, self.build(&self.submissions[i])));
                }
            },
            |receive| {
                for (i, result) in receive {
                    on(i, &result);
                    built[i] = Some(result);
                }
            },
        );
        built.into_iter().map(|b| b.expect("every submission was built")).collect()
    }

    /// The standard library items a submission uses that LeetCode's Rust does not have yet (none
    /// when the compiler is LeetCode's own: they do not compile); None when the toolchain
    /// cannot tell (no `clippy-driver`) or the check could not run.
    pub fn newer(&self, submission: &Submission) -> Option<Vec<Newer>> {
        self.compiler.newer(&submission.unit()).ok()?
    }

    /// A runner for `program` under the workbench's limits.
    pub fn runner<'a>(&'a self, program: &'a Program) -> Runner<'a> {
        Runner::new(program, self.limits(), &self.housing, self)
    }

    /// A runner under other limits (mutants get a tighter time limit, bench a looser memory one).
    pub fn runner_with<'a>(&'a self, program: &'a Program, limits: Limits) -> Runner<'a> {
        Runner::new(program, limits, &self.housing, self)
    }
}

/// Cells made at once while a command opens: enough for the strategies and a lane a core.
const WARM_CELLS: usize = 8;

/// Where children run: in a sandbox where the kernel allows one (unless `off`), else in a
/// scratch folder, with the watchdog, and the reason.
fn isolate(
    choice: Sandbox,
    probed: Option<std::io::Result<()>>,
    runner: RunnerKind,
) -> Result<(Isolation, Option<String>), SetupError> {
    let rules = runner.rules();
    let refused = match probed {
        None if rules.unconfined.is_some() => rules.unconfined.unwrap_or_default().to_string(),
        None => "--sandbox off was given".to_string(),
        Some(Ok(())) => return Ok((Isolation::Sandbox, None)),
        Some(Err(e)) if choice == Sandbox::Require => return Err(SetupError::NoSandbox(e)),
        Some(Err(e)) => format!("the kernel refused one: {e}"),
    };
    // Without the watchdog, children still die at every verdict; only a killed judge leaks.
    crate::exec::watchdog::start();
    let mut room = Room::new().map_err(SetupError::Scratch)?;
    let refused = match (rules.seatbelt, seatbelt(&room)) {
        (true, Some(Ok(()))) => {
            room.seatbelt = true;
            format!("{refused}; Seatbelt holds each child: no process, no network, no reads outside its folder")
        }
        (true, Some(Err(e))) => format!("{refused}, and each child runs without Seatbelt: {e}"),
        _ => refused,
    };
    Ok((Isolation::Room(room), Some(refused)))
}

/// Whether a child runs under macOS's Seatbelt profile in `room` (see `exec::seatbelt`); None
/// where there is no Seatbelt.
fn seatbelt(room: &Room) -> Option<std::io::Result<()>> {
    #[cfg(target_os = "macos")]
    return Some(crate::exec::seatbelt::probe(&room.cwd));
    #[cfg(not(target_os = "macos"))]
    return {
        let _ = room;
        None
    };
}

/// Inputs given by hand as cases named `input 1`, `input 2`…, each with the oracle's answer.
fn given(inputs: &[Vec<i32>]) -> Vec<Case> {
    let name = |k: usize| if inputs.len() == 1 { "input".to_string() } else { format!("input {}", k + 1) };
    inputs.iter().enumerate().map(|(k, values)| Case::given(name(k), values.clone(), oracle::answer(values))).collect()
}
