//! Progress bars for long work, drawn on standard error when it is a
//! terminal and hidden otherwise.

use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressStyle};
use solver::merels::{Observer, Sector};

/// Shows each stage of a solve as a bar with rate and time left.
pub struct Bars {
    bar: Mutex<Option<ProgressBar>>,
    quiet: bool,
    prefix: Mutex<String>,
}

impl Bars {
    pub fn new(quiet: bool) -> Bars {
        Bars { bar: Mutex::new(None), quiet, prefix: Mutex::new(String::new()) }
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
        let bar = ProgressBar::new(total);
        bar.set_style(
            ProgressStyle::with_template("{prefix} {msg:<24} [{bar:30}] {human_pos}/{human_len} {per_sec} eta {eta}")
                .expect("progress template")
                .progress_chars("=> "),
        );
        bar.set_prefix(self.prefix.lock().expect("progress lock").clone());
        bar.set_message(label.to_string());
        *self.bar.lock().expect("progress lock") = Some(bar);
    }

    fn advance(&self, n: u64) {
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
