// expect: WA
// The lead recurrence in integers, then Alice's total against half of all the stones, both
// as f32 ("a float holds any total"): past 2^24 an f32 holds only even integers, so in a
// long game of large piles a one-stone win rounds to a tie.
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let n = stone_value.len();
        let mut f = vec![0i64; n + 1];
        for i in (0..n).rev() {
            let mut taken = 0i64;
            let mut best = i64::MIN;
            for k in 1..=3.min(n - i) {
                taken += stone_value[i + k - 1] as i64;
                best = best.max(taken - f[i + k]);
            }
            f[i] = best;
        }
        let total: i64 = stone_value.iter().map(|&v| v as i64).sum();
        let alice = ((total + f[0]) / 2) as f32;
        let half = total as f32 / 2.0;
        if alice > half {
            "Alice".to_string()
        } else if alice < half {
            "Bob".to_string()
        } else {
            "Tie".to_string()
        }
    }
}
