//! Judging over stored cases, and what it needs: the workspace, its submissions and cases, the
//! workbench every command opens, the verdict rule, the engine, the report, the guard on
//! stored data, blessing and the generated suites' manifests, mutation operators, what a compile
//! error likely means, the paste check, and for an editor the project rust-analyzer reads and the findings placed in each
//! file. Data only: nothing here prints.

pub mod bless;
pub mod cases;
pub mod editor;
pub mod engine;
pub mod findings;
pub mod guard;
pub mod likely;
pub mod manifest;
pub mod mutate;
pub mod paste;
pub mod report;
pub mod shipped;
pub mod submissions;
pub mod verdict;
pub mod workbench;
pub mod workspace;
