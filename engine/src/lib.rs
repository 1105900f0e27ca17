//! The games of ludus and their rules: the merels family with Rota
//! ([`merels`]) and Wibold's dice game of virtues ([`wibold`]); Rithmomachia
//! comes in its own module. Everything here is exact rules, notation and
//! move generation; the exhaustive analysis lives in the `solver` crate.

pub mod bitset;
pub mod merels;
pub mod rithmo;
pub mod wibold;
