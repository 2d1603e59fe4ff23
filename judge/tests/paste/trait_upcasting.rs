// paste by LeetCode's Rust: refused, does not compile
// paste by a newer Rust: ready
// Coercing `&dyn Winner` to `&dyn Named` (trait upcasting) is a language feature of Rust
// 1.86: LeetCode's 1.85 refuses it, and clippy's lint, which names library items only, does
// not see it.
trait Named {
    fn name(&self) -> &'static str;
}

trait Winner: Named {}

struct Player(&'static str);

impl Named for Player {
    fn name(&self) -> &'static str {
        self.0
    }
}

impl Winner for Player {}

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
        let players = [Player("Alice"), Player("Bob"), Player("Tie")];
        let winner: &dyn Winner = &players[if lead[0] > 0 { 0 } else if lead[0] < 0 { 1 } else { 2 }];
        let named: &dyn Named = winner;
        named.name().to_string()
    }
}
