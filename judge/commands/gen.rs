//! `judge gen`: one generated case, as LeetCode's testcase box shows it; or, with `--max-len`
//! and `--values`, every array of that range, one a line, shortest first (a group's `.in`).

use super::{Exit, Stop};
use crate::cli::{flags, Args, Invocation};
use crate::judging::manifest::EVERY_MOST;
use crate::out::Out;
use crate::problem::generator::{self, Every};
use crate::problem::{format, MAX_VALUE, MIN_VALUE};
use crate::render::error::Error;
use crate::search::{Bound, SearchError};

pub fn run(args: &Args, invocation: &Invocation, out: &Out) -> Result<Exit, Stop> {
    if invocation.get(&flags::VALUES).is_some() {
        let (low, high) = args.values;
        if low < MIN_VALUE || high > MAX_VALUE {
            return Err(Error::Search(SearchError::Bound(Bound::Values { low, high })).into());
        }
        let every = Every { max_len: args.max_len, low, high };
        let arrays = every.all().filter(|a| a.len() as u64 <= EVERY_MOST);
        let too_many =
            || Error::Search(SearchError::Bound(Bound::TooMany { base: every.base(), max_len: every.max_len }));
        out.print(&format::write_inputs(&arrays.ok_or_else(too_many)?))?;
        return Ok(Exit::Success);
    }
    // The command line requires all three; gen keeps the last --shape given, as it does any
    // flag it takes once.
    let shape = *args.shapes.last().expect("the command line requires --shape");
    out.print(&format::write_input(&generator::generate(shape, args.len, args.seed)))?;
    Ok(Exit::Success)
}
