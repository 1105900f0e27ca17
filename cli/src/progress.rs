//! Progress on standard error for long work: bars on a terminal, and
//! otherwise (a log file, a pipe) a plain line every few seconds.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use solver::merels::{Observer, Sector};

/// How often progress is written when standard error is not a terminal:
/// every 5 s, or every `LUDUS_PROGRESS_MS` milliseconds.
fn plain_every() -> Duration {
    let ms = std::env::var("LUDUS_PROGRESS_MS").ok().and_then(|v| v.parse().ok()).unwrap_or(5000);
    Duration::from_millis(ms)
}

/// Shows each stage of a solve as a bar with rate and time left, or as a
/// line every few seconds when standard error is not a terminal.
pub struct Bars {
    bar: Mutex<Option<ProgressBar>>,
    quiet: bool,
    prefix: Mutex<String>,
    /// Lines instead of bars (standard error is not a terminal).
    plain: bool,
    stage: Mutex<Plain>,
    done: AtomicU64,
    every: Duration,
    /// When the run's first group began (by the clock and in the process's
    /// CPU time), and where the run stands (shown in the groups' prefixes).
    run: Mutex<(Option<Began>, String)>,
}

/// When a run began: by the clock, and in the process's CPU time.
type Began = (Instant, Option<Duration>);

/// The stage a plain report describes.
struct Plain {
    label: String,
    total: u64,
    started: Instant,
    last: Instant,
}

impl Bars {
    pub fn new(quiet: bool) -> Bars {
        let now = Instant::now();
        Bars {
            bar: Mutex::new(None),
            quiet,
            prefix: Mutex::new(String::new()),
            plain: !std::io::stderr().is_terminal(),
            stage: Mutex::new(Plain { label: String::new(), total: 0, started: now, last: now }),
            done: AtomicU64::new(0),
            every: plain_every(),
            run: Mutex::new((None, String::new())),
        }
    }

    /// A plain line when the last one is a few seconds old.
    fn plain_report(&self, force: bool) {
        let mut st = self.stage.lock().expect("progress lock");
        if !force && st.last.elapsed() < self.every {
            return;
        }
        st.last = Instant::now();
        let done = self.done.load(Ordering::Relaxed);
        // A stage of unknown length (rounds until a fixpoint) counts without
        // a total.
        let count = match st.total {
            0 => format!("{done}"),
            t => format!("{done}/{t} ({:.1}%)", 100.0 * done as f64 / t as f64),
        };
        eprintln!(
            "{} {}: {count} after {:.0} s",
            self.prefix.lock().expect("progress lock"),
            st.label,
            st.started.elapsed().as_secs_f64()
        );
    }
}

/// Where a run stands: the share of its indices in finished groups and,
/// once this run has finished some, the time left at its mean rate so far.
/// `busy` is the time its `threads` worked (the process's CPU time over
/// them): when it falls well short of the clock's (the run was paused, or
/// shared the cores), the time left at that rate follows, what the run
/// needs with its cores to itself.
fn standing(done: u64, here: u64, total: u64, elapsed: Duration, busy: Option<Duration>, threads: usize) -> String {
    let share = if total == 0 { 100.0 } else { 100.0 * done as f64 / total as f64 };
    let secs = elapsed.as_secs_f64();
    if here == 0 || secs < 1.0 || done >= total {
        return format!("{share:.1}% of indices");
    }
    let left = |secs: f64| match (total - done) as f64 * secs / here as f64 {
        l if l < 60.0 => "under a minute".to_string(),
        l if l < 5400.0 => format!("about {:.0} min", l / 60.0),
        l => format!("about {:.1} h", l / 3600.0),
    };
    let rate = |secs: f64| here as f64 / secs / 1e6;
    let mut out = format!("{share:.1}% of indices, {} left at {:.2} M/s", left(secs), rate(secs));
    if let Some(busy) = busy.map(|b| b.as_secs_f64()).filter(|&b| b >= 1.0 && b < 0.8 * secs) {
        let threads = engine::names::count(threads as u64, "thread", "threads");
        out += &format!("; {} at {:.2} M/s with its {threads} busy", left(busy), rate(busy));
    }
    out
}

/// The CPU time of this process, all its threads together (where the
/// system tells it).
fn cpu_time() -> Option<Duration> {
    #[cfg(unix)]
    {
        let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
        // SAFETY: `getrusage` fills the struct it is given; it is read only
        // when the call succeeded.
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr()) } != 0 {
            return None;
        }
        // SAFETY: filled by the call above.
        let usage = unsafe { usage.assume_init() };
        let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, 1000 * t.tv_usec as u32);
        Some(time(usage.ru_utime) + time(usage.ru_stime))
    }
    #[cfg(not(unix))]
    None
}

impl Observer for Bars {
    fn group(&self, sectors: &[Sector], done: usize, groups: usize) {
        let names: Vec<String> = sectors.iter().map(|s| s.to_string()).collect();
        let run = &self.run.lock().expect("progress lock").1;
        let run = if run.is_empty() { String::new() } else { format!(", {run}") };
        *self.prefix.lock().expect("progress lock") = format!("[{}/{}{run}] {}", done + 1, groups, names.join(", "));
    }

    fn overall(&self, done: u64, here: u64, total: u64) {
        let mut run = self.run.lock().expect("progress lock");
        let (started, cpu) = *run.0.get_or_insert_with(|| (Instant::now(), cpu_time()));
        let threads = rayon::current_num_threads();
        let busy = cpu.zip(cpu_time()).map(|(a, b)| b.saturating_sub(a) / threads as u32);
        run.1 = standing(done, here, total, started.elapsed(), busy, threads);
    }

    fn begin(&self, label: &str, total: u64) {
        if self.quiet {
            return;
        }
        if self.plain {
            let mut st = self.stage.lock().expect("progress lock");
            // Lines keep their pace across stages, however short.
            *st = Plain { label: label.to_string(), total, started: Instant::now(), last: st.last };
            self.done.store(0, Ordering::Relaxed);
            return;
        }
        let bar = ProgressBar::new(total);
        // Rounds until a fixpoint have no total: counted, without a bar.
        let template = if total == 0 {
            "{prefix} {msg:<24} {human_pos} {per_sec} after {elapsed}"
        } else {
            "{prefix} {msg:<24} [{bar:30}] {human_pos}/{human_len} {per_sec} eta {eta}"
        };
        bar.set_style(ProgressStyle::with_template(template).expect("progress template").progress_chars("=> "));
        bar.set_prefix(self.prefix.lock().expect("progress lock").clone());
        bar.set_message(label.to_string());
        *self.bar.lock().expect("progress lock") = Some(bar);
    }

    fn advance(&self, n: u64) {
        if self.plain && !self.quiet {
            self.done.fetch_add(n, Ordering::Relaxed);
            self.plain_report(false);
            return;
        }
        if let Some(b) = self.bar.lock().expect("progress lock").as_ref() {
            b.inc(n);
        }
    }

    fn note(&self, message: &str) {
        match self.bar.lock().expect("progress lock").as_ref() {
            Some(b) => b.println(format!("note: {message}")),
            None => eprintln!("note: {message}"),
        }
    }

    fn finish(&self) {
        if let Some(b) = self.bar.lock().expect("progress lock").take() {
            b.finish_and_clear();
        }
    }
}

/// A bar counting `total` items (games of a match), hidden when `quiet`.
pub fn counter(total: u64, unit: &str, quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template(&format!("{{bar:40}} {{pos}}/{{len}} {unit} {{per_sec}} eta {{eta}}"))
            .expect("progress template")
            .progress_chars("=> "),
    );
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_s_standing_projects_from_its_own_rate() {
        // Nothing finished by this run yet: the share only.
        assert_eq!(standing(40, 0, 100, Duration::from_secs(30), None, 2), "40.0% of indices");
        // Half done, a quarter of the whole in 10 s: the other half in 20 s.
        let s = standing(50, 25, 100, Duration::from_secs(10), None, 2);
        assert!(s.starts_with("50.0% of indices, under a minute left at "), "{s}");
        // 1 of 100 indices an hour: 99 hours left.
        let s = standing(1, 1, 100, Duration::from_secs(3600), None, 2);
        assert!(s.contains("about 99.0 h left"), "{s}");
        // 2 M of 5 M indices in 20 s (0.1 M/s): 30 s left; of 8 M: 60 s.
        let s = standing(2_000_000, 2_000_000, 5_000_000, Duration::from_secs(20), None, 2);
        assert!(s.ends_with("under a minute left at 0.10 M/s"), "{s}");
        let s = standing(2_000_000, 2_000_000, 8_000_000, Duration::from_secs(20), None, 2);
        assert!(s.contains("about 1 min left"), "{s}");
        assert_eq!(standing(100, 100, 100, Duration::from_secs(20), None, 2), "100.0% of indices");
        // Paused for most of an hour: 1 M of 4 M indices in 3600 s by the
        // clock, 100 s busy; 3 M left take 3 h by the clock, 5 min busy.
        let s = standing(1_000_000, 1_000_000, 4_000_000, Duration::from_secs(3600), Some(Duration::from_secs(100)), 2);
        assert!(s.ends_with("about 3.0 h left at 0.00 M/s; about 5 min at 0.01 M/s with its 2 threads busy"), "{s}");
        // Busy most of the time: the clock alone.
        let s = standing(1_000_000, 1_000_000, 4_000_000, Duration::from_secs(100), Some(Duration::from_secs(90)), 2);
        assert!(s.ends_with("about 5 min left at 0.01 M/s"), "{s}");
    }
}
