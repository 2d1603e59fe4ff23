// Four scalars. Let f(i) be the best lead (own total minus the other's) the
// player to move can secure on piles i..n:
//     f(i) = max over k in 1..=3 of (s[i] + … + s[i+k-1]) - f(i+k),  f(n) = 0.
// f(i) needs only f(i+1), f(i+2), f(i+3), so four variables walk from the back,
// shifting one place per pile. Alice wins when f(0) > 0, Bob when f(0) < 0.
// Time O(n), extra space O(1).
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let s = &stone_value[..];
        let n = s.len();
        let (mut f0, mut f1, mut f2, mut f3) = (0, 0, 0, 0);
        // The last two piles cannot start a three-pile move: settle them first.
        if n >= 1 {
            f0 = s[n - 1];
            (f3, f2, f1) = (f2, f1, f0);
        }
        if n >= 2 {
            f0 = (s[n - 2] - f1).max(s[n - 2] + s[n - 1] - f2);
            (f3, f2, f1) = (f2, f1, f0);
        }
        for w in s.windows(3).rev() {
            let (one, two, three) = (w[0], w[0] + w[1], w[0] + w[1] + w[2]);
            // Only the one-pile move waits on f1; the other two start early.
            f0 = (one - f1).max((two - f2).max(three - f3));
            (f3, f2, f1) = (f2, f1, f0);
        }
        match f0 {
            lead if lead > 0 => "Alice".to_string(),
            lead if lead < 0 => "Bob".to_string(),
            _ => "Tie".to_string(),
        }
    }
}
