//! Wibold's Ludus Regularis, the clerics' dice game of virtues
//! (`../shared/spec/wibold.md`).
//!
//! Data flows one way: the [`dice`] give a [`Throw`] (or a [`Cast`], a throw
//! with the face of a possible re-cast), the [`outcome`] rules read it as a
//! virtue spelled or missed, a [`Game`] records who acquires what, and
//! [`scoring`] says who wins. The [`strategy`] module holds the choice
//! variant, a modern extension where players pick among several virtues.

pub mod dice;
pub mod game;
pub mod outcome;
pub mod scoring;
pub mod strategy;
pub mod virtues;

pub use dice::{Cast, Throw};
pub use game::{Game, Players, PlayersError, Rules};
pub use outcome::{Miss, Reading};
pub use scoring::{Scoring, Seats, Verdict, complementary_pairs};
pub use strategy::Strategy;
pub use virtues::{ParseRollError, Roll, UnknownVirtue, Virtue, VirtueSet};
