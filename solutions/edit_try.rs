// Bottom-up table. f[i] is the best lead (own total minus the other's) the player to
// move can secure on piles i..n:
//     f[i] = max over k in 1..=3 of (s[i] + … + s[i+k-1]) - f[i+k],  f[n] = 0.
// Fill f from the back; Alice wins when f[0] > 0, Bob when f[0] < 0. The k loop runs
// over 1..4 (the compiler unrolls it, unlike 1..=3) and stops after the last pile, so
// f[i+1], written just before, is read on every step and stays in a register.
// Time O(n), extra space O(n).
impl Solution {
    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {
        let n = stone_value.len();
        let mut f = vec![0; n + 1];
        for i in (0..n).rev() {
            let (mut sum, mut best) = (0, i32::MIN);
            for k in 1..4 {
                sum += stone_value[i + k - 1];
                best = best.max(sum - f[i + k]);
                if i + k == n {
                    break;
                }
            }
            f[i] = best;
        }
        match f[0] {
            lead if lead > 0 => "Alice".to_string(),
            lead if lead < 0 => "Bob".to_string(),
            _ => "Tie".to_string(),
        }
    }
}
// 18261
// 18315
// 18355
// 18409
// 18449
// 18503
// 18543
// 18597
// 18637
// 18691
// 18731
// 18785
// 18825
// 18879
// 18919
// 18973
// 19013
// 19067
// 19107
// 19161
// 19201
// 19255
// 19295
// 19349
// 19389
// 19443
// 19483
// 19537
// 19577
// 19631
// 19672
// 19726
// 19784
// 19822
// 19873
// 19908
// 19959
// 19994
// 20045
// 20080
// 20131
// 20166
// 20217
// 20252
// 20303
// 20338
// 20389
// 20424
// 20475
// 20510
// 20561
// 20596
// 20647
// 20682
// 20733
// 20768
// 20819
// 20854
// 20905
// 20940
// 20991
// 21026
// 21077
// 21112
// 21353
// 21404
// 21456
// 21507
// 21535
// 21586
// 21614
// 21665
// 21693
// 21744
// 21772
// 21823
// 21851
// 21902
// 21930
// 21981
// 22009
// 22060
// 22088
// 22139
// 22167
// 22218
// 22246
// 22297
// 22325
// 22376
// 22404
// 22455
// 22483
// 22534
// 22562
// 22613
// 25604
// 25650
// 25712
// 25761
// 25801
// 25850
// 25890
// 25939
// 25979
// 26028
// 26068
// 26117
// 26157
// 26206
// 26246
// 26295
// 26335
// 26384
// 26424
// 26473
// 26513
// 26562
// 26602
// 26651
// 26691
// 26740
// 26780
// 26829
// 26869
// 26918
// 26958
// 27007
