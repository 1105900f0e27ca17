//! Perft: the number of leaves of the legal-move tree to a depth, the test
//! of a move generator. A finished game has no moves.

use rayon::prelude::*;

use super::movegen::Replies;
use super::moves::{Move, MoveList};
use super::position::{Position, Snapshot};
use super::rules::RuleSet;

/// Leaves at `depth` plies. The last ply is counted, not played; so is the
/// one before for plain moves of men that besiege nothing (the replies are
/// counted from the position before such a move: see [`Replies`]); other
/// moves are made and taken back in place.
pub fn perft(pos: &Position, rules: &RuleSet, depth: u32) -> u64 {
    let mut p = *pos;
    walk(&mut p, rules, depth)
}

/// Perft below a position.
fn walk(pos: &mut Position, rules: &RuleSet, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves(rules) as u64,
        _ => {
            if pos.is_over(rules) {
                return 0;
            }
            let mut moves = MoveList::new();
            pos.generate(rules, &mut moves);
            if depth == 2 {
                return Replies::new(pos, rules).count(pos, rules, &moves);
            }
            let mut n = 0;
            let mut snap = Snapshot::default();
            for &m in moves.iter() {
                pos.make_into(m, rules, &mut snap);
                n += walk(pos, rules, depth - 1);
                pos.unmake(m, &snap);
            }
            n
        }
    }
}

/// Perft split by the first move (nothing at depth 0, which has none).
pub fn divide(pos: &Position, rules: &RuleSet, depth: u32, parallel: bool) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves = pos.legal_moves(rules);
    let count = |&m: &Move| (m, perft(&pos.play(m, rules), rules, depth.saturating_sub(1)));
    let mut v: Vec<(Move, u64)> =
        if parallel { moves.par_iter().map(count).collect() } else { moves.iter().map(count).collect() };
    v.sort_by_key(|(m, _)| m.to_string());
    v
}

/// Perft across all cores: the subtrees of the first two plies in parallel.
pub fn perft_parallel(pos: &Position, rules: &RuleSet, depth: u32) -> u64 {
    if depth <= 2 {
        return perft(pos, rules, depth);
    }
    let first = pos.legal_moves(rules);
    let seconds: Vec<Position> = first
        .iter()
        .flat_map(|&m| {
            let p = pos.play(m, rules);
            p.legal_moves(rules).into_iter().map(move |n| p.play(n, rules))
        })
        .collect();
    seconds.par_iter().map(|p| perft(p, rules, depth - 2)).sum()
}
