// paste: ready
use std::cmp::max;

/// The best lead the player to move can secure from pile `i` on, given the leads after it.
fn lead_at(piles: &[i32], lead: &[i64], i: usize) -> i64 {
    let (mut taken, mut best) = (0i64, i64::MIN);
    for k in 1..=3.min(piles.len() - i) {
        taken += i64::from(piles[i + k - 1]);
        best = max(best, taken - lead[i + k]);
    }
    best
}

impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let mut lead = vec![0i64; stone_value.len() + 1];
        for i in (0..stone_value.len()).rev() {
            lead[i] = lead_at(&stone_value, &lead, i);
        }
        match lead[0].signum() {
            1 => "Alice".to_string(),
            -1 => "Bob".to_string(),
            _ => "Tie".to_string(),
        }
    }
}
