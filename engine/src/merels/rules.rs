//! The rules value: every option of the spec as a plain field, with the
//! defaults of each board and dice reading set by one constructor.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::board::{Board, BoardKind};
use crate::names::{UnknownName, parse_name};

/// How dice are used (the readings of Alfonso's text).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Dice {
    /// No dice.
    None,
    /// Placement without dice and without mills; in movement a special throw
    /// lets a man leap to any empty point where it closes a mill.
    Schaedler,
    /// Dice during placement: a special throw places a whole line at once.
    Murray,
    /// Dice during placement: a special throw also removes an enemy man
    /// standing in a mill.
    Bell,
}

impl Dice {
    pub const ALL: [Dice; 4] = [Dice::None, Dice::Schaedler, Dice::Murray, Dice::Bell];
    pub const fn name(self) -> &'static str {
        match self {
            Dice::None => "none",
            Dice::Schaedler => "schaedler",
            Dice::Murray => "murray",
            Dice::Bell => "bell",
        }
    }
}

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Dice {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, UnknownName> {
        parse_name(s, "dice reading", &Dice::ALL, Dice::name)
    }
}

/// What happens to a player who has no legal move on his turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Blocked {
    /// He loses (the spec's default).
    Lose,
    /// He passes and the other player moves again.
    Pass,
    /// The game is drawn.
    Draw,
}

impl Blocked {
    pub const ALL: [Blocked; 3] = [Blocked::Lose, Blocked::Pass, Blocked::Draw];

    pub const fn name(self) -> &'static str {
        match self {
            Blocked::Lose => "lose",
            Blocked::Pass => "pass",
            Blocked::Draw => "draw",
        }
    }
}

impl FromStr for Blocked {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, UnknownName> {
        parse_name(s, "blocked rule", &Blocked::ALL, Blocked::name)
    }
}

/// Whether lines closed while placing count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum PlacementMills {
    /// A placed man closing a line counts as any closed line: it wins on the
    /// boards with three men and removes enemy men on the others.
    Count,
    /// A placement that would close a line is illegal, unless every empty
    /// point would close one: then the man is placed and nothing follows.
    Forbidden,
}

impl PlacementMills {
    pub const ALL: [PlacementMills; 2] = [PlacementMills::Count, PlacementMills::Forbidden];

    pub const fn name(self) -> &'static str {
        match self {
            PlacementMills::Count => "count",
            PlacementMills::Forbidden => "forbidden",
        }
    }
}

impl FromStr for PlacementMills {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, UnknownName> {
        parse_name(s, "placement-mills rule", &PlacementMills::ALL, PlacementMills::name)
    }
}

/// Rules that cannot be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RulesError {
    /// Diagonals asked for on a board other than `three`.
    Diagonals(BoardKind),
    /// A special throw more likely than certain (in 72nds).
    Special72(u8),
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::Diagonals(kind) => write!(f, "diagonals are an option of the three board, not {kind}"),
            RulesError::Special72(n) => write!(f, "a special throw of {n} in 72: at most 72"),
        }
    }
}

impl std::error::Error for RulesError {}

/// The complete rules of one game of the family. In JSON every field is
/// written by name (`{"board": "three", "diagonals": true, "dice": "none",
/// ...}`), and reading refuses rules that cannot be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "RulesRecord", try_from = "RulesRecord")]
pub struct Rules {
    pub board: &'static Board,
    pub dice: Dice,
    /// With exactly three men left (and none in hand) a man may move to any
    /// empty point.
    pub flying: bool,
    /// A man standing in a mill may be taken only when all enemy men are in
    /// mills.
    pub no_take_from_mills: bool,
    /// A move closing two mills at once removes one man, not two.
    pub double_mill_one: bool,
    pub placement_mills: PlacementMills,
    pub blocked: Blocked,
    /// Probability of a special throw, in 72nds (5 with real dice: 15 of the
    /// 216 outcomes). Other values exist for cross-checks.
    pub special_72: u8,
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.kind == other.kind && self.diagonals == other.diagonals
    }
}
impl Eq for Board {}
impl std::hash::Hash for Board {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.kind.hash(state);
        self.diagonals.hash(state);
    }
}

/// Special throws among the 216 outcomes of three dice: 6-5-4, 6-3-3, 5-2-2
/// and 4-1-1 in any order.
pub fn special_throw_count() -> u32 {
    let specials = [[4, 5, 6], [3, 3, 6], [2, 2, 5], [1, 1, 4]];
    let mut n = 0;
    for a in 1..=6 {
        for b in 1..=6 {
            for c in 1..=6 {
                let mut t = [a, b, c];
                t.sort_unstable();
                if specials.contains(&t) {
                    n += 1;
                }
            }
        }
    }
    n
}

impl Rules {
    /// The defaults of the spec for a board and a dice reading.
    pub fn new(kind: BoardKind, dice: Dice) -> Rules {
        Rules {
            board: Board::get(kind, false),
            dice,
            flying: false,
            no_take_from_mills: false,
            double_mill_one: false,
            placement_mills: if dice == Dice::Schaedler { PlacementMills::Forbidden } else { PlacementMills::Count },
            blocked: Blocked::Lose,
            special_72: 5,
        }
    }

    /// Rota as the seed describes it.
    pub fn rota() -> Rules {
        Rules::new(BoardKind::Rota, Dice::None)
    }

    /// The same rules with or without diagonals, refusing diagonals on a
    /// board other than `three` (the only one that has them).
    pub fn with_diagonals(mut self, on: bool) -> Result<Rules, RulesError> {
        if on && self.board.kind != BoardKind::Three {
            return Err(RulesError::Diagonals(self.board.kind));
        }
        self.board = Board::get(self.board.kind, on);
        Ok(self)
    }

    /// The same rules with a special throw of `n` in 72, refusing more than
    /// 72.
    pub fn try_with_special_72(mut self, n: u8) -> Result<Rules, RulesError> {
        if n > 72 {
            return Err(RulesError::Special72(n));
        }
        self.special_72 = n;
        Ok(self)
    }

    /// Men each side starts with.
    #[inline]
    pub fn men(&self) -> u8 {
        self.board.men()
    }

    /// Whether dice are thrown in placement turns.
    #[inline]
    pub fn dice_in_placement(&self) -> bool {
        matches!(self.dice, Dice::Murray | Dice::Bell)
    }

    /// Whether dice are thrown in movement turns.
    #[inline]
    pub fn dice_in_movement(&self) -> bool {
        self.dice == Dice::Schaedler
    }

    /// Probability of a special throw.
    pub fn special_probability(&self) -> f64 {
        self.special_72 as f64 / 72.0
    }

    /// A short label of everything that differs from the defaults, used in
    /// reports and database headers: `nine/schaedler+flying`.
    pub fn label(&self) -> String {
        let mut s = format!("{}/{}", self.board.label(), self.dice);
        let d = Rules::new(self.board.kind, self.dice);
        if self.flying {
            s.push_str("+flying");
        }
        if self.no_take_from_mills {
            s.push_str("+no-take-from-mills");
        }
        if self.double_mill_one {
            s.push_str("+double-mill-one");
        }
        if self.placement_mills != d.placement_mills {
            s.push_str(&format!("+placement-mills={}", self.placement_mills.name()));
        }
        if self.blocked != d.blocked {
            s.push_str(&format!("+blocked={}", self.blocked.name()));
        }
        if self.special_72 != d.special_72 {
            s.push_str(&format!("+special={}/72", self.special_72));
        }
        s
    }
}

/// The rules as plain data, for serde.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesRecord {
    board: BoardKind,
    diagonals: bool,
    dice: Dice,
    flying: bool,
    no_take_from_mills: bool,
    double_mill_one: bool,
    placement_mills: PlacementMills,
    blocked: Blocked,
    special_72: u8,
}

impl From<Rules> for RulesRecord {
    fn from(r: Rules) -> RulesRecord {
        RulesRecord {
            board: r.board.kind,
            diagonals: r.board.diagonals,
            dice: r.dice,
            flying: r.flying,
            no_take_from_mills: r.no_take_from_mills,
            double_mill_one: r.double_mill_one,
            placement_mills: r.placement_mills,
            blocked: r.blocked,
            special_72: r.special_72,
        }
    }
}

impl TryFrom<RulesRecord> for Rules {
    type Error = RulesError;
    fn try_from(r: RulesRecord) -> Result<Rules, RulesError> {
        let rules = Rules {
            flying: r.flying,
            no_take_from_mills: r.no_take_from_mills,
            double_mill_one: r.double_mill_one,
            placement_mills: r.placement_mills,
            blocked: r.blocked,
            ..Rules::new(r.board, r.dice)
        };
        rules.with_diagonals(r.diagonals)?.try_with_special_72(r.special_72)
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label())
    }
}
