//! LeetCode's Rust, as far as public sources tell: the compiler version and the edition its
//! editor compiles a submission with. Paste checks a file against these, and the judge builds
//! every submission in the same edition, so the two never disagree on it.
//!
//! Sources, newest first (each the version LeetCode's Rust had on that date):
//! - 1.85, 2025-06: the table of judges' Rust versions in jh05013/ps_snippets.
//! - 1.79, 2024-12: a LeetCode discussion post listing its language versions.
//! - 1.74.1, 2024-02: cargo-leet, citing LeetCode's Help Center ("Rust 1.74.1").
//! - 1.58 with edition 2018, 2023-03: LeetCode-Feedback issue 12197.
//!
//! The editions: 2018 until 2023, 2021 since LeetCode moved past 1.58 (2021 needs 1.56).
//! Last confirmed against these sources on 2026-12-01; `--leetcode-rust` overrides the version.

/// The Rust version LeetCode compiles with.
pub const RUST_VERSION: &str = "1.85";

/// The edition LeetCode compiles with.
pub const EDITION: &str = "2021";
