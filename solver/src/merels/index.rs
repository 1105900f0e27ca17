//! Perfect indexing of positions within a sector.
//!
//! A position's index is the canonical (symmetry-reduced) rank of the side to
//! move's set of points, times the number of ways to place the other side's
//! men on the remaining points, plus the rank of the other side's set among
//! those free points. When the side to move's set is itself symmetric, the
//! symmetries that fix it are used once more to pick the smallest rank of the
//! other set: every position then has exactly one index, and indices that no
//! position maps to are marked as unused.

use std::sync::Arc;

use engine::merels::{Board, MAX_POINTS, PointSet, State};

use super::sector::Sector;

/// Binomial coefficients up to 24 choose 24.
pub struct Binomial([[u64; MAX_POINTS + 1]; MAX_POINTS + 1]);

impl Binomial {
    const fn new() -> Binomial {
        let mut t = [[0u64; MAX_POINTS + 1]; MAX_POINTS + 1];
        let mut n = 0;
        while n <= MAX_POINTS {
            t[n][0] = 1;
            let mut k = 1;
            while k <= n {
                t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
                k += 1;
            }
            n += 1;
        }
        Binomial(t)
    }

    #[inline]
    pub fn get(&self, n: usize, k: usize) -> u64 {
        if k > n { 0 } else { self.0[n][k] }
    }
}

pub static BINOMIAL: Binomial = Binomial::new();

/// `COLEX[j][c][b]`: what byte `j` of a set, holding the bits of `b`, adds
/// to its colexicographic rank when `c` members lie below it (a member at
/// point `p` that is the `t`-th from the bottom adds `C(p, t)`).
static COLEX: [[[u32; 256]; 17]; 3] = {
    const C: Binomial = Binomial::new();
    let mut t = [[[0u32; 256]; 17]; 3];
    let mut j = 0;
    while j < 3 {
        let mut c = 0;
        while c < 17 {
            let mut b = 0;
            while b < 256 {
                let mut sum = 0u64;
                let mut ord = 0;
                let mut q = 0;
                while q < 8 {
                    if b >> q & 1 == 1 {
                        ord += 1;
                        let (n, k) = (8 * j + q, c + ord);
                        sum += if k <= n { C.0[n][k] } else { 0 };
                    }
                    q += 1;
                }
                t[j][c][b] = sum as u32;
                b += 1;
            }
            c += 1;
        }
        j += 1;
    }
    t
};

/// Positions [`Indexer::for_each_batch_by_other_men`] hands over at once.
pub const VISIT_BATCH: usize = 8;

/// The most sets of the other side's men one piece of parallel work in
/// [`Indexer::for_each_batch_by_other_men`] takes.
const PIECE: usize = 64;

/// The colexicographic rank of a set among the sets of its size, a byte
/// at a time.
#[inline]
pub fn colex_rank(set: u32) -> u64 {
    debug_assert!(set < 1 << MAX_POINTS);
    let (b0, b1, b2) = ((set & 0xff) as usize, (set >> 8 & 0xff) as usize, (set >> 16 & 0xff) as usize);
    let c0 = (set & 0xff).count_ones() as usize;
    let c1 = c0 + (set >> 8 & 0xff).count_ones() as usize;
    (COLEX[0][0][b0] + COLEX[1][c0][b1] + COLEX[2][c1][b2]) as u64
}

/// The set of `k` elements with colexicographic rank `rank`.
#[inline]
pub fn colex_unrank(mut rank: u64, k: usize) -> u32 {
    let mut set = 0u32;
    let mut p = MAX_POINTS;
    for i in (1..=k).rev() {
        // The largest p with C(p, i) <= rank.
        loop {
            p -= 1;
            if BINOMIAL.get(p, i) <= rank {
                break;
            }
        }
        rank -= BINOMIAL.get(p, i);
        set |= 1 << p;
    }
    set
}

/// The set after `set` among the sets of its size in colexicographic
/// order: the next larger integer with as many bits (`set` not empty;
/// Gosper's hack).
#[inline]
pub fn next_colex(set: u32) -> u32 {
    debug_assert_ne!(set, 0);
    let ripple = set + (set & set.wrapping_neg());
    ripple | ((set ^ ripple) >> (2 + set.trailing_zeros()))
}

/// At most this many steps of [`next_colex`] (a few instructions each)
/// replace a [`colex_unrank`] (a scan down the points with a branch each).
const CURSOR_STEPS: u64 = 24;

/// The last index an [`Indexer::state_at_cursor`] read and the other side's
/// men there (packed onto the free points): reading indices in ascending
/// order, each next set of those men is a step or a few from the last.
#[derive(Clone, Copy, Debug, Default)]
pub struct Cursor(Option<(u64, u32)>);

/// Whether the processor has BMI2's PEXT and PDEP (checked once).
#[cfg(target_arch = "x86_64")]
#[inline]
fn bmi2() -> bool {
    use std::sync::atomic::{AtomicU8, Ordering::Relaxed};
    static HAS: AtomicU8 = AtomicU8::new(0);
    match HAS.load(Relaxed) {
        0 => {
            let has = std::arch::is_x86_feature_detected!("bmi2");
            HAS.store(if has { 2 } else { 1 }, Relaxed);
            has
        }
        v => v == 2,
    }
}

/// The bits of `set` that lie in `mask`, packed to the low end (PEXT where
/// the processor has it).
#[inline]
pub fn compress(set: u32, mask: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if bmi2() {
        #[target_feature(enable = "bmi2")]
        fn pext(set: u32, mask: u32) -> u32 {
            std::arch::x86_64::_pext_u32(set, mask)
        }
        // SAFETY: the processor has BMI2.
        return unsafe { pext(set, mask) };
    }
    compress_bits(set, mask)
}

/// [`compress`] a bit at a time.
#[inline]
pub fn compress_bits(set: u32, mask: u32) -> u32 {
    let mut out = 0;
    let mut s = set & mask;
    while s != 0 {
        let bit = s & s.wrapping_neg();
        out |= 1 << (mask & (bit - 1)).count_ones();
        s &= s - 1;
    }
    out
}

/// The inverse of [`compress`]: low bits spread onto the bits of `mask`
/// (PDEP where the processor has it).
#[inline]
pub fn deposit(packed: u32, mask: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if bmi2() {
        #[target_feature(enable = "bmi2")]
        fn pdep(packed: u32, mask: u32) -> u32 {
            std::arch::x86_64::_pdep_u32(packed, mask)
        }
        // SAFETY: the processor has BMI2.
        return unsafe { pdep(packed, mask) };
    }
    deposit_bits(packed, mask)
}

/// [`deposit`] a bit at a time.
#[inline]
pub fn deposit_bits(mut packed: u32, mask: u32) -> u32 {
    let mut out = 0;
    let mut m = mask;
    while packed != 0 && m != 0 {
        let bit = m & m.wrapping_neg();
        if packed & 1 != 0 {
            out |= bit;
        }
        packed >>= 1;
        m &= m - 1;
    }
    out
}

/// The place of the `r`-th set bit of `word` (from 0, below its count of
/// bits): PDEP where the processor has it.
#[inline]
pub fn select_bit(word: u64, r: u32) -> u32 {
    debug_assert!(r < word.count_ones());
    #[cfg(target_arch = "x86_64")]
    if bmi2() {
        #[target_feature(enable = "bmi2")]
        fn pdep(packed: u64, mask: u64) -> u64 {
            std::arch::x86_64::_pdep_u64(packed, mask)
        }
        // SAFETY: the processor has BMI2.
        return unsafe { pdep(1 << r, word) }.trailing_zeros();
    }
    select_bit_by_bit(word, r)
}

/// [`select_bit`] a bit at a time.
#[inline]
pub fn select_bit_by_bit(mut word: u64, r: u32) -> u32 {
    for _ in 0..r {
        word &= word - 1;
    }
    word.trailing_zeros()
}

/// The low bits of a lookup entry: the symmetry (a board has at most 16).
const LOOKUP_SYMMETRY: u32 = 0xf;
/// The lookup entry's bit for a canonical set with a nontrivial stabiliser.
const LOOKUP_FIXED: u32 = 0x10;
/// Where the lookup entry's canonical index starts.
const LOOKUP_ID_SHIFT: u32 = 5;

/// Canonical sets of one size: each set's class representative and the
/// symmetry that maps it there.
struct SizeTable {
    /// Canonical sets, in increasing order.
    canon: Vec<u32>,
    /// For every set of this size, by colex rank, packed in one word (one
    /// memory access per index): the canonical index above
    /// [`LOOKUP_ID_SHIFT`], a bit for a canonical set that symmetries fix
    /// ([`LOOKUP_FIXED`]), and the symmetry taking the set there.
    lookup: Vec<u32>,
    /// For each canonical set, the symmetries (other than the identity) that
    /// fix it; empty for most sets.
    stabiliser: Vec<Vec<u8>>,
}

impl SizeTable {
    fn build(board: &Board, k: usize) -> SizeTable {
        let n = board.len();
        let total = BINOMIAL.get(n, k) as usize;
        let syms = board.symmetries();
        assert!(syms.len() <= 16, "a lookup entry holds 16 symmetries");
        let mut lookup = vec![0u32; total];
        let mut canon = Vec::new();
        let mut stabiliser = Vec::new();
        // The canonical set of a class is its smallest member; visiting sets
        // in increasing colex order meets each class first at that member.
        let mut class_of: Vec<u32> = vec![u32::MAX; total];
        for r in 0..total {
            if class_of[r] != u32::MAX {
                continue;
            }
            let set = colex_unrank(r as u64, k);
            let id = canon.len() as u32;
            canon.push(set);
            let mut stab = Vec::new();
            for (g, sym) in syms.iter().enumerate() {
                let image = sym.set(PointSet(set)).0;
                let ir = colex_rank(image) as usize;
                if class_of[ir] == u32::MAX {
                    class_of[ir] = id;
                }
                if image == set && g != 0 {
                    stab.push(g as u8);
                }
            }
            stabiliser.push(stab);
        }
        // The symmetry taking each set to its canonical set.
        for r in 0..total {
            let set = colex_unrank(r as u64, k);
            let id = class_of[r];
            let target = canon[id as usize];
            let g = syms.iter().position(|s| s.set(PointSet(set)).0 == target).expect("class member");
            let fixed = if stabiliser[id as usize].is_empty() { 0 } else { LOOKUP_FIXED };
            lookup[r] = id << LOOKUP_ID_SHIFT | fixed | g as u32;
        }
        SizeTable { canon, lookup, stabiliser }
    }
}

/// The symmetry tables of one board, for every set size up to the men count.
pub struct BoardTables {
    pub board: &'static Board,
    sizes: Vec<SizeTable>,
}

impl BoardTables {
    pub fn new(board: &'static Board) -> Arc<BoardTables> {
        let sizes = (0..=board.men() as usize).map(|k| SizeTable::build(board, k)).collect();
        Arc::new(BoardTables { board, sizes })
    }

    /// How many symmetry classes of `k`-point sets the board has.
    pub fn classes(&self, k: usize) -> usize {
        self.sizes[k].canon.len()
    }
}

/// What the side to move's men contribute to an index ([`Indexer::own_part`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OwnPart {
    /// The lookup entry of the men's set.
    entry: u32,
    /// The points left free once the men are moved to their canonical set.
    free: u32,
}

/// Maps the positions of one sector to `0..size()` and back.
#[derive(Clone)]
pub struct Indexer {
    tables: Arc<BoardTables>,
    sector: Sector,
    /// Ways to place the other side's men among the free points.
    other_ways: u64,
    size: u64,
}

impl Indexer {
    pub fn new(tables: Arc<BoardTables>, sector: Sector) -> Indexer {
        let n = tables.board.len();
        let other_ways = BINOMIAL.get(n - sector.w as usize, sector.b as usize);
        let size = tables.classes(sector.w as usize) as u64 * other_ways;
        Indexer { tables, sector, other_ways, size }
    }

    pub fn sector(&self) -> Sector {
        self.sector
    }

    /// Number of indices (some may be unused, see [`Indexer::is_canonical`]).
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The index of a state of this sector.
    #[inline]
    pub fn index(&self, st: &State) -> u64 {
        debug_assert_eq!(Sector::of(st), self.sector);
        self.index_with(self.own_part(st.own), st.other)
    }

    /// The part of an index that the side to move's men decide: states of
    /// this sector with the same such men share it (all the placements and
    /// steps of the other side from one position), so it is looked up once
    /// for them.
    #[inline]
    pub fn own_part(&self, own: PointSet) -> OwnPart {
        let t = &self.tables.sizes[self.sector.w as usize];
        let entry = t.lookup[colex_rank(own.0) as usize];
        let sym = &self.tables.board.symmetries()[(entry & LOOKUP_SYMMETRY) as usize];
        OwnPart { entry, free: self.tables.board.all().0 & !sym.set(own).0 }
    }

    /// The index of the state of this sector with the men of `own` (the
    /// side to move's) and `other`.
    #[inline]
    pub fn index_with(&self, own: OwnPart, other: PointSet) -> u64 {
        let t = &self.tables.sizes[self.sector.w as usize];
        let OwnPart { entry, free } = own;
        let id = entry >> LOOKUP_ID_SHIFT;
        let syms = self.tables.board.symmetries();
        let sym = &syms[(entry & LOOKUP_SYMMETRY) as usize];
        let other = sym.set(other).0;
        let mut r = colex_rank(compress(other, free));
        if entry & LOOKUP_FIXED != 0 {
            for &h in &t.stabiliser[id as usize] {
                let alt = colex_rank(compress(syms[h as usize].set(PointSet(other)).0, free));
                r = r.min(alt);
            }
        }
        id as u64 * self.other_ways + r
    }

    /// The state with this index (the canonical member of its class).
    #[inline]
    pub fn state(&self, index: u64) -> State {
        self.state_in_block(index / self.other_ways, colex_unrank(index % self.other_ways, self.sector.b as usize))
    }

    /// The state of block `id` (the side to move's men) with the other
    /// side's men `packed` onto the points they leave free.
    #[inline]
    fn state_in_block(&self, id: u64, packed: u32) -> State {
        let own = self.tables.sizes[self.sector.w as usize].canon[id as usize];
        let other = deposit(packed, self.tables.board.all().0 & !own);
        State { own: PointSet(own), other: PointSet(other), own_hand: self.sector.wf, other_hand: self.sector.bf }
    }

    /// [`Indexer::state`] for indices read in ascending order through one
    /// `cursor`: the other side's men step from where the last read left
    /// them when the index is a few places further in the same block of the
    /// side to move's men, else they are unranked.
    #[inline]
    pub fn state_at_cursor(&self, cursor: &mut Cursor, index: u64) -> State {
        let (id, r) = (index / self.other_ways, index % self.other_ways);
        let packed = match cursor.0 {
            Some((last, mut packed)) if last < index && index - last <= CURSOR_STEPS.min(r) => {
                for _ in last..index {
                    packed = next_colex(packed);
                }
                packed
            }
            _ => colex_unrank(r, self.sector.b as usize),
        };
        cursor.0 = Some((index, packed));
        self.state_in_block(id, packed)
    }

    /// The state with this index if the index is the one of its class that
    /// the indexing uses ([`Indexer::is_canonical`]), read through `cursor`
    /// as [`Indexer::state_at_cursor`].
    #[inline]
    pub fn canonical_state_at_cursor(&self, cursor: &mut Cursor, index: u64) -> Option<State> {
        let st = self.state_at_cursor(cursor, index);
        (!self.has_stabiliser(index) || self.index(&st) == index).then_some(st)
    }

    /// Every position of the sector once, grouped by the other side's men:
    /// for each class of those, its canonical set with every set of the side
    /// to move's men on the points left (where symmetries fix the canonical
    /// set, only the smallest of the sets they map into one another).
    /// `visit` gets the position (a symmetric image of its canonical one)
    /// and its index.
    ///
    /// The successors of a position put the other side to move with its men
    /// as they were (unless some are taken), so the successors of one group
    /// share the part of their index those men decide and lie in one block
    /// of their table: visited in this order, the successors' values are
    /// read from a few cache lines instead of one each.
    pub fn for_each_by_other_men(&self, visit: impl Fn(&State, u64) + Sync) {
        self.for_each_batch_by_other_men(|states, indices| {
            for (st, &i) in states.iter().zip(indices) {
                visit(st, i);
            }
        });
    }

    /// [`Indexer::for_each_by_other_men`] handing over up to [`VISIT_BATCH`]
    /// positions of one group of the other side's men at a time (with their
    /// indices), so that the reads of their successors can be under way at
    /// once.
    pub fn for_each_batch_by_other_men(&self, visit: impl Fn(&[State], &[u64]) + Sync) {
        use arrayvec::ArrayVec;
        use rayon::prelude::*;
        let s = self.sector;
        let all = self.tables.board.all().0;
        let (w, b) = (s.w as usize, s.b as usize);
        let t = &self.tables.sizes[b];
        let syms = self.tables.board.symmetries();
        // Small pieces of work: rayon splits a piece further only when a
        // thread steals from it, so a few large pieces can leave the last of
        // them to one thread for a long tail.
        t.canon.par_iter().zip(&t.stabiliser).with_max_len(PIECE).for_each(|(&other, stab)| {
            let free = all & !other;
            let room = free.count_ones() as usize;
            if w > room {
                return;
            }
            let last = if w == 0 { 0 } else { ((1u32 << w) - 1) << (room - w) };
            let mut low = (1u32 << w) - 1;
            let mut states: ArrayVec<State, VISIT_BATCH> = ArrayVec::new();
            let mut indices: ArrayVec<u64, VISIT_BATCH> = ArrayVec::new();
            loop {
                let own = deposit(low, free);
                if stab.iter().all(|&h| own <= syms[h as usize].set(PointSet(own)).0) {
                    let st = State { own: PointSet(own), other: PointSet(other), own_hand: s.wf, other_hand: s.bf };
                    indices.push(self.index(&st));
                    states.push(st);
                    if states.is_full() {
                        visit(&states, &indices);
                        states.clear();
                        indices.clear();
                    }
                }
                if low == last {
                    if !states.is_empty() {
                        visit(&states, &indices);
                    }
                    break;
                }
                low = next_colex(low);
            }
        });
    }

    /// Whether a position maps to this index. Indices of a symmetric own set
    /// whose other set is not the smallest of its class are unused.
    #[inline]
    pub fn is_canonical(&self, index: u64) -> bool {
        !self.has_stabiliser(index) || self.index(&self.state(index)) == index
    }

    /// Whether symmetries fix the side to move's men of this index (only
    /// then can an index be unused).
    #[inline]
    fn has_stabiliser(&self, index: u64) -> bool {
        !self.tables.sizes[self.sector.w as usize].stabiliser[(index / self.other_ways) as usize].is_empty()
    }
}
