//! The limits a submission runs under, their defaults, and the one stack policy.

use std::time::Duration;

/// What every call of a submission is held to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Time of one call, as `exec::account` counts it: the CPU time of the solution's box by
    /// the kernel's account, read by the judge; the wall time it may spend off the CPU is
    /// `account::fuse` of it. The judge stops a call at either; the child is told neither.
    pub time: Duration,
    /// Resident memory of the child's processes during one call.
    pub memory_mib: u64,
    /// Stack of the thread that calls the solution (the main thread's `RLIMIT_STACK`); counted
    /// (as memory) only where touched. It is smaller than the memory limit, so an endless recursion ends as a
    /// stack overflow, not as MLE.
    pub stack_mib: u64,
}

/// What a solution may print on stdout, and again on stderr, during one call. More is OLE.
pub const OUTPUT_LIMIT: u64 = 1 << 20;
/// Of what it prints, this much of each stream is kept per call to show.
pub const OUTPUT_KEPT: usize = 4096;

/// The stack bench gives a recursion `depth` levels deep: a recursive strategy goes one level
/// deeper per pile, and a textbook memo's frame is a few dozen bytes (the README gives the
/// figure); this allows 256 a level, plus a floor for everything else on the thread. Only
/// touched stack becomes resident: the rest is address space.
pub const STACK_PER_LEVEL: u64 = 256;
pub const STACK_FLOOR: u64 = 8 << 20;

/// Past these, a limit is not one this machine can honour: a judge error, not a verdict.
pub const MAX_STACK_MIB: u64 = 16 << 10;
pub const MIN_MEMORY_MIB: u64 = 16;

/// The judge's limits when no flag says otherwise (the flag table, `cli::flags`, takes them
/// from here): LeetCode's second, 256 MiB, and a 64 MiB stack.
pub const DEFAULT: Limits = Limits { time: Duration::from_secs(1), memory_mib: 256, stack_mib: 64 };

/// How long one rustc run may take by default (`--compile-limit`).
pub const COMPILE_LIMIT: Duration = Duration::from_secs(20);

/// A limit this machine cannot honour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unhonourable {
    /// No thread can be given this stack here.
    Stack { mib: u64 },
    /// More memory than the machine has, or too little for any process to start in.
    Memory { mib: u64, machine_mib: Option<u64> },
}

impl Limits {
    pub fn stack_bytes(&self) -> u64 {
        self.stack_mib << 20
    }

    pub fn memory_bytes(&self) -> u64 {
        self.memory_mib << 20
    }

    /// When the judge kills a call that has not answered: at the limit.
    pub fn deadline(&self) -> Duration {
        self.time
    }

    /// The child's address-space ceiling: its stack, room for the allocator to fail cleanly
    /// well past the memory limit (which the judge enforces by watching), and its code.
    pub fn address_space(&self) -> u64 {
        self.stack_bytes() + 4 * self.memory_bytes() + (1 << 30)
    }

    /// The same limits with another time limit.
    pub fn with_time(self, time: Duration) -> Limits {
        Limits { time, ..self }
    }

    /// The same limits with a stack that fits a recursion `depth` levels deep.
    pub fn for_depth(self, depth: usize) -> Limits {
        let needed = (depth as u64).saturating_mul(STACK_PER_LEVEL).saturating_add(STACK_FLOOR);
        Limits { stack_mib: self.stack_mib.max(needed.div_ceil(1 << 20)), ..self }
    }

    /// Checks that this machine can honour the limits: a thread with this stack can start
    /// here, and the memory limit is below what the machine has.
    pub fn check(&self) -> Result<(), Unhonourable> {
        let machine_mib = super::procfs::kib("/proc/meminfo", "MemTotal").map(|k| k >> 10);
        let too_much = machine_mib.is_some_and(|m| self.memory_mib > m);
        if self.memory_mib < MIN_MEMORY_MIB || too_much {
            return Err(Unhonourable::Memory { mib: self.memory_mib, machine_mib });
        }
        let stack = Unhonourable::Stack { mib: self.stack_mib };
        if self.stack_mib > MAX_STACK_MIB {
            return Err(stack);
        }
        let probe = std::thread::Builder::new().stack_size(self.stack_bytes() as usize).spawn(|| ());
        probe.map_err(|_| stack.clone())?.join().map_err(|_| stack)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_limits_can_be_honoured_and_impossible_ones_are_refused() {
        assert_eq!(DEFAULT.check(), Ok(()));
        let stack = Limits { stack_mib: 65536, ..DEFAULT };
        assert_eq!(stack.check(), Err(Unhonourable::Stack { mib: 65536 }));
        let memory = Limits { memory_mib: 1 << 30, ..DEFAULT };
        assert!(matches!(memory.check(), Err(Unhonourable::Memory { .. })));
        let tiny = Limits { memory_mib: 1, ..DEFAULT };
        assert!(matches!(tiny.check(), Err(Unhonourable::Memory { .. })));
    }

    #[test]
    fn deep_recursions_get_a_bigger_stack_and_shallow_ones_keep_theirs() {
        let limits = DEFAULT;
        assert_eq!(limits.for_depth(50_000), limits);
        let deep = limits.for_depth(10_000_000);
        assert!(deep.stack_bytes() >= 10_000_000 * STACK_PER_LEVEL, "{deep:?}");
    }
}
