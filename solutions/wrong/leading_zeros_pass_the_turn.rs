// expect: WA
// Leading zeros are read as passes: each is worth nothing, so after z of them the game
// on the rest starts with Bob to move when z is odd. But a player may take zeros two or
// three at a time, or with the piles after them, and so choose who moves first on the
// rest: on [0,0,-1] Alice takes both zeros and Bob must take the -1.
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let zeros = stone_value.iter().take_while(|&&v| v == 0).count();
        let s = &stone_value[zeros..];
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
        let lead = if zeros % 2 == 1 { -f[0] } else { f[0] };
        if lead > 0 {
            "Alice".to_string()
        } else if lead < 0 {
            "Bob".to_string()
        } else {
            "Tie".to_string()
        }
    }
}
