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
}

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

impl Observer for Bars {
    fn group(&self, sectors: &[Sector], done: usize, groups: usize) {
        let names: Vec<String> = sectors.iter().map(|s| s.to_string()).collect();
        *self.prefix.lock().expect("progress lock") = format!("[{}/{}] {}", done + 1, groups, names.join(", "));
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
