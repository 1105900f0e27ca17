//! Sector databases on disk: one file per sector, written atomically, each
//! checked in full before it is trusted.
//!
//! # File format (little endian)
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `LUDUSDB` followed by a zero byte |
//! | 8 | 2 | format version (2) |
//! | 10 | 2 | header length: 128 |
//! | 12 | 1 | board: 0 rota, 1 three, 2 six, 3 nine |
//! | 13 | 1 | flags: 1 diagonals, 2 flying, 4 no-take-from-mills, 8 double-mill-one |
//! | 14 | 1 | dice reading: 0 none, 1 schaedler, 2 murray, 3 bell |
//! | 15 | 1 | placement mills: 0 count, 1 forbidden |
//! | 16 | 1 | blocked: 0 lose, 1 pass, 2 draw |
//! | 17 | 1 | special throw probability, in 72nds |
//! | 18 | 4 | sector: men on board and in hand of the side to move, then of the other side |
//! | 22 | 1 | value kind: 1 plies in one byte, 2 plies in two bytes (both read only), 8 plies in one byte (compressed), 9 plies in two bytes (compressed), 3 exact numerator (16 bytes, read only), 5 chance values (grid codes, compressed), 6 chance values with progress ranks (compressed), 7 exact values in narrow words (compressed) |
//! | 23 | 1 | zero |
//! | 24 | 8 | number of indices |
//! | 32 | 8 | payload length in bytes |
//! | 40 | 4 | CRC-32 of every other byte of the file (header with this field left out, then payload) |
//! | 44 | 4 | zero |
//! | 48 | 8 | zero (older files: seconds spent solving, `f64`) |
//! | 56 | 8 | strategy-iteration rounds |
//! | 64 | 8 | residual of the value equation after the last round (`f64`) |
//! | 72 | 8 | proven error: every stored chance value is within this of the true value (`f64`) |
//! | 80 | 48 | rules label, UTF-8, zero padded (for people reading the file) |
//! | 128 | … | payload: one value per index |
//!
//! One-byte plies: 0 a draw, 255 an unused index, `p + 1` decided after `p`
//! plies (odd `p`: the side to move wins). Two-byte plies: the same with
//! 65535 unused. Kinds 8 and 9 hold them as one zstd frame (two-byte plies
//! as two byte planes, all low bytes first); kinds 1 and 2, uncompressed,
//! are still read. Exact numerators are over 72^(2 × men); kind 3 holds each
//! as an `i128` (`i128::MIN` unused), kind 7 each divided by the sector's
//! unit 72^(2 × men − h) (`h` its men in hand) in the narrowest integer that
//! holds ±72^h (1, 2, 4, 8 or 16 bytes, see [`Exact`]; its least value
//! unused), as byte planes compressed as one zstd frame. Chance values are `u32` grid codes (`k` stands for
//! `k / 2^30 − 1`, `u32::MAX` unused), stored as their four byte planes
//! (all lowest bytes, then the next, …) compressed as one zstd frame: the
//! many exact −1, 0 and +1 and the shared high bytes shrink to little.
//! Kind 6 adds each index's progress rank (`u16`, see [`Table::rank`]) as
//! two more byte planes in the same frame, after the four of the codes.
//!
//! The header is read and checked (rules, sector, size, and that the file
//! is exactly as long as it says) before any payload is read.

use std::fs::{self, File};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use engine::merels::{Blocked, BoardKind, Dice, PlacementMills, Rules};

use super::index::Indexer;
use super::sector::Sector;
use super::table::{Exact, Meta, Table, Values, huge_vec, put_planes, word_from_planes};
use super::value::UNUSED;
use super::value::exact_denominator;

const MAGIC: &[u8; 8] = b"LUDUSDB\0";
const VERSION: u16 = 2;
const HEADER: usize = 128;

/// Why a sector file could not be used.
#[derive(Debug)]
pub enum DbError {
    /// No file yet.
    Missing,
    /// The file exists but is damaged or belongs to other rules.
    Corrupt {
        path: PathBuf,
        problem: Corruption,
    },
    Io(std::io::Error),
}

/// What is wrong with a sector file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Corruption {
    /// Too short for a header, or without the file's magic bytes.
    NotASectorFile,
    /// Another version of the format.
    Version(u16),
    /// Made for other rules (these are the rules expected).
    OtherRules(String),
    /// Holds another sector (its men as stored; the key expected).
    OtherSector { stored: [u8; 4], expected: String },
    /// Another number of indices than the sector has.
    Indices { stored: u64, expected: u64 },
    /// The payload is shorter than the header says.
    Truncated { payload: u64, header: u64 },
    /// The payload is longer than the header says.
    TooLong { payload: u64, header: u64 },
    /// The payload is larger than any table of the sector can be.
    PayloadTooBig { payload: u64, indices: u64 },
    /// The checksum does not match.
    Checksum,
    /// The value kind is unknown or does not fit the payload.
    Kind(u8),
    /// A value where no position is, or none where one is.
    Marks { index: u64 },
}

impl std::fmt::Display for Corruption {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Corruption::NotASectorFile => write!(f, "not a ludus sector file"),
            Corruption::Version(v) => write!(f, "format version {v} (expected {VERSION})"),
            Corruption::OtherRules(r) => write!(f, "made for other rules than {r}"),
            Corruption::OtherSector { stored: [w, wf, b, bf], expected } => {
                write!(f, "holds sector {w}-{wf}-{b}-{bf}, not {expected}")
            }
            Corruption::Indices { stored, expected } => write!(f, "has {stored} indices, the sector has {expected}"),
            Corruption::Truncated { payload, header } => {
                write!(f, "is truncated: payload {payload} bytes, header says {header}")
            }
            Corruption::TooLong { payload, header } => {
                write!(f, "is longer than its header says: payload {payload} bytes, header says {header}")
            }
            Corruption::PayloadTooBig { payload, indices } => {
                write!(f, "payload of {payload} bytes is too big for {indices} indices")
            }
            Corruption::Checksum => write!(f, "checksum mismatch: the file is damaged"),
            Corruption::Kind(k) => write!(f, "value kind {k} does not fit the payload"),
            Corruption::Marks { index } => write!(
                f,
                "holds a value where no position is, or none where one is (index {index}): the file is damaged"
            ),
        }
    }
}

impl std::fmt::Display for DbError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DbError::Missing => write!(f, "no file"),
            DbError::Corrupt { path, problem } => write!(f, "{}: {problem}", path.display()),
            DbError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for DbError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DbError::Io(e) => Some(e),
            _ => None,
        }
    }
}

/// A directory of sector files for one set of rules.
#[derive(Clone, Debug)]
pub struct Db {
    root: PathBuf,
    dir: PathBuf,
    rules: Rules,
}

/// The rules a movement sector is a sector of when no dice are thrown in
/// movement (Murray's and Bell's readings, and no dice): the game without
/// dice, with everything that bears on movement kept (board, flying, which
/// men may be taken, how many a double mill takes, a blocked player) and
/// the rest at that game's defaults.
fn movement_rules(rules: &Rules) -> Rules {
    let none = Rules::new(rules.board.kind, Dice::None);
    Rules { dice: Dice::None, placement_mills: none.placement_mills, special_72: none.special_72, ..*rules }
}

fn board_code(k: BoardKind) -> u8 {
    match k {
        BoardKind::Rota => 0,
        BoardKind::Three => 1,
        BoardKind::Six => 2,
        BoardKind::Nine => 3,
    }
}

/// The rules as sector files and checkpoints record them.
pub(crate) fn rules_bytes(r: &Rules) -> [u8; 6] {
    let flags = r.board.diagonals as u8
        | (r.flying as u8) << 1
        | (r.no_take_from_mills as u8) << 2
        | (r.double_mill_one as u8) << 3;
    let dice = match r.dice {
        Dice::None => 0,
        Dice::Schaedler => 1,
        Dice::Murray => 2,
        Dice::Bell => 3,
    };
    let pm = match r.placement_mills {
        PlacementMills::Count => 0,
        PlacementMills::Forbidden => 1,
    };
    let blocked = match r.blocked {
        Blocked::Lose => 0,
        Blocked::Pass => 1,
        Blocked::Draw => 2,
    };
    [board_code(r.board.kind), flags, dice, pm, blocked, r.special_72]
}

impl Db {
    /// The database of `rules` under `root` (one subdirectory per rule set).
    pub fn new(root: &Path, rules: Rules) -> Db {
        let name: String = rules
            .label()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || "+-=.".contains(c) { c } else { '_' })
            .collect();
        Db { root: root.to_path_buf(), dir: root.join(name), rules }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The rules a sector's file is written and read under. Where no dice
    /// are thrown in movement, a movement sector is a sector of the game
    /// without dice ([`movement_rules`]), and its file is that game's, byte
    /// for byte: Murray's and Bell's databases share their movement sectors
    /// with the database without dice ([`Db::has`]).
    fn file_rules(&self, s: Sector) -> Rules {
        if s.is_movement() && !self.rules.dice_in_movement() { movement_rules(&self.rules) } else { self.rules }
    }

    /// Whether the sector's file is in this database. A movement sector
    /// missing here under Murray's or Bell's reading that the database
    /// without dice holds is linked (or, across filesystems, copied) from
    /// there first, with its time: solved once, used by every reading.
    pub fn has(&self, s: Sector) -> bool {
        let own = self.path(s);
        if own.is_file() {
            return true;
        }
        let Some(source) = self.movement_source().filter(|_| s.is_movement()) else {
            return false;
        };
        let from = source.path(s);
        if !from.is_file() || fs::create_dir_all(&self.dir).is_err() {
            return false;
        }
        let share = |from: &Path, to: &Path| {
            fs::hard_link(from, to).is_ok()
                || fs::read(from).is_ok_and(|bytes| engine::file::write_atomic(to, &bytes).is_ok())
        };
        if from.with_extension("time").is_file() {
            share(&from.with_extension("time"), &self.time_path(s));
        }
        share(&from, &own) || own.is_file()
    }

    /// Whether the sector's file (or, for a movement sector under Murray's
    /// or Bell's reading, the database without dice's) is there and as long
    /// as its header says: what a plan counts as done. Reads the header
    /// only, and links nothing (unlike [`Db::has`]).
    pub fn holds(&self, s: Sector) -> bool {
        self.stored_meta(s).is_some()
    }

    /// What the header of the sector's file says of its solve
    /// ([`stored_meta`]), where the file is there and as long as its header
    /// says ([`Db::holds`]; the header only is read, and nothing is
    /// linked).
    pub fn stored_meta(&self, s: Sector) -> Option<Meta> {
        let own = self.path(s);
        let path = match self.movement_source().filter(|_| s.is_movement() && !own.is_file()) {
            Some(source) => source.path(s),
            None => own,
        };
        let whole = |mut f: File| -> std::io::Result<Option<Meta>> {
            let len = f.metadata()?.len();
            let mut h = [0u8; HEADER];
            f.read_exact(&mut h)?;
            let payload = u64::from_le_bytes(h[32..40].try_into().expect("8 bytes"));
            if &h[..8] != MAGIC || len.checked_sub(HEADER as u64) != Some(payload) {
                return Ok(None);
            }
            Ok(Some(stored_meta(&h, &path.with_extension("time"))))
        };
        File::open(&path).and_then(whole).ok().flatten()
    }

    /// The database without dice whose movement sectors this one shares
    /// (Murray's and Bell's readings: no dice in movement), if any.
    pub fn movement_source(&self) -> Option<Db> {
        if self.rules.dice == Dice::None || self.rules.dice_in_movement() {
            return None;
        }
        Some(Db::new(&self.root, movement_rules(&self.rules)))
    }

    pub fn path(&self, s: Sector) -> PathBuf {
        self.dir.join(format!("{}.sec", s.key()))
    }

    /// Bytes of a sector's file on disk, if present.
    pub fn file_size(&self, s: Sector) -> Option<u64> {
        fs::metadata(self.path(s)).ok().map(|m| m.len())
    }

    /// Writes a table atomically ([`engine::file::write_atomic_with`]): a
    /// file with the final name is always complete.
    pub fn store(&self, t: &Table) -> std::io::Result<()> {
        self.write(t, encode(&t.values, &t.rank))
    }

    /// Writes a table whose payload is encoded (its kind and bytes).
    fn write(&self, t: &Table, payload: (u8, Vec<u8>)) -> std::io::Result<()> {
        fs::create_dir_all(&self.dir)?;
        let mut h = [0u8; HEADER];
        h[..8].copy_from_slice(MAGIC);
        h[8..10].copy_from_slice(&VERSION.to_le_bytes());
        h[10..12].copy_from_slice(&(HEADER as u16).to_le_bytes());
        let s = t.sector();
        let rules = self.file_rules(s);
        h[12..18].copy_from_slice(&rules_bytes(&rules));
        h[18..22].copy_from_slice(&[s.w, s.wf, s.b, s.bf]);
        h[22] = payload.0;
        h[24..32].copy_from_slice(&(t.values.len() as u64).to_le_bytes());
        h[32..40].copy_from_slice(&(payload.1.len() as u64).to_le_bytes());
        h[56..64].copy_from_slice(&t.meta.sweeps.to_le_bytes());
        h[64..72].copy_from_slice(&t.meta.residual.to_le_bytes());
        h[72..80].copy_from_slice(&t.meta.error.to_le_bytes());
        let label = rules.label();
        let n = label.len().min(48);
        h[80..80 + n].copy_from_slice(&label.as_bytes()[..n]);
        let crc = checksum(&h, &payload.1);
        h[40..44].copy_from_slice(&crc.to_le_bytes());
        // The time is not part of the file, so that a rerun writes the same
        // bytes; it goes beside it, written first.
        engine::file::write_atomic(&self.time_path(s), format!("{}\n", t.meta.seconds).as_bytes())
            .map_err(std::io::Error::other)?;
        engine::file::write_atomic_with(&self.path(s), |w| {
            w.write_all(&h)?;
            w.write_all(&payload.1)
        })
        .map_err(std::io::Error::other)
    }

    /// Rewrites a sector's file written in an older, uncompressed kind (1,
    /// 2 or 3) in the current one, atomically, after reading it whole (its
    /// checksum and values checked) and checking that the new file reads
    /// back to the same values. Returns the file's old and new sizes, `None`
    /// when it is missing or already current.
    pub fn compact(&self, indexer: Indexer) -> Result<Option<(u64, u64)>, DbError> {
        let s = indexer.sector();
        let path = self.path(s);
        let mut head = [0u8; HEADER];
        match File::open(&path).and_then(|mut f| f.read_exact(&mut head)) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(_) => {}
            Ok(()) if ![1, 2, 3].contains(&head[22]) => return Ok(None),
            Ok(()) => {}
        }
        let before = self.file_size(s).unwrap_or(0);
        let table = self.load(indexer.clone())?;
        let payload = encode(&table.values, &table.rank);
        // The new payload must decode to the values read before it replaces
        // the file.
        let n = indexer.size() as usize;
        let same = decode(payload.0, &payload.1, n, self.rules.men(), s).is_some_and(|(values, rank)| {
            let back = Table { rank, ..Table::new(indexer, values, table.meta) };
            (0..n as u64).all(|i| table.at(i) == back.at(i)) && table.rank == back.rank
        });
        if !same {
            return Err(DbError::Io(std::io::Error::other(format!(
                "{}: its values would not read back the same in the current format; left as it is",
                path.display()
            ))));
        }
        self.write(&table, payload).map_err(DbError::Io)?;
        Ok(Some((before, self.file_size(s).unwrap_or(0))))
    }

    /// The file beside a sector's that holds the seconds its solve took.
    pub fn time_path(&self, s: Sector) -> PathBuf {
        self.dir.join(format!("{}.time", s.key()))
    }

    /// Reads and verifies a sector's table.
    pub fn load(&self, indexer: Indexer) -> Result<Table, DbError> {
        self.load_with(indexer, true)
    }

    /// Reads and verifies a sector's values, leaving its progress ranks in
    /// the file (all a solve needs of its successors: under chance a third
    /// less memory for a movement sector). The whole file is still read and
    /// checked.
    pub fn load_values(&self, indexer: Indexer) -> Result<Table, DbError> {
        self.load_with(indexer, false)
    }

    fn load_with(&self, indexer: Indexer, ranks: bool) -> Result<Table, DbError> {
        let s = indexer.sector();
        let path = self.path(s);
        self.has(s);
        let mut f = match File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(DbError::Missing),
            Err(e) => return Err(DbError::Io(e)),
        };
        let bad = |problem: Corruption| Err(DbError::Corrupt { path: path.clone(), problem });
        let file_len = f.metadata().map_err(DbError::Io)?.len();
        let mut h = [0u8; HEADER];
        if file_len < HEADER as u64 || f.read_exact(&mut h).is_err() || &h[..8] != MAGIC {
            return bad(Corruption::NotASectorFile);
        }
        let h = &h[..];
        let u64_at = |o: usize| u64::from_le_bytes(h[o..o + 8].try_into().expect("8 bytes"));
        if u16::from_le_bytes([h[8], h[9]]) != VERSION {
            return bad(Corruption::Version(u16::from_le_bytes([h[8], h[9]])));
        }
        let rules = self.file_rules(s);
        if h[12..18] != rules_bytes(&rules) {
            return bad(Corruption::OtherRules(rules.label()));
        }
        if h[18..22] != [s.w, s.wf, s.b, s.bf] {
            return bad(Corruption::OtherSector { stored: [h[18], h[19], h[20], h[21]], expected: s.key() });
        }
        if u64_at(24) != indexer.size() {
            return bad(Corruption::Indices { stored: u64_at(24), expected: indexer.size() });
        }
        let stored = file_len - HEADER as u64;
        if u64_at(32) > stored {
            return bad(Corruption::Truncated { payload: stored, header: u64_at(32) });
        }
        if u64_at(32) < stored {
            return bad(Corruption::TooLong { payload: stored, header: u64_at(32) });
        }
        if stored > max_payload(h[22], indexer.size(), s) {
            return bad(Corruption::PayloadTooBig { payload: stored, indices: indexer.size() });
        }
        let crc = u32::from_le_bytes(h[40..44].try_into().expect("4 bytes"));
        let n = indexer.size() as usize;
        let decoded = if STREAMED.contains(&h[22]) {
            // Decompressed as it is read, into the table's own arrays: no
            // copy of the payload or of its planes is held. The checksum
            // covers every byte read, and the rest is read after a payload
            // that did not decode, so that damage is told from a bad kind.
            let mut payload = Hashing::new(f.take(stored), h);
            let decoded = decode_streamed(h[22], &mut payload, n, self.rules.men(), s, ranks);
            let drained = std::io::copy(&mut payload, &mut std::io::sink());
            let (read, sum, failed) = payload.finish();
            if let Some(e) = failed.or(drained.err()) {
                return Err(DbError::Io(e));
            }
            if read != stored {
                // The file grew shorter since its length was checked.
                return Err(DbError::Io(std::io::ErrorKind::UnexpectedEof.into()));
            }
            if sum != crc {
                return bad(Corruption::Checksum);
            }
            decoded
        } else {
            let mut payload = vec![0u8; stored as usize];
            f.read_exact(&mut payload).map_err(DbError::Io)?;
            if checksum(h, &payload) != crc {
                return bad(Corruption::Checksum);
            }
            decode(h[22], &payload, n, self.rules.men(), s)
        };
        let Some((values, rank)) = decoded else { return bad(Corruption::Kind(h[22])) };
        let meta = stored_meta(h, &self.time_path(s));
        let ranks_left = h[22] == 6 && !ranks;
        Ok(Table { rank, ranks_left, ..Table::new(indexer, values, meta) })
    }
}

/// What a sector file's header `h` says of its solve, with the time from
/// the file `time` beside it (the header's where that cannot be read).
fn stored_meta(h: &[u8], time: &Path) -> Meta {
    let u64_at = |o: usize| u64::from_le_bytes(h[o..o + 8].try_into().expect("8 bytes"));
    let f64_at = |o: usize| f64::from_le_bytes(h[o..o + 8].try_into().expect("8 bytes"));
    let seconds = fs::read_to_string(time)
        .ok()
        .and_then(|t| t.trim().parse::<f64>().ok())
        .filter(|x| x.is_finite() && *x >= 0.0)
        .unwrap_or(f64_at(48));
    Meta { seconds, sweeps: u64_at(56), residual: f64_at(64), error: f64_at(72) }
}

fn checksum(header: &[u8], payload: &[u8]) -> u32 {
    let mut c = crc32fast::Hasher::new();
    c.update(&header[..40]);
    c.update(&header[44..HEADER]);
    c.update(payload);
    c.finalize()
}

/// The value kinds read by [`decode_streamed`].
const STREAMED: [u8; 5] = [5, 6, 7, 8, 9];

/// A payload as it is read from its file, with the checksum of the file so
/// far (the header's bytes first) and the first error of the file's reads
/// (the decompressor reports any error as its own).
struct Hashing<R> {
    inner: R,
    hasher: crc32fast::Hasher,
    read: u64,
    failed: Option<std::io::Error>,
}

impl<R: Read> Hashing<R> {
    fn new(inner: R, header: &[u8]) -> Hashing<R> {
        let mut hasher = crc32fast::Hasher::new();
        hasher.update(&header[..40]);
        hasher.update(&header[44..HEADER]);
        Hashing { inner, hasher, read: 0, failed: None }
    }

    /// Bytes read, the checksum of the file read, and the first read error.
    fn finish(self) -> (u64, u32, Option<std::io::Error>) {
        (self.read, self.hasher.finalize(), self.failed)
    }
}

impl<R: Read> Read for Hashing<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.failed.is_some() {
            return Err(std::io::Error::other("an earlier read failed"));
        }
        match self.inner.read(buf) {
            Ok(k) => {
                self.hasher.update(&buf[..k]);
                self.read += k as u64;
                Ok(k)
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => Err(e),
            Err(e) => {
                let again = std::io::Error::new(e.kind(), e.to_string());
                self.failed = Some(e);
                Err(again)
            }
        }
    }
}

/// Decompresses a payload of `width` byte planes of `n` bytes each as it is
/// read, handing `put(plane, first, bytes)` the bytes of a plane from index
/// `first` on; `None` unless it is one zstd stream of exactly `width · n`
/// bytes.
fn stream_planes(payload: impl Read, n: usize, width: usize, mut put: impl FnMut(usize, usize, &[u8])) -> Option<()> {
    let mut z = zstd::stream::read::Decoder::new(payload).ok()?;
    let total = width * n;
    let mut buf = vec![0u8; 1 << 16];
    let mut at = 0;
    while at < total {
        let want = (total - at).min(buf.len());
        let got = match z.read(&mut buf[..want]) {
            Ok(0) | Err(_) => return None,
            Ok(k) => k,
        };
        let mut chunk = &buf[..got];
        while !chunk.is_empty() {
            let (plane, first) = (at / n, at % n);
            let k = chunk.len().min(n - first);
            put(plane, first, &chunk[..k]);
            chunk = &chunk[k..];
            at += k;
        }
    }
    matches!(z.read(&mut [0u8; 1]), Ok(0)).then_some(())
}

/// A payload of a compressed kind ([`STREAMED`]) decoded as it is read: the
/// values and progress ranks [`decode`] gives (the ranks only with
/// `ranks`), with only the table's own arrays in memory.
fn decode_streamed(
    kind: u8,
    payload: impl Read,
    n: usize,
    men: u8,
    s: Sector,
    ranks: bool,
) -> Option<(Values, Vec<u16>)> {
    match kind {
        7 => {
            let width = Exact::width_for(s);
            let exact = Exact::from_plane_runs(men, s, n, |put| stream_planes(payload, n, width, put))?;
            Some((Values::Exact(exact), Vec::new()))
        }
        5 | 6 => {
            let mut codes = huge_vec(std::iter::repeat_n(0u32, n));
            let mut rank = if kind == 6 && ranks { vec![0u16; n] } else { Vec::new() };
            stream_planes(payload, n, if kind == 6 { 6 } else { 4 }, |plane, first, bytes| {
                if plane < 4 {
                    for (c, &b) in codes[first..].iter_mut().zip(bytes) {
                        *c |= u32::from(b) << (8 * plane);
                    }
                } else if ranks {
                    for (r, &b) in rank[first..].iter_mut().zip(bytes) {
                        *r |= u16::from(b) << (8 * (plane - 4));
                    }
                }
            })?;
            Some((Values::Chance(codes), rank))
        }
        8 | 9 => {
            let mut plies = huge_vec(std::iter::repeat_n(0u16, n));
            stream_planes(payload, n, usize::from(kind - 7), |plane, first, bytes| {
                let out = plies[first..].iter_mut().zip(bytes);
                if kind == 8 {
                    out.for_each(|(p, &b)| *p = if b == 255 { UNUSED } else { u16::from(b) });
                } else {
                    out.for_each(|(p, &b)| *p |= u16::from(b) << (8 * plane));
                }
            })?;
            Some((Values::Dtm(plies), Vec::new()))
        }
        _ => None,
    }
}

fn encode(values: &Values, rank: &[u16]) -> (u8, Vec<u8>) {
    match values {
        Values::Dtm(v) => {
            let compress = |bytes: &[u8]| zstd::bulk::compress(bytes, 3).expect("compressing in memory");
            if v.iter().all(|&p| p == UNUSED || p < 255) {
                (8, compress(&v.iter().map(|&p| if p == UNUSED { 255 } else { p as u8 }).collect::<Vec<u8>>()))
            } else {
                let mut planes = vec![0u8; 2 * v.len()];
                put_planes(&mut planes, 0, v.iter().map(|p| p.to_le_bytes()));
                (9, compress(&planes))
            }
        }
        Values::Exact(v) => (7, zstd::bulk::compress(&v.planes(), 3).expect("compressing in memory")),
        Values::Chance(v) => {
            let n = v.len();
            let ranked = rank.len() == n && rank.iter().any(|&r| r > 0);
            let mut planes = vec![0u8; if ranked { 6 * n } else { 4 * n }];
            put_planes(&mut planes, 0, v.iter().map(|k| k.to_le_bytes()));
            if ranked {
                put_planes(&mut planes, 4, rank.iter().map(|r| r.to_le_bytes()));
            }
            (if ranked { 6 } else { 5 }, zstd::bulk::compress(&planes, 3).expect("compressing in memory"))
        }
    }
}

/// The largest payload a file of this kind and size may have.
fn max_payload(kind: u8, n: u64, s: Sector) -> u64 {
    match kind {
        1 => n,
        2 => 2 * n,
        3 => 16 * n,
        7 => zstd::zstd_safe::compress_bound(Exact::width_for(s) * n as usize) as u64,
        8 => zstd::zstd_safe::compress_bound(n as usize) as u64,
        9 => zstd::zstd_safe::compress_bound(2 * n as usize) as u64,
        5 => zstd::zstd_safe::compress_bound(4 * n as usize) as u64,
        6 => zstd::zstd_safe::compress_bound(6 * n as usize) as u64,
        _ => 0,
    }
}

/// A payload's values and progress ranks (empty when it has none), from
/// the whole payload in memory: the older kinds, the check of a payload
/// before `compact` writes it, and the twin of [`decode_streamed`] in the
/// tests.
fn decode(kind: u8, payload: &[u8], n: usize, men: u8, s: Sector) -> Option<(Values, Vec<u16>)> {
    if kind == 8 || kind == 9 {
        let width = usize::from(kind - 7);
        let bytes = zstd::bulk::decompress(payload, width * n).ok()?;
        if bytes.len() != width * n {
            return None;
        }
        let plies = if kind == 8 {
            huge_vec(bytes.iter().map(|&b| if b == 255 { UNUSED } else { b as u16 }))
        } else {
            huge_vec((0..n).map(|i| u16::from_le_bytes(word_from_planes(&bytes, n, 0, i))))
        };
        return Some((Values::Dtm(plies), Vec::new()));
    }
    if kind == 7 {
        let planes = zstd::bulk::decompress(payload, Exact::width_for(s) * n).ok()?;
        return Some((Values::Exact(Exact::from_planes(men, s, n, &planes)?), Vec::new()));
    }
    if kind == 5 || kind == 6 {
        let width = if kind == 6 { 6 } else { 4 };
        let planes = zstd::bulk::decompress(payload, width * n).ok()?;
        if planes.len() != width * n {
            return None;
        }
        let codes = huge_vec((0..n).map(|i| u32::from_le_bytes(word_from_planes(&planes, n, 0, i))));
        let rank = if kind == 6 {
            (0..n).map(|i| u16::from_le_bytes(word_from_planes(&planes, n, 4, i))).collect()
        } else {
            Vec::new()
        };
        return Some((Values::Chance(codes), rank));
    }
    let width = match kind {
        1 => 1,
        2 => 2,
        3 => 16,
        _ => return None,
    };
    if payload.len() != n * width {
        return None;
    }
    let values = match kind {
        1 => Values::Dtm(huge_vec(payload.iter().map(|&b| if b == 255 { UNUSED } else { b as u16 }))),
        2 => Values::Dtm(huge_vec(payload.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])))),
        _ => {
            // Sixteen bytes a numerator, as written before narrow words.
            let num = |i: usize| i128::from_le_bytes(payload[16 * i..16 * i + 16].try_into().expect("16 bytes"));
            let unit = Exact::unit(men, s);
            let bound = exact_denominator(men);
            if (0..n).map(num).any(|x| x != i128::MIN && (x % unit != 0 || x.abs() > bound)) {
                return None;
            }
            Values::Exact(Exact::from_fn(men, s, n, |i| Some(num(i)).filter(|&x| x != i128::MIN)))
        }
    };
    Some((values, Vec::new()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Files of sixteen-byte numerators (kind 3) read as the same values as
    /// the narrow words that replaced them; a numerator that is no value of
    /// the sector is refused.
    #[test]
    fn sixteen_byte_exact_files_read_as_narrow_values() {
        let s = Sector { w: 4, wf: 2, b: 5, bf: 1 };
        let unit = exact_denominator(9) / 72i128.pow(3);
        let nums: Vec<Option<i128>> =
            (0..500i128).map(|i| (i % 7 != 3).then(|| (i * 1_499 % 746_497 - 373_248) * unit)).collect();
        let payload: Vec<u8> = nums.iter().flat_map(|n| n.unwrap_or(i128::MIN).to_le_bytes()).collect();
        let Some((Values::Exact(e), rank)) = decode(3, &payload, nums.len(), 9, s) else { panic!("not read") };
        assert!(rank.is_empty());
        assert_eq!((0..nums.len()).map(|i| e.get(i)).collect::<Vec<_>>(), nums);
        let (kind, packed) = encode(&Values::Exact(e.clone()), &[]);
        assert_eq!(kind, 7);
        assert!(matches!(decode(7, &packed, nums.len(), 9, s), Some((Values::Exact(back), _)) if back == e));
        let mut odd = payload.clone();
        odd[0] ^= 1;
        assert!(decode(3, &odd, nums.len(), 9, s).is_none(), "a numerator off the unit");
    }

    /// `compact` rewrites a file of one-byte plies (kind 1) compressed, with
    /// the same values, and leaves current files alone.
    #[test]
    fn compacting_rewrites_older_files_with_the_same_values() {
        use engine::merels::BoardKind;
        let dir = std::env::temp_dir().join(format!("ludus-compact-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let rules = Rules::new(BoardKind::Six, Dice::None);
        let db = Db::new(&dir, rules);
        let s = Sector { w: 3, wf: 0, b: 4, bf: 0 };
        let tables = super::super::index::BoardTables::new(rules.board);
        let ix = Indexer::new(tables.clone(), s);
        let plies: Vec<u16> = (0..ix.size()).map(|i| if i % 5 == 0 { 0 } else { (i % 40) as u16 + 1 }).collect();
        let table = Table::new(ix.clone(), Values::Dtm(plies.clone()), Meta::default());
        let bytes: Vec<u8> = plies.iter().map(|&p| p as u8).collect();
        db.write(&table, (1, bytes)).unwrap();
        assert_eq!(fs::read(db.path(s)).unwrap()[22], 1);
        let (before, after) = db.compact(ix.clone()).unwrap().expect("rewritten");
        assert_eq!(before, HEADER as u64 + ix.size());
        assert!(after < before, "{after} >= {before}");
        assert_eq!(fs::read(db.path(s)).unwrap()[22], 8);
        let Values::Dtm(back) = db.load(ix.clone()).unwrap().values else { panic!("plies") };
        assert_eq!(back, plies);
        assert!(db.compact(ix.clone()).unwrap().is_none(), "a current file is left alone");
        assert!(db.compact(Indexer::new(tables, Sector { w: 4, wf: 0, b: 4, bf: 0 })).unwrap().is_none(), "missing");
        fs::remove_dir_all(&dir).ok();
    }

    /// Plies are written compressed (kinds 8 and 9) and read back as they
    /// were; the uncompressed kinds 1 and 2 of older files read the same;
    /// a payload that does not decompress to the size is refused.
    #[test]
    fn plies_are_compressed_and_older_files_read_the_same() {
        let s = Sector { w: 5, wf: 0, b: 4, bf: 0 };
        let plies = |top: u16| -> Vec<u16> {
            (0..3000u32).map(|i| if i % 11 == 0 { UNUSED } else { (i * 7919 % u32::from(top)) as u16 }).collect()
        };
        for (top, kind, old_kind) in [(255u16, 8u8, 1u8), (1000, 9, 2)] {
            let v = plies(top);
            let (k, packed) = encode(&Values::Dtm(v.clone()), &[]);
            assert_eq!(k, kind);
            assert!(packed.len() < v.len(), "compressed");
            let Some((Values::Dtm(back), _)) = decode(k, &packed, v.len(), 9, s) else { panic!("not read") };
            assert_eq!(back, v);
            let old: Vec<u8> = if old_kind == 1 {
                v.iter().map(|&p| if p == UNUSED { 255 } else { p as u8 }).collect()
            } else {
                v.iter().flat_map(|p| p.to_le_bytes()).collect()
            };
            let Some((Values::Dtm(back), _)) = decode(old_kind, &old, v.len(), 9, s) else { panic!("not read") };
            assert_eq!(back, v);
            assert!(decode(k, &packed, v.len() + 1, 9, s).is_none(), "another size");
            assert!(decode(k, &packed[..packed.len() / 2], v.len(), 9, s).is_none(), "a cut frame");
        }
    }

    /// Every compressed kind decoded as it is read gives what the whole
    /// payload decoded gives, at sizes that cut the planes anywhere in the
    /// stream's chunks; a cut frame, another size or bytes after the frame
    /// are refused by both.
    #[test]
    fn streamed_decoding_agrees_with_whole_payloads() {
        use rand::{Rng, SeedableRng};
        let s = Sector { w: 5, wf: 0, b: 4, bf: 0 };
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(72);
        for n in [0usize, 1, 7, 65_535, 65_537, 100_003] {
            // Runs of equal values, as the tables have, and noise.
            let codes: Vec<u32> = (0..n)
                .map(|i| match (i / 97) % 4 {
                    0 => u32::MAX,
                    1 => 1 << 30,
                    _ => rng.random(),
                })
                .collect();
            let rank: Vec<u16> = (0..n).map(|i| if i % 3 == 1 { 0 } else { rng.random_range(1..=u16::MAX) }).collect();
            let low: Vec<u16> = (0..n).map(|i| if i % 13 == 0 { UNUSED } else { rng.random_range(0..255) }).collect();
            let wide: Vec<u16> = (0..n).map(|_| rng.random()).collect();
            let payloads = [
                encode(&Values::Chance(codes.clone()), &[]),
                encode(&Values::Chance(codes), &rank),
                encode(&Values::Dtm(low), &[]),
                encode(&Values::Dtm(wide), &[]),
            ];
            let kinds: Vec<u8> = payloads.iter().map(|p| p.0).collect();
            assert_eq!(kinds, if n > 0 { vec![5, 6, 8, 9] } else { vec![5, 5, 8, 8] });
            for (kind, bytes) in &payloads {
                let whole = decode(*kind, bytes, n, 9, s).expect("decodes whole");
                let streamed = decode_streamed(*kind, &bytes[..], n, 9, s, true).expect("decodes streamed");
                let same = match (&whole.0, &streamed.0) {
                    (Values::Chance(a), Values::Chance(b)) => a == b,
                    (Values::Dtm(a), Values::Dtm(b)) => a == b,
                    _ => false,
                };
                assert!(same && whole.1 == streamed.1, "kind {kind}, {n} indices");
                // The values alone: the same values, no ranks.
                let (values, rank) = decode_streamed(*kind, &bytes[..], n, 9, s, false).expect("decodes the values");
                let same = match (&whole.0, &values) {
                    (Values::Chance(a), Values::Chance(b)) => a == b,
                    (Values::Dtm(a), Values::Dtm(b)) => a == b,
                    _ => false,
                };
                assert!(same && rank.is_empty(), "kind {kind}, {n} indices, values alone");
                assert!(decode_streamed(*kind, &bytes[..], n + 1, 9, s, true).is_none(), "another size");
                assert!(decode_streamed(*kind, &bytes[..bytes.len() - 1], n, 9, s, false).is_none(), "a cut frame");
                let mut more = bytes.clone();
                more.extend_from_slice(bytes);
                assert!(decode(*kind, &more, n, 9, s).is_none() || n == 0, "two frames whole");
                assert!(decode_streamed(*kind, &more[..], n, 9, s, true).is_none() || n == 0, "two frames streamed");
                more.truncate(bytes.len());
                more.push(7);
                assert!(decode(*kind, &more, n, 9, s).is_none(), "a byte after the frame, whole");
                assert!(
                    decode_streamed(*kind, &more[..], n, 9, s, false).is_none(),
                    "a byte after the frame, streamed"
                );
            }
        }
    }

    /// Exact values in every width decoded as they are read are those the
    /// whole payload gives; a quotient beyond the sector's bound is refused
    /// by both.
    #[test]
    fn streamed_exact_values_agree_with_whole_payloads() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        for (wf, bf, width) in [(1, 0, 1), (1, 1, 2), (2, 2, 4), (4, 4, 8), (9, 9, 16)] {
            let s = Sector { w: 9 - wf, wf, b: 9 - bf, bf };
            assert_eq!(Exact::width_for(s), width);
            let (unit, bound) = (Exact::unit(9, s), 72i128.pow(u32::from(wf + bf)));
            for n in [1usize, 70_001] {
                let q: Vec<i128> = (0..n).map(|_| rng.random_range(-bound..=bound)).collect();
                let e = Exact::from_fn(9, s, n, |i| (i % 7 != 3).then(|| q[i] * unit));
                let (kind, bytes) = encode(&Values::Exact(e.clone()), &[]);
                assert_eq!(kind, 7);
                let Some((Values::Exact(whole), _)) = decode(7, &bytes, n, 9, s) else { panic!("whole") };
                let Some((Values::Exact(streamed), _)) = decode_streamed(7, &bytes[..], n, 9, s, true) else {
                    panic!("streamed, width {width}")
                };
                assert!(whole == e && streamed == e, "width {width}, {n} indices");
                assert!(decode_streamed(7, &bytes[..], n + 1, 9, s, true).is_none(), "another size");
                // The top byte of the first value raised past the bound.
                let mut planes = e.planes();
                planes[(width - 1) * n] = 0x70;
                let beyond = zstd::bulk::compress(&planes, 3).unwrap();
                assert!(
                    decode(7, &beyond, n, 9, s).is_none() && decode_streamed(7, &beyond[..], n, 9, s, true).is_none()
                );
            }
        }
    }
}
