// Sign selects over pairs of piles. f(i), the best lead (own total minus the other's) the
// player to move can secure on piles i..n, is
//     f(i) = max over k in 1..=3 of (s[i] + … + s[i+k-1]) - f(i+k),  f(n) = 0,
// and Alice wins when f(0) > 0, Bob when f(0) < 0.
//
// The recurrence. D(i) is the sum of (-1)^(j+1)·s[j] over j >= i (the odd-indexed piles of
// i..n minus the even-indexed ones), and e(i) = (D(i) + f(i)) / 2 for even i, (D(i) - f(i)) / 2
// for odd i: an integer, as D(i) and f(i) both have the parity of s[i] + … + s[n-1]. Put into
// the recurrence, where D(i) = D(i+1) ∓ s[i] (- for even i) cancels the piles taken, the moves
// of one, two and three piles give
//     e(i) = max(e(i+1), t(i), D(i+1) - t(i+1))   for even i,
//     e(i) = min(e(i+1), t(i), D(i+1) - t(i+1))   for odd i,   where t(i) = D(i+1) - e(i+2);
// f(0) = 2·e(0) - D(0). Past the end, piles and e count 0 (like zero piles, which change no
// lead), so an odd length gets one zero pile, and the piles go in pairs from the back, the
// odd-indexed one first.
//
// One select per pile. The chain of dependent steps runs e(i+1) -> e(i). Two piles or three
// is settled beside it: t(i) - (D(i+1) - t(i+1)) = t(i+1) - e(i+2), so t(i) is the better one
// when e(i+2) < t(i+1) (even i) or t(i+1) < e(i+2) (odd i). t(i+1) is formed a pile before
// e(i+2) is, so this choice, like t(i) itself, waits for e(i+2) by one subtraction and is made
// by the time e(i+1) is; e(i) then waits for e(i+1) by one subtraction and one select. Each
// select chooses between values formed before it, and its result is used as it is: written as
// s[i+1] + max(D(i+2) - e(i+2), e(i+3)), the even pile's bound would carry an addition after
// its select, and that addition would lengthen the chain.
//
// Exact comparisons. Every comparison is `below(a, b)`, the sign of the wrapping a - b: a
// select then reads the sign flag alone (`cmovs`), where a < b and i32::min/max compile to
// selects on a signed comparison (`cmovl` and the like, reading two flags), slower on some
// cores. It equals a < b while a - b does not wrap: |D(i)|, |f(i)| and |e(i)| are at most
// 1000·(n - i), so every value compared lies within ±10^8 and every difference within
// ±2·10^8, far inside i32.
// Time O(n), extra space O(1).
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        // Before the pair (i, i+1): d2 = D(i+2), e2 = e(i+2), e3 = e(i+3), t2 = t(i+2).
        let [mut d2, mut e2, mut e3, mut t2] = [0; 4];
        let mut take_pair = |first: i32, second: i32| {
            let d1 = d2 + second;
            let (t1, t0) = (d2 - e3, d1 - e2);
            // For each pile the better of two and three piles, then of that and one pile.
            let best1 = if Self::below(t2, e3) { t1 } else { d2 - t2 };
            let best0 = if Self::below(e2, t1) { t0 } else { d1 - t1 };
            let e1 = if Self::below(e2, best1) { e2 } else { best1 };
            let e0 = if Self::below(e1, best0) { best0 } else { e1 };
            (d2, e2, e3, t2) = (d1 - first, e0, e1, t0);
        };
        let pairs = stone_value.chunks_exact(2);
        if let [last] = *pairs.remainder() {
            take_pair(last, 0);
        }
        for pair in pairs.rev() {
            take_pair(pair[0], pair[1]);
        }
        match 2 * e2 - d2 {
            lead if lead > 0 => "Alice".to_string(),
            lead if lead < 0 => "Bob".to_string(),
            _ => "Tie".to_string(),
        }
    }

    // a < b, read from the sign of a - b alone; exact while a - b does not wrap.
    fn below(a: i32, b: i32) -> bool {
        a.wrapping_sub(b) < 0
    }
}
