//! The notation of players: `random`, `greedy`, `alphabeta:depth=4`,
//! `alphabeta:movetime=100`, `mcts:playouts=1000`, `perfect`; parameters are
//! `name=value` pairs joined by commas (`alphabeta:depth=6,movetime=500`).

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// How far a search may go: a depth in plies, a time per move, or both
/// (whichever comes first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    pub depth: Option<u32>,
    pub movetime: Option<Duration>,
}

/// A player named in notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spec {
    Random,
    /// An immediate win, else the biggest capture, else at random.
    Greedy,
    AlphaBeta(Limit),
    /// `playouts` per move; a playout stops after `length` plies and is
    /// scored by the heuristic.
    Mcts {
        playouts: u32,
        length: u32,
    },
    /// The solver's best action.
    Perfect,
}

impl Spec {
    pub const DEFAULT_DEPTH: u32 = 4;
    pub const MAX_DEPTH: u32 = 64;
    pub const DEFAULT_PLAYOUTS: u32 = 1000;
    pub const DEFAULT_LENGTH: u32 = 200;

    /// Whether its choices depend on the clock (then a match is not exactly
    /// reproducible).
    pub fn uses_time(&self) -> bool {
        matches!(self, Spec::AlphaBeta(Limit { movetime: Some(_), .. }))
    }
}

/// A search depth that cannot be used: not a whole number of plies from 1
/// to [`Spec::MAX_DEPTH`]. The text given is kept to be shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DepthError(pub String);

impl fmt::Display for DepthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a search depth: a whole number of plies from 1 to {}", self.0, Spec::MAX_DEPTH)
    }
}

impl std::error::Error for DepthError {}

/// Reads a search depth: the one bound every search of ludus takes.
pub fn parse_depth(text: &str) -> Result<u32, DepthError> {
    match text.trim().parse::<u32>() {
        Ok(d) if (1..=Spec::MAX_DEPTH).contains(&d) => Ok(d),
        _ => Err(DepthError(text.to_string())),
    }
}

const EXPECTED: &str = "random, greedy, alphabeta:depth=N, alphabeta:movetime=MS, mcts:playouts=N or perfect";

/// A player spec that cannot be read: the spec given and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSpecError {
    pub spec: String,
    pub problem: SpecProblem,
}

/// What is wrong with a player spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecProblem {
    /// Nothing given.
    Empty,
    /// The name is no player's.
    UnknownPlayer(String),
    /// An item after `:` is not `name=value`.
    NotAParameter(String),
    /// A parameter given twice.
    Twice(String),
    /// A parameter the player does not take (`allowed` are the ones it takes).
    UnknownParameter { player: String, key: String, allowed: &'static [&'static str] },
    /// A parameter's value is not a whole number.
    NotANumber { key: String, value: String },
    /// A parameter's value is out of its range.
    OutOfRange { key: String, value: u64, min: u64, max: u64 },
    /// The depth is not a search depth.
    Depth(DepthError),
}

impl fmt::Display for ParseSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &self.spec;
        match &self.problem {
            SpecProblem::Empty => write!(f, "empty player spec (expected {EXPECTED})"),
            SpecProblem::UnknownPlayer(name) => write!(f, "unknown player '{name}' (expected {EXPECTED})"),
            SpecProblem::NotAParameter(item) => {
                write!(f, "'{item}' in player '{s}' is not a parameter: write name=value")
            }
            SpecProblem::Twice(key) => write!(f, "parameter '{key}' is given twice in player '{s}'"),
            SpecProblem::UnknownParameter { player, key, allowed: [] } => {
                write!(f, "player '{player}' takes no parameters, but '{s}' gives '{key}'")
            }
            SpecProblem::UnknownParameter { player, key, allowed } => {
                write!(f, "unknown parameter '{key}' of player '{player}' in '{s}' (expected {})", allowed.join(", "))
            }
            SpecProblem::NotANumber { key, value } => {
                write!(f, "{key} '{value}' in player '{s}' is not a whole number")
            }
            SpecProblem::OutOfRange { key, value, min, max } => {
                write!(f, "{key}={value} in player '{s}' is out of range: choose from {min} to {max}")
            }
            SpecProblem::Depth(e) => write!(f, "{e} (in player '{s}')"),
        }
    }
}

impl std::error::Error for ParseSpecError {}

impl FromStr for Spec {
    type Err = ParseSpecError;

    fn from_str(s: &str) -> Result<Spec, ParseSpecError> {
        let s = s.trim();
        let wrong = |problem| ParseSpecError { spec: s.to_string(), problem };
        if s.is_empty() {
            return Err(wrong(SpecProblem::Empty));
        }
        let (name, params) = match s.split_once(':') {
            Some((n, p)) => (n, Some(p)),
            None => (s, None),
        };
        let mut pairs: Vec<(&str, &str)> = Vec::new();
        if let Some(p) = params {
            for item in p.split(',') {
                let (k, v) = item.split_once('=').ok_or_else(|| wrong(SpecProblem::NotAParameter(item.into())))?;
                let k = k.trim();
                if pairs.iter().any(|(q, _)| *q == k) {
                    return Err(wrong(SpecProblem::Twice(k.into())));
                }
                pairs.push((k, v.trim()));
            }
        }
        let known = |allowed: &'static [&'static str]| -> Result<(), ParseSpecError> {
            match pairs.iter().find(|(k, _)| !allowed.contains(k)) {
                Some((k, _)) => {
                    Err(wrong(SpecProblem::UnknownParameter { player: name.into(), key: (*k).into(), allowed }))
                }
                None => Ok(()),
            }
        };
        let number = |key: &str, min: u64, max: u64| -> Result<Option<u64>, ParseSpecError> {
            let Some((_, v)) = pairs.iter().find(|(k, _)| *k == key) else { return Ok(None) };
            let n: u64 =
                v.parse().map_err(|_| wrong(SpecProblem::NotANumber { key: key.into(), value: (*v).into() }))?;
            if n < min || n > max {
                return Err(wrong(SpecProblem::OutOfRange { key: key.into(), value: n, min, max }));
            }
            Ok(Some(n))
        };
        match name {
            "random" => {
                known(&[])?;
                Ok(Spec::Random)
            }
            "greedy" => {
                known(&[])?;
                Ok(Spec::Greedy)
            }
            "perfect" => {
                known(&[])?;
                Ok(Spec::Perfect)
            }
            "alphabeta" => {
                known(&["depth", "movetime"])?;
                let depth = pairs
                    .iter()
                    .find(|(k, _)| *k == "depth")
                    .map(|(_, v)| parse_depth(v).map_err(|e| wrong(SpecProblem::Depth(e))))
                    .transpose()?;
                let movetime = number("movetime", 1, 3_600_000)?.map(Duration::from_millis);
                let depth = if depth.is_none() && movetime.is_none() { Some(Spec::DEFAULT_DEPTH) } else { depth };
                Ok(Spec::AlphaBeta(Limit { depth, movetime }))
            }
            "mcts" => {
                known(&["playouts", "length"])?;
                let playouts = number("playouts", 1, 100_000_000)?.unwrap_or(Spec::DEFAULT_PLAYOUTS as u64) as u32;
                let length = number("length", 1, 1_000_000)?.unwrap_or(Spec::DEFAULT_LENGTH as u64) as u32;
                Ok(Spec::Mcts { playouts, length })
            }
            other => Err(wrong(SpecProblem::UnknownPlayer(other.into()))),
        }
    }
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Spec::Random => f.write_str("random"),
            Spec::Greedy => f.write_str("greedy"),
            Spec::Perfect => f.write_str("perfect"),
            Spec::AlphaBeta(Limit { depth, movetime }) => {
                let mut parts = Vec::new();
                if let Some(d) = depth {
                    parts.push(format!("depth={d}"));
                }
                if let Some(t) = movetime {
                    parts.push(format!("movetime={}", t.as_millis()));
                }
                write!(f, "alphabeta:{}", parts.join(","))
            }
            Spec::Mcts { playouts, length } => {
                write!(f, "mcts:playouts={playouts}")?;
                if length != Spec::DEFAULT_LENGTH {
                    write!(f, ",length={length}")?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_round_trip() {
        for s in [
            "random",
            "greedy",
            "perfect",
            "alphabeta:depth=4",
            "alphabeta:movetime=100",
            "alphabeta:depth=6,movetime=250",
            "mcts:playouts=1000",
            "mcts:playouts=50,length=30",
        ] {
            let spec: Spec = s.parse().unwrap();
            assert_eq!(spec.to_string(), s);
        }
        assert_eq!("alphabeta".parse::<Spec>().unwrap().to_string(), "alphabeta:depth=4");
        assert_eq!("mcts".parse::<Spec>().unwrap().to_string(), "mcts:playouts=1000");
    }

    #[test]
    fn errors_name_the_problem() {
        let err = |s: &str| s.parse::<Spec>().unwrap_err();
        let problem = |s: &str| err(s).problem;
        assert!(
            err("alphabeta:depht=3").to_string().contains("unknown parameter 'depht'"),
            "{}",
            err("alphabeta:depht=3")
        );
        assert_eq!(
            problem("alphabeta:depht=3"),
            SpecProblem::UnknownParameter {
                player: "alphabeta".into(),
                key: "depht".into(),
                allowed: &["depth", "movetime"]
            }
        );
        assert_eq!(
            problem("mcts:playouts=0"),
            SpecProblem::OutOfRange { key: "playouts".into(), value: 0, min: 1, max: 100_000_000 }
        );
        assert!(err("mcts:playouts=0").to_string().contains("playouts=0"));
        assert_eq!(
            problem("mcts:playouts=many"),
            SpecProblem::NotANumber { key: "playouts".into(), value: "many".into() }
        );
        assert!(err("mcts:playouts=many").to_string().contains("not a whole number"));
        assert!(err("random:depth=2").to_string().contains("takes no parameters"));
        assert_eq!(problem("minimax"), SpecProblem::UnknownPlayer("minimax".into()));
        assert!(err("minimax").to_string().contains("unknown player 'minimax'"));
        assert_eq!(problem("alphabeta:depth"), SpecProblem::NotAParameter("depth".into()));
        assert!(err("alphabeta:depth").to_string().contains("name=value"));
        assert_eq!(problem("alphabeta:depth=2,depth=3"), SpecProblem::Twice("depth".into()));
        assert_eq!(problem(" "), SpecProblem::Empty);
        assert!(err("").to_string().contains("empty"));
        for bad in ["0", "65", "x", "-1"] {
            let e = err(&format!("alphabeta:depth={bad}"));
            assert_eq!(e.problem, SpecProblem::Depth(parse_depth(bad).unwrap_err()));
            assert!(e.to_string().starts_with(&parse_depth(bad).unwrap_err().to_string()), "{e}");
        }
    }

    #[test]
    fn one_depth_bound() {
        assert_eq!(parse_depth("1"), Ok(1));
        assert_eq!(parse_depth(&Spec::MAX_DEPTH.to_string()), Ok(Spec::MAX_DEPTH));
        let e = parse_depth("65").unwrap_err().to_string();
        assert!(e.contains("'65' is not a search depth") && e.contains("from 1 to 64"), "{e}");
    }
}
