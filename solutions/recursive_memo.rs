// Top-down memo. lead(i) is the best lead (own total minus the other's) the
// player to move can secure on piles i..n:
//     lead(i) = max over k in 1..=3 of (s[i] + … + s[i+k-1]) - lead(i+k),  lead(n) = 0.
// Recurse from pile 0 and remember each lead(i) so it is computed once.
// Real leads stay within ±50,000,000, so i32::MIN can mark "not computed yet".
// Time O(n), extra space O(n) for the memo plus O(n) recursion depth.
impl Solution {
    const UNKNOWN: i32 = i32::MIN;

    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let mut memo = vec![Self::UNKNOWN; stone_value.len()];
        match Self::lead(0, &stone_value, &mut memo) {
            lead if lead > 0 => "Alice".to_string(),
            lead if lead < 0 => "Bob".to_string(),
            _ => "Tie".to_string(),
        }
    }

    fn lead(i: usize, s: &[i32], memo: &mut [i32]) -> i32 {
        if i >= s.len() {
            return 0;
        }
        if memo[i] != Self::UNKNOWN {
            return memo[i];
        }
        let mut taken = 0;
        let mut best = i32::MIN;
        for k in 1..=3.min(s.len() - i) {
            taken += s[i + k - 1];
            best = best.max(taken - Self::lead(i + k, s, memo));
        }
        memo[i] = best;
        best
    }
}
