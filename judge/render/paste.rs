//! `judge paste`: what would stop a file pasting into LeetCode, and the OSC 52 sequence that
//! puts text on the clipboard through the terminal.

use super::error::compile_error;
use crate::judging::paste::Problem;
use crate::problem::SIGNATURE;

pub fn problem(file: &str, problem: &Problem) -> String {
    match problem {
        Problem::DeclaresSolution { line } => {
            format!("{file}:{line}: declares `struct Solution`; LeetCode declares it before your code")
        }
        Problem::CratePath { line } => {
            format!("{file}:{line}: uses a `crate::` or `super::` path, which LeetCode's crate does not have")
        }
        Problem::NoSignature => format!("{file}: lacks LeetCode's signature `{SIGNATURE}`"),
        Problem::DoesNotCompile { edition, error } => {
            format!("{file}: does not compile in edition {edition}: {}", compile_error(error))
        }
        Problem::Unchecked { error } => format!("{file}: could not be checked: {error}"),
    }
}

/// Said on stderr when nothing stops the file pasting; stdout holds the file alone.
pub fn ready(file: &str) -> String {
    format!(
        "judge: {file} is ready to paste: it compiles as LeetCode compiles it in editions 2021 and 2018, \
         has the signature `{SIGNATURE}` and declares no `struct Solution`"
    )
}

pub fn copied() -> &'static str {
    "judge: copied through OSC 52: the terminal puts it on the clipboard if it allows that (tmux: set-clipboard on)"
}

pub fn not_copied() -> &'static str {
    "judge: not copied: --copy writes an OSC 52 sequence to the terminal, and standard output is not one"
}

/// Terminals that honour OSC 52 copy what follows `52;c;` (base64) to the clipboard.
pub fn osc52(text: &str) -> String {
    format!("\x1b]52;c;{}\x07", base64(text.as_bytes()))
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = (u32::from(chunk[0]) << 16)
            | (u32::from(*chunk.get(1).unwrap_or(&0)) << 8)
            | u32::from(*chunk.get(2).unwrap_or(&0));
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_rfc_examples() {
        let cases = [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foobar", "Zm9vYmFy")];
        for (plain, encoded) in cases {
            assert_eq!(base64(plain.as_bytes()), encoded);
        }
        assert_eq!(osc52("hi"), "\x1b]52;c;aGk=\x07");
    }
}
