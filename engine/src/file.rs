//! Files written whole or not at all.
//!
//! Every file ludus writes (databases, records, pictures) goes through
//! [`write_atomic`]: the bytes go to a temporary file beside the target,
//! which is flushed to the disk and then renamed over the target, so a
//! reader (or a crash) sees the old file or the complete new one, never a
//! part.

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Why a file could not be written.
#[derive(Debug)]
pub enum WriteError {
    /// The directory the file should go in does not exist.
    NoDirectory { path: PathBuf, dir: PathBuf },
    /// The path names a directory or nothing (`dir/`, `..`).
    NotAFile { path: PathBuf },
    /// The system refused (permissions, a full disk, ...).
    Io { path: PathBuf, source: io::Error },
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::NoDirectory { path, dir } => {
                write!(f, "cannot write {}: no directory {}", path.display(), dir.display())
            }
            WriteError::NotAFile { path } => {
                write!(f, "cannot write {}: it names a directory, not a file", path.display())
            }
            WriteError::Io { path, source } => write!(f, "cannot write {}: {source}", path.display()),
        }
    }
}

impl std::error::Error for WriteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            WriteError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// The directory a path's file lives in (`.` for a bare name).
pub fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Checks that `path` can name a file to write: a file name in an existing
/// directory. Lets a command refuse before long work rather than after.
pub fn check_writable(path: &Path) -> Result<(), WriteError> {
    if path.file_name().is_none() || path.is_dir() {
        return Err(WriteError::NotAFile { path: path.to_path_buf() });
    }
    let dir = parent(path);
    if !dir.is_dir() {
        return Err(WriteError::NoDirectory { path: path.to_path_buf(), dir: dir.to_path_buf() });
    }
    Ok(())
}

/// Writes `path` through `fill`, which receives a buffered writer: to a
/// temporary file in the same directory, synced to the disk, then renamed
/// over `path` (and the directory synced, so the rename itself survives a
/// crash). On any error the temporary file is removed and `path` is left as
/// it was.
pub fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut BufWriter<File>) -> io::Result<()>,
) -> Result<(), WriteError> {
    check_writable(path)?;
    let dir = parent(path);
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let io_err = |source| WriteError::Io { path: path.to_path_buf(), source };
    let written = (|| {
        let mut w = BufWriter::new(File::create(&tmp)?);
        fill(&mut w)?;
        let f = w.into_inner().map_err(|e| e.into_error())?;
        f.sync_all()?;
        drop(f);
        fs::rename(&tmp, path)
    })();
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp);
        return Err(io_err(e));
    }
    // Syncing a directory is not possible everywhere; the data is safe anyway.
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Writes `bytes` to `path` atomically (see [`write_atomic_with`]).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("ludus-file-test-{}-{name}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn writes_whole_files_and_leaves_nothing_behind() {
        let dir = scratch("whole");
        let path = dir.join("out.txt");
        write_atomic(&path, b"first").unwrap();
        write_atomic(&path, b"second").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"second");
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1, "a temporary file was left");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_failed_fill_keeps_the_old_file() {
        let dir = scratch("failed");
        let path = dir.join("out.txt");
        write_atomic(&path, b"old").unwrap();
        let e = write_atomic_with(&path, |w| {
            w.write_all(b"partial")?;
            Err(io::Error::other("interrupted"))
        })
        .unwrap_err();
        assert!(matches!(e, WriteError::Io { .. }), "{e}");
        assert_eq!(fs::read(&path).unwrap(), b"old");
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn refuses_missing_directories_and_directories() {
        let dir = scratch("refuse");
        let e = write_atomic(&dir.join("no/such/dir/x"), b"x").unwrap_err();
        assert!(matches!(e, WriteError::NoDirectory { .. }) && e.to_string().contains("no directory"), "{e}");
        assert!(matches!(write_atomic(&dir, b"x").unwrap_err(), WriteError::NotAFile { .. }));
        fs::remove_dir_all(&dir).unwrap();
    }
}
