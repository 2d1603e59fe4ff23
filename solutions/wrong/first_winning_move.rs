// expect: WA
// The search stops at the first move that leaves the mover ahead, as a win is a win.
// But the lead it returns is then that move's, not the best one's, and the player before
// weighs its own moves by it: a position won by 1 where 5 was on offer makes the move into
// it look 4 better to the other player than it is.
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let s = &stone_value[..];
        let n = s.len();
        let mut f = vec![0i32; n + 1];
        for i in (0..n).rev() {
            let mut taken = 0;
            let mut best = i32::MIN;
            for k in 1..=3.min(n - i) {
                taken += s[i + k - 1];
                best = best.max(taken - f[i + k]);
                if best > 0 {
                    break;
                }
            }
            f[i] = best;
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
