//! A hand-written JSON writer: enough for the reports, with correct string escaping.

use std::fmt::Write as _;

/// A JSON value under construction.
pub enum Json {
    Null,
    Bool(bool),
    Int(i128),
    Float(f64),
    Str(String),
    Array(Vec<Json>),
    Object(Vec<(&'static str, Json)>),
}

impl Json {
    pub fn str(text: impl Into<String>) -> Json {
        Json::Str(text.into())
    }

    pub fn opt<T>(value: Option<T>, make: impl FnOnce(T) -> Json) -> Json {
        value.map_or(Json::Null, make)
    }

    /// Pretty-printed with two-space indents and a trailing newline.
    pub fn render(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, 0);
        out.push('\n');
        out
    }

    fn write(&self, out: &mut String, depth: usize) {
        let indent = |out: &mut String, depth: usize| {
            out.push('\n');
            out.push_str(&"  ".repeat(depth));
        };
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Int(i) => write!(out, "{i}").unwrap(),
            Json::Float(x) if x.is_finite() => write!(out, "{x}").unwrap(),
            Json::Float(_) => out.push_str("null"),
            Json::Str(s) => escape_into(out, s),
            Json::Array(items) if items.is_empty() => out.push_str("[]"),
            Json::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    indent(out, depth + 1);
                    item.write(out, depth + 1);
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
                    indent(out, depth + 1);
                    escape_into(out, key);
                    out.push_str(": ");
                    value.write(out, depth + 1);
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
            c if (c as u32) < 0x20 => write!(out, "\\u{:04x}", c as u32).unwrap(),
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped() {
        let text = Json::str("a\"b\\c\nd\u{1e}").render();
        assert_eq!(text, "\"a\\\"b\\\\c\\nd\\u001e\"\n");
    }

    #[test]
    fn nested_values_render_as_json() {
        let value = Json::Object(vec![
            ("a", Json::Array(vec![Json::Int(1), Json::Null, Json::Bool(true)])),
            ("b", Json::Float(f64::NAN)),
            ("c", Json::Object(vec![])),
        ]);
        let compact: String = value.render().split_whitespace().collect();
        assert_eq!(compact, "{\"a\":[1,null,true],\"b\":null,\"c\":{}}");
    }
}
