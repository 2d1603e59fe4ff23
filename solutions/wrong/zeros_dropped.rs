// expect: WA
// Piles of 0 are dropped first, being worth nothing to either player. But a zero can be
// taken alone to hand the turn over: on [0,0,0,1] whoever takes the 1 must first take a
// zero, and Bob gets it, while [1] is Alice's.
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let s: Vec<i32> = stone_value.into_iter().filter(|&v| v != 0).collect();
        let n = s.len();
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
