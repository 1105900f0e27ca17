//! What several commands share: the one vocabulary of `--threads`,
//! `--hash` and `--depth`, the memory a command may ask for, and a checked thread pool.

use std::time::{Duration, Instant};

use crate::error::{CliError, Result};
use solver::merels::plan::human_bytes;

/// Parses a search's `--depth`: a whole number of plies from 1 to
/// [`engine::players::Spec::MAX_DEPTH`], the bound of every search (a
/// bot's `alphabeta:depth=N` too), refused with one message.
pub use engine::players::parse_depth;

/// The transposition table size every search command takes, in MiB.
pub const HASH_DEFAULT_MIB: usize = 64;
/// The largest `--hash`: 1 TiB (the machine's free memory is checked too).
pub const HASH_MAX_MIB: usize = 1 << 20;
/// The most `--threads` any command starts.
pub const THREADS_MAX: usize = 1024;

/// Parses `--hash`: a whole number of MiB from 1 to [`HASH_MAX_MIB`].
pub fn parse_hash(s: &str) -> std::result::Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if (1..=HASH_MAX_MIB).contains(&n) => Ok(n),
        _ => Err(format!("'{s}' is not a table size: a whole number of MiB from 1 to {HASH_MAX_MIB}")),
    }
}

/// Parses `--threads`: a whole number from 1 to [`THREADS_MAX`].
pub fn parse_threads(s: &str) -> std::result::Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if (1..=THREADS_MAX).contains(&n) => Ok(n),
        _ => Err(format!("'{s}' is not a thread count: a whole number from 1 to {THREADS_MAX}")),
    }
}

/// A memory size for `--memory`, in GiB: a finite number above 0, the
/// unit (`GiB` or `G`, any case) optional.
pub fn parse_gib(s: &str) -> std::result::Result<f64, String> {
    let lower = s.trim().to_ascii_lowercase();
    let number = lower.strip_suffix("gib").or_else(|| lower.strip_suffix('g')).unwrap_or(&lower).trim_end();
    match number.parse::<f64>() {
        Ok(g) if g.is_finite() && g > 0.0 => Ok(g),
        _ => Err(format!("'{s}' is not a memory size: a number of GiB above 0 (e.g. 14 or 14GiB)")),
    }
}

/// Writes a command's report as pretty JSON on standard output.
pub fn print_json<T: serde::Serialize + ?Sized>(v: &T) -> Result<()> {
    println!("{}", serde_json::to_string_pretty(v)?);
    Ok(())
}

/// Parses `--sprt`: two Elo differences, `ELO0,ELO1`.
pub fn parse_sprt(s: &str) -> std::result::Result<(f64, f64), String> {
    let (a, b) = s.split_once(',').ok_or_else(|| format!("'{s}' is not two Elo differences: write ELO0,ELO1"))?;
    let num = |x: &str| x.trim().parse::<f64>().map_err(|_| format!("'{x}' in --sprt '{s}' is not a number"));
    Ok((num(a)?, num(b)?))
}

/// Memory the system can give now, in bytes (Linux: `MemAvailable`).
pub fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Refuses to start work that needs more memory than the system has free
/// (`what` says which flag asked for it).
pub fn check_memory(bytes: u64, what: &str) -> Result<()> {
    match available_memory() {
        Some(free) if bytes > free => Err(CliError(format!(
            "{what} needs {}, but only {} of memory is free",
            human_bytes(bytes),
            human_bytes(free)
        ))),
        _ => Ok(()),
    }
}

/// Refuses a match of two searching bots whose tables (two per thread
/// playing) need more memory than the system has free.
pub fn check_match_tables(hash_mib: usize, threads: Option<usize>, games: usize) -> Result<()> {
    let threads = threads.unwrap_or_else(rayon::current_num_threads).min(games).max(1) as u64;
    check_memory(
        2 * threads * ((hash_mib as u64) << 20),
        &format!("--hash {hash_mib} for two bots on {threads} threads"),
    )
}

/// A thread pool of `threads` threads (default: one per core), never more
/// than there are units of work.
pub fn pool(threads: Option<usize>, work: u64) -> Result<rayon::ThreadPool> {
    let want = threads.unwrap_or_else(rayon::current_num_threads);
    let n = (want as u64).min(work.max(1)) as usize;
    rayon::ThreadPoolBuilder::new()
        .num_threads(n.max(1))
        .build()
        .map_err(|e| CliError(format!("cannot start {n} threads: {e}")))
}

/// The moment a command started: time limits count from it, so that
/// setting up (a large table) is part of the time asked for.
#[derive(Clone, Copy, Debug)]
pub struct Started(pub Instant);

impl Started {
    pub fn now() -> Started {
        Started(Instant::now())
    }

    /// What is left of `budget` counted from the start (at least a
    /// millisecond, so a search still finds a move).
    pub fn left(&self, budget: Duration) -> Duration {
        budget.saturating_sub(self.0.elapsed()).max(Duration::from_millis(1))
    }
}

#[cfg(test)]
mod tests {
    use super::parse_gib;

    #[test]
    fn memory_sizes_take_an_optional_unit() {
        for (s, g) in [("14", 14.0), ("14GiB", 14.0), ("0.5g", 0.5), ("22 GiB", 22.0), ("3G", 3.0)] {
            assert_eq!(parse_gib(s), Ok(g), "{s}");
        }
        for s in ["", "GiB", "14MiB", "14 GB", "0G", "-1GiB", "infGiB", "NaN"] {
            assert!(parse_gib(s).is_err(), "{s}");
        }
    }
}
