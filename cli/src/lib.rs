//! The `ludus` command line. One module per subcommand; no game logic here.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod arena;
mod common;
mod error;
mod merels;
mod merels_args;
mod plot;
mod progress;
mod replay;
mod rithmo;
mod rithmo_study;
mod rithmo_tune;
mod rota;
mod serve;
mod wibold;

pub use error::CliError;

/// ludus: engine and solver for the board games of the Middle Ages.
#[derive(Parser, Debug)]
#[command(
    name = "ludus",
    version,
    about = "ludus: engine and solver for the board games of the Middle Ages",
    long_about = None,
    propagate_version = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Rota, the Roman wheel game: solve it, probe and draw positions
    Rota(rota::RotaArgs),
    /// The merels family with and without dice: solve, probe, show
    Merels(merels::MerelsArgs),
    /// Rithmomachia, the battle of numbers: perft, analysis, play
    Rithmo(rithmo::RithmoArgs),
    /// Wibold's Ludus Regularis: exact analysis and simulation
    Wibold(wibold::WiboldArgs),
    /// Pit bots against each other in any game: a match, its report, its record
    Arena(Box<arena::ArenaArgs>),
    /// Step through one game of an arena record on the terminal board
    Replay(replay::ReplayArgs),
    /// A local web server: the merels explorer, the Rithmomachia analysis
    /// board and the match viewer in the browser, and their JSON API
    Serve(serve::ServeArgs),
}

/// Runs the command line and returns the process exit code: 0 on success,
/// 2 on bad input or a command that cannot run.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        // Help and version go to standard output as clap writes them.
        Err(e) if !e.use_stderr() => e.exit(),
        Err(e) => {
            eprint!("{}", error::printable(&e.render().to_string()));
            return ExitCode::from(error::EXIT_FAILURE);
        }
    };
    // A server writes to sockets that clients may close: there a closed
    // connection is an error to handle, not the end of the program.
    if !matches!(cli.command, Command::Serve(_)) {
        quiet_on_closed_pipe();
    }
    let result = match cli.command {
        Command::Rota(a) => rota::run(a),
        Command::Merels(a) => merels::run(a),
        Command::Rithmo(a) => rithmo::run(a),
        Command::Wibold(a) => wibold::run(a),
        Command::Arena(a) => arena::run(*a),
        Command::Replay(a) => replay::run(a),
        Command::Serve(a) => serve::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => ExitCode::from(error::report(&e)),
    }
}

/// A reader that stops early (`ludus rota solve | head -1`) ends the
/// program quietly, as it ends any Unix tool: the default action of
/// SIGPIPE, which the Rust runtime sets aside (and then every print would
/// panic on the closed pipe).
fn quiet_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: restoring a signal's default disposition at start-up, before
    // any thread of ours exists, races with nothing.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
