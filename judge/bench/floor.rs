//! The floor: how fast a strategy can go on this machine, timed beside the strategies.
//!
//! `cargo run --release --bin floor [N] [ARRAYS] [ROUNDS]` (default 50000 301 7): a program of
//! its own, not part of the judge. Every strategy walks the piles along a chain of dependent
//! steps, at least one compare-and-select per pile. `floor` is that chain and nothing else,
//! on the same arrays and called the same way; `floor_max` is the same chain written with
//! `max`, which compiles to a select that reads more flags than the sign. Where the CPU has
//! SSE4.1, `floor_vector` is the same chain on one-cycle vector max, and `floor_vector_pairs`
//! a chain with the depth the lead form needs per pair of piles on vector min/max: the bound
//! of `vector_min_max_pairs` (see each). Every floor prefetches (see `backwards!`).
//!
//! The arrays are drawn by splitmix64 from seed 42, values -1000..=1000; each call is on the
//! next one, on a copy made before the clock starts. A round times every entry on all the
//! arrays (the median call's ns per pile); rounds alternate the entries' order. Where g++ is
//! found, each round also runs the textbook approaches in C++ (`peers.cpp`, `g++ -O2`) on the
//! same arrays. Printed: each entry's median over the rounds, and its ratio to the floor, the
//! median of the per-round ratios with their range; then each textbook strategy's ratio to its
//! C++ peer and every strategy's to the C++ four-variable loop. The floors must give the same
//! answers, and so must the strategies and the peers. Noise only slows an entry: run it a few
//! times on a quiet machine (`taskset -c 1` keeps it, and the peers, on one core). The medians
//! are kept in the judge's build cache (`floor.txt`), where `--html` draws the floor's line from.
use std::hint::black_box;
use std::io;
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

/// A strategy's method: the piles by value, the answer back.
type Solve = fn(Vec<i32>) -> String;

/// Timed entries by name.
type Entries = Vec<(&'static str, Solve)>;

/// Compiles each strategy file as LeetCode does, `pub struct Solution;` then the file.
macro_rules! strategies {
    ($($name:ident),* $(,)?) => {
        $(
            mod $name {
                pub struct Solution;
                include!(concat!("../../solutions/", stringify!($name), ".rs"));
            }
        )*
        const STRATEGIES: &[(&str, Solve)] =
            &[$((stringify!($name), $name::Solution::stone_game_iii)),*];
    };
}

strategies!(
    dp_array,
    four_scalars,
    recursive_memo,
    rolling_mod4,
    sign_select_pairs,
    stones_four_scalars_unrolled,
    stones_mod4_grouped,
    vector_min_max_pairs,
);

/// `$body` on each `$k` piles of `$piles` from the back, bound to `$run` (an array), in groups
/// of 16 piles (a cache line), each group after a prefetch of the piles 2 KiB before it; then
/// on those before the first group. Every floor walks its piles this way: a backward walk over
/// a fresh copy otherwise waits for memory on some cores, and a floor that waits is none (a
/// strategy with a prefetch goes below it). A macro, not a function taking a closure: a closure
/// is compiled without the target features of the function it is written in, and the vector
/// floors' `pmaxsd` would become calls.
macro_rules! backwards {
    ($piles:expr, $k:literal, |$run:pat_param| $body:block) => {{
        let groups = $piles.rchunks_exact(16);
        let front = groups.remainder();
        for group in groups {
            prefetch(group);
            for run in group.rchunks_exact($k) {
                let $run: [i32; $k] = run.try_into().expect("rchunks_exact gives runs of its length");
                $body
            }
        }
        for run in front.rchunks_exact($k) {
            let $run: [i32; $k] = run.try_into().expect("rchunks_exact gives runs of its length");
            $body
        }
    }};
}

/// A hint to load the piles 2 KiB before `group`, as `vector_min_max_pairs` does: on the Intel
/// Xeon of the README, a copy of it with the 4 KiB of the stones variants ran 1 to 24% slower
/// in five runs, and a copy of `floor` 1 to 3% slower in two.
#[inline(always)]
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
fn prefetch(group: &[i32]) {
    // SAFETY: a prefetch is only a hint to the cache: it never faults, and nothing is read
    // through the pointer, made by wrapping arithmetic.
    #[cfg(target_arch = "x86_64")]
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(group.as_ptr().wrapping_sub(512).cast());
    }
}

/// A strategy's chain with the rest taken away, taken like a strategy (the array by value, a
/// string back): per pile one compare-and-select, `x = max(x, bound)` written as a select on
/// the sign of `x - bound` (`cmp`, then `cmovns`, which reads the sign flag alone), where the
/// bound, as in the strategies, is formed beside the chain from the pile and the value two
/// piles back. Its result depends on every pile.
fn floor(piles: Vec<i32>) -> String {
    let (mut x, mut before) = (0i32, 0i32);
    backwards!(piles, 1, |[pile]| {
        let bound = pile - before;
        (x, before) = (if x.wrapping_sub(bound) < 0 { bound } else { x }, x);
    });
    x.to_string()
}

/// The same chain with `max`, a select on a signed comparison (`cmp`, then `cmovle`, which
/// reads the overflow and zero flags as well as the sign): what the sign alone buys here.
fn floor_max(piles: Vec<i32>) -> String {
    let (mut x, mut before) = (0i32, 0i32);
    backwards!(piles, 1, |[pile]| {
        (x, before) = (x.max(pile - before), x);
    });
    x.to_string()
}

/// The floors this CPU has, which compute the same: the two above, and `floor_vector` where it
/// has SSE4.1; then the bound the lead form can reach on vector min/max, which computes
/// something else.
fn floors() -> (Entries, Entries) {
    let floors: Entries = vec![("floor", floor), ("floor_max", floor_max)];
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("sse4.1") {
        let vector: Entries = vec![("floor_vector", vector::floor)];
        return ([floors, vector].concat(), vec![("floor_vector_pairs", vector::floor_pairs)]);
    }
    (floors, Vec::new())
}

/// The chain on vector min/max (SSE4.1), x in lane 0 of an SSE register. Listed by `floors`
/// only where the CPU has SSE4.1, the one thing these calls need.
#[cfg(target_arch = "x86_64")]
mod vector {
    use super::prefetch;
    use std::arch::x86_64::{
        _mm_cvtsi128_si32, _mm_cvtsi32_si128, _mm_max_epi32, _mm_min_epi32, _mm_setzero_si128, _mm_sub_epi32,
    };

    /// `floor` with `pmaxsd` for the compare-and-select: on the chain one one-cycle max per
    /// pile, the bound formed beside it by a `psubd`. Nothing that needs more than a max per
    /// pile on its chain can reach it, and the lead form needs more: see `floor_pairs`.
    pub fn floor(piles: Vec<i32>) -> String {
        // SAFETY: `floors` lists this function only where the CPU has SSE4.1.
        unsafe { floor_sse41(&piles) }.to_string()
    }

    #[target_feature(enable = "sse4.1")]
    fn floor_sse41(piles: &[i32]) -> i32 {
        let (mut x, mut before) = (_mm_setzero_si128(), _mm_setzero_si128());
        backwards!(piles, 1, |[pile]| {
            let bound = _mm_sub_epi32(_mm_cvtsi32_si128(pile), before);
            (x, before) = (_mm_max_epi32(x, bound), x);
        });
        _mm_cvtsi128_si32(x)
    }

    /// The bound of the lead form's two-pile step on vector min/max. That step (in
    /// `vector_min_max_pairs`) depends on the value two piles back through three one-cycle
    /// operations in a row, a min, then a subtraction, then a max: 3 cycles a pair, 1.5 a pile.
    /// Here that chain and nothing else, a pair at a time: m = min(x, s[i+1] - y) and
    /// x' = max(m, s[i] - m), y' = m, with y one step older than x as e(i+3) is older than
    /// e(i+2). What it computes is not the floor's (an odd pile at the front is left out).
    pub fn floor_pairs(piles: Vec<i32>) -> String {
        // SAFETY: `floors` lists this function only where the CPU has SSE4.1.
        unsafe { floor_pairs_sse41(&piles) }.to_string()
    }

    #[target_feature(enable = "sse4.1")]
    fn floor_pairs_sse41(piles: &[i32]) -> i32 {
        let (mut x, mut y) = (_mm_setzero_si128(), _mm_setzero_si128());
        backwards!(piles, 2, |[first, second]| {
            let m = _mm_min_epi32(x, _mm_sub_epi32(_mm_cvtsi32_si128(second), y));
            (x, y) = (_mm_max_epi32(m, _mm_sub_epi32(_mm_cvtsi32_si128(first), m)), m);
        });
        _mm_cvtsi128_si32(x)
    }
}

/// glibc reads these at start: blocks up to 64 MiB come from the heap and freed memory is not
/// given back, so no call pays for mmap, munmap or a trim. The peers inherit them.
const ALLOCATOR: [(&str, &str); 2] = [("MALLOC_MMAP_THRESHOLD_", "67108864"), ("MALLOC_TRIM_THRESHOLD_", "268435456")];

fn main() {
    if std::env::var_os(ALLOCATOR[0].0).is_none() {
        let again = std::process::Command::new(std::env::current_exe().expect("this program's path"))
            .args(std::env::args_os().skip(1))
            .envs(ALLOCATOR)
            .status()
            .expect("run again with the allocator settings");
        std::process::exit(again.code().unwrap_or(1));
    }
    // recursive_memo recurses once per pile: 64 bytes a level, past the main thread's stack.
    let measure = std::thread::Builder::new().stack_size(1 << 30).spawn(measure).expect("a thread for the calls");
    measure.join().expect("the measurement");
}

/// The seed the arrays are drawn from.
const SEED: u64 = 42;

fn measure() {
    let arg = |k: usize, default: usize| std::env::args().nth(k).map_or(default, |a| a.parse().expect("a count"));
    let (n, arrays, rounds) = (arg(1, 50_000), arg(2, 301), arg(3, 7));
    let mut seed = SEED;
    let inputs: Vec<Vec<i32>> =
        (0..arrays).map(|_| (0..n).map(|_| (splitmix64(&mut seed) % 2001) as i32 - 1000).collect()).collect();

    let (floors, bounds) = floors();
    let entries = [&floors[..], &bounds[..], STRATEGIES].concat();
    let mut times = vec![Vec::new(); entries.len()];
    let mut answers: Vec<Vec<String>> = vec![Vec::new(); entries.len()];
    let peers = Peers::build();
    let mut peer_times: Vec<(String, Vec<f64>)> = Vec::new();
    let mut peer_answers: Vec<(String, String)> = Vec::new();
    for round in 0..rounds {
        let mut order: Vec<usize> = (0..entries.len()).collect();
        if round % 2 == 1 {
            order.reverse();
        }
        let peers_first = round % 2 == 0;
        let mut run_peers = || {
            let Ok(peers) = &peers else { return };
            for (name, ns, letters) in peers.run(n, arrays) {
                match peer_times.iter_mut().find(|(p, _)| *p == name) {
                    Some((_, all)) => all.push(ns),
                    None => peer_times.push((name.clone(), vec![ns])),
                }
                peer_answers.retain(|(p, _)| *p != name);
                peer_answers.push((name, letters));
            }
        };
        if peers_first {
            run_peers();
        }
        for k in order {
            let (ns, got) = time(entries[k].1, &inputs);
            times[k].push(ns);
            answers[k] = got;
        }
        if !peers_first {
            run_peers();
        }
    }
    // The floors compute the same; so do the strategies, and the peers.
    let strategies = floors.len() + bounds.len();
    for (k, (name, _)) in entries.iter().enumerate().skip(1) {
        let first = if k < floors.len() { 0 } else { strategies };
        if k < floors.len() || k > strategies {
            assert_eq!(answers[k], answers[first], "{name} and {} disagree", entries[first].0);
        }
    }
    let letters: String = answers[strategies].iter().map(|a| &a[..1]).collect();
    for (name, theirs) in &peer_answers {
        assert_eq!(*theirs, letters, "the C++ peer {name} and {} disagree", entries[strategies].0);
    }

    println!("n = {n}, {arrays} arrays, {rounds} rounds");
    println!("{:<30} {:>8}  to the floor", "", "ns/pile");
    let mut kept = format!("n {n}\n");
    for (k, (name, _)) in entries.iter().enumerate() {
        let (ns, ratio) = (median(&mut times[k].clone()), ratio(&times[k], &times[0]));
        println!("{name:<30} {ns:>8.3}  {ratio}");
        kept.push_str(&format!("{name} {ns}\n"));
    }
    keep(&kept);
    match &peers {
        Err(why) => println!("\nC++ peers not timed: {why}"),
        Ok(_) => {
            println!("\nC++ peers (peers.cpp, g++ -O2)  ns/pile  the strategy of that name to it");
            for (name, ns) in &peer_times {
                let Some(k) = entries.iter().position(|(e, _)| e == name) else { continue };
                println!("cpp {name:<26} {:>8.3}  {}", median(&mut ns.clone()), ratio(&times[k], ns));
            }
            if let Some((_, loop_ns)) = peer_times.iter().find(|(name, _)| name == "four_scalars") {
                println!("\nto the C++ four-variable loop");
                for (k, (name, _)) in entries.iter().enumerate().skip(strategies) {
                    println!("{name:<30} {:>8}  {}", "", ratio(&times[k], loop_ns));
                }
            }
        }
    }
}

/// Leaves the medians where the judge's page (`--html`) draws the floor's line from: `floor.txt`
/// in the judge's build cache, `$JUDGE_CACHE` or `target/judge/` beside this program's
/// `target/release/`. A reading that cannot be kept is said, and the run is still printed.
fn keep(text: &str) {
    let cache = match std::env::var_os("JUDGE_CACHE") {
        Some(dir) if !dir.is_empty() => Some(PathBuf::from(dir)),
        _ => std::env::current_exe().ok().and_then(|exe| Some(exe.parent()?.parent()?.join("judge"))),
    };
    let Some(cache) = cache else { return };
    let path = cache.join("floor.txt");
    let written = std::fs::create_dir_all(&cache).and_then(|()| std::fs::write(&path, text));
    match written {
        Ok(()) => println!("\nkept for cargo judge --html: {}", path.display()),
        Err(error) => println!("\nnot kept for cargo judge --html: {}: {error}", path.display()),
    }
}

/// The median of the per-round ratios of `times` to `to`, with their range.
fn ratio(times: &[f64], to: &[f64]) -> String {
    let mut ratios: Vec<f64> = times.iter().zip(to).map(|(t, f)| t / f).collect();
    ratios.sort_by(f64::total_cmp);
    format!("{:.2} (rounds {:.2}..{:.2})", median(&mut ratios), ratios[0], ratios[ratios.len() - 1])
}

/// The textbook approaches in C++, built for this run.
struct Peers {
    folder: PathBuf,
}

/// Why the peers are not timed.
enum NoPeers {
    /// No `g++` on the PATH.
    NoCompiler,
    /// The folder or the build could not be made.
    Io(&'static str, io::Error),
    /// g++ refused the file: what it said.
    Refused(String),
}

impl std::fmt::Display for NoPeers {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            NoPeers::NoCompiler => write!(f, "no g++ found (install g++ to time them)"),
            NoPeers::Io(what, error) => write!(f, "{what}: {error}"),
            NoPeers::Refused(said) => write!(f, "g++ refused peers.cpp:\n{said}"),
        }
    }
}

impl Peers {
    const SOURCE: &str = include_str!("peers.cpp");

    fn build() -> Result<Peers, NoPeers> {
        let folder = std::env::temp_dir().join(format!("floor-peers-{}", std::process::id()));
        std::fs::create_dir_all(&folder).map_err(|e| NoPeers::Io("a folder for the peers", e))?;
        let peers = Peers { folder };
        let source = peers.folder.join("peers.cpp");
        std::fs::write(&source, Self::SOURCE).map_err(|e| NoPeers::Io("writing peers.cpp", e))?;
        let built = Command::new("g++").args(["-O2", "-std=c++17", "-o"]).arg(peers.binary()).arg(&source).output();
        match built {
            Err(e) if e.kind() == io::ErrorKind::NotFound => Err(NoPeers::NoCompiler),
            Err(e) => Err(NoPeers::Io("running g++", e)),
            Ok(out) if !out.status.success() => Err(NoPeers::Refused(String::from_utf8_lossy(&out.stderr).into())),
            Ok(_) => Ok(peers),
        }
    }

    fn binary(&self) -> PathBuf {
        self.folder.join("peers")
    }

    /// One round: each peer's name, its median call's ns per pile, and its answers' letters.
    fn run(&self, n: usize, arrays: usize) -> Vec<(String, f64, String)> {
        let out = Command::new(self.binary()).args([n.to_string(), arrays.to_string(), SEED.to_string()]).output();
        let out = out.expect("the peers run");
        assert!(out.status.success(), "the peers failed: {}", String::from_utf8_lossy(&out.stderr));
        let parse = |line: &str| {
            let mut words = line.split_whitespace();
            let (name, ns, letters) = (words.next()?, words.next()?.parse().ok()?, words.next().unwrap_or(""));
            Some((name.to_string(), ns, letters.to_string()))
        };
        String::from_utf8_lossy(&out.stdout).lines().map(|l| parse(l).expect("a peer's line")).collect()
    }
}

impl Drop for Peers {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}

/// One call per array, each on a copy made beforehand: the median call's ns per pile, and
/// the answers.
fn time(solve: Solve, inputs: &[Vec<i32>]) -> (f64, Vec<String>) {
    let mut copies: Vec<Vec<i32>> = inputs.iter().rev().cloned().collect();
    let (mut ns, mut answers) = (Vec::with_capacity(inputs.len()), Vec::with_capacity(inputs.len()));
    while let Some(piles) = copies.pop() {
        let n = piles.len() as f64;
        let start = Instant::now();
        let answer = black_box(solve(black_box(piles)));
        ns.push(start.elapsed().as_nanos() as f64 / n);
        answers.push(answer);
    }
    (median(&mut ns), answers)
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn splitmix64(x: &mut u64) -> u64 {
    *x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    /// Every strategy the workspace ships (the `hold:` line of the mutants' equivalents file)
    /// is timed here; a file of your own in solutions/ is not required to be.
    #[test]
    fn every_shipped_strategy_is_listed() {
        let file = include_str!("../search/equivalent_mutants.txt");
        let line = file.lines().find_map(|l| l.strip_prefix("hold:")).expect("a hold: line");
        let mut held: Vec<&str> = line.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
        held.sort();
        let listed: Vec<&str> = super::STRATEGIES.iter().map(|(name, _)| *name).collect();
        assert_eq!(held, listed, "list every held strategy in strategies!()");
    }
}
