// Top-down memo. lead(i) is the best lead (own total minus the other's) the
// player to move can secure on piles i..n:
//     lead(i) = max over k in 1..=3 of (s[i] + … + s[i+k-1]) - lead(i+k),  lead(n) = 0.
// Recurse from pile 0 and remember each lead(i) so it is computed once; by the time
// lead(i+1) returns it has memoised lead(i+2) and lead(i+3) as well. Each pile sits
// beside its memo slot, so a call passes one slice and keeps a single register
// across the recursion (small frames for depth n). Three zero piles with lead 0
// stand past the end, which changes nothing. Real leads stay within ±50,000,000,
// so i32::MAX marks "not computed yet".
// Time O(n), extra space O(n) for the memo plus O(n) recursion depth.
impl Solution {
    const UNKNOWN: i32 = i32::MAX;

    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let piles = stone_value.iter().map(|&pile| (pile, Self::UNKNOWN));
        let mut memo: Vec<(i32, i32)> = piles.chain([(0, 0); 3]).collect();
        match Self::lead(&mut memo) {
            lead if lead > 0 => "Alice".to_string(),
            lead if lead < 0 => "Bob".to_string(),
            _ => "Tie".to_string(),
        }
    }

    // memo[k] = (pile i+k, lead(i+k) or UNKNOWN); returns and memoises lead(i).
    fn lead(memo: &mut [(i32, i32)]) -> i32 {
        let [_, (_, after), _, _, ..] = memo else {
            return 0;
        };
        let next = match *after {
            Self::UNKNOWN => Self::lead(&mut memo[1..]),
            known => known,
        };
        let (a, b, c) = (memo[0].0, memo[1].0, memo[2].0);
        let (two, three) = (memo[2].1, memo[3].1);
        debug_assert!(two != Self::UNKNOWN && three != Self::UNKNOWN);
        memo[0].1 = (a - next).max((a + b - two).max(a + b + c - three));
        memo[0].1
    }
}
