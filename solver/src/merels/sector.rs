//! Sectors: the state space split by how many men each side has on the board
//! and in hand. Moves lead from a sector only to itself, to its mirror (the
//! same counts with the roles exchanged), or to sectors with fewer men in hand
//! or on the board; so sectors are solved in the order captures and
//! placements lead, every successor outside a sector's group already known.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use engine::merels::{Dice, PlacementMills, Rules, State};

/// Men on the board and in hand: `w`, `wf` for the side to move, `b`, `bf`
/// for the other side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sector {
    pub w: u8,
    pub wf: u8,
    pub b: u8,
    pub bf: u8,
}

impl Sector {
    #[inline]
    pub fn of(st: &State) -> Sector {
        Sector { w: st.own.len() as u8, wf: st.own_hand, b: st.other.len() as u8, bf: st.other_hand }
    }

    /// The sector of the start position.
    pub fn start(rules: &Rules) -> Sector {
        Sector::of(&State::start(rules.men()))
    }

    /// The same counts with the roles exchanged.
    pub fn mirror(self) -> Sector {
        Sector { w: self.b, wf: self.bf, b: self.w, bf: self.wf }
    }

    /// The men of both sides, on the board and in hand.
    pub fn men(self) -> u8 {
        self.w + self.wf + self.b + self.bf
    }

    /// Both sides are moving (no men in hand).
    pub fn is_movement(self) -> bool {
        self.wf == 0 && self.bf == 0
    }

    /// A stored sector: both sides have at least three men (a side with fewer
    /// has lost and needs no table).
    pub fn is_stored(self) -> bool {
        self.w + self.wf >= 3 && self.b + self.bf >= 3
    }

    /// The file-name form `w-wf-b-bf`.
    pub fn key(self) -> String {
        format!("{}-{}-{}-{}", self.w, self.wf, self.b, self.bf)
    }

    /// The sector of a key `w-wf-b-bf`.
    pub fn from_key(key: &str) -> Option<Sector> {
        let mut it = key.split('-').map(|x| x.parse::<u8>().ok());
        let s = Sector { w: it.next()??, wf: it.next()??, b: it.next()??, bf: it.next()?? };
        it.next().is_none().then_some(s)
    }
}

impl fmt::Display for Sector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}+{} v {}+{}", self.w, self.wf, self.b, self.bf)
    }
}

/// The sectors a move can lead to (a superset: some may hold no successor).
pub fn successors(rules: &Rules, s: Sector) -> Vec<Sector> {
    let board = rules.board;
    let n = board.len() as u8;
    // The most lines a single man can close.
    let most_lines = board.points().map(|p| board.lines_at(p).len() as u8).max().unwrap_or(0);
    let per_move = if board.line_wins() {
        0
    } else if rules.double_mill_one {
        most_lines.min(1)
    } else {
        most_lines
    };
    let mut out = BTreeSet::new();
    let mut add = |w: u8, wf: u8, k: u8| {
        // The mover now has `w` on the board and `wf` in hand; it took `k`.
        if k > s.b {
            return;
        }
        let child = Sector { w: s.b - k, wf: s.bf, b: w, bf: wf };
        if child.w + child.b <= n && child.is_stored() {
            out.insert(child);
        }
    };
    if s.wf > 0 {
        let mut most = if rules.placement_mills == PlacementMills::Forbidden { 0 } else { per_move };
        if rules.dice == Dice::Bell && !board.line_wins() {
            most += 1;
        }
        for k in 0..=most {
            add(s.w + 1, s.wf - 1, k);
        }
        if rules.dice == Dice::Murray && s.wf >= 3 && !board.line_wins() {
            // One for the line, one for each other mill its three men close.
            // With no enemy man on the board nothing is removed.
            let most = if rules.double_mill_one { 1 } else { 1 + 3 * most_lines.saturating_sub(1) };
            for k in 0..=most {
                add(s.w + 3, s.wf - 3, k);
            }
        }
    } else {
        for k in 0..=per_move {
            add(s.w, 0, k);
        }
    }
    out.into_iter().collect()
}

/// The sectors play can reach from `from`, `from` among them.
pub fn reachable(rules: &Rules, from: Sector) -> BTreeSet<Sector> {
    let mut seen = BTreeSet::from([from]);
    let mut stack = vec![from];
    while let Some(s) = stack.pop() {
        for c in successors(rules, s) {
            if seen.insert(c) {
                stack.push(c);
            }
        }
    }
    seen
}

/// The groups of `groups` that play can reach from `from`, in their order
/// (a group is taken whole: its sectors lead to one another).
pub fn reached_groups(rules: &Rules, groups: Vec<Vec<Sector>>, from: Sector) -> Vec<Vec<Sector>> {
    let reach = reachable(rules, from);
    groups.into_iter().filter(|g| g.iter().any(|s| reach.contains(s))).collect()
}

/// The sectors reachable from the start, grouped into strongly connected
/// components, listed so that every group comes after all groups it leads
/// to, and among groups that are ready the smallest endgames first (fewest
/// men in hand, then fewest men in all).
pub fn solve_order(rules: &Rules) -> Vec<Vec<Sector>> {
    let start = Sector::start(rules);
    let mut edges: BTreeMap<Sector, Vec<Sector>> = BTreeMap::new();
    let mut stack = vec![start];
    while let Some(s) = stack.pop() {
        if edges.contains_key(&s) {
            continue;
        }
        let succ = successors(rules, s);
        stack.extend(succ.iter().copied().filter(|c| !edges.contains_key(c)));
        edges.insert(s, succ);
    }
    let groups = tarjan(&edges);
    let group_of: BTreeMap<Sector, usize> =
        groups.iter().enumerate().flat_map(|(g, ss)| ss.iter().map(move |&s| (s, g))).collect();
    // Kahn's algorithm over the groups, by priority.
    let mut waiting: Vec<BTreeSet<usize>> = groups
        .iter()
        .enumerate()
        .map(|(g, ss)| ss.iter().flat_map(|s| edges[s].iter().map(|c| group_of[c])).filter(|&c| c != g).collect())
        .collect();
    let key = |g: usize| {
        let ss = &groups[g];
        let hands = ss.iter().map(|s| s.wf + s.bf).max().unwrap_or(0);
        let men = ss.iter().map(|s| s.men()).max().unwrap_or(0);
        (hands, men, ss[0])
    };
    let mut ready: BTreeSet<((u8, u8, Sector), usize)> =
        (0..groups.len()).filter(|&g| waiting[g].is_empty()).map(|g| (key(g), g)).collect();
    let mut out = Vec::with_capacity(groups.len());
    while let Some(first) = ready.pop_first() {
        let g = first.1;
        out.push(groups[g].clone());
        for (h, w) in waiting.iter_mut().enumerate() {
            if w.remove(&g) && w.is_empty() {
                ready.insert((key(h), h));
            }
        }
    }
    debug_assert_eq!(out.len(), groups.len());
    out
}

/// Tarjan's algorithm; components come out children first.
fn tarjan(edges: &BTreeMap<Sector, Vec<Sector>>) -> Vec<Vec<Sector>> {
    struct T<'a> {
        edges: &'a BTreeMap<Sector, Vec<Sector>>,
        index: BTreeMap<Sector, usize>,
        low: BTreeMap<Sector, usize>,
        on_stack: BTreeSet<Sector>,
        stack: Vec<Sector>,
        out: Vec<Vec<Sector>>,
    }
    fn visit(t: &mut T, v: Sector) {
        let i = t.index.len();
        t.index.insert(v, i);
        t.low.insert(v, i);
        t.stack.push(v);
        t.on_stack.insert(v);
        for &w in &t.edges[&v] {
            if !t.index.contains_key(&w) {
                visit(t, w);
                let lw = t.low[&w];
                let lv = t.low.get_mut(&v).expect("visited");
                *lv = (*lv).min(lw);
            } else if t.on_stack.contains(&w) {
                let iw = t.index[&w];
                let lv = t.low.get_mut(&v).expect("visited");
                *lv = (*lv).min(iw);
            }
        }
        if t.low[&v] == t.index[&v] {
            let mut comp = Vec::new();
            loop {
                let w = t.stack.pop().expect("tarjan stack");
                t.on_stack.remove(&w);
                comp.push(w);
                if w == v {
                    break;
                }
            }
            comp.sort();
            t.out.push(comp);
        }
    }
    let mut t = T {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        on_stack: BTreeSet::new(),
        stack: Vec::new(),
        out: Vec::new(),
    };
    for &v in edges.keys() {
        if !t.index.contains_key(&v) {
            visit(&mut t, v);
        }
    }
    t.out
}
