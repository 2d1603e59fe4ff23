// expect: WA
// Stones fit in i16, so the table is Vec<i16> to save memory; but leads reach
// ±50,000,000, and `as i16` silently wraps once a lead passes 32,767.
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let s = &stone_value[..];
        let n = s.len();
        let mut f = vec![0i16; n + 1];
        for i in (0..n).rev() {
            let mut taken = 0i32;
            let mut best = i32::MIN;
            for k in 1..=3.min(n - i) {
                taken += s[i + k - 1];
                best = best.max(taken - f[i + k] as i32);
            }
            f[i] = best as i16;
        }
        if f[0] > 0 {
            "Alice".to_string()
        } else if f[0] < 0 {
            "Bob".to_string()
        } else {
            "Tie".to_string()
        }
    }
}
