//! Shrinking a failing input: drop runs of elements, then move values toward zero, for as
//! long as the input still fails. The result is small, and every step kept it failing.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// The smallest input found for which `fails` still holds, and how many candidates were tried.
pub fn shrink(mut values: Vec<i32>, mut fails: impl FnMut(&[i32]) -> bool) -> (Vec<i32>, usize) {
    let mut tried = 0;
    loop {
        let mut improved = false;
        // Drop runs, halving the run length each pass; the array keeps at least one value.
        let mut run = values.len() / 2;
        while run >= 1 {
            let mut start = 0;
            while start + run <= values.len() && values.len() > run {
                let candidate: Vec<i32> = values[..start].iter().chain(&values[start + run..]).copied().collect();
                tried += 1;
                if fails(&candidate) {
                    values = candidate;
                    improved = true;
                } else {
                    start += run;
                }
            }
            run /= 2;
        }
        // Move each value toward zero: straight to 0, halfway, or one step.
        for i in 0..values.len() {
            loop {
                let v = values[i];
                let closer = [0, v / 2, v - v.signum()].into_iter().filter(|c| c.abs() < v.abs());
                let mut moved = false;
                for c in closer {
                    let mut candidate = values.clone();
                    candidate[i] = c;
                    tried += 1;
                    if fails(&candidate) {
                        values = candidate;
                        moved = true;
                        improved = true;
                        break;
                    }
                }
                if !moved {
                    break;
                }
            }
        }
        if !improved {
            return (values, tried);
        }
    }
}

pub struct Shrunk {
    pub values: Vec<i32>,
    /// The failing answer on `values`, kept when it was accepted, so it is not asked for again.
    pub got: String,
    pub tried: usize,
    /// Why shrinking ended early, if it did.
    pub stopped: Option<String>,
}

/// The smallest failing input so far, with its answer.
struct Progress {
    best: Mutex<(Vec<i32>, String)>,
    tried: AtomicUsize,
    give_up: AtomicBool,
}

/// `shrink` on its own thread, where `check` gives the answer of a failing candidate. A
/// candidate may hang (shrinking moves values toward 0, which some solutions loop on): after
/// one runs for over `stall`, the smallest failing input so far is returned and the thread
/// is left behind.
pub fn watched(
    values: Vec<i32>,
    got: String,
    check: impl Fn(&[i32]) -> Option<String> + Send + 'static,
    stack_bytes: usize,
    stall: Duration,
) -> Shrunk {
    let progress = Arc::new(Progress {
        best: Mutex::new((values.clone(), got.clone())),
        tried: AtomicUsize::new(0),
        give_up: AtomicBool::new(false),
    });
    let (finished, done) = mpsc::channel::<()>();
    let shared = Arc::clone(&progress);
    let spawned = thread::Builder::new().stack_size(stack_bytes).spawn(move || {
        shrink(values, |candidate| {
            if shared.give_up.load(Ordering::Relaxed) {
                return false;
            }
            shared.tried.fetch_add(1, Ordering::Relaxed);
            let Some(got) = check(candidate) else { return false };
            *shared.best.lock().unwrap_or_else(|p| p.into_inner()) = (candidate.to_vec(), got);
            true
        });
        let _ = finished.send(());
    });
    let mut stopped = spawned.err().map(|e| format!("not shrunk: cannot start its thread: {e}"));
    let mut seen = (0, Instant::now());
    // A send, or a disconnect if the thread panicked or never started, ends the wait.
    while stopped.is_none() && done.recv_timeout(Duration::from_millis(50)) == Err(mpsc::RecvTimeoutError::Timeout) {
        let tried = progress.tried.load(Ordering::Relaxed);
        if tried != seen.0 {
            seen = (tried, Instant::now());
        } else if seen.1.elapsed() > stall {
            progress.give_up.store(true, Ordering::Relaxed);
            stopped = Some(format!("shrinking stopped: a candidate ran for over {} s", stall.as_secs_f64()));
        }
    }
    let (values, got) = progress.best.lock().unwrap_or_else(|p| p.into_inner()).clone();
    Shrunk { values, got, tried: progress.tried.load(Ordering::Relaxed), stopped }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_only_what_makes_it_fail() {
        // Fails while the array holds a value of at least 5 anywhere.
        let (small, _) = shrink(vec![1, 9, -4, 7, 3, 12, 0, 2], |v| v.iter().any(|&x| x >= 5));
        assert_eq!(small, [5]);
    }

    #[test]
    fn keeps_relations_between_elements() {
        // Fails while the first value is greater than the last.
        let (small, _) = shrink(vec![30, 1, 2, 3, 4, -20], |v| v.len() >= 2 && v[0] > v[v.len() - 1]);
        assert_eq!(small, [0, -1]);
    }

    #[test]
    fn never_returns_an_empty_array_or_a_passing_one() {
        let fails = |v: &[i32]| v.iter().sum::<i32>() % 7 == 3;
        let (small, _) = shrink(vec![10, 20, 30, 40, 50, 60, 3], fails);
        assert!(!small.is_empty() && fails(&small), "{small:?}");
    }

    #[test]
    fn a_hanging_candidate_stops_shrinking_with_the_best_so_far() {
        // Fails while some value is at least 5, and hangs on any 0, as a solution may.
        let check = |v: &[i32]| {
            while v.contains(&0) {
                thread::sleep(Duration::from_secs(1));
            }
            v.iter().any(|&x| x >= 5).then(|| format!("len {}", v.len()))
        };
        let start = Instant::now();
        let shrunk = watched(vec![9, 1, 7], "first".into(), check, 1 << 20, Duration::from_millis(200));
        assert!(start.elapsed() < Duration::from_secs(5));
        assert_eq!((shrunk.values, shrunk.got.as_str()), (vec![7], "len 1"));
        assert_eq!(shrunk.stopped.as_deref(), Some("shrinking stopped: a candidate ran for over 0.2 s"));
        let whole = watched(
            vec![9, 1, 7],
            "first".into(),
            |v| v.contains(&5).then(|| "x".into()),
            1 << 20,
            Duration::from_secs(20),
        );
        assert_eq!((whole.values, whole.got, whole.stopped), (vec![9, 1, 7], "first".into(), None));
    }
}
