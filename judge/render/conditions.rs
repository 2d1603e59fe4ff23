//! How and where a run ran, in words: the judge's own build, and whether its children were in
//! a sandbox.

pub fn build_profile() -> &'static str {
    if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    }
}

/// Whether children run in a sandbox, and why not when they do not.
pub fn sandbox(unconfined: Option<&str>) -> String {
    match unconfined {
        None => "sandbox: on".to_string(),
        Some(why) => format!("sandbox: off, because {why}"),
    }
}
