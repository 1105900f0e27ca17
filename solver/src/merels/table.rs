//! The solved values of one sector.

use engine::merels::{Dice, Rules, State};
use rayon::prelude::*;

use super::index::{Cursor, Indexer, VISIT_BATCH};
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

/// A table's cells: `value` of every position of `ix`'s sector, `unused`
/// where no position maps or `value` gives `None`, computed in parallel in
/// the order of [`Indexer::for_each_by_other_men`] (the successors of one
/// group of positions lie close together in their tables).
pub(crate) fn fill_by_other_men<T: Copy + Send + Sync>(
    ix: &Indexer,
    unused: T,
    value: impl Fn(&State) -> Option<T> + Sync,
) -> Vec<T> {
    fill_by_other_men_each(ix, unused, |states, out| {
        for (st, o) in states.iter().zip(out) {
            *o = value(st);
        }
    })
}

/// [`fill_by_other_men`] with `values` of up to [`VISIT_BATCH`] positions
/// at a time (`out[k]` for `states[k]`).
pub(crate) fn fill_by_other_men_each<T: Copy + Send + Sync>(
    ix: &Indexer,
    unused: T,
    values: impl Fn(&[State], &mut [Option<T>]) + Sync,
) -> Vec<T> {
    /// The cells, written from many threads.
    struct Cells<T>(*mut T);
    // SAFETY: see `put`.
    unsafe impl<T: Send> Sync for Cells<T> {}
    impl<T> Cells<T> {
        /// # Safety
        /// `i` is within the cells, no two threads write one cell, and nothing
        /// reads them until every write is done.
        unsafe fn put(&self, i: usize, x: T) {
            unsafe { self.0.add(i).write(x) }
        }
    }
    let n = ix.size() as usize;
    let mut out = huge_vec((0..n).map(|_| unused));
    let cells = Cells(out.as_mut_ptr());
    ix.for_each_batch_by_other_men(|states, indices| {
        let mut got = [None; VISIT_BATCH];
        let got = &mut got[..states.len()];
        values(states, got);
        for (&i, x) in indices.iter().zip(got.iter()) {
            if let Some(x) = *x {
                assert!((i as usize) < n, "an index of the sector");
                // SAFETY: in bounds (checked); a cell is written only while
                // its position's group of the other side's men is visited,
                // and one thread visits a group; `out` is read only once all
                // are done.
                unsafe { cells.put(i as usize, x) }
            }
        }
    });
    out
}

/// The cells of an exact table, in the word type of its width: numerators
/// computed in parallel, each narrowed by `word`, `unused` where none.
trait Cells: Sync {
    fn cells<T: Copy + Send + Sync>(&self, unused: T, word: impl Fn(i128) -> T + Sync) -> Vec<T>;
}

/// Numerators by index, in index order.
struct ByIndex<F> {
    n: usize,
    value: F,
}

impl<F: Fn(usize) -> Option<i128> + Sync> Cells for ByIndex<F> {
    fn cells<T: Copy + Send + Sync>(&self, unused: T, word: impl Fn(i128) -> T + Sync) -> Vec<T> {
        let mut v = huge_with_capacity(self.n);
        (0..self.n).into_par_iter().map(|i| (self.value)(i).map_or(unused, &word)).collect_into_vec(&mut v);
        v
    }
}

/// Numerators by position, grouped by the other side's men.
struct ByState<'a, F> {
    ix: &'a Indexer,
    value: F,
}

impl<F: Fn(&[State], &mut [Option<i128>]) + Sync> Cells for ByState<'_, F> {
    fn cells<T: Copy + Send + Sync>(&self, unused: T, word: impl Fn(i128) -> T + Sync) -> Vec<T> {
        fill_by_other_men_each(self.ix, unused, |states, out| {
            let mut nums = [None; VISIT_BATCH];
            let nums = &mut nums[..states.len()];
            (self.value)(states, nums);
            for (o, num) in out.iter_mut().zip(nums.iter()) {
                *o = num.map(&word);
            }
        })
    }
}

/// Byte planes of `n` words of `W` bytes, little-endian: every word's lowest
/// byte, then every word's next, … (values of neighbouring positions share
/// their high bytes, which compress to almost nothing). Writes `words` into
/// `planes` from plane `first` on.
pub(crate) fn put_planes<const W: usize>(
    planes: &mut [u8],
    first: usize,
    words: impl ExactSizeIterator<Item = [u8; W]>,
) {
    let n = words.len();
    for (i, word) in words.enumerate() {
        for (b, byte) in word.into_iter().enumerate() {
            planes[(first + b) * n + i] = byte;
        }
    }
}

/// Word `i` of `n` read back from byte planes made by [`put_planes`] from
/// plane `first` on.
#[inline]
pub(crate) fn word_from_planes<const W: usize>(planes: &[u8], n: usize, first: usize, i: usize) -> [u8; W] {
    std::array::from_fn(|b| planes[(first + b) * n + i])
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

/// A sector's values, one per index.
pub enum Values {
    Dtm(Vec<Packed>),
    Exact(Exact),
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
            Values::Exact(v) => v.len() * v.width(),
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
    /// The file holds progress ranks that were not read
    /// ([`super::db::Db::load_values`]: a solve needs only its successors'
    /// values): [`Table::rank_at`] refuses to answer.
    pub ranks_left: bool,
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
    /// Longest loss against the best defence (deterministic tables).
    pub longest_loss: u16,
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
        Table { indexer, values, meta, rank: Vec::new(), ranks_left: false }
    }

    /// Bytes held in memory: the values and the progress ranks.
    pub fn bytes(&self) -> u64 {
        self.values.bytes() + 2 * self.rank.len() as u64
    }

    /// A table with progress ranks (one per index).
    pub fn with_rank(indexer: Indexer, values: Values, meta: Meta, rank: Vec<u16>) -> Table {
        debug_assert_eq!(rank.len() as u64, indexer.size());
        Table { rank, ..Table::new(indexer, values, meta) }
    }

    /// The progress rank at an index (0 without ranks).
    ///
    /// # Panics
    /// If the table's ranks were left in its file (a table read for a solve
    /// is read again whole before anyone asks for its ranks).
    #[inline]
    pub fn rank_at(&self, i: u64) -> u16 {
        assert!(!self.ranks_left, "the progress ranks of sector {} were not read", self.sector().key());
        self.rank.get(i as usize).copied().unwrap_or(0)
    }

    pub fn sector(&self) -> Sector {
        self.indexer.sector()
    }

    /// The position at index `i`, if one is there (the member of its class
    /// the indexing uses, and a valid state): exactly where a value is
    /// stored. Read through `cursor` in ascending order of `i`.
    #[inline]
    pub fn position_at(&self, rules: &Rules, cursor: &mut Cursor, i: u64) -> Option<State> {
        self.indexer.canonical_state_at_cursor(cursor, i).filter(|st| rules.valid(st))
    }

    /// Every index whose mark disagrees with the positions, with the
    /// position there if there is one: a value where no position is, or
    /// none where one is (a file damaged though its checksum holds).
    pub fn misplaced<'a>(&'a self, rules: &'a Rules) -> impl ParallelIterator<Item = (u64, Option<State>)> + 'a {
        let size = self.indexer.size();
        (0..size.div_ceil(VISIT_BATCH as u64)).into_par_iter().flat_map_iter(move |b| {
            let mut cursor = Cursor::default();
            let end = ((b + 1) * VISIT_BATCH as u64).min(size);
            (b * VISIT_BATCH as u64..end).filter_map(move |i| {
                let st = self.position_at(rules, &mut cursor, i);
                (self.at(i).is_some() != st.is_some()).then_some((i, st))
            })
        })
    }

    /// The first index of [`Table::misplaced`]; `None` when every mark is
    /// right.
    pub fn misplaced_mark(&self, rules: &Rules) -> Option<u64> {
        self.misplaced(rules).map(|m| m.0).min()
    }

    /// The value at an index, `None` where the index is unused.
    #[inline]
    pub fn at(&self, i: u64) -> Option<Eval> {
        let i = i as usize;
        match &self.values {
            Values::Dtm(v) => (v[i] != UNUSED).then(|| Eval::Dtm(unpack(v[i]))),
            Values::Exact(v) => v.get(i).map(Eval::Exact),
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
            Values::Exact(v) => v.prefetch(i),
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
                    match val {
                        Value::Win(w) => c.longest_win = c.longest_win.max(w),
                        Value::Loss(l) => c.longest_loss = c.longest_loss.max(l),
                        Value::Draw => {}
                    }
                }
            }
            Values::Exact(v) => {
                for n in (0..v.len()).filter_map(|i| v.get(i)) {
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

/// Exact values of one placement sector (Murray's and Bell's readings).
///
/// Every value is a numerator over the game's common denominator
/// 72^(2 × men) ([`super::value::exact_denominator`]). A position whose sides
/// hold `h` men in hand in all has at most `h` throws ahead (a throw comes
/// before each placement, and each placement takes at least one man from a
/// hand), so its numerator is a multiple of `unit` = 72^(2 × men − h) and
/// the quotient lies within ±72^h. The quotients are kept in the narrowest
/// integer that holds them, its least value marking an unused index: one
/// byte per index for `h` ≤ 1, two for 2, four up to 5, eight up to 10,
/// sixteen beyond. The largest placement sectors have the most men on the
/// board and so the fewest in hand.
#[derive(Clone, Debug, PartialEq)]
pub struct Exact {
    unit: i128,
    words: Words,
}

/// The quotients of an [`Exact`] table, in one width.
#[derive(Clone, Debug, PartialEq)]
enum Words {
    W8(Vec<i8>),
    W16(Vec<i16>),
    W32(Vec<i32>),
    W64(Vec<i64>),
    W128(Vec<i128>),
}

/// Applies `$e` to the vector inside a [`Words`], whatever its width.
macro_rules! each_width {
    ($words:expr, $v:ident => $e:expr) => {
        match $words {
            Words::W8($v) => $e,
            Words::W16($v) => $e,
            Words::W32($v) => $e,
            Words::W64($v) => $e,
            Words::W128($v) => $e,
        }
    };
}

/// An integer word of [`Exact`] values: its least value marks an unused
/// index.
trait Word: Copy {
    fn wide(self) -> Option<i128>;
    /// This word with byte `k` (little endian) or-ed in.
    fn with_byte(self, k: usize, byte: u8) -> Self;
}

macro_rules! word {
    ($($t:ty => $u:ty),*) => {$(
        impl Word for $t {
            #[inline]
            fn wide(self) -> Option<i128> {
                (self != <$t>::MIN).then_some(self as i128)
            }
            #[inline]
            fn with_byte(self, k: usize, byte: u8) -> Self {
                ((self as $u) | (<$u>::from(byte) << (8 * k))) as $t
            }
        }
    )*};
}
word!(i8 => u8, i16 => u16, i32 => u32, i64 => u64, i128 => u128);

impl Exact {
    /// The unit every numerator of a sector is a multiple of, in a game of
    /// `men` men a side: 72^(2 × men − h), `h` its men in hand.
    pub fn unit(men: u8, sector: Sector) -> i128 {
        let hand = u32::from(sector.wf + sector.bf);
        72i128.pow(super::value::exact_denominator_exponent(men).saturating_sub(hand))
    }

    /// Bytes per index of a sector's exact values.
    pub fn width_for(sector: Sector) -> usize {
        match sector.wf + sector.bf {
            0..=1 => 1,
            2 => 2,
            3..=5 => 4,
            6..=10 => 8,
            _ => 16,
        }
    }

    /// The values of a sector of a game of `men` men a side: `value(i)` is
    /// the numerator at index `i` (over 72^(2 × men)), `None` where unused.
    /// Computed in parallel straight into the narrow words.
    ///
    /// # Panics
    /// If a numerator is not a multiple of the sector's unit or lies beyond
    /// ±1: the values are not exact values of this sector.
    pub fn from_fn(men: u8, sector: Sector, n: usize, value: impl Fn(usize) -> Option<i128> + Sync + Send) -> Exact {
        Exact::build(men, sector, ByIndex { n, value })
    }

    /// The values of the positions of `ix`'s sector (see [`Exact::from_fn`]),
    /// computed in the order of [`Indexer::for_each_by_other_men`] by
    /// `values`, up to [`VISIT_BATCH`] positions at a time (`out[k]` for
    /// `states[k]`).
    pub fn from_states(men: u8, ix: &Indexer, value: impl Fn(&[State], &mut [Option<i128>]) + Sync) -> Exact {
        Exact::build(men, ix.sector(), ByState { ix, value })
    }

    fn build(men: u8, sector: Sector, cells: impl Cells) -> Exact {
        let hand = u32::from(sector.wf + sector.bf);
        let unit = Exact::unit(men, sector);
        let bound = 72i128.pow(hand);
        let quotient = |num: i128| -> i128 {
            let q = num / unit;
            assert!(q * unit == num && q.abs() <= bound, "{num} is no exact value of {sector:?}");
            q
        };
        macro_rules! narrow {
            ($t:ty, $variant:ident) => {
                Words::$variant(cells.cells(<$t>::MIN, |num| quotient(num) as $t))
            };
        }
        let words = match Exact::width_for(sector) {
            1 => narrow!(i8, W8),
            2 => narrow!(i16, W16),
            4 => narrow!(i32, W32),
            8 => narrow!(i64, W64),
            _ => narrow!(i128, W128),
        };
        Exact { unit, words }
    }

    /// Indices held.
    pub fn len(&self) -> usize {
        each_width!(&self.words, v => v.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes per index.
    pub fn width(&self) -> usize {
        fn width_of<T>(_: &[T]) -> usize {
            std::mem::size_of::<T>()
        }
        each_width!(&self.words, v => width_of(v))
    }

    /// The numerator at an index (over the common denominator), `None`
    /// where the index is unused.
    #[inline]
    pub fn get(&self, i: usize) -> Option<i128> {
        let q = each_width!(&self.words, v => v[i].wide());
        q.map(|q| q * self.unit)
    }

    /// Asks for the word at an index to be brought into the cache.
    #[inline]
    pub fn prefetch(&self, i: usize) {
        each_width!(&self.words, v => prefetch(&v[i]))
    }

    /// The words' little-endian bytes, as byte planes (every index's lowest
    /// byte, then the next, …).
    pub(crate) fn planes(&self) -> Vec<u8> {
        let (n, w) = (self.len(), self.width());
        let mut planes = vec![0u8; n * w];
        each_width!(&self.words, v => put_planes(&mut planes, 0, v.iter().map(|x| x.to_le_bytes())));
        planes
    }

    /// The values of a sector from the byte planes [`Exact::planes`] makes,
    /// given as they come (`fill` hands each run of a plane's bytes, from
    /// an index on, to the function it is given; `None` from it stops),
    /// straight into the words; `None` where a value is beyond the
    /// sector's bound. The twin of [`Exact::from_planes`] for payloads
    /// decompressed as they are read.
    pub(crate) fn from_plane_runs(
        men: u8,
        sector: Sector,
        n: usize,
        fill: impl FnOnce(&mut dyn FnMut(usize, usize, &[u8])) -> Option<()>,
    ) -> Option<Exact> {
        let hand = u32::from(sector.wf + sector.bf);
        let unit = Exact::unit(men, sector);
        let mut words = match Exact::width_for(sector) {
            1 => Words::W8(huge_vec(std::iter::repeat_n(0, n))),
            2 => Words::W16(huge_vec(std::iter::repeat_n(0, n))),
            4 => Words::W32(huge_vec(std::iter::repeat_n(0, n))),
            8 => Words::W64(huge_vec(std::iter::repeat_n(0, n))),
            _ => Words::W128(huge_vec(std::iter::repeat_n(0, n))),
        };
        fn put<T: Word>(v: &mut [T], plane: usize, first: usize, bytes: &[u8]) {
            for (x, &b) in v[first..].iter_mut().zip(bytes) {
                *x = x.with_byte(plane, b);
            }
        }
        each_width!(&mut words, v => fill(&mut |plane, first, bytes| put(v, plane, first, bytes)))?;
        fn within<T: Word>(v: &[T], bound: i128) -> bool {
            v.iter().all(|x| x.wide().is_none_or(|q| q.abs() <= bound))
        }
        each_width!(&words, v => within(v, 72i128.pow(hand))).then_some(Exact { unit, words })
    }

    /// The values of a sector from byte planes made by [`Exact::planes`];
    /// `None` if their length does not fit.
    pub(crate) fn from_planes(men: u8, sector: Sector, n: usize, planes: &[u8]) -> Option<Exact> {
        let w = Exact::width_for(sector);
        if planes.len() != n * w {
            return None;
        }
        let hand = u32::from(sector.wf + sector.bf);
        let unit = Exact::unit(men, sector);
        macro_rules! read {
            ($t:ty, $variant:ident) => {
                Words::$variant(huge_vec((0..n).map(|i| <$t>::from_le_bytes(word_from_planes(planes, n, 0, i)))))
            };
        }
        let words = match w {
            1 => read!(i8, W8),
            2 => read!(i16, W16),
            4 => read!(i32, W32),
            8 => read!(i64, W64),
            _ => read!(i128, W128),
        };
        // A quotient beyond ±72^h is no value of this sector.
        fn within<T: Word>(v: &[T], bound: i128) -> bool {
            v.iter().all(|x| x.wide().is_none_or(|q| q.abs() <= bound))
        }
        each_width!(&words, v => within(v, 72i128.pow(hand))).then_some(Exact { unit, words })
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Numerators a sector of nine men's morris can hold: multiples of its
    /// unit within ±1, or unused.
    fn numerators(hand: u8) -> impl Strategy<Value = Vec<Option<i128>>> {
        let bound = 72i128.pow(u32::from(hand));
        let unit = 72i128.pow(18 - u32::from(hand));
        prop::collection::vec(
            prop_oneof![
                Just(None),
                Just(Some(bound * unit)),
                Just(Some(-bound * unit)),
                (-bound..=bound).prop_map(move |q| Some(q * unit)),
            ],
            0..200,
        )
    }

    proptest! {
        /// The narrow words give back every numerator, and so do their byte
        /// planes, in every width (0 to 18 men in hand).
        #[test]
        fn narrow_exact_values_are_the_numerators((hand, v) in (0u8..=18).prop_flat_map(|h| (Just(h), numerators(h)))) {
            let sector = Sector { w: 0, wf: hand / 2, b: 0, bf: hand - hand / 2 };
            let e = Exact::from_fn(9, sector, v.len(), |i| v[i]);
            prop_assert_eq!(e.len(), v.len());
            prop_assert_eq!(e.width(), Exact::width_for(sector));
            for (i, x) in v.iter().enumerate() {
                prop_assert_eq!(e.get(i), *x);
            }
            let back = Exact::from_planes(9, sector, v.len(), &e.planes());
            prop_assert_eq!(back.as_ref(), Some(&e));
        }
    }

    #[test]
    fn each_width_holds_its_bound_and_no_more() {
        let max = |bits: u32| if bits == 128 { i128::MAX } else { (1i128 << (bits - 1)) - 1 };
        for hand in 0u8..=18 {
            let bound = 72i128.pow(u32::from(hand));
            let bits = 8 * Exact::width_for(Sector { w: 0, wf: hand, b: 0, bf: 0 }) as u32;
            // ±72^h fit beside the unused mark (the least value) ...
            assert!(bound <= max(bits), "{hand} men in hand");
            // ... and the next narrower word would not hold them.
            if bits > 8 {
                assert!(bound > max(bits / 2), "{hand} men in hand: a narrower word holds them");
            }
        }
    }

    #[test]
    fn planes_of_another_length_or_beyond_the_bound_are_refused() {
        let sector = Sector { w: 3, wf: 1, b: 3, bf: 0 };
        let e = Exact::from_fn(9, sector, 3, |i| Some(72i128.pow(17) * [1, 0, -1][i]));
        let planes = e.planes();
        assert!(Exact::from_planes(9, sector, 4, &planes).is_none());
        let mut big = planes.clone();
        big[1] = 73; // the middle quotient becomes 73 > 72^1
        assert!(Exact::from_planes(9, sector, 3, &big).is_none());
        assert!(Exact::from_planes(9, sector, 3, &planes).is_some());
    }
}
