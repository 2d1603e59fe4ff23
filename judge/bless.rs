//! `judge bless`: makes each generated suite's inputs again from its MANIFEST, then writes
//! each case's `.out` from the oracle, never from a strategy under test, and lists what it
//! changed, like compiletest's `--bless`.

use std::fs;
use std::path::Path;

use crate::cases;
use crate::error::Error;
use crate::format;
use crate::manifest;
use crate::oracle;

/// Returns the exit status: 0, or 2 when some `.in` could not be read.
pub fn run(root: &Path) -> Result<u8, Error> {
    let (mut written, mut unchanged, mut broken) = (0, 0, 0);
    for suite in cases::suites(root)? {
        let dir = root.join(&suite);
        written += regenerate(&dir)?;
        let mut inputs: Vec<_> = fs::read_dir(&dir)
            .map_err(|e| Error::io(&dir, e))?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "in"))
            .collect();
        inputs.sort_by(|a, b| cases::natural_cmp(&a.to_string_lossy(), &b.to_string_lossy()));
        for input in inputs {
            match bless_one(&input)? {
                Blessed::Unchanged => unchanged += 1,
                Blessed::Written(what) => {
                    written += 1;
                    println!("{what} {}", input.with_extension("out").display());
                }
                Blessed::Broken(message) => {
                    broken += 1;
                    eprintln!("judge: {message}");
                }
            }
        }
    }
    println!("blessed: {written} written, {unchanged} unchanged, {broken} unreadable");
    Ok(if broken > 0 { 2 } else { 0 })
}

/// Writes the `.in` of every MANIFEST line whose file is missing or differs.
fn regenerate(dir: &Path) -> Result<usize, Error> {
    let path = dir.join("MANIFEST");
    let Ok(text) = fs::read_to_string(&path) else { return Ok(0) };
    let entries = manifest::parse(&text).map_err(|e| Error::Message(format!("{}/{e}", dir.display())))?;
    let mut written = 0;
    for entry in entries {
        let input = dir.join(format!("{}.in", entry.name));
        let wanted = format::write_input(&entry.values());
        let what = match fs::read_to_string(&input) {
            Ok(old) if old == wanted => continue,
            Ok(_) => "regenerated",
            Err(_) => "generated",
        };
        fs::write(&input, wanted).map_err(|e| Error::io(&input, e))?;
        println!("{what} {}", input.display());
        written += 1;
    }
    Ok(written)
}

enum Blessed {
    Unchanged,
    Written(&'static str),
    Broken(String),
}

fn bless_one(input: &Path) -> Result<Blessed, Error> {
    // One unreadable input is reported and counted; the rest are still blessed.
    let text = match fs::read_to_string(input) {
        Ok(text) => text,
        Err(e) => return Ok(Blessed::Broken(Error::io(input, e).to_string())),
    };
    let values = match format::parse_input(&text) {
        Ok(values) => values,
        Err(e) => return Ok(Blessed::Broken(format!("{}:{e}", input.display()))),
    };
    let wanted = format::write_output(oracle::answer(&values));
    let output = input.with_extension("out");
    let what = match fs::read_to_string(&output) {
        Ok(old) if old == wanted => return Ok(Blessed::Unchanged),
        Ok(_) => "changed",
        Err(_) => "created",
    };
    fs::write(&output, wanted).map_err(|e| Error::io(&output, e))?;
    Ok(Blessed::Written(what))
}
