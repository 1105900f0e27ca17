//! The `ludus` command line. One module per subcommand; no game logic here.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod arena;
mod common;
mod error;
mod interrupt;
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
    bin_name = "ludus",
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
    report_failed_prints();
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        // Help and version go to standard output as clap writes them.
        Err(e) if !e.use_stderr() => {
            return match e.print() {
                Ok(()) => ExitCode::SUCCESS,
                // A reader that stopped early (`ludus --help | head -1`).
                Err(w) if w.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(w) => {
                    eprintln!("error: cannot write the output: {w}");
                    ExitCode::from(error::EXIT_FAILURE)
                }
            };
        }
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

/// Output that cannot be written (a full disk, `> /dev/full`) is an error
/// to report, not a crash: the panic the standard library raises for a
/// failed print ends the program with a message and exit code 2.
fn report_failed_prints() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let text =
            payload.downcast_ref::<String>().map(String::as_str).or_else(|| payload.downcast_ref::<&str>().copied());
        if let Some(text) = text {
            // A formatter error is a fault of the program's own, not of the
            // output: that one stays a panic.
            let why = text.strip_prefix("failed printing to stdout: ").filter(|w| *w != "formatter error");
            if let Some(why) = why {
                use std::io::Write;
                let _ = writeln!(std::io::stderr(), "error: cannot write the output: {why}");
                std::process::exit(error::EXIT_FAILURE.into());
            }
            if text.starts_with("failed printing to stderr") {
                std::process::exit(error::EXIT_FAILURE.into());
            }
        }
        default(info);
    }));
}

#[cfg(test)]
mod tests {
    use clap::{CommandFactory, ValueEnum};

    use super::Cli;

    /// Every command that runs (no subcommands of its own), with its words.
    fn leaves(cmd: &clap::Command, path: Vec<String>, out: &mut Vec<(Vec<String>, clap::Command)>) {
        if cmd.get_subcommands().next().is_none() {
            out.push((path, cmd.clone()));
            return;
        }
        for sub in cmd.get_subcommands() {
            let mut p = path.clone();
            p.push(sub.get_name().to_string());
            leaves(sub, p, out);
        }
    }

    fn commands() -> Vec<(Vec<String>, clap::Command)> {
        let mut out = Vec::new();
        leaves(&Cli::command(), Vec::new(), &mut out);
        out
    }

    /// The error of `ludus <path> <args>` (arguments only, nothing run).
    fn refusal(path: &[String], args: &[&str]) -> String {
        let mut words: Vec<String> = vec!["ludus".into()];
        words.extend(path.iter().cloned());
        words.extend(args.iter().map(|a| a.to_string()));
        match Cli::command().try_get_matches_from(&words) {
            Ok(_) => panic!("{words:?} is accepted"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn every_flag_has_help() {
        for (path, cmd) in commands() {
            for arg in cmd.get_arguments() {
                let id = arg.get_id().as_str();
                if id == "help" || id == "version" {
                    continue;
                }
                assert!(arg.get_help().is_some(), "ludus {} --{id} has no help", path.join(" "));
            }
        }
    }

    #[test]
    fn one_depth_hash_and_thread_vocabulary() {
        let (mut depths, mut hashes, mut threads) = (0, 0, 0);
        for (path, cmd) in commands() {
            let named = |id: &str| cmd.get_arguments().any(|a| a.get_id() == id && a.get_long() == Some(id));
            if named("depth") {
                depths += 1;
                for bad in ["0", "65"] {
                    let e = refusal(&path, &["--depth", bad]);
                    assert!(
                        e.contains(&format!("'{bad}' is not a search depth: a whole number of plies from 1 to 64")),
                        "{path:?}: {e}"
                    );
                }
            }
            if named("hash") {
                hashes += 1;
                let arg = cmd.get_arguments().find(|a| a.get_id() == "hash").unwrap();
                let default: Vec<_> = arg.get_default_values().iter().map(|v| v.to_string_lossy()).collect();
                assert_eq!(default, [crate::common::HASH_DEFAULT_MIB.to_string()], "{path:?}");
                let e = refusal(&path, &["--hash", "0"]);
                assert!(e.contains("'0' is not a table size: a whole number of MiB from 1 to"), "{path:?}: {e}");
            }
            if named("threads") {
                threads += 1;
                let e = refusal(&path, &["--threads", "0"]);
                assert!(e.contains("'0' is not a thread count"), "{path:?}: {e}");
            }
        }
        // analyse, play, bench, study, tune; analyse, play, study, arena;
        // perft, merels solve and verify, arena, study, tune, wibold simulate
        // and strategies.
        assert_eq!((depths, hashes, threads), (5, 4, 8));
    }

    #[test]
    fn commands_with_progress_can_be_quiet() {
        for words in [
            "merels solve",
            "merels verify",
            "merels probe",
            "arena",
            "rithmo study",
            "rithmo bench",
            "wibold simulate",
            "wibold strategies",
        ] {
            let path: Vec<String> = words.split(' ').map(String::from).collect();
            let (_, cmd) = commands().into_iter().find(|(p, _)| *p == path).expect(words);
            let quiet = cmd.get_arguments().find(|a| a.get_id() == "quiet");
            assert!(
                quiet.is_some_and(|q| q.get_short() == Some('q') && q.get_long() == Some("quiet")),
                "ludus {words} has no -q/--quiet"
            );
        }
    }

    #[test]
    fn named_choices_are_listed_with_their_defaults() {
        let choices =
            ["board", "dice", "blocked", "placement_mills", "game", "side", "rules", "scoring", "lineup", "claim"];
        let mut seen = 0;
        for (path, cmd) in commands() {
            // `replay --game K` is a game's index in a record, not a choice.
            let named = |a: &&clap::Arg| choices.contains(&a.get_id().as_str()) && path != ["replay"];
            for arg in cmd.get_arguments().filter(named) {
                let id = arg.get_id().as_str();
                seen += 1;
                assert!(!arg.get_possible_values().is_empty(), "ludus {} --{id} lists no choices", path.join(" "));
                // A choice that may be left out says what it is then.
                let help = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
                let required = arg.is_required_set() || path == ["arena"] && id == "board";
                assert!(
                    required || !arg.get_default_values().is_empty() || help.contains("[default:"),
                    "ludus {} --{id} shows no default",
                    path.join(" ")
                );
            }
        }
        assert!(seen >= 25, "{seen}");
    }

    #[test]
    fn rota_help_names_no_dice() {
        for (path, mut cmd) in commands().into_iter().filter(|(p, _)| p[0] == "rota") {
            let help = cmd.render_long_help().to_string().to_lowercase();
            for word in ["dice", "schaedler", "murray", "bell"] {
                assert!(!help.contains(word), "ludus {} --help mentions {word}:\n{help}", path.join(" "));
            }
        }
    }

    /// The command line's names are the engine's: parsing a choice's name
    /// gives the value whose name it is.
    #[test]
    fn choices_are_named_as_the_engine_names_them() {
        fn check<T: ValueEnum + std::str::FromStr + PartialEq + std::fmt::Debug>(name: impl Fn(&T) -> String) {
            for v in T::value_variants() {
                let shown = v.to_possible_value().expect("every value is shown").get_name().to_string();
                assert_eq!(shown, name(v), "{v:?}");
                assert!(shown.parse::<T>().ok().as_ref() == Some(v), "{shown}");
            }
        }
        use engine::merels::{Blocked, BoardKind, Dice, PlacementMills};
        check::<BoardKind>(|v| v.name().into());
        check::<Dice>(|v| v.name().into());
        check::<Blocked>(|v| v.name().into());
        check::<PlacementMills>(|v| v.name().into());
        check::<engine::rithmo::Preset>(|v| v.name().into());
        check::<engine::wibold::Rules>(|v| v.name().into());
        check::<engine::wibold::Scoring>(|v| v.name().into());
        check::<engine::wibold::Strategy>(|v| v.name().into());
        for side in engine::rithmo::Side::value_variants() {
            let shown = side.to_possible_value().unwrap().get_name().to_string();
            assert_eq!(shown, side.name().to_lowercase());
        }
    }
}
