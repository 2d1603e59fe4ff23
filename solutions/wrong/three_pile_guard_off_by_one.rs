// expect: WA
// The three-pile move is guarded by `i + 3 < n` instead of `i + 3 <= n`, so the
// player who could take the last three piles at once is never allowed to.
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let s = &stone_value[..];
        let n = s.len();
        let mut f = vec![0i32; n + 1];
        for i in (0..n).rev() {
            let mut best = s[i] - f[i + 1];
            if i + 2 <= n {
                best = best.max(s[i] + s[i + 1] - f[i + 2]);
            }
            if i + 3 < n {
                best = best.max(s[i] + s[i + 1] + s[i + 2] - f[i + 3]);
            }
            f[i] = best;
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
