//! Signals as requests to stop: a long solve asked to stop by Ctrl-C
//! (SIGINT) or by a job system (SIGTERM) saves its progress at its next
//! chance and ends, so that the same command resumes it; a second signal
//! ends the program at once, as a plain one would have.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use solver::merels::{Interrupt, Observer};

use crate::error::Result;

/// How often the watcher looks whether a signal came.
const WATCH: Duration = Duration::from_millis(100);

/// Runs `work` with SIGINT and SIGTERM turned into `interrupt`'s request
/// (and a note on `obs` when it comes); afterwards the signals end the
/// program at once again (exit code 128 plus the signal's number).
pub fn on_signals<T: Send>(
    interrupt: &Interrupt,
    obs: &(dyn Observer + Sync),
    work: impl FnOnce() -> T + Send,
) -> Result<T> {
    let again = register(interrupt)?;
    let done = AtomicBool::new(false);
    let out = std::thread::scope(|s| {
        s.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                if let Some(why) = interrupt.requested() {
                    obs.note(&format!(
                        "{}: saving the progress at the next chance, then stopping (the same command resumes; a \
                         second signal ends at once, unsaved)",
                        signal_name(why)
                    ));
                    return;
                }
                std::thread::sleep(WATCH);
            }
        });
        let out = work();
        done.store(true, Ordering::Relaxed);
        out
    });
    again.store(true, Ordering::Relaxed);
    Ok(out)
}

/// The exit code of a solve stopped by request `why`: 128 plus the signal's
/// number, as the shell reports a program a signal ended.
pub fn exit_code(why: usize) -> i32 {
    128 + i32::try_from(why).unwrap_or(0)
}

/// What asked the solve to stop, for messages.
pub fn signal_name(why: usize) -> String {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGINT, SIGTERM};
        match i32::try_from(why) {
            Ok(SIGINT) => return "interrupted (SIGINT)".into(),
            Ok(SIGTERM) => return "asked to stop (SIGTERM)".into(),
            _ => {}
        }
    }
    format!("asked to stop ({why})")
}

/// Registers the handlers; the flag returned, once set, makes the next
/// signal end the program (a second signal sets it).
#[cfg(unix)]
fn register(interrupt: &Interrupt) -> Result<std::sync::Arc<AtomicBool>> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    use signal_hook::flag;
    let again = std::sync::Arc::new(AtomicBool::new(false));
    for sig in [SIGINT, SIGTERM] {
        // The handlers run in the order registered: the first signal finds
        // `again` unset and sets it, the second ends the program.
        flag::register_conditional_shutdown(sig, 128 + sig, again.clone())?;
        flag::register(sig, again.clone())?;
        flag::register_usize(sig, interrupt.word(), sig as usize)?;
    }
    Ok(again)
}

#[cfg(not(unix))]
fn register(_: &Interrupt) -> Result<std::sync::Arc<AtomicBool>> {
    Ok(Default::default())
}
