//! The exact and Monte Carlo evaluation of Wibold's Ludus Regularis
//! (`../shared/spec/wibold.md`).
//!
//! One throw names at most one virtue, so a game's length is a coupon
//! collector's time with unequal chances (the simplified game's, with the 16
//! sums as coupons): [`coupons`] gives its exact law, [`analysis`] applies it
//! to both games with the article's Table 3, [`simulate`] plays games in
//! parallel, and [`tournament`] sets the choice variant's strategies
//! against each other.

pub mod analysis;
pub mod coupons;
pub mod simulate;
pub mod stats;
pub mod tournament;

pub use analysis::{LengthLaw, LengthSummary, VirtueRow, null_outcomes, virtue_table};
pub use coupons::{Coupons, CouponsError, Curve, decimal};
pub use simulate::{SimConfig, SimReport, Tally, play_logged, simulate};
pub use tournament::{MatchReport, play_match};
