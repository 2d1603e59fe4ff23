#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};

// Stones, rolling in four slots. b(i) is the most the player to move collects from piles
// i..n, a(i) = S(i) - b(i) what the other one gets (S: suffix sums), the lead b(i) - a(i):
//     a(i) = min(b(i+1), b(i+2), b(i+3)),  b(i) = S(i) - a(i),  both 0 past the end.
// That puts a min and a subtraction per pile on the chain of dependent steps; with roles
// fixed by index parity, e(i) = b(i) - E(i) (even i) or a(i) - E(i) (odd i), where E and O
// sum the even- and odd-indexed piles of i..n, one min or max per pile is left:
//     e(i) = min(e(i+1), min(b(i+2), b(i+3)) - E(i))   for odd i,
//     e(i) = max(e(i+1), O(i) - min(b(i+2), b(i+3)))   for even i,
// as b(j) = e(j) + E(j) (even j) or O(j) - e(j) (odd j). e(j) lives in e[j % 4]. For the pair
// i (even), i+1, with d = O(i+2) - E(i+2), the bounds are min(d - e(i+3), e(i+4) - s[i+2]) and
// s[i+1] + max(d - e(i+2), e(i+3)), written as compares on e(i+3) and e(i+2) so that they wait
// for no subtraction. Groups of four start at multiples of 4, so a pair's slots are fixed by
// its place in the group and stay in registers; the last group, padded with zero piles (which
// change nothing), is taken by the same code. Each group prefetches the piles 4 KiB before it,
// or a backward walk over a fresh input waits for memory. Alice wins when 2·e(0) - d > 0.
// Time O(n), extra space O(1).
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let mut e: [i32; 4] = [0; 4];
        // d and s[i+2] before the pair (i, i+1) is taken.
        let [mut d, mut after] = [0; 2];
        // take_pair(r, s[i], s[i+1]) takes the pair (i, i+1), where r = i % 4 is 0 or 2: so e(i+k)
        // is in e[r + k] for k = 0, 1 and in e[k - r] for k = 2, 3.
        let mut take_pair = |r: usize, first: i32, second: i32| {
            let (e2, e3, q) = (e[2 - r], e[3 - r], e[r] - after);
            let odd_bound = if e3 > d - q { d - e3 } else { q };
            let even_bound = if e2 < d - e3 { d + second - e2 } else { second + e3 };
            e[r + 1] = e2.min(odd_bound);
            e[r] = e[r + 1].max(even_bound);
            (d, after) = (d + second - first, first);
        };
        let groups = stone_value.chunks_exact(4);
        let mut last: [i32; 4] = [0; 4];
        last[..groups.remainder().len()].copy_from_slice(groups.remainder());
        let mut take_group = |group: &[i32]| {
            take_pair(2, group[2], group[3]);
            take_pair(0, group[0], group[1]);
        };
        take_group(&last);
        for group in groups.rev() {
            // SAFETY: a prefetch is only a hint to the cache: it never faults, and nothing is read through the pointer.
            #[cfg(target_arch = "x86_64")]
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(group.as_ptr().wrapping_sub(1024).cast())
            }
            take_group(group);
        }
        match 2 * e[0] - d {
            lead if lead > 0 => "Alice".to_string(),
            lead if lead < 0 => "Bob".to_string(),
            _ => "Tie".to_string(),
        }
    }
}
