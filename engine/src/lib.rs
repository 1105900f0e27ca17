//! The games of ludus and their rules: the merels family with Rota
//! ([`merels`]), Rithmomachia and Wibold's dice game come in their own
//! modules. Everything here is exact rules, notation and move generation; the
//! exhaustive analysis lives in the `solver` crate.

pub mod merels;
