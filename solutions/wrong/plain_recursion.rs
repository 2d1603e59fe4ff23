// expect: TLE
// The right recurrence with no memo: each call makes up to three more, so the
// number of calls grows like 1.84^n and n in the forties is already too slow.
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let lead = Self::lead(0, &stone_value);
        if lead > 0 {
            "Alice".to_string()
        } else if lead < 0 {
            "Bob".to_string()
        } else {
            "Tie".to_string()
        }
    }

    fn lead(i: usize, s: &[i32]) -> i32 {
        if i >= s.len() {
            return 0;
        }
        let mut taken = 0;
        let mut best = i32::MIN;
        for k in 1..=3.min(s.len() - i) {
            taken += s[i + k - 1];
            best = best.max(taken - Self::lead(i + k, s));
        }
        best
    }
}
