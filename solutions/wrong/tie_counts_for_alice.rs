// expect: WA
// The recurrence is right but the answer reads `lead >= 0` as Alice's win, so a
// game that ends level is reported as "Alice" instead of "Tie".
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
        if f[0] >= 0 {
            "Alice".to_string()
        } else {
            "Bob".to_string()
        }
    }
}
