// expect: WA
// A fast path for rows of one value: a positive one is Alice's (she can always take the
// most), a negative one is Bob's when there is an odd number of piles and a tie when
// even, zeros are a tie. But with six equal positive piles, whatever Alice takes Bob
// takes the rest but the same number: a tie, as with every multiple of six.
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let s = &stone_value[..];
        let n = s.len();
        if s.iter().all(|&v| v == s[0]) {
            return match s[0] {
                v if v > 0 => "Alice",
                v if v < 0 && n % 2 == 1 => "Bob",
                _ => "Tie",
            }
            .to_string();
        }
        let mut f = vec![0i32; n + 1];
        for i in (0..n).rev() {
            let mut taken = 0;
            let mut best = i32::MIN;
            for k in 1..=3.min(n - i) {
                taken += s[i + k - 1];
                best = best.max(taken - f[i + k]);
            }
            f[i] = best;
        }
        if f[0] > 0 {
            "Alice".to_string()
        } else if f[0] < 0 {
            "Bob".to_string()
        } else {
            "Tie".to_string()
        }
    }
}
