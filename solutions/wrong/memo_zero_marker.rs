// expect: TLE
// The memo uses 0 as "not computed yet", but 0 is also a real lead: every level
// position is recomputed, which is exponential when many leads are 0 (all zeros).
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let mut memo = vec![0; stone_value.len()];
        let lead = Self::lead(0, &stone_value, &mut memo);
        if lead > 0 {
            "Alice".to_string()
        } else if lead < 0 {
            "Bob".to_string()
        } else {
            "Tie".to_string()
        }
    }

    fn lead(i: usize, s: &[i32], memo: &mut Vec<i32>) -> i32 {
        if i >= s.len() {
            return 0;
        }
        if memo[i] != 0 {
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
