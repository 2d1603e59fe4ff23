// paste: refused, signature
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> &'static str {
        let total: i64 = stone_value.iter().map(|&v| i64::from(v)).sum();
        if total > 0 {
            "Alice"
        } else {
            "Bob"
        }
    }
}
