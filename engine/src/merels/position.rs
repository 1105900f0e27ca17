//! Positions: the side-independent [`State`] the solver works on, and the
//! [`Position`] of the spec's notation, `<board>:<points> <side> <hand-x> <hand-o>`.

use std::fmt;
use std::str::FromStr;

use super::board::{Board, BoardKind};
use super::mill::has_line;
use super::point::{Point, PointSet, Side};
use super::rules::{Dice, Rules};
use crate::names::UnknownName;

/// A position seen from the side to move: its men, the other side's men,
/// and the men both still hold in hand. The rules treat both sides alike, so
/// this is all a solver needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct State {
    pub own: PointSet,
    pub other: PointSet,
    pub own_hand: u8,
    pub other_hand: u8,
}

impl State {
    /// The start: empty board, both hands full.
    pub fn start(men: u8) -> State {
        State { own: PointSet::EMPTY, other: PointSet::EMPTY, own_hand: men, other_hand: men }
    }

    /// The same men with the roles exchanged: the other side to move.
    #[inline]
    pub fn swapped(self) -> State {
        State { own: self.other, other: self.own, own_hand: self.other_hand, other_hand: self.own_hand }
    }

    #[inline]
    pub fn empty(&self, board: &Board) -> PointSet {
        board.all() - self.own - self.other
    }

    /// Men of the side to move, on the board and in hand.
    #[inline]
    pub fn own_total(&self) -> u32 {
        self.own.len() + self.own_hand as u32
    }

    #[inline]
    pub fn other_total(&self) -> u32 {
        self.other.len() + self.other_hand as u32
    }

    /// Whether the side to move is placing (it has men in hand).
    #[inline]
    pub fn placing(&self) -> bool {
        self.own_hand > 0
    }
}

/// A position in the spec's notation: the board, every point's occupant, the
/// side to move and both hands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub kind: BoardKind,
    pub men: [PointSet; 2],
    pub hand: [u8; 2],
    pub to_move: Side,
}

impl Position {
    /// The start position of a board: empty, both hands full, `x` to move.
    pub fn start(kind: BoardKind) -> Position {
        Position { kind, men: [PointSet::EMPTY; 2], hand: [kind.men(); 2], to_move: Side::X }
    }

    /// The position as the side to move sees it.
    #[inline]
    pub fn state(&self) -> State {
        let (s, o) = (self.to_move.index(), self.to_move.other().index());
        State { own: self.men[s], other: self.men[o], own_hand: self.hand[s], other_hand: self.hand[o] }
    }

    /// The position of a state with `side` to move.
    pub fn from_state(kind: BoardKind, side: Side, st: State) -> Position {
        let mut men = [PointSet::EMPTY; 2];
        let mut hand = [0; 2];
        men[side.index()] = st.own;
        men[side.other().index()] = st.other;
        hand[side.index()] = st.own_hand;
        hand[side.other().index()] = st.other_hand;
        Position { kind, men, hand, to_move: side }
    }

    /// The occupant of a point.
    pub fn at(&self, p: Point) -> Option<Side> {
        if self.men[0].contains(p) {
            Some(Side::X)
        } else if self.men[1].contains(p) {
            Some(Side::O)
        } else {
            None
        }
    }
}

/// Why a position cannot occur in a game under given rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Impossible {
    WrongBoard {
        position: BoardKind,
        rules: BoardKind,
    },
    TooManyMen {
        side: Side,
        count: u32,
        men: u8,
    },
    MoverHasLine(Side),
    BothLines,
    AlreadyLost(Side),
    /// The men placed do not fit the turns: the sides in turn, one man a
    /// turn (or, `lines`, three on Murray's special throw).
    Turns {
        side: Side,
        placed: u32,
        other: u32,
        lines: bool,
    },
}

impl fmt::Display for Impossible {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Impossible::WrongBoard { position, rules } => {
                write!(f, "the position is on the {position} board but the rules are for {rules}")
            }
            Impossible::TooManyMen { side, count, men } => {
                write!(f, "side {side} has {count} men on the board and in hand, more than the {men} it starts with")
            }
            Impossible::MoverHasLine(s) => write!(
                f,
                "side {s} is to move but already has a line: a closed line ends the game at once on this board"
            ),
            Impossible::BothLines => write!(f, "both sides have a line, but the first line ends the game"),
            Impossible::AlreadyLost(s) => {
                write!(f, "side {s} has fewer than 3 men but has just moved: the game ended before")
            }
            Impossible::Turns { side, placed, other, lines: true } => write!(
                f,
                "side {side} is to move having placed {placed} men (on the board or taken) against {other}: \
                 no sequence of turns, one man a turn or three on a special throw, the sides in turn, \
                 gives these counts"
            ),
            Impossible::Turns { side, placed, other, lines: false } => write!(
                f,
                "side {side} is to move having placed {placed} men (on the board or taken) against {other}: \
                 the sides place one man a turn in turn, so the side to move has placed as many as the other \
                 or one fewer"
            ),
        }
    }
}

impl Rules {
    /// Checks that a position can occur in a game under these rules.
    pub fn check(&self, pos: &Position) -> Result<(), Impossible> {
        if pos.kind != self.board.kind {
            return Err(Impossible::WrongBoard { position: pos.kind, rules: self.board.kind });
        }
        for side in [Side::X, Side::O] {
            let count = pos.men[side.index()].len() + pos.hand[side.index()] as u32;
            if count > self.men() as u32 {
                return Err(Impossible::TooManyMen { side, count, men: self.men() });
            }
        }
        let st = pos.state();
        if self.board.line_wins() {
            let (mover, last) = (has_line(self.board, st.own), has_line(self.board, st.other));
            if mover && last {
                return Err(Impossible::BothLines);
            }
            if mover {
                return Err(Impossible::MoverHasLine(pos.to_move));
            }
        }
        if st.other_total() < 3 {
            return Err(Impossible::AlreadyLost(pos.to_move.other()));
        }
        // Placed so far: every man not in hand.
        let men = self.men() as u32;
        let (placed, other) = (men - st.own_hand as u32, men - st.other_hand as u32);
        let lines = self.dice == Dice::Murray && self.special_72 > 0;
        if !turns_fit(placed, other, men, lines) {
            return Err(Impossible::Turns { side: pos.to_move, placed, other, lines });
        }
        Ok(())
    }
}

/// Whether the side to move can have placed `placed` men and the other
/// side `other` (of `men` each) with the sides taking turns: a turn places
/// one man or, with `lines`, three (only from a hand of three or more), and
/// a side with none left in hand moves instead. The side to move has had as
/// many turns as the other (it began) or one fewer.
fn turns_fit(placed: u32, other: u32, men: u32, lines: bool) -> bool {
    // The numbers of turns that place `p` men: `p - 2a` with `a` of them
    // lines (each needs three in hand, so `3a <= p`); once all are placed,
    // any number of turns at least the fewest.
    let turns = |p: u32| {
        let fewest = if lines { p - 2 * (p / 3) } else { p };
        let counts: Vec<u32> = (fewest..=p).filter(|t| (p - t).is_multiple_of(2)).collect();
        (counts, p == men, fewest)
    };
    let ((mine, my_end, my_fewest), (theirs, their_end, their_fewest)) = (turns(placed), turns(other));
    let fits = |t: u32, u: u32| u == t || u == t + 1;
    match (my_end, their_end) {
        (true, true) => true,
        (false, false) => mine.iter().any(|&t| theirs.iter().any(|&u| fits(t, u))),
        // A side done placing has taken its fewest turns or more.
        (false, true) => mine.iter().any(|&t| t + 1 >= their_fewest),
        (true, false) => theirs.iter().any(|&u| u >= my_fewest),
    }
}

/// A position string that could not be read: what is wrong, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParsePositionError {
    /// Not the four fields `<board>:<points> <side> <hand-x> <hand-o>`.
    Fields { text: String, found: usize },
    /// The first field lacks the `:` after the board's name.
    NoBoard { field: String },
    /// The board's name is no board's.
    Board(UnknownName),
    /// The points list more or fewer points than the board has.
    Points { board: BoardKind, points: String, found: usize },
    /// A character of the points is not `x`, `o` or `.`.
    Character { board: BoardKind, points: String, at: usize, found: char },
    /// The side to move is not `x` or `o`.
    Side(String),
    /// A hand is not a number from 0 to the board's men.
    Hand { side: Side, text: String, board: BoardKind },
}

impl fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid position: ")?;
        match self {
            ParsePositionError::Fields { text, found } => {
                write!(f, "expected 4 fields '<board>:<points> <side> <hand-x> <hand-o>', found {found} in '{text}'")
            }
            ParsePositionError::NoBoard { field } => {
                write!(f, "first field '{field}' lacks the ':' after the board name")
            }
            ParsePositionError::Board(e) => e.fmt(f),
            ParsePositionError::Points { board, points, found } => {
                let b = Board::get(*board, false);
                let order: Vec<&str> = b.points().map(|p| b.name(p)).collect();
                write!(
                    f,
                    "board {board} has {} points but '{points}' lists {found} (one of x, o, . per point, in the order {})",
                    b.len(),
                    order.join(" ")
                )
            }
            ParsePositionError::Character { board, points, at, found } => write!(
                f,
                "character '{found}' at point {} (position {} of '{points}') is not x, o or .",
                Board::get(*board, false).name(Point(*at as u8)),
                at + 1
            ),
            ParsePositionError::Side(t) => write!(f, "side to move '{t}' is not x or o"),
            ParsePositionError::Hand { side, text, board } => {
                write!(f, "hand of {side} '{text}' is not a number from 0 to {}", board.men())
            }
        }
    }
}

impl std::error::Error for ParsePositionError {}

impl FromStr for Position {
    type Err = ParsePositionError;

    fn from_str(s: &str) -> Result<Position, ParsePositionError> {
        let fields: Vec<&str> = s.split_whitespace().collect();
        if fields.len() != 4 {
            return Err(ParsePositionError::Fields { text: s.to_string(), found: fields.len() });
        }
        let (board_name, points) =
            fields[0].split_once(':').ok_or_else(|| ParsePositionError::NoBoard { field: fields[0].to_string() })?;
        let kind: BoardKind = board_name.parse().map_err(ParsePositionError::Board)?;
        let board = Board::get(kind, false);
        let n = board.len();
        let found = points.chars().count();
        if found != n {
            return Err(ParsePositionError::Points { board: kind, points: points.to_string(), found });
        }
        let mut men = [PointSet::EMPTY; 2];
        for (i, c) in points.chars().enumerate() {
            let p = Point(i as u8);
            match c {
                'x' | 'X' => men[0] = men[0].with(p),
                'o' | 'O' => men[1] = men[1].with(p),
                '.' => {}
                _ => {
                    return Err(ParsePositionError::Character {
                        board: kind,
                        points: points.to_string(),
                        at: i,
                        found: c,
                    });
                }
            }
        }
        let to_move = match fields[1] {
            "x" | "X" => Side::X,
            "o" | "O" => Side::O,
            other => return Err(ParsePositionError::Side(other.to_string())),
        };
        let mut hand = [0u8; 2];
        for (i, f) in fields[2..].iter().enumerate() {
            let side = if i == 0 { Side::X } else { Side::O };
            hand[i] = f.parse::<u8>().ok().filter(|&h| h <= kind.men()).ok_or_else(|| ParsePositionError::Hand {
                side,
                text: f.to_string(),
                board: kind,
            })?;
        }
        Ok(Position { kind, men, hand, to_move })
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let board = Board::get(self.kind, false);
        write!(f, "{}:", self.kind)?;
        for p in board.points() {
            let c = match self.at(p) {
                Some(Side::X) => 'x',
                Some(Side::O) => 'o',
                None => '.',
            };
            write!(f, "{c}")?;
        }
        write!(f, " {} {} {}", self.to_move, self.hand[0], self.hand[1])
    }
}
