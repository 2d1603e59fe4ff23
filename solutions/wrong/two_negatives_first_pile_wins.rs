// expect: WA
// A fast path for two piles: when the second is negative Alice takes only the first and
// leaves Bob the second, and the one holding the larger pile wins, compared with `>=`.
// Two equal negative piles are a tie, not Alice's: [-1,-1] is -1 each.
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let s = &stone_value[..];
        let n = s.len();
        if n == 2 && s[1] < 0 {
            return if s[0] >= s[1] { "Alice" } else { "Bob" }.to_string();
        }
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
        if f[0] > 0 {
            "Alice".to_string()
        } else if f[0] < 0 {
            "Bob".to_string()
        } else {
            "Tie".to_string()
        }
    }
}
