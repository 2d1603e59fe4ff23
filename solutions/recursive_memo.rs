// Top-down memo. lead(i) is the best lead (own total minus the other's) the player to
// move can secure on piles i..n:
//     lead(i) = max over k in 1..=3 of (s[i] + … + s[i+k-1]) - lead(i+k),  lead(n) = 0.
// Recurse from pile 0 and remember each lead in memo, where i32::MIN marks "not computed"
// (a real lead stays within ±50,000,000) and memo[n] = 0. A call gets the piles from i on
// and their memo slots as slices, not an index, and reads a lead already in the memo
// instead of calling for it, so each pile costs one call with a small frame; k runs over
// 1..4 (the compiler unrolls it, unlike 1..=3) and stops after the last pile.
// Alice wins when lead(0) > 0. Time O(n), extra space O(n) for the memo and the recursion.
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let n = stone_value.len();
        let mut memo = vec![i32::MIN; n + 1];
        memo[n] = 0;
        match Self::lead(&stone_value, &mut memo) {
            lead if lead > 0 => "Alice".to_string(),
            lead if lead < 0 => "Bob".to_string(),
            _ => "Tie".to_string(),
        }
    }

    // The lead on the piles s (never empty: 1 <= n, and memo[n] is read, not computed),
    // memoised in memo[0]; memo[k] is the lead on s[k..].
    fn lead(s: &[i32], memo: &mut [i32]) -> i32 {
        let (mut sum, mut best) = (0, i32::MIN);
        for k in 1..4 {
            sum += s[k - 1];
            let next = match memo[k] {
                i32::MIN => Self::lead(&s[k..], &mut memo[k..]),
                known => known,
            };
            best = best.max(sum - next);
            if k == s.len() {
                break;
            }
        }
        memo[0] = best;
        best
    }
}
