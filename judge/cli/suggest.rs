//! "Did you mean": the closest known word to a mistyped one, by edit distance (with swapped
//! neighbours counting as one edit, so `rnu` finds `run`).

/// The candidate closest to `word`, if it is close enough to be a likely typo.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let word = word.to_lowercase();
    let allowed = (word.chars().count() / 3).clamp(1, 3);
    candidates
        .into_iter()
        .map(|c| (distance(&word, &c.to_lowercase()), c))
        .filter(|(d, c)| *d <= allowed || (word.len() >= 3 && c.starts_with(word.as_str())))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c.to_string())
}

/// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
/// neighbouring characters, each one edit.
fn distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut rows = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (rows[i - 1][j] + 1).min(rows[i][j - 1] + 1).min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = best;
        }
    }
    rows[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_find_their_word_and_nonsense_finds_nothing() {
        let commands = ["run", "paste", "gen", "bless", "stress", "verify", "bench", "mutants", "help"];
        assert_eq!(closest("rnu", commands).as_deref(), Some("run"));
        assert_eq!(closest("strss", commands).as_deref(), Some("stress"));
        assert_eq!(closest("mutant", commands).as_deref(), Some("mutants"));
        assert_eq!(closest("frobnicate", commands), None);
        let flags = ["--solution", "--case", "--cases", "--time-limit"];
        assert_eq!(closest("--solutoin", flags).as_deref(), Some("--solution"));
        assert_eq!(closest("--time", flags).as_deref(), Some("--time-limit"));
        assert_eq!(distance("abc", "acb"), 1);
        assert_eq!(distance("", "abc"), 3);
    }
}
