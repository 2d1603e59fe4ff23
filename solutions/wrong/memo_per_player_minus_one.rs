// expect: TLE
// A memo slot per pile and per player holds Alice's score minus Bob's from there on, -1
// meaning "not computed yet". That difference is -1 wherever Alice moves one behind or
// Bob moves one ahead; where the leads alternate 1, -1 such slots call each other at every
// step, and the calls grow like 1.47^n.
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let n = stone_value.len();
        let mut dp = vec![[-1; 2]; n];
        let diff = Self::play(&stone_value, 0, 0, &mut dp);
        if diff > 0 {
            "Alice".to_string()
        } else if diff < 0 {
            "Bob".to_string()
        } else {
            "Tie".to_string()
        }
    }

    // Alice's score minus Bob's on the piles from i on; turn 0 is Alice's, 1 is Bob's.
    fn play(s: &[i32], i: usize, turn: usize, dp: &mut Vec<[i32; 2]>) -> i32 {
        if i >= s.len() {
            return 0;
        }
        if dp[i][turn] != -1 {
            return dp[i][turn];
        }
        let mut best = if turn == 0 { i32::MIN } else { i32::MAX };
        let mut sum = 0;
        for j in i..s.len().min(i + 3) {
            sum += s[j];
            if turn == 0 {
                best = best.max(sum + Self::play(s, j + 1, 1, dp));
            } else {
                best = best.min(Self::play(s, j + 1, 0, dp) - sum);
            }
        }
        dp[i][turn] = best;
        best
    }
}
