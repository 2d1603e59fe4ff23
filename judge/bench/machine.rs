//! Where and when a measurement was taken, for the chart to say: the CPU's model name, the
//! logical cores, the time it started, and the load average at its start and at its end (a
//! figure taken on a busy machine says so on its face).

use std::time::SystemTime;

#[derive(Clone, Debug, PartialEq)]
pub struct Conditions {
    /// `/proc/cpuinfo`'s model name, when it has one.
    pub cpu: Option<String>,
    pub cores: usize,
    pub started: SystemTime,
    /// The one-minute load average at the start, and at the end once `finish` is called.
    pub load: (Option<f64>, Option<f64>),
}

impl Conditions {
    /// The machine now, as a measurement starts.
    pub fn start() -> Conditions {
        Conditions { cpu: cpu(), cores: crate::parallel::cores(), started: SystemTime::now(), load: (load(), None) }
    }

    /// The load once the measurement is done.
    pub fn finish(mut self) -> Conditions {
        self.load.1 = load();
        self
    }
}

fn cpu() -> Option<String> {
    let text = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("model name"))?;
    Some(line.split_once(':')?.1.trim().to_string()).filter(|m| !m.is_empty())
}

fn load() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg").ok()?.split_whitespace().next()?.parse().ok()
}
