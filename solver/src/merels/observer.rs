//! Progress reports from long work.

use super::sector::Sector;

/// Receives progress reports from long work (the CLI draws progress bars).
pub trait Observer: Sync {
    /// A new stage of `total` units of work begins.
    fn begin(&self, _label: &str, _total: u64) {}
    fn advance(&self, _n: u64) {}
    fn finish(&self) {}
    /// A sector group is about to be solved: `done` of `groups` are finished.
    fn group(&self, _sectors: &[Sector], _done: usize, _groups: usize) {}
    /// Where the whole run stands, before each group: `done` of `total`
    /// indices are in finished groups, `here` of them finished by this run
    /// (the others were read from the database).
    fn overall(&self, _done: u64, _here: u64, _total: u64) {}
    /// Something the user should know (a damaged file being re-solved).
    fn note(&self, _message: &str) {}
}

/// Reports nothing.
pub struct Silent;
impl Observer for Silent {}
