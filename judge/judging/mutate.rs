//! Source-level mutants of a Rust solution file, for `judge mutants`.
//!
//! A small tokenizer reads the file and skips `//` and `/* */` comments, string, byte-string, raw-string and
//! char literals and lifetimes, so nothing inside a comment or a string is ever mutated. Each operator below is
//! applied at every place it fits, one place per mutant. A mutant keeps every newline of the original, so line
//! numbers in compiler errors and panics still point at the original's lines. The operators guess at syntax
//! from tokens alone; a wrong guess only makes a mutant that does not compile, which the caller counts and
//! drops. Mutants whose text is identical are reported once (the first in file order), and no mutant equals
//! the original.
//!
//! - `literal`: each integer literal (a unary minus belongs to it: `-1` in `x = -1` is one literal) and each
//!   `i32::MIN` / `i32::MAX` becomes each of 0, ±1, ±2, ±1000, ±10000, ±100000, ±1000000, ±10000000,
//!   ±100000000, `i32::MIN`, `i32::MAX` other than its own value. Negative values are parenthesized and a type
//!   suffix is kept: `0i32` -> `(-1i32)`, `1usize` -> `2usize`. Tuple fields such as `.0` are not literals.
//! - `plus-minus`: binary `+` <-> `-` and `+=` <-> `-=` (a unary minus is left alone).
//! - `max-min`: the identifier `max` <-> `min` (`.max(`, `i32::max`, `std::cmp::max`, `max(`).
//! - `comparison`: each of `<` `<=` `>` `>=` `==` `!=` becomes each of the other five. A `<` after `::`, after a
//!   CamelCase name (`Vec<`, `Option<`), after `fn name`, `struct Name` and the like, or after anything that
//!   cannot end an operand (`impl<`) opens generics and is skipped, as is the `>` or `>>` that closes it.
//! - `offset`: an index `x[e]` becomes `x[e + 1]` and `x[e - 1]`, and each endpoint of a range `a..b` or
//!   `a..=b` moves by one (`(0..n).rev()` -> `(0..n + 1).rev()`, `1..=3` -> `1 - 1..=3`); an operand holding
//!   an operator weaker than `+` is parenthesized first. Ranges in slice patterns (`[a, ..]`), struct updates
//!   (`..base`) and range patterns before `=>` are left alone.
//! - `range`: `a..b` <-> `a..=b` (an open range `a..` is not made inclusive).
//! - `modulo`: `% m` (and `%= m`) with a literal `m` becomes `% m-1` and `% m-2`, skipping values below 2:
//!   `% 4` -> `% 3`, `% 2`.
//! - `narrow`: each `i32` type becomes `i16` (not the `i32` of `i32::MIN`, nor a literal suffix like `0i32`).
//! - `memo-store`: a statement `x[..] = e;` (also `x[i].1 = e;`, `x[i][j] = e;`, and `x.insert(k, v);`) is
//!   removed, also inside a block such as `{ memo[i] = best; best }`: `memo[i] = best;` -> ``.
//! - `memo-lookup`: a lookup written as `match memo[k] { MARKER => compute, known => known }` becomes `compute`;
//!   and an `if` statement whose condition reads an index or calls `.get(` / `.contains_key(`, and
//!   whose block is only `return e;` with `e` sharing a name with the condition, is removed:
//!   `if memo[i] != i32::MIN { return memo[i]; }`, `if let Some(&v) = memo.get(&i) { return v; }`.
//! - `break-return`: `break;` -> `;`, `return e;` -> ` e;` (the value is computed and dropped), `return;` ->
//!   `;`; a `break` or `return` followed by `,` `)` `]` `}` (as in a match arm) becomes `{}`.
//!
//! A removed statement keeps its newlines, so for `memo-store` and `memo-lookup` over several lines the
//! mutant differs from the original on each of those lines, and `original` holds all of them.
use std::collections::HashSet;

pub(crate) mod tokens;

use tokens::{byte_offset, lines, Tokens};

/// One mutation operator family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Operator {
    Literal,
    PlusMinus,
    MaxMin,
    Comparison,
    Offset,
    Range,
    Modulo,
    Narrow,
    MemoStore,
    MemoLookup,
    BreakReturn,
}

impl Operator {
    pub const ALL: [Operator; 11] = {
        use Operator::*;
        [Literal, PlusMinus, MaxMin, Comparison, Offset, Range, Modulo, Narrow, MemoStore, MemoLookup, BreakReturn]
    };

    /// A short stable name: "literal", "plus-minus", "max-min", "comparison", "offset", "range", "modulo",
    /// "narrow", "memo-store", "memo-lookup", "break-return".
    pub fn name(self) -> &'static str {
        match self {
            Operator::Literal => "literal",
            Operator::PlusMinus => "plus-minus",
            Operator::MaxMin => "max-min",
            Operator::Comparison => "comparison",
            Operator::Offset => "offset",
            Operator::Range => "range",
            Operator::Modulo => "modulo",
            Operator::Narrow => "narrow",
            Operator::MemoStore => "memo-store",
            Operator::MemoLookup => "memo-lookup",
            Operator::BreakReturn => "break-return",
        }
    }

    pub fn parse(name: &str) -> Option<Operator> {
        Operator::ALL.into_iter().find(|op| op.name() == name)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mutant {
    pub operator: Operator,
    /// 1-based line and 1-based column (in chars) of the replaced text in the original file.
    pub line: usize,
    pub column: usize,
    /// The replaced text and what replaces it, e.g. "1" and "10000", "<" and "<=", "memo[i] = best;" and "" .
    pub original: String,
    pub replacement: String,
    /// The whole mutated file. It has exactly as many lines as the original (so line numbers in compiler errors
    /// and panics still point at the original's lines), and differs only on `line` (and those `original` spans).
    pub source: String,
}

impl Mutant {
    /// The original line and the mutated line, trimmed, for a one-line diff. When `original` spans several
    /// lines, those lines are trimmed and joined with a space.
    pub fn diff(&self) -> (String, String) {
        let count = self.original.matches('\n').count() + 1;
        (lines(&self.original_source(), self.line, count), lines(&self.source, self.line, count))
    }

    /// A key that survives edits elsewhere in the file: operator name, the trimmed original line text,
    /// original -> replacement, and which occurrence of `original` on that line (0-based), joined with " | ",
    /// e.g. "literal | let mut f = vec![0; n + 1]; | 1 -> 10000 | 0". A text over several lines is given as
    /// in `diff`, with its whitespace squeezed. When the same trimmed line text also appears earlier in the
    /// file, the occurrence counts on from those copies, so that no two mutants of a file share a key.
    pub fn key(&self) -> String {
        let (original, pattern) = (self.original_source(), self.original.as_str());
        let at = byte_offset(&original, self.line, self.column);
        let text = original.lines().nth(self.line - 1).unwrap_or_default().trim();
        let copies = original.lines().take(self.line - 1).filter(|l| l.trim() == text);
        let nth = original[byte_offset(&original, self.line, 1)..at].matches(pattern).count()
            + copies.map(|l| l.matches(pattern).count()).sum::<usize>();
        let squeeze = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        let (name, line, replaced) = (self.operator.name(), self.diff().0, squeeze(&self.original));
        format!("{name} | {line} | {replaced} -> {} | {nth}", squeeze(&self.replacement))
    }

    fn original_source(&self) -> String {
        let at = byte_offset(&self.source, self.line, self.column);
        format!("{}{}{}", &self.source[..at], self.original, &self.source[at + self.replacement.len()..])
    }
}

/// Every mutant of `source`, in file order (by line, column, then operator, then replacement), each operator
/// applied everywhere it fits. No two mutants have the same source, and none equals the original.
pub fn generate(source: &str) -> Vec<Mutant> {
    let mut finder = Finder { tokens: Tokens::new(source), edits: Vec::new() };
    for i in finder.tokens.comparisons() {
        let word = finder.tokens.word(i);
        for other in ["<", "<=", ">", ">=", "==", "!="].into_iter().filter(|&c| c != word) {
            finder.edit(Operator::Comparison, i, i, other.to_string());
        }
    }
    for i in 0..finder.tokens.list.len() {
        finder.token(i);
    }
    let mut mutants: Vec<Mutant> = (finder.edits.into_iter())
        .map(|(operator, start, end, replacement)| {
            let before = &source[..start];
            let line = before.matches('\n').count() + 1;
            let column = before[before.rfind('\n').map_or(0, |p| p + 1)..].chars().count() + 1;
            let mutated = format!("{before}{replacement}{}", &source[end..]);
            Mutant { operator, line, column, original: source[start..end].to_string(), replacement, source: mutated }
        })
        .filter(|m| m.source != source)
        .collect();
    mutants.sort_by(|a, b| {
        (a.line, a.column, a.operator, &a.replacement).cmp(&(b.line, b.column, b.operator, &b.replacement))
    });
    let mut seen = HashSet::new();
    mutants.retain(|m| seen.insert(m.source.clone()));
    mutants
}

/// The replacements of a literal, in order.
const VALUES: [&str; 19] = [
    "0",
    "1",
    "-1",
    "2",
    "-2",
    "1000",
    "-1000",
    "10000",
    "-10000",
    "100000",
    "-100000",
    "1000000",
    "-1000000",
    "10000000",
    "-10000000",
    "100000000",
    "-100000000",
    "i32::MIN",
    "i32::MAX",
];
/// Operators weaker than `+`: an operand holding one of them is parenthesized before `+ 1` is appended.
const WEAK: [&str; 16] = ["<", ">", "<=", ">=", "==", "!=", "&&", "||", "&", "|", "^", "<<", ">>", "=", "..", "..="];

/// The tokens and the edits found so far: operator, byte range replaced, replacement.
struct Finder<'a> {
    tokens: Tokens<'a>,
    edits: Vec<(Operator, usize, usize, String)>,
}

impl Finder<'_> {
    /// Replaces tokens `first..=last` (and what lies between them) by `replacement`.
    fn edit(&mut self, op: Operator, first: usize, last: usize, replacement: String) {
        self.edits.push((op, self.tokens.list[first].start, self.tokens.list[last].end, replacement));
    }

    /// Every operator at token `i`.
    fn token(&mut self, i: usize) {
        let tokens = &self.tokens;
        let (word, next) = (tokens.word(i), tokens.word(i + 1));
        let range = if matches!(word, ".." | "..=") { tokens.range(i) } else { None };
        let swap = match word {
            "+" => Some((Operator::PlusMinus, "-")),
            "-" if tokens.operand_end(i.wrapping_sub(1)) => Some((Operator::PlusMinus, "+")),
            "+=" => Some((Operator::PlusMinus, "-=")),
            "-=" => Some((Operator::PlusMinus, "+=")),
            "max" => Some((Operator::MaxMin, "min")),
            "min" => Some((Operator::MaxMin, "max")),
            "i32" if next != "::" => Some((Operator::Narrow, "i16")),
            "break" | "return" if matches!(next, "," | ")" | "]" | "}" | "") => Some((Operator::BreakReturn, "{}")),
            "break" | "return" => Some((Operator::BreakReturn, "")),
            "..=" if range.is_some() => Some((Operator::Range, "..")),
            ".." if range.is_some_and(|(_, r)| r > i + 1) => Some((Operator::Range, "..=")),
            _ => None,
        };
        if let Some((op, replacement)) = swap {
            self.edit(op, i, i, replacement.to_string());
        }
        let tokens = &self.tokens;
        if let Some((first, last, value, suffix)) = tokens.literal(i) {
            for v in VALUES.into_iter().filter(|&v| v != value) {
                let v = if v.starts_with('i') { v.to_string() } else { format!("{v}{suffix}") };
                self.edit(Operator::Literal, first, last, if v.starts_with('-') { format!("({v})") } else { v });
            }
        }
        let tokens = &self.tokens;
        if let (Some((m, suffix)), "%" | "%=") = (tokens.int(i + 1), word) {
            let gap = &tokens.src[tokens.list[i].end..tokens.list[i + 1].start];
            for m in [m - 1, m - 2].into_iter().filter(|&m| m >= 2) {
                self.edit(Operator::Modulo, i, i + 1, format!("{word}{gap}{m}{suffix}"));
            }
        }
        let operands = match (self.tokens.index(i), range) {
            (Some(operand), _) => vec![operand],
            (_, Some((l, r))) => vec![(l, i), (i + 1, r)],
            _ => Vec::new(),
        };
        for (a, b) in operands.into_iter().filter(|(a, b)| a < b) {
            let text = self.tokens.text(a, b - 1);
            let e = if self.tokens.has_top(a, b, &WEAK) { format!("({text})") } else { text.to_string() };
            self.edit(Operator::Offset, a, b - 1, format!("{e} + 1"));
            self.edit(Operator::Offset, a, b - 1, format!("{e} - 1"));
        }
        for (op, last) in [(Operator::MemoStore, self.tokens.store(i)), (Operator::MemoLookup, self.tokens.lookup(i))] {
            if let Some(last) = last {
                let newlines = "\n".repeat(self.tokens.text(i, last).matches('\n').count());
                self.edit(op, i, last, newlines);
            }
        }
        if let Some((close, (a, b))) = self.tokens.match_lookup(i) {
            let compute = self.tokens.text(a, b - 1);
            let newlines =
                "\n".repeat(self.tokens.text(i, close).matches('\n').count() - compute.matches('\n').count());
            self.edit(Operator::MemoLookup, i, close, format!("{compute}{newlines}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DP_ARRAY: &str = r#"impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let n = stone_value.len();
        let mut f = vec![0; n + 1];
        for i in (0..n).rev() {
            let mut sum = 0;
            let mut best = i32::MIN;
            for k in 1..=3 {
                if i + k - 1 >= n {
                    break;
                }
                sum += stone_value[i + k - 1];
                best = best.max(sum - f[i + k]);
            }
            f[i] = best;
        }
        if f[0] > 0 { "Alice".to_string() } else if f[0] < 0 { "Bob".to_string() } else { "Tie".to_string() }
    }
}"#;
    const MEMO: &str = r#"impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let mut memo = vec![i32::MIN; stone_value.len()];
        let d = Self::dp(0, &stone_value, &mut memo);
        if d > 0 { "Alice".to_string() } else if d < 0 { "Bob".to_string() } else { "Tie".to_string() }
    }
    fn dp(i: usize, s: &[i32], memo: &mut Vec<i32>) -> i32 {
        if i >= s.len() { return 0; }
        if memo[i] != i32::MIN {
            return memo[i];
        }
        let (mut sum, mut best) = (0, i32::MIN);
        for k in 1..=3 {
            if i + k - 1 >= s.len() { break; }
            sum += s[i + k - 1];
            best = best.max(sum - Self::dp(i + k, s, memo));
        }
        memo[i] = best;
        best
    }
}"#;
    const ROLLING: &str = r#"impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let n = stone_value.len();
        let mut dp = [0i32; 4];
        for i in (0..n).rev() {
            let (mut sum, mut best) = (0, i32::MIN);
            for k in 1..=3 {
                if i + k - 1 >= n { break; }
                sum += stone_value[i + k - 1];
                best = best.max(sum - dp[(i + k) % 4]);
            }
            dp[i % 4] = best;
        }
        if dp[0] > 0 { "Alice".to_string() } else if dp[0] < 0 { "Bob".to_string() } else { "Tie".to_string() }
    }
}"#;
    const FOUR: &str = r#"impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let s = &stone_value[..];
        let n = s.len();
        let (mut f0, mut f1, mut f2, mut f3) = (0, 0, 0, 0);
        for i in (0..n).rev() {
            f0 = s[i] - f1;
            if i + 1 < n { f0 = f0.max(s[i] + s[i + 1] - f2); }
            if i + 2 < n { f0 = f0.max(s[i] + s[i + 1] + s[i + 2] - f3); }
            f3 = f2; f2 = f1; f1 = f0;
        }
        if f0 > 0 { "Alice".to_string() } else if f0 < 0 { "Bob".to_string() } else { "Tie".to_string() }
    }
}"#;

    fn counts(src: &str) -> Vec<usize> {
        let mutants = generate(src);
        Operator::ALL.iter().map(|&op| mutants.iter().filter(|m| m.operator == op).count()).collect()
    }

    fn find<'a>(mutants: &'a [Mutant], op: Operator, original: &str, replacement: &str) -> Option<&'a Mutant> {
        mutants.iter().find(|m| m.operator == op && m.original == original && m.replacement == replacement)
    }

    fn has(mutants: &[Mutant], op: Operator, changes: &[(&str, &str)]) -> bool {
        changes.iter().all(|(original, replacement)| find(mutants, op, original, replacement).is_some())
    }

    #[test]
    fn names_and_hand_checked_counts() {
        assert!(Operator::ALL.iter().all(|&op| Operator::parse(op.name()) == Some(op)));
        assert_eq!((Operator::MemoLookup.name(), Operator::parse("nope")), ("memo-lookup", None));
        assert_eq!(counts("let a = b + 1;"), [18, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(counts("x = -1; // 1000\nlet s = \"1\"; /* 2 */"), [18, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        // The literal 4 -> 2 is the same text as the modulo % 4 -> % 2, which comes first.
        assert_eq!(counts("let x = y[i] % 4;"), [18, 0, 0, 0, 2, 0, 2, 0, 0, 0, 0]);
        let m = generate("t[0i32] = v.0.max(1usize) - [-1; 4][0];");
        let literals = [("0i32", "(-1i32)"), ("0i32", "i32::MIN"), ("1usize", "2usize"), ("-1", "(-2)")];
        assert!(has(&m, Operator::Literal, &literals));
        assert!(m.iter().all(|m| m.column != 14 && m.original != "1")); // neither the field `.0` nor the 1 of `-1`
    }

    #[test]
    fn operators_fire_where_expected() {
        assert_eq!(counts(DP_ARRAY), [235, 8, 1, 15, 18, 2, 0, 1, 1, 0, 1]);
        assert_eq!(counts(MEMO), [217, 7, 1, 25, 12, 1, 0, 4, 1, 1, 3]);
        assert_eq!(counts(ROLLING), [272, 7, 1, 15, 18, 2, 4, 1, 1, 0, 1]);
        assert_eq!(counts(FOUR), [216, 11, 2, 20, 16, 1, 0, 1, 0, 0, 0]);
        let (dp, memo, rolling) = (generate(DP_ARRAY), generate(MEMO), generate(ROLLING));
        assert!(find(&dp, Operator::Offset, "n", "n + 1").is_some_and(|m| m.diff().1 == "for i in (0..n + 1).rev() {"));
        assert!(has(&dp, Operator::Range, &[("..=", ".."), ("..", "..=")]));
        assert!(
            has(&dp, Operator::MemoStore, &[("f[i] = best;", "")]) && has(&dp, Operator::MaxMin, &[("max", "min")])
        );
        assert!(
            find(&dp, Operator::BreakReturn, "break", "").is_some_and(|m| m.diff() == ("break;".into(), ";".into()))
        );
        let lookup = memo.iter().find(|m| m.operator == Operator::MemoLookup).unwrap();
        assert_eq!(lookup.diff(), ("if memo[i] != i32::MIN { return memo[i]; }".into(), "".into()));
        assert!(has(&memo, Operator::Literal, &[("i32::MIN", "(-1)"), ("i32::MIN", "i32::MAX"), ("3", "(-2)")]));
        assert!(has(&rolling, Operator::Modulo, &[("% 4", "% 3"), ("% 4", "% 2")]));
        assert!(has(&rolling, Operator::Offset, &[("(i + k) % 4", "(i + k) % 4 + 1"), ("i % 4", "i % 4 - 1")]));
    }

    #[test]
    fn every_mutant_keeps_the_lines_and_is_distinct() {
        let lookup =
            "fn f() -> i32 {\n    if let Some(&v) = memo.get(&i) {\n        return v;\n    }\n    x[s.len() - 1]\n}";
        for src in [DP_ARRAY, MEMO, ROLLING, FOUR, lookup] {
            let mutants = generate(src);
            let sources: HashSet<_> = mutants.iter().map(|m| m.source.as_str()).collect();
            let keys: HashSet<_> = mutants.iter().map(Mutant::key).collect();
            assert_eq!((sources.len(), keys.len()), (mutants.len(), mutants.len()));
            for m in &mutants {
                assert_eq!(m.source.lines().count(), src.lines().count(), "{}", m.key());
                let changed = src.lines().zip(m.source.lines()).enumerate().filter(|(_, (a, b))| a != b);
                let span = m.line - 1..m.line + m.original.matches('\n').count();
                assert!(m.source != src && changed.clone().all(|(n, _)| span.contains(&n)), "{}", m.key());
            }
        }
        let removed = &lookup[lookup.find("if").unwrap()..lookup.find("}\n    x").unwrap() + 1];
        assert!(has(&generate(lookup), Operator::MemoLookup, &[(removed, "\n\n")]));
    }

    #[test]
    fn keys_survive_edits_above_and_diff_shows_the_line() {
        let before = generate(DP_ARRAY);
        let after: Vec<_> = generate(&format!("// a comment\nconst UNRELATED: usize = 7;\n{DP_ARRAY}"));
        let after: std::collections::HashMap<_, _> = after.iter().map(|m| (m.key(), m)).collect();
        let m = find(&before, Operator::Literal, "1", "10000").unwrap();
        assert_eq!(m.key(), "literal | let mut f = vec![0; n + 1]; | 1 -> 10000 | 0");
        assert_eq!(m.diff(), ("let mut f = vec![0; n + 1];".into(), "let mut f = vec![0; n + 10000];".into()));
        for m in &before {
            let moved = after[&m.key()];
            assert_eq!((moved.line, moved.column, moved.diff()), (m.line + 2, m.column, m.diff()));
        }
        let twice: Vec<_> = generate("x = s[i] + s[i];\nx = s[i] + s[i];").iter().map(Mutant::key).collect();
        assert_eq!(twice.iter().filter(|k| k.starts_with("offset | x = s[i] + s[i]; | i -> i + 1 |")).count(), 4);
        assert_eq!(twice.iter().collect::<HashSet<_>>().len(), twice.len());
    }
}
