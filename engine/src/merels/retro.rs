//! The rules run backwards: which positions one move leads from, for
//! retrograde analysis.

use super::mill::{has_line, mills_closed_at};
use super::{Action, Blocked, Rules, State, Throw};

impl Rules {
    /// Whether a state can occur at all: on the boards where a line wins, the
    /// side to move cannot already have one.
    #[inline]
    pub fn valid(&self, st: &State) -> bool {
        !(self.board.line_wins() && has_line(self.board, st.own))
    }

    /// Calls `f` with every state that one step or flight closing no mill,
    /// or a pass, leads to from `st` (movement phase, both hands empty; not
    /// lost), where the side then to move has not lost: the moves that take
    /// nothing, each once, and the forward twin of
    /// [`Rules::for_each_predecessor`]. A pass is had when the side has no
    /// step or flight at all (under Schädler's dice it then has no leap
    /// either: a leap fills a point on a line with two of its men, next to
    /// one of them).
    pub fn for_each_quiet_move(&self, st: &State, mut f: impl FnMut(State)) {
        let board = self.board;
        let empty = st.empty(board);
        let flying = self.flying && st.own.len() == 3;
        let mut any = false;
        for from in st.own {
            let reach = if flying { empty } else { board.neighbours(from) & empty };
            any |= !reach.is_empty();
            for to in reach {
                let new_own = st.own.without(from).with(to);
                if !board.line_wins() && mills_closed_at(board, new_own, to) > 0 {
                    continue;
                }
                let child = State { own: st.other, other: new_own, own_hand: 0, other_hand: 0 };
                if !self.lost(&child) {
                    f(child);
                }
            }
        }
        if !any && self.blocked == Blocked::Pass {
            let child = st.swapped();
            if !self.lost(&child) {
                f(child);
            }
        }
    }

    /// Calls `f` with every state of the movement phase (both hands empty)
    /// from which one step or flight that captures nothing, or a pass, leads
    /// to `st`:
    /// the other side of `st` moved. Each is valid and not lost, and may be
    /// called more than once. Moves that close a mill capture and are not
    /// among them, except on the boards where a line wins (there they capture
    /// nothing and leave `st` lost). Schädler's leaps are not among them: they
    /// always close a mill, so they capture, or win on those boards.
    pub fn for_each_predecessor(&self, st: &State, mut f: impl FnMut(State)) {
        let board = self.board;
        let mut emit = |q: State| {
            if self.valid(&q) && !self.lost(&q) {
                f(q)
            }
        };
        if st.own_hand > 0 || st.other_hand > 0 {
            return;
        }
        // The side that just moved is `st.other`.
        let mover = st.other;
        let empty = st.empty(board);
        let flying = self.flying && mover.len() == 3;
        if !(board.line_wins() && has_line(board, st.own)) {
            for to in mover {
                if !board.line_wins() && mills_closed_at(board, mover, to) > 0 {
                    continue;
                }
                let from_set = if flying { empty } else { board.neighbours(to) & empty };
                for from in from_set {
                    emit(State { own: mover.without(to).with(from), other: st.own, own_hand: 0, other_hand: 0 });
                }
            }
        }
        if self.blocked == Blocked::Pass {
            let q = st.swapped();
            if self.valid(&q) && !self.lost(&q) {
                let mut moves = 0;
                self.for_each_action(&q, Throw::None, |a, _| moves += (a != Action::Pass) as u32);
                if moves == 0 {
                    emit(q);
                }
            }
        }
    }
}
