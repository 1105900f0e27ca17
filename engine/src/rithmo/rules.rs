//! The rules value: every rule that varies between the historical sources is
//! a plain field; presets are constructors; [`RuleSet::conclude`] derives
//! what the move generator reads.

use std::fmt;
use std::str::FromStr;

use super::piece::Shape;
use crate::names::UnknownName;

/// What wins the game, checked after the mover's turn over the men it has
/// captured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Victory {
    /// `body:N`: N men captured.
    Body(u32),
    /// `goods:V`: captured values sum to at least V.
    Goods(u32),
    /// `lawsuit:V:N`: at least V in value with exactly N men.
    Lawsuit(u32, u32),
    /// `honor:V:N`: exactly V with exactly N men.
    Honor(u32, u32),
    /// `honor-lawsuit:V:N:D`: exactly V, N men, D decimal digits in all.
    HonorLawsuit(u32, u32, u32),
    /// The enemy pyramid wholly captured and three of one's pieces in
    /// progression on a line in the enemy half.
    Great,
    /// As great, with four pieces whose values form two kinds of progression.
    Greater,
    /// As great, with four pieces forming all three kinds.
    Excellent,
}

impl fmt::Display for Victory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Victory::Body(n) => write!(f, "body:{n}"),
            Victory::Goods(v) => write!(f, "goods:{v}"),
            Victory::Lawsuit(v, n) => write!(f, "lawsuit:{v}:{n}"),
            Victory::Honor(v, n) => write!(f, "honor:{v}:{n}"),
            Victory::HonorLawsuit(v, n, d) => write!(f, "honor-lawsuit:{v}:{n}:{d}"),
            Victory::Great => write!(f, "great"),
            Victory::Greater => write!(f, "greater"),
            Victory::Excellent => write!(f, "excellent"),
        }
    }
}

/// Text that is not a victory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseVictoryError {
    /// The name before the first `:` is no victory's.
    Unknown(UnknownName),
    /// The victory takes `takes` numbers, and `text` gives another count.
    Numbers { text: String, takes: usize },
    /// A number is not a whole number from 1 up.
    NotANumber { text: String, number: String },
}

impl fmt::Display for ParseVictoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseVictoryError::Unknown(e) => write!(
                f,
                "unknown victory '{}' (expected body:N, goods:V, lawsuit:V:N, honor:V:N, honor-lawsuit:V:N:D, great, \
                 greater or excellent)",
                e.given
            ),
            ParseVictoryError::Numbers { text, takes } => write!(f, "victory '{text}' takes {takes} number(s)"),
            ParseVictoryError::NotANumber { text, number } => {
                write!(f, "'{number}' in victory '{text}' is not a number from 1 up")
            }
        }
    }
}

impl std::error::Error for ParseVictoryError {}

impl Victory {
    /// The names of the victories, each followed by its numbers.
    const NAMES: [(&'static str, usize); 8] = [
        ("body", 1),
        ("goods", 1),
        ("lawsuit", 2),
        ("honor", 2),
        ("honor-lawsuit", 3),
        ("great", 0),
        ("greater", 0),
        ("excellent", 0),
    ];
}

impl FromStr for Victory {
    type Err = ParseVictoryError;
    fn from_str(s: &str) -> Result<Victory, ParseVictoryError> {
        let parts: Vec<&str> = s.split(':').collect();
        let (name, takes) = crate::names::parse_name(parts[0], "victory", &Victory::NAMES, |(n, _)| n)
            .map_err(ParseVictoryError::Unknown)?;
        if parts.len() != takes + 1 {
            return Err(ParseVictoryError::Numbers { text: s.to_string(), takes });
        }
        let mut n = [0u32; 3];
        for (i, part) in parts[1..].iter().enumerate() {
            n[i] = part
                .parse::<u32>()
                .ok()
                .filter(|&v| v > 0)
                .ok_or_else(|| ParseVictoryError::NotANumber { text: s.to_string(), number: part.to_string() })?;
        }
        Ok(match name {
            "body" => Victory::Body(n[0]),
            "goods" => Victory::Goods(n[0]),
            "lawsuit" => Victory::Lawsuit(n[0], n[1]),
            "honor" => Victory::Honor(n[0], n[1]),
            "honor-lawsuit" => Victory::HonorLawsuit(n[0], n[1], n[2]),
            "great" => Victory::Great,
            "greater" => Victory::Greater,
            _ => Victory::Excellent,
        })
    }
}

impl serde::Serialize for Victory {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Victory {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Victory, D::Error> {
        let text = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// A rule set as data: its preset and its victory (the other rules are the
/// preset's; no other rule set can be written).
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleSetRecord {
    preset: String,
    victory: Victory,
}

impl serde::Serialize for RuleSet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let preset = RuleSet::preset(self.name).map_err(serde::ser::Error::custom)?;
        if preset.with_victory(self.victory) != *self {
            return Err(serde::ser::Error::custom(format!(
                "the rules differ from the preset '{}' in more than the victory",
                self.name
            )));
        }
        serde::Serialize::serialize(&RuleSetRecord { preset: self.name.to_string(), victory: self.victory }, s)
    }
}

impl<'de> serde::Deserialize<'de> for RuleSet {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<RuleSet, D::Error> {
        let r = <RuleSetRecord as serde::Deserialize>::deserialize(d)?;
        Ok(RuleSet::preset(&r.preset).map_err(serde::de::Error::custom)?.with_victory(r.victory))
    }
}

/// All the rules of one way of playing. In JSON: `{"preset": "common",
/// "victory": "body:15"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RuleSet {
    pub name: &'static str,
    /// Squares moved by circle, triangle, square, pyramid.
    pub distance: [u8; 4],
    pub encounter: bool,
    pub sally: bool,
    pub ambush: bool,
    pub siege: bool,
    /// Fewest empty squares between attacker and target for a sally.
    pub sally_min_between: u8,
    /// A pyramid attacks with its original total while it has all layers.
    pub pyramid_attacks_with_total: bool,
    /// A pyramid's bottom layer may be struck while it has two or more.
    pub pyramid_strikes: bool,
    pub victory: Victory,
    /// A side with no legal move loses.
    pub no_move_loses: bool,
    /// Plies without capture, strike or siege that draw (0: never).
    pub quiet_plies_draw: u16,
    /// Occurrences of a position that draw (0: never).
    pub repetitions_draw: u8,
    /// Derived: the distinct move distances, longest first.
    pub distances: [u8; 4],
    pub n_distances: u8,
    /// Derived: for each distance, the shapes that move that far (bit per
    /// shape).
    pub shapes_at: [u8; 4],
}

/// The rules presets, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Preset {
    /// The most common rules (Necek 1998), as the spec fixes them
    Common,
}

impl Preset {
    pub const ALL: [Preset; 1] = [Preset::Common];

    pub const fn name(self) -> &'static str {
        match self {
            Preset::Common => "common",
        }
    }

    pub fn rules(self) -> RuleSet {
        match self {
            Preset::Common => RuleSet::common(),
        }
    }
}

impl FromStr for Preset {
    type Err = crate::names::UnknownName;
    fn from_str(s: &str) -> Result<Preset, Self::Err> {
        crate::names::parse_name(s, "rules preset", &Preset::ALL, Preset::name)
    }
}

impl RuleSet {
    /// The most common rules (Necek 1998), as fixed by the spec.
    pub fn common() -> RuleSet {
        RuleSet {
            name: "common",
            distance: [1, 2, 3, 3],
            encounter: true,
            sally: true,
            ambush: true,
            siege: true,
            sally_min_between: 2,
            pyramid_attacks_with_total: true,
            pyramid_strikes: true,
            victory: Victory::Body(15),
            no_move_loses: true,
            quiet_plies_draw: 100,
            repetitions_draw: 3,
            distances: [0; 4],
            n_distances: 0,
            shapes_at: [0; 4],
        }
        .conclude()
    }

    /// A preset by name.
    pub fn preset(name: &str) -> Result<RuleSet, UnknownName> {
        name.parse::<Preset>().map(Preset::rules)
    }

    /// Derives the flags the move generator reads. Distances are 1 to 4.
    pub fn conclude(mut self) -> RuleSet {
        assert!(self.distance.iter().all(|&k| (1..=4).contains(&k)), "move distances must lie between 1 and 4");
        assert!(self.sally_min_between >= 2, "a sally needs at least two empty squares between");
        let mut d: Vec<u8> = self.distance.to_vec();
        d.sort_unstable_by(|a, b| b.cmp(a));
        d.dedup();
        self.n_distances = d.len() as u8;
        self.distances = [0; 4];
        self.distances[..d.len()].copy_from_slice(&d);
        for (j, &k) in d.iter().enumerate() {
            self.shapes_at[j] =
                Shape::ALL.iter().filter(|s| self.distance[s.index()] == k).fold(0, |m, s| m | 1 << s.index());
        }
        self
    }

    #[inline(always)]
    pub fn distance(&self, shape: Shape) -> u8 {
        self.distance[shape.index()]
    }

    pub fn with_victory(mut self, v: Victory) -> RuleSet {
        self.victory = v;
        self
    }

    /// The longest regular move.
    #[inline]
    pub fn max_distance(&self) -> u8 {
        self.distances[0]
    }
}
