// Rolling array. f(i) is the best lead (own total minus the other's) the player
// to move can secure on piles i..n:
//     f(i) = max over k in 1..=3 of (s[i] + … + s[i+k-1]) - f(i+k),  f(n) = 0.
// Only four consecutive values are ever alive, so f(i) lives in slot i % 4 of a
// four-slot array, overwriting f(i+4). Alice wins when f(0) > 0.
// Time O(n), extra space O(1).
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let s = &stone_value[..];
        let n = s.len();
        let mut f = [0i32; 4];
        for i in (0..n).rev() {
            let mut taken = 0;
            let mut best = i32::MIN;
            for k in 1..=3.min(n - i) {
                taken += s[i + k - 1];
                best = best.max(taken - f[(i + k) % 4]);
            }
            f[i % 4] = best;
        }
        match f[0] {
            lead if lead > 0 => "Alice".to_string(),
            lead if lead < 0 => "Bob".to_string(),
            _ => "Tie".to_string(),
        }
    }
}
