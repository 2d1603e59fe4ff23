//! The oracle's explanation of an answer, as the reports show it beside a failure: on a short
//! input the lead at every pile, one optimal line of play and its totals; on a longer one the
//! totals alone. As text lines fitted to a width, and as JSON fields.

use super::fit;
use super::json::Json;
use crate::cli::Invocation;
use crate::judging::report::EXPLAINED;
use crate::problem::oracle::{Explained, Player};

fn player(player: Player) -> &'static str {
    match player {
        Player::Alice => "Alice",
        Player::Bob => "Bob",
    }
}

/// Whether the input is short enough to be explained pile by pile.
pub fn whole(explained: &Explained) -> bool {
    explained.leads.len() <= EXPLAINED + 1
}

/// On an input too long to explain pile by pile, the `shorter` line: where `command` makes
/// one, the command that shrinks it to a smaller case failing the same way.
pub fn shorter(explained: &Explained, command: impl FnOnce() -> Option<Invocation>, width: usize) -> String {
    if whole(explained) {
        return String::new();
    }
    let cut = format!("leads and play are shown up to {EXPLAINED} piles");
    match command() {
        Some(command) => {
            let says = format!("{cut}; a smaller case that fails the same way, shrunk from this one:");
            format!("{}{}\n", fit::labelled("shorter", &says, width), fit::command("            ", &command, width))
        }
        None => fit::labelled("shorter", &cut, width),
    }
}

/// The `leads`, `play` and `totals` lines, or on a long input the `totals` line alone.
pub fn lines(explained: &Explained, width: usize) -> String {
    let (alice, bob) = explained.totals;
    let answer = explained.answer().as_str();
    if !whole(explained) {
        let totals = format!(
            "Alice {alice}, Bob {bob} with both playing best: margin {} for Alice, so \"{answer}\"",
            explained.margin()
        );
        return fit::labelled("totals", &totals, width);
    }
    let leads: Vec<String> = explained.leads.iter().map(i64::to_string).collect();
    let leads = format!(
        "f(0..={}) = [{}]  (the oracle's: the most the player to move ends ahead on piles i..n)",
        leads.len() - 1,
        leads.join(", ")
    );
    let moves: Vec<String> = explained
        .play
        .iter()
        .map(|m| {
            let piles = match m.count {
                1 => format!("pile {}", m.from),
                _ => format!("piles {}..={}", m.from, m.from + m.count - 1),
            };
            format!("{} takes {piles} ({:+})", player(m.player), m.taken)
        })
        .collect();
    let totals = format!("Alice {alice}, Bob {bob}: margin {} for Alice, so \"{answer}\"", explained.margin());
    [("leads", leads), ("play", moves.join(", ")), ("totals", totals)]
        .iter()
        .map(|(label, text)| fit::labelled(label, text, width))
        .collect()
}

/// `leads` and `play`, for a short input.
pub fn fields(explained: &Explained) -> Option<[(&'static str, Json); 2]> {
    if !whole(explained) {
        return None;
    }
    let moves = explained.play.iter().map(|m| {
        Json::object([
            ("player", Json::str(player(m.player))),
            ("from", Json::int(m.from as i128)),
            ("count", Json::int(m.count as i128)),
            ("taken", Json::int(m.taken)),
        ])
    });
    Some([
        ("leads", Json::Array(explained.leads.iter().map(|l| Json::int(*l)).collect())),
        ("play", Json::Array(moves.collect())),
    ])
}
