//! Peak resident memory from the process's own accounting. Linux only: elsewhere there is
//! no number, and the report says n/a rather than invent one.

/// The high-water mark of this process's resident set, in KiB (`VmHWM`).
pub fn peak_rss_kib() -> Option<u64> {
    kib_field("/proc/self/status", "VmHWM:")
}

/// The current resident set, in KiB (`VmRSS`).
pub fn current_rss_kib() -> Option<u64> {
    kib_field("/proc/self/status", "VmRSS:")
}

/// The resident set counted page by page (`smaps_rollup`), exact where `VmRSS` and
/// `VmHWM` come from per-CPU counters that may lag by a few hundred KiB.
pub fn exact_rss_kib() -> Option<u64> {
    kib_field("/proc/self/smaps_rollup", "Rss:")
}

/// Resets the high-water mark to the current resident set, so a later peak measures only
/// what came after. Returns false where the kernel does not support it.
pub fn reset_peak() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// The `<field> <n> kB` line of a /proc file, as KiB.
fn kib_field(file: &str, field: &str) -> Option<u64> {
    let text = std::fs::read_to_string(file).ok()?;
    let line = text.lines().find(|l| l.starts_with(field))?;
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
