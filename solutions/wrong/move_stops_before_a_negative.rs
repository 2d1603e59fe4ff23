// expect: WA
// A move never goes on into a negative pile it could stop before, since that pile can
// only cost the mover. But taking it may leave the other a worse one: on [0,-1,-2] Alice
// takes [0,-1] so that Bob must take the -2, and wins.
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let s = &stone_value[..];
        let n = s.len();
        let mut f = vec![0i32; n + 1];
        for i in (0..n).rev() {
            let mut taken = 0;
            let mut best = i32::MIN;
            for k in 1..=3.min(n - i) {
                if k > 1 && s[i + k - 1] < 0 {
                    break;
                }
                taken += s[i + k - 1];
                best = best.max(taken - f[i + k]);
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
