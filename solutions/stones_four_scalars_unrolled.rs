#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};

// Stones instead of leads. b(i) is the most the player to move collects from piles i..n,
// a(i) = S(i) - b(i) what the other one gets (S: suffix sums), and the lead is b(i) - a(i):
//     a(i) = min(b(i+1), b(i+2), b(i+3)),  b(i) = S(i) - a(i),  both 0 past the end.
// That puts a min and a subtraction per pile on the chain of dependent steps. Fixing the
// roles by index parity leaves one min or max: with E, O the sums of the even- and odd-
// indexed piles of i..n, and e(i) = b(i) - E(i) for even i, a(i) - E(i) for odd i,
//     e(i) = min(e(i+1), min(b(i+2), b(i+3)) - E(i))   for odd i,
//     e(i) = max(e(i+1), O(i) - min(b(i+2), b(i+3)))   for even i,
// where b(j) = e(j) + E(j) (even j) or O(j) - e(j) (odd j). For the pair i (even), i+1, with
// e2 = e(i+2), e3 = e(i+3), d = O(i+2) - E(i+2) and q = b(i+4) - E(i+2), the bounds are
// min(d - e3, q) and s[i+1] + max(d - e2, e3), written as compares on e3 and e2 so that they
// wait for no subtraction. Groups of 16 piles unroll; each prefetches the piles 4 KiB before
// it, or a backward walk over a fresh input waits for memory. An odd length gets a zero pile
// at the end, which changes nothing. Alice wins when 2·e(0) - d > 0.
// Time O(n), extra space O(1).
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        // e2, e3, q and d before the pair (i, i+1) is taken; all 0 past the end.
        let [mut e2, mut e3, mut q, mut d] = [0; 4];
        let mut take_pair = |first: i32, second: i32| {
            let odd_bound = if e3 > d - q { d - e3 } else { q };
            let even_bound = if e2 < d - e3 { d + second - e2 } else { second + e3 };
            let e1 = e2.min(odd_bound);
            (e2, e3, q, d) = (e1.max(even_bound), e1, e2 - first, d + second - first);
        };
        let n = stone_value.len();
        let (whole, last) = stone_value.split_at(n - n % 2);
        if let [last] = *last {
            take_pair(last, 0);
        }
        let groups = whole.rchunks_exact(16);
        let front = groups.remainder();
        for group in groups {
            // SAFETY: a prefetch is only a hint to the cache: it never faults, and nothing is read through the pointer.
            #[cfg(target_arch = "x86_64")]
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(group.as_ptr().wrapping_sub(1024).cast())
            }
            group.chunks_exact(2).rev().for_each(|pair| take_pair(pair[0], pair[1]));
        }
        front.chunks_exact(2).rev().for_each(|pair| take_pair(pair[0], pair[1]));
        match 2 * e2 - d {
            lead if lead > 0 => "Alice".to_string(),
            lead if lead < 0 => "Bob".to_string(),
            _ => "Tie".to_string(),
        }
    }
}
