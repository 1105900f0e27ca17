//! The solver's values under chance, in one test binary so that its long
//! tests run side by side: against brute force over the explicit game
//! graphs of the small boards (`bruteforce`), the computed strategy against
//! a best response (`best_response`), and strategy iteration's
//! partial rounds, mill levels and copies against their whole twins
//! (`partial_rounds`), and the children generated against the stored lists
//! (`generated_moves`).

#[path = "../common/mod.rs"]
mod common;

mod best_response;
mod bruteforce;
mod generated_moves;
mod partial_rounds;
