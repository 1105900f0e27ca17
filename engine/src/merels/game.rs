//! The merels family (Rota included) as a [`Game`] for the players and the
//! arena: a state that knows the side to move and the throw before its turn,
//! throws as chance outcomes under the dice readings.

use crate::game::{Game, Outcome, Turn};

use super::actions::{Action, Throw};
use super::point::{PointSet, Side};
use super::position::{Position, State};
use super::rules::{Blocked, Rules};

/// One game of the family under fixed rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Merels {
    pub rules: Rules,
}

/// A state of play: the position seen from the side to move, which side
/// that is (x is player 0), and the throw made before this turn (`None`
/// while the dice are still to be thrown, or when the turn has none).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Play {
    pub side: Side,
    pub state: State,
    pub throw: Option<Throw>,
}

impl Play {
    /// The position in notation.
    pub fn position(&self, rules: &Rules) -> Position {
        Position::from_state(rules.board.kind, self.side, self.state)
    }
}

/// A throw of the dice, or a player's action with the state it leads to
/// (seen from the other side, as [`Rules::actions`] gives it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Throw(Throw),
    Act(Action, State),
}

impl Merels {
    pub fn new(rules: Rules) -> Merels {
        Merels { rules }
    }

    /// The throw the side to move acts under.
    fn throw_of(&self, p: &Play) -> Throw {
        p.throw.unwrap_or(Throw::None)
    }

    fn dice_pending(&self, p: &Play) -> bool {
        p.throw.is_none() && self.rules.throws(&p.state)
    }

    /// Lines of two men of `men` whose third point is empty.
    fn open_twos(&self, men: PointSet, empty: PointSet) -> i32 {
        self.rules.board.lines().iter().filter(|&&l| (l & men).len() == 2 && (l & empty).len() == 1).count() as i32
    }

    /// Steps the men of `men` could take to empty points.
    fn mobility(&self, men: PointSet, empty: PointSet) -> i32 {
        men.iter().map(|p| (self.rules.board.neighbours(p) & empty).len() as i32).sum()
    }

    /// The heuristic for the side to move: men, open lines of two, mobility.
    fn heuristic_to_move(&self, st: &State) -> f64 {
        if self.rules.lost(st) {
            return -1.0;
        }
        let empty = st.empty(self.rules.board);
        let men = self.rules.men() as f64;
        let material = (st.own_total() as f64 - st.other_total() as f64) / men;
        let twos = (self.open_twos(st.own, empty) - self.open_twos(st.other, empty)) as f64 / 4.0;
        let moving = !st.placing() || st.other_hand == 0;
        let mobility = if moving {
            (self.mobility(st.own, empty) - self.mobility(st.other, empty)) as f64 / (2.0 * men)
        } else {
            0.0
        };
        (0.6 * material + 0.25 * twos.clamp(-1.0, 1.0) + 0.15 * mobility.clamp(-1.0, 1.0)).clamp(-0.99, 0.99)
    }
}

impl Game for Merels {
    type State = Play;
    type Action = Move;

    fn name(&self) -> &'static str {
        if self.rules.board.kind == super::board::BoardKind::Rota { "rota" } else { "merels" }
    }

    fn start(&self) -> Play {
        Play { side: Side::X, state: State::start(self.rules.men()), throw: None }
    }

    fn turn(&self, p: &Play) -> Turn {
        if self.dice_pending(p) { Turn::Chance } else { Turn::Player(p.side.index()) }
    }

    fn actions(&self, p: &Play) -> Vec<Move> {
        if self.rules.lost(&p.state) || self.dice_pending(p) {
            return Vec::new();
        }
        let mut v = Vec::new();
        self.rules.for_each_action(&p.state, self.throw_of(p), |a, s| v.push(Move::Act(a, s)));
        v
    }

    fn chances(&self, p: &Play) -> Vec<(Move, f64)> {
        if !self.dice_pending(p) {
            return Vec::new();
        }
        self.rules.throw_outcomes(&p.state).into_iter().map(|(t, n)| (Move::Throw(t), n as f64 / 72.0)).collect()
    }

    fn apply(&self, p: &Play, m: Move) -> Play {
        match m {
            Move::Throw(t) => Play { throw: Some(t), ..*p },
            Move::Act(_, next) => Play { side: p.side.other(), state: next, throw: None },
        }
    }

    fn result(&self, p: &Play) -> Option<Outcome> {
        let other = p.side.other().index();
        if self.rules.lost(&p.state) {
            return Some(Outcome::Win(other));
        }
        if self.dice_pending(p) {
            return None;
        }
        let mut any = false;
        self.rules.for_each_action(&p.state, self.throw_of(p), |_, _| any = true);
        if any {
            return None;
        }
        // Blocked (passing would have been an action).
        Some(match self.rules.blocked {
            Blocked::Draw => Outcome::Draw,
            _ => Outcome::Win(other),
        })
    }

    fn heuristic(&self, p: &Play, player: usize) -> f64 {
        let h = self.heuristic_to_move(&p.state);
        if p.side.index() == player { h } else { -h }
    }

    fn gain(&self, _p: &Play, m: Move) -> f64 {
        match m {
            Move::Act(a, _) => a.captures().len() as f64,
            Move::Throw(_) => 0.0,
        }
    }

    /// Actions after a throw carry it as a prefix, `special:a1^d1` or
    /// `normal:a1-a4`, as `ludus merels show --play` reads them; a throw
    /// alone is `special` or `normal`.
    fn action_text(&self, p: &Play, m: Move) -> String {
        let name = |t: Throw| match t {
            Throw::Special => Some("special"),
            Throw::Normal => Some("normal"),
            Throw::None => None,
        };
        match m {
            Move::Throw(t) => name(t).unwrap_or("none").to_string(),
            Move::Act(a, _) => {
                let text = a.display(self.rules.board).to_string();
                match p.throw.and_then(name) {
                    Some(t) => format!("{t}:{text}"),
                    None => text,
                }
            }
        }
    }
}
