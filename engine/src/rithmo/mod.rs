//! Rithmomachia, the battle of numbers (`../shared/spec/rithmomachia.md`):
//! a `u128` bitboard per side and shape on the 8 × 16 board, every capture of
//! the sources (encounter, sally, ambush, siege), pyramids as stacks of
//! layers, the victories, RFEN notation and perft.
//!
//! Data flows one way: RFEN → [`Position`] → [`Position::legal_moves`] →
//! [`Position::play`] (capture or strike, then siege) → [`Position::status`].

mod ambush;
pub mod bench;
mod bitboard;
mod encounter;
mod eval;
mod game;
mod movegen;
mod moves;
mod notation;
mod perft;
mod piece;
mod position;
mod reasons;
pub mod render;
mod rules;
mod sally;
mod search;
mod siege;
mod square;
pub mod study;
mod tt;
pub mod tune;
mod victory;
mod zobrist;

pub use bitboard::{Bitboard, Dir};
pub use eval::{Features, MAN, N_TERMS, Weights, evaluate, features, features_knowing};
pub use game::{Game, Line, Rithmomachia};
pub use moves::{Move, MoveKind, MoveList, ParseMoveError};
pub use notation::MoveError;
pub use perft::{divide, perft, perft_parallel};
pub use piece::{MAX_LAYERS, Man, Pyramid, Shape, Side};
pub use position::{
    AttackSet, Captured, CounterProblem, ParseRfenError, Piece, Position, RfenCounter, START, Snapshot, TokenProblem,
};
pub use reasons::MoveReasons;
pub use rules::{ParseVictoryError, Preset, RuleSet, Victory};
pub use search::{Info, Limits, Options, Searcher, WIN, WIN_BOUND, score_text};
pub use siege::besieged;
pub use square::{ParseSquareError, Square};
pub use tt::TableTooLarge;
pub use victory::{Reason, Status, progression_kinds};
