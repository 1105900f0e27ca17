//! A slow, exact solver of Schädler's reading for the tests: the explicit
//! game graph (states from the engine's move generator, both sides kept
//! apart, values for the first player), exact rationals, and Hoffman–Karp
//! strategy iteration — the first player improves, the second replies best —
//! with loops held by a side behind when that is better than any move. Each
//! evaluation recomputes only the nodes whose path meets a switch; the end
//! is checked on a whole evaluation. It shares no code with the sector
//! solver: no indexing, no sectors, no floating point.

use std::cmp::Ordering;
use std::collections::HashMap;

use engine::merels::{Blocked, Rules, State};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

pub type Q = BigRational;

fn q(n: i64, d: i64) -> Q {
    Q::new(BigInt::from(n), BigInt::from(d))
}

/// The order of two rationals by cross-multiplying (their denominators are
/// positive): the same order as `Ord for Ratio`, without the continued
/// fraction that takes two close values apart one division at a time.
pub fn qcmp(a: &Q, b: &Q) -> Ordering {
    if a.denom() == b.denom() {
        a.numer().cmp(b.numer())
    } else {
        (a.numer() * b.denom()).cmp(&(b.numer() * a.denom()))
    }
}

/// Whether two rationals are equal: in lowest terms with positive
/// denominators, they are equal when their numerators and denominators are.
pub fn qeq(a: &Q, b: &Q) -> bool {
    a.numer() == b.numer() && a.denom() == b.denom()
}

/// A node: a state with its side to move (0 the first player, maximising;
/// 1 the second, minimising the first player's value).
struct Node {
    side: usize,
    /// Per throw: its weight, the best exit (a child that has lost, or the
    /// blocked outcome), and whether the in-group children are allowed.
    throws: Vec<(Q, Option<Q>)>,
    /// Children that are not over (same after every throw).
    kids: Vec<usize>,
    /// The value if the game is over here.
    over: Option<Q>,
}

/// Both sides' strategies: per node the child kept to, and per throw
/// whether it stays.
type Strategies = (Vec<Option<usize>>, Vec<Vec<bool>>);

pub struct Exact {
    nodes: Vec<Node>,
    index: HashMap<(State, usize), usize>,
    /// Strategy per node: the child kept to, and per throw whether it stays.
    kid: Vec<Option<usize>>,
    stay: Vec<Vec<bool>>,
    pub val: Vec<Q>,
    /// Per node `(a, b)` of `v = a + b · v(kid)` and the throws after which
    /// the node stayed when they were computed (they depend on nothing
    /// else).
    coefs: Vec<(Q, Q)>,
    coef_stay: Vec<Vec<bool>>,
    /// The strategies of the last evaluation: a node whose path under the
    /// strategies meets no node that switched since keeps its value.
    last: Option<Strategies>,
}

/// The canonical form of a state under the board's symmetries.
pub fn canonical(rules: &Rules, st: &State) -> State {
    rules
        .board
        .symmetries()
        .iter()
        .map(|g| State { own: g.set(st.own), other: g.set(st.other), ..*st })
        .min_by_key(|s| (s.own.0, s.other.0))
        .expect("identity")
}

impl Exact {
    /// Every state reachable from `roots` (canonical, both sides).
    pub fn build(rules: &Rules, roots: &[State]) -> Exact {
        let mut index: HashMap<(State, usize), usize> = HashMap::new();
        let mut queue: Vec<(State, usize)> = Vec::new();
        for r in roots {
            for side in 0..2 {
                let k = (canonical(rules, r), side);
                if let std::collections::hash_map::Entry::Vacant(e) = index.entry(k) {
                    e.insert(queue.len());
                    queue.push(k);
                }
            }
        }
        let mut nodes = Vec::new();
        let mut head = 0;
        // The first player's value when the side to move has lost.
        let lost_value = |side: usize| if side == 0 { q(-1, 1) } else { q(1, 1) };
        while head < queue.len() {
            let (st, side) = queue[head];
            head += 1;
            if rules.lost(&st) {
                nodes.push(Node { side, throws: Vec::new(), kids: Vec::new(), over: Some(lost_value(side)) });
                continue;
            }
            let better = |a: &Q, b: &Q| if side == 0 { a > b } else { a < b };
            let mut throws = Vec::new();
            let mut kids: Vec<usize> = Vec::new();
            let mut kid_sets: Vec<Vec<usize>> = Vec::new();
            for (throw, p72) in rules.throw_outcomes(&st) {
                let mut exit: Option<Q> = None;
                let mut set = Vec::new();
                let mut any = false;
                for (_, child) in rules.actions(&st, throw) {
                    any = true;
                    if rules.lost(&child) {
                        let v = lost_value(1 - side);
                        if exit.as_ref().is_none_or(|e| better(&v, e)) {
                            exit = Some(v);
                        }
                        continue;
                    }
                    let k = (canonical(rules, &child), 1 - side);
                    let id = *index.entry(k).or_insert_with(|| {
                        queue.push(k);
                        queue.len() - 1
                    });
                    set.push(id);
                }
                if !any {
                    exit = Some(match rules.blocked {
                        Blocked::Draw => Q::zero(),
                        _ => lost_value(side),
                    });
                }
                set.sort_unstable();
                set.dedup();
                kid_sets.push(set);
                throws.push((q(p72 as i64, 72), exit));
            }
            // The children that go on are the same after every throw (leaps
            // always end the game on the boards checked).
            for w in kid_sets.windows(2) {
                assert_eq!(w[0], w[1], "in-group children differ between throws at {st:?}");
            }
            kids.extend(kid_sets.into_iter().next().unwrap_or_default());
            nodes.push(Node { side, throws, kids, over: None });
        }
        let n = nodes.len();
        let mut e = Exact {
            nodes,
            index,
            kid: vec![None; n],
            stay: vec![Vec::new(); n],
            val: vec![Q::zero(); n],
            coefs: Vec::new(),
            coef_stay: Vec::new(),
            last: None,
        };
        for i in 0..n {
            let t = e.nodes[i].throws.len();
            e.kid[i] = e.nodes[i].kids.first().copied();
            // Start by staying only where there is no exit.
            e.stay[i] = (0..t).map(|k| e.nodes[i].throws[k].1.is_none()).collect();
        }
        e.coefs = (0..n).map(|i| e.coef(i)).collect();
        e.coef_stay = e.stay.clone();
        e
    }

    /// `v = a + b · v(kid)` under the current strategy.
    fn coef(&self, i: usize) -> (Q, Q) {
        let node = &self.nodes[i];
        let (mut a, mut b) = (Q::zero(), Q::zero());
        for (k, (p, exit)) in node.throws.iter().enumerate() {
            if self.stay[i][k] {
                b += p;
            } else {
                a += p * exit.as_ref().expect("an exit");
            }
        }
        (a, b)
    }

    /// The exact values of the current strategies.
    fn evaluate(&mut self) {
        let n = self.nodes.len();
        // Each node's `(a, b)`, computed again where its stays changed.
        let mut coefs = std::mem::take(&mut self.coefs);
        for (i, c) in coefs.iter_mut().enumerate() {
            if self.coef_stay[i] != self.stay[i] {
                *c = self.coef(i);
                self.coef_stay[i] = self.stay[i].clone();
            }
        }
        let mut done = self.unchanged(&coefs);
        self.last = Some((self.kid.clone(), self.stay.clone()));
        for s in 0..n {
            if done[s] {
                continue;
            }
            let mut path: Vec<usize> = Vec::new();
            let mut on_path: HashMap<usize, usize> = HashMap::new();
            let mut x = s;
            loop {
                if done[x] {
                    break;
                }
                if let Some(v) = &self.nodes[x].over {
                    self.val[x] = v.clone();
                    done[x] = true;
                    break;
                }
                let (a, b) = &coefs[x];
                if b.is_zero() {
                    self.val[x] = a.clone();
                    done[x] = true;
                    break;
                }
                if let Some(&j) = on_path.get(&x) {
                    // A cycle path[j..]: v0 = alpha + beta · v0.
                    let cyc = path[j..].to_vec();
                    let (mut alpha, mut beta) = (Q::zero(), Q::one());
                    for &c in &cyc {
                        let (a, b) = &coefs[c];
                        alpha += &beta * a;
                        beta *= b;
                    }
                    let v0 = if beta.is_one() { Q::zero() } else { alpha / (Q::one() - beta) };
                    self.val[cyc[0]] = v0;
                    done[cyc[0]] = true;
                    for &c in cyc.iter().skip(1).rev() {
                        let (a, b) = &coefs[c];
                        let next = self.kid[c].expect("stays");
                        self.val[c] = a + b * &self.val[next];
                        done[c] = true;
                    }
                    path.truncate(j);
                    break;
                }
                on_path.insert(x, path.len());
                path.push(x);
                x = self.kid[x].expect("stays somewhere");
            }
            for &p in path.iter().rev() {
                if !done[p] {
                    let (a, b) = &coefs[p];
                    let next = self.kid[p].expect("stays");
                    self.val[p] = a + b * &self.val[next];
                    done[p] = true;
                }
            }
        }
        self.coefs = coefs;
    }

    /// The nodes whose value the last evaluation left right: those whose
    /// path under the strategies (to an exit, or round a cycle) meets no
    /// node that switched since (none before the first evaluation).
    fn unchanged(&self, coefs: &[(Q, Q)]) -> Vec<bool> {
        let n = self.nodes.len();
        let Some((kid, stay)) = &self.last else { return vec![false; n] };
        let switched = |x: usize| kid[x] != self.kid[x] || stay[x] != self.stay[x];
        // 0 not known yet, 1 on the path followed, 2 unchanged, 3 changed.
        let mut state = vec![0u8; n];
        for s in 0..n {
            let mut path = Vec::new();
            let mut x = s;
            let keep = loop {
                match state[x] {
                    2 => break true,
                    3 => break false,
                    // Round a cycle of nodes none of which switched.
                    1 => break true,
                    _ => {}
                }
                if switched(x) {
                    state[x] = 3;
                    break false;
                }
                if coefs[x].1.is_zero() {
                    state[x] = 2;
                    break true;
                }
                state[x] = 1;
                path.push(x);
                x = self.kid[x].expect("stays somewhere");
            };
            for p in path {
                state[p] = if keep { 2 } else { 3 };
            }
        }
        state.iter().map(|&v| v == 2).collect()
    }

    /// Strictly better choices for one side; returns whether any switched.
    fn improve(&mut self, side: usize) -> bool {
        let mut switched = false;
        for i in 0..self.nodes.len() {
            let node = &self.nodes[i];
            if node.side != side || node.over.is_some() {
                continue;
            }
            let better = |a: &Q, b: &Q| qcmp(a, b) == if side == 0 { Ordering::Greater } else { Ordering::Less };
            // Best in-group child, keeping the current one on a tie.
            let mut kid = self.kid[i];
            for &c in &node.kids {
                if kid.is_none_or(|k| better(&self.val[c], &self.val[k])) {
                    kid = Some(c);
                }
            }
            let mut stay = self.stay[i].clone();
            let inside = self.kid[i].map(|c| &self.val[c]);
            let best_in = kid.map(|c| &self.val[c]);
            for (k, (_, exit)) in node.throws.iter().enumerate() {
                let exit = exit.as_ref();
                let now = if stay[k] { inside } else { exit };
                // The best option of this throw.
                let best = match (best_in, exit) {
                    (Some(a), Some(b)) => Some(if better(a, b) { a } else { b }),
                    (Some(a), None) => Some(a),
                    (None, b) => b,
                };
                let improves = match (best, now) {
                    (Some(b), Some(n)) => better(b, n),
                    (Some(_), None) => true,
                    _ => false,
                };
                if improves {
                    stay[k] = match (best_in, exit) {
                        (Some(a), Some(b)) => better(a, b),
                        (Some(_), None) => true,
                        _ => false,
                    };
                }
            }
            let kid_used = if stay.iter().any(|&s| s) { kid } else { self.kid[i] };
            // Keep the old child where staying does not improve through it.
            let new_kid = if kid_used != self.kid[i] {
                let old_ok = self.kid[i].is_some_and(|o| kid.is_some_and(|c| !better(&self.val[c], &self.val[o])));
                if old_ok { self.kid[i] } else { kid_used }
            } else {
                kid_used
            };
            if new_kid != self.kid[i] || stay != self.stay[i] {
                switched = true;
                self.kid[i] = new_kid;
                self.stay[i] = stay;
            }
        }
        switched
    }

    /// Makes `side` hold every loop it can hold while behind, among moves as
    /// good as its best; returns whether anything changed.
    fn hold(&mut self, side: usize) -> bool {
        let behind = |v: &Q| if side == 0 { v.numer().is_negative() } else { v.numer().is_positive() };
        let n = self.nodes.len();
        // Candidates: `side` behind, with an in-group child as good as its
        // value and staying as good as any exit after every throw.
        let mut alive: Vec<bool> = (0..n)
            .map(|i| {
                let node = &self.nodes[i];
                node.side == side
                    && node.over.is_none()
                    && behind(&self.val[i])
                    && node.kids.iter().any(|&c| qeq(&self.val[c], &self.val[i]))
                    && node.throws.iter().all(|(_, e)| {
                        e.as_ref().is_none_or(|e| {
                            qcmp(&self.val[i], e) != if side == 0 { Ordering::Less } else { Ordering::Greater }
                        })
                    })
            })
            .collect();
        // The other side's nodes that stay after every throw lead on.
        let stays = |i: usize| self.stay[i].iter().all(|&s| s) && !self.stay[i].is_empty();
        loop {
            let mut changed = false;
            for i in 0..n {
                if !alive[i] {
                    continue;
                }
                let ok = self.nodes[i]
                    .kids
                    .iter()
                    .any(|&c| qeq(&self.val[c], &self.val[i]) && stays(c) && self.kid[c].is_some_and(|g| alive[g]));
                if !ok {
                    alive[i] = false;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let plan: Vec<(usize, usize)> = (0..n)
            .filter(|&i| alive[i])
            .map(|i| {
                let c = *self.nodes[i]
                    .kids
                    .iter()
                    .find(|&&c| qeq(&self.val[c], &self.val[i]) && stays(c) && self.kid[c].is_some_and(|g| alive[g]))
                    .expect("a way to hold");
                (i, c)
            })
            .filter(|&(i, c)| self.kid[i] != Some(c) || !stays(i))
            .collect();
        for &(i, c) in &plan {
            self.kid[i] = Some(c);
            for s in self.stay[i].iter_mut() {
                *s = true;
            }
        }
        !plan.is_empty()
    }

    /// Hoffman–Karp to the end.
    pub fn solve(mut self) -> Exact {
        loop {
            loop {
                self.evaluate();
                if self.improve(1) || self.hold(1) {
                    continue;
                }
                break;
            }
            if self.improve(0) || self.hold(0) {
                continue;
            }
            // Nothing switched since the last evaluation: a whole one gives
            // the same values, so no switch was missed for a value kept
            // from an earlier evaluation.
            let kept = self.val.clone();
            self.last = None;
            self.evaluate();
            assert!(
                kept.iter().zip(&self.val).all(|(a, b)| qeq(a, b)),
                "values kept from an earlier evaluation differ from a whole one"
            );
            return self;
        }
    }

    /// The value of a state for its side to move.
    pub fn value(&self, rules: &Rules, st: &State) -> Option<&Q> {
        self.index.get(&(canonical(rules, st), 0)).map(|&i| &self.val[i])
    }

    /// Every state of the graph with the first player to move.
    pub fn states(&self) -> impl Iterator<Item = &State> {
        self.index.keys().filter(|k| k.1 == 0).map(|k| &k.0)
    }
}
