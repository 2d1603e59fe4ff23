//! The native runner (Linux): each child in a sandbox of its own namespaces where the kernel
//! allows one, in a cgroup cell where one can be made, under an address-space limit and the
//! stack asked for as its main thread's; the judge reads the cell, the program's /proc and its
//! main thread's account. Without a cell, it may start no process.

use super::Rules;

pub const RULES: Rules = Rules {
    word: "native",
    note: None,
    confines: true,
    cells: true,
    seatbelt: false,
    unconfined: None,
    uncounted: None,
    address_space: true,
    place: "main",
    one_process_without_cell: true,
};
