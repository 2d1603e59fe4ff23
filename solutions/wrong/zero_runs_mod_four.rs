// expect: WA
// Runs of zeros are cut to their length modulo 4 first, by a mirror argument: whatever
// one player takes of four zeros, the other takes the rest, and the same player moves
// after them. But a move may take the last zeros of a run together with the piles after
// it, which the mirror cannot answer: [0,0,0,0,1,1] is a tie, and [1,1] is Alice's.
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let mut s = Vec::with_capacity(stone_value.len());
        let mut zeros = 0;
        for &v in stone_value.iter().chain(std::iter::once(&1)) {
            if v == 0 {
                zeros += 1;
                continue;
            }
            s.extend(std::iter::repeat(0).take(zeros % 4));
            zeros = 0;
            s.push(v);
        }
        s.pop();
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
