//! JSON, written: enough for the reports, with correct string escaping. The reading half is
//! for the tests alone (unit and integration: they include this file and read the judge's
//! JSON with it), so it is compiled only for them. Self-contained: no `crate::` paths.

use std::fmt::Write as _;

/// A JSON value.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Int(i128),
    Float(f64),
    Str(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    pub fn str(text: impl Into<String>) -> Json {
        Json::Str(text.into())
    }

    pub fn int(n: impl Into<i128>) -> Json {
        Json::Int(n.into())
    }

    pub fn opt<T>(value: Option<T>, make: impl FnOnce(T) -> Json) -> Json {
        value.map_or(Json::Null, make)
    }

    pub fn object<'a>(fields: impl IntoIterator<Item = (&'a str, Json)>) -> Json {
        Json::Object(fields.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
    }

    /// Pretty-printed with two-space indents and a trailing newline.
    pub fn render(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, Some(0));
        out.push('\n');
        out
    }

    /// On one line, without spaces: one message of a stream that has one a line.
    pub fn line(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, None);
        out
    }

    /// Indented as at `depth`, or on one line without spaces where None.
    fn write(&self, out: &mut String, depth: Option<usize>) {
        let indent = |out: &mut String, depth: Option<usize>| {
            if let Some(depth) = depth {
                out.push('\n');
                out.push_str(&"  ".repeat(depth));
            }
        };
        let inner = depth.map(|d| d + 1);
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Int(i) => write!(out, "{i}").unwrap_or_default(),
            Json::Float(x) if x.is_finite() => write!(out, "{x}").unwrap_or_default(),
            Json::Float(_) => out.push_str("null"),
            Json::Str(s) => escape_into(out, s),
            Json::Array(items) if items.is_empty() => out.push_str("[]"),
            Json::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    indent(out, inner);
                    item.write(out, inner);
                }
                indent(out, depth);
                out.push(']');
            }
            Json::Object(fields) if fields.is_empty() => out.push_str("{}"),
            Json::Object(fields) => {
                out.push('{');
                for (i, (key, value)) in fields.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    indent(out, inner);
                    escape_into(out, key);
                    out.push_str(if depth.is_some() { ": " } else { ":" });
                    value.write(out, inner);
                }
                indent(out, depth);
                out.push('}');
            }
        }
    }
}

fn escape_into(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => write!(out, "\\u{:04x}", c as u32).unwrap_or_default(),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The reading half, for the tests.
#[cfg(test)]
impl Json {
    /// A field of an object.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_i128(&self) -> Option<i128> {
        match self {
            Json::Int(i) => Some(*i),
            _ => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Json::Int(i) => Some(*i as f64),
            Json::Float(x) => Some(*x),
            _ => None,
        }
    }

    pub fn items(&self) -> &[Json] {
        match self {
            Json::Array(items) => items,
            _ => &[],
        }
    }

    /// Parses one JSON document; the error is the byte offset where it went wrong.
    pub fn parse(text: &str) -> Result<Json, usize> {
        let mut reader = Reader { bytes: text.as_bytes(), at: 0 };
        let value = reader.value()?;
        reader.space();
        if reader.at != reader.bytes.len() {
            return Err(reader.at);
        }
        Ok(value)
    }
}

#[cfg(test)]
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

#[cfg(test)]
impl Reader<'_> {
    fn space(&mut self) {
        while self.bytes.get(self.at).is_some_and(|b| b.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    fn eat(&mut self, word: &str) -> bool {
        let found = self.bytes[self.at..].starts_with(word.as_bytes());
        if found {
            self.at += word.len();
        }
        found
    }

    fn value(&mut self) -> Result<Json, usize> {
        self.space();
        match self.bytes.get(self.at).ok_or(self.at)? {
            b'n' if self.eat("null") => Ok(Json::Null),
            b't' if self.eat("true") => Ok(Json::Bool(true)),
            b'f' if self.eat("false") => Ok(Json::Bool(false)),
            b'"' => self.string().map(Json::Str),
            b'[' => self.list("]", Reader::value).map(Json::Array),
            b'{' => self
                .list("}", |reader| {
                    reader.space();
                    let key = reader.string()?;
                    reader.space();
                    if !reader.eat(":") {
                        return Err(reader.at);
                    }
                    Ok((key, reader.value()?))
                })
                .map(Json::Object),
            _ => self.number(),
        }
    }

    /// The items `item` reads between commas, from the opening bracket at the cursor to `close`.
    fn list<T>(&mut self, close: &str, item: impl Fn(&mut Self) -> Result<T, usize>) -> Result<Vec<T>, usize> {
        self.at += 1;
        let mut items = Vec::new();
        self.space();
        if self.eat(close) {
            return Ok(items);
        }
        loop {
            items.push(item(self)?);
            self.space();
            if self.eat(close) {
                return Ok(items);
            }
            if !self.eat(",") {
                return Err(self.at);
            }
        }
    }

    fn number(&mut self) -> Result<Json, usize> {
        let start = self.at;
        while self.bytes.get(self.at).is_some_and(|b| b"+-0123456789.eE".contains(b)) {
            self.at += 1;
        }
        let text = std::str::from_utf8(&self.bytes[start..self.at]).map_err(|_| start)?;
        match text.parse::<i128>() {
            Ok(i) => Ok(Json::Int(i)),
            Err(_) => text.parse::<f64>().map(Json::Float).map_err(|_| start),
        }
    }

    fn string(&mut self) -> Result<String, usize> {
        if !self.eat("\"") {
            return Err(self.at);
        }
        let mut out = String::new();
        loop {
            let start = self.at;
            while self.bytes.get(self.at).is_some_and(|b| *b != b'"' && *b != b'\\') {
                self.at += 1;
            }
            out.push_str(std::str::from_utf8(&self.bytes[start..self.at]).map_err(|_| start)?);
            match self.bytes.get(self.at).ok_or(self.at)? {
                b'"' => {
                    self.at += 1;
                    return Ok(out);
                }
                _ => {
                    let escape = *self.bytes.get(self.at + 1).ok_or(self.at)?;
                    self.at += 2;
                    out.push(match escape {
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'u' => {
                            let hex = self.bytes.get(self.at..self.at + 4).ok_or(self.at)?;
                            let code = u32::from_str_radix(std::str::from_utf8(hex).map_err(|_| self.at)?, 16)
                                .map_err(|_| self.at)?;
                            self.at += 4;
                            char::from_u32(code).unwrap_or('\u{fffd}')
                        }
                        other => other as char,
                    });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped_and_read_back() {
        let text = Json::str("a\"b\\c\nd\u{1e}é").render();
        assert_eq!(text, "\"a\\\"b\\\\c\\nd\\u001eé\"\n");
        assert_eq!(Json::parse(&text), Ok(Json::str("a\"b\\c\nd\u{1e}é")));
    }

    #[test]
    fn documents_read_back_as_written() {
        let value = Json::object([
            ("a", Json::Array(vec![Json::Int(1), Json::Null, Json::Bool(true), Json::Int(-7)])),
            ("b", Json::Float(0.25)),
            ("c", Json::object([])),
            ("d", Json::Array(vec![])),
        ]);
        assert_eq!(Json::parse(&value.render()), Ok(value.clone()));
        assert_eq!(value.get("a").unwrap().items()[3].as_i128(), Some(-7));
        let compact: String = Json::object([("x", Json::Float(f64::NAN))]).render().split_whitespace().collect();
        assert_eq!(compact, "{\"x\":null}");
        let line = value.line();
        assert_eq!(line, "{\"a\":[1,null,true,-7],\"b\":0.25,\"c\":{},\"d\":[]}");
        assert_eq!(Json::parse(&line), Ok(value.clone()));
        assert!(Json::parse("{\"a\": 1,}").is_err());
        assert!(Json::parse("[1] 2").is_err());
    }
}
