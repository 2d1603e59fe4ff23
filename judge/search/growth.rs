//! How a solution's time grows with n, measured: it is timed on prefixes of one input, at
//! doubling sizes up to the constraint, by smaller steps where a doubling is predicted to pass
//! half the time limit, and it stops where even one more pile would. The times are fitted as
//! n^k (the slope of log time against log n) or, when the last step is steeper than any power
//! a solution here could have, as c^n (the slope of log time against n), and projected to
//! n = 50,000.

use std::time::Duration;

use crate::exec::child::Runner;
use crate::problem::MAX_LEN;

/// Times under this are mostly the call's own overhead, too small to fit.
const FLOOR: Duration = Duration::from_micros(5);
/// Steeper than n^4 between two doublings: exponential.
const EXPONENTIAL: f64 = 4.0;
/// Calls per size when one call is short, to take the fastest.
const REPS: usize = 3;

/// One size and the solution's fastest time there, by its own clock.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub n: usize,
    pub time: Duration,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Order {
    /// Time grows as n^exponent.
    Power { exponent: f64 },
    /// Time grows `per_pile` times with each extra pile.
    Exponential { per_pile: f64 },
    /// Too fast at every size to tell.
    Unknown,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Growth {
    pub points: Vec<Point>,
    pub order: Order,
    /// The projected time at n = 50,000, as log10 of seconds (it can be astronomically large).
    pub at_max_log10_s: Option<f64>,
    /// The prefix sizes stopped before reaching the longest input.
    pub stopped_early: bool,
}

/// Times `runner`'s program on prefixes of `input`: doubling the length while the next call
/// is predicted to stay under half the time limit, then by smaller steps, so that even an
/// exponential solution is timed at several sizes before the limit.
pub fn probe(runner: &mut Runner, input: &[i32]) -> Result<Growth, String> {
    let limit = runner.limits().time;
    let mut points: Vec<Point> = Vec::new();
    let mut stopped_early = false;
    let mut n = 1.min(input.len());
    loop {
        let Some(time) = fastest(runner, &input[..n])? else {
            stopped_early = true;
            break;
        };
        points.push(Point { n, time });
        if n == input.len() {
            break;
        }
        // The next size: double, or less while that is predicted to pass half the limit.
        let mut next = (2 * n).min(input.len());
        while next > n + 1 && predict(&points, next) > limit / 2 {
            next = n + (next - n) / 2;
        }
        if predict(&points, next) > limit / 2 {
            stopped_early = true;
            break;
        }
        n = next;
    }
    let order = fit(&points);
    let at_max_log10_s = project(&points, order, MAX_LEN);
    Ok(Growth { points, order, at_max_log10_s, stopped_early })
}

/// The fastest of a few calls on `values` (one, when it is slow), by the child's own clock;
/// None when the call did not answer (it ran into the limit, say).
fn fastest(runner: &mut Runner, values: &[i32]) -> Result<Option<Duration>, String> {
    let mut fastest: Option<Duration> = None;
    for _ in 0..REPS {
        let call = runner.call(values).map_err(|e| e.to_string())?;
        let Ok(answered) = call.result else { return Ok(None) };
        let time = Duration::from_nanos(answered.nanos);
        fastest = Some(fastest.map_or(time, |f| f.min(time)));
        if time > FLOOR * 200 {
            break;
        }
    }
    Ok(fastest)
}

/// A call's time at `n`, from the last two points, by whichever of a power of n and a power
/// of a per-pile factor grows faster: too high rather than too low.
fn predict(points: &[Point], n: usize) -> Duration {
    let [.., first, last] = points else { return Duration::ZERO };
    let (t1, t2) = (first.time.as_secs_f64().max(1e-9), last.time.as_secs_f64().max(1e-9));
    if last.time < FLOOR / 2 {
        return Duration::ZERO;
    }
    let ratio = (t2 / t1).max(1.0);
    // A time under the floor is mostly the call's own overhead: a ratio to it understates the
    // growth, so a doubling each pile is assumed (steeper than any solution here).
    let per_pile = match first.time < FLOOR {
        true => std::f64::consts::LN_2,
        false => ratio.ln() / (last.n - first.n).max(1) as f64,
    };
    let power = ratio.ln() / (last.n as f64 / first.n as f64).ln().max(1e-9);
    let by_pile = t2 * (per_pile * (n - last.n) as f64).exp();
    let by_power = t2 * (n as f64 / last.n as f64).powf(power);
    Duration::from_secs_f64(by_pile.max(by_power).min(1e9))
}

/// The order of the measured times: a least-squares slope over the points above the floor,
/// unless the last doubling (or the last step, when it was longer) is steeper than any power
/// a solution here could have.
pub fn fit(points: &[Point]) -> Order {
    let usable: Vec<(f64, f64)> = points
        .iter()
        .filter(|p| p.time >= FLOOR && p.n > 1)
        .map(|p| ((p.n as f64).ln(), p.time.as_secs_f64().ln()))
        .collect();
    let [.., previous, (n2, t2)] = usable.as_slice() else { return Order::Unknown };
    // Over the last doubling, not the last step alone: near the limit the steps are one pile,
    // and one noisy time would decide.
    let half = n2 - std::f64::consts::LN_2;
    let (n1, t1) = usable.iter().find(|(n, _)| *n >= half && n < n2).unwrap_or(previous);
    if (t2 - t1) / (n2 - n1) > EXPONENTIAL {
        // ln t against n, not against ln n: the slope is ln of the factor per pile.
        let by_pile: Vec<(f64, f64)> = usable.iter().map(|&(x, y)| (x.exp(), y)).collect();
        return Order::Exponential { per_pile: slope(&by_pile).exp() };
    }
    Order::Power { exponent: slope(&usable) }
}

/// The least-squares slope of y against x.
fn slope(points: &[(f64, f64)]) -> f64 {
    let count = points.len() as f64;
    let (mean_x, mean_y) =
        (points.iter().map(|p| p.0).sum::<f64>() / count, points.iter().map(|p| p.1).sum::<f64>() / count);
    let spread: f64 = points.iter().map(|(x, _)| (x - mean_x).powi(2)).sum();
    let together: f64 = points.iter().map(|(x, y)| (x - mean_x) * (y - mean_y)).sum();
    together / spread.max(1e-12)
}

/// log10 of the seconds a call would take at `n`, from the largest point measured.
pub fn project(points: &[Point], order: Order, n: usize) -> Option<f64> {
    let last = points.last()?;
    let seconds = last.time.as_secs_f64().max(1e-9).log10();
    match order {
        Order::Power { exponent } => Some(seconds + exponent * (n as f64 / last.n as f64).log10()),
        Order::Exponential { per_pile } => Some(seconds + (n.saturating_sub(last.n)) as f64 * per_pile.log10()),
        Order::Unknown => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn points(time: impl Fn(f64) -> f64, sizes: &[usize]) -> Vec<Point> {
        sizes.iter().map(|&n| Point { n, time: Duration::from_secs_f64(time(n as f64)) }).collect()
    }

    #[test]
    fn powers_are_fitted_by_their_exponent() {
        let sizes: Vec<usize> = (0..16).map(|k| 1 << k).chain([50_000]).collect();
        for exponent in [1.0, 2.0, 3.0] {
            let measured = points(|n| 1e-8 * n.powf(exponent), &sizes);
            match fit(&measured) {
                Order::Power { exponent: k } => assert!((k - exponent).abs() < 0.05, "{k} for n^{exponent}"),
                other => panic!("{other:?} for n^{exponent}"),
            }
        }
    }

    #[test]
    fn a_recursion_without_memo_is_named_exponential_with_its_factor() {
        // Tribonacci's growth, as a plain recursion over three moves has.
        let measured = points(|n| 1e-9 * 1.839f64.powf(n), &[1, 2, 4, 8, 16, 24, 27, 28]);
        let Order::Exponential { per_pile } = fit(&measured) else { panic!("{:?}", fit(&measured)) };
        assert!((per_pile - 1.839).abs() < 0.01, "{per_pile}");
        let projected = project(&measured, fit(&measured), 50_000).unwrap();
        assert!(projected > 10_000.0, "10^{projected} s");
    }

    #[test]
    fn a_time_under_the_floor_does_not_make_the_next_call_look_short() {
        // Measured: 0.33µs at 8 piles (mostly overhead) and 34µs at 16. From their ratio, 32
        // piles looked like 0.36 s; the recursion took 0.58 s there, past a loaded machine's 1 s.
        let points =
            [Point { n: 8, time: Duration::from_nanos(330) }, Point { n: 16, time: Duration::from_micros(34) }];
        assert!(predict(&points, 32) > Duration::from_secs(1), "{:?}", predict(&points, 32));
    }

    #[test]
    fn one_slow_time_near_the_limit_does_not_hide_an_exponential() {
        // Measured on a loaded machine: the time at 27 piles came out high, so the last step
        // alone looked like n^3.9.
        let micros = [(16, 34.9), (24, 6_762.0), (27, 46_482.0), (28, 53_261.0)];
        let points: Vec<Point> =
            micros.iter().map(|&(n, us)| Point { n, time: Duration::from_secs_f64(us / 1e6) }).collect();
        assert!(matches!(fit(&points), Order::Exponential { .. }), "{:?}", fit(&points));
    }

    #[test]
    fn the_next_call_is_predicted_before_it_is_made() {
        let close = |predicted: Duration, actual: f64| {
            let ratio = predicted.as_secs_f64() / actual;
            assert!((0.9..1.5).contains(&ratio), "predicted {predicted:?}, actually {actual} s");
        };
        let exponential = |n: f64| 1e-9 * 1.839f64.powf(n);
        close(predict(&points(exponential, &[16, 20]), 32), exponential(32.0));
        let linear = |n: f64| 1e-9 * n;
        // Too high rather than too low: the per-pile model runs ahead of a line a little.
        close(predict(&points(linear, &[16_384, 32_768]), 50_000), linear(50_000.0));
    }

    #[test]
    fn times_all_under_the_floor_tell_nothing() {
        let measured = points(|_| 1e-7, &[1, 2, 4]);
        assert_eq!(fit(&measured), Order::Unknown);
        assert_eq!(project(&measured, Order::Unknown, 50_000), None);
    }
}
