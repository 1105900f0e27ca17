//! The `ludus` command line. One module per subcommand; no game logic here.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod arena;
mod error;
mod merels;
mod merels_args;
mod plot;
mod progress;
mod replay;
mod rithmo;
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
        Err(e) => e.exit(),
    };
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
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
