//! How a solution's time grows with n, measured: it is timed at doubling sizes up to the
//! constraint, on prefixes of one input, and the probe stops before a call would pass half the
//! time limit. The times are fitted as n^k (the slope of log time against log n) or, when
//! each doubling costs far more than the last, as c^n, and projected to n = 50,000.

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

/// Times `runner`'s program on prefixes of `input` of 1, 2, 4, … piles and on the whole of it.
pub fn probe(runner: &mut Runner, input: &[i32]) -> Result<Growth, String> {
    let limit = runner.limits().time;
    let mut sizes: Vec<usize> =
        std::iter::successors(Some(1usize), |n| Some(n * 2)).take_while(|n| *n < input.len()).collect();
    sizes.push(input.len());
    let mut points: Vec<Point> = Vec::new();
    let mut stopped_early = false;
    for n in sizes {
        if let [.., before, last] = points.as_slice() {
            // The next doubling costs at least as many times the last as the last did the one
            // before: stop short of a call that would pass half the limit.
            let ratio = last.time.as_secs_f64() / before.time.as_secs_f64().max(1e-9);
            let next = last.time.as_secs_f64() * ratio.max(1.0);
            if next > limit.as_secs_f64() / 2.0 {
                stopped_early = true;
                break;
            }
        }
        let mut fastest: Option<Duration> = None;
        for _ in 0..REPS {
            let call = runner.call(&input[..n]).map_err(|e| e.to_string())?;
            let Ok(answered) = call.result else {
                stopped_early = true;
                break;
            };
            let time = Duration::from_nanos(answered.nanos);
            fastest = Some(fastest.map_or(time, |f| f.min(time)));
            if time > FLOOR * 200 {
                break;
            }
        }
        match fastest {
            Some(time) => points.push(Point { n, time }),
            None => break,
        }
        if stopped_early {
            break;
        }
    }
    let order = fit(&points);
    let at_max_log10_s = project(&points, order, MAX_LEN);
    Ok(Growth { points, order, at_max_log10_s, stopped_early })
}

/// The order of the measured times: a least-squares slope over the points above the floor,
/// unless the last doubling is steeper than any power a solution here could have.
pub fn fit(points: &[Point]) -> Order {
    let usable: Vec<(f64, f64)> = points
        .iter()
        .filter(|p| p.time >= FLOOR && p.n > 1)
        .map(|p| ((p.n as f64).ln(), p.time.as_secs_f64().ln()))
        .collect();
    let [.., (n1, t1), (n2, t2)] = usable.as_slice() else { return Order::Unknown };
    let last = (t2 - t1) / (n2 - n1);
    if last > EXPONENTIAL {
        let piles = n2.exp() - n1.exp();
        return Order::Exponential { per_pile: ((t2 - t1) / piles).exp() };
    }
    let count = usable.len() as f64;
    let (mean_x, mean_y) =
        (usable.iter().map(|p| p.0).sum::<f64>() / count, usable.iter().map(|p| p.1).sum::<f64>() / count);
    let spread: f64 = usable.iter().map(|(x, _)| (x - mean_x).powi(2)).sum();
    let together: f64 = usable.iter().map(|(x, y)| (x - mean_x) * (y - mean_y)).sum();
    Order::Power { exponent: together / spread.max(1e-12) }
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
        let measured = points(|n| 1e-9 * 1.839f64.powf(n), &[1, 2, 4, 8, 16, 32]);
        let Order::Exponential { per_pile } = fit(&measured) else { panic!("{:?}", fit(&measured)) };
        assert!((per_pile - 1.839).abs() < 0.01, "{per_pile}");
        let projected = project(&measured, fit(&measured), 50_000).unwrap();
        assert!(projected > 10_000.0, "10^{projected} s");
    }

    #[test]
    fn times_all_under_the_floor_tell_nothing() {
        let measured = points(|_| 1e-7, &[1, 2, 4]);
        assert_eq!(fit(&measured), Order::Unknown);
        assert_eq!(project(&measured, Order::Unknown, 50_000), None);
    }
}
