//! `judge stress`: random cases from the generator through the chosen solutions and the
//! oracle on every core; the first disagreement is shrunk, printed and optionally saved.

use std::fs;
use std::path::Path;

use crate::check;
use crate::cli::Args;
use crate::counterexample;
use crate::error::Error;
use crate::format::{self, MAX_LEN};
use crate::generator::{self, Rng, Shape};
use crate::oracle;
use crate::registry;
use crate::sweep;

pub fn run(args: &Args) -> Result<u8, Error> {
    let seed = args.seed.unwrap_or(1);
    let count = args.count.unwrap_or(100_000);
    let max_len = args.max_len.unwrap_or(20);
    if max_len > MAX_LEN {
        return Err(Error::Usage(format!("'--max-len {max_len}' is over LeetCode's limit of {MAX_LEN}")));
    }
    let shapes: Vec<Shape> = if args.shapes.is_empty() { Shape::ALL.to_vec() } else { args.shapes.clone() };
    let entries = registry::named_or_strategies(&args.solutions)?;
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let solution_args: String = args.solutions.iter().map(|s| format!(" --solution {s}")).collect();
    let (plan_shapes, named_shapes, checked) = (shapes.clone(), shapes.clone(), entries.clone());
    let job = sweep::Job {
        label: "stress",
        total: count,
        // Long cases take longer: hand out fewer at a time so progress stays live.
        chunk: (200_000 / max_len as u64).clamp(1, 4096),
        jobs,
        stack_bytes: check::stack_bytes(max_len),
        case: Box::new(move |index, values| {
            let (shape, len, case_seed) = plan(seed, index, &plan_shapes, max_len);
            generator::generate_into(shape, len, case_seed, values);
        }),
        check: Box::new(move |values| check::first_disagreement(&checked, values)),
        describe: Box::new(move |index| {
            let gen = gen_args(seed, index, &named_shapes, max_len);
            let time_it = format!("cargo run --release -- gen {gen} | cargo run --release -- run{solution_args}");
            (format!("case #{index} of seed {seed} (judge gen {gen})"), time_it)
        }),
        stall: check::STALL,
    };
    let result = sweep::run(job)?;
    let mut status = 0;
    if let Some(failure) = &result.failure {
        status = 1;
        let entry = entries[failure.solution];
        let gen = gen_args(seed, failure.index, &shapes, max_len);
        let found = format!("on case #{} of seed {seed} (judge gen {gen})", failure.index);
        let shapes_arg: String = args.shapes.iter().map(|s| format!(" --shape {}", s.name())).collect();
        let rerun = format!(
            "cargo run --release -- stress --seed {seed} --count {} --max-len {max_len}{shapes_arg} --solution {}",
            failure.index + 1,
            entry.name
        );
        let example = counterexample::shrink(entry, failure.values.clone(), failure.got.clone());
        print!("{}", example.render(&found, &rerun));
        if args.save {
            let name = format!("{}-s{seed}-c{}", entry.name.replace('/', "-"), failure.index);
            save(&args.cases_dir.join("regressions"), &name, &example.values)?;
        } else {
            println!("  keep it   {rerun} --save");
        }
    }
    println!("{}", result.summary("stress", "case", entries.len(), jobs));
    Ok(status)
}

/// Case `index` of a run: its shape, length and generator seed, from the run's seed alone.
fn plan(seed: u64, index: u64, shapes: &[Shape], max_len: usize) -> (Shape, usize, u64) {
    let mut rng = Rng::new(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
    let case_seed = rng.next_u64();
    let shape = shapes[rng.below(shapes.len())];
    let len = 1 + rng.below(max_len);
    (shape, len, case_seed)
}

/// The `judge gen` arguments that make case `index`.
fn gen_args(seed: u64, index: u64, shapes: &[Shape], max_len: usize) -> String {
    let (shape, len, case_seed) = plan(seed, index, shapes, max_len);
    format!("--shape {} --len {len} --seed {case_seed}", shape.name())
}

/// Writes `<name>.in` and its `.out` from the oracle into the regressions suite.
fn save(dir: &Path, name: &str, values: &[i32]) -> Result<(), Error> {
    fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let input = dir.join(format!("{name}.in"));
    let output = dir.join(format!("{name}.out"));
    fs::write(&input, format::write_input(values)).map_err(|e| Error::io(&input, e))?;
    fs::write(&output, format::write_output(oracle::answer(values))).map_err(|e| Error::io(&output, e))?;
    println!("  saved     {} and its .out; the judge now runs it", input.display());
    Ok(())
}
