//! Peak resident memory from the process's own accounting. Linux only: elsewhere there is
//! no number, and the report says n/a rather than invent one.

/// The high-water mark of this process's resident set, in KiB (`VmHWM`).
pub fn peak_rss_kib() -> Option<u64> {
    status_field("VmHWM:")
}

/// The current resident set, in KiB (`VmRSS`).
pub fn current_rss_kib() -> Option<u64> {
    status_field("VmRSS:")
}

/// The resident set counted page by page (`smaps_rollup`), exact where `VmRSS` and
/// `VmHWM` come from per-CPU counters that may lag by a few hundred KiB.
pub fn exact_rss_kib() -> Option<u64> {
    let rollup = std::fs::read_to_string("/proc/self/smaps_rollup").ok()?;
    let line = rollup.lines().find(|l| l.starts_with("Rss:"))?;
    line["Rss:".len()..].trim().trim_end_matches("kB").trim().parse().ok()
}

/// Resets the high-water mark to the current resident set, so a later peak measures only
/// what came after. Returns false where the kernel does not support it.
pub fn reset_peak() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

fn status_field(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line[field.len()..].trim().trim_end_matches("kB").trim().parse().ok()
}

/// `1.5 MiB`, `812 KiB`, or `n/a`.
pub fn show_kib(kib: Option<u64>) -> String {
    match kib {
        None => "n/a".to_string(),
        Some(k) if k >= 10 * 1024 => format!("{:.0} MiB", k as f64 / 1024.0),
        Some(k) if k >= 1024 => format!("{:.1} MiB", k as f64 / 1024.0),
        Some(k) => format!("{k} KiB"),
    }
}
