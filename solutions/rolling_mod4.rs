// Rolling array, counting stones instead of leads. b(i) is the most the player to
// move can collect from piles i..n and a(i) what the opponent then collects, so
// a(i) + b(i) = S(i) (the suffix sum) and the lead is f(i) = b(i) - a(i):
//     a(i) = min(b(i+1), b(i+2), b(i+3)),  b(i) = S(i) - a(i),  b(j) = 0 for j >= n.
// Only four b values are alive, so b(i) lives in slot i % 4, overwriting b(i+4).
// Taking one pile gives b(i) = s[i] + a(i+1), otherwise b(i) = S(i) - min(b(i+2),
// b(i+3)); both are ready before b(i+1) is, so each pile adds only a compare and a
// select to the chain. Alice wins when b(0) > a(0). Time O(n), extra space O(1).
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let s = &stone_value[..];
        let whole = s.len() / 4 * 4;
        let mut b = [0; 4];
        let (mut a1, mut suffix) = (0, 0);
        let mut take = |i: usize, pile: i32| {
            suffix += pile;
            let rest = b[(i + 2) % 4].min(b[(i + 3) % 4]);
            let b1 = b[(i + 1) % 4];
            let b0 = if b1 < rest { pile + a1 } else { suffix - rest };
            (b[i % 4], a1) = (b0, b1.min(rest));
        };
        // Groups of four start at multiples of 4, so each i % 4 is a constant in the
        // unrolled body and the array stays in registers. The last, partial group is
        // padded with zero piles, which change nothing.
        let mut last = [0; 4];
        last[..s.len() - whole].copy_from_slice(&s[whole..]);
        for j in (0..4).rev() {
            take(whole + j, last[j]);
        }
        for (g, group) in s[..whole].chunks_exact(4).enumerate().rev() {
            for j in (0..4).rev() {
                take(4 * g + j, group[j]);
            }
        }
        match b[0] - a1 {
            lead if lead > 0 => "Alice".to_string(),
            lead if lead < 0 => "Bob".to_string(),
            _ => "Tie".to_string(),
        }
    }
}
