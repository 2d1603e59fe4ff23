// paste: ready
mod game {
    /// The answer for Alice's final lead.
    pub fn winner(lead: i64) -> String {
        super::names::NAMES[(lead.signum() + 1) as usize].to_string()
    }
}

mod names {
    pub const NAMES: [&str; 3] = ["Bob", "Tie", "Alice"];
}

use crate::game::winner;

impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let n = stone_value.len();
        let mut lead = vec![0i64; n + 1];
        for i in (0..n).rev() {
            let (mut taken, mut best) = (0i64, i64::MIN);
            for k in 1..=3.min(n - i) {
                taken += i64::from(stone_value[i + k - 1]);
                best = best.max(taken - lead[i + k]);
            }
            lead[i] = best;
        }
        winner(lead[0])
    }
}
