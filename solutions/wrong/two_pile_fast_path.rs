// expect: WA
// A fast path for two piles: take both when together they are worth something, else
// take the first and leave the second. Taking both is right only when the second pile is
// not negative: on [1,-1] the pair is worth 0, yet taking one pile and handing Bob the -1
// wins by 2.
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let s = &stone_value[..];
        let n = s.len();
        let lead = if n == 2 {
            if s[0] + s[1] >= 0 {
                s[0] + s[1]
            } else {
                s[0] - s[1]
            }
        } else {
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
            f[0]
        };
        if lead > 0 {
            "Alice".to_string()
        } else if lead < 0 {
            "Bob".to_string()
        } else {
            "Tie".to_string()
        }
    }
}
