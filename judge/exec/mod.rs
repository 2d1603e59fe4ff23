//! Compile and run a submission, as an online judge does: each on its own, in a sandbox of its
//! own namespaces, under limits it cannot lift, answering on a channel it does not own.
//! Everything here reports structured outcomes; nothing here prints. Linux only: children are
//! confined through namespaces and driven through /proc, poll, prctl and setrlimit.

#[cfg(not(target_os = "linux"))]
compile_error!("the judge runs on Linux only: it drives its children through /proc, poll, prctl and setrlimit");

pub mod account;
pub mod cache;
pub mod cgroup;
mod channel;
pub mod child;
pub mod compile;
pub mod diagnose;
pub mod digest;
pub mod files;
pub mod limits;
pub mod meter;
pub mod outcome;
pub mod procfs;
pub mod room;
pub mod sandbox;
pub mod sys;
mod toolchain;
pub mod trouble;
pub mod watchdog;
pub mod wire;

/// The driver is compiled into every submission's binary, never into the judge; the tests
/// type-check and lint it here with the same parent it gets there (`tests` names its entry
/// points, what a submission's `main` calls).
#[cfg(test)]
mod driver;
#[cfg(test)]
pub type Solve = fn(Vec<i32>) -> String;

#[cfg(test)]
mod tests;
