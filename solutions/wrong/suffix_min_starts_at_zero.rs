// expect: WA
// Counts totals: the mover gets suffix[i] minus the least the opponent can get,
// but that minimum starts at 0, as if the opponent could always end up with 0.
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let s = &stone_value[..];
        let n = s.len();
        let mut suffix = vec![0i32; n + 1];
        for i in (0..n).rev() {
            suffix[i] = suffix[i + 1] + s[i];
        }
        let mut best = vec![0i32; n + 1];
        for i in (0..n).rev() {
            let mut opponent = 0;
            for k in 1..=3.min(n - i) {
                opponent = opponent.min(best[i + k]);
            }
            best[i] = suffix[i] - opponent;
        }
        let alice = best[0];
        let bob = suffix[0] - alice;
        if alice > bob {
            "Alice".to_string()
        } else if alice < bob {
            "Bob".to_string()
        } else {
            "Tie".to_string()
        }
    }
}
