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
}

/// The shortest comeback case whose split is searched for.
const SEARCHED: usize = 64;

/// The shapes `Mixed` draws its segments from (fixed, so stored mixed cases never change).
const MIXED_PARTS: [Shape; 9] = [
    Shape::Uniform,
    Shape::Narrow,
    Shape::Negative,
    Shape::Positive,
    Shape::Alternating,
    Shape::Extremes,
    Shape::Zeros,
    Shape::Sparse,
    Shape::Periodic,
];

impl Shape {
    pub const ALL: [Shape; 11] = [
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
    ];

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

    #[test]
    fn periodic_cases_build_leads_in_the_millions() {
        for seed in 0..4 {
            let (a, b) = oracle::totals(&generate(Shape::Periodic, 50_000, seed));
            assert!((a - b).abs() >= 1_000_000, "seed {seed}: lead {}", a - b);
        }
    }
}
