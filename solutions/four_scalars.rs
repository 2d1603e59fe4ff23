// Four scalars. f(i) is the best lead (own total minus the other's) the player to move
// can secure on piles i..n:
//     f(i) = max over k in 1..=3 of (s[i] + … + s[i+k-1]) - f(i+k),  f(n) = 0.
// Walking from the back, f1, f2, f3 hold f(i+1), f(i+2), f(i+3) and s1, s2 the piles
// s[i+1], s[i+2]; each pile shifts them one place. Past the end piles and leads count 0,
// so taking more piles than remain is worth what taking them all is, and the loop tests
// no length. Taking two or three piles does not depend on f1, so that maximum is formed
// first and only one subtraction and one max wait for the previous pile.
// Alice wins when f(0) > 0, Bob when f(0) < 0. Time O(n), extra space O(1).
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let (mut f1, mut f2, mut f3) = (0, 0, 0);
        let (mut s1, mut s2) = (0, 0);
        for &s0 in stone_value.iter().rev() {
            let more = (s0 + s1 - f2).max(s0 + s1 + s2 - f3);
            let f0 = (s0 - f1).max(more);
            (f1, f2, f3) = (f0, f1, f2);
            (s1, s2) = (s0, s1);
        }
        match f1 {
            lead if lead > 0 => "Alice".to_string(),
            lead if lead < 0 => "Bob".to_string(),
            _ => "Tie".to_string(),
        }
    }
}
