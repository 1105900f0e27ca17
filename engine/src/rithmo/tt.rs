//! The transposition table: one entry per slot, replaced when the new
//! result is deeper or the old one comes from an earlier search.

use super::moves::{Move, MoveKind};
use super::square::Square;

/// What a stored score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score (a PV node).
    Exact,
    /// At least this (a beta cutoff).
    Lower,
    /// At most this (no move reached alpha).
    Upper,
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    /// Move (16 bits), score (32), depth (8), bound (2: 1 exact, 2 lower,
    /// 3 upper; 0 an empty slot), generation (6).
    data: u64,
}

/// A probe's result.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    pub mv: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

/// The system would not give the memory a table of this size needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableTooLarge {
    pub mib: usize,
}

impl std::fmt::Display for TableTooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot allocate a {} MiB transposition table: not enough memory (choose a smaller --hash)", self.mib)
    }
}

impl std::error::Error for TableTooLarge {}

pub struct Tt {
    slots: Vec<Entry>,
    generation: u8,
}

fn pack_move(m: Option<Move>) -> u64 {
    match m {
        None => 0,
        Some(m) => {
            let kind = match m.kind {
                MoveKind::Plain => 1,
                MoveKind::Capture => 2,
                MoveKind::Strike => 3,
            };
            (m.from.0 as u64) | (m.to.0 as u64) << 7 | kind << 14
        }
    }
}

fn unpack_move(x: u64) -> Option<Move> {
    let kind = match x >> 14 & 3 {
        1 => MoveKind::Plain,
        2 => MoveKind::Capture,
        3 => MoveKind::Strike,
        _ => return None,
    };
    Some(Move::new(Square((x & 127) as u8), Square((x >> 7 & 127) as u8), kind))
}

impl Tt {
    /// A table of about `mib` mebibytes, or an error if the system will not
    /// give that much. The zeroed memory is requested at once, which the
    /// system grants without touching it: a large table costs no time until
    /// it is used.
    pub fn try_new(mib: usize) -> Result<Tt, TableTooLarge> {
        let too_large = TableTooLarge { mib };
        let n = mib.checked_mul(1024 * 1024).ok_or(too_large)? / std::mem::size_of::<Entry>();
        let n = n.max(1);
        let layout = std::alloc::Layout::array::<Entry>(n).map_err(|_| too_large)?;
        // SAFETY: the layout has a nonzero size; an all-zero `Entry` (two
        // integers) is the valid empty slot; the vector takes the block
        // with the layout it was allocated with.
        let slots = unsafe {
            let ptr = std::alloc::alloc_zeroed(layout) as *mut Entry;
            if ptr.is_null() {
                return Err(too_large);
            }
            Vec::from_raw_parts(ptr, n, n)
        };
        Ok(Tt { slots, generation: 0 })
    }

    /// Marks a new search: older entries give way.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    pub fn clear(&mut self) {
        self.slots.fill(Entry::default());
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        ((key as u128 * self.slots.len() as u128) >> 64) as usize
    }

    pub fn probe(&self, key: u64) -> Option<Hit> {
        let e = self.slots[self.slot(key)];
        let d = e.data;
        let bound = match d >> 56 & 3 {
            _ if e.key != key => return None,
            0 => return None,
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Hit {
            mv: unpack_move(d & 0xffff),
            score: (d >> 16) as u32 as i32,
            depth: (d >> 48 & 0xff) as i8 as i32,
            bound,
        })
    }

    pub fn store(&mut self, key: u64, mv: Option<Move>, score: i32, depth: i32, bound: Bound) {
        let i = self.slot(key);
        let old = self.slots[i];
        let old_depth = (old.data >> 48 & 0xff) as i8 as i32;
        let old_gen = (old.data >> 58) as u8;
        // Depth-preferred: a deeper result of this search stays.
        if old.data != 0 && old.key != key && old_gen == self.generation && old_depth > depth {
            return;
        }
        // Keep a known move when the new result has none.
        let mv = if mv.is_none() && old.key == key { unpack_move(old.data & 0xffff) } else { mv };
        let b: u64 = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let data = pack_move(mv)
            | (score as u32 as u64) << 16
            | ((depth.clamp(-128, 127) as i8 as u8) as u64) << 48
            | b << 56
            | (self.generation as u64) << 58;
        self.slots[i] = Entry { key, data };
    }
}
