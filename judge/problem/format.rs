//! LeetCode's text formats for this problem: the input `[1,2,3,7]` and the output `"Bob"`.
//! Spaces, a trailing newline and CRLF are accepted, as LeetCode's testcase box accepts them;
//! anything else is an error with the line and column where it was found. Errors are data:
//! `render` words them.

use super::{Answer, MAX_LEN, MAX_VALUE, MIN_VALUE};

/// A parse error at a 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    pub line: usize,
    pub column: usize,
    pub fault: Fault,
}

/// What was wrong at that place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Something else stood where `wanted` belongs; `found` is None at the end of the text.
    Expected { wanted: Token, found: Option<char> },
    /// `[]`: LeetCode requires at least one pile.
    Empty,
    /// A text of testcases with none in it: nothing, or blank lines.
    NoTestcase,
    /// A value outside -1000..=1000, as written, and its index.
    OutOfRange { value: String, index: usize },
    /// A value past the 50,000th.
    TooMany,
    /// `007`: JSON numbers have no leading zeros.
    LeadingZero { number: String },
    /// A quoted word that is not Alice, Bob or Tie.
    NotAnAnswer { word: String },
    /// The answers of a file of several testcases end before the testcases do.
    TooFewAnswers { testcases: usize, answers: usize },
    /// An answer past the last testcase of the file's inputs.
    TooManyAnswers { testcases: usize },
}

/// What the parser was looking for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Token {
    OpenBracket,
    CommaOrClose,
    Number,
    End,
    OpenQuote,
    CloseQuote,
}

/// A cursor over the text that knows its line and column.
struct Cursor<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Self {
        // A byte-order mark is invisible in editors; accept it like whitespace.
        let at = if text.starts_with('\u{feff}') { 3 } else { 0 };
        Cursor { text, at }
    }

    fn peek(&self) -> Option<char> {
        // ASCII is every valid byte here: decode a char only when it is not.
        match self.text.as_bytes().get(self.at) {
            Some(&byte) if byte.is_ascii() => Some(byte as char),
            Some(_) => self.text[self.at..].chars().next(),
            None => None,
        }
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += c.len_utf8();
        Some(c)
    }

    fn skip_spaces(&mut self) {
        while let Some(c) = self.peek() {
            match c {
                ' ' | '\t' | '\n' => self.at += 1,
                '\r' if self.text[self.at..].starts_with("\r\n") => self.at += 1,
                _ => break,
            }
        }
    }

    fn error_at(&self, at: usize, fault: Fault) -> FormatError {
        let before = &self.text[..at];
        let line = before.matches('\n').count() + 1;
        let line_text = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
        // The byte-order mark is invisible, so it takes no column.
        let column = line_text.trim_start_matches('\u{feff}').chars().count() + 1;
        FormatError { line, column, fault }
    }

    /// "expected X, found Y" at the cursor.
    fn expected(&self, wanted: Token) -> FormatError {
        self.error_at(self.at, Fault::Expected { wanted, found: self.peek() })
    }

    fn expect(&mut self, wanted: char, token: Token) -> Result<(), FormatError> {
        if self.peek() == Some(wanted) {
            self.at += wanted.len_utf8();
            Ok(())
        } else {
            Err(self.expected(token))
        }
    }

    fn finish(&mut self) -> Result<(), FormatError> {
        self.skip_spaces();
        match self.peek() {
            None => Ok(()),
            Some(_) => Err(self.expected(Token::End)),
        }
    }
}

/// Parses `[v1,v2,…]` and checks LeetCode's constraints on it.
pub fn parse_input(text: &str) -> Result<Vec<i32>, FormatError> {
    match parse_plain(text.as_bytes()) {
        Some(values) => Ok(values),
        None => parse_positioned(text),
    }
}

/// The form every stored case has, `[1,-2,3]` with at most trailing whitespace, read a byte
/// at a time with no positions kept (the README's "where the time goes" says what it saves).
/// Anything else (spaces inside, errors, odd forms) is None, and the positioned parser decides.
fn parse_plain(bytes: &[u8]) -> Option<Vec<i32>> {
    let close = bytes.iter().rposition(|&b| b == b']')?;
    let mut tail = &bytes[close + 1..];
    while let Some((&first, rest)) = tail.split_first() {
        tail = match first {
            b' ' | b'\t' | b'\n' => rest,
            b'\r' => rest.strip_prefix(b"\n")?,
            _ => return None,
        };
    }
    let mut rest = bytes[..close].strip_prefix(b"[")?;
    let mut values = Vec::with_capacity(rest.len() / 4 + 1);
    loop {
        let (negative, digits) = match rest {
            [b'-', digits @ ..] => (true, digits),
            _ => (false, rest),
        };
        let (mut magnitude, mut len) = (0i32, 0);
        while let Some(digit) = digits.get(len).map(|b| b.wrapping_sub(b'0')).filter(|d| *d <= 9) {
            magnitude = magnitude * 10 + i32::from(digit);
            len += 1;
            if len > 4 {
                return None;
            }
        }
        let value = if negative { -magnitude } else { magnitude };
        let plain = len == 1 || (len > 1 && digits[0] != b'0');
        if !plain || !(MIN_VALUE..=MAX_VALUE).contains(&value) || values.len() == MAX_LEN {
            return None;
        }
        values.push(value);
        match digits.get(len) {
            None => return Some(values),
            Some(b',') => rest = &digits[len + 1..],
            Some(_) => return None,
        }
    }
}

/// The parser that knows where it is, for every form LeetCode accepts and every error.
fn parse_positioned(text: &str) -> Result<Vec<i32>, FormatError> {
    let mut cur = Cursor::new(text);
    cur.skip_spaces();
    cur.expect('[', Token::OpenBracket)?;
    let mut values = Vec::new();
    cur.skip_spaces();
    if cur.peek() == Some(']') {
        return Err(cur.error_at(cur.at, Fault::Empty));
    }
    loop {
        cur.skip_spaces();
        let start = cur.at;
        let value = parse_integer(&mut cur)?;
        if !(i64::from(MIN_VALUE)..=i64::from(MAX_VALUE)).contains(&value) {
            let value = cur.text[start..cur.at].to_string();
            return Err(cur.error_at(start, Fault::OutOfRange { value, index: values.len() }));
        }
        if values.len() == MAX_LEN {
            return Err(cur.error_at(start, Fault::TooMany));
        }
        values.push(value as i32);
        cur.skip_spaces();
        match cur.peek() {
            Some(',') => cur.at += 1,
            Some(']') => {
                cur.at += 1;
                break;
            }
            _ => return Err(cur.expected(Token::CommaOrClose)),
        }
    }
    cur.finish()?;
    Ok(values)
}

/// An optional minus sign and decimal digits, without leading zeros, as in JSON.
fn parse_integer(cur: &mut Cursor) -> Result<i64, FormatError> {
    let start = cur.at;
    let negative = cur.peek() == Some('-');
    if negative {
        cur.at += 1;
    }
    let digits_start = cur.at;
    while cur.peek().is_some_and(|c| c.is_ascii_digit()) {
        cur.at += 1;
    }
    let digits = &cur.text[digits_start..cur.at];
    if digits.is_empty() {
        cur.at = digits_start;
        return Err(cur.expected(Token::Number));
    }
    if digits.len() > 1 && digits.starts_with('0') {
        return Err(cur.error_at(start, Fault::LeadingZero { number: cur.text[start..cur.at].to_string() }));
    }
    // Anything longer is out of range anyway: saturate rather than overflow.
    let magnitude: i64 = digits.parse().unwrap_or(i64::MAX);
    Ok(if negative { -magnitude } else { magnitude })
}

/// The testcases of LeetCode's testcase box: one input per line (blank lines skipped), or one
/// input spread over several lines. An error names the line in the whole text.
pub fn parse_testcases(text: &str) -> Result<Vec<Vec<i32>>, FormatError> {
    Ok(parse_lines(text)?.into_iter().map(|(_, values)| values).collect())
}

/// `parse_testcases`, each testcase with the 1-based line it starts on.
pub fn parse_lines(text: &str) -> Result<Vec<(usize, Vec<i32>)>, FormatError> {
    let whole = parse_input(text);
    let lines: Vec<(usize, &str)> = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()).collect();
    if lines.is_empty() {
        return Err(FormatError { line: 1, column: 1, fault: Fault::NoTestcase });
    }
    if whole.is_ok() || lines.len() < 2 {
        let first = lines.first().map_or(1, |(at, _)| at + 1);
        return whole.map(|values| vec![(first, values)]);
    }
    lines
        .into_iter()
        .map(|(at, line)| match parse_input(line) {
            Ok(values) => Ok((at + 1, values)),
            Err(e) => Err(FormatError { line: e.line + at, ..e }),
        })
        .collect()
}

/// The answers to a file of `testcases` testcases: one answer a line, in order (blank lines
/// skipped), as `write_outputs` writes them; for one testcase, the answer as `parse_output`
/// reads it. Answers that end before the testcases do are an error at the end of the text, an
/// answer past them at its line.
pub fn parse_outputs(text: &str, testcases: usize) -> Result<Vec<Answer>, FormatError> {
    if testcases <= 1 {
        return parse_output(text).map(|answer| vec![answer]);
    }
    let mut answers = Vec::with_capacity(testcases);
    for (at, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        if answers.len() == testcases {
            let column = line.chars().take_while(|c| c.is_whitespace()).count() + 1;
            return Err(FormatError { line: at + 1, column, fault: Fault::TooManyAnswers { testcases } });
        }
        // The form `write_outputs` writes, read at once; anything else by the positioned reader.
        let plain = Answer::ALL
            .into_iter()
            .find(|a| line.strip_prefix('"').and_then(|l| l.strip_suffix('"')) == Some(a.as_str()));
        match plain {
            Some(answer) => answers.push(answer),
            None => answers.push(parse_output(line).map_err(|e| FormatError { line: e.line + at, ..e })?),
        }
    }
    if answers.len() < testcases {
        let end = Cursor::new(text);
        let fault = Fault::TooFewAnswers { testcases, answers: answers.len() };
        return Err(end.error_at(text.len(), fault));
    }
    Ok(answers)
}

/// Parses `"Alice"`, `"Bob"` or `"Tie"`.
pub fn parse_output(text: &str) -> Result<Answer, FormatError> {
    let mut cur = Cursor::new(text);
    cur.skip_spaces();
    cur.expect('"', Token::OpenQuote)?;
    let start = cur.at;
    while cur.peek().is_some_and(|c| c != '"' && c != '\n') {
        cur.bump();
    }
    let word = &cur.text[start..cur.at];
    cur.expect('"', Token::CloseQuote)?;
    let answer = Answer::ALL
        .into_iter()
        .find(|a| a.as_str() == word)
        .ok_or_else(|| cur.error_at(start, Fault::NotAnAnswer { word: word.to_string() }))?;
    cur.finish()?;
    Ok(answer)
}

/// The input as LeetCode's testcase box shows it, with a trailing newline.
pub fn write_input(values: &[i32]) -> String {
    let mut text = String::with_capacity(values.len() * 5 + 3);
    text.push('[');
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            text.push(',');
        }
        text.push_str(&v.to_string());
    }
    text.push_str("]\n");
    text
}

/// The output as LeetCode prints it, with a trailing newline.
pub fn write_output(answer: Answer) -> String {
    format!("\"{}\"\n", answer.as_str())
}

/// Several testcases, one a line, as LeetCode's testcase box takes them.
pub fn write_inputs(testcases: &[Vec<i32>]) -> String {
    testcases.iter().map(|values| write_input(values)).collect()
}

/// Their answers, one a line, in the same order.
pub fn write_outputs(answers: &[Answer]) -> String {
    answers.iter().map(|answer| write_output(*answer)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::generator::Rng;
    use crate::problem::MIN_LEN;

    /// Where parsing `text` failed and why.
    fn error(text: &str) -> (usize, usize, Fault) {
        let e = parse_input(text).unwrap_err();
        (e.line, e.column, e.fault)
    }

    fn expected(wanted: Token, found: Option<char>) -> Fault {
        Fault::Expected { wanted, found }
    }

    #[test]
    fn testcases_come_one_per_line_and_errors_name_their_line() {
        assert_eq!(parse_testcases("[1,2,3,7]\n\n[1,2,3,-9]\n").unwrap(), [vec![1, 2, 3, 7], vec![1, 2, 3, -9]]);
        assert_eq!(parse_testcases("[1,\n 2]").unwrap(), [vec![1, 2]]);
        let e = parse_testcases("[1]\n[2]\n[3,]").unwrap_err();
        assert_eq!((e.line, e.column), (3, 4));
    }

    #[test]
    fn testcases_keep_their_lines_and_answers_come_one_a_line() {
        let lines = parse_lines("\n[1,2]\n\n[0]\n").unwrap();
        assert_eq!(lines, [(2, vec![1, 2]), (4, vec![0])]);
        assert_eq!(parse_lines("\n[1,\n 2]").unwrap(), [(2, vec![1, 2])]);
        let inputs = vec![vec![1, -1], vec![0], vec![-2, 2, 1]];
        let answers = [Answer::Alice, Answer::Tie, Answer::Bob];
        let written = write_inputs(&inputs);
        assert_eq!(written.lines().count(), 3);
        assert_eq!(parse_testcases(&written).unwrap(), inputs);
        assert_eq!(parse_outputs(&write_outputs(&answers), 3).unwrap(), answers);
        assert_eq!(parse_outputs("\n\"Bob\"\n", 1).unwrap(), [Answer::Bob]);
        let e = parse_outputs("\"Bob\"\n\"Tie\"\n", 3).unwrap_err();
        assert_eq!((e.line, e.column, e.fault), (3, 1, Fault::TooFewAnswers { testcases: 3, answers: 2 }));
        let e = parse_outputs("\"Bob\"\n\"Tie\"\n \"Bob\"\n", 2).unwrap_err();
        assert_eq!((e.line, e.column, e.fault), (3, 2, Fault::TooManyAnswers { testcases: 2 }));
        let e = parse_outputs("\"Bob\"\n\"Tei\"\n", 2).unwrap_err();
        assert_eq!((e.line, e.column), (2, 2));
    }

    #[test]
    fn accepts_what_leetcode_accepts() {
        assert_eq!(parse_input("[1,2,3,7]").unwrap(), [1, 2, 3, 7]);
        assert_eq!(parse_input(" [ 1 , -2 ,3 ] \r\n").unwrap(), [1, -2, 3]);
        assert_eq!(parse_input("[-1000,1000,0,-0]\n\n").unwrap(), [-1000, 1000, 0, 0]);
        assert_eq!(parse_output("\"Bob\"\r\n").unwrap(), Answer::Bob);
        assert_eq!(parse_output(" \"Tie\" ").unwrap(), Answer::Tie);
    }

    #[test]
    fn errors_say_where_and_what() {
        assert_eq!(error("1,2]"), (1, 1, expected(Token::OpenBracket, Some('1'))));
        assert_eq!(error("[1,2"), (1, 5, expected(Token::CommaOrClose, None)));
        assert_eq!(error("[1,,2]"), (1, 4, expected(Token::Number, Some(','))));
        assert_eq!(error("[1,2,]"), (1, 6, expected(Token::Number, Some(']'))));
        assert_eq!(error("[]"), (1, 2, Fault::Empty));
        for blank in ["", "\n\n", "  \n"] {
            assert_eq!(parse_lines(blank).map_err(|e| e.fault), Err(Fault::NoTestcase), "{blank:?}");
        }
        assert_eq!(error("[1]\n[2]"), (2, 1, expected(Token::End, Some('['))));
        assert_eq!(error("[1,\n 2, 1001]"), (2, 5, Fault::OutOfRange { value: "1001".into(), index: 2 }));
        let huge = "99999999999999999999999";
        assert_eq!(error(&format!("[{huge}]")), (1, 2, Fault::OutOfRange { value: huge.into(), index: 0 }));
        assert_eq!(error("[007]"), (1, 2, Fault::LeadingZero { number: "007".into() }));
        assert_eq!(error("\u{feff}[1,,3]"), (1, 4, expected(Token::Number, Some(','))));
        assert_eq!(error("[1\r2]"), (1, 3, expected(Token::CommaOrClose, Some('\r'))));
        let out = |t: &str| parse_output(t).map_err(|e| (e.line, e.column, e.fault)).unwrap_err();
        assert_eq!(out("Bob"), (1, 1, expected(Token::OpenQuote, Some('B'))));
        assert_eq!(out("\"bob\""), (1, 2, Fault::NotAnAnswer { word: "bob".into() }));
        assert_eq!(out("\"Bob\" x"), (1, 7, expected(Token::End, Some('x'))));
    }

    #[test]
    fn the_length_limit_is_enforced_at_the_value_past_it() {
        let text = format!("[{}]", vec!["0"; MAX_LEN + 1].join(","));
        assert_eq!(error(&text).2, Fault::TooMany);
        let text = format!("[{}]", vec!["0"; MAX_LEN].join(","));
        assert_eq!(parse_input(&text).unwrap().len(), MAX_LEN);
    }

    #[test]
    fn writing_then_reading_gives_back_the_values() {
        let mut rng = Rng::new(3);
        for _ in 0..200 {
            let len = 1 + rng.below(300);
            let values: Vec<i32> = (0..len).map(|_| rng.range(MIN_VALUE, MAX_VALUE)).collect();
            assert_eq!(parse_input(&write_input(&values)).unwrap(), values);
        }
        for answer in Answer::ALL {
            assert_eq!(parse_output(&write_output(answer)).unwrap(), answer);
        }
    }

    /// Random bytes and mutations of valid files: the reader never panics, and every error
    /// points inside the text (a line that exists, a column within it, or just past its end).
    #[test]
    fn random_and_mutated_inputs_give_a_value_or_a_positioned_error() {
        const ALPHABET: &[u8] = b"[],-0123456789 \r\n\t+.eAliceBobT\"\x00\xff";
        let mut rng = Rng::new(99);
        let mut outcomes = [0usize; 2];
        for round in 0..60_000 {
            let bytes: Vec<u8> = if round % 3 == 0 {
                (0..rng.below(40)).map(|_| ALPHABET[rng.below(ALPHABET.len())]).collect()
            } else {
                let len = 1 + rng.below(20);
                let values: Vec<i32> = (0..len).map(|_| rng.range(-1200, 1200)).collect();
                let mut bytes = if round % 3 == 1 {
                    write_input(&values).into_bytes()
                } else {
                    write_output(Answer::ALL[rng.below(3)]).into_bytes()
                };
                for _ in 0..1 + rng.below(3) {
                    let at = rng.below(bytes.len() + 1);
                    match rng.below(3) {
                        0 if at < bytes.len() => {
                            bytes.remove(at);
                        }
                        1 if at < bytes.len() => bytes[at] = ALPHABET[rng.below(ALPHABET.len())],
                        _ => bytes.insert(at, ALPHABET[rng.below(ALPHABET.len())]),
                    }
                }
                bytes
            };
            let text = String::from_utf8_lossy(&bytes);
            let results = [parse_input(&text).map(|_| ()), parse_output(&text).map(|_| ())];
            for result in results {
                match result {
                    Ok(()) => outcomes[0] += 1,
                    Err(e) => {
                        outcomes[1] += 1;
                        let lines: Vec<&str> = text.split('\n').collect();
                        assert!(e.line >= 1 && e.line <= lines.len(), "{e:?} for {text:?}");
                        let width = lines[e.line - 1].chars().count();
                        assert!(e.column >= 1 && e.column <= width + 1, "{e:?} for {text:?}");
                    }
                }
            }
            if let Some(values) = parse_plain(text.as_bytes()) {
                assert_eq!(Ok(values), parse_positioned(&text), "the fast reader differs on {text:?}");
            }
            if let Ok(values) = parse_input(&text) {
                assert!((MIN_LEN..=MAX_LEN).contains(&values.len()));
                assert!(values.iter().all(|v| (MIN_VALUE..=MAX_VALUE).contains(v)));
            }
        }
        // Both sides were exercised: some mutations stay valid, most do not.
        assert!(outcomes[0] > 1000 && outcomes[1] > 1000, "{outcomes:?}");
    }
}
