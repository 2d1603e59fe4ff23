//! How and where a run ran, in words: the judge's own build, whether its children were in a
//! sandbox, and what counted their memory and CPU time.

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

pub fn cgroup_version(version: crate::exec::cgroup::Version) -> &'static str {
    match version {
        crate::exec::cgroup::Version::V1 => "v1",
        crate::exec::cgroup::Version::V2 => "v2",
    }
}

/// What counts the children's memory and CPU time: a cgroup each, or /proc and why.
pub fn counting(cgroup: Option<crate::exec::cgroup::Version>, uncounted: Option<&str>) -> String {
    match (cgroup, uncounted) {
        (Some(version), _) => format!("cgroup: {}", cgroup_version(version)),
        (None, Some(why)) => format!("cgroup: none, because {why}; memory and CPU time from /proc"),
        (None, None) => "cgroup: none".to_string(),
    }
}
