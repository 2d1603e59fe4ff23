// expect: WA
// Ported from a front-to-back table: the move of k piles reads slot (i + 4 - k) % 4,
// which holds f(i+4-k), so the one- and three-pile moves see each other's values.
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
                best = best.max(taken - f[(i + 4 - k) % 4]);
            }
            f[i % 4] = best;
        }
        if f[0] > 0 {
            "Alice".to_string()
        } else if f[0] < 0 {
            "Bob".to_string()
        } else {
            "Tie".to_string()
        }
    }
}
