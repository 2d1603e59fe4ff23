// expect: WA
// The shift runs front to back (f1 = f0 before f2 = f1 before f3 = f2), so all
// three end up equal to f0 and every move is scored against f(i+1).
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let s = &stone_value[..];
        let n = s.len();
        let (mut f0, mut f1, mut f2, mut f3) = (0i32, 0i32, 0i32, 0i32);
        for i in (0..n).rev() {
            f0 = s[i] - f1;
            if i + 1 < n {
                f0 = f0.max(s[i] + s[i + 1] - f2);
            }
            if i + 2 < n {
                f0 = f0.max(s[i] + s[i + 1] + s[i + 2] - f3);
            }
            f1 = f0;
            f2 = f1;
            f3 = f2;
        }
        if f0 > 0 {
            "Alice".to_string()
        } else if f0 < 0 {
            "Bob".to_string()
        } else {
            "Tie".to_string()
        }
    }
}
