//! The alpha-beta engine: negamax with principal variation search inside
//! iterative deepening, a transposition table, quiescence over captures,
//! strikes and sieges, move ordering (table move, captures by gain, killers,
//! history), null-move pruning and late-move reductions, draws by repetition
//! and by quiet plies, and scores of forced victories by their distance.

use std::sync::Arc;

use arrayvec::ArrayVec;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::eval::{MAN, Weights, features_knowing};
use super::moves::{Move, MoveKind, MoveList};
use super::position::Position;
use super::rules::RuleSet;
use super::tt::{Bound, TableTooLarge, Tt};

/// A forced victory now; `WIN − n` is a victory after `n` plies.
pub const WIN: i32 = 1_000_000;
/// Scores beyond this are forced victories or defeats.
pub const WIN_BOUND: i32 = WIN - 10_000;
const INF: i32 = WIN + 1;
const MAX_PLY: usize = 128;

/// When to stop.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub movetime: Option<Duration>,
    pub nodes: Option<u64>,
}

/// What the engine may do (everything, unless checking it against plain
/// minimax, which needs the exact ones only).
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub quiescence: bool,
    pub null_move: bool,
    pub reductions: bool,
    pub table: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options { quiescence: true, null_move: true, reductions: true, table: true }
    }
}

/// One iteration's report.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    pub score: i32,
    pub nodes: u64,
    pub time: Duration,
    pub pv: Vec<Move>,
}

impl Info {
    pub fn nps(&self) -> u64 {
        let s = self.time.as_secs_f64();
        if s > 0.0 { (self.nodes as f64 / s) as u64 } else { 0 }
    }
}

/// A score in words: `+1.25` men, or `win in 3` / `loss in 4` plies.
pub fn score_text(score: i32) -> String {
    if score > WIN_BOUND {
        format!("win in {}", WIN - score)
    } else if score < -WIN_BOUND {
        format!("loss in {}", WIN + score)
    } else {
        format!("{:+.2}", score as f64 / MAN as f64)
    }
}

/// The searcher: its table, heuristics and counters survive between
/// searches of one game.
pub struct Searcher {
    pub rules: RuleSet,
    pub options: Options,
    /// The evaluation's weights.
    pub weights: Weights,
    tt: Tt,
    killers: [[Option<Move>; 2]; MAX_PLY],
    history: Box<[[i32; 128]; 128]>,
    pv: Box<[[Option<Move>; MAX_PLY]; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    /// Hashes of the game before the root and of the path to the node.
    path: Vec<u64>,
    nodes: u64,
    seldepth: u32,
    start: Instant,
    limits: Limits,
    stop: Arc<AtomicBool>,
    stopped: bool,
    /// The first iteration runs to its end whatever the node budget: a
    /// search always has a move it has looked at.
    first_depth: bool,
    /// Root moves left out (the lines already found at this depth, for
    /// several principal variations).
    excluded: Vec<Move>,
    /// Quiescence's stand-pat values of this search.
    stand_pat: StandPat,
}

impl Searcher {
    /// A searcher with a table of `hash_mib` mebibytes; panics if the
    /// memory cannot be had (see [`Searcher::try_new`]).
    pub fn new(rules: RuleSet, hash_mib: usize) -> Searcher {
        Searcher::try_new(rules, hash_mib).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A searcher with a table of `hash_mib` mebibytes, or an error if the
    /// system will not give that much memory.
    pub fn try_new(rules: RuleSet, hash_mib: usize) -> Result<Searcher, TableTooLarge> {
        Ok(Searcher {
            rules,
            options: Options::default(),
            weights: Weights::DEFAULT,
            tt: Tt::try_new(hash_mib)?,
            killers: [[None; 2]; MAX_PLY],
            history: Box::new([[0; 128]; 128]),
            pv: Box::new([[None; MAX_PLY]; MAX_PLY]),
            pv_len: [0; MAX_PLY],
            path: Vec::new(),
            nodes: 0,
            seldepth: 0,
            start: Instant::now(),
            limits: Limits::default(),
            stop: Arc::new(AtomicBool::new(false)),
            stopped: false,
            first_depth: false,
            excluded: Vec::new(),
            stand_pat: StandPat::new(),
        })
    }

    /// A flag that stops the search cleanly when set (from another thread).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.iter_mut().for_each(|r| r.fill(0));
        self.killers = [[None; 2]; MAX_PLY];
    }

    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// A new search within `limits`: the clock, counters and stop flag
    /// reset, the transposition table's entries aged.
    fn begin(&mut self, limits: Limits) {
        self.start = Instant::now();
        self.limits = limits;
        self.nodes = 0;
        self.stopped = false;
        self.stop.store(false, Ordering::Relaxed);
        self.tt.new_search();
        self.stand_pat.clear();
    }

    /// Searches `pos` (the game's positions so far, `pos` last, given by
    /// their hashes in `history`, for repetition) within `limits`, reporting each finished
    /// iteration. Returns the last finished iteration; the best move is the
    /// first of its principal variation (none if the game is over).
    pub fn search(&mut self, pos: &Position, history: &[u64], limits: Limits, mut report: impl FnMut(&Info)) -> Info {
        self.begin(limits);
        for h in self.history.iter_mut() {
            for x in h.iter_mut() {
                *x /= 8;
            }
        }
        let legal = pos.legal_moves(&self.rules);
        let mut best = Info { depth: 0, seldepth: 0, score: 0, nodes: 0, time: Duration::ZERO, pv: Vec::new() };
        if legal.is_empty() {
            best.score = if pos.is_over(&self.rules) && !pos.victory_reached(&self.rules) { 0 } else { -WIN };
            return best;
        }
        // A first move to fall back on if even depth 1 is cut short.
        best.pv = vec![legal[0]];
        let max_depth = limits.depth.unwrap_or(64).clamp(1, MAX_PLY as u32 - 8);
        for depth in 1..=max_depth {
            self.first_depth = depth == 1;
            self.path.clear();
            self.path.extend_from_slice(history);
            self.seldepth = 0;
            let score = self.negamax(pos, depth as i32, -INF, INF, 0, true);
            if self.stopped && depth > 1 {
                break;
            }
            let pv: Vec<Move> = (0..self.pv_len[0]).map_while(|i| self.pv[0][i]).collect();
            best = Info {
                depth,
                seldepth: self.seldepth.max(depth),
                score,
                nodes: self.nodes,
                time: self.start.elapsed(),
                pv: if pv.is_empty() { best.pv } else { pv },
            };
            report(&best);
            if self.stopped || score.abs() > WIN_BOUND && (WIN - score.abs()) as u32 <= depth {
                break;
            }
            if let Some(t) = limits.movetime {
                // Another iteration would take several times as long.
                if self.start.elapsed() * 2 > t {
                    break;
                }
            }
        }
        best
    }

    /// Searches the `lines` best moves of `pos` (fewer if it has fewer),
    /// each with its score (for the side to move) and principal variation:
    /// at each depth the best move, then the best of the others, and so on.
    /// Reports each finished depth's lines, best first; returns the last.
    pub fn search_lines(
        &mut self,
        pos: &Position,
        history: &[u64],
        limits: Limits,
        lines: usize,
        mut report: impl FnMut(&[Info]),
    ) -> Vec<Info> {
        self.begin(limits);
        let legal = pos.legal_moves(&self.rules);
        if legal.is_empty() {
            return vec![self.search(pos, history, limits, |_| {})];
        }
        let lines = lines.clamp(1, legal.len());
        let mut best: Vec<Info> = Vec::new();
        let max_depth = limits.depth.unwrap_or(64).clamp(1, MAX_PLY as u32 - 8);
        for depth in 1..=max_depth {
            self.first_depth = depth == 1;
            let mut found: Vec<Info> = Vec::new();
            self.excluded.clear();
            for _ in 0..lines {
                self.path.clear();
                self.path.extend_from_slice(history);
                self.seldepth = 0;
                let score = self.negamax(pos, depth as i32, -INF, INF, 0, true);
                if self.stopped {
                    break;
                }
                let pv: Vec<Move> = (0..self.pv_len[0]).map_while(|i| self.pv[0][i]).collect();
                let Some(&first) = pv.first() else { break };
                self.excluded.push(first);
                found.push(Info {
                    depth,
                    seldepth: self.seldepth.max(depth),
                    score,
                    nodes: self.nodes,
                    time: self.start.elapsed(),
                    pv,
                });
            }
            self.excluded.clear();
            if found.len() < lines && (depth > 1 || found.is_empty()) {
                break;
            }
            // Lines found later may score better (a table cut-off at a
            // shallower bound): best first.
            found.sort_by_key(|i| std::cmp::Reverse(i.score));
            let (nodes, time) = (self.nodes, self.start.elapsed());
            for f in &mut found {
                (f.nodes, f.time) = (nodes, time);
            }
            best = found;
            report(&best);
            if let Some(t) = limits.movetime
                && self.start.elapsed() * 2 > t
            {
                break;
            }
            if self.stopped {
                break;
            }
        }
        best
    }

    /// The evaluation of a position whose moves, `moves`, are generated.
    #[inline]
    fn eval(&self, pos: &Position, moves: &[Move]) -> i32 {
        self.weights.apply(&features_knowing(pos, &self.rules, moves))
    }

    fn time_up(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        // The node budget is kept exactly; the clock and the stop flag are
        // read every 1024 nodes.
        if !self.first_depth && self.limits.nodes.is_some_and(|n| self.nodes >= n) {
            self.stopped = true;
        } else if self.nodes & 1023 == 0 {
            let out_of_time = self.limits.movetime.is_some_and(|t| self.start.elapsed() >= t);
            if out_of_time || self.stop.load(Ordering::Relaxed) {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// A score stored at `ply` as seen from the root, and back.
    fn to_tt(score: i32, ply: usize) -> i32 {
        if score > WIN_BOUND {
            score + ply as i32
        } else if score < -WIN_BOUND {
            score - ply as i32
        } else {
            score
        }
    }

    fn from_tt(score: i32, ply: usize) -> i32 {
        if score > WIN_BOUND {
            score - ply as i32
        } else if score < -WIN_BOUND {
            score + ply as i32
        } else {
            score
        }
    }

    /// The table key: the board and side, and the men each side has taken
    /// (which decide the victories).
    fn key(pos: &Position) -> u64 {
        let a = pos.captured_by(super::piece::Side::Even);
        let b = pos.captured_by(super::piece::Side::Odd);
        let extra = (a.count() as u64) | (a.value as u64) << 8 | (b.count() as u64) << 32 | (b.value as u64) << 40;
        pos.hash() ^ extra.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17)
    }

    /// The end of the game at a node reached by a move: the mover's victory
    /// (a loss for the side to move), the quiet-ply draw, repetition.
    fn ended(&self, pos: &Position, ply: usize) -> Option<i32> {
        if pos.victory_reached(&self.rules) {
            return Some(-(WIN - ply as i32));
        }
        let limit = self.rules.quiet_plies_draw;
        if limit > 0 && pos.clock >= limit {
            return Some(0);
        }
        // A position seen before on this path or in the game repeats: the
        // side that repeats can keep doing so, a draw.
        let h = pos.hash();
        let n = self.path.len();
        let reach = (pos.clock as usize).min(n);
        if self.rules.repetitions_draw > 0 && self.path[n - reach..n].iter().rev().skip(1).any(|&x| x == h) {
            return Some(0);
        }
        None
    }

    /// The moves in the order they are searched: the table's move, captures
    /// and strikes by what they take, killers, then by history.
    fn order(&self, pos: &Position, moves: &MoveList, tt_move: Option<Move>, ply: usize) -> Picker {
        let score = |m: &Move| -> i32 {
            if Some(*m) == tt_move {
                return i32::MAX;
            }
            match m.kind {
                MoveKind::Capture => {
                    let men = pos.pyramid_at(m.to).map_or(1, |p| p.len as i32);
                    1_000_000 + men * 10_000 + pos.value_at(m.to) as i32
                }
                MoveKind::Strike => 1_000_000 + 10_000,
                MoveKind::Plain => {
                    if self.killers[ply][0] == Some(*m) {
                        900_000
                    } else if self.killers[ply][1] == Some(*m) {
                        800_000
                    } else {
                        self.history[m.from.index()][m.to.index()]
                    }
                }
            }
        };
        let mut keyed = ArrayVec::new();
        for (i, &m) in moves.iter().enumerate() {
            keyed.push((Picker::key(score(&m), i), m));
        }
        Picker { keyed, next: 0, sorted: false }
    }

    fn negamax(&mut self, pos: &Position, depth: i32, mut alpha: i32, beta: i32, ply: usize, pv_node: bool) -> i32 {
        self.pv_len[ply] = 0;
        if ply > 0
            && let Some(s) = self.ended(pos, ply)
        {
            return s;
        }
        if depth <= 0 || ply >= MAX_PLY - 4 {
            return if self.options.quiescence {
                self.quiescence(pos, alpha, beta, ply, 0)
            } else {
                self.leaf(pos, ply)
            };
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply as u32);
        if self.time_up() {
            return 0;
        }
        let key = Self::key(pos);
        let mut tt_move = None;
        if self.options.table
            && let Some(hit) = self.tt.probe(key)
        {
            tt_move = hit.mv;
            let s = Self::from_tt(hit.score, ply);
            if !pv_node && hit.depth >= depth {
                match hit.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        let mut moves = MoveList::new();
        pos.generate(&self.rules, &mut moves);
        if moves.is_empty() {
            return -(WIN - ply as i32);
        }
        // Null move: if passing still holds beta, a move surely will.
        if self.options.null_move && !pv_node && depth >= 3 && beta.abs() < WIN_BOUND && moves.len() > 4 {
            let stand = self.eval(pos, &moves);
            if stand >= beta {
                let passed = pos.with_side(pos.side_to_move().other());
                self.path.push(passed.hash());
                let r = 2 + depth / 6;
                let s = -self.negamax(&passed, depth - 1 - r, -beta, -beta + 1, ply + 1, false);
                self.path.pop();
                if self.stopped {
                    return 0;
                }
                if s >= beta && s < WIN_BOUND {
                    return s;
                }
            }
        }
        let mut picker = self.order(pos, &moves, tt_move, ply);
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let mut i = 0;
        while let Some(m) = picker.next() {
            if ply == 0 && self.excluded.contains(&m) {
                continue;
            }
            let child = pos.play(m, &self.rules);
            self.path.push(child.hash());
            let quiet = m.kind == MoveKind::Plain && child.clock > 0;
            let mut s;
            if i == 0 {
                s = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, pv_node);
            } else {
                // Late quiet moves are searched shallower first.
                let r = if self.options.reductions && quiet && depth >= 3 && i >= 4 { 1 + (i >= 12) as i32 } else { 0 };
                s = -self.negamax(&child, depth - 1 - r, -alpha - 1, -alpha, ply + 1, false);
                if s > alpha && r > 0 {
                    s = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, ply + 1, false);
                }
                if s > alpha && s < beta {
                    s = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, pv_node);
                }
            }
            self.path.pop();
            i += 1;
            if self.stopped {
                return 0;
            }
            if s > best {
                best = s;
                best_move = Some(m);
                if s > alpha {
                    alpha = s;
                    // The principal variation: this move, then the child's.
                    self.pv[ply][0] = Some(m);
                    let n = self.pv_len[ply + 1];
                    for j in 0..n {
                        self.pv[ply][j + 1] = self.pv[ply + 1][j];
                    }
                    self.pv_len[ply] = n + 1;
                    if s >= beta {
                        if quiet {
                            if self.killers[ply][0] != Some(m) {
                                self.killers[ply][1] = self.killers[ply][0];
                                self.killers[ply][0] = Some(m);
                            }
                            let h = &mut self.history[m.from.index()][m.to.index()];
                            *h = (*h + depth * depth).min(1 << 20);
                        }
                        break;
                    }
                }
            }
        }
        if i == 0 {
            // Every root move left out: nothing to report.
            return -INF;
        }
        if self.options.table && (ply != 0 || self.excluded.is_empty()) {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha0 {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt.store(key, best_move, Self::to_tt(best, ply), depth, bound);
        }
        best
    }

    /// The evaluation at the horizon without quiescence (for checks
    /// against plain minimax).
    fn leaf(&mut self, pos: &Position, ply: usize) -> i32 {
        self.nodes += 1;
        let mut moves = MoveList::new();
        pos.generate(&self.rules, &mut moves);
        if moves.is_empty() {
            return -(WIN - ply as i32);
        }
        self.eval(pos, &moves)
    }

    /// Captures, strikes and sieges until the position is quiet.
    fn quiescence(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize, qply: u32) -> i32 {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply as u32);
        if self.time_up() {
            return 0;
        }
        // A position met before in this search: its stand-pat value (or
        // that it has no move) without generating or evaluating.
        let key = pos.hash();
        let known = self.stand_pat.get(key);
        match known {
            Some(NO_MOVE) => return -(WIN - ply as i32),
            Some(stand) if stand >= beta || ply >= MAX_PLY - 2 => return stand,
            _ => {}
        }
        // Captures and strikes; plain moves only where they may besiege
        // (next to an enemy piece), and only in the first plies.
        let enemy = pos.occupied(pos.side_to_move().other());
        let near = if qply < 4 {
            super::bitboard::Dir::ALL.into_iter().fold(super::bitboard::Bitboard::EMPTY, |acc, d| acc | enemy.step(d))
        } else {
            super::bitboard::Bitboard::EMPTY
        };
        let mut moves = MoveList::new();
        pos.generate_onto(&self.rules, near, &mut moves);
        if moves.is_empty() && !pos.has_plain_move(&self.rules) {
            self.stand_pat.put(key, NO_MOVE);
            return -(WIN - ply as i32);
        }
        // The evaluation reads the side to move's captures and strikes,
        // which are all there.
        let stand = match known {
            Some(stand) => stand,
            None => {
                let stand = self.eval(pos, &moves);
                self.stand_pat.put(key, stand);
                stand
            }
        };
        if stand >= beta || ply >= MAX_PLY - 2 {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        let mut picker = self.order(pos, &moves, None, ply.min(MAX_PLY - 1));
        while let Some(m) = picker.next() {
            let child = pos.play(m, &self.rules);
            if m.kind == MoveKind::Plain && child.clock > 0 {
                continue; // no siege: not tactical
            }
            let s = if child.victory_reached(&self.rules) {
                WIN - (ply as i32 + 1)
            } else {
                -self.quiescence(&child, -beta, -alpha, ply + 1, qply + 1)
            };
            if self.stopped {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// Moves handed out best first, ties in generation order: the first few by
/// selection (a cut often comes after one or two), the rest sorted once.
struct Picker {
    /// Each move with its key: the higher, the sooner.
    keyed: ArrayVec<(u64, Move), 512>,
    next: usize,
    sorted: bool,
}

impl Picker {
    /// Picks made by selection before the rest is sorted.
    const SELECTED: usize = 3;

    /// The key of the move of ordering score `score` generated `i`-th:
    /// unique, so the order is the same however it is found.
    fn key(score: i32, i: usize) -> u64 {
        ((score as i64 - i32::MIN as i64) as u64) << 16 | (0xFFFF - i as u64)
    }

    fn next(&mut self) -> Option<Move> {
        let n = self.keyed.len();
        if self.next >= n {
            return None;
        }
        if !self.sorted {
            if self.next < Self::SELECTED {
                let mut best = self.next;
                for j in self.next + 1..n {
                    if self.keyed[j].0 > self.keyed[best].0 {
                        best = j;
                    }
                }
                self.keyed.swap(self.next, best);
            } else {
                self.keyed[self.next..].sort_unstable_by_key(|e| std::cmp::Reverse(e.0));
                self.sorted = true;
            }
        }
        self.next += 1;
        Some(self.keyed[self.next - 1].1)
    }
}

/// What a stand-pat slot holds for a position without a move.
const NO_MOVE: i32 = i32::MIN;

/// Stand-pat values by position hash, one slot per hash's low bits, the
/// newest kept: a position met again in a search (by another order of the
/// same moves, or in the next iteration) skips its evaluation, and its move
/// generation too when it cuts off. Cleared at each search, so the weights
/// and rules are those of the search.
struct StandPat {
    slots: Box<[(u64, i32)]>,
    /// Whether the slot holds a value (a hash may be anything, 0 too).
    filled: Box<[bool]>,
}

impl StandPat {
    const SLOTS: usize = 1 << 16;

    fn new() -> StandPat {
        StandPat { slots: vec![(0, 0); Self::SLOTS].into(), filled: vec![false; Self::SLOTS].into() }
    }

    fn clear(&mut self) {
        self.filled.fill(false);
    }

    #[inline]
    fn get(&self, key: u64) -> Option<i32> {
        let i = key as usize & (Self::SLOTS - 1);
        (self.filled[i] && self.slots[i].0 == key).then_some(self.slots[i].1)
    }

    #[inline]
    fn put(&mut self, key: u64, value: i32) {
        let i = key as usize & (Self::SLOTS - 1);
        self.slots[i] = (key, value);
        self.filled[i] = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rithmo::Square;

    /// A stand-pat slot gives back only the value of its own position, and
    /// nothing after a clear.
    #[test]
    fn stand_pat_slots_answer_for_their_own_position() {
        let mut t = StandPat::new();
        assert_eq!(t.get(0), None);
        t.put(0, 17);
        assert_eq!(t.get(0), Some(17));
        let other = StandPat::SLOTS as u64; // the same slot, another position
        assert_eq!(t.get(other), None);
        t.put(other, NO_MOVE);
        assert_eq!((t.get(other), t.get(0)), (Some(NO_MOVE), None));
        t.clear();
        assert_eq!(t.get(other), None);
    }

    /// The picker hands out the moves in the order of a full sort by score,
    /// ties in generation order, however many equal scores there are.
    #[test]
    fn picks_are_a_stable_sort_by_score() {
        let mut state = 7u64;
        for round in 0..500 {
            let n = (round % 40) + 1;
            let mut scored = Vec::new();
            let mut picker = Picker { keyed: ArrayVec::new(), next: 0, sorted: false };
            for i in 0..n {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let score = match state >> 61 {
                    0 => i32::MAX,
                    1 => 0,
                    _ => ((state >> 33) % 5) as i32 * 1000,
                };
                let m = Move::new(Square(i as u8), Square(i as u8 + 1), MoveKind::Plain);
                scored.push((score, i, m));
                picker.keyed.push((Picker::key(score, i), m));
            }
            scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            let want: Vec<Move> = scored.iter().map(|x| x.2).collect();
            let got: Vec<Move> = std::iter::from_fn(|| picker.next()).collect();
            assert_eq!(got, want, "round {round}");
        }
    }
}
