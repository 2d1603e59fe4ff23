// Bottom-up table. f[i] is the best lead (own total minus the other's) the
// player to move can secure on piles i..n:
//     f[i] = max over k in 1..=3 of (s[i] + … + s[i+k-1]) - f[i+k],  f[n] = 0.
// Fill f from the back; Alice wins when f[0] > 0, Bob when f[0] < 0. The last two
// piles are settled first, so the main loop always has all three choices and no
// bounds to test; the two- and three-pile choices do not wait for f[i+1].
// Time O(n), extra space O(n).
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let s = &stone_value[..];
        let n = s.len();
        let mut f = vec![0; n + 1];
        if n >= 1 {
            f[n - 1] = s[n - 1];
        }
        if n >= 2 {
            f[n - 2] = (s[n - 2] - f[n - 1]).max(s[n - 2] + s[n - 1]);
        }
        if n >= 3 {
            for i in (0..n - 2).rev() {
                let (one, two, three) = (s[i], s[i] + s[i + 1], s[i] + s[i + 1] + s[i + 2]);
                let more = (two - f[i + 2]).max(three - f[i + 3]);
                f[i] = (one - f[i + 1]).max(more);
            }
        }
        match f[0] {
            lead if lead > 0 => "Alice".to_string(),
            lead if lead < 0 => "Bob".to_string(),
            _ => "Tie".to_string(),
        }
    }
}
