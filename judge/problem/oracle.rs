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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::generator::Rng;

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
        for len in 1..=7u32 {
            for code in 0..5usize.pow(len) {
                let values: Vec<i32> = (0..len).map(|d| (code / 5usize.pow(d) % 5) as i32 - 2).collect();
                assert_agrees(&values);
            }
        }
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
    }
}
