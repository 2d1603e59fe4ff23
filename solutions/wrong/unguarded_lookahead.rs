// expect: RE
// The table is padded to n + 3 as in the Python solutions, but the stones are not:
// s[i + 1] and s[i + 2] are read unguarded and index past the end at i = n - 1.
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let s = &stone_value[..];
        let n = s.len();
        let mut f = vec![0i32; n + 3];
        for i in (0..n).rev() {
            let one = s[i];
            let two = one + s[i + 1];
            let three = two + s[i + 2];
            f[i] = (one - f[i + 1]).max(two - f[i + 2]).max(three - f[i + 3]);
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
