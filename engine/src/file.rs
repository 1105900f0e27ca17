//! Files written whole or not at all.
//!
//! Every file ludus writes (databases, records, pictures) goes through
//! [`write_atomic`]: the bytes go to a temporary file beside the target,
//! which is flushed to the disk and then renamed over the target, so a
//! reader (or a crash) sees the old file or the complete new one, never a
//! part. Symbolic links are followed (the file they name is replaced, the
//! links stay), and what is not a file — a pipe, a device, `/dev/stdout`,
//! or a link to one — is appended to as it is.

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

/// What a path to write names once its links are followed.
enum Target {
    /// A file (there or not yet), written whole.
    File(PathBuf),
    /// A pipe, a device, or the system's name of a stream (`/dev/stdout`,
    /// `/dev/fd/N`, `/proc/...`), written to as it is.
    Stream,
}

/// The most links followed from one path.
const MOST_LINKS: usize = 40;

/// Follows the links of `path` (its last component) to the file they name,
/// or to a stream met on the way.
fn resolve(path: &Path) -> io::Result<Target> {
    let mut at = path.to_path_buf();
    for _ in 0..MOST_LINKS {
        let stream = ["/dev/stdout", "/dev/stderr", "/dev/stdin"].iter().any(|s| at == Path::new(s))
            || at.starts_with("/dev/fd")
            || at.starts_with("/proc");
        if stream {
            return Ok(Target::Stream);
        }
        match fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => at = parent(&at).join(fs::read_link(&at)?),
            Ok(m) if !m.is_file() && !m.is_dir() => return Ok(Target::Stream),
            _ => return Ok(Target::File(at)),
        }
    }
    Err(io::Error::other(format!("more than {MOST_LINKS} links in a row (a loop?)")))
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
    let io_err = |source| WriteError::Io { path: path.to_path_buf(), source };
    let path = match resolve(path).map_err(io_err)? {
        Target::File(file) => file,
        // Appended to where the stream stands, after what the program has
        // already written there (`> out` or `>> out` alike).
        Target::Stream => {
            let written = (|| {
                let mut w = BufWriter::new(fs::OpenOptions::new().append(true).open(path)?);
                fill(&mut w)?;
                w.flush()
            })();
            return written.map_err(io_err);
        }
    };
    let path = path.as_path();
    check_writable(path)?;
    let dir = parent(path);
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
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
    fn a_link_is_followed_and_kept() {
        let dir = scratch("link");
        let file = dir.join("real.txt");
        let link = dir.join("link.txt");
        write_atomic(&file, b"old").unwrap();
        std::os::unix::fs::symlink("real.txt", &link).unwrap();
        write_atomic(&link, b"new").unwrap();
        assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link was replaced");
        assert_eq!(fs::read(&file).unwrap(), b"new");
        // A link to a file not there yet makes that file.
        let dangling = dir.join("later.txt");
        std::os::unix::fs::symlink("made.txt", &dangling).unwrap();
        write_atomic(&dangling, b"made").unwrap();
        assert!(fs::symlink_metadata(&dangling).unwrap().file_type().is_symlink());
        assert_eq!(fs::read(dir.join("made.txt")).unwrap(), b"made");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn chains_of_links_are_followed_and_loops_refused() {
        let dir = scratch("chain");
        std::os::unix::fs::symlink("b.txt", dir.join("a.txt")).unwrap();
        std::os::unix::fs::symlink("c.txt", dir.join("b.txt")).unwrap();
        write_atomic(&dir.join("a.txt"), b"end").unwrap();
        assert_eq!(fs::read(dir.join("c.txt")).unwrap(), b"end");
        assert!(fs::symlink_metadata(dir.join("b.txt")).unwrap().file_type().is_symlink());
        std::os::unix::fs::symlink("y.txt", dir.join("x.txt")).unwrap();
        std::os::unix::fs::symlink("x.txt", dir.join("y.txt")).unwrap();
        let e = write_atomic(&dir.join("x.txt"), b"never").unwrap_err();
        assert!(e.to_string().contains("a loop?"), "{e}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_pipe_is_written_to_and_stays_a_pipe() {
        use std::os::unix::fs::FileTypeExt;
        let dir = scratch("fifo");
        let fifo = dir.join("out.fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("no mkfifo here: skipped");
            return;
        }
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || fs::read(fifo).unwrap())
        };
        write_atomic(&fifo, b"through the pipe").unwrap();
        assert_eq!(reader.join().unwrap(), b"through the pipe");
        assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "the pipe was replaced");
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1, "a temporary file was left");
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
