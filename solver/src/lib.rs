//! Exhaustive analysis for ludus: retrograde solving of the merels family
//! (indexing, symmetry, sectors, databases, deterministic and chance values).

pub mod merels;
pub mod rota;
