// Rolling array. f(i) is the best lead (own total minus the other's) the player to move
// can secure on piles i..n:
//     f(i) = max over k in 1..=3 of (s[i] + … + s[i+k-1]) - f(i+k),  f(n) = 0.
// f(i) needs only f(i+1..=i+3), so it lives in dp[i % 4], overwriting f(i+4).
// Alice wins when f(0) > 0, Bob when f(0) < 0. Time O(n), extra space O(1).
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let n = stone_value.len();
        let mut dp = [0; 4];
        for i in (0..n).rev() {
            let (mut sum, mut best) = (0, i32::MIN);
            for k in 1..=3 {
                if i + k > n {
                    break;
                }
                sum += stone_value[i + k - 1];
                best = best.max(sum - dp[(i + k) % 4]);
            }
            dp[i % 4] = best;
        }
        match dp[0] {
            lead if lead > 0 => "Alice".to_string(),
            lead if lead < 0 => "Bob".to_string(),
            _ => "Tie".to_string(),
        }
    }
}
