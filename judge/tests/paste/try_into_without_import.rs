// paste: ready
// `try_into` is in the prelude from edition 2021 on: this fails in 2018 only, and LeetCode
// compiles in 2021.
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let n = stone_value.len();
        let mut lead = vec![0i64; n + 1];
        for i in (0..n).rev() {
            let (mut taken, mut best) = (0i64, i64::MIN);
            for k in 1..=3.min(n - i) {
                taken += i64::from(stone_value[i + k - 1]);
                best = best.max(taken - lead[i + k]);
            }
            lead[i] = best;
        }
        let sign: i8 = lead[0].signum().try_into().unwrap();
        ["Bob", "Tie", "Alice"][(sign + 1) as usize].to_string()
    }
}
