//! Legal actions: placement, movement, mill closing with its removals, the
//! special throws of the dice readings, and passing when blocked.

use std::fmt;

use smallvec::SmallVec;

use super::board::{Board, BoardKind};
use super::mill::{closing_points, men_in_mills, mills_closed_at, removal_sets};
use super::point::{Point, PointSet};
use super::position::State;
use super::rules::{Blocked, Dice, PlacementMills, Rules};

/// The dice thrown before a turn, when the reading throws them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Throw {
    /// No dice this turn.
    None,
    /// Any throw that is not special.
    Normal,
    /// 6-5-4, 6-3-3, 5-2-2 or 4-1-1.
    Special,
}

/// One whole turn of a player. `captures` are the enemy men removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// A man from hand onto an empty point.
    Place { to: Point, captures: PointSet },
    /// A man along a line to an empty point (anywhere when flying).
    Move { from: Point, to: Point, captures: PointSet },
    /// Schädler's special throw: a man leaps to an empty point where it closes
    /// a mill.
    Leap { from: Point, to: Point, captures: PointSet },
    /// Murray's special throw: three men placed at once on an empty line.
    PlaceLine { line: PointSet, captures: PointSet },
    /// No legal move, under `--blocked pass`.
    Pass,
}

impl Action {
    pub fn captures(&self) -> PointSet {
        match *self {
            Action::Place { captures, .. }
            | Action::Move { captures, .. }
            | Action::Leap { captures, .. }
            | Action::PlaceLine { captures, .. } => captures,
            Action::Pass => PointSet::EMPTY,
        }
    }

    /// The action in notation: `b2`, `a1-a4`, `a1^g7`, `a1+d1+g1`, `pass`,
    /// each removal appended as `x<point>`.
    pub fn display(self, board: &Board) -> ActionDisplay<'_> {
        ActionDisplay { action: self, board }
    }

    /// Reads an action in notation; whether it is legal is for the caller to
    /// check against the generated actions.
    pub fn parse(s: &str, board: &Board) -> Result<Action, ParseActionError> {
        let s = s.trim();
        if s == "pass" {
            return Ok(Action::Pass);
        }
        let text = || s.to_string();
        let mut parts = s.split('x');
        let head = parts.next().unwrap_or_default();
        let point = |name: &str| {
            board.point(name).ok_or_else(|| ParseActionError::UnknownPoint {
                text: text(),
                name: name.to_string(),
                board: board.kind,
            })
        };
        let mut captures = PointSet::EMPTY;
        for c in parts {
            if c.is_empty() {
                return Err(ParseActionError::NoRemoval { text: text() });
            }
            let p = point(c)?;
            if captures.contains(p) {
                return Err(ParseActionError::RemovedTwice { text: text(), point: c.to_string() });
            }
            captures = captures.with(p);
        }
        if head.is_empty() {
            return Err(ParseActionError::NoPoint { text: text() });
        }
        if let Some((a, b)) = head.split_once('-') {
            return Ok(Action::Move { from: point(a)?, to: point(b)?, captures });
        }
        if let Some((a, b)) = head.split_once('^') {
            return Ok(Action::Leap { from: point(a)?, to: point(b)?, captures });
        }
        if head.contains('+') {
            let mut line = PointSet::EMPTY;
            for name in head.split('+') {
                line = line.with(point(name)?);
            }
            if line.len() != 3 || !board.lines().contains(&line) {
                return Err(ParseActionError::NotALine { text: head.to_string(), board: board.kind });
            }
            return Ok(Action::PlaceLine { line, captures });
        }
        Ok(Action::Place { to: point(head)?, captures })
    }
}

/// Text that is not an action in notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseActionError {
    /// `name` is not a point of the board.
    UnknownPoint { text: String, name: String, board: BoardKind },
    /// An `x` not followed by the point removed.
    NoRemoval { text: String },
    /// The same point removed twice.
    RemovedTwice { text: String, point: String },
    /// No point to place on or move from.
    NoPoint { text: String },
    /// Points joined by `+` that are not a line of the board.
    NotALine { text: String, board: BoardKind },
}

impl fmt::Display for ParseActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseActionError::UnknownPoint { text, name, board } => {
                let b = Board::get(*board, false);
                let points: Vec<&str> = b.points().map(|p| b.name(p)).collect();
                write!(f, "'{name}' in '{text}' is not a point of the {board} board (points: {})", points.join(" "))
            }
            ParseActionError::NoRemoval { text } => write!(f, "'{text}': an 'x' must be followed by the point removed"),
            ParseActionError::RemovedTwice { text, point } => write!(f, "'{text}' removes {point} twice"),
            ParseActionError::NoPoint { text } => write!(f, "'{text}' does not name a point to place or move"),
            ParseActionError::NotALine { text, board } => write!(f, "'{text}' is not a line of the {board} board"),
        }
    }
}

impl std::error::Error for ParseActionError {}

/// Displays an action with the board's point names.
pub struct ActionDisplay<'a> {
    action: Action,
    board: &'a Board,
}

impl fmt::Display for ActionDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.board;
        match self.action {
            Action::Pass => return f.write_str("pass"),
            Action::Place { to, .. } => f.write_str(b.name(to))?,
            Action::Move { from, to, .. } => write!(f, "{}-{}", b.name(from), b.name(to))?,
            Action::Leap { from, to, .. } => write!(f, "{}^{}", b.name(from), b.name(to))?,
            Action::PlaceLine { line, .. } => {
                let names: Vec<_> = line.iter().map(|p| b.name(p)).collect();
                f.write_str(&names.join("+"))?
            }
        }
        for c in self.action.captures() {
            write!(f, "x{}", b.name(c))?;
        }
        Ok(())
    }
}

/// The mover's men after a turn, before removals: see [`Rules::finish`].
#[derive(Clone, Copy)]
struct After {
    new_own: PointSet,
    new_hand: u8,
    closed: u32,
    pre: PointSet,
}

impl Rules {
    /// Whether the side to move throws the dice before this turn.
    #[inline]
    pub fn throws(&self, st: &State) -> bool {
        if st.placing() { self.dice_in_placement() } else { self.dice_in_movement() }
    }

    /// Whether a throw can still change what a side may do, in this turn or
    /// a later one: Schädler's in every movement turn, Murray's special
    /// throw only for a side with at least three men in hand (hands never
    /// grow), Bell's in every placement turn; never where the throw has one
    /// outcome. Where it cannot, the rest of the game is without chance:
    /// its value is a win, a draw or a loss.
    pub fn chance_ahead(&self, st: &State) -> bool {
        if self.special_72 == 0 || self.special_72 >= 72 {
            return false;
        }
        match self.dice {
            Dice::None => false,
            Dice::Schaedler => true,
            Dice::Murray => st.own_hand >= 3 || st.other_hand >= 3,
            Dice::Bell => st.own_hand > 0 || st.other_hand > 0,
        }
    }

    /// The throws that can precede this turn, with their probabilities in 72nds.
    pub fn throw_outcomes(&self, st: &State) -> SmallVec<[(Throw, u8); 2]> {
        let mut v = SmallVec::new();
        if self.throws(st) {
            if self.special_72 > 0 {
                v.push((Throw::Special, self.special_72));
            }
            if self.special_72 < 72 {
                v.push((Throw::Normal, 72 - self.special_72));
            }
        } else {
            v.push((Throw::None, 72));
        }
        v
    }

    /// Whether the side to move has already lost, before any throw: the other
    /// side closed a line on a three-men board, or it has fewer than 3 men.
    #[inline]
    pub fn lost(&self, st: &State) -> bool {
        st.own_total() < 3 || (self.board.line_wins() && super::mill::has_line(self.board, st.other))
    }

    /// Calls `f` with every legal action after `throw` and the state it leads
    /// to (seen from the other side, who moves next). Nothing is called when
    /// the side to move is blocked, unless blocked players pass. The state must
    /// not be [`lost`](Rules::lost).
    pub fn for_each_action(&self, st: &State, throw: Throw, mut f: impl FnMut(Action, State)) {
        let mut any = false;
        let mut emit = |a: Action, s: State| {
            any = true;
            f(a, s)
        };
        let special = throw == Throw::Special;
        if st.placing() {
            self.placements(st, special, &mut emit);
        } else {
            self.movements(st, special, &mut emit);
        }
        if !any && self.blocked == Blocked::Pass {
            f(Action::Pass, st.swapped());
        }
    }

    /// All legal actions after `throw`, with their resulting states.
    pub fn actions(&self, st: &State, throw: Throw) -> Vec<(Action, State)> {
        let mut v = Vec::new();
        self.for_each_action(st, throw, |a, s| v.push((a, s)));
        v
    }

    /// How many men a move closing `closed` mills removes.
    #[inline]
    fn removals_for(&self, closed: u32) -> u32 {
        if self.double_mill_one { closed.min(1) } else { closed }
    }

    /// The state after the side to move has `new_own` on the board and
    /// `new_hand` in hand and has removed `captures`.
    #[inline]
    fn child(st: &State, new_own: PointSet, new_hand: u8, captures: PointSet) -> State {
        State { own: st.other - captures, other: new_own, own_hand: st.other_hand, other_hand: new_hand }
    }

    /// Emits the outcomes of a turn after which the mover has `new_own` on
    /// the board and `new_hand` in hand, having closed `closed` mills and
    /// already removed `pre`.
    #[inline]
    fn finish(
        &self,
        st: &State,
        after: After,
        make: impl Fn(PointSet) -> Action,
        emit: &mut impl FnMut(Action, State),
    ) {
        let After { new_own, new_hand, closed, pre } = after;
        let board = self.board;
        if closed == 0 || board.line_wins() {
            // No line closed (most moves: nothing more to remove), or a
            // closed line wins at once: nothing is removed.
            emit(make(pre), Self::child(st, new_own, new_hand, pre));
            return;
        }
        let enemy = st.other - pre;
        for r in removal_sets(board, enemy, self.removals_for(closed), self.no_take_from_mills) {
            let captures = pre | r;
            emit(make(captures), Self::child(st, new_own, new_hand, captures));
        }
    }

    fn placements(&self, st: &State, special: bool, emit: &mut impl FnMut(Action, State)) {
        let board = self.board;
        let empty = st.empty(board);
        let hand = st.own_hand - 1;
        let mut allowed = empty;
        let mut forced = false;
        if self.placement_mills == PlacementMills::Forbidden {
            let open = empty.iter().filter(|&p| mills_closed_at(board, st.own.with(p), p) == 0).collect::<PointSet>();
            if open.is_empty() {
                // Every empty point closes a mill: place anyway, to no effect.
                forced = true;
                debug_assert!(!board.line_wins(), "a forced line on a three-men board");
            } else {
                allowed = open;
            }
        }
        // Bell's special throw also takes one enemy man standing in a mill.
        let bell_targets =
            if special && self.dice == Dice::Bell { men_in_mills(board, st.other) } else { PointSet::EMPTY };
        for to in allowed {
            let new_own = st.own.with(to);
            let closed = if forced { 0 } else { mills_closed_at(board, new_own, to) };
            let make = |captures| Action::Place { to, captures };
            if bell_targets.is_empty() {
                self.finish(st, After { new_own, new_hand: hand, closed, pre: PointSet::EMPTY }, make, emit);
            } else if closed == 0 || board.line_wins() {
                // One removal, of each target in turn: each a set of its own.
                for pre in bell_targets {
                    self.finish(st, After { new_own, new_hand: hand, closed, pre: pre.bit() }, make, emit);
                }
            } else {
                // Different orders of the two removals can take the same men:
                // each resulting set is one action.
                let mut seen: SmallVec<[PointSet; 64]> = SmallVec::new();
                for pre in bell_targets {
                    self.finish(
                        st,
                        After { new_own, new_hand: hand, closed, pre: pre.bit() },
                        make,
                        &mut |a: Action, s: State| {
                            if !seen.contains(&a.captures()) {
                                seen.push(a.captures());
                                emit(a, s);
                            }
                        },
                    );
                }
            }
        }
        if special && self.dice == Dice::Murray && st.own_hand >= 3 {
            self.line_placements(st, emit);
        }
    }

    /// Murray's special throw: three men placed on an empty line at once
    /// (the side to move has at least three in hand).
    fn line_placements(&self, st: &State, emit: &mut impl FnMut(Action, State)) {
        let board = self.board;
        let empty = st.empty(board);
        for &line in board.lines() {
            if !line.is_subset(empty) {
                continue;
            }
            let new_own = st.own | line;
            let others = line
                .iter()
                .flat_map(|p| board.lines_at(p).iter().copied())
                .filter(|&l| l != line && l.is_subset(new_own))
                .fold(SmallVec::<[PointSet; 4]>::new(), |mut acc, l| {
                    if !acc.contains(&l) {
                        acc.push(l);
                    }
                    acc
                });
            let closed = 1 + others.len() as u32;
            self.finish(
                st,
                After { new_own, new_hand: st.own_hand - 3, closed, pre: PointSet::EMPTY },
                |captures| Action::PlaceLine { line, captures },
                emit,
            );
        }
    }

    fn movements(&self, st: &State, special: bool, emit: &mut impl FnMut(Action, State)) {
        let board = self.board;
        let empty = st.empty(board);
        let flying = self.flying && st.own.len() == 3;
        let leaps = special && self.dice == Dice::Schaedler;
        let closing = if leaps { closing_points(board, st.own, empty) } else { PointSet::EMPTY };
        for from in st.own {
            let reach = if flying { empty } else { board.neighbours(from) & empty };
            for to in reach {
                let new_own = st.own.without(from).with(to);
                let closed = mills_closed_at(board, new_own, to);
                self.finish(
                    st,
                    After { new_own, new_hand: 0, closed, pre: PointSet::EMPTY },
                    |captures| Action::Move { from, to, captures },
                    emit,
                );
            }
            if leaps {
                self.leaps_from(st, from, reach, closing, emit);
            }
        }
    }

    /// Schädler's special throw: the man on `from` leaps to an empty point
    /// outside its `reach`, only to close a mill. `closing` holds the empty
    /// points where one more man would close one ([`closing_points`] of the
    /// mover's men): a leap can close a mill nowhere else.
    fn leaps_from(
        &self,
        st: &State,
        from: Point,
        reach: PointSet,
        closing: PointSet,
        emit: &mut impl FnMut(Action, State),
    ) {
        for to in closing - reach {
            let new_own = st.own.without(from).with(to);
            let closed = mills_closed_at(self.board, new_own, to);
            if closed > 0 {
                self.finish(
                    st,
                    After { new_own, new_hand: 0, closed, pre: PointSet::EMPTY },
                    |captures| Action::Leap { from, to, captures },
                    emit,
                );
            }
        }
    }

    /// Where a special throw allows every action of a normal throw and more,
    /// calls `f` with those more (Murray's line placements, Schädler's
    /// leaps; none for Bell's special throw while no enemy man stands in a
    /// mill) and returns true; returns false, calling nothing, where it does
    /// not (Bell's special throw that must take an enemy man in a mill).
    /// Only a side with a normal action (not a pass) has exactly the normal
    /// throw's actions and these after a special one: a side that passes
    /// after a normal throw cannot pass when one of these is open to it.
    pub fn for_each_special_extra(&self, st: &State, mut f: impl FnMut(Action, State)) -> bool {
        if st.placing() {
            match self.dice {
                Dice::Bell => return men_in_mills(self.board, st.other).is_empty(),
                Dice::Murray if st.own_hand >= 3 => self.line_placements(st, &mut f),
                _ => {}
            }
        } else if self.dice == Dice::Schaedler {
            let empty = st.empty(self.board);
            let flying = self.flying && st.own.len() == 3;
            let closing = closing_points(self.board, st.own, empty);
            for from in st.own {
                let reach = if flying { empty } else { self.board.neighbours(from) & empty };
                self.leaps_from(st, from, reach, closing, &mut f);
            }
        }
        true
    }
}
