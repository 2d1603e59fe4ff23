// expect: WA
// Each player greedily takes the 1, 2 or 3 piles with the largest immediate sum,
// ignoring what that leaves to the opponent, which is not optimal play.
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let s = &stone_value[..];
        let n = s.len();
        let (mut alice, mut bob) = (0i32, 0i32);
        let mut alice_turn = true;
        let mut i = 0;
        while i < n {
            let mut taken = 0;
            let mut best_sum = i32::MIN;
            let mut best_k = 1;
            for k in 1..=3.min(n - i) {
                taken += s[i + k - 1];
                if taken > best_sum {
                    best_sum = taken;
                    best_k = k;
                }
            }
            if alice_turn {
                alice += best_sum;
            } else {
                bob += best_sum;
            }
            alice_turn = !alice_turn;
            i += best_k;
        }
        if alice > bob {
            "Alice".to_string()
        } else if alice < bob {
            "Bob".to_string()
        } else {
            "Tie".to_string()
        }
    }
}
