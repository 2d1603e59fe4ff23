//! The integration tests, in one binary so that they run side by side: each runs the built
//! judge on the workspace or on a temporary copy of it, and reads its JSON.

mod attempt;
mod common;
mod compile;
mod earned;
mod editor;
mod fallback;
mod group;
mod hidden;
mod hints;
mod isolation;
mod mutants;
mod page;
mod portable;
mod sandbox;
mod terminal;
mod tools;
mod user_path;
mod walls;
