// expect: WA
// A three-slot rolling array updated in place: f(i) and f(i+3) share slot i % 3,
// so the three-pile move reads the half-built f(i) instead of f(i+3).
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let s = &stone_value[..];
        let n = s.len();
        let mut dp = [0i32; 3];
        for i in (0..n).rev() {
            dp[i % 3] = s[i] - dp[(i + 1) % 3];
            if i + 1 < n {
                dp[i % 3] = dp[i % 3].max(s[i] + s[i + 1] - dp[(i + 2) % 3]);
            }
            if i + 2 < n {
                dp[i % 3] = dp[i % 3].max(s[i] + s[i + 1] + s[i + 2] - dp[(i + 3) % 3]);
            }
        }
        if dp[0] > 0 {
            "Alice".to_string()
        } else if dp[0] < 0 {
            "Bob".to_string()
        } else {
            "Tie".to_string()
        }
    }
}
