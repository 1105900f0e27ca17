//! The manifest of a database: every sector file's SHA-256, so that a
//! database can be published and a rerun checked byte for byte.
//!
//! The format is that of `sha256sum`: one line per file, `<hex digest>`,
//! two spaces, the file's name, sorted by name; `sha256sum -c MANIFEST`
//! in the database's directory checks it.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use sha2::{Digest, Sha256};

use super::db::Db;
use super::sector::Sector;

/// The manifest's file name in a database's directory.
pub const MANIFEST: &str = "MANIFEST";

/// One file of a manifest.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Entry {
    pub file: String,
    pub bytes: u64,
    pub sha256: String,
}

/// The SHA-256 of a file, in lower-case hex, and its length, read in
/// pieces (sector files reach hundreds of MB).
pub fn sha256_file(path: &Path) -> io::Result<(String, u64)> {
    let mut f = File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    let mut bytes = 0u64;
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
        bytes += n as u64;
    }
    let hex = hasher.finalize().iter().map(|b| format!("{b:02x}")).collect();
    Ok((hex, bytes))
}

/// The entries of the files of `sectors` in `db`, sorted by file name
/// (hashed in parallel).
pub fn entries(db: &Db, sectors: &[Sector]) -> io::Result<Vec<Entry>> {
    let mut paths: Vec<PathBuf> = sectors.iter().map(|&s| db.path(s)).collect();
    paths.sort();
    paths.dedup();
    paths
        .par_iter()
        .map(|p| {
            let (sha256, bytes) = sha256_file(p)?;
            let file = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            Ok(Entry { file, bytes, sha256 })
        })
        .collect()
}

/// The manifest's text: `sha256sum`'s lines.
pub fn text(entries: &[Entry]) -> String {
    entries.iter().map(|e| format!("{}  {}\n", e.sha256, e.file)).collect()
}

/// Writes the manifest of `sectors` into `db`'s directory (atomically);
/// returns its path and entries.
pub fn write(db: &Db, sectors: &[Sector]) -> Result<(PathBuf, Vec<Entry>), engine::file::WriteError> {
    let path = db.dir().join(MANIFEST);
    let entries = entries(db, sectors).map_err(|source| engine::file::WriteError::Io { path: path.clone(), source })?;
    engine::file::write_atomic(&path, text(&entries).as_bytes())?;
    Ok((path, entries))
}
