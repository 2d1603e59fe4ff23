// Four scalars, counting stones instead of leads. b(i) is the most the player to
// move can collect from piles i..n and a(i) what the opponent then collects, so
// a(i) + b(i) = S(i) (the suffix sum) and the lead is f(i) = b(i) - a(i):
//     a(i) = min(b(i+1), b(i+2), b(i+3)),  b(i) = S(i) - a(i),  b(j) = 0 for j >= n
// (piles past the end count as zero, which changes nothing). Walking from the back,
// b(i+1), b(i+2), b(i+3) and a(i+1) shift one place per pile. Taking one pile gives
// b(i) = s[i] + a(i+1), otherwise b(i) = S(i) - min(b(i+2), b(i+3)); both are ready
// before b(i+1) is, so each pile adds only a compare and a select to the chain.
// Alice wins when b(0) > a(0). Time O(n), extra space O(1).
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let (mut b1, mut b2, mut b3, mut a1) = (0, 0, 0, 0);
        let mut suffix = 0;
        let mut take = |pile: i32| {
            suffix += pile;
            let rest = b2.min(b3);
            let b0 = if b1 < rest { pile + a1 } else { suffix - rest };
            (b3, b2, b1, a1) = (b2, b1, b0, b1.min(rest));
        };
        // Eight piles per outer step: the fixed-length inner loop is fully unrolled.
        let chunks = stone_value.rchunks_exact(8);
        let front = chunks.remainder();
        for chunk in chunks {
            chunk.iter().rev().for_each(|&pile| take(pile));
        }
        front.iter().rev().for_each(|&pile| take(pile));
        match b1 - a1 {
            lead if lead > 0 => "Alice".to_string(),
            lead if lead < 0 => "Bob".to_string(),
            _ => "Tie".to_string(),
        }
    }
}
