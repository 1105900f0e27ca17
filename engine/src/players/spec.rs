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

impl FromStr for Spec {
    type Err = String;

    fn from_str(s: &str) -> Result<Spec, String> {
        let s = s.trim();
        if s.is_empty() {
            return Err(format!("empty player spec (expected {EXPECTED})"));
        }
        let (name, params) = match s.split_once(':') {
            Some((n, p)) => (n, Some(p)),
            None => (s, None),
        };
        let mut pairs: Vec<(&str, &str)> = Vec::new();
        if let Some(p) = params {
            for item in p.split(',') {
                let (k, v) = item
                    .split_once('=')
                    .ok_or_else(|| format!("'{item}' in player '{s}' is not a parameter: write name=value"))?;
                let k = k.trim();
                if pairs.iter().any(|(q, _)| *q == k) {
                    return Err(format!("parameter '{k}' is given twice in player '{s}'"));
                }
                pairs.push((k, v.trim()));
            }
        }
        let known = |allowed: &[&str]| -> Result<(), String> {
            for (k, _) in &pairs {
                if !allowed.contains(k) {
                    return Err(if allowed.is_empty() {
                        format!("player '{name}' takes no parameters, but '{s}' gives '{k}'")
                    } else {
                        format!("unknown parameter '{k}' of player '{name}' in '{s}' (expected {})", allowed.join(", "))
                    });
                }
            }
            Ok(())
        };
        let number = |key: &str, min: u64, max: u64| -> Result<Option<u64>, String> {
            let Some((_, v)) = pairs.iter().find(|(k, _)| *k == key) else { return Ok(None) };
            let n: u64 = v.parse().map_err(|_| format!("{key} '{v}' in player '{s}' is not a whole number"))?;
            if n < min || n > max {
                return Err(format!("{key}={n} in player '{s}' is out of range: choose from {min} to {max}"));
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
                    .map(|(_, v)| parse_depth(v).map_err(|e| format!("{e} (in player '{s}')")))
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
            other => Err(format!("unknown player '{other}' (expected {EXPECTED})")),
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
        assert!(err("alphabeta:depht=3").contains("unknown parameter 'depht'"), "{}", err("alphabeta:depht=3"));
        assert!(err("mcts:playouts=0").contains("playouts=0"));
        assert!(err("mcts:playouts=many").contains("not a whole number"));
        assert!(err("random:depth=2").contains("takes no parameters"));
        assert!(err("minimax").contains("unknown player 'minimax'"));
        assert!(err("alphabeta:depth").contains("name=value"));
        assert!(err("alphabeta:depth=2,depth=3").contains("twice"));
        assert!(err("").contains("empty"));
        for bad in ["0", "65", "x", "-1"] {
            let e = err(&format!("alphabeta:depth={bad}"));
            assert!(e.starts_with(&parse_depth(bad).unwrap_err().to_string()), "{e}");
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
