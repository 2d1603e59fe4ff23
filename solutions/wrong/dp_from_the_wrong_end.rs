// expect: WA
// The table is filled front to back over prefixes, f[i] from f[i - k], which
// solves the game where piles are taken from the end of the row instead.
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let s = &stone_value[..];
        let n = s.len();
        let mut f = vec![0i32; n + 1];
        for i in 1..=n {
            let mut taken = 0;
            let mut best = i32::MIN;
            for k in 1..=3.min(i) {
                taken += s[i - k];
                best = best.max(taken - f[i - k]);
            }
            f[i] = best;
        }
        if f[n] > 0 {
            "Alice".to_string()
        } else if f[n] < 0 {
            "Bob".to_string()
        } else {
            "Tie".to_string()
        }
    }
}
