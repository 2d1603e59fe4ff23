// Bottom-up table. f[i] is the best lead (own total minus the other's) the
// player to move can secure on piles i..n:
//     f[i] = max over k in 1..=3 of (s[i] + … + s[i+k-1]) - f[i+k],  f[n] = 0.
// Fill f from the back; Alice wins when f[0] > 0, Bob when f[0] < 0.
// Time O(n), extra space O(n).
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
        match f[0] {
            lead if lead > 0 => "Alice".to_string(),
            lead if lead < 0 => "Bob".to_string(),
            _ => "Tie".to_string(),
        }
    }
}
