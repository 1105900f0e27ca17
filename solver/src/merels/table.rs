//! The solved values of one sector.

use engine::merels::{Dice, Rules, State};

use super::index::Indexer;
use super::sector::Sector;
use super::value::{CODE_UNUSED, Interval, Packed, UNUSED, Value, from_code, unpack};

/// Which kind of value a sector holds under given rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Win, draw or loss with plies: no chance anywhere below.
    Dtm,
    /// Exact rationals: chance only in placement (Murray, Bell).
    Exact,
    /// Values under chance in movement (Schädler): every sector leads into
    /// chance cycles. Kept as grid codes ([`super::value::to_code`]), each
    /// within the table's proven error of the true value.
    Chance,
}

impl Kind {
    pub fn of(rules: &Rules, sector: Sector) -> Kind {
        match rules.dice {
            Dice::None => Kind::Dtm,
            Dice::Schaedler => Kind::Chance,
            Dice::Murray | Dice::Bell if sector.is_movement() => Kind::Dtm,
            Dice::Murray | Dice::Bell => Kind::Exact,
        }
    }
}

/// Hints the processor to bring `cell` into the cache: positions a move
/// apart lie far apart in their tables, and asking for all of a position's
/// successors before reading any overlaps their misses.
#[inline(always)]
pub(crate) fn prefetch<T>(cell: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch only hints the cache and cannot fault; SSE is part
    // of every x86_64 processor.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>((cell as *const T).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = cell;
}

/// A vector of the items, its memory asked to be backed by huge pages where
/// the system offers them on request (Linux's transparent huge pages in
/// `madvise` mode): a table of a billion positions read at random otherwise
/// spends much of its time in page walks.
pub(crate) fn huge_vec<T>(items: impl ExactSizeIterator<Item = T>) -> Vec<T> {
    let mut v = huge_with_capacity(items.len());
    v.extend(items);
    v
}

/// An empty vector with room for `n` items, backed by huge pages where the
/// system offers them (see [`huge_vec`]).
pub(crate) fn huge_with_capacity<T>(n: usize) -> Vec<T> {
    let v: Vec<T> = Vec::with_capacity(n);
    advise_huge(v.as_ptr().cast::<u8>(), v.capacity() * std::mem::size_of::<T>());
    v
}

/// Asks for the whole 2 MiB pages inside `bytes` at `start` to be huge pages,
/// before anything is written there.
#[cfg(target_os = "linux")]
fn advise_huge(start: *const u8, bytes: usize) {
    const HUGE: usize = 2 << 20;
    let first = (start as usize).next_multiple_of(HUGE);
    let end = (start as usize + bytes) / HUGE * HUGE;
    if end > first {
        // SAFETY: the range lies inside an allocation this process owns;
        // the advice only changes how the kernel backs it, never its
        // contents. A refusal (no transparent huge pages) changes nothing.
        unsafe {
            libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge(_start: *const u8, _bytes: usize) {}

/// A proven interval wider than this leaves a position open.
pub const OPEN_WIDTH: f64 = 1e-6;

/// Marks an unused index in an exact table.
pub const EXACT_UNUSED: i128 = i128::MIN;

/// A sector's values, one per index.
pub enum Values {
    Dtm(Vec<Packed>),
    Exact(Vec<i128>),
    /// Grid codes, [`CODE_UNUSED`] at unused indices.
    Chance(Vec<u32>),
}

impl Values {
    pub fn len(&self) -> usize {
        match self {
            Values::Dtm(v) => v.len(),
            Values::Exact(v) => v.len(),
            Values::Chance(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn kind(&self) -> Kind {
        match self {
            Values::Dtm(_) => Kind::Dtm,
            Values::Exact(_) => Kind::Exact,
            Values::Chance(_) => Kind::Chance,
        }
    }

    /// Bytes held in memory.
    pub fn bytes(&self) -> u64 {
        (match self {
            Values::Dtm(v) => v.len() * 2,
            Values::Exact(v) => v.len() * 16,
            Values::Chance(v) => v.len() * 4,
        }) as u64
    }
}

/// One value read from a table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Eval {
    Dtm(Value),
    Exact(i128),
    Chance(Interval),
}

/// How a sector was solved.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Meta {
    pub seconds: f64,
    /// Strategy-iteration rounds (0 for other methods).
    pub sweeps: u64,
    /// Largest violation of the value equation by the stored values (under
    /// chance), before rounding to the grid.
    pub residual: f64,
    /// Under chance: a proven bound on the distance between every stored
    /// value and the true value (the successors' bounds, the arithmetic and
    /// the rounding to the grid).
    pub error: f64,
}

/// The solved values of one sector.
pub struct Table {
    pub indexer: Indexer,
    pub values: Values,
    pub meta: Meta,
    /// Under chance, in a movement group: per index, how far the position is
    /// from leaving the group when the side ahead must keep to equally good
    /// moves inside it (0 where no such keeping is needed; empty when the
    /// table has no ranks). The side ahead moves to a child of smaller rank,
    /// and every equally good move of the side behind leads to one, so
    /// perfect play leaves every loop it should leave.
    pub rank: Vec<u16>,
}

/// Counts of a table's positions by their value for the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Census {
    pub positions: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Longest forced win (deterministic tables).
    pub longest_win: u16,
    /// Mean value over the positions.
    pub mean: f64,
    /// Under chance: positions whose proven interval is wider than
    /// [`OPEN_WIDTH`].
    pub open: u64,
    /// Under chance: the widest proven interval.
    pub widest: f64,
}

impl Table {
    pub fn new(indexer: Indexer, values: Values, meta: Meta) -> Table {
        debug_assert_eq!(values.len() as u64, indexer.size());
        Table { indexer, values, meta, rank: Vec::new() }
    }

    /// A table with progress ranks (one per index).
    pub fn with_rank(indexer: Indexer, values: Values, meta: Meta, rank: Vec<u16>) -> Table {
        debug_assert_eq!(rank.len() as u64, indexer.size());
        Table { rank, ..Table::new(indexer, values, meta) }
    }

    /// The progress rank at an index (0 without ranks).
    #[inline]
    pub fn rank_at(&self, i: u64) -> u16 {
        self.rank.get(i as usize).copied().unwrap_or(0)
    }

    pub fn sector(&self) -> Sector {
        self.indexer.sector()
    }

    /// The value at an index, `None` where the index is unused.
    #[inline]
    pub fn at(&self, i: u64) -> Option<Eval> {
        let i = i as usize;
        match &self.values {
            Values::Dtm(v) => (v[i] != UNUSED).then(|| Eval::Dtm(unpack(v[i]))),
            Values::Exact(v) => (v[i] != EXACT_UNUSED).then_some(Eval::Exact(v[i])),
            Values::Chance(v) => {
                (v[i] != CODE_UNUSED).then(|| Eval::Chance(Interval::around(from_code(v[i]), self.meta.error)))
            }
        }
    }

    /// Asks for the value at an index to be brought into the cache.
    #[inline]
    pub fn prefetch(&self, i: u64) {
        let i = i as usize;
        match &self.values {
            Values::Dtm(v) => prefetch(&v[i]),
            Values::Exact(v) => prefetch(&v[i]),
            Values::Chance(v) => prefetch(&v[i]),
        }
    }

    /// The value of a state of this sector.
    #[inline]
    pub fn get(&self, st: &State) -> Option<Eval> {
        self.at(self.indexer.index(st))
    }

    /// Positions by value (a chance value counts as a win above zero, a
    /// loss below).
    pub fn census(&self, den: i128) -> Census {
        let mut c = Census::default();
        let mut sum = 0.0;
        let mut tally = |sign: i32, x: f64| {
            c.positions += 1;
            sum += x;
            match sign {
                1 => c.wins += 1,
                0 => c.draws += 1,
                _ => c.losses += 1,
            }
        };
        match &self.values {
            Values::Dtm(v) => {
                for &p in v.iter().filter(|&&p| p != UNUSED) {
                    let val = unpack(p);
                    tally(val.sign(), val.sign() as f64);
                    if let Value::Win(w) = val {
                        c.longest_win = c.longest_win.max(w);
                    }
                }
            }
            Values::Exact(v) => {
                for &n in v.iter().filter(|&&n| n != EXACT_UNUSED) {
                    tally(n.signum() as i32, n as f64 / den as f64);
                }
            }
            Values::Chance(v) => {
                for &k in v.iter().filter(|&&k| k != CODE_UNUSED) {
                    let iv = Interval::around(from_code(k), self.meta.error);
                    let s = if iv.v > 0.0 {
                        1
                    } else if iv.v < 0.0 {
                        -1
                    } else {
                        0
                    };
                    tally(s, iv.v);
                    let w = iv.width();
                    c.widest = c.widest.max(w);
                    if w > OPEN_WIDTH {
                        c.open += 1;
                    }
                }
            }
        }
        c.mean = if c.positions > 0 { sum / c.positions as f64 } else { 0.0 };
        c
    }
}
