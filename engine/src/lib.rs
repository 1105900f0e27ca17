//! The games of ludus and their rules: the merels family with Rota
//! ([`merels`]), Rithmomachia ([`rithmo`]) and Wibold's dice game of virtues
//! ([`wibold`]); the [`Game`](game::Game) interface they share, the
//! game-independent [`players`] over it, and the [`arena`] that pits them
//! against each other. The exhaustive analysis lives in the `solver` crate.

pub mod arena;
pub mod bitset;
pub mod file;
pub mod game;
pub mod merels;
pub mod names;
pub mod players;
pub mod rithmo;
pub mod stats;
pub mod wibold;
