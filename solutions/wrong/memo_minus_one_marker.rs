// expect: TLE
// The memo uses -1 as "not computed yet", as most C++ and Java memos do, but -1 is also a
// real lead (one stone behind): a position whose lead is -1 is recomputed at every call,
// which is exponential where the leads stay at -1 (-2, -2, …, -2, -1).
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let n = stone_value.len();
        let mut memo = vec![-1; n];
        let diff = Self::solve(&stone_value, 0, &mut memo);
        if diff > 0 {
            "Alice".to_string()
        } else if diff < 0 {
            "Bob".to_string()
        } else {
            "Tie".to_string()
        }
    }

    fn solve(stones: &[i32], i: usize, memo: &mut Vec<i32>) -> i32 {
        if i >= stones.len() {
            return 0;
        }
        if memo[i] != -1 {
            return memo[i];
        }
        let mut best = i32::MIN;
        let mut sum = 0;
        for k in 0..3 {
            if i + k >= stones.len() {
                break;
            }
            sum += stones[i + k];
            best = best.max(sum - Self::solve(stones, i + k + 1, memo));
        }
        memo[i] = best;
        best
    }
}
