//! The tokenizer behind `judge mutants` (and the place of a file's method, for an editor), and the
//! questions the operators ask about the tokens.
//!
//! It keeps identifiers, numbers and punctuation (multi-char operators such as `..=`, `::`, `->`, `<=`, `+=`,
//! `<<`, `&&` as one token) and skips whitespace, `//` and nested `/* */` comments, string, byte-string,
//! raw-string and char literals, and lifetimes. Nothing it skips is ever mutated.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Ident,
    Num,
    Punct,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Token {
    pub(crate) kind: Kind,
    pub(crate) start: usize,
    pub(crate) end: usize,
}

const PUNCTS: [&str; 24] = [
    "..=", "...", "<<=", ">>=", "..", "::", "->", "=>", "<=", ">=", "==", "!=", "+=", "-=", "*=", "/=", "%=", "^=",
    "&=", "|=", "<<", ">>", "&&", "||",
];
/// Keywords that cannot end an operand (so a `-` after them is unary, a `[` after them is not an index).
pub(super) const KEYWORDS: [&str; 21] = [
    "as", "break", "const", "dyn", "else", "enum", "fn", "for", "if", "impl", "in", "let", "loop", "match", "move",
    "mut", "ref", "return", "struct", "type", "while",
];
const INT_TYPES: [&str; 12] = ["i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize"];
/// Where an operand of a range ends (brackets are skipped whole before this is asked), besides keywords.
const RANGE_STOPS: [&str; 20] =
    ["(", "[", "{", ")", "]", "}", ",", ";", "=", "=>", "+=", "-=", "*=", "/=", "%=", "..", "..=", "|", "||", "&&"];

pub(crate) fn tokenize(src: &str) -> Vec<Token> {
    let b = src.as_bytes();
    let at = |i: usize| b.get(i).copied().unwrap_or(0);
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let (mut i, mut list) = (0, Vec::new());
    while i < b.len() {
        let start = i;
        let char_literal = at(i + 1) == b'\\' || at(i + 1 + utf8_len(at(i + 1))) == b'\'';
        let kind = match b[i] {
            b'/' if at(i + 1) == b'/' => {
                i = src[i..].find('\n').map_or(b.len(), |p| i + p);
                None
            }
            b'/' if at(i + 1) == b'*' => {
                let mut depth = 0;
                while i < b.len() && (depth > 0 || i == start) {
                    let step = [b"/*", b"*/"].iter().position(|p| b[i..].starts_with(*p));
                    depth += [1, -1, 0][step.unwrap_or(2)];
                    i += if step.is_some() { 2 } else { 1 };
                }
                None
            }
            quote @ (b'"' | b'\'') if quote == b'"' || char_literal => {
                i += 1;
                while i < b.len() && b[i] != quote {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                None
            }
            c if word(c) || c == b'\'' => {
                i += 1;
                while word(at(i)) || (c.is_ascii_digit() && at(i) == b'.' && at(i + 1).is_ascii_digit()) {
                    i += 1;
                }
                let hashes = b[i..].iter().take_while(|&&h| h == b'#').count();
                match &src[start..i] {
                    "r" | "br" | "cr" if at(i + hashes) == b'"' => {
                        let close = format!("\"{}", "#".repeat(hashes));
                        i = src[i + hashes + 1..].find(&close).map_or(b.len(), |p| i + hashes + 1 + p + close.len());
                        None
                    }
                    "b" | "c" if matches!(at(i), b'"' | b'\'') => None, // a prefix: the literal is skipped next
                    _ if c == b'\'' => None,                            // a lifetime or a label
                    _ if c.is_ascii_digit() => Some(Kind::Num),
                    _ => Some(Kind::Ident),
                }
            }
            c => {
                i += PUNCTS.iter().find(|p| b[i..].starts_with(p.as_bytes())).map_or(1, |p| p.len());
                (!c.is_ascii_whitespace() && c < 0x80).then_some(Kind::Punct)
            }
        };
        i = i.min(b.len());
        if let Some(kind) = kind {
            list.push(Token { kind, start, end: i });
        }
    }
    list
}

fn utf8_len(first: u8) -> usize {
    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 4][usize::from(first >> 4)]
}

/// A source and its tokens. Token indices past either end read as "".
pub(super) struct Tokens<'a> {
    pub(super) src: &'a str,
    pub(super) list: Vec<Token>,
}

impl<'a> Tokens<'a> {
    pub(super) fn new(src: &'a str) -> Self {
        Tokens { src, list: tokenize(src) }
    }

    pub(super) fn word(&self, i: usize) -> &'a str {
        let src = self.src;
        self.list.get(i).map_or("", |t| &src[t.start..t.end])
    }

    pub(super) fn kind(&self, i: usize) -> Option<Kind> {
        self.list.get(i).map(|t| t.kind)
    }

    /// The text from the start of token `first` to the end of token `last`.
    pub(super) fn text(&self, first: usize, last: usize) -> &'a str {
        &self.src[self.list[first].start..self.list[last].end]
    }

    /// Whether token `i` can end an operand, so that a `-` after it is binary and a `[` after it indexes.
    pub(super) fn operand_end(&self, i: usize) -> bool {
        match self.kind(i) {
            Some(Kind::Num) => true,
            Some(Kind::Ident) => !KEYWORDS.contains(&self.word(i)),
            _ => matches!(self.word(i), ")" | "]" | "?"),
        }
    }

    /// The value and type suffix of a plain decimal integer literal (not `0x1f`, `1.5`, `1e3`).
    pub(super) fn int(&self, i: usize) -> Option<(i128, &'a str)> {
        let text = self.word(i);
        let digits = text.find(|c: char| !c.is_ascii_digit() && c != '_').unwrap_or(text.len());
        let suffix = &text[digits..];
        let plain = self.kind(i) == Some(Kind::Num) && (suffix.is_empty() || INT_TYPES.contains(&suffix));
        Some((text[..digits].replace('_', "").parse().ok().filter(|_| plain)?, suffix))
    }

    /// The literal at token `i`: its first and last token, value and type suffix. That is an integer (with its
    /// unary minus, the minus being its first token; not a tuple field `.0`), or the path `i32::MIN`/`i32::MAX`.
    pub(super) fn literal(&self, i: usize) -> Option<(usize, usize, String, &'a str)> {
        let prev = self.word(i.wrapping_sub(1));
        if let Some((value, suffix)) = self.int(i).filter(|_| prev != ".") {
            let negated = prev == "-" && !self.operand_end(i.wrapping_sub(2));
            return Some((i - usize::from(negated), i, if negated { -value } else { value }.to_string(), suffix));
        }
        let path = self.word(i) == "i32" && self.word(i + 1) == "::" && matches!(self.word(i + 2), "MIN" | "MAX");
        (path && prev != "::").then(|| (i, i + 2, format!("i32::{}", self.word(i + 2)), ""))
    }

    /// The bracket matching the one at `i`, searching forward or backward (the last token searched if none).
    pub(super) fn matching(&self, i: usize, forward: bool) -> usize {
        let (mut depth, mut j) = (0, i);
        loop {
            depth += match self.word(j) {
                "(" | "[" | "{" => 1,
                ")" | "]" | "}" => -1,
                _ => 0,
            } * if forward { 1 } else { -1 };
            if depth <= 0 || (forward && j + 1 >= self.list.len()) || (!forward && j == 0) {
                return j;
            }
            j = if forward { j + 1 } else { j - 1 };
        }
    }

    /// The first token from `j` on, outside `()` and `[]` (and `{}` if `braces`), for which `stop` holds.
    pub(super) fn scan(&self, mut j: usize, braces: bool, stop: impl Fn(&str) -> bool) -> usize {
        while j < self.list.len() {
            match self.word(j) {
                "(" | "[" => j = self.matching(j, true) + 1,
                "{" if braces => j = self.matching(j, true) + 1,
                t if stop(t) => break,
                _ => j += 1,
            }
        }
        j.min(self.list.len())
    }

    /// Whether tokens `a..b` hold one of `set` outside brackets.
    pub(super) fn has_top(&self, mut a: usize, b: usize, set: &[&str]) -> bool {
        while a < b {
            if matches!(self.word(a), "(" | "[" | "{") {
                a = self.matching(a, true);
            } else if set.contains(&self.word(a)) {
                return true;
            }
            a += 1;
        }
        false
    }

    /// The operands of the range operator at `i`, as tokens `l..i` and `i + 1..r` (either may be empty), or
    /// None for a slice pattern (`[a, ..]`), a struct update (`..base`) or a range pattern (`0..=9 =>`).
    pub(super) fn range(&self, i: usize) -> Option<(usize, usize)> {
        let stop = |t: &str| RANGE_STOPS.contains(&t) || (t != "as" && KEYWORDS.contains(&t));
        let mut l = i;
        while l > 0 {
            match self.word(l - 1) {
                ")" | "]" => l = self.matching(l - 1, false),
                t if stop(t) => break,
                _ => l -= 1,
            }
        }
        let r = self.scan(i + 1, false, stop);
        let update = l == i && matches!(self.word(i.wrapping_sub(1)), "," | "{");
        (!update && (l < i || r > i + 1) && self.word(r) != "=>").then_some((l, r))
    }
    /// The comparison operators, in order. A `<` opens generics, not a comparison, after `::`, after a
    /// CamelCase name (`Vec<`), after `fn name`, `struct Name` and the like, or after a token that cannot end an
    /// operand (`impl<`); the `>` or `>>` that closes it is not a comparison either.
    pub(super) fn comparisons(&self) -> Vec<usize> {
        let (mut generics, mut found) = (0, Vec::new());
        for i in 0..self.list.len() {
            let (prev, t) = (self.word(i.wrapping_sub(1)), self.word(i));
            let camel = prev.starts_with(|c: char| c.is_ascii_uppercase()) && prev.contains(char::is_lowercase);
            let declared = matches!(self.word(i.wrapping_sub(2)), "fn" | "struct" | "enum" | "trait" | "type" | "impl");
            match t {
                "<" if !self.operand_end(i.wrapping_sub(1)) || camel || declared => generics += 1,
                ">" | ">>" if generics > 0 => generics -= t.len().min(generics),
                "{" | "}" => generics = 0,
                "<" | "<=" | ">" | ">=" | "==" | "!=" => found.push(i),
                _ => {}
            }
        }
        found
    }

    /// The operand of the index brackets opening at `i` (`x[e]`), as tokens `a..b`, unless empty or a range.
    pub(super) fn index(&self, i: usize) -> Option<(usize, usize)> {
        let close = self.matching(i, true);
        let index = self.word(i) == "[" && self.operand_end(i.wrapping_sub(1)) && close > i + 1;
        (index && !self.has_top(i + 1, close, &["..", "..="])).then_some((i + 1, close))
    }

    fn statement_start(&self, i: usize) -> bool {
        i == 0 || matches!(self.word(i - 1), ";" | "{" | "}")
    }

    /// The last token of a statement `x[..] = e;` (also `x[i].1 = e;`) or `x.insert(k, v);` starting at `i`.
    pub(super) fn store(&self, i: usize) -> Option<usize> {
        if !self.statement_start(i) || self.kind(i) != Some(Kind::Ident) || KEYWORDS.contains(&self.word(i)) {
            return None;
        }
        let mut j = i + 1;
        loop {
            match (self.word(j), self.kind(j + 1)) {
                ("[", _) => j = self.matching(j, true) + 1,
                (".", Some(Kind::Num | Kind::Ident)) if j > i + 1 && self.word(j + 2) != "(" => j += 2,
                _ => break,
            }
        }
        let insert = j == i + 1 && self.word(j) == "." && self.word(j + 1) == "insert" && self.word(j + 2) == "(";
        let end = self.scan(j + 1, true, |t| t == ";" || t == "}");
        ((j > i + 1 && self.word(j) == "=") || insert).then_some(if self.word(end) == ";" { end } else { end - 1 })
    }

    /// A lookup written as a match, `match memo[k] { MARKER => compute, known => known }`: its closing
    /// brace and the tokens of `compute`, which is what is left when the lookup is removed.
    pub(super) fn match_lookup(&self, i: usize) -> Option<(usize, (usize, usize))> {
        let open = self.scan(i + 1, false, |t| t == "{");
        let reads = (i + 1..open).any(|j| self.word(j) == "[" && self.operand_end(j - 1));
        if self.word(i) != "match" || self.word(open) != "{" || !reads {
            return None;
        }
        let close = self.matching(open, true);
        let (mut arms, mut j) = (Vec::new(), open + 1);
        while j < close {
            let arrow = self.scan(j, true, |t| t == "=>");
            let end = self.scan(arrow + 1, true, |t| t == "," || t == "}").min(close);
            arms.push(((j, arrow), (arrow + 1, end)));
            j = end + 1;
        }
        let [(marker, compute), (bound, known)] = arms[..] else { return None };
        let single = |(a, b): (usize, usize)| (b == a + 1 && self.kind(a) == Some(Kind::Ident)).then(|| self.word(a));
        let keeps = single(bound).is_some_and(|name| single(known) == Some(name));
        (keeps && single(marker).is_none() && compute.1 > compute.0).then_some((close, compute))
    }

    /// The closing brace of a statement `if <reads x[..] or calls .get( or .contains_key(> { return e; }`
    /// starting at `i`, with no `else`, where `e` shares a name with the condition.
    pub(super) fn lookup(&self, i: usize) -> Option<usize> {
        let open = self.scan(i + 1, false, |t| t == "{");
        if !self.statement_start(i) || self.word(i) != "if" || self.word(open) != "{" || self.word(open + 1) != "return"
        {
            return None;
        }
        let close = self.matching(open, true);
        let reads = (i + 1..open).any(|j| {
            (self.word(j) == "[" && self.operand_end(j - 1))
                || (self.word(j) == "." && matches!(self.word(j + 1), "get" | "contains_key"))
        });
        let names = |a: usize, b: usize| (a..b).filter(|&j| self.kind(j) == Some(Kind::Ident)).map(|j| self.word(j));
        let shared = names(open + 2, close).any(|n| !KEYWORDS.contains(&n) && names(i + 1, open).any(|m| m == n));
        let only_return = self.scan(open + 1, true, |t| t == ";" || t == "}") + 1 >= close;
        (reads && shared && only_return && self.word(close) == "}" && self.word(close + 1) != "else").then_some(close)
    }
}

/// The byte offset of a 1-based line and char column.
pub(crate) fn byte_offset(src: &str, line: usize, column: usize) -> usize {
    let start: usize = src.split_inclusive('\n').take(line - 1).map(str::len).sum();
    start + src[start..].chars().take(column - 1).map(char::len_utf8).sum::<usize>()
}

/// `count` lines from 1-based `line`, trimmed, the empty ones dropped, joined with a space.
pub(super) fn lines(src: &str, line: usize, count: usize) -> String {
    let lines: Vec<&str> = src.lines().skip(line - 1).take(count).map(str::trim).filter(|l| !l.is_empty()).collect();
    lines.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(src: &str) -> Vec<&str> {
        let tokens = Tokens::new(src);
        (0..tokens.list.len()).map(|i| tokens.word(i)).collect()
    }

    #[test]
    fn skips_comments_strings_chars_and_lifetimes() {
        let src = "a // 1\n/* 2 /* 3 */ 4 */ \"5\\\"\" b\"6\" r#\"7\"# '8' '\\'' 'é' b'9' fn f<'a>(x: &'a str) -> é";
        assert_eq!(texts(src), ["a", "fn", "f", "<", ">", "(", "x", ":", "&", "str", ")", "->"]);
    }

    #[test]
    fn multi_char_operators_and_numbers() {
        let src = "for k in 1..=3.min(n) { x -= a[i] >> 2 != 0i32 && 1_000usize <= 1.5e3 as usize; memo[0].1 }";
        let want = "for k in 1 ..= 3 . min ( n ) { x -= a [ i ] >> 2 != 0i32 && 1_000usize <= 1.5e3 as usize ; memo [ 0 ] . 1 }";
        assert_eq!(texts(src).join(" "), want);
        let tokens = Tokens::new(src);
        let ints: Vec<_> = (0..tokens.list.len()).filter_map(|i| tokens.int(i)).collect();
        assert_eq!(ints, [(1, ""), (3, ""), (2, ""), (0, "i32"), (1000, "usize"), (0, ""), (1, "")]);
    }

    #[test]
    fn generics_are_not_comparisons() {
        let src = "fn f<T>(v: Vec<i32>, o: Option<Vec<usize>>) -> String { let w = Vec::<u8>::new(); a < b && c >= N }";
        let tokens = Tokens::new(src);
        let found: Vec<_> = tokens.comparisons().into_iter().map(|i| tokens.word(i)).collect();
        assert_eq!(found, ["<", ">="]);
    }

    #[test]
    fn statements_ranges_and_indices() {
        let src = "{ memo[i].1 = { a }; m.insert(k, v); x = y[j]; if memo.get(&i) != None { return memo[i]; } }";
        let tokens = Tokens::new(src);
        let stores: Vec<_> = (0..tokens.list.len()).filter_map(|i| Some(tokens.text(i, tokens.store(i)?))).collect();
        assert_eq!(stores, ["memo[i].1 = { a };", "m.insert(k, v);"]);
        let lookup = (0..tokens.list.len()).find_map(|i| Some(tokens.text(i, tokens.lookup(i)?)));
        assert_eq!(lookup, Some("if memo.get(&i) != None { return memo[i]; }"));
        let tokens = Tokens::new("for i in (a + 1..n.min(3)).rev() { s[..i]; t[i..]; S { x, ..d }; [a, ..] = b; }");
        let operand = |(a, b): (usize, usize)| if a < b { tokens.text(a, b - 1) } else { "" };
        let ranges: Vec<_> = (0..tokens.list.len())
            .filter(|&i| matches!(tokens.word(i), ".." | "..="))
            .filter_map(|i| tokens.range(i).map(|(l, r)| (operand((l, i)), operand((i + 1, r)))))
            .collect();
        assert_eq!(ranges, [("a + 1", "n.min(3)"), ("", "i"), ("i", "")]);
        let indices: Vec<_> = (0..tokens.list.len()).filter_map(|i| tokens.index(i).map(operand)).collect();
        assert!(indices.is_empty());
    }

    #[test]
    fn a_lookup_written_as_a_match_is_found_with_what_it_computes() {
        let src =
            "let next = match memo[k] {\n    i32::MIN => Self::lead(&s[k..], &mut memo[k..]),\n    known => known,\n};";
        let tokens = Tokens::new(src);
        let at = (0..tokens.list.len()).find(|&i| tokens.word(i) == "match").unwrap();
        let (close, (a, b)) = tokens.match_lookup(at).unwrap();
        assert_eq!((tokens.word(close), tokens.text(a, b - 1)), ("}", "Self::lead(&s[k..], &mut memo[k..])"));
        let plain = Tokens::new("match x { 0 => a, y => b }");
        assert_eq!(plain.match_lookup(0), None);
    }
}
