// Four scalars. f(i) is the best lead (own total minus the other's) the player to move
// can secure on piles i..n:
//     f(i) = max over k in 1..=3 of (s[i] + … + s[i+k-1]) - f(i+k),  f(n) = 0.
// Walking from the back, f1, f2, f3 hold f(i+1), f(i+2), f(i+3) and shift one place per
// pile. Taking two or three piles does not depend on f1, so that maximum is formed first
// and only one subtraction and one max wait for the previous pile.
// Alice wins when f(0) > 0, Bob when f(0) < 0. Time O(n), extra space O(1).
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let s = &stone_value[..];
        let n = s.len();
        let (mut f0, mut f1, mut f2, mut f3) = (0, 0, 0, 0);
        for i in (0..n).rev() {
            let mut more = i32::MIN;
            if i + 1 < n {
                more = s[i] + s[i + 1] - f2;
            }
            if i + 2 < n {
                more = more.max(s[i] + s[i + 1] + s[i + 2] - f3);
            }
            f0 = (s[i] - f1).max(more);
            f3 = f2;
            f2 = f1;
            f1 = f0;
        }
        match f0 {
            lead if lead > 0 => "Alice".to_string(),
            lead if lead < 0 => "Bob".to_string(),
            _ => "Tie".to_string(),
        }
    }
}
