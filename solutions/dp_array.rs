// Bottom-up table. f[i] is the best lead (own total minus the other's) the player to
// move can secure on piles i..n:
//     f[i] = max over k in 1..=3 of (s[i] + … + s[i+k-1]) - f[i+k],  f[n] = 0.
// Fill f from the back; Alice wins when f[0] > 0, Bob when f[0] < 0. The k loop runs
// over 1..4 (the compiler unrolls it, unlike 1..=3) and stops after the last pile, so
// f[i+1], written just before, is read on every step and stays in a register.
// Time O(n), extra space O(n).
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let n = stone_value.len();
        let mut f = vec![0; n + 1];
        for i in (0..n).rev() {
            let (mut sum, mut best) = (0, i32::MIN);
            for k in 1..4 {
                sum += stone_value[i + k - 1];
                best = best.max(sum - f[i + k]);
                if i + k == n {
                    break;
                }
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
