//! A deliberately naive reference implementation of Rithmomachia, preset
//! `common`, written from the rules page (`spec/rithmomachia.md`) alone, for
//! differential testing against the fast move generator of `engine::rithmo`.
//!
//! Everything here is plain vectors and loops, one small function per rule,
//! clarity over speed. The interface is string-based (RFEN and move notation)
//! so that the reference and the engine share no types.
//!
//! Squares are indexed as in the spec: index = (rank − 1) × 8 + file,
//! `a1` = 0, `h16` = 127. Internally a square is also seen as a pair
//! (file 0..8, rank 0..16).
//!
//! Choices where the spec leaves room (agreed for both implementations unless
//! marked "ours"):
//! - A pyramid attacks with each remaining layer and, while intact, with its
//!   full total. RFEN does not record lost layers: every parsed pyramid is
//!   intact; a strike makes it not intact (a flag on the piece, so two
//!   positions with the same RFEN can differ in it and compare unequal).
//! - Captured men are tokens, one per circle, triangle, square or pyramid
//!   layer, in capture order: the captured piece or struck layer first, then
//!   the besieged pieces by increasing square index.
//! - Siege examines every enemy piece after every move, not only those near
//!   the move: an enemy piece already closed in and touching a mover's piece
//!   goes after any move of the mover.
//! - Proper victories: the enemy has no pyramid on the board (also when it
//!   never had one); 3 or 4 of the mover's pieces at a common step on a rank,
//!   file or diagonal (other squares of the line do not matter), all in the
//!   enemy half, with pairwise distinct values (ours: for four pieces all
//!   four distinct); pyramids count at their current total. A kind of
//!   progression is present among four values when some three of them (any
//!   three, not only neighbours in order: ours) form it; greater needs two
//!   kinds, excellent all three. Three distinct values form at most one kind.
//! - `status` checks the side that just moved even in a parsed position (Odd
//!   in the start position, which has not won).
//! - RFEN parsing (ours): values are positive decimals without leading zeros;
//!   the counters are decimals without leading zeros, the move number ≥ 1;
//!   captured tokens must be in the case of the side that lost them; a
//!   pyramid needs at least one layer; adjacent numbers (`4,4`) are accepted
//!   and merged on output.
//! - Move lists are sorted as plain strings (`d12xd15` before `d12xd9`).
#![allow(dead_code)]

// ---------------------------------------------------------------------------
// Public types
// ---------------------------------------------------------------------------

/// The two sides. Even moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefSide {
    Even,
    Odd,
}

impl RefSide {
    pub fn other(self) -> RefSide {
        match self {
            RefSide::Even => RefSide::Odd,
            RefSide::Odd => RefSide::Even,
        }
    }

    /// Ranks 9–16 are Even's enemy half, ranks 1–8 Odd's (`rank` is 0-based).
    fn in_enemy_half(self, rank: i32) -> bool {
        match self {
            RefSide::Even => rank >= 8,
            RefSide::Odd => rank < 8,
        }
    }
}

/// The victory condition in force (see "End of the game" in the spec).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefVictory {
    /// `body:N` — N men captured.
    Body(u32),
    /// `goods:V` — captured values sum to at least V.
    Goods(u32),
    /// `lawsuit:V:N` — at least V in value with exactly N men.
    Lawsuit(u32, u32),
    /// `honor:V:N` — exactly V in value with exactly N men.
    Honor(u32, u32),
    /// `honor-lawsuit:V:N:D` — exactly V, exactly N men, D decimal digits in all.
    HonorLawsuit(u32, u32, u32),
    /// Three pieces in progression in the enemy half, enemy pyramid gone.
    Great,
    /// Four pieces, two kinds of progression.
    Greater,
    /// Four pieces, all three kinds of progression.
    Excellent,
}

/// The state of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RefStatus {
    Ongoing,
    Won(RefSide),
    Drawn,
}

// ---------------------------------------------------------------------------
// Pieces
// ---------------------------------------------------------------------------

/// The shape of a single man (a pyramid layer is one of these too).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    Circle,
    Triangle,
    Square,
}

impl Shape {
    fn letter(self, side: RefSide) -> char {
        let upper = match self {
            Shape::Circle => 'C',
            Shape::Triangle => 'T',
            Shape::Square => 'S',
        };
        match side {
            RefSide::Even => upper,
            RefSide::Odd => upper.to_ascii_lowercase(),
        }
    }

    /// The shape and side a letter stands for (`C` Even circle, `t` Odd triangle...).
    fn from_letter(c: char) -> Option<(Shape, RefSide)> {
        let side = if c.is_ascii_uppercase() { RefSide::Even } else { RefSide::Odd };
        let shape = match c.to_ascii_uppercase() {
            'C' => Shape::Circle,
            'T' => Shape::Triangle,
            'S' => Shape::Square,
            _ => return None,
        };
        Some((shape, side))
    }
}

/// One man: a circle, triangle or square with its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Man {
    shape: Shape,
    value: u32,
}

impl Man {
    fn token(self, side: RefSide) -> String {
        format!("{}{}", self.shape.letter(side), self.value)
    }
}

/// What stands on a square: a single man, or a pyramid (layers bottom first).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Form {
    Single(Man),
    /// `intact` is true while the pyramid still has every layer it started
    /// with (in the start position or as parsed); a strike clears it.
    Pyramid {
        layers: Vec<Man>,
        intact: bool,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Piece {
    side: RefSide,
    form: Form,
}

impl Piece {
    fn single(side: RefSide, shape: Shape, value: u32) -> Piece {
        Piece { side, form: Form::Single(Man { shape, value }) }
    }

    fn is_pyramid(&self) -> bool {
        matches!(self.form, Form::Pyramid { .. })
    }

    /// Regular move distance k: circle 1, triangle 2, square 3, pyramid 3.
    fn step(&self) -> i32 {
        match &self.form {
            Form::Single(m) => match m.shape {
                Shape::Circle => 1,
                Shape::Triangle => 2,
                Shape::Square => 3,
            },
            Form::Pyramid { .. } => 3,
        }
    }

    /// The men this piece is made of (a pyramid's remaining layers, bottom first).
    fn men(&self) -> Vec<Man> {
        match &self.form {
            Form::Single(m) => vec![*m],
            Form::Pyramid { layers, .. } => layers.clone(),
        }
    }

    /// The current value: a single man's value, a pyramid's remaining total.
    /// A piece is captured whole at this value, and proper victories use it.
    fn total(&self) -> u32 {
        self.men().iter().map(|m| m.value).sum()
    }

    /// The values this piece attacks with: its value; for a pyramid the value of
    /// each remaining layer, plus its full total while it is intact.
    fn attack_values(&self) -> Vec<u32> {
        match &self.form {
            Form::Single(m) => vec![m.value],
            Form::Pyramid { layers, intact } => {
                let mut values: Vec<u32> = layers.iter().map(|m| m.value).collect();
                if *intact {
                    values.push(self.total());
                }
                values
            }
        }
    }

    /// The values this piece is attacked at, each with what a successful attack
    /// does: capture at its whole (current) value, and for a pyramid of two or
    /// more layers a strike at its bottom layer's value.
    fn target_values(&self) -> Vec<(u32, MoveKind)> {
        let mut targets = vec![(self.total(), MoveKind::Capture)];
        if let Form::Pyramid { layers, .. } = &self.form
            && layers.len() >= 2
        {
            targets.push((layers[0].value, MoveKind::Strike));
        }
        targets
    }

    /// The RFEN token: `C8`, `t100`, `P[S36.S25.T16.T9.C4.C1]`.
    fn token(&self) -> String {
        match &self.form {
            Form::Single(m) => m.token(self.side),
            Form::Pyramid { layers, intact } => {
                let inner: Vec<String> = layers.iter().map(|m| m.token(self.side)).collect();
                let p = match self.side {
                    RefSide::Even => 'P',
                    RefSide::Odd => 'p',
                };
                // A struck pyramid is marked with `*` after its letter.
                format!("{}{}[{}]", p, if *intact { "" } else { "*" }, inner.join("."))
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Squares
// ---------------------------------------------------------------------------

const FILES: i32 = 8;
const RANKS: i32 = 16;
const SQUARES: usize = 128;

/// The four orthogonal directions as (file step, rank step).
const ORTHOGONAL: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

/// The square at (file, rank), both 0-based, or None when off the board.
fn square_at(file: i32, rank: i32) -> Option<usize> {
    if (0..FILES).contains(&file) && (0..RANKS).contains(&rank) { Some((rank * FILES + file) as usize) } else { None }
}

fn file_of(sq: usize) -> i32 {
    sq as i32 % FILES
}

fn rank_of(sq: usize) -> i32 {
    sq as i32 / FILES
}

/// `a1` .. `h16`.
fn square_name(sq: usize) -> String {
    format!("{}{}", (b'a' + file_of(sq) as u8) as char, rank_of(sq) + 1)
}

fn parse_square(s: &str) -> Option<usize> {
    let mut chars = s.chars();
    let f = chars.next()?;
    if !('a'..='h').contains(&f) {
        return None;
    }
    let digits = chars.as_str();
    if digits.is_empty() || digits.starts_with('0') || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let rank: i32 = digits.parse().ok()?;
    square_at(f as i32 - 'a' as i32, rank - 1)
}

// ---------------------------------------------------------------------------
// Moves
// ---------------------------------------------------------------------------

/// Kind of a move; ordered only so that moves can be sorted and deduplicated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum MoveKind {
    Plain,
    Capture,
    Strike,
}

/// A move is identified by (from, to, kind): several reasons for the same
/// triple make one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Move {
    from: usize,
    to: usize,
    kind: MoveKind,
}

impl Move {
    /// `c4-c5` plain, `c4xc13` capture, `c4*c13` strike.
    fn notation(&self) -> String {
        let mark = match self.kind {
            MoveKind::Plain => '-',
            MoveKind::Capture => 'x',
            MoveKind::Strike => '*',
        };
        format!("{}{}{}", square_name(self.from), mark, square_name(self.to))
    }
}

type Board = Vec<Option<Piece>>;

fn is_empty(board: &Board, sq: usize) -> bool {
    board[sq].is_none()
}

/// Squares a piece on `from` reaches by its regular move geometry: exactly k
/// squares in one orthogonal direction, the k − 1 squares between empty. The
/// destination itself may be empty or occupied (callers decide).
fn regular_destinations(board: &Board, from: usize) -> Vec<usize> {
    let piece = board[from].as_ref().expect("a piece on the square");
    let k = piece.step();
    let (f, r) = (file_of(from), rank_of(from));
    let mut out = Vec::new();
    for (df, dr) in ORTHOGONAL {
        let mut between_empty = true;
        for d in 1..k {
            match square_at(f + df * d, r + dr * d) {
                Some(sq) if is_empty(board, sq) => {}
                _ => between_empty = false,
            }
        }
        if between_empty && let Some(dest) = square_at(f + df * k, r + dr * k) {
            out.push(dest);
        }
    }
    out
}

/// Whether the piece on `from` reaches `to` by its regular move geometry.
fn regular_reach(board: &Board, from: usize, to: usize) -> bool {
    regular_destinations(board, from).contains(&to)
}

/// Plain moves of the piece on `from`: regular geometry to an empty square.
fn plain_moves(board: &Board, from: usize) -> Vec<Move> {
    regular_destinations(board, from)
        .into_iter()
        .filter(|&to| is_empty(board, to))
        .map(|to| Move { from, to, kind: MoveKind::Plain })
        .collect()
}

/// Encounter: A's regular geometry reaches T and one of A's attack values is t.
fn encounter(board: &Board, from: usize, to: usize, t: u32) -> bool {
    let attacker = board[from].as_ref().unwrap();
    regular_reach(board, from, to) && attacker.attack_values().contains(&t)
}

/// Sally: F and T on one rank or file with n ≥ 2 empty squares strictly between
/// them, and a × n = t for one of A's attack values a. Any distance.
fn sally(board: &Board, from: usize, to: usize, t: u32) -> bool {
    let (ff, fr) = (file_of(from), rank_of(from));
    let (tf, tr) = (file_of(to), rank_of(to));
    if ff != tf && fr != tr {
        return false;
    }
    let distance = (tf - ff).abs() + (tr - fr).abs();
    let n = distance - 1;
    if n < 2 {
        return false;
    }
    let (df, dr) = ((tf - ff).signum(), (tr - fr).signum());
    for d in 1..distance {
        let sq = square_at(ff + df * d, fr + dr * d).unwrap();
        if !is_empty(board, sq) {
            return false;
        }
    }
    let attacker = board[from].as_ref().unwrap();
    attacker.attack_values().iter().any(|&a| a as u64 * n as u64 == t as u64)
}

/// Ambush: A's regular geometry reaches T, and another piece B of A's side
/// (B ≠ A), whose regular geometry also reaches T, has an attack value b with
/// a + b = t for one of A's attack values a. The move is A's; B stays put.
fn ambush(board: &Board, from: usize, to: usize, t: u32) -> bool {
    if !regular_reach(board, from, to) {
        return false;
    }
    let attacker = board[from].as_ref().unwrap();
    for helper_sq in 0..SQUARES {
        if helper_sq == from {
            continue;
        }
        let Some(helper) = &board[helper_sq] else { continue };
        if helper.side != attacker.side || !regular_reach(board, helper_sq, to) {
            continue;
        }
        for a in attacker.attack_values() {
            for b in helper.attack_values() {
                if a as u64 + b as u64 == t as u64 {
                    return true;
                }
            }
        }
    }
    false
}

/// Captures and strikes of the piece on `from`: against every enemy piece E,
/// at each value E is attacked at, by encounter, sally or ambush.
fn attack_moves(board: &Board, from: usize) -> Vec<Move> {
    let side = board[from].as_ref().unwrap().side;
    let mut out = Vec::new();
    for to in 0..SQUARES {
        let Some(enemy) = &board[to] else { continue };
        if enemy.side == side {
            continue;
        }
        for (t, kind) in enemy.target_values() {
            if encounter(board, from, to, t) || sally(board, from, to, t) || ambush(board, from, to, t) {
                out.push(Move { from, to, kind });
            }
        }
    }
    out
}

/// Every legal move of `side`, sorted, duplicates merged. Does not look at
/// whether the game is over.
fn generate_moves(board: &Board, side: RefSide) -> Vec<Move> {
    let mut out = Vec::new();
    for from in 0..SQUARES {
        match &board[from] {
            Some(p) if p.side == side => {
                out.extend(plain_moves(board, from));
                out.extend(attack_moves(board, from));
            }
            _ => {}
        }
    }
    out.sort();
    out.dedup();
    out
}

// ---------------------------------------------------------------------------
// Siege
// ---------------------------------------------------------------------------

/// A direction is open for the piece on `sq` when all squares at distances
/// 1..k exist and are empty. Off-board squares are never open.
fn direction_open(board: &Board, sq: usize, (df, dr): (i32, i32), k: i32) -> bool {
    let (f, r) = (file_of(sq), rank_of(sq));
    (1..=k).all(|d| match square_at(f + df * d, r + dr * d) {
        Some(s) => is_empty(board, s),
        None => false,
    })
}

/// Siege: the enemy piece on `sq` is besieged by `mover` when none of its four
/// directions is open and at least one orthogonal neighbour holds a piece of
/// the mover.
fn besieged(board: &Board, sq: usize, mover: RefSide) -> bool {
    let Some(piece) = &board[sq] else { return false };
    if piece.side == mover {
        return false; // the mover's own pieces are never besieged by its own move
    }
    let k = piece.step();
    let all_closed = ORTHOGONAL.iter().all(|&dir| !direction_open(board, sq, dir, k));
    let (f, r) = (file_of(sq), rank_of(sq));
    let touched_by_mover = ORTHOGONAL.iter().any(|&(df, dr)| match square_at(f + df, r + dr) {
        Some(n) => matches!(&board[n], Some(p) if p.side == mover),
        None => false,
    });
    all_closed && touched_by_mover
}

/// All enemy squares besieged after `mover`'s move, in increasing square index.
fn siege(board: &Board, mover: RefSide) -> Vec<usize> {
    (0..SQUARES).filter(|&sq| besieged(board, sq, mover)).collect()
}

// ---------------------------------------------------------------------------
// Victories
// ---------------------------------------------------------------------------

/// The number of decimal digits of a value.
fn digits(value: u32) -> u32 {
    value.to_string().len() as u32
}

/// Body: at least N men captured.
fn victory_of_body(captured: &[Man], n: u32) -> bool {
    captured.len() as u64 >= n as u64
}

/// Goods: the captured values sum to at least V.
fn victory_of_goods(captured: &[Man], v: u32) -> bool {
    captured_value(captured) >= v as u64
}

/// Lawsuit: at least V in value with exactly N men.
fn victory_of_lawsuit(captured: &[Man], v: u32, n: u32) -> bool {
    captured_value(captured) >= v as u64 && captured.len() as u64 == n as u64
}

/// Honor: exactly V in value with exactly N men.
fn victory_of_honor(captured: &[Man], v: u32, n: u32) -> bool {
    captured_value(captured) == v as u64 && captured.len() as u64 == n as u64
}

/// Honor and lawsuit: exactly V, exactly N men, and D decimal digits in all
/// over the captured values.
fn victory_of_honor_and_lawsuit(captured: &[Man], v: u32, n: u32, d: u32) -> bool {
    let total_digits: u64 = captured.iter().map(|m| digits(m.value) as u64).sum();
    victory_of_honor(captured, v, n) && total_digits == d as u64
}

fn captured_value(captured: &[Man]) -> u64 {
    captured.iter().map(|m| m.value as u64).sum()
}

/// The three kinds of progression, for sorted values a < b < c.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Progression {
    Arithmetic,
    Geometric,
    Harmonic,
}

/// Arithmetic: b − a = c − b.
fn arithmetic(a: u64, b: u64, c: u64) -> bool {
    b - a == c - b
}

/// Geometric: b² = a·c.
fn geometric(a: u64, b: u64, c: u64) -> bool {
    b * b == a * c
}

/// Harmonic (musical): (b − a)·c = (c − b)·a.
fn harmonic(a: u64, b: u64, c: u64) -> bool {
    (b - a) * c == (c - b) * a
}

/// The kind of progression three distinct values form, if any. With distinct
/// values at most one kind can hold (two kinds at once force a = b = c).
fn progression_of(mut values: [u64; 3]) -> Option<Progression> {
    values.sort();
    let [a, b, c] = values;
    if a == b || b == c {
        return None;
    }
    if arithmetic(a, b, c) {
        Some(Progression::Arithmetic)
    } else if geometric(a, b, c) {
        Some(Progression::Geometric)
    } else if harmonic(a, b, c) {
        Some(Progression::Harmonic)
    } else {
        None
    }
}

/// The kinds formed by the triples (any three of the values) of a group of
/// distinct values; None when two values are equal (our choice: the values of
/// a harmony must be distinct).
fn progression_kinds(values: &[u64]) -> Option<Vec<Progression>> {
    let mut sorted = values.to_vec();
    sorted.sort();
    if sorted.windows(2).any(|w| w[0] == w[1]) {
        return None;
    }
    let mut kinds = Vec::new();
    let n = sorted.len();
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                if let Some(kind) = progression_of([sorted[i], sorted[j], sorted[k]])
                    && !kinds.contains(&kind)
                {
                    kinds.push(kind);
                }
            }
        }
    }
    Some(kinds)
}

/// Groups of `count` pieces of `side`, equally spaced on one line (rank, file
/// or diagonal; what stands between them does not matter), all in the enemy
/// half. Each group is given as the pieces' current values.
fn equally_spaced_groups(board: &Board, side: RefSide, count: i32) -> Vec<Vec<u64>> {
    // One orientation per line: along a rank, along a file, and both diagonals.
    let lines = [(1, 0), (0, 1), (1, 1), (1, -1)];
    let mut groups = Vec::new();
    for start in 0..SQUARES {
        for (ux, uy) in lines {
            for spacing in 1..RANKS {
                let mut values = Vec::new();
                for i in 0..count {
                    let f = file_of(start) + ux * spacing * i;
                    let r = rank_of(start) + uy * spacing * i;
                    let Some(sq) = square_at(f, r) else { break };
                    match &board[sq] {
                        Some(p) if p.side == side && side.in_enemy_half(r) => values.push(p.total() as u64),
                        _ => break,
                    }
                }
                if values.len() == count as usize {
                    groups.push(values);
                }
            }
        }
    }
    groups
}

/// Proper victories need the enemy pyramid wholly captured: here, that the
/// enemy has no pyramid left on the board.
fn enemy_pyramid_captured(board: &Board, side: RefSide) -> bool {
    !board.iter().flatten().any(|p| p.side != side && p.is_pyramid())
}

/// Great victory: three pieces equally spaced in the enemy half whose values
/// (distinct) form one kind of progression.
fn great_victory(board: &Board, side: RefSide) -> bool {
    enemy_pyramid_captured(board, side)
        && equally_spaced_groups(board, side, 3)
            .iter()
            .any(|g| progression_kinds(g).is_some_and(|kinds| !kinds.is_empty()))
}

/// Greater victory: four pieces equally spaced in the enemy half, four distinct
/// values among which two triples form two different kinds of progression.
fn greater_victory(board: &Board, side: RefSide) -> bool {
    enemy_pyramid_captured(board, side)
        && equally_spaced_groups(board, side, 4)
            .iter()
            .any(|g| progression_kinds(g).is_some_and(|kinds| kinds.len() >= 2))
}

/// Excellent victory: as greater, with all three kinds each formed by some
/// triple among the four values.
fn excellent_victory(board: &Board, side: RefSide) -> bool {
    enemy_pyramid_captured(board, side)
        && equally_spaced_groups(board, side, 4)
            .iter()
            .any(|g| progression_kinds(g).is_some_and(|kinds| kinds.len() == 3))
}

// ---------------------------------------------------------------------------
// Positions
// ---------------------------------------------------------------------------

/// A position: board, side to move, the men each side has captured, the ply
/// clock and the move number, plus the victory condition in force and what
/// the last move captured (neither is part of RFEN).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefPos {
    board: Board,
    to_move: RefSide,
    /// Odd men captured by Even, in capture order.
    captured_by_even: Vec<Man>,
    /// Even men captured by Odd, in capture order.
    captured_by_odd: Vec<Man>,
    ply_clock: u32,
    move_number: u32,
    victory: RefVictory,
    last_captured: Vec<String>,
}

/// The spec's start position.
pub const START_RFEN: &str = "s49,s121,4,s225,s361/s28,s66,t36,t30,t56,t64,s120,p[s64.s49.t36.t25.c16]/t16,t12,c9,c25,c49,c81,t90,t100/2,c3,c5,c7,c9,2/8/8/8/8/8/8/8/8/2,C8,C6,C4,C2,2/T81,T72,C64,C36,C16,C4,T6,T9/S153,P[S36.S25.T16.T9.C4.C1],T49,T42,T20,T25,S45,S15/S289,S169,4,S81,S25 e - - 0 1";

impl RefPos {
    /// The spec's start position.
    pub fn start() -> RefPos {
        RefPos::parse(START_RFEN).expect("the start position parses")
    }

    /// Parses RFEN. A pyramid is intact unless marked struck (`P*[…]`). Errors name the
    /// failing token.
    pub fn parse(rfen: &str) -> Result<RefPos, String> {
        let fields: Vec<&str> = rfen.split(' ').collect();
        if fields.len() != 6 {
            return Err(format!(
                "RFEN needs 6 fields separated by single spaces, found {} in `{}`",
                fields.len(),
                rfen
            ));
        }
        let board = parse_board(fields[0])?;
        let to_move = match fields[1] {
            "e" => RefSide::Even,
            "o" => RefSide::Odd,
            other => return Err(format!("bad side to move `{other}` (expected `e` or `o`)")),
        };
        let captured_by_even = parse_captured(fields[2], RefSide::Odd, "men captured by Even")?;
        let captured_by_odd = parse_captured(fields[3], RefSide::Even, "men captured by Odd")?;
        let ply_clock = parse_counter(fields[4], "ply clock")?;
        let move_number = parse_counter(fields[5], "move number")?;
        if move_number == 0 {
            return Err(format!("bad move number `{}` (starts at 1)", fields[5]));
        }
        Ok(RefPos {
            board,
            to_move,
            captured_by_even,
            captured_by_odd,
            ply_clock,
            move_number,
            victory: RefVictory::Body(15),
            last_captured: Vec::new(),
        })
    }

    /// Canonical RFEN: empty squares merged, `-` for an empty captured list.
    pub fn rfen(&self) -> String {
        let mut ranks = Vec::new();
        for r in (0..RANKS).rev() {
            let mut tokens = Vec::new();
            let mut empties = 0;
            for f in 0..FILES {
                match &self.board[square_at(f, r).unwrap()] {
                    None => empties += 1,
                    Some(p) => {
                        if empties > 0 {
                            tokens.push(empties.to_string());
                            empties = 0;
                        }
                        tokens.push(p.token());
                    }
                }
            }
            if empties > 0 {
                tokens.push(empties.to_string());
            }
            ranks.push(tokens.join(","));
        }
        let side = match self.to_move {
            RefSide::Even => "e",
            RefSide::Odd => "o",
        };
        format!(
            "{} {} {} {} {} {}",
            ranks.join("/"),
            side,
            captured_field(&self.captured_by_even, RefSide::Odd),
            captured_field(&self.captured_by_odd, RefSide::Even),
            self.ply_clock,
            self.move_number
        )
    }

    pub fn side_to_move(&self) -> RefSide {
        self.to_move
    }

    /// Sets the victory condition in force (default `Body(15)`).
    pub fn set_victory(&mut self, v: RefVictory) {
        self.victory = v;
    }

    /// Legal moves in notation, sorted, no duplicates; empty when the game is over.
    pub fn moves(&self) -> Vec<String> {
        let mut out: Vec<String> = self.legal_moves().iter().map(Move::notation).collect();
        out.sort();
        out.dedup();
        out
    }

    /// Plays a legal move given in notation.
    pub fn play(&self, mv: &str) -> Result<RefPos, String> {
        let legal = self.legal_moves();
        match legal.iter().find(|m| m.notation() == mv) {
            Some(m) => Ok(self.apply(*m)),
            None => Err(format!("`{mv}` is not a legal move in {}", self.rfen())),
        }
    }

    /// Tokens captured by the move that produced this position.
    pub fn last_captured(&self) -> Vec<String> {
        self.last_captured.clone()
    }

    /// Status without repetition: victory of the side that just moved, then the
    /// 100-ply draw, then the loss of a side to move without a legal move.
    pub fn status(&self) -> RefStatus {
        let just_moved = self.to_move.other();
        if self.victory_met(just_moved) {
            RefStatus::Won(just_moved)
        } else if self.hundred_ply_rule() {
            RefStatus::Drawn
        } else if generate_moves(&self.board, self.to_move).is_empty() {
            RefStatus::Won(just_moved)
        } else {
            RefStatus::Ongoing
        }
    }

    /// Leaves of the legal-move tree at `depth`.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|&m| self.apply(m).perft(depth - 1)).sum()
    }

    // -- internals ---------------------------------------------------------

    /// The moves of the side to move, or none when the game is already over
    /// by victory or by the 100-ply rule.
    fn legal_moves(&self) -> Vec<Move> {
        if self.victory_met(self.to_move.other()) || self.hundred_ply_rule() {
            return Vec::new();
        }
        generate_moves(&self.board, self.to_move)
    }

    /// 100 consecutive plies without capture, strike or siege: a draw.
    fn hundred_ply_rule(&self) -> bool {
        self.ply_clock >= 100
    }

    fn captured_by(&self, side: RefSide) -> &[Man] {
        match side {
            RefSide::Even => &self.captured_by_even,
            RefSide::Odd => &self.captured_by_odd,
        }
    }

    /// Whether `side` meets the victory condition in force.
    fn victory_met(&self, side: RefSide) -> bool {
        let captured = self.captured_by(side);
        match self.victory {
            RefVictory::Body(n) => victory_of_body(captured, n),
            RefVictory::Goods(v) => victory_of_goods(captured, v),
            RefVictory::Lawsuit(v, n) => victory_of_lawsuit(captured, v, n),
            RefVictory::Honor(v, n) => victory_of_honor(captured, v, n),
            RefVictory::HonorLawsuit(v, n, d) => victory_of_honor_and_lawsuit(captured, v, n, d),
            RefVictory::Great => great_victory(&self.board, side),
            RefVictory::Greater => greater_victory(&self.board, side),
            RefVictory::Excellent => excellent_victory(&self.board, side),
        }
    }

    /// Plays a move known to be legal: the move itself, its capture or strike,
    /// then siege removal, the bookkeeping and the counters.
    fn apply(&self, mv: Move) -> RefPos {
        let mover = self.to_move;
        let mut next = self.clone();
        let mut taken: Vec<Man> = Vec::new();
        match mv.kind {
            MoveKind::Plain => {
                next.board[mv.to] = next.board[mv.from].take();
            }
            MoveKind::Capture => {
                // The enemy piece goes whole (a pyramid with all its remaining
                // layers), and the attacker takes its square.
                let enemy = next.board[mv.to].take().unwrap();
                taken.extend(enemy.men());
                next.board[mv.to] = next.board[mv.from].take();
            }
            MoveKind::Strike => {
                // Only the bottom layer goes; pyramid and attacker stay put.
                let pyramid = next.board[mv.to].as_mut().unwrap();
                let Form::Pyramid { layers, intact } = &mut pyramid.form else {
                    unreachable!("a strike hits a pyramid")
                };
                taken.push(layers.remove(0));
                *intact = false;
            }
        }
        for sq in siege(&next.board, mover) {
            let piece = next.board[sq].take().unwrap();
            taken.extend(piece.men());
        }

        let enemy = mover.other();
        next.last_captured = taken.iter().map(|m| m.token(enemy)).collect();
        let reset = !taken.is_empty();
        match mover {
            RefSide::Even => next.captured_by_even.extend(taken),
            RefSide::Odd => next.captured_by_odd.extend(taken),
        }
        next.ply_clock = if reset { 0 } else { self.ply_clock + 1 };
        if mover == RefSide::Odd {
            next.move_number += 1;
        }
        next.to_move = enemy;
        next
    }

    /// Board and side to move: what threefold repetition compares.
    fn repetition_key(&self) -> (&Board, RefSide) {
        (&self.board, self.to_move)
    }
}

// ---------------------------------------------------------------------------
// RFEN pieces
// ---------------------------------------------------------------------------

/// A positive decimal value without sign or leading zero.
fn parse_value(s: &str) -> Option<u32> {
    if s.is_empty() || s.starts_with('0') || !s.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// A single man token: shape letter and value, `C8`, `t100`.
fn parse_man(token: &str) -> Option<(Man, RefSide)> {
    let mut chars = token.chars();
    let (shape, side) = Shape::from_letter(chars.next()?)?;
    let value = parse_value(chars.as_str())?;
    Some((Man { shape, value }, side))
}

/// A pyramid token: `P[S36.S25]` / `p[s64.s49]`, layers bottom first, each in
/// the pyramid's case; `P*[S25]` once struck.
fn parse_pyramid(token: &str) -> Result<Piece, String> {
    let side = if token.starts_with('P') { RefSide::Even } else { RefSide::Odd };
    let struck = token[1..].starts_with('*');
    let inner = token[1 + struck as usize..]
        .strip_prefix('[')
        .and_then(|s| s.strip_suffix(']'))
        .ok_or_else(|| format!("bad pyramid `{token}` (expected brackets as in `P[S36.S25]`)"))?;
    if inner.is_empty() {
        return Err(format!("bad pyramid `{token}` (no layers)"));
    }
    let mut layers = Vec::new();
    for layer in inner.split('.') {
        match parse_man(layer) {
            Some((man, s)) if s == side => layers.push(man),
            _ => return Err(format!("bad pyramid layer `{layer}` in `{token}`")),
        }
    }
    Ok(Piece { side, form: Form::Pyramid { layers, intact: !struck } })
}

/// Field 1: sixteen ranks from 16 down to 1.
fn parse_board(field: &str) -> Result<Board, String> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 16 {
        return Err(format!("the board field has {} ranks, not 16: `{}`", ranks.len(), field));
    }
    let mut board: Board = vec![None; SQUARES];
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = RANKS - 1 - i as i32;
        let mut file = 0;
        for token in rank_text.split(',') {
            let pieces: Vec<Option<Piece>> = if token.starts_with(|c: char| c.is_ascii_digit()) {
                match token.parse::<usize>() {
                    Ok(n) if (1..=8).contains(&n) && !token.starts_with('0') => vec![None; n],
                    _ => return Err(format!("bad empty-square count `{token}` in rank {}", rank + 1)),
                }
            } else if token.starts_with('P') || token.starts_with('p') {
                vec![Some(parse_pyramid(token)?)]
            } else {
                match parse_man(token) {
                    Some((man, side)) => vec![Some(Piece { side, form: Form::Single(man) })],
                    None => return Err(format!("bad piece token `{token}` in rank {}", rank + 1)),
                }
            };
            for p in pieces {
                if file < FILES {
                    board[square_at(file, rank).unwrap()] = p;
                }
                file += 1;
            }
        }
        if file != FILES {
            return Err(format!("rank {} `{}` covers {} squares, not 8", rank + 1, rank_text, file));
        }
    }
    Ok(board)
}

/// Fields 3 and 4: men of `owner` captured, `-` or tokens joined by `.`.
fn parse_captured(field: &str, owner: RefSide, what: &str) -> Result<Vec<Man>, String> {
    if field == "-" {
        return Ok(Vec::new());
    }
    let mut men = Vec::new();
    for token in field.split('.') {
        match parse_man(token) {
            Some((man, side)) if side == owner => men.push(man),
            _ => return Err(format!("bad token `{token}` in the {what} field `{field}`")),
        }
    }
    Ok(men)
}

fn captured_field(men: &[Man], owner: RefSide) -> String {
    if men.is_empty() { "-".to_string() } else { men.iter().map(|m| m.token(owner)).collect::<Vec<_>>().join(".") }
}

/// Fields 5 and 6: a non-negative decimal.
fn parse_counter(field: &str, what: &str) -> Result<u32, String> {
    if field.is_empty() || !field.chars().all(|c| c.is_ascii_digit()) || (field.len() > 1 && field.starts_with('0')) {
        return Err(format!("bad {what} `{field}`"));
    }
    field.parse().map_err(|_| format!("bad {what} `{field}`"))
}

// ---------------------------------------------------------------------------
// Games with history
// ---------------------------------------------------------------------------

/// A game with its history, for threefold repetition: the same board and side
/// to move a third time is a draw.
#[derive(Clone, Debug)]
pub struct RefGame {
    positions: Vec<RefPos>,
}

impl RefGame {
    pub fn new(start: RefPos) -> RefGame {
        RefGame { positions: vec![start] }
    }

    pub fn current(&self) -> &RefPos {
        self.positions.last().unwrap()
    }

    /// Plays a legal move; refused once the game is over (repetition included).
    pub fn play(&mut self, mv: &str) -> Result<(), String> {
        if self.status() != RefStatus::Ongoing {
            return Err(format!("the game is over ({:?}); `{mv}` cannot be played", self.status()));
        }
        let next = self.current().play(mv)?;
        self.positions.push(next);
        Ok(())
    }

    /// Victory of the side that just moved, then the 100-ply draw, then
    /// threefold repetition, then the loss of a side to move without moves.
    pub fn status(&self) -> RefStatus {
        let current = self.current();
        let just_moved = current.to_move.other();
        if current.victory_met(just_moved) {
            RefStatus::Won(just_moved)
        } else if current.hundred_ply_rule() || self.threefold_repetition() {
            RefStatus::Drawn
        } else if generate_moves(&current.board, current.to_move).is_empty() {
            RefStatus::Won(just_moved)
        } else {
            RefStatus::Ongoing
        }
    }

    /// The current board and side to move have occurred three times.
    fn threefold_repetition(&self) -> bool {
        let key = self.current().repetition_key();
        self.positions.iter().filter(|p| p.repetition_key() == key).count() >= 3
    }
}
