// expect: WA
// Piles i..i+k are summed as pre[i + k - 1] - pre[i] with an exclusive prefix
// array, which drops the last pile of every move (a one-pile move takes nothing).
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let s = &stone_value[..];
        let n = s.len();
        let mut pre = vec![0i32; n + 1];
        for i in 0..n {
            pre[i + 1] = pre[i] + s[i];
        }
        let mut f = vec![0i32; n + 1];
        for i in (0..n).rev() {
            let mut best = i32::MIN;
            for k in 1..=3.min(n - i) {
                best = best.max(pre[i + k - 1] - pre[i] - f[i + k]);
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
