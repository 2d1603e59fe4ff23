//! Units, counts and escaping, each written once: durations, binary sizes, plurals, control
//! characters, markup, and long text shortened with its length.

use std::time::Duration;

use crate::problem::format;

/// The units a time is written in, largest first.
pub const TIME_UNITS: [(f64, &str); 4] = [(1e9, "s"), (1e6, "ms"), (1e3, "µs"), (1.0, "ns")];
/// Binary sizes, as the tables and the chart write them.
pub const BYTE_UNITS: [(f64, &str); 4] = [(1073741824.0, " GiB"), (1048576.0, " MiB"), (1024.0, " KiB"), (1.0, " B")];
/// Times of hours and more, for estimates.
const LONG_UNITS: [(f64, &str); 5] =
    [(31_557_600.0, " years"), (86_400.0, " days"), (3600.0, " hours"), (60.0, " minutes"), (1.0, " s")];

/// `v` in the first of `units` it reaches (else the last), to three digits at most, trailing
/// zeros dropped: `420ns`, `1.23ms`, `1.5 MiB`, `2 GiB`. The one scaler of every figure.
pub fn scaled(v: f64, units: &[(f64, &str)]) -> String {
    let (scale, unit) = units.iter().find(|(scale, _)| v >= *scale).unwrap_or(&units[units.len() - 1]);
    let text = format!("{:.*}", usize::from(v / scale < 100.0) + usize::from(v / scale < 10.0), v / scale);
    let text = if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.') } else { &text };
    format!("{text}{unit}")
}

/// `420ns`, `12µs`, `1.23ms`, `123ms`, `1.5s`.
pub fn duration(d: Duration) -> String {
    scaled(d.as_nanos() as f64, &TIME_UNITS)
}

pub fn nanos(ns: u64) -> String {
    duration(Duration::from_nanos(ns))
}

/// `45 s`, `12 minutes`, `3.2 hours`, `4 days`: for estimates.
pub fn long_duration(d: Duration) -> String {
    scaled(d.as_secs_f64(), &LONG_UNITS)
}

/// A time limit as it is typed: `1s`, `300ms`, `1.5s`.
pub fn limit(d: Duration) -> String {
    match d.as_millis() {
        ms if ms % 1000 == 0 => format!("{}s", ms / 1000),
        ms if ms < 1000 => format!("{ms}ms"),
        ms => format!("{}s", ms as f64 / 1000.0),
    }
}

/// A moment in UTC to the minute, `2026-12-01 20:40 UTC` (proleptic Gregorian calendar).
pub fn utc(at: std::time::SystemTime) -> String {
    let seconds = at.duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    // Days since 1970-01-01 to a civil date, after Howard Hinnant's `civil_from_days`.
    let z = (seconds / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 { month_index + 3 } else { month_index - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    let (hour, minute) = (seconds / 3600 % 24, seconds / 60 % 60);
    format!("{year}-{month:02}-{day:02} {hour:02}:{minute:02} UTC")
}

/// `812 KiB`, `1.5 MiB`, `230 MiB`, `2 GiB`, or `n/a`.
pub fn kib(kib: Option<u64>) -> String {
    kib.map_or_else(|| "n/a".to_string(), |k| bytes(k.saturating_mul(1024)))
}

/// `512 B`, `4 KiB`, `1.5 MiB`.
pub fn bytes(n: u64) -> String {
    scaled(n as f64, &BYTE_UNITS)
}

/// `1 case`, `2 cases`, `19,530 cases`.
pub fn count(n: usize, noun: &str) -> String {
    format!("{} {noun}{}", thousands(n as u64), if n == 1 { "" } else { "s" })
}

/// `1 strategy`, `2 strategies`.
pub fn count_as(n: usize, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n as u64), if n == 1 { one } else { many })
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

/// `text` safe in an HTML or SVG element or a quoted attribute.
pub fn markup(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
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

/// A long input shortened for a report line: `[1,2,…,7] (n = 50000)`.
pub fn input(values: &[i32]) -> String {
    input_within(values, usize::MAX)
}

/// `input`, with fewer values at each end (down to one) where the array would pass `room`
/// characters.
pub fn input_within(values: &[i32], room: usize) -> String {
    const SHOWN: usize = 6;
    if values.len() <= 2 * SHOWN {
        return format::write_input(values).trim_end().to_string();
    }
    let join = |part: &[i32]| part.iter().map(i32::to_string).collect::<Vec<_>>().join(",");
    let array = |shown: usize| format!("[{},…,{}]", join(&values[..shown]), join(&values[values.len() - shown..]));
    let shown = (1..=SHOWN).rev().find(|&k| array(k).chars().count() <= room).unwrap_or(1);
    format!("{} (n = {})", array(shown), values.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_input_shows_fewer_values_where_it_would_not_fit() {
        let values: Vec<i32> = (0..100).map(|k| 900 + k).collect();
        assert_eq!(input(&values), "[900,901,902,903,904,905,…,994,995,996,997,998,999] (n = 100)");
        assert_eq!(input_within(&values, 30), "[900,901,902,…,997,998,999] (n = 100)");
        assert_eq!(input_within(&values, 3), "[900,…,999] (n = 100)");
    }

    #[test]
    fn units_are_short_and_binary() {
        assert_eq!(duration(Duration::from_nanos(420)), "420ns");
        assert_eq!(duration(Duration::from_micros(1234)), "1.23ms");
        assert_eq!(duration(Duration::from_millis(1500)), "1.5s");
        assert_eq!([limit(Duration::from_secs(1)), limit(Duration::from_millis(300))], ["1s", "300ms"]);
        assert_eq!(limit(Duration::from_millis(1500)), "1.5s");
        assert_eq!(
            [kib(Some(812)), kib(Some(1536)), kib(Some(300 << 10)), kib(None)],
            ["812 KiB", "1.5 MiB", "300 MiB", "n/a"]
        );
        assert_eq!(kib(Some(2 << 20)), "2 GiB");
        assert_eq!([bytes(512), bytes(1536 * 1024), bytes(2 << 30)], ["512 B", "1.5 MiB", "2 GiB"]);
        let ticks = [500.0, 1e3, 2e5, 1e6, 5e7, 1e9].map(|ns| scaled(ns, &TIME_UNITS));
        assert_eq!(ticks, ["500ns", "1µs", "200µs", "1ms", "50ms", "1s"]);
        assert_eq!(long_duration(Duration::from_secs(5 * 3600)), "5 hours");
        assert_eq!([count(1, "case"), count(2, "case")], ["1 case", "2 cases"]);
        assert_eq!(count(19_530, "case"), "19,530 cases");
        assert_eq!(thousands(6_725_600), "6,725,600");
        let at = |s: u64| std::time::UNIX_EPOCH + Duration::from_secs(s);
        assert_eq!(utc(at(0)), "1970-01-01 00:00 UTC");
        assert_eq!(utc(at(951_782_400 + 3_660)), "2000-02-29 01:01 UTC");
        assert_eq!(utc(at(1_798_758_000)), "2026-12-31 23:00 UTC");
    }

    #[test]
    fn control_characters_and_long_answers_cannot_spoil_a_report() {
        assert_eq!(escape("a\u{1b}[31mb\n"), "a\\u{1b}[31mb\\n");
        assert_eq!(answer(b"Bob", 3), "\"Bob\"");
        let long = vec![b'x'; 300];
        let shown = answer(&long, 300);
        assert!(shown.ends_with("… (300 bytes)") && shown.len() < 230, "{shown}");
        assert_eq!(input(&[1, 2, 3]), "[1,2,3]");
        assert!(input(&[5; 50_000]).ends_with("(n = 50000)"));
    }
}
