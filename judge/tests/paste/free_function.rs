// paste: refused, no impl
// The method written as a free function: LeetCode calls `Solution::stone_game_iii`.
pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
    let total: i32 = stone_value.iter().sum();
    match total {
        t if t > 0 => "Alice".to_string(),
        t if t < 0 => "Bob".to_string(),
        _ => "Tie".to_string(),
    }
}
