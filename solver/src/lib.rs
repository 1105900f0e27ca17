//! Exhaustive analysis for ludus: retrograde solving of the merels family
//! (indexing, symmetry, sectors, databases, deterministic and chance values)
//! and the exact and Monte Carlo evaluation of Wibold's game.

pub mod merels;
pub mod rota;
pub mod wibold;
