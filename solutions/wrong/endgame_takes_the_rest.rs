// expect: WA
// An endgame shortcut: when at most three piles are left and together they are worth
// something, the player to move takes them all, as nobody leaves a gain on the table. But
// a negative pile among them may be worth leaving to the other player: on [1,-1] Alice
// takes the 1 and Bob must take the -1, a lead of 2 where taking both is a tie.
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let s = &stone_value[..];
        let n = s.len();
        let mut f = vec![0i32; n + 1];
        let mut rest = 0;
        for i in (0..n).rev() {
            rest += s[i];
            if n - i <= 3 && rest >= 0 {
                f[i] = rest;
                continue;
            }
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
