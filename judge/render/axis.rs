//! A log scale, as the bench chart and the page's comparison draw their axes.

/// A log scale drawn from pixel `from` at 10^lo to `to` at 10^hi, just beyond the values `min` to `max`.
#[derive(Clone, Copy, Debug)]
pub struct LogAxis {
    /// The smallest and largest value drawn.
    pub min: f64,
    pub max: f64,
    pub lo: f64,
    pub hi: f64,
    pub from: f64,
    pub to: f64,
}

impl LogAxis {
    /// From just below the smallest positive value to just above the largest, `or` when none:
    /// a twentieth of the span beyond each end and at least `least` decades, or `alone`
    /// decades either side of a single value.
    pub fn covering(
        values: impl Iterator<Item = f64>,
        or: (f64, f64),
        (least, alone): (f64, f64),
        (from, to): (f64, f64),
    ) -> LogAxis {
        let ends = values.filter(|v| *v > 0.0).fold((f64::INFINITY, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
        let (min, max) = if ends.1 > 0.0 { ends } else { or };
        let span = (max / min).log10();
        let pad = if span > 0.0 { (span * 0.05).max(least) } else { alone };
        LogAxis { min, max, lo: min.log10() - pad, hi: max.log10() + pad, from, to }
    }

    /// The pixel where `v` falls.
    pub fn at(self, v: f64) -> f64 {
        self.from + (v.max(1e-9).log10() - self.lo) / (self.hi - self.lo) * (self.to - self.from)
    }

    /// Each of `mantissas` times each power of `base`, those inside the axis, ascending.
    pub fn powers(self, base: f64, mantissas: &[f64]) -> Vec<f64> {
        let (lo, hi) = ((self.lo / base.log10()).floor() as i32, (self.hi / base.log10()).ceil() as i32);
        (lo..=hi)
            .flat_map(|k| mantissas.iter().map(move |m| m * base.powi(k)))
            .filter(|v| (self.lo..=self.hi).contains(&v.log10()))
            .collect()
    }
}
