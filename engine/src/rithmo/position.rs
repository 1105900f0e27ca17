//! Positions and their notation, RFEN: six fields — the ranks from 16 down to
//! 1, the side to move, the men captured by Even and by Odd, the plies since
//! the last capture, strike or siege, and the move number.

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use arrayvec::ArrayVec;

use super::bitboard::Bitboard;
use super::piece::{MAX_LAYERS, MAX_VALUE, Man, Pyramid, Shape, Side};
use super::square::Square;
use super::zobrist;

/// The most pyramids a position may hold.
pub const MAX_PYRAMIDS: usize = 8;
/// The most men a side may have captured.
pub const MAX_CAPTURED: usize = 48;

/// The spec's start position (the Fulke back-row set-up).
pub const START: &str = "s49,s121,4,s225,s361/s28,s66,t36,t30,t56,t64,s120,p[s64.s49.t36.t25.c16]/t16,t12,c9,c25,c49,c81,t90,t100/2,c3,c5,c7,c9,2/8/8/8/8/8/8/8/8/2,C8,C6,C4,C2,2/T81,T72,C64,C36,C16,C4,T6,T9/S153,P[S36.S25.T16.T9.C4.C1],T49,T42,T20,T25,S45,S15/S289,S169,4,S81,S25 e - - 0 1";

/// The men one side has captured, in the order taken.
#[derive(Clone, Copy, Debug)]
pub struct Captured {
    men: [Man; MAX_CAPTURED],
    len: u8,
    /// Sum of their values.
    pub value: u32,
    /// Decimal digits of their values, in all.
    pub digits: u32,
}

/// Equal when the same men were taken in the same order (slots beyond the
/// count do not matter).
impl PartialEq for Captured {
    fn eq(&self, other: &Captured) -> bool {
        self.men() == other.men()
    }
}

impl Eq for Captured {}

impl std::hash::Hash for Captured {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.men().hash(state);
    }
}

impl Default for Captured {
    fn default() -> Captured {
        Captured { men: [Man::default(); MAX_CAPTURED], len: 0, value: 0, digits: 0 }
    }
}

impl Captured {
    pub fn men(&self) -> &[Man] {
        &self.men[..self.len as usize]
    }

    /// Men captured: each circle, triangle, square and pyramid layer counts 1.
    pub fn count(&self) -> u32 {
        self.len as u32
    }

    pub(crate) fn push(&mut self, m: Man) {
        // Checked when parsing and bounded by the men on the board.
        if (self.len as usize) < MAX_CAPTURED {
            self.men[self.len as usize] = m;
            self.len += 1;
            self.value += m.value() as u32;
            self.digits += m.value().max(1).ilog10() + 1;
        }
    }
}

/// The values a piece attacks with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttackSet {
    vals: [u16; MAX_LAYERS + 1],
    len: u8,
}

impl AttackSet {
    #[inline]
    pub fn values(&self) -> &[u16] {
        &self.vals[..self.len as usize]
    }

    #[inline]
    pub fn contains(&self, v: u16) -> bool {
        self.values().contains(&v)
    }
}

/// What a move changed, to take it back.
#[derive(Clone, Debug)]
pub struct Snapshot {
    clock: u16,
    fullmove: u16,
    hash: u64,
    captured: (u8, u32, u32),
    /// Pieces of the mover's opponent removed (the captured one first, then
    /// the besieged), with their shapes and values: no move removes more
    /// than the board holds.
    removed: ArrayVec<(Square, Shape, u16), 128>,
    /// The pyramids before the move, when it took, struck or moved one.
    pyramids: Option<([Square; MAX_PYRAMIDS], [Pyramid; MAX_PYRAMIDS], u8)>,
}

impl Snapshot {
    /// The squares emptied by the move's capture and sieges.
    pub fn removed(&self) -> Bitboard {
        self.removed.iter().fold(Bitboard::EMPTY, |b, &(s, ..)| b.with(s))
    }
}

impl Default for Snapshot {
    fn default() -> Snapshot {
        Snapshot { clock: 0, fullmove: 0, hash: 0, captured: (0, 0, 0), removed: ArrayVec::new(), pyramids: None }
    }
}

/// A piece as found on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece<'a> {
    pub side: Side,
    pub shape: Shape,
    /// Its value: a pyramid's current total.
    pub value: u16,
    pub pyramid: Option<&'a Pyramid>,
}

/// A position: the board, the side to move, captured men and counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    occ: [Bitboard; 2],
    shapes: [Bitboard; 4],
    /// Value of the piece on each square (a pyramid's current total).
    val: [u16; 128],
    pyr_sq: [Square; MAX_PYRAMIDS],
    pyr: [Pyramid; MAX_PYRAMIDS],
    npyr: u8,
    side: Side,
    captured: [Captured; 2],
    /// Plies since the last capture, strike or siege.
    pub clock: u16,
    /// Starts at 1, increased after Odd's turn.
    pub fullmove: u16,
    /// Board and side to move (what repetition compares).
    hash: u64,
}

impl Position {
    /// The start position.
    pub fn start() -> Position {
        static START_POS: OnceLock<Position> = OnceLock::new();
        *START_POS.get_or_init(|| START.parse().expect("the start position parses"))
    }

    fn empty() -> Position {
        Position {
            occ: [Bitboard::EMPTY; 2],
            shapes: [Bitboard::EMPTY; 4],
            val: [0; 128],
            pyr_sq: [Square(0); MAX_PYRAMIDS],
            pyr: [Pyramid::default(); MAX_PYRAMIDS],
            npyr: 0,
            side: Side::Even,
            captured: [Captured::default(); 2],
            clock: 0,
            fullmove: 1,
            hash: 0,
        }
    }

    #[inline]
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    #[inline]
    pub fn occupied(&self, side: Side) -> Bitboard {
        self.occ[side.index()]
    }

    #[inline]
    pub fn all(&self) -> Bitboard {
        self.occ[0] | self.occ[1]
    }

    #[inline]
    pub fn shape_bb(&self, s: Shape) -> Bitboard {
        self.shapes[s.index()]
    }

    /// Pieces of one side and shape.
    #[inline]
    pub fn pieces(&self, side: Side, s: Shape) -> Bitboard {
        self.occ[side.index()] & self.shapes[s.index()]
    }

    /// The same board with `side` to move (for looking at the other side's
    /// threats; the hash follows).
    pub fn with_side(&self, side: Side) -> Position {
        let mut p = *self;
        if p.side != side {
            p.side = side;
            p.hash ^= zobrist::SIDE;
        }
        p
    }

    /// The men captured by `side`.
    #[inline]
    pub fn captured_by(&self, side: Side) -> &Captured {
        &self.captured[side.index()]
    }

    /// The hash of the board and the side to move.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Value of the piece on a square (0 if empty).
    #[inline]
    pub fn value_at(&self, s: Square) -> u16 {
        self.val[s.index()]
    }

    #[inline]
    fn pyramid_slot(&self, s: Square) -> Option<usize> {
        if !self.shapes[Shape::Pyramid.index()].contains(s) {
            return None;
        }
        (0..self.npyr as usize).find(|&i| self.pyr_sq[i] == s)
    }

    /// The pyramid on a square, if any.
    #[inline]
    pub fn pyramid_at(&self, s: Square) -> Option<&Pyramid> {
        self.pyramid_slot(s).map(|i| &self.pyr[i])
    }

    /// The shape of the piece on an occupied square.
    #[inline]
    pub fn shape_of(&self, s: Square) -> Shape {
        if self.shapes[0].contains(s) {
            Shape::Circle
        } else if self.shapes[1].contains(s) {
            Shape::Triangle
        } else if self.shapes[2].contains(s) {
            Shape::Square
        } else {
            Shape::Pyramid
        }
    }

    /// The pyramids of a side with their squares.
    pub fn pyramids(&self, side: Side) -> impl Iterator<Item = (Square, &Pyramid)> {
        (0..self.npyr as usize)
            .filter(move |&i| self.occ[side.index()].contains(self.pyr_sq[i]))
            .map(|i| (self.pyr_sq[i], &self.pyr[i]))
    }

    pub fn piece_at(&self, s: Square) -> Option<Piece<'_>> {
        let side = if self.occ[0].contains(s) {
            Side::Even
        } else if self.occ[1].contains(s) {
            Side::Odd
        } else {
            return None;
        };
        let shape =
            Shape::ALL.into_iter().find(|sh| self.shapes[sh.index()].contains(s)).expect("occupied square has a shape");
        Some(Piece { side, shape, value: self.val[s.index()], pyramid: self.pyramid_at(s) })
    }

    /// The values a piece attacks with: a man its value; a pyramid each
    /// remaining layer's, and its original total while it has all layers.
    #[inline]
    pub fn attack_values(&self, s: Square, total_while_intact: bool) -> AttackSet {
        let mut a = AttackSet { vals: [0; MAX_LAYERS + 1], len: 1 };
        match self.pyramid_at(s) {
            None => a.vals[0] = self.val[s.index()],
            Some(p) => {
                a.len = 0;
                for m in p.layers() {
                    a.vals[a.len as usize] = m.value();
                    a.len += 1;
                }
                if p.intact && total_while_intact {
                    a.vals[a.len as usize] = p.original;
                    a.len += 1;
                }
            }
        }
        a
    }

    // ---- changes (the move generator keeps the hash up to date) ----

    fn put_man(&mut self, s: Square, side: Side, shape: Shape, value: u16) {
        self.occ[side.index()] = self.occ[side.index()].with(s);
        self.shapes[shape.index()] = self.shapes[shape.index()].with(s);
        self.val[s.index()] = value;
        self.hash ^= zobrist::man(s, side, shape, value);
    }

    fn put_pyramid(&mut self, s: Square, side: Side, p: Pyramid) {
        debug_assert!((self.npyr as usize) < MAX_PYRAMIDS);
        self.occ[side.index()] = self.occ[side.index()].with(s);
        self.shapes[Shape::Pyramid.index()] = self.shapes[Shape::Pyramid.index()].with(s);
        self.val[s.index()] = p.total();
        self.pyr_sq[self.npyr as usize] = s;
        self.pyr[self.npyr as usize] = p;
        self.npyr += 1;
        self.hash ^= zobrist::pyramid(s, side, &p);
    }

    /// Moves the piece on `from` to the empty square `to`.
    #[inline]
    pub(crate) fn relocate(&mut self, from: Square, to: Square) {
        let si = !self.occ[0].contains(from) as usize;
        let side = if si == 0 { Side::Even } else { Side::Odd };
        let shape = self.shape_of(from);
        let both = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.occ[si] ^= both;
        self.shapes[shape.index()] ^= both;
        let (f, t) = (from.index() & 127, to.index() & 127);
        let v = self.val[f];
        self.val[t] = v;
        self.val[f] = 0;
        if shape == Shape::Pyramid {
            let i = (0..(self.npyr as usize).min(MAX_PYRAMIDS))
                .find(|&i| self.pyr_sq[i] == from)
                .expect("a pyramid's square");
            self.hash ^= zobrist::pyramid(from, side, &self.pyr[i]) ^ zobrist::pyramid(to, side, &self.pyr[i]);
            self.pyr_sq[i] = to;
        } else {
            self.hash ^= zobrist::man(from, side, shape, v) ^ zobrist::man(to, side, shape, v);
        }
    }

    /// Removes the piece on `s` and records its men as captured by `by`
    /// (a pyramid's remaining layers, bottom first).
    pub(crate) fn capture(&mut self, s: Square, by: Side) {
        let side = by.other();
        let si = side.index();
        let shape = self.shape_of(s);
        let slot = self.pyramid_slot(s);
        self.occ[si] = self.occ[si].without(s);
        self.shapes[shape.index()] = self.shapes[shape.index()].without(s);
        if let Some(i) = slot {
            let p = self.pyr[i];
            self.hash ^= zobrist::pyramid(s, side, &p);
            for &m in p.layers() {
                self.captured[by.index()].push(m);
            }
            let last = self.npyr as usize - 1;
            self.pyr.swap(i, last);
            self.pyr_sq.swap(i, last);
            self.npyr -= 1;
        } else {
            let v = self.val[s.index()];
            self.hash ^= zobrist::man(s, side, shape, v);
            self.captured[by.index()].push(Man::new(shape, v));
        }
        self.val[s.index()] = 0;
    }

    /// Removes the bottom layer of the pyramid on `s`, captured by `by`.
    pub(crate) fn strike(&mut self, s: Square, by: Side) {
        let i = self.pyramid_slot(s).expect("a pyramid to strike");
        let side = by.other();
        self.hash ^= zobrist::pyramid(s, side, &self.pyr[i]);
        let m = self.pyr[i].strike();
        self.hash ^= zobrist::pyramid(s, side, &self.pyr[i]);
        self.val[s.index()] = self.pyr[i].total();
        self.captured[by.index()].push(m);
    }

    /// Starts the record of a move by `mover`, for taking it back with
    /// [`Position::unmake`].
    #[inline]
    pub(crate) fn snapshot_into(&self, mover: Side, snap: &mut Snapshot) {
        let c = &self.captured[mover.index()];
        snap.clock = self.clock;
        snap.fullmove = self.fullmove;
        snap.hash = self.hash;
        snap.captured = (c.len, c.value, c.digits);
        snap.removed.clear();
        snap.pyramids = None;
    }

    /// Saves the pyramids before one is captured or struck.
    pub(crate) fn save_pyramids(&self, snap: &mut Snapshot) {
        if snap.pyramids.is_none() {
            snap.pyramids = Some((self.pyr_sq, self.pyr, self.npyr));
        }
    }

    /// Records a piece of the mover's opponent about to be removed.
    pub(crate) fn note_removal(&self, s: Square, snap: &mut Snapshot) {
        let shape = self.shape_of(s);
        if shape == Shape::Pyramid {
            self.save_pyramids(snap);
        }
        snap.removed.push((s, shape, self.val[s.index()]));
    }

    /// Takes back the move `m` played by `mover` from the state in `snap`.
    pub(crate) fn restore(&mut self, m: super::moves::Move, mover: Side, snap: &Snapshot) {
        use super::moves::MoveKind;
        self.side = mover;
        let side = mover.other();
        // Pieces come back in reverse order of removal: sieges, then the capture.
        for &(s, shape, value) in snap.removed.iter().rev() {
            if s == m.to && m.kind == MoveKind::Capture {
                // The capturer stands there: move it home first.
                self.relocate(m.to, m.from);
            }
            self.occ[side.index()] = self.occ[side.index()].with(s);
            self.shapes[shape.index()] = self.shapes[shape.index()].with(s);
            self.val[s.index()] = value;
        }
        if m.kind == MoveKind::Plain {
            self.relocate(m.to, m.from);
        }
        if let Some((sq, pyr, n)) = snap.pyramids {
            self.pyr_sq = sq;
            self.pyr = pyr;
            self.npyr = n;
            // A struck pyramid's total comes back with its layer.
            if m.kind == MoveKind::Strike {
                let i = (0..n as usize).find(|&i| sq[i] == m.to).expect("the struck pyramid");
                self.val[m.to.index()] = pyr[i].total();
            }
        }
        let c = &mut self.captured[mover.index()];
        (c.len, c.value, c.digits) = snap.captured;
        self.clock = snap.clock;
        self.fullmove = snap.fullmove;
        self.hash = snap.hash;
    }

    /// Passes the turn: the other side to move, counters advanced.
    pub(crate) fn end_turn(&mut self, quiet: bool) {
        self.clock = if quiet { self.clock.saturating_add(1) } else { 0 };
        if self.side == Side::Odd {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.other();
        self.hash ^= zobrist::SIDE;
    }

    /// The hash computed from scratch (the incremental one must equal it).
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = if self.side == Side::Odd { zobrist::SIDE } else { 0 };
        for side in [Side::Even, Side::Odd] {
            for sh in [Shape::Circle, Shape::Triangle, Shape::Square] {
                for s in self.pieces(side, sh).iter() {
                    h ^= zobrist::man(s, side, sh, self.val[s.index()]);
                }
            }
            for (s, p) in self.pyramids(side) {
                h ^= zobrist::pyramid(s, side, p);
            }
        }
        h
    }
}

// ---- notation ----

/// An RFEN string that could not be read: what is wrong, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseRfenError {
    /// Not six fields separated by single spaces (the number found).
    Fields(usize),
    /// The board does not have 16 ranks separated by `/` (the number found).
    Ranks(usize),
    /// A token of a rank (numbered 1 to 16) is wrong.
    Rank { rank: u8, token: String, problem: TokenProblem },
    /// A rank covers more or fewer than 8 squares.
    RankWidth { rank: u8, text: String, squares: u8 },
    /// The side to move is not `e` or `o`.
    Side(String),
    /// A token of the men captured by a side is wrong.
    Captured { by: Side, token: String, problem: TokenProblem },
    /// A side has captured more men than there are.
    TooManyCaptured { by: Side },
    /// The plies since the last capture, or the move number, is wrong.
    Counter { counter: RfenCounter, text: String, problem: CounterProblem },
}

/// Why one token of an RFEN string cannot be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenProblem {
    /// Nothing between two commas.
    Empty,
    /// A count of empty squares outside 1 to 8.
    EmptyCount,
    /// A piece beyond file h.
    BeyondFileH,
    /// The first letter is not C, T, S or P (either case).
    UnknownLetter(char),
    /// What follows the letter is not a number.
    NotAValue,
    /// The value is not from 1 to [`MAX_VALUE`].
    ValueRange,
    /// A pyramid where a layer or a captured man is expected.
    PyramidNotAMan,
    /// A pyramid not written `P[S36.S25…]`.
    PyramidSyntax,
    /// A pyramid without layers.
    PyramidEmpty,
    /// A pyramid of more than [`MAX_LAYERS`] layers.
    TooManyLayers,
    /// A layer of the other side's case.
    LayerCase,
    /// More than [`MAX_PYRAMIDS`] pyramids on the board.
    TooManyPyramids,
    /// A captured man of the capturing side's own case.
    OwnMan,
}

/// The two counters closing an RFEN string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RfenCounter {
    Plies,
    MoveNumber,
}

/// Why a counter cannot be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CounterProblem {
    NotANumber,
    TooLarge,
    /// Move number 0 (moves are numbered from 1).
    Zero,
}

impl fmt::Display for TokenProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TokenProblem::Empty => f.write_str("an empty token"),
            TokenProblem::EmptyCount => f.write_str("empty squares are counted 1 to 8"),
            TokenProblem::BeyondFileH => f.write_str("it lies beyond file h"),
            TokenProblem::UnknownLetter(c) => write!(f, "unknown piece letter '{c}' (C, T, S, P; upper case Even)"),
            TokenProblem::NotAValue => f.write_str("not a value (a positive number)"),
            TokenProblem::ValueRange => write!(f, "the value must be between 1 and {MAX_VALUE}"),
            TokenProblem::PyramidNotAMan => f.write_str("a pyramid cannot be a layer or a captured man"),
            TokenProblem::PyramidSyntax => {
                f.write_str("a pyramid lists its layers as P[S36.S25…] (P*[S25…] once struck)")
            }
            TokenProblem::PyramidEmpty => f.write_str("a pyramid needs at least one layer"),
            TokenProblem::TooManyLayers => write!(f, "more than {MAX_LAYERS} layers"),
            TokenProblem::LayerCase => f.write_str("a layer not in the pyramid's case"),
            TokenProblem::TooManyPyramids => write!(f, "more than {MAX_PYRAMIDS} pyramids"),
            TokenProblem::OwnMan => f.write_str("one of the capturing side's own men (case)"),
        }
    }
}

impl fmt::Display for RfenCounter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RfenCounter::Plies => "plies since the last capture",
            RfenCounter::MoveNumber => "move number",
        })
    }
}

impl fmt::Display for ParseRfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid RFEN: ")?;
        match self {
            ParseRfenError::Fields(n) => write!(
                f,
                "expected 6 fields separated by single spaces (board, side, captured by Even, captured by Odd, \
                 plies, move number), found {n}"
            ),
            ParseRfenError::Ranks(n) => write!(f, "the board has {n} ranks separated by '/', not 16"),
            ParseRfenError::Rank { rank, token, problem } => write!(f, "rank {rank}: token '{token}': {problem}"),
            ParseRfenError::RankWidth { rank, text, squares } => {
                write!(f, "rank {rank} ('{text}') covers {squares} squares, not 8")
            }
            ParseRfenError::Side(t) => write!(f, "side to move '{t}' is not e or o"),
            ParseRfenError::Captured { by, token, problem } => {
                write!(f, "captured by {by}: token '{token}': {problem}")
            }
            ParseRfenError::TooManyCaptured { by } => write!(f, "captured by {by}: more than {MAX_CAPTURED} men"),
            ParseRfenError::Counter { counter, text, problem } => match problem {
                CounterProblem::NotANumber => write!(f, "{counter} '{text}' is not a number"),
                CounterProblem::TooLarge => write!(f, "{counter} '{text}' is too large"),
                CounterProblem::Zero => write!(f, "{counter} '{text}': moves are numbered from 1"),
            },
        }
    }
}

impl std::error::Error for ParseRfenError {}

/// A man token `C8`, `t100`: its shape, side and value.
fn parse_man(token: &str) -> Result<(Side, Man), TokenProblem> {
    let mut chars = token.chars();
    let c = chars.next().ok_or(TokenProblem::Empty)?;
    match Shape::from_letter(c) {
        Some((Shape::Pyramid, _)) => Err(TokenProblem::PyramidNotAMan),
        Some((shape, side)) => {
            let text = chars.as_str();
            if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) || (text.len() > 1 && text.starts_with('0'))
            {
                return Err(TokenProblem::NotAValue);
            }
            match text.parse::<u16>() {
                Ok(v) if v > 0 && v <= MAX_VALUE => Ok((side, Man::new(shape, v))),
                _ => Err(TokenProblem::ValueRange),
            }
        }
        None => Err(TokenProblem::UnknownLetter(c)),
    }
}

impl FromStr for Position {
    type Err = ParseRfenError;

    fn from_str(s: &str) -> Result<Position, ParseRfenError> {
        let fields: Vec<&str> = s.split(' ').collect();
        if fields.len() != 6 {
            return Err(ParseRfenError::Fields(fields.len()));
        }
        let mut pos = Position::empty();
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 16 {
            return Err(ParseRfenError::Ranks(ranks.len()));
        }
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 15 - i as u8;
            let mut file = 0u8;
            for token in rank_text.split(',') {
                let here = |t: &str, problem| ParseRfenError::Rank { rank: rank + 1, token: t.to_string(), problem };
                if token.bytes().all(|b| b.is_ascii_digit()) && !token.is_empty() {
                    match token.parse::<u8>() {
                        Ok(n @ 1..=8) => file += n,
                        _ => return Err(here(token, TokenProblem::EmptyCount)),
                    }
                } else {
                    if file >= 8 {
                        return Err(here(token, TokenProblem::BeyondFileH));
                    }
                    let sq = Square::new(file, rank);
                    let first = token.chars().next().ok_or_else(|| here(token, TokenProblem::Empty))?;
                    if matches!(Shape::from_letter(first), Some((Shape::Pyramid, _))) {
                        let side = if first.is_ascii_uppercase() { Side::Even } else { Side::Odd };
                        // `P*[…]`: a pyramid that lost a layer to a strike.
                        let (struck, rest) = match token[1..].strip_prefix('*') {
                            Some(rest) => (true, rest),
                            None => (false, &token[1..]),
                        };
                        let inner = rest
                            .strip_prefix('[')
                            .and_then(|t| t.strip_suffix(']'))
                            .ok_or_else(|| here(token, TokenProblem::PyramidSyntax))?;
                        if inner.is_empty() {
                            return Err(here(token, TokenProblem::PyramidEmpty));
                        }
                        let mut layers = ArrayVec::<Man, MAX_LAYERS>::new();
                        for l in inner.split('.') {
                            let (ls, m) = parse_man(l).map_err(|p| here(l, p))?;
                            if ls != side {
                                return Err(here(l, TokenProblem::LayerCase));
                            }
                            layers.try_push(m).map_err(|_| here(token, TokenProblem::TooManyLayers))?;
                        }
                        if pos.npyr as usize >= MAX_PYRAMIDS {
                            return Err(here(token, TokenProblem::TooManyPyramids));
                        }
                        let pyramid = if struck { Pyramid::struck(&layers) } else { Pyramid::new(&layers) };
                        pos.put_pyramid(sq, side, pyramid);
                    } else {
                        let (side, m) = parse_man(token).map_err(|p| here(token, p))?;
                        pos.put_man(sq, side, m.shape(), m.value());
                    }
                    file += 1;
                }
                if file > 8 {
                    return Err(ParseRfenError::RankWidth {
                        rank: rank + 1,
                        text: rank_text.to_string(),
                        squares: file,
                    });
                }
            }
            if file != 8 {
                return Err(ParseRfenError::RankWidth { rank: rank + 1, text: rank_text.to_string(), squares: file });
            }
        }
        pos.side = match fields[1] {
            "e" => Side::Even,
            "o" => Side::Odd,
            other => return Err(ParseRfenError::Side(other.to_string())),
        };
        for (i, by) in [Side::Even, Side::Odd].into_iter().enumerate() {
            let field = fields[2 + i];
            if field == "-" {
                continue;
            }
            for token in field.split('.') {
                let wrong = |problem| ParseRfenError::Captured { by, token: token.to_string(), problem };
                let (side, m) = parse_man(token).map_err(wrong)?;
                if side == by {
                    return Err(wrong(TokenProblem::OwnMan));
                }
                if pos.captured[by.index()].len as usize >= MAX_CAPTURED {
                    return Err(ParseRfenError::TooManyCaptured { by });
                }
                pos.captured[by.index()].push(m);
            }
        }
        let counter = |f: &str, counter: RfenCounter| -> Result<u16, ParseRfenError> {
            let wrong = |problem| ParseRfenError::Counter { counter, text: f.to_string(), problem };
            if f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit()) || (f.len() > 1 && f.starts_with('0')) {
                return Err(wrong(CounterProblem::NotANumber));
            }
            f.parse::<u16>().map_err(|_| wrong(CounterProblem::TooLarge))
        };
        pos.clock = counter(fields[4], RfenCounter::Plies)?;
        pos.fullmove = counter(fields[5], RfenCounter::MoveNumber)?;
        if pos.fullmove == 0 {
            return Err(ParseRfenError::Counter {
                counter: RfenCounter::MoveNumber,
                text: fields[5].to_string(),
                problem: CounterProblem::Zero,
            });
        }
        if pos.side == Side::Odd {
            pos.hash ^= zobrist::SIDE;
        }
        Ok(pos)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..16u8).rev() {
            let mut tokens: Vec<String> = Vec::new();
            let mut empty = 0;
            for file in 0..8 {
                let s = Square::new(file, rank);
                match self.piece_at(s) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            tokens.push(empty.to_string());
                            empty = 0;
                        }
                        tokens.push(match p.pyramid {
                            Some(pyr) => pyr.token(p.side),
                            None => Man::new(p.shape, p.value).token(p.side),
                        });
                    }
                }
            }
            if empty > 0 {
                tokens.push(empty.to_string());
            }
            f.write_str(&tokens.join(","))?;
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        write!(f, " {}", if self.side == Side::Even { 'e' } else { 'o' })?;
        for by in [Side::Even, Side::Odd] {
            let men = self.captured[by.index()].men();
            if men.is_empty() {
                f.write_str(" -")?;
            } else {
                let t: Vec<String> = men.iter().map(|m| m.token(by.other())).collect();
                write!(f, " {}", t.join("."))?;
            }
        }
        write!(f, " {} {}", self.clock, self.fullmove)
    }
}
