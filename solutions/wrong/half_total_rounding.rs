// expect: WA
// Alice's total (sum + lead) / 2 is compared with sum / 2, which rounds toward
// zero: with an odd sum, a one-stone win or loss is reported as "Tie".
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let s = &stone_value[..];
        let n = s.len();
        let mut f = vec![0i32; n + 1];
        for i in (0..n).rev() {
            let mut taken = 0;
            let mut best = i32::MIN;
            for k in 1..=3.min(n - i) {
                taken += s[i + k - 1];
                best = best.max(taken - f[i + k]);
            }
            f[i] = best;
        }
        let total: i32 = s.iter().sum();
        let alice = (total + f[0]) / 2;
        let half = total / 2;
        if alice > half {
            "Alice".to_string()
        } else if alice < half {
            "Bob".to_string()
        } else {
            "Tie".to_string()
        }
    }
}
