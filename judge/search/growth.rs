//! How a solution's time grows with n, measured: it is timed on prefixes of one input, at
//! doubling sizes up to the constraint, by smaller steps where a doubling is predicted to pass
//! half the time limit, and it stops where even one more pile would. Each time is the judge's
//! (the kernel's account, see `exec::child`), the fastest of a few calls while calls are
//! short, so that a page faulted in for the first time or a busy moment does not count. The
//! times are fitted as n^k (the slope of log time against log n, with its spread) or, when the
//! last doubling is steeper than any power a solution here could have, as c^n (the slope of
//! log time against n), and projected to n = 50,000. A class (linear, quadratic...) is named
//! only where the spread of the fit leaves one; otherwise the estimate says it cannot tell.

use std::time::Duration;

use crate::exec::child::Runner;
use crate::problem::MAX_LEN;

/// A time under this is within the accounts' noise of an empty call: nothing to compare.
const NOISE: Duration = Duration::from_micros(2);
/// Times under this are too close to the noise to fit; and under ten times what the smallest
/// inputs took, which is what a call costs that child beyond an empty one (on a busy machine,
/// microseconds that do not grow with n).
const FLOOR: Duration = Duration::from_micros(10);
const OVER_SMALLEST: u32 = 10;
/// The inputs that tell what a call costs beyond its work.
const SMALLEST: usize = 4;
/// Steeper than n^4 between two doublings: exponential.
const EXPONENTIAL: f64 = 4.0;
/// An exponential grows at least this much with each pile: less is a power misread.
const LEAST_PER_PILE: f64 = 1.05;
/// Calls per size while one call is short, to take the fastest.
const REPS: usize = 5;
/// The most sizes one probe times: steps of a pile near the limit are many, and each costs a
/// call.
const MOST_SIZES: usize = 80;
/// Sizes tried again, smaller, after one ran into the limit (see `probe`).
const RETRIES: usize = 2;
/// A call longer than this is made once: its own noise is small beside it.
const LONG: Duration = Duration::from_millis(20);
/// A time this many times what the fit through all of them predicts is timed again: a busy
/// moment (another program's cache, a migration) is counted in the box's CPU time too.
const DISAGREES: f64 = 1.5;
/// The most sizes one probe times again.
const REMEASURES: usize = 6;

/// The shape and seed of the input a solution's growth is timed on, at LeetCode's largest n.
pub const INPUT: (crate::problem::generator::Shape, u64) = (crate::problem::generator::Shape::Uniform, 1406);

/// The input a solution's growth is timed on, when no failing case gives one: uniform values
/// at LeetCode's largest n, the same on every machine.
pub fn input() -> Vec<i32> {
    crate::problem::generator::generate(INPUT.0, MAX_LEN, INPUT.1)
}

/// One size and the solution's fastest time there, as the judge counts a call's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub n: usize,
    pub time: Duration,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Order {
    /// Time grows as n^exponent, within ± `spread` (twice the fit's standard error).
    Power { exponent: f64, spread: f64 },
    /// Time grows `per_pile` times with each extra pile.
    Exponential { per_pile: f64 },
    /// Too fast at every size to tell.
    Unknown,
}

/// The classes a power can be named by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Constant,
    Linear,
    Quadratic,
    Cubic,
}

impl Class {
    /// The class whose band (constant under n^0.5, linear to n^1.5, quadratic to n^2.5, cubic
    /// to n^3.5) holds the whole of `exponent ± spread`; None where the spread crosses a
    /// border or passes cubic.
    pub fn of(exponent: f64, spread: f64) -> Option<Class> {
        let band = |e: f64| match e {
            e if e < 0.5 => Some(Class::Constant),
            e if e < 1.5 => Some(Class::Linear),
            e if e < 2.5 => Some(Class::Quadratic),
            e if e < 3.5 => Some(Class::Cubic),
            _ => None,
        };
        let (low, high) = (band(exponent - spread), band(exponent + spread));
        (low == high).then_some(low).flatten()
    }
}

impl Order {
    /// Whether the time grows faster than linearly, as far as the measurements can tell.
    pub fn steeper_than_linear(&self) -> bool {
        match *self {
            Order::Power { exponent, spread } => exponent - spread >= 1.5,
            Order::Exponential { .. } => true,
            Order::Unknown => false,
        }
    }
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
pub fn probe(runner: &mut Runner, input: &[i32]) -> std::io::Result<Growth> {
    let limit = runner.limits().time;
    let mut points: Vec<Point> = Vec::new();
    let mut stopped_early = false;
    let mut n = 1.min(input.len());
    // A size the prediction let through but whose call ran into the limit is tried again
    // halfway, this many times: each costs a whole limit of waiting.
    let mut retries = RETRIES;
    loop {
        if points.len() == MOST_SIZES {
            stopped_early = true;
            break;
        }
        let Some(time) = fastest(runner, &input[..n])? else {
            let last = points.last().map_or(0, |p| p.n);
            if retries > 0 && n > last + 1 && last > 0 {
                retries -= 1;
                n = last + (n - last) / 2;
                continue;
            }
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
    // Where one time disagrees with the others, it is timed again and the faster kept; where
    // the second time agrees with the first, it stands, and the fit's spread says whether a
    // class can be named.
    for _ in 0..REMEASURES {
        let Some(k) = disagreeing(&points) else { break };
        let Some(again) = fastest(runner, &input[..points[k].n])? else { break };
        if again.as_secs_f64() > points[k].time.as_secs_f64() / DISAGREES.sqrt() {
            points[k].time = points[k].time.min(again);
            break;
        }
        points[k].time = again;
    }
    let order = fit(&points);
    let at_max_log10_s = project(&points, order, MAX_LEN);
    Ok(Growth { points, order, at_max_log10_s, stopped_early })
}

/// The fastest of a few calls on `values` (one, when it is long); None when a call did not
/// answer (it ran into the limit, say).
fn fastest(runner: &mut Runner, values: &[i32]) -> std::io::Result<Option<Duration>> {
    let mut fastest: Option<Duration> = None;
    for _ in 0..REPS {
        let call = runner.call(values)?;
        let Ok(answered) = call.result else { return Ok(None) };
        let time = Duration::from_nanos(answered.nanos);
        fastest = Some(fastest.map_or(time, |f| f.min(time)));
        if time > LONG {
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
    if last.time < NOISE {
        return Duration::ZERO;
    }
    let ratio = (t2 / t1).max(1.0);
    // A time within the noise, or within what the smallest inputs took (what a call costs that
    // child beyond an empty one) when the time has begun to grow from it, tells nothing: a
    // ratio to it can understate the growth, so a doubling each pile is assumed (steeper than
    // any solution here).
    let overhead = first.time < NOISE.max(smallest(points) * OVER_SMALLEST);
    let per_pile = match first.time < NOISE || (overhead && last.time > first.time * 2) {
        true => std::f64::consts::LN_2,
        false => ratio.ln() / (last.n - first.n).max(1) as f64,
    };
    let power = ratio.ln() / (last.n as f64 / first.n as f64).ln().max(1e-9);
    let by_pile = t2 * (per_pile * (n - last.n) as f64).exp();
    let by_power = t2 * (n as f64 / last.n as f64).powf(power);
    Duration::from_secs_f64(by_pile.max(by_power).min(1e9))
}

/// The least time the smallest inputs took.
fn smallest(points: &[Point]) -> Duration {
    points.iter().filter(|p| p.n <= SMALLEST).map(|p| p.time).min().unwrap_or_default()
}

/// The order of the measured times: a least-squares slope over the points above the floor (see
/// `FLOOR`), with its spread, unless the last doubling (or the last step, when it was longer) is steeper
/// than any power a solution here could have and the growth per pile says exponential too.
/// For a power, fewer than three such points, or sizes that do not span a doubling, tell
/// nothing.
pub fn fit(points: &[Point]) -> Order {
    let floor = FLOOR.max(smallest(points) * OVER_SMALLEST);
    let usable: Vec<(f64, f64)> = points
        .iter()
        .filter(|p| p.time >= floor && p.n > 1)
        .map(|p| ((p.n as f64).ln(), p.time.as_secs_f64().ln()))
        .collect();
    let [.., previous, (n2, t2)] = usable.as_slice() else { return Order::Unknown };
    let n0 = usable[0].0;
    // Over the last doubling, not the last step alone: near the limit the steps are one pile,
    // and one noisy time would decide.
    let half = n2 - std::f64::consts::LN_2;
    let (n1, t1) = usable.iter().find(|(n, _)| *n >= half && n < n2).unwrap_or(previous);
    if (t2 - t1) / (n2 - n1) > EXPONENTIAL {
        // ln t against n, not against ln n: the slope is ln of the factor per pile.
        let by_pile: Vec<(f64, f64)> = usable.iter().map(|&(x, y)| (x.exp(), y)).collect();
        let per_pile = slope(&by_pile).0.exp();
        if per_pile >= LEAST_PER_PILE {
            return Order::Exponential { per_pile };
        }
    }
    if usable.len() < 3 || n2 - n0 < std::f64::consts::LN_2 {
        return Order::Unknown;
    }
    let (exponent, error) = slope(&usable);
    Order::Power { exponent, spread: 2.0 * error }
}

/// The point whose time is furthest above the others' line, when it is more than `DISAGREES`
/// times what the line predicts; for an exponential order, the last point, which decides it.
pub fn disagreeing(points: &[Point]) -> Option<usize> {
    let floor = FLOOR.max(smallest(points) * OVER_SMALLEST);
    let usable: Vec<usize> = (0..points.len()).filter(|&k| points[k].time >= floor && points[k].n > 1).collect();
    if let Order::Exponential { .. } = fit(points) {
        return usable.last().copied();
    }
    let logs: Vec<(f64, f64)> =
        usable.iter().map(|&k| ((points[k].n as f64).ln(), points[k].time.as_secs_f64().ln())).collect();
    if logs.len() < 3 {
        return None;
    }
    let (slope, _) = slope(&logs);
    let count = logs.len() as f64;
    let (mean_x, mean_y) =
        (logs.iter().map(|p| p.0).sum::<f64>() / count, logs.iter().map(|p| p.1).sum::<f64>() / count);
    let above = |&(x, y): &(f64, f64)| y - mean_y - slope * (x - mean_x);
    let (worst, by) = logs.iter().map(above).enumerate().max_by(|a, b| a.1.total_cmp(&b.1))?;
    (by > DISAGREES.ln()).then_some(usable[worst])
}

/// The least-squares slope of y against x, and its standard error (0 for two points).
fn slope(points: &[(f64, f64)]) -> (f64, f64) {
    let count = points.len() as f64;
    let (mean_x, mean_y) =
        (points.iter().map(|p| p.0).sum::<f64>() / count, points.iter().map(|p| p.1).sum::<f64>() / count);
    let spread: f64 = points.iter().map(|(x, _)| (x - mean_x).powi(2)).sum::<f64>().max(1e-12);
    let together: f64 = points.iter().map(|(x, y)| (x - mean_x) * (y - mean_y)).sum();
    let slope = together / spread;
    let residual: f64 = points.iter().map(|(x, y)| (y - mean_y - slope * (x - mean_x)).powi(2)).sum();
    let error = match points.len() {
        0..=2 => 0.0,
        k => (residual / (k - 2) as f64 / spread).sqrt(),
    };
    (slope, error)
}

/// log10 of the seconds a call would take at `n`, from the largest point measured.
pub fn project(points: &[Point], order: Order, n: usize) -> Option<f64> {
    let last = points.last()?;
    let seconds = last.time.as_secs_f64().max(1e-9).log10();
    match order {
        Order::Power { exponent, .. } => Some(seconds + exponent * (n as f64 / last.n as f64).log10()),
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
                Order::Power { exponent: k, spread } => {
                    assert!((k - exponent).abs() < 0.05, "{k} for n^{exponent}");
                    assert!(Class::of(k, spread).is_some(), "{k} ± {spread}");
                }
                other => panic!("{other:?} for n^{exponent}"),
            }
        }
        assert_eq!(Class::of(1.0, 0.2), Some(Class::Linear));
        assert_eq!(Class::of(2.1, 0.2), Some(Class::Quadratic));
        assert_eq!(Class::of(1.4, 0.2), None, "linear or quadratic: not named");
        assert_eq!(Class::of(5.0, 0.0), None);
    }

    fn measured(micros: &[(usize, f64)]) -> Vec<Point> {
        micros.iter().map(|&(n, us)| Point { n, time: Duration::from_secs_f64(us / 1e6) }).collect()
    }

    #[test]
    fn a_line_timed_on_a_busy_machine_is_linear_or_unnamed_never_steeper() {
        // dp_array's fastest times with four busy loops on the two cores (µs).
        let busy = measured(&[
            (64, 2.2),
            (128, 2.0),
            (512, 4.6),
            (1056, 0.6),
            (2112, 2.5),
            (4224, 5.1),
            (5300, 9.0),
            (10600, 13.8),
            (21200, 31.8),
            (42400, 61.1),
            (50000, 68.6),
        ]);
        let order = fit(&busy);
        let Order::Power { exponent, spread } = order else { panic!("{order:?}") };
        assert!(!order.steeper_than_linear(), "{order:?}");
        assert!(matches!(Class::of(exponent, spread), Some(Class::Linear) | None), "{order:?}");
        // One slow call at the end makes the last doubling look steep, yet the factor per pile
        // is 1.00: a power, too noisy to name, and no exponential.
        let spike = measured(&[(16384, 20.0), (32768, 40.0), (49990, 45.0), (50000, 900.0)]);
        let order = fit(&spike);
        let Order::Power { exponent, spread } = order else { panic!("{order:?}") };
        assert_eq!(Class::of(exponent, spread), None, "{order:?}");
    }

    #[test]
    fn a_time_far_above_the_others_line_is_the_one_timed_again() {
        let line = points(|n| 1e-7 * n, &[1024, 2048, 4096, 8192, 16384, 32768, 50000]);
        assert_eq!(disagreeing(&line), None, "they agree");
        let mut busy = line.clone();
        busy[4].time *= 3;
        assert_eq!(disagreeing(&busy), Some(4));
        // Exponential: the last point decides it, so it is the one timed again.
        let steep = points(|n| 1e-9 * 1.8f64.powf(n), &[1, 2, 4, 8, 16, 24, 28, 30, 31]);
        assert!(matches!(fit(&steep), Order::Exponential { .. }));
        assert_eq!(disagreeing(&steep), Some(steep.len() - 1));
    }

    #[test]
    fn microseconds_every_call_costs_on_a_busy_machine_do_not_read_as_a_constant() {
        // A linear strategy's fastest times in a child whose every call cost some 14 µs more
        // than an empty one (four busy loops and two compilers on two cores).
        let offset = measured(&[
            (2, 14.9),
            (4, 14.8),
            (64, 14.7),
            (1024, 18.7),
            (4096, 29.1),
            (8192, 37.8),
            (16384, 46.3),
            (32768, 91.4),
            (50000, 140.0),
        ]);
        assert_eq!(fit(&offset), Order::Unknown, "too close to the cost of any call to tell");
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
    fn a_time_within_the_noise_does_not_make_the_next_call_look_short() {
        // Measured: 0.33µs at 8 piles (mostly noise) and 34µs at 16. From their ratio, 32
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
    fn a_call_as_slow_at_every_size_is_not_taken_for_a_start_of_growth() {
        // A solution that sleeps 200 ms a call, whatever n: the next doubling is predicted at
        // 200 ms, not at 200 ms doubled with each pile.
        let flat = measured(&[(1, 200_000.0), (2, 201_000.0)]);
        assert!(predict(&flat, 4) < Duration::from_millis(300), "{:?}", predict(&flat, 4));
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
