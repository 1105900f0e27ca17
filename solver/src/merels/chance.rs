//! Values where chance sits inside cycles (Schädler's reading: a throw
//! before every move of the movement phase).
//!
//! A movement group is solved by interval iteration: a lower and an upper
//! bound for every position, started from −1 and +1 and improved together
//! (the lower from the successors' upper bounds and back). The operator is
//! monotone, so the bounds stay bounds after every sweep, whatever the order
//! of updates: the interval `[lo, hi]` stored with each position is a proof of
//! where its true value lies (rounded outward to `f32`). Where play may go on
//! forever under good play the bounds converge to different limits (endless
//! play counted as a loss or as a win). With `settle`, those open positions
//! are then narrowed by strategy iteration whose strategies are proven by
//! exact end-component handling ([`super::certify`]): sound, but it can stop
//! at a strategy that is only locally best, so some may stay open. The
//! estimate stored is the middle of the interval.
//!
//! Endless play is what keeps the bounds apart, so before iterating the
//! solver proves, by a greatest fixpoint over the group, where a side can make
//! sure it never loses (never lets the game reach its loss, whatever the dice
//! and the opponent do): there the value is at least 0, and where both sides
//! can, it is exactly 0. Those facts start the bounds.
//!
//! Sweeps update positions in place, in parallel, in order of their distance
//! from a position decided outside the group (a capture, a win), so that
//! values flow from their sources within each sweep.

use std::ops::Neg;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

use engine::merels::{Blocked, Rules, State, Throw};
use rayon::prelude::*;
use smallvec::SmallVec;

use super::certify::{self, Free, Target};
use super::index::Indexer;
use super::retro::valid;
use super::sector::Sector;
use super::solution::{Best, Observer, Solution, SolveOptions};
use super::table::{Meta, Table, Values};
use super::value::{Interval, MOVER_SAFE, OTHER_SAFE, down, up};

/// Evaluates a sector whose successors are all known (placement under
/// Schädler: no dice, but successors valued under chance).
pub(crate) fn forward_chance(rules: &Rules, known: &Solution, ix: Indexer, obs: &dyn Observer) -> Table {
    obs.begin("values", ix.size());
    let values: Vec<Interval> = (0..ix.size())
        .into_par_iter()
        .map(|i| {
            if !ix.is_canonical(i) {
                return Interval::UNUSED;
            }
            let st = ix.state(i);
            if !valid(rules.board, &st) {
                return Interval::UNUSED;
            }
            known.evaluate_interval(&st)
        })
        .collect();
    obs.advance(ix.size());
    obs.finish();
    let gap = values.iter().filter(|v| !v.v.is_nan()).map(|v| (v.hi - v.lo) as f64).fold(0.0, f64::max);
    Table::new(ix, Values::Chance(values), Meta { gap, ..Meta::default() })
}

const UNUSED: u8 = 0;
const FIXED: u8 = 1;
const LIVE: u8 = 2;

/// The group as an explicit graph: for each position and throw, the best
/// value reachable outside the group and the positions inside it.
struct Graph {
    /// Throw outcomes of every movement turn, with weights in 72nds.
    throws: SmallVec<[(Throw, u8); 2]>,
    kind: Vec<u8>,
    /// Value of fixed positions (game over).
    fixed: Vec<f32>,
    /// `start[n * t + k]..start[n * t + k + 1]`: children of node `n` under
    /// throw `k`.
    start: Vec<u64>,
    kids: Vec<u32>,
    /// Best value outside the group, per node and throw; NaN if none.
    ext: Vec<Interval>,
}

struct Built {
    kind: u8,
    fixed: f32,
    per_throw: SmallVec<[(SmallVec<[u32; 16]>, Interval); 2]>,
}

fn build(rules: &Rules, known: &Solution, ix: &[Indexer], base: &[u64], obs: &dyn Observer) -> Graph {
    let st0 = State { own: Default::default(), other: Default::default(), own_hand: 0, other_hand: 0 };
    let throws = rules.throw_outcomes(&st0);
    let n = *base.last().expect("bases") as usize;
    let t = throws.len();
    let blocked = match rules.blocked {
        Blocked::Draw => Interval::DRAW,
        _ => Interval::LOSS,
    };
    let locate = |child: &State| -> Result<u32, Interval> {
        if rules.lost(child) {
            return Err(Interval::LOSS.neg());
        }
        let s = Sector::of(child);
        match ix.iter().position(|x| x.sector() == s) {
            Some(slot) => Ok((base[slot] + ix[slot].index(child)) as u32),
            None => Err(known.interval(child).expect("successor sectors are solved first").neg()),
        }
    };
    let node = |gid: u64| -> Built {
        let slot = base.iter().rposition(|&b| b <= gid).expect("slot");
        let i = gid - base[slot];
        let x = &ix[slot];
        let empty = Built { kind: UNUSED, fixed: 0.0, per_throw: SmallVec::new() };
        if !x.is_canonical(i) {
            return empty;
        }
        let st = x.state(i);
        if !valid(rules.board, &st) {
            return empty;
        }
        if rules.lost(&st) {
            return Built { kind: FIXED, fixed: -1.0, per_throw: SmallVec::new() };
        }
        let mut per_throw = SmallVec::new();
        for &(throw, _) in &throws {
            let mut kids: SmallVec<[u32; 16]> = SmallVec::new();
            let mut best: Option<Best> = None;
            rules.for_each_action(&st, throw, |_, child| match locate(&child) {
                Ok(g) => kids.push(g),
                Err(iv) => best = Some(best.map_or(Best::of(iv), |b| b.with(iv))),
            });
            kids.sort_unstable();
            kids.dedup();
            if kids.is_empty() && best.is_none() {
                best = Some(Best::of(blocked));
            }
            // The best outside value, rounded outward; its flags say whether
            // some outside action keeps the mover safe and whether all keep
            // the other side safe. No outside action: NaN, and "all" holds.
            let ext = match best {
                Some(b) => Interval { v: b.v as f32, lo: down(b.lo), hi: up(b.hi), flags: b.flags() },
                None => Interval { flags: OTHER_SAFE, ..Interval::UNUSED },
            };
            per_throw.push((kids, ext));
        }
        Built { kind: LIVE, fixed: 0.0, per_throw }
    };
    obs.begin("value iteration: graph", n as u64);
    let chunk = 1 << 14;
    let parts: Vec<Vec<Built>> = (0..n.div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            let lo = c * chunk;
            let hi = (lo + chunk).min(n);
            let v: Vec<Built> = (lo..hi).map(|g| node(g as u64)).collect();
            obs.advance((hi - lo) as u64);
            v
        })
        .collect();
    obs.finish();
    let mut g = Graph {
        throws,
        kind: Vec::with_capacity(n),
        fixed: Vec::with_capacity(n),
        start: Vec::with_capacity(n * t + 1),
        kids: Vec::new(),
        ext: Vec::with_capacity(n * t),
    };
    g.start.push(0);
    for b in parts.into_iter().flatten() {
        g.kind.push(b.kind);
        g.fixed.push(b.fixed);
        for k in 0..t {
            match b.per_throw.get(k) {
                Some((kids, ext)) => {
                    g.kids.extend_from_slice(kids);
                    g.ext.push(*ext);
                }
                None => g.ext.push(Interval::UNUSED),
            }
            g.start.push(g.kids.len() as u64);
        }
    }
    g
}

/// Proves, as a greatest fixpoint, where each side can make sure it never
/// loses: `(mover_safe, other_safe)` per node.
fn safety(g: &Graph) -> (Vec<bool>, Vec<bool>) {
    let n = g.kind.len();
    let t = g.throws.len();
    let mut sm: Vec<bool> = (0..n).map(|v| g.kind[v] == LIVE).collect();
    let mut so: Vec<bool> = (0..n).map(|v| g.kind[v] != UNUSED).collect();
    loop {
        let mut changed = false;
        for v in 0..n {
            if g.kind[v] != LIVE || !(sm[v] || so[v]) {
                continue;
            }
            let mut mover = true;
            let mut other = true;
            for k in 0..t {
                let e = g.ext[v * t + k];
                let kids = &g.kids[g.start[v * t + k] as usize..g.start[v * t + k + 1] as usize];
                // A child's "other side" is this node's mover, and back.
                mover &= e.flags & MOVER_SAFE != 0 || kids.iter().any(|&c| so[c as usize]);
                other &= e.flags & OTHER_SAFE != 0 && kids.iter().all(|&c| sm[c as usize]);
            }
            if sm[v] && !mover {
                sm[v] = false;
                changed = true;
            }
            if so[v] && !other {
                so[v] = false;
                changed = true;
            }
        }
        if !changed {
            return (sm, so);
        }
    }
}

/// Orders live nodes by their distance (in moves inside the group) from a
/// node with a value fixed or reachable outside the group.
fn sweep_order(g: &Graph) -> Vec<u32> {
    let n = g.kind.len();
    let t = g.throws.len();
    let dist0 = |v: usize| {
        let seeded = g.kind[v] == FIXED || (g.kind[v] == LIVE && (0..t).any(|k| !g.ext[v * t + k].v.is_nan()));
        if seeded { 0 } else { u32::MAX }
    };
    let mut dist: Vec<u32> = (0..n).map(dist0).collect();
    loop {
        let mut changed = false;
        for v in 0..n {
            if g.kind[v] != LIVE {
                continue;
            }
            let a = g.start[v * t] as usize;
            let b = g.start[v * t + t] as usize;
            let d = g.kids[a..b].iter().map(|&c| dist[c as usize]).min().unwrap_or(u32::MAX).saturating_add(1);
            if d < dist[v] {
                dist[v] = d;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut order: Vec<u32> = (0..n as u32).filter(|&v| g.kind[v as usize] == LIVE).collect();
    order.sort_by_key(|&v| dist[v as usize]);
    order
}

fn load(a: &AtomicU32) -> f32 {
    f32::from_bits(a.load(Relaxed))
}

fn store(a: &AtomicU32, x: f32) {
    a.store(x.to_bits(), Relaxed)
}

/// Interval iteration over one movement group: built once, then swept.
pub struct Iteration {
    g: Graph,
    base: Vec<u64>,
    ix: Vec<Indexer>,
    sm: Vec<bool>,
    so: Vec<bool>,
    lo: Vec<AtomicU32>,
    hi: Vec<AtomicU32>,
    order: Vec<u32>,
    weights: SmallVec<[f64; 2]>,
    pub sweeps: u64,
}

/// What one sweep did.
#[derive(Clone, Copy, Debug)]
pub struct Sweep {
    /// The most a bound moved.
    pub moved: f64,
    /// The widest interval after the sweep.
    pub widest: f64,
}

impl Iteration {
    /// Builds the group's graph (successors inside, best values outside),
    /// proves safety and starts the bounds.
    pub fn new(rules: &Rules, known: &Solution, ix: Vec<Indexer>, obs: &dyn Observer) -> Iteration {
        let mut base = vec![0u64];
        for x in &ix {
            base.push(base.last().expect("base") + x.size());
        }
        let g = build(rules, known, &ix, &base, obs);
        let n = g.kind.len();
        let (sm, so) = safety(&g);
        let init = |i: usize, x: f32| match g.kind[i] {
            UNUSED => f32::NAN,
            FIXED => g.fixed[i],
            _ => x,
        };
        // Safety proves a side of zero; both sides safe: a draw.
        let lo = (0..n).map(|i| AtomicU32::new(init(i, if sm[i] { 0.0 } else { -1.0 }).to_bits())).collect();
        let hi = (0..n).map(|i| AtomicU32::new(init(i, if so[i] { 0.0 } else { 1.0 }).to_bits())).collect();
        let order = sweep_order(&g);
        let weights = g.throws.iter().map(|&(_, p)| p as f64 / 72.0).collect();
        Iteration { g, base, ix, sm, so, lo, hi, order, weights, sweeps: 0 }
    }

    /// Positions of the group (unused indices included).
    pub fn len(&self) -> usize {
        self.g.kind.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// One sweep over the live positions, in place and in parallel.
    pub fn sweep(&mut self) -> Sweep {
        self.sweeps += 1;
        let (g, lo, hi, weights) = (&self.g, &self.lo, &self.hi, &self.weights);
        let t = g.throws.len();
        let db = AtomicU64::new(0);
        let wide = AtomicU64::new(0);
        self.order.par_chunks(4096).for_each(|chunk| {
            let (mut mb, mut mw) = (0f64, 0f64);
            for &node in chunk {
                let node = node as usize;
                let (mut nl, mut nh) = (0f64, 0f64);
                for k in 0..t {
                    let e = g.ext[node * t + k];
                    let (mut bl, mut bh) =
                        if e.v.is_nan() { (f64::NEG_INFINITY, f64::NEG_INFINITY) } else { (e.lo as f64, e.hi as f64) };
                    for &c in &g.kids[g.start[node * t + k] as usize..g.start[node * t + k + 1] as usize] {
                        let c = c as usize;
                        bl = bl.max(-load(&hi[c]) as f64);
                        bh = bh.max(-load(&lo[c]) as f64);
                    }
                    nl += weights[k] * bl;
                    nh += weights[k] * bh;
                }
                let (ol, oh) = (load(&lo[node]), load(&hi[node]));
                let (sl, sh) = (down(nl - 1e-12).max(ol), up(nh + 1e-12).min(oh));
                store(&lo[node], sl);
                store(&hi[node], sh);
                mb = mb.max((sl - ol) as f64).max((oh - sh) as f64);
                mw = mw.max((sh - sl) as f64);
            }
            db.fetch_max(mb.to_bits(), Relaxed);
            wide.fetch_max(mw.to_bits(), Relaxed);
        });
        Sweep { moved: f64::from_bits(db.load(Relaxed)), widest: f64::from_bits(wide.load(Relaxed)) }
    }

    /// Sweeps until the bounds stop moving (or meet), optionally narrows the
    /// open positions, and returns the group's tables.
    pub fn run(mut self, opts: &SolveOptions, obs: &dyn Observer) -> Vec<Table> {
        let mut moved = f64::INFINITY;
        obs.begin("interval iteration: sweeps", opts.max_sweeps);
        while self.sweeps < opts.max_sweeps {
            let s = self.sweep();
            moved = s.moved;
            obs.advance(1);
            if s.widest <= opts.tolerance || s.moved <= opts.tolerance {
                break;
            }
        }
        obs.finish();
        let Iteration { g, base, ix, sm, so, lo, hi, weights, sweeps, .. } = self;
        let mut lo: Vec<f32> = lo.into_iter().map(|a| f32::from_bits(a.into_inner())).collect();
        let mut hi: Vec<f32> = hi.into_iter().map(|a| f32::from_bits(a.into_inner())).collect();
        if opts.settle {
            settle_open(&g, &weights, &mut lo, &mut hi, opts, obs);
        }
        let mut out = Vec::new();
        for (slot, x) in ix.into_iter().enumerate() {
            let range = base[slot] as usize..base[slot + 1] as usize;
            let vals: Vec<Interval> = range
                .map(|i| {
                    if g.kind[i] == UNUSED {
                        return Interval::UNUSED;
                    }
                    let flags = (if sm[i] { MOVER_SAFE } else { 0 }) | (if so[i] { OTHER_SAFE } else { 0 });
                    let v = ((lo[i] as f64 + hi[i] as f64) / 2.0) as f32;
                    Interval { v, lo: lo[i], hi: hi[i], flags }
                })
                .collect();
            let gap = vals.iter().filter(|iv| !iv.v.is_nan()).map(|iv| (iv.hi - iv.lo) as f64).fold(0.0, f64::max);
            out.push(Table::new(x, Values::Chance(vals), Meta { seconds: 0.0, sweeps, residual: moved, gap }));
        }
        out
    }
}

/// Solves a movement group under chance.
pub(crate) fn value_iteration(
    rules: &Rules,
    known: &Solution,
    ix: Vec<Indexer>,
    opts: &SolveOptions,
    obs: &dyn Observer,
) -> Vec<Table> {
    Iteration::new(rules, known, ix, obs).run(opts, obs)
}

/// Settles the positions whose bounds stayed apart: strategy iteration on
/// them, each strategy's worth proven by [`certify::solve`].
fn settle_open(g: &Graph, weights: &[f64], lo: &mut [f32], hi: &mut [f32], opts: &SolveOptions, obs: &dyn Observer) {
    let n = g.kind.len();
    let t = g.throws.len();
    let open: Vec<usize> =
        (0..n).filter(|&i| g.kind[i] == LIVE && (hi[i] - lo[i]) as f64 > opts.tolerance.max(1e-6)).collect();
    if open.is_empty() {
        return;
    }
    let mut slot = vec![u32::MAX; n];
    for (j, &i) in open.iter().enumerate() {
        slot[i] = j as u32;
    }
    // Options of each open position and throw, in one order for both roles:
    // the best outside action (if any), then the children.
    enum Opt {
        Ext(f64, f64),
        Kid(usize),
    }
    let options = |i: usize, k: usize| -> Vec<Opt> {
        let mut v = Vec::new();
        let e = g.ext[i * t + k];
        if !e.v.is_nan() {
            v.push(Opt::Ext(e.lo as f64, e.hi as f64));
        }
        for &c in &g.kids[g.start[i * t + k] as usize..g.start[i * t + k + 1] as usize] {
            v.push(Opt::Kid(c as usize));
        }
        v
    };
    // The maximiser's payoff of an option taken by the maximiser (`max`) or
    // by the minimiser.
    let target = |o: &Opt, max: bool| -> Target {
        match *o {
            Opt::Ext(a, b) => {
                if max {
                    Target::Sink { lo: a, hi: b }
                } else {
                    Target::Sink { lo: -b, hi: -a }
                }
            }
            Opt::Kid(c) => match slot[c] {
                u32::MAX if max => Target::Sink { lo: -(hi[c] as f64), hi: -(lo[c] as f64) },
                u32::MAX => Target::Sink { lo: lo[c] as f64, hi: hi[c] as f64 },
                j if max => Target::State(2 * j + 1),
                j => Target::State(2 * j),
            },
        }
    };
    let all: Vec<Vec<Vec<Opt>>> = open.iter().map(|&i| (0..t).map(|k| options(i, k)).collect()).collect();
    let mid = |b: &certify::Bounds, tg: &Target| match *tg {
        Target::Sink { lo, hi } => (lo + hi) / 2.0,
        Target::State(s) => (b.lo[s as usize] + b.hi[s as usize]) / 2.0,
    };
    // The process with the maximiser's states fixed to `sigma` (or the
    // minimiser's, for the upper bound).
    let process = |sigma: &[Vec<usize>], fixed_max: bool| -> Vec<certify::State> {
        let mut states = Vec::with_capacity(2 * open.len());
        for (j, per) in all.iter().enumerate() {
            for max in [true, false] {
                let fixed = max == fixed_max;
                let throws = per
                    .iter()
                    .enumerate()
                    .map(|(k, opts)| {
                        let list: SmallVec<[Target; 8]> = if fixed {
                            std::iter::once(target(&opts[sigma[j][k]], max)).collect()
                        } else {
                            opts.iter().map(|o| target(o, max)).collect()
                        };
                        (weights[k], list)
                    })
                    .collect();
                states.push(certify::State { maximiser: max, throws });
            }
        }
        states
    };
    // Start from the best option by the midpoints of the current bounds.
    let midpoint = |o: &Opt| match *o {
        Opt::Ext(a, b) => (a + b) / 2.0,
        Opt::Kid(c) => -((lo[c] as f64 + hi[c] as f64) / 2.0),
    };
    let mut sigma: Vec<Vec<usize>> = all
        .iter()
        .map(|per| {
            per.iter()
                .map(|opts| {
                    (0..opts.len()).max_by(|&a, &b| midpoint(&opts[a]).total_cmp(&midpoint(&opts[b]))).unwrap_or(0)
                })
                .collect()
        })
        .collect();
    let eps = 1e-9;
    obs.begin("open positions: strategy iteration", 64);
    let mut lower = certify::solve(&process(&sigma, true), Free::Minimiser, eps, opts.max_sweeps);
    for _ in 0..64 {
        obs.advance(1);
        let mut switched = false;
        for (j, per) in all.iter().enumerate() {
            for (k, opts) in per.iter().enumerate() {
                let val = |o: usize| mid(&lower, &target(&opts[o], true));
                let cur = val(sigma[j][k]);
                let best = (0..opts.len()).max_by(|&a, &b| val(a).total_cmp(&val(b))).unwrap_or(0);
                if val(best) > cur + 1e-7 {
                    sigma[j][k] = best;
                    switched = true;
                }
            }
        }
        if !switched {
            break;
        }
        lower = certify::solve(&process(&sigma, true), Free::Minimiser, eps, opts.max_sweeps);
    }
    let upper = certify::solve(&process(&sigma, false), Free::Maximiser, eps, opts.max_sweeps);
    obs.finish();
    for (j, &i) in open.iter().enumerate() {
        let (a, b) = (lower.lo[2 * j], upper.hi[2 * j]);
        lo[i] = lo[i].max(down(a - 1e-12));
        hi[i] = hi[i].min(up(b + 1e-12));
    }
}
