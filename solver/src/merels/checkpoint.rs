//! Checkpoints of a solve in progress. Retrograde: a group's cells at a level
//! boundary, so that a solve that was stopped (a killed job, a machine
//! handed on) resumes there instead of from the start. What the cells hold
//! at a level boundary does not depend on the order the work was done in,
//! so a resumed solve writes the same bytes as one that was never stopped.
//!
//! # File format (little endian), `<group key>.resume` beside the sector files
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `LUDUSRS` followed by a zero byte |
//! | 8 | 2 | format version (1) |
//! | 10 | 6 | rules, as in sector files |
//! | 16 | 8 | the next level to propagate |
//! | 24 | 8 | the deepest packed value met so far |
//! | 32 | 1 | number of sectors `n` |
//! | 33 | 7 | zero |
//! | 40 | 12 `n` | each sector: its four men counts, then its number of indices (8 bytes) |
//! | … | 2 per index | the cells, sector after sector |
//! | end − 4 | 4 | CRC-32 of every byte before it |
//!
//! # Under chance (`LUDUSCS`, the same file name)
//!
//! A solve by strategy iteration is saved between mill levels and at the
//! top of the reply's rounds in a level's iteration (under the first discount,
//! and in a later discount's search): the state
//! the solver serialises (the level, the finished levels' codes and ranks,
//! the effort so far) and, inside a level, each node's in-group successor
//! and choice bits. The round after a save is made whole, which finds the
//! same values and switches as a partial one, so a solve resumed from the
//! strategies alone writes the same bytes as one never stopped.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `LUDUSCS` followed by a zero byte |
//! | 8 | 2 | format version (1) |
//! | 10 | 6 | rules, as in sector files |
//! | 16 | 1 | number of sectors `n` |
//! | 17 | 7 | zero |
//! | 24 | 12 `n` | each sector: its four men counts, then its number of indices (8 bytes) |
//! | … | 8 + `s` | the solver's state: its length `s`, then its bytes |
//! | … | 8 | number of nodes `m` (0 between levels) |
//! | … | 4 `m` | each node's in-group successor |
//! | … | `m` | each node's choice bits |
//! | end − 4 | 4 | CRC-32 of every byte before it |

use std::fs::{self, File};
use std::io::{BufReader, Read, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU16, AtomicUsize, Ordering::Relaxed};
use std::time::Duration;

use engine::file::WriteError;

use super::index::Indexer;
use super::table::huge_with_capacity;
use super::value::Packed;

const MAGIC: &[u8; 8] = b"LUDUSRS\0";
/// The magic of a checkpoint of a solve under chance.
const CHANCE_MAGIC: &[u8; 8] = b"LUDUSCS\0";
const VERSION: u16 = 1;
/// Cells converted at a time when reading or writing.
const BLOCK: usize = 1 << 16;

/// Where and how often a solve saves its progress.
#[derive(Clone, Debug)]
pub struct Checkpoint {
    pub path: PathBuf,
    /// The rules' bytes of the sector file header.
    pub rules: [u8; 6],
    /// Time between two checkpoints (taken at level boundaries; under
    /// chance also inside a mill level, and at least 20 times as long as
    /// the last save took).
    pub every: Duration,
    /// For tests of resuming: save and stop at the boundary before this
    /// level (retrograde), or at the solve's `stop_at`-th chance to save,
    /// counted from 1 (under chance).
    pub stop_at: Option<u64>,
    /// A request to stop (a signal, say): the solve saves at its next
    /// chance and stops there.
    pub interrupt: Option<Interrupt>,
}

/// A request, from outside a solve, that it save its progress at its next
/// chance and stop: a shared word, zero until asked, then why (a signal's
/// number, or any non-zero code), set from a signal handler or a thread.
#[derive(Clone, Debug, Default)]
pub struct Interrupt(Arc<AtomicUsize>);

impl Interrupt {
    /// Asks the solves that share this request to stop; `why` is not zero.
    pub fn request(&self, why: usize) {
        assert_ne!(why, 0, "an interrupt's reason is not zero");
        self.0.store(why, Relaxed);
    }

    /// Why the solve was asked to stop, if it was.
    pub fn requested(&self) -> Option<usize> {
        Some(self.0.load(Relaxed)).filter(|&w| w != 0)
    }

    /// The shared word, for a signal handler to set.
    pub fn word(&self) -> Arc<AtomicUsize> {
        self.0.clone()
    }
}

/// A solve's state read back from a checkpoint.
pub struct Saved {
    pub level: u64,
    pub top: u64,
    pub cells: Vec<Vec<AtomicU16>>,
}

/// What a checkpoint says of the progress it saved, from its first bytes
/// alone (its checksum not checked: for reports, not for resuming).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Glimpse {
    /// A retrograde group saved before propagating `level`.
    Retrograde { level: u64 },
    /// A group under chance: the first `head` bytes of its solver's state
    /// (fewer where the state is shorter), and whether it was saved inside
    /// a mill level (with its nodes' strategies).
    Chance { head: Vec<u8>, inside: bool },
}

/// What makes a checkpoint unusable.
#[derive(Debug, PartialEq, Eq)]
pub enum Unusable {
    NotACheckpoint,
    Version(u16),
    /// It belongs to other rules or another group.
    OtherGroup,
    Truncated,
    Checksum,
}

impl std::fmt::Display for Unusable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unusable::NotACheckpoint => write!(f, "not a checkpoint file"),
            Unusable::Version(v) => write!(f, "checkpoint format version {v}, this build reads {VERSION}"),
            Unusable::OtherGroup => write!(f, "the checkpoint is of other rules or another group"),
            Unusable::Truncated => write!(f, "the checkpoint is cut short"),
            Unusable::Checksum => write!(f, "checksum mismatch: the checkpoint is damaged"),
        }
    }
}

impl Checkpoint {
    /// The checkpoint of the group whose first sector is `key`, in database
    /// directory `dir` (`<key>.resume` beside the sector files): saved only
    /// when asked (`every` at its largest), never stopped.
    pub fn of_group(dir: &std::path::Path, rules: &engine::merels::Rules, key: &str) -> Checkpoint {
        Checkpoint {
            path: dir.join(format!("{key}.resume")),
            rules: super::db::rules_bytes(rules),
            every: Duration::MAX,
            stop_at: None,
            interrupt: None,
        }
    }

    /// Whether the solve has been asked to stop at its next chance to save.
    pub fn interrupted(&self) -> bool {
        self.interrupt.as_ref().is_some_and(|i| i.requested().is_some())
    }

    /// The header: everything before the cells.
    fn header(&self, ix: &[Indexer], level: u64, top: u64) -> Vec<u8> {
        self.group_header(MAGIC, &[level, top], ix)
    }

    /// Magic, format version, rules, the words `words`, then the group's
    /// sectors (their count, 7 zero bytes, each one's men counts and size).
    fn group_header(&self, magic: &[u8; 8], words: &[u64], ix: &[Indexer]) -> Vec<u8> {
        let mut h = Vec::with_capacity(24 + 8 * words.len() + 12 * ix.len());
        h.extend_from_slice(magic);
        h.extend_from_slice(&VERSION.to_le_bytes());
        h.extend_from_slice(&self.rules);
        for w in words {
            h.extend_from_slice(&w.to_le_bytes());
        }
        h.push(ix.len() as u8);
        h.extend_from_slice(&[0; 7]);
        for x in ix {
            let s = x.sector();
            h.extend_from_slice(&[s.w, s.wf, s.b, s.bf]);
            h.extend_from_slice(&x.size().to_le_bytes());
        }
        h
    }

    /// Writes the cells atomically (a file with the final name is whole).
    pub fn save(&self, ix: &[Indexer], level: u64, top: u64, cells: &[Vec<AtomicU16>]) -> Result<(), WriteError> {
        self.remove_stale();
        let header = self.header(ix, level, top);
        engine::file::write_atomic_with(&self.path, |w| {
            let mut crc = crc32fast::Hasher::new();
            crc.update(&header);
            w.write_all(&header)?;
            let mut buf = Vec::with_capacity(2 * BLOCK);
            for block in cells.iter().flat_map(|c| c.chunks(BLOCK)) {
                buf.clear();
                buf.extend(block.iter().flat_map(|c| c.load(Relaxed).to_le_bytes()));
                crc.update(&buf);
                w.write_all(&buf)?;
            }
            w.write_all(&crc.finalize().to_le_bytes())
        })
    }

    /// Reads the checkpoint of this group: `Ok(None)` when there is none.
    pub fn load(&self, ix: &[Indexer]) -> Result<Option<Saved>, Unusable> {
        let file = match File::open(&self.path) {
            Ok(f) => f,
            Err(_) => return Ok(None),
        };
        let cells: u64 = ix.iter().map(|x| x.size()).sum();
        let expected_len = 40 + 12 * ix.len() as u64 + 2 * cells + 4;
        let len = file.metadata().map(|m| m.len()).unwrap_or(0);
        let mut r = BufReader::with_capacity(1 << 20, file);
        let mut head = [0u8; 40];
        if len < 40 || r.read_exact(&mut head).is_err() || &head[..8] != MAGIC {
            return Err(Unusable::NotACheckpoint);
        }
        let version = u16::from_le_bytes([head[8], head[9]]);
        if version != VERSION {
            return Err(Unusable::Version(version));
        }
        let u64_at = |o: usize| u64::from_le_bytes(head[o..o + 8].try_into().expect("8 bytes"));
        let (level, top) = (u64_at(16), u64_at(24));
        let mut sectors = vec![0u8; 12 * ix.len()];
        if r.read_exact(&mut sectors).is_err() {
            return Err(Unusable::Truncated);
        }
        let mut header = head.to_vec();
        header.extend_from_slice(&sectors);
        if header != self.header(ix, level, top) {
            return Err(Unusable::OtherGroup);
        }
        if len != expected_len {
            return Err(Unusable::Truncated);
        }
        let mut crc = crc32fast::Hasher::new();
        crc.update(&header);
        let mut buf = vec![0u8; 2 * BLOCK];
        let mut out = Vec::with_capacity(ix.len());
        for x in ix {
            let mut v: Vec<AtomicU16> = huge_with_capacity(x.size() as usize);
            let mut left = x.size() as usize;
            while left > 0 {
                let n = left.min(BLOCK);
                r.read_exact(&mut buf[..2 * n]).map_err(|_| Unusable::Truncated)?;
                crc.update(&buf[..2 * n]);
                v.extend(buf[..2 * n].chunks_exact(2).map(|b| AtomicU16::new(Packed::from_le_bytes([b[0], b[1]]))));
                left -= n;
            }
            out.push(v);
        }
        let mut tail = [0u8; 4];
        r.read_exact(&mut tail).map_err(|_| Unusable::Truncated)?;
        if u32::from_le_bytes(tail) != crc.finalize() {
            return Err(Unusable::Checksum);
        }
        Ok(Some(Saved { level, top, cells: out }))
    }

    /// Removes the checkpoint (once the group's files are written), and
    /// what a save cut short left.
    pub fn remove(&self) {
        let _ = fs::remove_file(&self.path);
        self.remove_stale();
    }

    /// What the checkpoint of the group of `ix` saved, if there is one of
    /// this group: the first `head` bytes of a state under chance.
    pub fn glimpse(&self, ix: &[Indexer], head: usize) -> Option<Glimpse> {
        let mut r = BufReader::new(File::open(&self.path).ok()?);
        let mut magic = [0u8; 8];
        r.read_exact(&mut magic).ok()?;
        let mut rest = |n: usize| {
            let mut b = vec![0u8; n];
            r.read_exact(&mut b).ok().map(|()| b)
        };
        if &magic == MAGIC {
            let expected = self.header(ix, 0, 0);
            let b = rest(expected.len() - 8)?;
            let same = b[..8] == expected[8..16] && b[24..] == expected[32..];
            return same.then(|| Glimpse::Retrograde { level: u64::from_le_bytes(b[8..16].try_into().expect("8")) });
        }
        if &magic != CHANCE_MAGIC {
            return None;
        }
        let expected = self.chance_header(ix);
        let b = rest(expected.len() - 8 + 8)?;
        if b[..expected.len() - 8] != expected[8..] {
            return None;
        }
        let len = u64::from_le_bytes(b[expected.len() - 8..].try_into().expect("8"));
        let state = rest(usize::try_from(len).ok()?.min(head))?;
        let inside = std::fs::metadata(&self.path).ok()?.len() > expected.len() as u64 + 20 + len;
        Some(Glimpse::Chance { head: state, inside })
    }

    /// Removes the temporary files of saves that were cut short (a killed
    /// solve: only one solve holds a group, by its lock, and a save of this
    /// process is not under way when this is called). They are as large as
    /// the checkpoint.
    fn remove_stale(&self) {
        let (Some(dir), Some(name)) = (self.path.parent(), self.path.file_name()) else { return };
        let prefix = format!(".{}.", name.to_string_lossy());
        let Ok(entries) = fs::read_dir(if dir.as_os_str().is_empty() { std::path::Path::new(".") } else { dir }) else {
            return;
        };
        for e in entries.flatten() {
            let f = e.file_name().to_string_lossy().into_owned();
            if f.starts_with(&prefix) && f.ends_with(".tmp") {
                let _ = fs::remove_file(e.path());
            }
        }
    }

    /// The header of a checkpoint of a solve under chance.
    fn chance_header(&self, ix: &[Indexer]) -> Vec<u8> {
        self.group_header(CHANCE_MAGIC, &[], ix)
    }

    /// Writes a solve under chance's state atomically: `state` as its
    /// solver serialises it (the parts one after the other), and where it
    /// was saved inside a mill level, each node's in-group successor and
    /// choice bits.
    pub fn save_chance(
        &self,
        ix: &[Indexer],
        state: &[Part<'_>],
        nodes: Option<(&[u32], &[u8])>,
    ) -> Result<(), WriteError> {
        self.remove_stale();
        let header = self.chance_header(ix);
        engine::file::write_atomic_with(&self.path, |w| {
            let mut crc = crc32fast::Hasher::new();
            let mut buf = Vec::with_capacity(8 * BLOCK);
            let mut put = |w: &mut dyn Write, part: &Part| {
                let mut block = |bytes: &[u8]| {
                    crc.update(bytes);
                    w.write_all(bytes)
                };
                // Little endian, a block at a time.
                macro_rules! words {
                    ($xs:expr) => {
                        for chunk in $xs.chunks(BLOCK) {
                            buf.clear();
                            buf.extend(chunk.iter().flat_map(|x| x.to_le_bytes()));
                            block(&buf)?;
                        }
                    };
                }
                match part {
                    Part::Bytes(b) => block(b)?,
                    Part::U16(xs) => words!(xs),
                    Part::U32(xs) => words!(xs),
                    Part::U64(xs) => words!(xs),
                }
                Ok::<(), std::io::Error>(())
            };
            put(w, &Part::Bytes(&header))?;
            let state_len: u64 = state.iter().map(Part::bytes).sum();
            put(w, &Part::U64(&[state_len]))?;
            for part in state {
                put(w, part)?;
            }
            let (next, mode) = nodes.unwrap_or((&[], &[]));
            debug_assert_eq!(next.len(), mode.len());
            put(w, &Part::U64(&[next.len() as u64]))?;
            put(w, &Part::U32(next))?;
            put(w, &Part::Bytes(mode))?;
            w.write_all(&crc.finalize().to_le_bytes())
        })
    }

    /// Reads the checkpoint of this group's solve under chance, its whole
    /// file checked: `Ok(None)` when there is none. The nodes' arrays stay
    /// in the file until [`Checkpoint::read_nodes`] reads them into place.
    pub fn load_chance(&self, ix: &[Indexer]) -> Result<Option<ChanceSaved>, Unusable> {
        let file = match File::open(&self.path) {
            Ok(f) => f,
            Err(_) => return Ok(None),
        };
        let len = file.metadata().map(|m| m.len()).unwrap_or(0);
        let mut r = BufReader::with_capacity(1 << 20, file);
        let expected = self.chance_header(ix);
        let mut head = vec![0u8; expected.len()];
        if r.read_exact(&mut head).is_err() || &head[..8] != CHANCE_MAGIC {
            return Err(Unusable::NotACheckpoint);
        }
        let version = u16::from_le_bytes([head[8], head[9]]);
        if version != VERSION {
            return Err(Unusable::Version(version));
        }
        if head != expected {
            return Err(Unusable::OtherGroup);
        }
        let mut crc = crc32fast::Hasher::new();
        crc.update(&head);
        let mut word = [0u8; 8];
        let mut read_u64 = |r: &mut BufReader<File>, crc: &mut crc32fast::Hasher| {
            r.read_exact(&mut word).map_err(|_| Unusable::Truncated)?;
            crc.update(&word);
            Ok(u64::from_le_bytes(word))
        };
        let state_len = read_u64(&mut r, &mut crc)?;
        if state_len > len.saturating_sub(expected.len() as u64 + 20) {
            return Err(Unusable::Truncated);
        }
        let mut state = vec![0u8; state_len as usize];
        r.read_exact(&mut state).map_err(|_| Unusable::Truncated)?;
        crc.update(&state);
        let nodes = read_u64(&mut r, &mut crc)?;
        let nodes_at = expected.len() as u64 + 16 + state_len;
        if nodes.checked_mul(5).and_then(|b| b.checked_add(nodes_at + 4)) != Some(len) {
            return Err(Unusable::Truncated);
        }
        // The nodes' arrays only for the checksum here.
        let mut buf = vec![0u8; 4 * BLOCK];
        let mut left = 5 * nodes;
        while left > 0 {
            let k = left.min(buf.len() as u64) as usize;
            r.read_exact(&mut buf[..k]).map_err(|_| Unusable::Truncated)?;
            crc.update(&buf[..k]);
            left -= k as u64;
        }
        let mut tail = [0u8; 4];
        r.read_exact(&mut tail).map_err(|_| Unusable::Truncated)?;
        if u32::from_le_bytes(tail) != crc.finalize() {
            return Err(Unusable::Checksum);
        }
        Ok(Some(ChanceSaved { state, nodes, nodes_at }))
    }

    /// Reads the nodes' successors and choice bits of a checkpoint that
    /// [`Checkpoint::load_chance`] found whole into `next` and `mode`, which
    /// must have its number of nodes.
    pub fn read_nodes(&self, saved: &ChanceSaved, next: &mut [u32], mode: &mut [u8]) -> Result<(), Unusable> {
        if next.len() as u64 != saved.nodes || mode.len() as u64 != saved.nodes {
            return Err(Unusable::OtherGroup);
        }
        let mut file = File::open(&self.path).map_err(|_| Unusable::Truncated)?;
        file.seek(SeekFrom::Start(saved.nodes_at)).map_err(|_| Unusable::Truncated)?;
        let mut r = BufReader::with_capacity(1 << 20, file);
        let mut buf = vec![0u8; 4 * BLOCK];
        for block in next.chunks_mut(BLOCK) {
            let bytes = &mut buf[..4 * block.len()];
            r.read_exact(bytes).map_err(|_| Unusable::Truncated)?;
            for (x, b) in block.iter_mut().zip(bytes.chunks_exact(4)) {
                *x = u32::from_le_bytes(b.try_into().expect("4 bytes"));
            }
        }
        r.read_exact(mode).map_err(|_| Unusable::Truncated)
    }
}

/// A piece of a solve under chance's state as a checkpoint writes it
/// (little endian), without a copy of the arrays.
pub enum Part<'a> {
    Bytes(&'a [u8]),
    U16(&'a [u16]),
    U32(&'a [u32]),
    U64(&'a [u64]),
}

impl Part<'_> {
    /// Its bytes in the file.
    pub fn bytes(&self) -> u64 {
        (match self {
            Part::Bytes(b) => b.len(),
            Part::U16(x) => 2 * x.len(),
            Part::U32(x) => 4 * x.len(),
            Part::U64(x) => 8 * x.len(),
        }) as u64
    }
}

/// A solve under chance's state read back from a checkpoint: what its
/// solver serialised, and how many nodes' arrays follow in the file (0
/// where it was saved between mill levels).
pub struct ChanceSaved {
    pub state: Vec<u8>,
    pub nodes: u64,
    nodes_at: u64,
}
