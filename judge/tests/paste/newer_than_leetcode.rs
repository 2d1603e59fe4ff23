// paste: refused, too new: is_multiple_of 1.87
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
        // Even leads are printed the same way; is_multiple_of is Rust 1.87.
        let _even = (lead[0] as u64).is_multiple_of(2);
        match lead[0] {
            l if l > 0 => "Alice".to_string(),
            l if l < 0 => "Bob".to_string(),
            _ => "Tie".to_string(),
        }
    }
}
