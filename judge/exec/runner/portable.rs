//! The portable runner (Linux and macOS): what both systems have. No namespaces and no cell:
//! the child's one process, in a scratch folder, read by the judge from outside it (Linux:
//! /proc; macOS: `proc_pid_rusage`), under macOS's Seatbelt profile where its probe passes.
//! macOS enforces no address space, and its main thread's stack cannot be as large as
//! `--stack-mb` may ask, so the solution runs on a thread of that stack, whose account the
//! judge does not read: rule 3 takes the process's CPU time for it. Processes it starts are
//! not counted; on Linux a keeper ends them with the child.

use super::Rules;

pub const RULES: Rules = Rules {
    word: "portable",
    note: Some(
        "runner: portable (no namespaces, no cgroup; time and memory of the solution's one process, \
         read by the judge from the kernel)",
    ),
    confines: false,
    cells: false,
    seatbelt: true,
    unconfined: Some("the portable runner has none"),
    uncounted: Some("the portable runner makes none"),
    address_space: false,
    place: "thread",
    one_process_without_cell: false,
};
