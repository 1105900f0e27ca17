//! Retrograde solving of the merels family (`../shared/spec/merels.md`).

pub mod index;
pub mod markov;
pub mod retro;
pub mod sector;
pub mod solution;
pub mod value;

pub use index::{BoardTables, Indexer};
pub use sector::Sector;
pub use solution::{Observer, Silent, Solution, Table};
pub use value::Value;
