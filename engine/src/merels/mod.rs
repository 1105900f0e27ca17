//! The merels family: Rota, three, six and nine men's morris, with and
//! without dice, on one generic board graph (`../shared/spec/merels.md`).
//!
//! Data flows one way: a [`Position`] (notation) gives a side-independent
//! [`State`], [`Rules::for_each_action`] gives the actions and the states they
//! lead to, and the solver and the players work on states.

mod actions;
mod board;
mod game;
pub mod mill;
mod notation;
mod point;
mod position;
mod render;
mod retro;
mod rules;
mod symmetry;

pub use actions::{Action, ActionDisplay, ParseActionError, Throw};
pub use board::{Board, BoardKind, MAX_POINTS};
pub use game::{Merels, Move, Play};
pub use notation::MoveError;
pub use point::{Point, PointIter, PointSet, Side};
pub use position::{Impossible, ParsePositionError, Position, State};
pub use render::render;
pub use rules::{Blocked, Dice, PlacementMills, Rules, RulesError, special_throw_count};
pub use symmetry::Symmetry;
