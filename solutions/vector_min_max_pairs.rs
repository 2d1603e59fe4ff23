#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::{
    __m128i, _mm_add_epi32, _mm_cvtsi128_si32, _mm_cvtsi32_si128, _mm_max_epi32, _mm_min_epi32, _mm_prefetch,
    _mm_sub_epi32, _MM_HINT_T0,
};

// Vector min/max over pairs of piles. f(i), the best lead (own total minus the other's) the
// player to move can secure on piles i..n, is
//     f(i) = max over k in 1..=3 of (s[i] + … + s[i+k-1]) - f(i+k),  f(n) = 0,
// and Alice wins when f(0) > 0, Bob when f(0) < 0.
//
// The recurrence, as in sign_select_pairs. D(i) is the sum of (-1)^(j+1)·s[j] over j >= i,
// and e(i) = (D(i) + f(i)) / 2 for even i, (D(i) - f(i)) / 2 for odd i (an integer: D(i) and
// f(i) have the parity of s[i] + … + s[n-1]). With t(i) = D(i+1) - e(i+2), the moves of one,
// two and three piles give
//     e(i) = max(e(i+1), t(i), D(i+1) - t(i+1))   for even i,
//     e(i) = min(e(i+1), t(i), D(i+1) - t(i+1))   for odd i,
// and f(0) = 2·e(0) - D(0). Past the end piles and e count 0, so an odd length gets one zero
// pile, and the piles go in pairs from the back. For the pair (i, i+1), i even, two facts
// leave six operations: D(i+2) - t(i+2) = e(i+4) - s[i+2], and
//     max(t(i), D(i+1) - t(i+1)) = D(i+1) - min(e(i+2), t(i+1)).
// So with m = min(e(i+2), t(i+1)) and q = e(i+4) - s[i+2],
//     e(i+1) = min(m, q),   e(i) = max(e(i+1), D(i+1) - m),
// and the next pair's q is e(i+2) - s[i].
//
// What keeps the chain short. From e(i+2) to e(i) the chain is three one-cycle steps: the
// min m, then the subtraction D(i+1) - m or the min with q, then the max. t(i+1) waits for
// e(i+3), ready a step before e(i+2); D and q wait for nothing on the chain. Three steps a
// pair, 1.5 a pile, where one compare-and-select (`cmp`, then `cmov`) alone takes two cycles
// a pile. The vector step carries every value in lane 0 of an SSE register, so each min and
// max is one `pminsd` or `pmaxsd` (SSE4.1), with no flag and no select; of its eight
// operations a pair (six and the two of D), at most one min or max is due in any cycle, for
// cores that have two units to run them. Each group of 16 piles prefetches the piles 2 KiB
// before it, or a backward walk over a fresh input waits for memory.
//
// Exact on both paths. The integer step and the vector step compute the same operations
// on the same i32 values: `_mm_min_epi32` and `_mm_max_epi32` are i32 min and max, and
// `_mm_add_epi32` and `_mm_sub_epi32` are i32 addition and subtraction wherever these do not
// overflow, which they never do here: |D(i)|, |f(i)| and |e(i)| are at most 1000·(n - i), so
// every value lies within ±10^8 and every difference within ±2·10^8. Lanes 1 to 3 hold zeros
// throughout and are never read.
//
// Which path takes what. The vector step needs SSE4.1, checked at run time: with it, it
// takes the groups of 16 piles from the back, and the integer step the odd pile and the
// piles before the first group; without it (and off x86-64) the integer step takes all.
// Time O(n), extra space O(1).
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        // Before the pair (i, i+1): [D(i+2), e(i+2), e(i+3), q]; all 0 past the end.
        let mut state = [0; 4];
        let n = stone_value.len();
        let (whole, odd) = stone_value.split_at(n - n % 2);
        if let [last] = *odd {
            Self::take_pair(&mut state, last, 0);
        }
        // The integer step takes the piles the vector step leaves: all of them off x86-64.
        #[cfg(target_arch = "x86_64")]
        let whole = Self::take_groups(&mut state, whole);
        for pair in whole.chunks_exact(2).rev() {
            Self::take_pair(&mut state, pair[0], pair[1]);
        }
        match 2 * state[1] - state[0] {
            lead if lead > 0 => "Alice".to_string(),
            lead if lead < 0 => "Bob".to_string(),
            _ => "Tie".to_string(),
        }
    }

    #[cfg(target_arch = "x86_64")]
    const GROUP: usize = 16;

    // Where the CPU has SSE4.1, takes the groups at the back of `whole` in vector registers
    // and returns the piles before them; else returns `whole`, for the integer step.
    #[cfg(target_arch = "x86_64")]
    fn take_groups<'a>(state: &mut [i32; 4], whole: &'a [i32]) -> &'a [i32] {
        if is_x86_feature_detected!("sse4.1") {
            let (front, groups) = whole.split_at(whole.len() % Self::GROUP);
            // SAFETY: take_groups_sse41 needs SSE4.1, and the check above found it on this CPU.
            unsafe { Self::take_groups_sse41(state, groups) };
            front
        } else {
            whole
        }
    }

    fn take_pair(state: &mut [i32; 4], first: i32, second: i32) {
        let [d2, e2, e3, q] = *state;
        let d1 = d2 + second;
        let m = e2.min(d2 - e3);
        let e1 = m.min(q);
        *state = [d1 - first, e1.max(d1 - m), e1, e2 - first];
    }

    // take_pair on each pair of `groups` from the back, every value in lane 0.
    // Safety: the CPU must have SSE4.1. Nothing is read or written through a pointer: the
    // prefetch only hints at an address, made by wrapping arithmetic, and never faults.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "sse4.1")]
    unsafe fn take_groups_sse41(state: &mut [i32; 4], groups: &[i32]) {
        let lane = |x: i32| _mm_cvtsi32_si128(x);
        let [mut d2, mut e2, mut e3, mut q]: [__m128i; 4] = state.map(lane);
        for group in groups.rchunks_exact(Self::GROUP) {
            _mm_prefetch::<_MM_HINT_T0>(group.as_ptr().wrapping_sub(512).cast());
            for pair in group.chunks_exact(2).rev() {
                let (first, d1) = (lane(pair[0]), _mm_add_epi32(d2, lane(pair[1])));
                let m = _mm_min_epi32(e2, _mm_sub_epi32(d2, e3));
                let e1 = _mm_min_epi32(m, q);
                let e0 = _mm_max_epi32(e1, _mm_sub_epi32(d1, m));
                [d2, e2, e3, q] = [_mm_sub_epi32(d1, first), e0, e1, _mm_sub_epi32(e2, first)];
            }
        }
        *state = [d2, e2, e3, q].map(|x| _mm_cvtsi128_si32(x));
    }
}
