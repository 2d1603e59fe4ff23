//! Units, counts and escaping, each written once: durations, binary sizes, plurals, control
//! characters, and long text shortened with its length.

use std::time::Duration;

use crate::problem::format;

/// `0.4µs`, `12µs`, `1.23ms`, `123ms`, `1.23s`: at most six characters.
pub fn duration(d: Duration) -> String {
    let ns = d.as_nanos() as f64;
    match ns {
        n if n < 10e3 => format!("{:.1}µs", n / 1e3),
        n if n < 1e6 => format!("{:.0}µs", n / 1e3),
        n if n < 10e6 => format!("{:.2}ms", n / 1e6),
        n if n < 1e9 => format!("{:.0}ms", n / 1e6),
        n => format!("{:.2}s", n / 1e9),
    }
}

pub fn nanos(ns: u64) -> String {
    duration(Duration::from_nanos(ns))
}

/// A time limit as it is typed: `1s`, `300ms`, `1.5s`.
pub fn limit(d: Duration) -> String {
    match d.as_millis() {
        ms if ms % 1000 == 0 => format!("{}s", ms / 1000),
        ms if ms < 1000 => format!("{ms}ms"),
        ms => format!("{}s", ms as f64 / 1000.0),
    }
}

/// `812 KiB`, `1.5 MiB`, `230 MiB`, `2.0 GiB`, or `n/a`.
pub fn kib(kib: Option<u64>) -> String {
    match kib {
        None => "n/a".to_string(),
        Some(k) if k >= 1 << 20 => format!("{:.1} GiB", k as f64 / (1 << 20) as f64),
        Some(k) if k >= 10 << 10 => format!("{:.0} MiB", k as f64 / 1024.0),
        Some(k) if k >= 1 << 10 => format!("{:.1} MiB", k as f64 / 1024.0),
        Some(k) => format!("{k} KiB"),
    }
}

pub fn bytes(n: u64) -> String {
    if n < 1024 {
        format!("{n} B")
    } else {
        kib(Some(n / 1024))
    }
}

/// `1 case`, `2 cases`.
pub fn count(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

/// `1 strategy`, `2 strategies`.
pub fn count_as(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Text with every control character (and the escape character) written as `\n`, `\u{1b}`:
/// nothing a solution printed can move the cursor or recolour the report.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// What a solution returned, quoted and escaped; past `SHOWN` bytes, shortened with its
/// full length.
pub fn answer(bytes: &[u8], length: u64) -> String {
    const SHOWN: usize = 200;
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(SHOWN)]);
    let quoted = format!("\"{}\"", escape(&text).replace('"', "\\\""));
    if length as usize > SHOWN || bytes.len() > SHOWN {
        format!("{quoted}… ({} bytes)", thousands(length))
    } else {
        quoted
    }
}

/// Printed output, escaped, up to `most` characters, with its size when cut.
pub fn printed(head: &[u8], total: u64, most: usize) -> String {
    let text = String::from_utf8_lossy(head);
    let escaped = escape(&text);
    let cut: String = escaped.chars().take(most).collect();
    if cut.len() < escaped.len() || total > head.len() as u64 {
        format!("{cut}… ({})", bytes(total))
    } else {
        cut
    }
}

/// A long input shortened for a report line: `[1,2,…,7] (n = 50000)`.
pub fn input(values: &[i32]) -> String {
    const SHOWN: usize = 6;
    if values.len() <= 2 * SHOWN {
        return format::write_input(values).trim_end().to_string();
    }
    let join = |part: &[i32]| part.iter().map(i32::to_string).collect::<Vec<_>>().join(",");
    format!("[{},…,{}] (n = {})", join(&values[..SHOWN]), join(&values[values.len() - SHOWN..]), values.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_are_short_and_binary() {
        assert_eq!(duration(Duration::from_nanos(420)), "0.4µs");
        assert_eq!(duration(Duration::from_micros(1234)), "1.23ms");
        assert_eq!(duration(Duration::from_millis(1500)), "1.50s");
        assert_eq!([limit(Duration::from_secs(1)), limit(Duration::from_millis(300))], ["1s", "300ms"]);
        assert_eq!(limit(Duration::from_millis(1500)), "1.5s");
        assert_eq!(
            [kib(Some(812)), kib(Some(1536)), kib(Some(300 << 10)), kib(None)],
            ["812 KiB", "1.5 MiB", "300 MiB", "n/a"]
        );
        assert_eq!(kib(Some(2 << 20)), "2.0 GiB");
        assert_eq!([count(1, "case"), count(2, "case")], ["1 case", "2 cases"]);
        assert_eq!(thousands(6_725_600), "6,725,600");
    }

    #[test]
    fn control_characters_and_long_answers_cannot_spoil_a_report() {
        assert_eq!(escape("a\u{1b}[31mb\n"), "a\\u{1b}[31mb\\n");
        assert_eq!(answer(b"Bob", 3), "\"Bob\"");
        let long = vec![b'x'; 300];
        let shown = answer(&long, 300);
        assert!(shown.ends_with("… (300 bytes)") && shown.len() < 230, "{shown}");
        assert_eq!(printed(b"hi\n", 3, 80), "hi\\n");
        assert!(printed(b"hello", 5000, 3).starts_with("hel… (4 KiB)"));
        assert_eq!(input(&[1, 2, 3]), "[1,2,3]");
        assert!(input(&[5; 50_000]).ends_with("(n = 50000)"));
    }
}
