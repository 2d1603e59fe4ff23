// expect: WA
// Scores kept in f32 ("a score is at most 50,000,000, well within a float"): the most the
// player to move can collect from pile i on is what is left less the opponent's best after
// the move. Past 2^24 an f32 holds only even integers, so the sums round, and two equal
// scores of a long tied game compare unequal.
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let n = stone_value.len();
        let mut left = vec![0f32; n + 1];
        for i in (0..n).rev() {
            left[i] = left[i + 1] + stone_value[i] as f32;
        }
        let mut best = vec![0f32; n + 1];
        for i in (0..n).rev() {
            let mut theirs = f32::MAX;
            for k in 1..=3.min(n - i) {
                theirs = theirs.min(best[i + k]);
            }
            best[i] = left[i] - theirs;
        }
        let alice = best[0];
        let bob = left[0] - alice;
        if alice > bob {
            "Alice".to_string()
        } else if alice < bob {
            "Bob".to_string()
        } else {
            "Tie".to_string()
        }
    }
}
