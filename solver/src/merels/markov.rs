//! Exact win probabilities of fixed strategies: the game as an absorbing
//! Markov chain over positions (symmetry-reduced), solved by iteration rather
//! than sampled. Each probability is closed in from below (from 0) and from
//! above (from 1, over the positions from which play can still end; 0 for
//! the others) at once: both iterations are monotone and meet at the chain's
//! unique solution, so the gap between them proves how far each figure can be off.
//!
//! Where play is absorbed slowly (long games of equally good moves) those
//! sweeps close in at a crawl, and the start's chances come from the
//! expected visits to every node instead: `y` with `(I − Q)ᵀ y = e` (`e`
//! the start's unit vector), solved by a Krylov method (restarted GMRES,
//! preconditioned by a Gauss–Seidel sweep), gives the start's chance of
//! either outcome as `yᵀ b`; an approximate `ỹ` is off by `sᵀ x` for its
//! residual `s` and the chances `0 ≤ x ≤ 1`, which the residual's entries
//! bound, rounding included (`Chain::visits`).
//!
//! Where chance is only in the placement (Murray's and Bell's readings),
//! play from the start runs through layers of men in hand without cycles,
//! and [`layered_chances`] carries the chances forward a layer at a time,
//! ending each play where no throw can matter any more (the movement phase,
//! or under Murray's reading both hands below three men) with the outcome
//! of its value; it reads the tables from the database a sector at a time
//! where they do not fit in memory together (nine men's morris), and holds
//! each layer as a sorted list of 16 bytes a position.

use std::collections::VecDeque;

use engine::merels::{Blocked, Dice, State, Throw};
use fxhash::FxHashMap;
use rayon::prelude::*;

use super::db::DbError;
use super::index::Indexer;
use super::observer::Observer;
use super::perfect::best_children;
use super::report::all_tables_in_memory;
use super::sector::{Sector, successors};
use super::solution::{Solution, SolveError};
use super::table::Eval;

/// How a side chooses its actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Uniformly at random among the legal actions.
    Random,
    /// As the perfect player: among the actions of best value (fastest win,
    /// slowest loss, any draw; under chance the highest expected value, the
    /// side ahead keeping to those of least progress rank), uniformly at
    /// random (`perfect::best_children`).
    Perfect,
}

/// The fate of the leader (the side that starts) under two policies.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChainResult {
    pub leader_wins: f64,
    pub leader_loses: f64,
    /// The rest: games that never end.
    pub endless: f64,
    /// Positions of the chain (after symmetry reduction).
    pub states: usize,
    pub sweeps: usize,
    /// The largest change in the last sweep.
    pub residual: f64,
    /// The most `leader_wins` and `leader_loses` can be off: half the gap
    /// between their bounds from below and from above (0 up to rounding
    /// when the sweeps closed, about 1e-11 from the expected visits; larger
    /// when both stopped at their limit of work, `WORK`).
    pub error: f64,
}

/// The most work (entries of the chain read by the sweeps, both bounds of
/// both outcomes, and by the Krylov method, with the vector entries it
/// touches) before the chances are given with the bounds they have.
const WORK: u64 = 20_000_000_000;

/// Bounds closer than this end the iteration.
const CLOSED: f64 = 1e-14;

enum Node {
    /// The game is over: 1 if the leader won, 0 otherwise, and whether it lost.
    Done { win: f64, loss: f64 },
    /// Play goes on: the successors with their chances, and the chances
    /// that the game ends at once (a throw after which the side to move has
    /// no action and, by the rules, loses) in the leader's win or loss.
    Moves { out: Vec<(usize, f64)>, win: f64, loss: f64 },
}

/// Solves the chain from the start position.
pub fn leader_chances(sol: &Solution, leader: Policy, follower: Policy) -> ChainResult {
    let nodes = chain_of_play(sol, leader, follower);
    if let Node::Done { win, loss } = nodes[0] {
        return ChainResult {
            leader_wins: win,
            leader_loses: loss,
            endless: 1.0 - win - loss,
            states: 1,
            sweeps: 0,
            residual: 0.0,
            error: 0.0,
        };
    }
    let states = nodes.len();
    let chain = Chain::new(&nodes);
    drop(nodes);
    let (win, loss, sweeps, residual) = chain.chances(WORK);
    let (w, l) = (0.5 * (win.0 + win.1), 0.5 * (loss.0 + loss.1));
    ChainResult {
        leader_wins: w,
        leader_loses: l,
        endless: (1.0 - w - l).max(0.0),
        states,
        sweeps,
        residual,
        error: 0.5 * (win.1 - win.0).max(loss.1 - loss.0),
    }
}

/// The positions play reaches from the start under the two policies, the
/// start first, each with its successors.
fn chain_of_play(sol: &Solution, leader: Policy, follower: Policy) -> Vec<Node> {
    let rules = &sol.rules;
    let mut ids: FxHashMap<(Sector, u64, bool), usize> = FxHashMap::default();
    let mut indexers: FxHashMap<Sector, Indexer> = FxHashMap::default();
    let mut key = |st: &State, lead: bool| {
        let s = Sector::of(st);
        let ix = indexers.entry(s).or_insert_with(|| Indexer::new(sol.board_tables.clone(), s));
        (s, ix.index(st), lead)
    };
    let mut nodes: Vec<Node> = Vec::new();
    let mut queue: Vec<(State, bool)> = vec![(State::start(rules.men()), true)];
    ids.insert(key(&queue[0].0, true), 0);
    let mut head = 0;
    while head < queue.len() {
        let (st, lead) = queue[head];
        head += 1;
        let node = if rules.lost(&st) {
            // The side to move lost.
            if lead { Node::Done { win: 0.0, loss: 1.0 } } else { Node::Done { win: 1.0, loss: 0.0 } }
        } else {
            let (blocked, edges) = moves_under(sol, &st, if lead { leader } else { follower });
            let blocked_end = |c: f64| blocked_end(rules.blocked, lead, c);
            if edges.is_empty() {
                let (win, loss) = blocked_end(1.0);
                Node::Done { win, loss }
            } else {
                let (win, loss) = blocked_end(blocked);
                let mut out: Vec<(usize, f64)> = Vec::with_capacity(edges.len());
                for (c, p) in edges {
                    let k = key(&c, !lead);
                    let id = *ids.entry(k).or_insert_with(|| {
                        queue.push((c, !lead));
                        queue.len() - 1
                    });
                    match out.iter_mut().find(|e| e.0 == id) {
                        Some(e) => e.1 += p,
                        None => out.push((id, p)),
                    }
                }
                Node::Moves { out, win, loss }
            }
        };
        nodes.push(node);
    }
    nodes
}

/// The chances of [`leader_chances`] under perfect play on both sides, for
/// readings whose chance is all in the placement (Murray's and Bell's), with
/// the tables in memory or, where they are not all there, read from the
/// database a sector at a time (and dropped after): for nine men's morris
/// they do not fit in memory together.
///
/// Placement puts one man down every ply, so play from the start is a
/// sequence of layers by the men still in hand, without cycles: the chance
/// of reaching each position is carried forward one layer at a time, and
/// each position of a layer is expanded with only its sector's successors'
/// tables in memory. A position from which no throw can matter any more
/// (`Rules::chance_ahead`: the movement phase, or under Murray's reading
/// both hands below three men) is a game without chance, where perfect play
/// keeps the value: it ends the chain with the outcome its value gives (so
/// that, unlike the whole chain, it never plays through the movement phase,
/// and under Murray's reading not through the last four placements either,
/// the layers with the most positions). `None` where the reading puts chance in the
/// movement phase; an error if a table cannot be read (or has gone), or if
/// the layers need more than `limit` bytes beside the tables
/// ([`SolveError::ChancesMemory`]).
///
/// A layer is a sorted list of positions (a packed key each) with their
/// chances, 16 bytes a position, in blocks freed as they are expanded; the
/// next one is gathered in sorted runs of `chunk` positions expanded at a
/// time, merged as they come (each run at most half the one before it, so
/// that few are held) and at the end, each merge freeing the blocks it has
/// read: the layers held at once need little more than the one being
/// expanded and the next.
pub fn layered_chances(sol: &mut Solution, limit: u64, obs: &dyn Observer) -> Result<Option<ChainResult>, SolveError> {
    layered_chances_in_chunks(sol, limit, LAYER_CHUNK, obs)
}

/// The positions of a layer [`layered_chances`] expands at a time.
const LAYER_CHUNK: usize = 1 << 20;

/// Bytes of one position of a layer: its key and its chance.
const ENTRY: u64 = std::mem::size_of::<(u64, f64)>() as u64;

/// [`layered_chances`], expanding `chunk` positions at a time.
pub fn layered_chances_in_chunks(
    sol: &mut Solution,
    limit: u64,
    chunk: usize,
    obs: &dyn Observer,
) -> Result<Option<ChainResult>, SolveError> {
    let rules = sol.rules;
    if !matches!(rules.dice, Dice::Murray | Dice::Bell) {
        return Ok(None);
    }
    // Tables read from the database a sector at a time, or all in memory.
    let stream = !all_tables_in_memory(sol);
    let tables = sol.board_tables.clone();
    let start = State::start(rules.men());
    let start_sector = Sector::of(&start);
    // The positions of the layer, the leader's turn or not, with the chance
    // of reaching them; the chance of the leader's win and loss so far.
    let mut layer = Blocks::from_sorted(vec![(
        Key::pack(start_sector, Indexer::new(tables.clone(), start_sector).index(&start)),
        1.0,
    )]);
    let mut lead = true;
    let (mut win, mut loss) = (0.0, 0.0);
    let mut states = 0;
    // A layer per man placed, and the last into the movement phase.
    let mut exceeded = None;
    'layers: for depth in 0.. {
        if layer.len == 0 {
            break;
        }
        obs.begin(&format!("chances of perfect play: layer {depth} of {}", 2 * rules.men()), layer.len as u64);
        states += layer.len;
        let mut runs = Runs::default();
        // The sector of the positions being expanded, with its indexer and
        // its successors'.
        let mut current: Option<(Sector, Indexer, FxHashMap<Sector, Indexer>)> = None;
        while let Some(block) = layer.pop() {
            let mut at = 0;
            while at < block.len() {
                let sector = Key::sector(block[at].0);
                let end = at + block[at..].partition_point(|e| Key::sector(e.0) == sector);
                if current.as_ref().is_none_or(|c| c.0 != sector) {
                    let reads = successors(&rules, sector);
                    if stream {
                        // Only this sector's successors' tables in memory.
                        sol.retain_tables(|t| reads.contains(t));
                        for &t in &reads {
                            if !sol.load_sector(t)? {
                                return Err(SolveError::Read { sector: t.key(), error: DbError::Missing });
                            }
                        }
                    }
                    let children = reads.iter().map(|&t| (t, Indexer::new(tables.clone(), t))).collect();
                    current = Some((sector, Indexer::new(tables.clone(), sector), children));
                }
                let (_, ix, children) = current.as_ref().expect("the sector's indexers");
                let sol = &*sol;
                for part in block[at..end].chunks(chunk) {
                    let expanded: Vec<Expanded> = part
                        .par_iter()
                        .map(|&(key, mass)| {
                            let st = ix.state(Key::index(key));
                            let (blocked, moves) = moves_under(sol, &st, Policy::Perfect);
                            let (mut w, mut l) = blocked_end(rules.blocked, lead, mass * blocked);
                            let mut out = Vec::new();
                            for (c, p) in moves {
                                let share = mass * p;
                                // The side to move in `c` is the leader's
                                // opponent when the leader moved.
                                let sign = match sol.eval(&c).expect("solved") {
                                    _ if rules.lost(&c) => -1,
                                    Eval::Dtm(v) => v.sign(),
                                    // No throw matters any more: perfect play
                                    // keeps the value, a win, draw or loss.
                                    Eval::Exact(n) if !rules.chance_ahead(&c) => {
                                        debug_assert!(n == 0 || n.abs() == sol.den, "{n}/{} without chance", sol.den);
                                        n.signum() as i32
                                    }
                                    _ => {
                                        let t = Sector::of(&c);
                                        let index = children.get(&t).expect("a successor sector").index(&c);
                                        out.push((Key::pack(t, index), share));
                                        continue;
                                    }
                                };
                                // +1: the side to move in `c` wins.
                                match (sign, lead) {
                                    (0, _) => {}
                                    (1, true) | (-1, false) => l += share,
                                    _ => w += share,
                                }
                            }
                            (w, l, out)
                        })
                        .collect();
                    let mut next = Vec::with_capacity(expanded.iter().map(|e| e.2.len()).sum());
                    for (w, l, out) in expanded {
                        win += w;
                        loss += l;
                        next.extend(out);
                    }
                    runs.push(Blocks::from_sorted(sorted(next)));
                    // What is left of the layer, the runs, and a block of a
                    // merge beside them.
                    let held = layer.len + block.len() + runs.held() + chunk;
                    if held as u64 * ENTRY + sol.tables_bytes() > limit {
                        exceeded =
                            Some(SolveError::ChancesMemory { layer: depth + 1, positions: runs.held() as u64, limit });
                        break 'layers;
                    }
                    runs.settle(chunk);
                    obs.advance(part.len() as u64);
                }
                at = end;
            }
        }
        layer = runs.merged(chunk);
        lead = !lead;
        obs.finish();
    }
    obs.finish();
    if stream {
        sol.retain_tables(|_| false);
    }
    if let Some(e) = exceeded {
        return Err(e);
    }
    Ok(Some(ChainResult {
        leader_wins: win,
        leader_loses: loss,
        endless: (1.0 - win - loss).max(0.0),
        states,
        sweeps: 0,
        residual: 0.0,
        error: 0.0,
    }))
}

/// A position of a layer expanded: the leader's win and loss it ends in, and
/// the positions of the next layer with their chances.
type Expanded = (f64, f64, Vec<(u64, f64)>);

/// A position of a layer as one number: its sector's four counts, then its
/// index (below 2⁴⁸), so that keys sort by sector, then index.
struct Key;

impl Key {
    #[inline]
    fn pack(s: Sector, index: u64) -> u64 {
        debug_assert!(index < 1 << 48 && s.w < 16 && s.wf < 16 && s.b < 16 && s.bf < 16);
        (u64::from(s.w) << 60) | (u64::from(s.wf) << 56) | (u64::from(s.b) << 52) | (u64::from(s.bf) << 48) | index
    }

    #[inline]
    fn sector(k: u64) -> Sector {
        let n = |shift: u32| (k >> shift & 15) as u8;
        Sector { w: n(60), wf: n(56), b: n(52), bf: n(48) }
    }

    #[inline]
    fn index(k: u64) -> u64 {
        k & ((1 << 48) - 1)
    }
}

/// Positions with their chances, sorted by key, each key once (the chances
/// of a key added up).
fn sorted(mut v: Vec<(u64, f64)>) -> Vec<(u64, f64)> {
    v.par_sort_unstable_by_key(|e| e.0);
    let mut w = 0;
    for r in 0..v.len() {
        if w > 0 && v[w - 1].0 == v[r].0 {
            v[w - 1].1 += v[r].1;
        } else {
            v[w] = v[r];
            w += 1;
        }
    }
    v.truncate(w);
    v.shrink_to_fit();
    v
}

/// A sorted list of positions with their chances (as [`sorted`] makes
/// them) in blocks, which a merge or a pass over the list frees as it reads
/// them: merging two lists holds little more than the two.
#[derive(Default)]
struct Blocks {
    blocks: VecDeque<Vec<(u64, f64)>>,
    len: usize,
}

impl Blocks {
    fn from_sorted(v: Vec<(u64, f64)>) -> Blocks {
        let len = v.len();
        Blocks { blocks: if len > 0 { VecDeque::from([v]) } else { VecDeque::new() }, len }
    }

    /// The first block, taken off the list.
    fn pop(&mut self) -> Option<Vec<(u64, f64)>> {
        let b = self.blocks.pop_front()?;
        self.len -= b.len();
        Some(b)
    }

    /// The two lists as one, in blocks of at most `block` positions; each
    /// block of theirs is freed once read.
    fn merge(mut a: Blocks, mut b: Blocks, block: usize) -> Blocks {
        let mut out = Blocks::default();
        let mut cur = Vec::with_capacity(block.min(a.len + b.len));
        let (mut x, mut y) = (a.pop().unwrap_or_default(), b.pop().unwrap_or_default());
        let (mut i, mut j) = (0, 0);
        loop {
            if i == x.len() {
                match a.pop() {
                    Some(n) => (x, i) = (n, 0),
                    None => x = Vec::new(),
                }
            }
            if j == y.len() {
                match b.pop() {
                    Some(n) => (y, j) = (n, 0),
                    None => y = Vec::new(),
                }
            }
            let e = match (x.get(i), y.get(j)) {
                (None, None) => break,
                (Some(&p), None) => {
                    i += 1;
                    p
                }
                (None, Some(&q)) => {
                    j += 1;
                    q
                }
                (Some(&p), Some(&q)) => match p.0.cmp(&q.0) {
                    std::cmp::Ordering::Less => {
                        i += 1;
                        p
                    }
                    std::cmp::Ordering::Greater => {
                        j += 1;
                        q
                    }
                    std::cmp::Ordering::Equal => {
                        i += 1;
                        j += 1;
                        (p.0, p.1 + q.1)
                    }
                },
            };
            cur.push(e);
            if cur.len() == block {
                out.len += cur.len();
                out.blocks.push_back(std::mem::replace(&mut cur, Vec::with_capacity(block)));
            }
        }
        if !cur.is_empty() {
            cur.shrink_to_fit();
            out.len += cur.len();
            out.blocks.push_back(cur);
        }
        out
    }
}

/// The sorted runs of the next layer gathered so far, each at most half as
/// long as the one before it once settled (so that a layer of `n` positions
/// is held in at most about log₂ n runs, each position merged about as
/// often).
#[derive(Default)]
struct Runs(Vec<Blocks>);

impl Runs {
    fn push(&mut self, run: Blocks) {
        self.0.push(run);
    }

    /// Positions held in the runs.
    fn held(&self) -> usize {
        self.0.iter().map(|r| r.len).sum()
    }

    /// Merges the last two runs while the last is more than half the one
    /// before.
    fn settle(&mut self, block: usize) {
        while self.0.len() >= 2 && 2 * self.0[self.0.len() - 1].len > self.0[self.0.len() - 2].len {
            self.merge_last(block);
        }
    }

    /// Merges the last two runs into one.
    fn merge_last(&mut self, block: usize) {
        let b = self.0.pop().expect("two runs");
        let a = self.0.pop().expect("two runs");
        self.0.push(Blocks::merge(a, b, block));
    }

    /// All runs as one sorted list.
    fn merged(mut self, block: usize) -> Blocks {
        while self.0.len() >= 2 {
            self.merge_last(block);
        }
        self.0.pop().unwrap_or_default()
    }
}

/// A position's moves under `policy`: the chance of the throws after which
/// the side to move is blocked, and each child it moves to with its chance
/// (a throw's chance in equal shares among the children chosen after it).
fn moves_under(sol: &Solution, st: &State, policy: Policy) -> (f64, Vec<(State, f64)>) {
    let rules = &sol.rules;
    let mut blocked = 0.0;
    let mut moves = Vec::new();
    for (throw, p72) in rules.throw_outcomes(st) {
        let kids: Vec<State> = rules.actions(st, throw).into_iter().map(|k| k.1).collect();
        debug_assert!(throw == Throw::None || !kids.is_empty() || rules.blocked != Blocked::Pass);
        let chosen: Vec<usize> = match policy {
            Policy::Random => (0..kids.len()).collect(),
            Policy::Perfect => best_children(sol, st, &kids).expect("solved"),
        };
        let p = p72 as f64 / 72.0;
        if chosen.is_empty() {
            blocked += p;
            continue;
        }
        let share = p / chosen.len() as f64;
        moves.extend(chosen.into_iter().map(|i| (kids[i], share)));
    }
    (blocked, moves)
}

/// One position of a layer expanded: the chances of the leader's win and
/// loss at once, and the positions of the next layer with their chances.
/// The leader's win and loss when the side to move is blocked with chance
/// `c`: it loses, unless a blocked game is drawn.
fn blocked_end(blocked: Blocked, lead: bool, c: f64) -> (f64, f64) {
    match blocked {
        Blocked::Draw => (0.0, 0.0),
        _ if lead => (0.0, c),
        _ => (c, 0.0),
    }
}

/// The chain's linear system over the nodes from which an end can be
/// reached (every other node never ends: both chances 0): `x = Q x + b`,
/// row by row, `b` holding the chance of ending at once in a win and in a
/// loss. `Q` is substochastic and play leaves these nodes with chance 1,
/// so `I − Q` is invertible and the system has one solution.
struct Chain {
    q: Sparse,
    win: Vec<f64>,
    loss: Vec<f64>,
    /// The place of the start (node 0) among the rows, if it is kept.
    first: Option<usize>,
}

/// A sparse matrix by rows.
struct Sparse {
    /// Where the rows of `cols` and `probs` start.
    start: Vec<usize>,
    cols: Vec<u32>,
    probs: Vec<f64>,
    /// Gauss–Seidel sweeps run from the last row to the first.
    backwards: bool,
}

impl Chain {
    fn new(nodes: &[Node]) -> Chain {
        let n = nodes.len();
        // Backwards from the ends.
        let mut back: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (i, node) in nodes.iter().enumerate() {
            if let Node::Moves { out, .. } = node {
                for &(j, _) in out {
                    back[j].push(i as u32);
                }
            }
        }
        let mut reach = vec![false; n];
        let ends = |i: usize| match nodes[i] {
            Node::Done { .. } => true,
            Node::Moves { win, loss, .. } => win + loss > 0.0,
        };
        let mut stack: Vec<usize> = (0..n).filter(|&i| ends(i)).collect();
        for &i in &stack {
            reach[i] = true;
        }
        while let Some(j) = stack.pop() {
            for &i in &back[j] {
                if !reach[i as usize] {
                    reach[i as usize] = true;
                    stack.push(i as usize);
                }
            }
        }
        drop(back);
        // The rows: the nodes that still move and can end, in reverse
        // discovery order (most successors then come before, for the sweeps).
        let kept: Vec<usize> = (0..n).rev().filter(|&i| reach[i] && matches!(nodes[i], Node::Moves { .. })).collect();
        let mut row = vec![u32::MAX; n];
        for (r, &i) in kept.iter().enumerate() {
            row[i] = r as u32;
        }
        let mut q = Sparse { start: vec![0], cols: Vec::new(), probs: Vec::new(), backwards: false };
        let (mut win_now, mut loss_now) = (Vec::new(), Vec::new());
        for &i in &kept {
            let Node::Moves { out, win, loss } = &nodes[i] else { unreachable!("rows move") };
            let (mut w, mut l) = (*win, *loss);
            for &(j, p) in out {
                match &nodes[j] {
                    Node::Done { win, loss } => {
                        w += p * win;
                        l += p * loss;
                    }
                    Node::Moves { .. } if row[j] != u32::MAX => {
                        q.cols.push(row[j]);
                        q.probs.push(p);
                    }
                    Node::Moves { .. } => {}
                }
            }
            win_now.push(w);
            loss_now.push(l);
            q.start.push(q.cols.len());
        }
        Chain { q, win: win_now, loss: loss_now, first: (row[0] != u32::MAX).then_some(row[0] as usize) }
    }

    /// The start's chances of a win and of a loss, each bounded from below
    /// and above; the sweeps made and the last one's largest change.
    fn chances(&self, work: u64) -> ((f64, f64), (f64, f64), usize, f64) {
        self.bounds(work / 50, work - work / 25)
    }

    /// [`Chain::chances`] with `sweeps` of work for each outcome's sweeps
    /// and `krylov` for the expected visits.
    fn bounds(&self, sweeps: u64, krylov: u64) -> ((f64, f64), (f64, f64), usize, f64) {
        let Some(first) = self.first else { return ((0.0, 0.0), (0.0, 0.0), 0, 0.0) };
        let m = self.q.len();
        // 0 is a bound from below everywhere, 1 one from above. The sweeps
        // first, with a 25th of the work: they close soon where play is
        // absorbed fast.
        let (mut w_lo, mut w_hi) = (vec![0.0; m], vec![1.0; m]);
        let (mut l_lo, mut l_hi) = (vec![0.0; m], vec![1.0; m]);
        let (s1, c1) = self.q.sweep(&self.win, &mut w_lo, &mut w_hi, first, sweeps);
        let (s2, c2) = self.q.sweep(&self.loss, &mut l_lo, &mut l_hi, first, sweeps);
        let (mut win, mut loss) = ((w_lo[first], w_hi[first]), (l_lo[first], l_hi[first]));
        drop((w_lo, w_hi, l_lo, l_hi));
        let open = win.1 - win.0 > CLOSED || loss.1 - loss.0 > CLOSED;
        if open && let Some([w, l]) = self.visits(first, krylov) {
            win = (win.0.max(w.0), win.1.min(w.1));
            loss = (loss.0.max(l.0), loss.1.min(l.1));
        }
        // A win and a loss together have a chance of at most 1.
        let (wl, ll) = (win.0, loss.0);
        let (wh, lh) = (win.1.min(1.0 - ll).max(wl), loss.1.min(1.0 - wl).max(ll));
        ((wl, wh), (ll, lh), s1.max(s2), c1.max(c2))
    }

    /// The start's chances of a win and of a loss, bounded, from the
    /// expected visits to every node: `y` with `(I − Q)ᵀ y = e` (`e` the
    /// start's unit vector) gives `x_first = yᵀ b` for either outcome. An
    /// approximate `ỹ` with residual `s = e − (I − Q)ᵀ ỹ` is off by
    /// `x_first − ỹᵀ b = sᵀ x`, and `0 ≤ x ≤ 1` bounds that by the sums of
    /// the residual's negative and positive entries, however far the
    /// solve got within `work`. `None` if it failed.
    fn visits(&self, first: usize, work: u64) -> Option<[(f64, f64); 2]> {
        let m = self.q.len();
        let qt = self.q.transpose();
        let mut e = vec![0.0; m];
        e[first] = 1.0;
        let mut y = vec![0.0; m];
        let mut work = work.saturating_sub(2 * qt.cols.len() as u64);
        qt.gmres(&e, &mut y, VISITS, &mut work)?;
        // `sᵀ x` for every `0 ≤ x ≤ 1`, its rounding included.
        let (mut below, mut above) = (0.0, 0.0);
        for r in 0..m {
            let (s, err) = qt.residual_row(&e, &y, r);
            below += (s - err).min(0.0);
            above += (s + err).max(0.0);
        }
        let sums = 2.0 * m as f64 * f64::EPSILON;
        let (below, above) = (below * (1.0 + sums), above * (1.0 + sums));
        Some([&self.win, &self.loss].map(|b| {
            let (value, size) = exact_dot(&y, b);
            let round = 4.0 * f64::EPSILON * size;
            (value + below - round, value + above + round)
        }))
    }
}

/// Bounds closer than this need no more work from the expected visits
/// (the sum of the sizes of the residual's entries).
const VISITS: f64 = 1e-12;

/// `aᵀ b` with the rounding of its sum compensated (Neumaier), and
/// `Σ |aᵢ bᵢ|`: the result is off by at most about `4 ε` times the latter.
fn exact_dot(a: &[f64], b: &[f64]) -> (f64, f64) {
    let (mut sum, mut comp, mut size) = (0.0f64, 0.0f64, 0.0f64);
    for (x, y) in a.iter().zip(b) {
        let v = x * y;
        size += v.abs();
        let t = sum + v;
        comp += if sum.abs() >= v.abs() { (sum - t) + v } else { (v - t) + sum };
        sum = t;
    }
    (sum + comp, size)
}

impl Sparse {
    fn len(&self) -> usize {
        self.start.len() - 1
    }

    fn row(&self, r: usize) -> impl Iterator<Item = (usize, f64)> + '_ {
        let (a, b) = (self.start[r], self.start[r + 1]);
        self.cols[a..b].iter().zip(&self.probs[a..b]).map(|(&c, &p)| (c as usize, p))
    }

    /// `(Q v)_r`.
    #[inline]
    fn q_row(&self, r: usize, v: &[f64]) -> f64 {
        self.row(r).map(|(c, p)| p * v[c]).sum()
    }

    /// The matrix by columns.
    fn transpose(&self) -> Sparse {
        let m = self.len();
        let mut start = vec![0usize; m + 1];
        for &c in &self.cols {
            start[c as usize + 1] += 1;
        }
        for r in 0..m {
            start[r + 1] += start[r];
        }
        let mut fill = start.clone();
        let mut cols = vec![0u32; self.cols.len()];
        let mut probs = vec![0.0; self.cols.len()];
        for r in 0..m {
            for (c, p) in self.row(r) {
                cols[fill[c]] = r as u32;
                probs[fill[c]] = p;
                fill[c] += 1;
            }
        }
        Sparse { start, cols, probs, backwards: !self.backwards }
    }

    /// `out = (I − Q) x`.
    fn apply(&self, x: &[f64], out: &mut [f64]) {
        out.par_iter_mut().enumerate().with_min_len(4096).for_each(|(r, o)| *o = x[r] - self.q_row(r, x));
    }

    /// `z = M⁻¹ v` for `M = I − L`, `L` the entries of `Q` that read rows
    /// swept before their own: one Gauss–Seidel sweep from 0, forwards
    /// (most entries of the chain read rows before their own) or, for its
    /// transpose, backwards.
    fn precondition(&self, v: &[f64], z: &mut [f64]) {
        let m = self.len();
        for k in 0..m {
            let r = if self.backwards { m - 1 - k } else { k };
            let sum: f64 =
                self.row(r).filter(|&(c, _)| (c < r) != self.backwards && c != r).map(|(c, p)| p * z[c]).sum();
            z[r] = v[r] + sum;
        }
    }

    /// Row `r` of `b + Q x − x` and a bound on the rounding of its sum.
    #[inline]
    fn residual_row(&self, b: &[f64], x: &[f64], r: usize) -> (f64, f64) {
        let (mut sum, mut size, mut terms) = (b[r] - x[r], b[r].abs() + x[r].abs(), 3.0);
        for (c, p) in self.row(r) {
            sum += p * x[c];
            size += (p * x[c]).abs();
            terms += 1.0;
        }
        // Each addition and product rounds by at most one unit in the last
        // place of a partial sum (at most `size`).
        (sum, 2.0 * terms * f64::EPSILON * size)
    }

    /// Gauss–Seidel sweeps of both bounds (each row after the rows it
    /// reads, mostly): both move monotonically to the solution, and only
    /// inwards, until they meet at the start (within `CLOSED`), a sweep
    /// changes nothing, or `work` entries were read.
    fn sweep(&self, b: &[f64], lo: &mut [f64], hi: &mut [f64], first: usize, work: u64) -> (usize, f64) {
        // Each sweep reads every entry twice, once for each bound.
        let per = 2 * self.cols.len().max(1) as u64;
        let (mut sweeps, mut last) = (0, 0.0);
        loop {
            if hi[first] - lo[first] <= CLOSED {
                return (sweeps, last);
            }
            sweeps += 1;
            let mut change: f64 = 0.0;
            for r in 0..self.len() {
                let a = self.q_row(r, lo) + b[r];
                let c = self.q_row(r, hi) + b[r];
                change = change.max(a - lo[r]).max(hi[r] - c);
                // Rounding aside, the bounds only move inwards.
                lo[r] = a.max(lo[r]);
                hi[r] = c.min(hi[r]);
            }
            last = change.max(0.0);
            if change <= 0.0 || sweeps as u64 * per >= work {
                return (sweeps, last);
            }
        }
    }

    /// Restarted GMRES on `(I − Q) x = b`, preconditioned from the right
    /// by a Gauss–Seidel sweep, from `x` as given: each restart starts from
    /// the true residual, so that its rounding does not pile up. Stops when
    /// the sum of the residual's entries' sizes is at most `tol`, when
    /// restarts gain nothing, or when `work` (entries of the matrix read,
    /// vector entries touched) runs out, with what it has; `None` if the
    /// rounding ran away.
    fn gmres(&self, b: &[f64], x: &mut [f64], tol: f64, work: &mut u64) -> Option<()> {
        let m = self.len();
        let nnz = self.cols.len() as u64;
        // The Krylov basis, its vectors kept from one restart to the next.
        let mut basis: Vec<Vec<f64>> = Vec::with_capacity(KRYLOV + 1);
        let mut z = vec![0.0; m];
        let mut w = vec![0.0; m];
        let (mut best, mut stalled) = (f64::INFINITY, 0);
        loop {
            // r = b − (I − Q) x.
            self.apply(x, &mut w);
            if basis.is_empty() {
                basis.push(vec![0.0; m]);
            }
            let r = &mut basis[0];
            r.iter_mut().zip(b.iter().zip(&w)).for_each(|(r, (b, w))| *r = b - w);
            if r.iter().map(|v| v.abs()).sum::<f64>() <= tol {
                return Some(());
            }
            let beta = norm(r);
            if beta < 0.5 * best {
                (best, stalled) = (beta, 0);
            } else {
                stalled += 1;
                if stalled == STALL {
                    // No longer gaining: what it has is as good as it gets.
                    return Some(());
                }
            }
            r.iter_mut().for_each(|v| *v /= beta);
            // The Hessenberg matrix's columns after rotation, the
            // rotations and the rotated right-hand side.
            let mut h: Vec<Vec<f64>> = Vec::with_capacity(KRYLOV);
            let mut rot: Vec<(f64, f64)> = Vec::with_capacity(KRYLOV);
            let mut g = vec![beta];
            let mut spent = false;
            for j in 0..KRYLOV {
                let Some(left) = work.checked_sub(2 * nnz + (2 * j as u64 + 6) * m as u64) else {
                    spent = true;
                    break;
                };
                *work = left;
                self.precondition(&basis[j], &mut z);
                self.apply(&z, &mut w);
                let mut col = Vec::with_capacity(j + 2);
                for v in &basis[..=j] {
                    let d = dot(&w, v);
                    axpy(-d, v, &mut w);
                    col.push(d);
                }
                let size = norm(&w);
                col.push(size);
                for (i, &(c, s)) in rot.iter().enumerate() {
                    let (a, b) = (col[i], col[i + 1]);
                    col[i] = c * a + s * b;
                    col[i + 1] = -s * a + c * b;
                }
                let (a, b) = (col[j], col[j + 1]);
                let hyp = a.hypot(b);
                let (c, s) = if hyp == 0.0 { (1.0, 0.0) } else { (a / hyp, b / hyp) };
                col[j] = hyp;
                col[j + 1] = 0.0;
                rot.push((c, s));
                g.push(-s * g[j]);
                g[j] *= c;
                h.push(col);
                // The estimate is of the residual's 2-norm (rounding aside),
                // at least its sum over √m; the restart measures it.
                if size == 0.0 || g[j + 1].abs() * (m as f64).sqrt() <= tol {
                    break;
                }
                if basis.len() == j + 1 {
                    basis.push(vec![0.0; m]);
                }
                basis[j + 1].iter_mut().zip(&w).for_each(|(v, w)| *v = w / size);
            }
            // y from the triangle, then x += M⁻¹ (V y).
            let k = h.len();
            let mut y = vec![0.0; k];
            for i in (0..k).rev() {
                let s: f64 = (i + 1..k).map(|l| h[l][i] * y[l]).sum();
                y[i] = (g[i] - s) / h[i][i];
            }
            w.iter_mut().for_each(|v| *v = 0.0);
            // The first `k` vectors are this restart's.
            for (v, &c) in basis.iter().zip(&y) {
                axpy(c, v, &mut w);
            }
            self.precondition(&w, &mut z);
            x.iter_mut().zip(&z).for_each(|(x, z)| *x += z);
            if !x.iter().all(|v| v.is_finite()) {
                return None;
            }
            if spent {
                return Some(());
            }
        }
    }
}

/// Vectors GMRES keeps between restarts.
const KRYLOV: usize = 40;

/// Restarts in a row that may fail to halve the residual before GMRES
/// gives up.
const STALL: usize = 2;

/// Vector entries a thread takes at a time.
const CHUNK: usize = 1 << 14;

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.par_chunks(CHUNK).zip(b.par_chunks(CHUNK)).map(|(a, b)| a.iter().zip(b).map(|(a, b)| a * b).sum::<f64>()).sum()
}

/// `y += a x`.
fn axpy(a: f64, x: &[f64], y: &mut [f64]) {
    y.par_chunks_mut(CHUNK)
        .zip(x.par_chunks(CHUNK))
        .for_each(|(y, x)| y.iter_mut().zip(x).for_each(|(y, x)| *y += a * x));
}

fn norm(a: &[f64]) -> f64 {
    dot(a, a).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs gathered a chunk at a time, settled and merged, add up every
    /// key's chances as a plain map does, whatever the chunks.
    #[test]
    fn runs_add_up_as_a_map() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        for case in 0..200 {
            let n = rng.random_range(0..400);
            let keys = rng.random_range(1..60u64);
            let pairs: Vec<(u64, f64)> = (0..n)
                .map(|_| (rng.random_range(0..keys) * 0x1234_5678_9abc, f64::from(rng.random_range(1..9u8)) / 8.0))
                .collect();
            let mut map = std::collections::BTreeMap::new();
            for &(k, p) in &pairs {
                *map.entry(k).or_insert(0.0) += p;
            }
            let chunk = rng.random_range(1..50);
            let block = rng.random_range(1..20);
            let mut runs = Runs::default();
            for part in pairs.chunks(chunk) {
                runs.push(Blocks::from_sorted(sorted(part.to_vec())));
                runs.settle(block);
                // Settled: each run at most half the one before.
                assert!(runs.0.windows(2).all(|w| 2 * w[1].len <= w[0].len), "case {case}");
                assert_eq!(runs.held(), runs.0.iter().flat_map(|r| &r.blocks).map(Vec::len).sum::<usize>());
            }
            let mut merged = runs.merged(block);
            let len = merged.len;
            let mut all = Vec::new();
            while let Some(b) = merged.pop() {
                // Merged blocks hold at most `block` positions.
                assert!(!b.is_empty() && (b.len() <= block || pairs.len() <= chunk), "case {case}");
                all.extend(b);
            }
            assert_eq!((len, merged.len), (all.len(), 0), "case {case}");
            let merged = all;
            assert_eq!(merged, map.into_iter().collect::<Vec<_>>(), "case {case}");
        }
    }

    /// Keys keep the sector and index they pack, and sort as the pairs do.
    #[test]
    fn keys_pack_sector_then_index() {
        let a = Sector { w: 9, wf: 0, b: 8, bf: 1 };
        let b = Sector { w: 9, wf: 1, b: 0, bf: 0 };
        for (s, i) in [(a, 0), (a, (1 << 48) - 1), (b, 12345)] {
            let k = Key::pack(s, i);
            assert_eq!((Key::sector(k), Key::index(k)), (s, i));
        }
        assert!(Key::pack(a, (1 << 48) - 1) < Key::pack(b, 0) && a < b);
    }

    /// A fair walk on `0..=len` from `len / 2`, node 0 being the start:
    /// absorbed at `len` (a win) or at 0, so the start wins with chance 1/2
    /// after about `len² / 4` steps; with `stay` the walk also stays put at
    /// every step with that chance.
    fn walk(len: usize, stay: f64) -> Vec<Node> {
        // Node k holds place `len / 2 + k` for k up to len / 2, then the
        // places below, downwards.
        let place = |k: usize| if k <= len / 2 { len / 2 + k } else { len / 2 - (k - len / 2) };
        let mut id = vec![0; len + 1];
        for k in 0..=len {
            id[place(k)] = k;
        }
        (0..=len)
            .map(|k| match place(k) {
                0 => Node::Done { win: 0.0, loss: 1.0 },
                p if p == len => Node::Done { win: 1.0, loss: 0.0 },
                p => {
                    let go = (1.0 - stay) / 2.0;
                    let mut out = vec![(id[p - 1], go), (id[p + 1], go)];
                    if stay > 0.0 {
                        out.push((k, stay));
                    }
                    Node::Moves { out, win: 0.0, loss: 0.0 }
                }
            })
            .collect()
    }

    /// The start's chance of a win, bounded, after at most `work`.
    fn win(nodes: &[Node], work: u64) -> (f64, f64) {
        Chain::new(nodes).chances(work).0
    }

    #[test]
    fn the_bounds_close_on_the_chance_of_a_slow_walk() {
        for (len, stay) in [(2, 0.0), (40, 0.0), (200, 0.5)] {
            let (lo, hi) = win(&walk(len, stay), u64::MAX);
            // Closed up to rounding (they stop when a sweep changes nothing:
            // on the longest walk a little short of `CLOSED`).
            assert!(lo <= 0.5 + 1e-15 && 0.5 <= hi + 1e-15 && hi - lo <= 1e-11, "walk of {len}: [{lo}, {hi}]");
        }
    }

    #[test]
    fn bounds_cut_short_still_hold_the_chance() {
        let nodes = walk(200, 0.0);
        let mut last = (0.0, 1.0);
        for work in [1_000, 100_000, 400_000_000] {
            let (lo, hi) = win(&nodes, work);
            assert!(lo <= 0.5 + 1e-15 && 0.5 <= hi + 1e-15, "after {work}: [{lo}, {hi}]");
            // More work, narrower bounds; little work leaves them wide.
            assert!(lo >= last.0 && hi <= last.1, "after {work}: [{lo}, {hi}] against {last:?}");
            last = (lo, hi);
        }
        assert!(last.1 - last.0 < 1e-9, "{last:?}");
        let (lo, hi) = win(&nodes, 1_000);
        assert!(hi - lo > 0.5, "[{lo}, {hi}]");
    }

    #[test]
    fn the_expected_visits_close_the_bounds_where_the_sweeps_crawl() {
        // A fair walk of 100 that stands still a quarter of the time takes
        // about 3,300 steps to end: sweeps with little work stop far from
        // closed, the expected visits close them.
        let chain = Chain::new(&walk(100, 0.25));
        let ((lo, hi), _, _, _) = chain.bounds(400_000, 0);
        assert!(hi - lo > 0.1, "[{lo}, {hi}]");
        let (win, loss, _, _) = chain.bounds(400_000, 400_000_000);
        for (c, name) in [(win, "win"), (loss, "loss")] {
            assert!(c.0 <= 0.5 && 0.5 <= c.1 && c.1 - c.0 < 1e-9, "{name}: {c:?}");
        }
    }

    /// The chances of a win and a loss from node 0 by Gaussian elimination
    /// on the whole matrix of `x = Q x + b` (every node that moves), with
    /// partial pivoting: the slow twin of [`Chain::chances`].
    fn dense(nodes: &[Node]) -> (f64, f64) {
        let n = nodes.len();
        let solve = |pick: fn(f64, f64) -> f64| {
            // Rows `i`: x_i − Σ q_ij x_j = b_i; a node that cannot end gets
            // x = 0 by the chain's own rule, so it is found first.
            let mut a = vec![vec![0.0; n + 1]; n];
            for (i, node) in nodes.iter().enumerate() {
                a[i][i] = 1.0;
                match node {
                    Node::Done { win, loss } => a[i][n] = pick(*win, *loss),
                    Node::Moves { out, win, loss } => {
                        a[i][n] = pick(*win, *loss);
                        for &(j, p) in out {
                            a[i][j] -= p;
                        }
                    }
                }
            }
            for k in 0..n {
                let p = (k..n).max_by(|&x, &y| a[x][k].abs().total_cmp(&a[y][k].abs())).unwrap();
                a.swap(k, p);
                let pivot = a[k].clone();
                for (i, row) in a.iter_mut().enumerate() {
                    if i != k {
                        let f = row[k] / pivot[k];
                        row.iter_mut().zip(&pivot).skip(k).for_each(|(x, p)| *x -= f * p);
                    }
                }
            }
            a[0][n] / a[0][0]
        };
        (solve(|w, _| w), solve(|_, l| l))
    }

    #[test]
    fn the_bounds_hold_the_chances_of_random_chains() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(72);
        // Bounds that the work left open (they hold all the same).
        let mut wide = 0;
        for case in 0..200 {
            let n = rng.random_range(2..60);
            // Every node ends at once with a small chance or moves on, so
            // play ends with chance 1 (the dense twin needs no endless
            // nodes); some chains end slowly.
            let slow = if case % 3 == 0 { 1e-3 } else { 0.05 };
            let nodes: Vec<Node> = (0..n)
                .map(|i| {
                    if i > 0 && rng.random_bool(0.1) {
                        let win = rng.random_bool(0.5);
                        return Node::Done { win: f64::from(u8::from(win)), loss: f64::from(u8::from(!win)) };
                    }
                    let end = rng.random_range(0.0..slow);
                    let win = end * rng.random_range(0.0..1.0);
                    let k = rng.random_range(1..5);
                    let out: Vec<(usize, f64)> =
                        (0..k).map(|_| (rng.random_range(0..n), (1.0 - end) / k as f64)).collect();
                    Node::Moves { out, win, loss: end - win }
                })
                .collect();
            let (w, l) = dense(&nodes);
            let chain = Chain::new(&nodes);
            // The sweeps alone, given all the work they want, and with
            // too little, the expected visits after them, cut short or not.
            let m = chain.q.len() as u64;
            for (sweeps, krylov) in [(u64::MAX / 2, 0), (2_000, 20 * m), (2_000, 200 * m), (2_000, u64::MAX / 2)] {
                let (win, loss, _, _) = chain.bounds(sweeps, krylov);
                let work = (sweeps, krylov);
                for (c, x, name) in [(win, w, "win"), (loss, l, "loss")] {
                    let slack = 1e-12;
                    assert!(
                        c.0 <= x + slack && x <= c.1 + slack,
                        "case {case}, work {work:?}, {name}: {x} not in {c:?}"
                    );
                    let closed = c.1 - c.0 < 1e-9;
                    assert!(closed || krylov < u64::MAX / 2, "case {case}, work {work:?}, {name}: {c:?} not closed");
                    wide += usize::from(!closed);
                }
            }
        }
        // The work cut short left some open: the containment was tested.
        assert!(wide > 50, "{wide}");
    }

    #[test]
    fn play_that_cannot_end_is_endless_at_once() {
        // The start leads to a loss or into two nodes that only lead to
        // each other: it loses with chance 1/2 and never ends otherwise.
        let moves = |out: Vec<(usize, f64)>| Node::Moves { out, win: 0.0, loss: 0.0 };
        let nodes = vec![
            moves(vec![(1, 0.5), (3, 0.5)]),
            moves(vec![(2, 1.0)]),
            moves(vec![(1, 1.0)]),
            Node::Done { win: 0.0, loss: 1.0 },
        ];
        let (win, loss, _, _) = Chain::new(&nodes).chances(u64::MAX);
        assert_eq!((win, loss), ((0.0, 0.0), (0.5, 0.5)));
        // The start itself can never end.
        let nodes = vec![moves(vec![(0, 1.0)]), Node::Done { win: 1.0, loss: 0.0 }];
        assert_eq!(Chain::new(&nodes).chances(u64::MAX).0, (0.0, 0.0));
        // A throw that leaves the side to move blocked ends the game at once.
        let nodes = vec![Node::Moves { out: vec![(0, 0.75)], win: 0.0, loss: 0.25 }];
        let (win, loss, _, _) = Chain::new(&nodes).chances(u64::MAX);
        assert!(win.0 == 0.0 && win.1 <= CLOSED, "{win:?}");
        assert!(loss.0 >= 1.0 - 1e-13 && loss.0 <= 1.0 && loss.1 >= 1.0 - 1e-14, "{loss:?}");
    }
}
