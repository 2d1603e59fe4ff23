// expect: WA
// A fast path for three piles lists Alice's lines of play: all three; two, leaving Bob
// the last; one, after which Bob takes one and she takes the last. It misses the line
// where Bob answers her one pile by taking both that remain: on [-1,-1,1] Bob takes
// [-1,1] and wins, while the path counts Alice's +1 from [-1], [-1], [1].
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let s = &stone_value[..];
        let n = s.len();
        let lead = if n == 3 {
            let (a, b, c) = (s[0], s[1], s[2]);
            (a + b + c).max(a + b - c).max(a - b + c)
        } else {
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
            f[0]
        };
        if lead > 0 {
            "Alice".to_string()
        } else if lead < 0 {
            "Bob".to_string()
        } else {
            "Tie".to_string()
        }
    }
}
