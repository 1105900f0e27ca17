//! Retrograde solving of the merels family (`../shared/spec/merels.md`):
//! sectors, perfect indexing with symmetry, deterministic retrograde
//! analysis, exact values under chance in placement, value iteration under
//! chance in movement, and databases on disk.

pub mod checkpoint;
pub mod db;
pub mod exact;
pub mod index;
pub mod known;
pub mod manifest;
pub mod markov;
pub mod observer;
pub mod perfect;
pub mod plan;
pub mod report;
pub mod retro;
pub mod sector;
pub mod solution;
pub mod strategy;
pub mod table;
pub mod value;
pub mod verify;

pub use checkpoint::Interrupt;
pub use index::{BoardTables, Indexer};
pub use known::Known;
pub use observer::{Observer, Silent};
pub use perfect::{PerfectBot, solution_for_play};
pub use sector::Sector;
pub use solution::{Solution, SolveError, SolveOptions};
pub use table::{Census, Eval, Kind, Meta, Table, Values};
pub use value::{Interval, Value};
