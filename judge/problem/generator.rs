//! Random cases: a small std-only PRNG (splitmix64, the same bytes on every machine) and the
//! shapes of input that find the mistakes people make on this problem.

use super::{oracle, MAX_VALUE, MIN_VALUE};

/// splitmix64: tiny, fast, and fully specified, so a seed means the same case everywhere.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in lo..=hi, by multiply-shift (no modulo bias worth measuring here).
    pub fn range(&mut self, lo: i32, hi: i32) -> i32 {
        let span = (i64::from(hi) - i64::from(lo) + 1) as u64;
        lo + ((u128::from(self.next_u64()) * u128::from(span)) >> 64) as i32
    }

    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

/// The kinds of input the generator makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Every value in -1000..=1000.
    Uniform,
    /// Values in -2..=2: many equal moves and many ties.
    Narrow,
    /// Every value in -1000..=-1: every move hurts the mover.
    Negative,
    /// Every value in 1..=1000.
    Positive,
    /// Signs alternate, magnitudes random.
    Alternating,
    /// Only -1000 and 1000.
    Extremes,
    /// All zeros: every position is a tie.
    Zeros,
    /// Mostly zeros with a few values, so leads are often exactly zero.
    Sparse,
    /// A four-pile pattern repeated, so one player's lead grows by hundreds per pile.
    Periodic,
    /// Segments of the shapes above, each a random length.
    Mixed,
    /// Two periodic stretches that favour opposite players, joined where the final lead
    /// changes sign (found with the oracle), so leads swing by millions along the way and the
    /// game still ends close. Targets a running maximum started above the lowest reachable
    /// lead (at -100,000 instead of i32::MIN): it caps a lost position's loss, which only a
    /// close game with a huge swing turns into a wrong winner.
    Comeback,
    /// Leads held on one small value, -1, 0 or 1, along the whole row, or alternating
    /// between 1 and -1 (which of the four the seed draws). Built from the back: each pile is
    /// the value that makes the lead of the player to move there exactly the target, given
    /// the piles after it; one pile in 32 is random instead, and the next few piles bring the
    /// leads back (without those, -1 gives -2, -2, …, -2, -1 and 1 gives …, 2, 0, 0, 2, 0, 0,
    /// 1). Targets a memo that marks "not computed" with a value a lead can take: every
    /// position on the plateau is computed again at every call, so the calls grow like 1.84^n,
    /// as with no memo at all. The alternating leads catch -1 in a memo with a slot per pile
    /// and player that keeps Alice's lead over Bob: that is -1 where Alice moves at a lead of
    /// -1 and where Bob moves at a lead of 1, and such slots chain only when the two alternate.
    ///
    /// Only markers near zero can be caught this way. Three leads in a row equal to v need
    /// -500 <= v <= 1,500 (the pile before them is worth 2v - max(0, s[i+1], s[i+1] +
    /// s[i+2]), within -1000..=1000). Below -1,500 no two leads within three piles of each
    /// other can both equal v (f(i) + f(i+k) >= -1000k), so each marked position is computed
    /// at most three times and the memo stays linear: i32::MIN, -1e9, -(1 << 30) and
    /// -100,000 are safe. Past ±50,000,000 no lead reaches v at all: i32::MAX, 1e9,
    /// 0x3f3f3f3f and 1 << 30 are safe. Positive values in between can be held on three piles
    /// in four (zeros before a suffix whose leads start -v, v, v), but no public solution
    /// marks with one.
    Plateau,
    /// A game that ends level, on piles mostly positive (one in six negative, down to -100;
    /// the rest up to 1000), so that past n = 41,000 or so the piles' total passes 2^24, where
    /// an f32 holds only even integers. Drawn at random, then its first pile set so that the
    /// first mover's lead is exactly 0 (the next piles drawn again until one can be). A tie is
    /// the most sensitive answer: a lead off by any amount anywhere the play passes names a
    /// winner. Targets scores or sums kept in floats, and every mistake in a long game that
    /// moves the lead by a little: a shortcut near the end, a search that stops at a first
    /// winning move.
    Tie,
    /// Runs of 4 to 40 zeros, each before one to three piles in -3..=3 other than 0, the
    /// first pile then set, as in `Tie`, so that the game ends level. Targets a zero run cut
    /// to its length modulo 4 (whatever one player takes of four zeros the other takes the
    /// rest, but a move may take a run's last zeros with the piles after it), which moves the
    /// lead by a little and so names a winner of a tied game, and zeros dropped or skipped.
    ZeroRuns,
}

/// The piles of a `Tie` are drawn from here, and one in `TIE_NEGATIVE` from the negatives.
const TIE_VALUES: (i32, i32) = (-100, MAX_VALUE);
const TIE_NEGATIVE: usize = 6;

/// The leads `Plateau` holds at even and odd piles: the markers people use that a lead can
/// take, and the two of them alternating.
const PLATEAU_TARGETS: [[i64; 2]; 4] = [[-1, -1], [0, 0], [1, 1], [1, -1]];

/// One pile in this many is random in a plateau.
const PLATEAU_BREAK: usize = 32;

/// The shortest comeback case whose split is searched for.
const SEARCHED: usize = 64;

/// The shapes `Mixed` draws its segments from: the first nine of `Shape::ALL`, fixed (so that
/// stored mixed cases never change).
const MIXED_PARTS: &[Shape] = Shape::ALL.split_at(9).0;

impl Shape {
    /// Every shape; a new one goes last, as `Mixed` and `stress` draw from the start.
    pub const ALL: [Shape; 14] = [
        Shape::Uniform,
        Shape::Narrow,
        Shape::Negative,
        Shape::Positive,
        Shape::Alternating,
        Shape::Extremes,
        Shape::Zeros,
        Shape::Sparse,
        Shape::Periodic,
        Shape::Mixed,
        Shape::Comeback,
        Shape::Plateau,
        Shape::Tie,
        Shape::ZeroRuns,
    ];

    /// The shapes `stress` draws from when none is named: the twelve it had before `Tie` and
    /// `ZeroRuns`, so that a seed still makes the cases it made.
    pub const DRAWN: &[Shape] = Shape::ALL.split_at(12).0;

    pub fn name(self) -> &'static str {
        match self {
            Shape::Uniform => "uniform",
            Shape::Narrow => "narrow",
            Shape::Negative => "negative",
            Shape::Positive => "positive",
            Shape::Alternating => "alternating",
            Shape::Extremes => "extremes",
            Shape::Zeros => "zeros",
            Shape::Sparse => "sparse",
            Shape::Periodic => "periodic",
            Shape::Mixed => "mixed",
            Shape::Comeback => "comeback",
            Shape::Plateau => "plateau",
            Shape::Tie => "tie",
            Shape::ZeroRuns => "zero-runs",
        }
    }

    pub fn parse(name: &str) -> Option<Shape> {
        Shape::ALL.into_iter().find(|s| s.name() == name)
    }

    pub fn names() -> String {
        Shape::ALL.map(Shape::name).join(", ")
    }
}

/// One case of `len` values; the same arguments give the same case everywhere.
pub fn generate(shape: Shape, len: usize, seed: u64) -> Vec<i32> {
    let mut values = Vec::with_capacity(len);
    generate_into(shape, len, seed, &mut values);
    values
}

/// `generate` into a reused buffer, for the stress loop.
pub fn generate_into(shape: Shape, len: usize, seed: u64, values: &mut Vec<i32>) {
    values.clear();
    fill(shape, len, &mut Rng::new(seed), values);
}

fn fill(shape: Shape, len: usize, rng: &mut Rng, out: &mut Vec<i32>) {
    let start = out.len();
    match shape {
        Shape::Uniform => out.extend((0..len).map(|_| rng.range(MIN_VALUE, MAX_VALUE))),
        Shape::Narrow => out.extend((0..len).map(|_| rng.range(-2, 2))),
        Shape::Negative => out.extend((0..len).map(|_| rng.range(MIN_VALUE, -1))),
        Shape::Positive => out.extend((0..len).map(|_| rng.range(1, MAX_VALUE))),
        Shape::Alternating => {
            let first_negative = rng.below(2) == 0;
            out.extend((0..len).map(|i| {
                let magnitude = rng.range(1, MAX_VALUE);
                if (i % 2 == 0) == first_negative {
                    -magnitude
                } else {
                    magnitude
                }
            }));
        }
        Shape::Extremes => out.extend((0..len).map(|_| if rng.below(2) == 0 { MIN_VALUE } else { MAX_VALUE })),
        Shape::Zeros => out.extend(std::iter::repeat_n(0, len)),
        Shape::Sparse => out.extend((0..len).map(|_| if rng.below(8) == 0 { rng.range(-3, 3) } else { 0 })),
        Shape::Periodic => {
            // With moves of 1 to 3 piles the game has period 4: on these patterns one player
            // can take every big pile and hand every costly one over, so the lead grows by
            // about 500 a pile (about 25,000,000 at n = 50,000).
            const BASES: [[i32; 4]; 3] = [[1, 1, -1, -1], [1, -1, 0, 0], [1, -1, -1, 1]];
            let base = BASES[rng.below(BASES.len())];
            let turn = rng.below(4);
            let pattern: Vec<i32> = (0..4).map(|i| base[(i + turn) % 4] * rng.range(900, MAX_VALUE)).collect();
            out.extend(pattern.iter().cycle().take(len));
        }
        Shape::Mixed => {
            while out.len() - start < len {
                let left = len - (out.len() - start);
                let piece = 1 + rng.below(left.min(64));
                let kind = MIXED_PARTS[rng.below(MIXED_PARTS.len())];
                fill(kind, piece, rng, out);
            }
        }
        Shape::Comeback => {
            let (mut front, mut back) = (Vec::new(), Vec::new());
            fill(Shape::Periodic, len, rng, &mut front);
            fill(Shape::Periodic, len, rng, &mut back);
            let joined = |k: usize| [&front[..k], &back[k..]].concat();
            let sign = |k: usize| oracle::lead(&joined(k)).signum();
            let (mut low, mut high) = (0, len);
            // A short game cannot swing far: the search is for long ones, and costs a few
            // games' worth of oracle (stress draws millions of short ones).
            if len < SEARCHED {
                (low, high) = (len / 2, len / 2);
            } else if sign(low) != sign(high) {
                // The smallest split that ends with the sign of the all-front game, and the next.
                while high - low > 1 {
                    let middle = (low + high) / 2;
                    if sign(middle) == sign(low) {
                        low = middle;
                    } else {
                        high = middle;
                    }
                }
            }
            let split = if rng.below(2) == 0 { low } else { high };
            out.extend(joined(split));
        }
        Shape::Plateau => {
            let targets = PLATEAU_TARGETS[rng.below(PLATEAU_TARGETS.len())];
            out.resize(start + len, 0);
            let row = &mut out[start..];
            // The leads f(i+1), f(i+2), f(i+3) of the piles already placed (f(len) = 0).
            let mut later = [0i64; 3];
            for i in (0..len).rev() {
                // The best the mover at i gets beyond s[i]: max over k of s[i+1..i+k] - f(i+k).
                let moves = 3.min(len - i);
                let (mut beyond, mut taken) = (i64::MIN, 0i64);
                for k in 1..=moves {
                    beyond = beyond.max(taken - later[k - 1]);
                    if k < moves {
                        taken += i64::from(row[i + k]);
                    }
                }
                let value = if rng.below(PLATEAU_BREAK) == 0 {
                    rng.range(MIN_VALUE, MAX_VALUE)
                } else {
                    (targets[i % 2] - beyond).clamp(MIN_VALUE.into(), MAX_VALUE.into()) as i32
                };
                row[i] = value;
                later = [i64::from(value) + beyond, later[0], later[1]];
            }
        }
        Shape::Tie => {
            let draw = |rng: &mut Rng| match rng.below(TIE_NEGATIVE) {
                0 => rng.range(TIE_VALUES.0, -1),
                _ => rng.range(1, TIE_VALUES.1),
            };
            out.extend((0..len).map(|_| draw(rng)));
            level(&mut out[start..], rng, draw);
        }
        Shape::ZeroRuns => {
            let draw = |rng: &mut Rng| {
                let value = rng.range(1, 3);
                if rng.below(2) == 0 {
                    -value
                } else {
                    value
                }
            };
            while out.len() - start < len {
                let zeros = rng.range(4, 40) as usize;
                out.extend(std::iter::repeat_n(0, zeros));
                for _ in 0..rng.range(1, 3) {
                    out.push(draw(rng));
                }
            }
            out.truncate(start + len);
            level(&mut out[start..], rng, draw);
        }
    }
}

/// Sets the first pile of `row` so that the game ends level: the first mover's lead is then
/// exactly 0. Where no pile in range does that, the next few piles are drawn again by `draw`
/// until one does.
fn level(row: &mut [i32], rng: &mut Rng, draw: impl Fn(&mut Rng) -> i32) {
    // The leads of the piles after the first few, which the redraws leave alone.
    let fixed = row.len().min(4);
    let tail = oracle::explain(&row[fixed..]).leads;
    loop {
        // f(i) for i < fixed, from the back, over the piles drawn so far.
        let mut leads = vec![0i64; fixed + 4];
        for (k, lead) in tail.iter().take(4).enumerate() {
            leads[fixed + k] = *lead;
        }
        for i in (1..fixed).rev() {
            leads[i] = best_move(row, i, &leads);
        }
        // f(0) = row[0] + the best of what the first mover's moves add to it.
        let rest = best_move(row, 0, &leads) - i64::from(row[0]);
        if (i64::from(MIN_VALUE)..=i64::from(MAX_VALUE)).contains(&-rest) {
            row[0] = -rest as i32;
            return;
        }
        for value in row[1..fixed].iter_mut() {
            *value = draw(rng);
        }
    }
}

/// The lead of the player to move at pile `i` of `row`, given the leads after it (`leads[j]`
/// for j in i+1..=i+3, 0 past the end).
fn best_move(row: &[i32], i: usize, leads: &[i64]) -> i64 {
    let mut taken = 0i64;
    let mut best = i64::MIN;
    for k in 1..=3.min(row.len() - i) {
        taken += i64::from(row[i + k - 1]);
        best = best.max(taken - leads[i + k]);
    }
    best
}

/// Every array of length 1..=`max_len` over `low..=high`, in one order: shorter arrays first,
/// then by value, the first element slowest. `verify` sweeps such a range; the stored group
/// (`judge gen --max-len 5 --values -2..=2`) holds one, one array a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Every {
    pub max_len: usize,
    pub low: i32,
    pub high: i32,
}

impl Every {
    /// How many values each place can take.
    pub fn base(&self) -> u64 {
        (i64::from(self.high) - i64::from(self.low) + 1).max(0) as u64
    }

    /// How many arrays there are of each length 1..=max_len, or None past u64.
    pub fn lengths(&self) -> Option<Vec<u64>> {
        let mut counts = Vec::with_capacity(self.max_len);
        let mut count = 1u64;
        for _ in 0..self.max_len {
            count = count.checked_mul(self.base())?;
            counts.push(count);
        }
        counts.iter().try_fold(0u64, |sum, c| sum.checked_add(*c))?;
        Some(counts)
    }

    /// How many arrays the range holds, or None past u64.
    pub fn count(&self) -> Option<u64> {
        Some(self.lengths()?.iter().sum())
    }

    /// Array `index` of the order into `values`; `counts` are `lengths()`.
    pub fn nth(&self, mut index: u64, counts: &[u64], values: &mut Vec<i32>) {
        let mut len = 1;
        for count in counts {
            if index < *count {
                break;
            }
            index -= count;
            len += 1;
        }
        let base = self.base();
        values.clear();
        values.resize(len, 0);
        for slot in values.iter_mut().rev() {
            *slot = self.low + (index % base) as i32;
            index /= base;
        }
    }

    /// Every array of the range, in order; None past what can be counted.
    pub fn all(&self) -> Option<Vec<Vec<i32>>> {
        let counts = self.lengths()?;
        let total = usize::try_from(counts.iter().sum::<u64>()).ok()?;
        let mut arrays = vec![Vec::new(); total];
        for (index, values) in arrays.iter_mut().enumerate() {
            self.nth(index as u64, &counts, values);
        }
        Some(arrays)
    }

    /// The range that `arrays`, in their order, are every array of; None when they are not
    /// exactly that (one missing, out of order, or another array among them). One pass, an
    /// odometer beside them: a stored group is checked on every run.
    pub fn of<'a>(arrays: impl Iterator<Item = &'a [i32]> + Clone) -> Option<Every> {
        let (mut max_len, mut low, mut high) = (0, i32::MAX, i32::MIN);
        for array in arrays.clone() {
            max_len = max_len.max(array.len());
            for &value in array {
                (low, high) = (low.min(value), high.max(value));
            }
        }
        if max_len == 0 {
            return None;
        }
        let mut wanted = vec![low];
        for array in arrays {
            if array != wanted.as_slice() {
                return None;
            }
            // The next array of the order: the last place that can go up does, and every place
            // after it starts again at `low`; past the last array of a length, the next length.
            match wanted.iter().rposition(|&v| v < high) {
                Some(at) => {
                    wanted[at] += 1;
                    wanted[at + 1..].fill(low);
                }
                None => {
                    wanted.fill(low);
                    wanted.push(low);
                }
            }
        }
        (wanted.len() == max_len + 1 && wanted.iter().all(|&v| v == low)).then_some(Every { max_len, low, high })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::oracle;

    #[test]
    fn the_prng_is_splitmix64() {
        // First outputs of splitmix64 seeded with 0, as published with the algorithm.
        let mut rng = Rng::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn every_shape_has_the_asked_length_and_stays_in_range() {
        for shape in Shape::ALL {
            for len in [1, 2, 3, 7, 100, 1000] {
                let values = generate(shape, len, 5);
                assert_eq!(values.len(), len, "{}", shape.name());
                assert!(values.iter().all(|v| (MIN_VALUE..=MAX_VALUE).contains(v)));
            }
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_case_and_another_seed_another() {
        for shape in Shape::ALL {
            assert_eq!(generate(shape, 500, 9), generate(shape, 500, 9));
        }
        assert_ne!(generate(Shape::Uniform, 500, 9), generate(Shape::Uniform, 500, 10));
    }

    /// How many times a top-down memo that marks "not computed" with `marker` computes a state
    /// on this row: a state whose value is the marker at every call, any other at the first.
    /// With `per_player`, a state is a pile and whose turn it is, valued as Alice's lead;
    /// without, a pile, valued as the lead of the player to move.
    fn memo_computations(values: &[i32], marker: i64, per_player: bool) -> f64 {
        let leads = oracle::explain(values).leads;
        let n = values.len();
        // calls[2 * i + b]: calls of pile i with Bob to move when b = 1 (only with per_player).
        let mut calls = vec![0f64; 2 * n + 6];
        calls[0] = 1.0;
        let mut total = 0.0;
        for i in 0..n {
            for bob in [0, 1] {
                let value = if bob == 1 { -leads[i] } else { leads[i] };
                let call = calls[2 * i + bob];
                let computed = if value == marker { call } else { call.min(1.0) };
                total += computed;
                let next = if per_player { 1 - bob } else { 0 };
                for k in 1..=3 {
                    calls[2 * (i + k) + next] += computed;
                }
            }
        }
        total
    }

    #[test]
    fn plateaus_hold_the_leads_on_each_target_for_long_stretches() {
        let mut seen = Vec::new();
        for seed in 0..16 {
            let values = generate(Shape::Plateau, 50_000, seed);
            let leads = &oracle::explain(&values).leads[..50_000];
            let hits = |t: [i64; 2]| (0..50_000).filter(|&i| leads[i] == t[i % 2]).count();
            let targets = PLATEAU_TARGETS.into_iter().max_by_key(|&t| hits(t)).unwrap();
            let off: Vec<bool> = (0..50_000).map(|i| leads[i] != targets[i % 2]).collect();
            let longest = off.split(|&o| o).map(<[bool]>::len).max().unwrap();
            assert!(hits(targets) >= 45_000 && longest >= 100, "seed {seed}: {targets:?} {} {longest}", hits(targets));
            // So a memo marking with the target computes the row's piles far too often.
            if targets[0] == targets[1] {
                assert!(memo_computations(&values, targets[0], false) > 1e12, "seed {seed}");
            } else {
                assert!(memo_computations(&values, -1, true) > 1e12, "seed {seed}");
            }
            assert!(memo_computations(&values, i64::from(i32::MIN), false) <= 50_000.0, "seed {seed}");
            seen.push(targets);
        }
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), PLATEAU_TARGETS.len(), "some target is never drawn");
    }

    #[test]
    fn every_array_of_a_range_comes_once_in_order_and_is_recognised() {
        let every = Every { max_len: 3, low: -1, high: 1 };
        let all = every.all().unwrap();
        assert_eq!(all.len(), 3 + 9 + 27);
        assert_eq!(
            (&all[0][..], &all[3][..], &all[4][..], &all[38][..]),
            (&[-1][..], &[-1, -1][..], &[-1, 0][..], &[1, 1, 1][..])
        );
        let mut unique = all.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), all.len());
        assert_eq!(Every::of(all.iter().map(Vec::as_slice)), Some(every));
        assert_eq!(Every::of(all[..38].iter().map(Vec::as_slice)), None, "one missing");
        let mut swapped = all.clone();
        swapped.swap(5, 6);
        assert_eq!(Every::of(swapped.iter().map(Vec::as_slice)), None, "out of order");
        assert_eq!(Every::of([&[2][..]].into_iter()), Some(Every { max_len: 1, low: 2, high: 2 }));
        assert!(Every { max_len: 10, low: -1000, high: 1000 }.lengths().is_none());
        assert!(Every { max_len: 8, low: -3, high: 3 }.lengths().is_some());
    }

    #[test]
    fn tie_rows_end_level_with_totals_past_an_f32s_exact_integers() {
        for (len, seed) in [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (17, 6), (1000, 7), (50_000, 8)] {
            let values = generate(Shape::Tie, len, seed);
            assert_eq!(oracle::lead(&values), 0, "len {len} seed {seed}: {:?}", &values[..len.min(8)]);
        }
        let (alice, bob) = oracle::totals(&generate(Shape::Tie, 50_000, 1));
        assert!(alice == bob && alice + bob > 1 << 24, "{alice} {bob}");
    }

    #[test]
    fn zero_runs_hold_runs_of_four_zeros_or_more_before_other_piles() {
        let values = generate(Shape::ZeroRuns, 10_000, 3);
        assert_eq!(oracle::lead(&values), 0);
        // The first run may have lost its first zero to the pile that levels the game, and the
        // last may be cut short by the length.
        let runs: Vec<usize> = values[1..].split(|&v| v != 0).map(<[i32]>::len).filter(|&l| l > 0).collect();
        assert!(runs[1..runs.len() - 1].iter().all(|&l| (4..=40).contains(&l)), "{runs:?}");
        assert!(runs.len() > 300 && values[1..].iter().all(|v| (-3..=3).contains(v)));
    }

    #[test]
    fn periodic_cases_build_leads_in_the_millions() {
        for seed in 0..4 {
            let (a, b) = oracle::totals(&generate(Shape::Periodic, 50_000, seed));
            assert!((a - b).abs() >= 1_000_000, "seed {seed}: lead {}", a - b);
        }
    }
}
