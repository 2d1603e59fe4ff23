//! The reference answer. It shares nothing with the strategies under test: instead of one
//! net-difference number it plays the game out with both players' totals, the player to move
//! choosing the move that leaves them furthest ahead at the end. Iterative, in i64, so it
//! needs no deep stack and cannot overflow.

use super::Answer;

/// The final totals of the player who moves first and of the other player.
pub fn totals(values: &[i32]) -> (i64, i64) {
    totals_in(values, &mut Vec::new())
}

/// `totals`, in a buffer the caller keeps between calls.
fn totals_in(values: &[i32], outcome: &mut Vec<(i64, i64)>) -> (i64, i64) {
    let n = values.len();
    // outcome[i]: (total of the player to move at pile i, total of the other) on piles i..n.
    outcome.clear();
    outcome.resize(n + 1, (0, 0));
    for i in (0..n).rev() {
        let mut chosen: Option<(i64, i64)> = None;
        let mut taken = 0i64;
        for k in 1..=3.min(n - i) {
            taken += i64::from(values[i + k - 1]);
            // After taking k piles the other player moves first on piles i+k..n.
            let (their_total, my_later) = outcome[i + k];
            let candidate = (taken + my_later, their_total);
            let lead = |(mine, theirs): (i64, i64)| mine - theirs;
            if chosen.is_none_or(|best| lead(candidate) > lead(best)) {
                chosen = Some(candidate);
            }
        }
        outcome[i] = chosen.expect("at least one move exists on a non-empty row");
    }
    outcome[0]
}

/// The first player's final lead over the second when both play their best.
pub fn lead(values: &[i32]) -> i64 {
    let (first, second) = totals(values);
    first - second
}

/// Who wins when both play their best.
pub fn answer(values: &[i32]) -> Answer {
    answer_with(values, &mut Vec::new())
}

/// `answer`, in a buffer the caller keeps between calls (the stress loop asks millions).
pub fn answer_with(values: &[i32], scratch: &mut Vec<(i64, i64)>) -> Answer {
    let (alice, bob) = totals_in(values, scratch);
    Answer::from_lead(alice - bob)
}

/// The two players; the first to move is Alice, as in the statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    Alice,
    Bob,
}

impl Player {
    pub fn other(self) -> Player {
        match self {
            Player::Alice => Player::Bob,
            Player::Bob => Player::Alice,
        }
    }
}

/// One move of an explained game: `player` takes piles `from..from + count`, worth `taken`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub player: Player,
    pub from: usize,
    pub count: usize,
    pub taken: i64,
}

/// Why the answer is what it is, from the oracle's own table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explained {
    /// `leads[i]`: how far ahead the player to move at pile i ends on piles i..n when both
    /// play their best, for i in 0..=n (`leads[n]` = 0). `leads[0]` is Alice's final lead.
    pub leads: Vec<i64>,
    /// One optimal line of play from pile 0 to the end, Alice first.
    pub play: Vec<Move>,
    /// Alice's and Bob's totals at the end of that line.
    pub totals: (i64, i64),
}

impl Explained {
    /// Alice's total minus Bob's: `leads[0]`.
    pub fn margin(&self) -> i64 {
        self.totals.0 - self.totals.1
    }

    pub fn answer(&self) -> Answer {
        Answer::from_lead(self.margin())
    }
}

/// The game explained: every pile's lead and one optimal line of play, read off the table
/// `totals` fills (no strategy is consulted). Where several moves are equally good, the line
/// takes the fewest piles, which is the move the oracle itself keeps (the first best k).
pub fn explain(values: &[i32]) -> Explained {
    let n = values.len();
    let mut outcome = Vec::new();
    let totals = totals_in(values, &mut outcome);
    let leads: Vec<i64> = outcome.iter().map(|(mine, theirs)| mine - theirs).collect();
    let mut play = Vec::new();
    let (mut from, mut player) = (0, Player::Alice);
    while from < n {
        let mut taken = 0i64;
        let mut chosen = None;
        for count in 1..=3.min(n - from) {
            taken += i64::from(values[from + count - 1]);
            if taken - leads[from + count] == leads[from] {
                chosen = Some(Move { player, from, count, taken });
                break;
            }
        }
        let step = chosen.expect("the oracle's lead at a pile is the lead of one of its moves");
        debug_assert_eq!((step.taken + outcome[from + step.count].1, outcome[from + step.count].0), outcome[from]);
        play.push(step);
        from += step.count;
        player = player.other();
    }
    Explained { leads, play, totals }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::generator::{Every, Rng};

    /// The whole game tree, no memo: the mover at `pos` picks the move that maximises their
    /// own final lead. Returns (Alice's total, Bob's total).
    fn game_tree(values: &[i32], pos: usize, alice: i64, bob: i64, alice_moves: bool) -> (i64, i64) {
        if pos == values.len() {
            return (alice, bob);
        }
        let mut best: Option<(i64, i64)> = None;
        let mut taken = 0i64;
        for end in pos + 1..=(pos + 3).min(values.len()) {
            taken += i64::from(values[end - 1]);
            let result = if alice_moves {
                game_tree(values, end, alice + taken, bob, false)
            } else {
                game_tree(values, end, alice, bob + taken, true)
            };
            let mover_lead = |(a, b): (i64, i64)| if alice_moves { a - b } else { b - a };
            if best.is_none_or(|b| mover_lead(result) > mover_lead(b)) {
                best = Some(result);
            }
        }
        best.unwrap()
    }

    fn assert_agrees(values: &[i32]) {
        let (a, b) = game_tree(values, 0, 0, 0, true);
        let (x, y) = totals(values);
        // Totals can differ between equally good lines of play; the lead cannot.
        assert_eq!(x - y, a - b, "lead differs on {values:?}");
        assert_eq!(answer(values), Answer::from_lead(a - b), "answer differs on {values:?}");
    }

    #[test]
    fn matches_the_game_tree_on_every_small_array() {
        // Every array of length 1..=7 over -2..=2: 97,655 arrays.
        Every { max_len: 7, low: -2, high: 2 }.all().unwrap().iter().for_each(|values| assert_agrees(values));
    }

    #[test]
    fn matches_the_game_tree_for_every_length_up_to_12() {
        let mut rng = Rng::new(7);
        for len in 1..=12 {
            for range in [1, 3, 10, 1000] {
                for _ in 0..200 {
                    let values: Vec<i32> = (0..len).map(|_| rng.range(-range, range)).collect();
                    assert_agrees(&values);
                }
            }
        }
    }

    #[test]
    fn matches_the_game_tree_on_random_arrays_up_to_20() {
        let mut rng = Rng::new(11);
        for _ in 0..300 {
            let len = rng.range(13, 20) as usize;
            let values: Vec<i32> = (0..len).map(|_| rng.range(-1000, 1000)).collect();
            assert_agrees(&values);
        }
    }

    /// The explanation against the game tree: every pile's lead is the lead of a full search
    /// from that pile, and every move of the line is a best move there, the fewest piles
    /// among equally good ones.
    fn assert_explains(values: &[i32]) {
        let explained = explain(values);
        let n = values.len();
        let searched: Vec<i64> = (0..=n)
            .map(|i| {
                let (a, b) = game_tree(&values[i..], 0, 0, 0, true);
                a - b
            })
            .collect();
        assert_eq!(explained.leads, searched, "leads differ on {values:?}");
        assert_eq!(explained.margin(), searched[0], "margin differs on {values:?}");
        assert_eq!(explained.totals, totals(values), "totals differ on {values:?}");
        assert_eq!(explained.answer(), answer(values));
        let (mut at, mut player, mut sums) = (0, Player::Alice, (0, 0));
        for step in &explained.play {
            assert_eq!((step.from, step.player), (at, player), "{values:?}: {:?}", explained.play);
            assert!((1..=3).contains(&step.count) && at + step.count <= n);
            let take = |k: usize| values[at..at + k].iter().map(|&v| i64::from(v)).sum::<i64>();
            assert_eq!(step.taken, take(step.count));
            assert_eq!(step.taken - searched[at + step.count], searched[at], "{values:?}: not a best move at {at}");
            for fewer in 1..step.count {
                assert!(
                    take(fewer) - searched[at + fewer] < searched[at],
                    "{values:?}: {fewer} piles at {at} is as good"
                );
            }
            match player {
                Player::Alice => sums.0 += step.taken,
                Player::Bob => sums.1 += step.taken,
            }
            at += step.count;
            player = player.other();
        }
        assert_eq!(at, n, "{values:?}: the line stops before the end");
        assert_eq!(sums, explained.totals, "{values:?}: the line does not add up to the totals");
    }

    #[test]
    fn the_explanation_matches_the_game_tree() {
        // Every array of length 0..=6 over -2..=2, then random ones up to 14 piles.
        assert_explains(&[]);
        Every { max_len: 6, low: -2, high: 2 }.all().unwrap().iter().for_each(|values| assert_explains(values));
        let mut rng = Rng::new(15);
        for _ in 0..300 {
            let len = rng.range(7, 14) as usize;
            let range = [1, 3, 1000][rng.below(3)];
            let values: Vec<i32> = (0..len).map(|_| rng.range(-range, range)).collect();
            assert_explains(&values);
        }
    }

    #[test]
    fn an_explained_example() {
        // [1,2,3,7]: whatever Alice takes, Bob gets the 7; taking all three first loses by one.
        let explained = explain(&[1, 2, 3, 7]);
        assert_eq!(explained.leads, [-1, 12, 10, 7, 0]);
        let play: Vec<(Player, usize, usize, i64)> =
            explained.play.iter().map(|m| (m.player, m.from, m.count, m.taken)).collect();
        assert_eq!(play, [(Player::Alice, 0, 3, 6), (Player::Bob, 3, 1, 7)]);
        assert_eq!((explained.totals, explained.margin(), explained.answer()), ((6, 7), -1, Answer::Bob));
        // [0,0,0]: every move is as good, and the line takes one pile at a time.
        let counts: Vec<usize> = explain(&[0, 0, 0]).play.iter().map(|m| m.count).collect();
        assert_eq!(counts, [1, 1, 1]);
    }

    #[test]
    fn the_statement_examples() {
        assert_eq!(answer(&[1, 2, 3, 7]), Answer::Bob);
        assert_eq!(answer(&[1, 2, 3, -9]), Answer::Alice);
        assert_eq!(answer(&[1, 2, 3, 6]), Answer::Tie);
        assert_eq!(answer(&[1, 2, 3, -1, -2, -3, 7]), Answer::Alice);
        assert_eq!(answer(&[-1, -2, -3]), Answer::Tie);
    }

    #[test]
    fn runs_at_the_largest_size_without_a_deep_stack() {
        let values = vec![1000; 50_000];
        let (a, b) = totals(&values);
        assert_eq!(a + b, 50_000_000);
        let explained = explain(&values);
        assert_eq!((explained.totals, explained.leads.len()), ((a, b), 50_001));
    }
}
