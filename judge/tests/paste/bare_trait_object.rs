// paste: refused, does not compile
// A trait object without `dyn` compiled in edition 2018; LeetCode's 2021 refuses it.
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let name: Box<Fn(i64) -> &'static str> = Box::new(|lead| match lead {
            l if l > 0 => "Alice",
            l if l < 0 => "Bob",
            _ => "Tie",
        });
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
        name(lead[0]).to_string()
    }
}
