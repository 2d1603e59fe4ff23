//! `judge new`: the attempt it created and what to do with it next.

use crate::cli::{flags, Command, Invocation, Value};

/// `created solutions/my_try.rs`, then the commands that judge it.
pub fn created(shown: &str, name: &str) -> String {
    let judge = Invocation::new(Command::Judge).set(&flags::SOLUTION, [Value::Text(name.to_string())]);
    let samples = judge.clone().set(&flags::CASE, [Value::Text("samples".to_string())]);
    format!(
        "created {shown}, holding the empty method\n  \
         judge it   {}\n  \
         then all   {}\n",
        samples.shell(),
        judge.shell()
    )
}
