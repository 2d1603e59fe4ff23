//! `judge gen`: one generated case, as LeetCode's testcase box shows it.

use super::{Exit, Stop};
use crate::cli::Args;
use crate::out::Out;
use crate::problem::{format, generator};

pub fn run(args: &Args, out: &Out) -> Result<Exit, Stop> {
    // The command line requires all three; gen keeps the last --shape given, as it does any
    // flag it takes once.
    let shape = *args.shapes.last().expect("the command line requires --shape");
    out.print(&format::write_input(&generator::generate(shape, args.len, args.seed)))?;
    Ok(Exit::Success)
}
