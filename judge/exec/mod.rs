//! Compile and run a submission, as an online judge does: each on its own, under limits it
//! cannot lift, answering on a channel it does not own, read by the judge from the kernel's
//! accounts, never by what it says of itself. What differs between the runners is in `runner`.
//! Everything here reports structured outcomes; nothing here prints.

pub mod account;
pub mod cache;
pub mod cgroup;
mod channel;
pub mod child;
pub mod compile;
pub mod diagnose;
pub mod digest;
pub mod files;
pub mod ledger;
pub mod limits;
pub mod meter;
pub mod outcome;
pub mod procfs;
pub mod room;
pub mod runner;
pub mod sandbox;
pub mod seatbelt;
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
/// What every submission's generated `main` calls: the driver's entry point.
#[cfg(test)]
const _: fn(&[Solve]) = driver::main;

#[cfg(all(test, target_os = "linux"))]
mod tests;
