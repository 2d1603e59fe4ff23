//! How a solution's time grows, in the words a competitive programmer uses, and what that
//! means at n = 50,000 against the limit; and the measurement as JSON.

use std::time::Duration;

use super::json::Json;
use super::units;
use crate::problem::MAX_LEN;
use crate::search::growth::{Class, Growth, Order};

/// The growth in one sentence: its order, the projection to n = 50,000, what was timed.
pub fn words(growth: &Growth, limit: Duration) -> String {
    let measured = match (growth.points.first(), growth.points.last()) {
        (Some(first), Some(last)) => format!(
            "timed on prefixes of {} to {} piles, up to {}",
            first.n,
            units::thousands(last.n as u64),
            units::duration(last.time)
        ),
        _ => "nothing could be timed".to_string(),
    };
    let order = order(growth.order);
    let projected = match growth.at_max_log10_s {
        Some(log10) if log10 < 3.0 => {
            let seconds = 10f64.powf(log10);
            let share = seconds / limit.as_secs_f64();
            let verdict = if share < 0.01 {
                format!("under 1% of the {} limit", units::limit(limit))
            } else if share < 1.0 {
                format!("{:.0}% of the {} limit", share * 100.0, units::limit(limit))
            } else {
                format!("{share:.0}× the {} limit", units::limit(limit))
            };
            format!(
                "at n = {}: about {}, {verdict}",
                units::thousands(MAX_LEN as u64),
                units::duration(Duration::from_secs_f64(seconds))
            )
        }
        Some(log10) => format!(
            "at n = {}: about 10^{} s, it never finishes",
            units::thousands(MAX_LEN as u64),
            units::thousands(log10.round() as u64)
        ),
        None => String::new(),
    };
    [order, projected, measured].into_iter().filter(|s| !s.is_empty()).collect::<Vec<_>>().join("; ")
}

/// The order in words: `time grows about as n^1.0 (linear)`.
pub fn order(order: Order) -> String {
    match order {
        Order::Power { exponent, spread } => {
            format!("time grows about as n^{exponent:.1}{}", power_name(exponent, spread))
        }
        Order::Exponential { per_pile } => {
            format!("time grows about {per_pile:.2}× with every extra pile: exponential")
        }
        Order::Unknown => "too fast at every size to tell how its time grows".to_string(),
    }
}

/// The class the fit names (see `Class::of`), or why it names none.
fn power_name(exponent: f64, spread: f64) -> &'static str {
    match Class::of(exponent, spread) {
        Some(Class::Constant) => " (about constant)",
        Some(Class::Linear) => " (linear)",
        Some(Class::Quadratic) => " (quadratic)",
        Some(Class::Cubic) => " (cubic)",
        None if exponent - spread >= 3.5 => " (steeper than cubic)",
        None => " (the times are too noisy to name a class)",
    }
}

/// The order, its factor, the projection, the points timed and the sentence.
pub fn json(growth: &Growth, limit: Duration) -> Json {
    let (order, factor) = match growth.order {
        Order::Power { exponent, .. } => ("power", Some(("exponent", exponent))),
        Order::Exponential { per_pile } => ("exponential", Some(("per_pile", per_pile))),
        Order::Unknown => ("unknown", None),
    };
    let mut fields = vec![("order", Json::str(order))];
    fields.extend(factor.map(|(name, value)| (name, Json::Float(value))));
    if let Order::Power { spread, .. } = growth.order {
        fields.push(("spread", Json::Float(spread)));
    }
    fields.push(("at_max_log10_s", Json::opt(growth.at_max_log10_s, Json::Float)));
    let points = growth
        .points
        .iter()
        .map(|p| Json::object([("n", Json::int(p.n as i128)), ("time_ns", Json::int(p.time.as_nanos() as i128))]));
    fields.push(("points", Json::Array(points.collect())));
    fields.push(("words", Json::str(words(growth, limit))));
    Json::object(fields)
}
