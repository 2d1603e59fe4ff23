//! The verdict engine over stored cases, and what it needs: the workspace, its submissions and
//! cases (and the cache of parsed inputs), the verdict rule, the guard on stored data, blessing and the generated suites'
//! manifests. Data only: nothing here prints.

pub mod bless;
pub mod cases;
pub mod engine;
pub mod guard;
pub mod manifest;
pub mod mutate;
pub mod parsed;
pub mod paste;
pub mod session;
pub mod submissions;
pub mod verdict;
pub mod workspace;
