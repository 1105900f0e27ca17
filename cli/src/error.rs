//! The error every command returns, and the one place where errors become
//! messages and exit codes: 0 on success, 2 on bad input or a command that
//! cannot run. The library's typed errors convert into [`CliError`] here.

use std::fmt;

#[derive(Debug)]
pub struct CliError(pub String);

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CliError {}

impl From<String> for CliError {
    fn from(s: String) -> CliError {
        CliError(s)
    }
}

impl From<&str> for CliError {
    fn from(s: &str) -> CliError {
        CliError(s.to_string())
    }
}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> CliError {
        CliError(e.to_string())
    }
}

/// Calls `$apply!` with every typed error of the library a command can
/// meet, each shown by its own `Display`: the one list, for the command
/// line ([`CliError`]) and the web server (its `ApiError`).
macro_rules! library_errors {
    ($apply:ident) => {
        $apply!(
            engine::file::WriteError,
            engine::rithmo::MoveError,
            engine::rithmo::ParseMoveError,
            engine::rithmo::ParseSquareError,
            engine::rithmo::ParseVictoryError,
            engine::rithmo::ParseRfenError,
            engine::rithmo::TableTooLarge,
            engine::merels::MoveError,
            engine::merels::ParsePositionError,
            engine::merels::RulesError,
            engine::names::UnknownName,
            engine::players::DepthError,
            engine::players::ParseSpecError,
            engine::players::NeedsSolver,
            engine::wibold::PlayersError,
            engine::wibold::ParseRollError,
            engine::wibold::UnknownVirtue,
            engine::arena::SprtError,
            engine::arena::MatchError,
            solver::merels::SolveError,
            serde_json::Error,
        );
    };
}
pub(crate) use library_errors;

macro_rules! from_display {
    ($($t:ty),* $(,)?) => {$(
        impl From<$t> for CliError {
            fn from(e: $t) -> CliError {
                CliError(e.to_string())
            }
        }
    )*};
}

library_errors!(from_display);

pub type Result<T> = std::result::Result<T, CliError>;

/// The exit code of a command that failed.
pub const EXIT_FAILURE: u8 = 2;

/// The longest run of characters without a space an error message shows
/// whole: longer input is cut, its length said.
const LONGEST_TOKEN: usize = 80;

/// An error message made safe for a terminal: control characters (escape
/// sequences among them) written as escapes, and any run of more than
/// [`LONGEST_TOKEN`] characters without a space cut short.
pub fn printable(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(4096));
    for (i, line) in message.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        for (j, word) in line.split(' ').enumerate() {
            if j > 0 {
                out.push(' ');
            }
            let n = word.chars().count();
            let shown: String =
                if n > LONGEST_TOKEN { word.chars().take(LONGEST_TOKEN / 2).collect() } else { word.into() };
            for c in shown.chars() {
                if c.is_control() && c != '\t' {
                    out.extend(c.escape_default());
                } else {
                    out.push(c);
                }
            }
            if n > LONGEST_TOKEN {
                out.push_str(&format!("… ({n} characters)"));
            }
        }
    }
    out
}

/// Prints a failed command's error on standard error and gives its exit code.
pub fn report(e: &CliError) -> u8 {
    eprintln!("error: {}", printable(&e.0));
    EXIT_FAILURE
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_escape_control_characters_and_cut_long_tokens() {
        assert_eq!(printable("plain words\nsecond line"), "plain words\nsecond line");
        assert_eq!(printable("bad \u{1b}[31mred"), "bad \\u{1b}[31mred");
        let long = "x".repeat(60_000);
        let shown = printable(&format!("'{long}' is not a move"));
        assert!(shown.len() < 200, "{shown}");
        assert!(shown.contains("(60002 characters)") && shown.ends_with("is not a move"), "{shown}");
    }
}
