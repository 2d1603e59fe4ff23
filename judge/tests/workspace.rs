//! The integration tests, in one binary so that they run side by side: each runs the built
//! judge on the workspace or on a temporary copy of it, and reads its JSON.

mod attempt;
mod common;
mod editor;
mod isolation;
mod mutants;
mod sandbox;
mod tools;
mod user_path;
