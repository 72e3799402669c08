//! Writing a file the user named without ever losing one: the bytes go to a
//! temporary file beside the target, which is renamed over it only once
//! complete and on disk. Until then, and after any error or SIGINT/SIGTERM,
//! the target is exactly as it was and no temporary file remains.
//!
//! - Without `--force` the rename fails if the target exists, even one that
//!   appeared after the paths were checked: nothing is overwritten unasked.
//! - A symlink is followed (to its end, also a dangling one): the file it
//!   points to is replaced or created and the link stays a link.
//! - A replaced file keeps its permissions; another hard link to it keeps the
//!   old content (the path gets a new file, as with any atomic replace).
//! - A device node or FIFO cannot be renamed over: it is written in place and
//!   never removed. `-` is standard output.

use std::fs::{File, Permissions};
use std::io::{self, BufWriter, StdoutLock, Write};
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::temporary;

/// Symbolic links followed before giving up, as Linux's own limit (ELOOP).
const MAX_LINKS: usize = 40;

/// `path` with its final symlinks followed to the file they point to (which
/// may not exist); any other path as it is.
pub fn resolve(path: &Path) -> Result<PathBuf> {
    let mut resolved = path.to_owned();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&resolved) {
            Ok(metadata) if metadata.is_symlink() => {
                let link = std::fs::read_link(&resolved)
                    .with_context(|| format!("{}: cannot read the link", path.display()))?;
                resolved = parent(&resolved).join(link);
            }
            _ => return Ok(resolved),
        }
    }
    bail!("{}: more than {MAX_LINKS} symbolic links in a row", path.display())
}

/// The directory a path's file is in (`.` for a bare name).
pub fn parent(path: &Path) -> &Path {
    path.parent().filter(|parent| !parent.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

/// True for what exists but can be neither renamed over nor made a directory
/// of: character and block devices, FIFOs and sockets.
fn is_special(metadata: &std::fs::Metadata) -> bool {
    let kind = metadata.file_type();
    kind.is_char_device() || kind.is_block_device() || kind.is_fifo() || kind.is_socket()
}

/// The temporary file that becomes `target`: hidden, named after it, in its directory
/// (a rename cannot cross file systems). Created with the permissions a new
/// file gets (0666 less the umask), not the 0600 of a private temporary file.
fn temporary_beside(target: &Path) -> io::Result<temporary::File> {
    // Cut, so that the 12 characters added never make a name too long for the file system.
    let name: String =
        target.file_name().unwrap_or_default().to_string_lossy().chars().take(100).collect();
    temporary::file(
        tempfile::Builder::new()
            .prefix(&format!(".{name}."))
            .suffix(".tmp")
            .permissions(Permissions::from_mode(0o666)),
        parent(target),
    )
}

/// Bytes of the probe file: one page, so that a full disk shows before any work.
const PROBE_BYTES: usize = 4096;

/// Fails unless a file can be written beside `target` (`shown` in messages):
/// creates, fills, syncs and removes a probe, as the real write will.
pub fn probe(target: &Path, shown: &Path) -> Result<()> {
    let cannot =
        || format!("{}: cannot write a file in {}", shown.display(), parent(target).display());
    let mut file = temporary_beside(target).with_context(cannot)?;
    file.write_all(&[0; PROBE_BYTES]).and_then(|()| file.as_file().sync_all()).with_context(cannot)
}

/// Writes `path` (or standard output for `-`) with `render`, all or nothing;
/// an existing file is replaced only with `force`.
pub fn write_with<T>(
    path: &Path,
    force: bool,
    render: impl FnOnce(&mut dyn Write) -> Result<T>,
) -> Result<T> {
    let mut output = Output::open(path, force)?;
    let value = render(&mut output)?;
    output.finish()?;
    Ok(value)
}

/// One output being written; see the module's documentation. Dropped without
/// [`Output::finish`], it leaves the target as it was.
pub struct Output {
    /// The path as the user gave it, for messages.
    shown: PathBuf,
    sink: Sink,
}

enum Sink {
    Stdout(BufWriter<StdoutLock<'static>>),
    /// A device node or FIFO.
    InPlace(BufWriter<File>),
    Staged {
        out: BufWriter<temporary::File>,
        /// Where the temporary file goes: the path with its symlinks followed.
        target: PathBuf,
        force: bool,
        /// The replaced file's, kept.
        permissions: Option<Permissions>,
    },
}

impl Output {
    pub fn open(path: &Path, force: bool) -> Result<Output> {
        let shown = path.to_owned();
        if path == Path::new("-") {
            let sink = Sink::Stdout(BufWriter::new(io::stdout().lock()));
            return Ok(Output { shown, sink });
        }
        let target = resolve(path)?;
        let existing = std::fs::metadata(&target).ok();
        let sink = match existing {
            Some(metadata) if metadata.is_dir() => {
                bail!("{}: is a directory; give a file path", path.display())
            }
            Some(_) if !force => {
                bail!("{}: already exists; pass --force to overwrite it", path.display())
            }
            Some(metadata) if is_special(&metadata) => {
                let file = std::fs::OpenOptions::new()
                    .write(true)
                    .open(&target)
                    .with_context(|| format!("{}: cannot open", path.display()))?;
                Sink::InPlace(BufWriter::new(file))
            }
            _ => Sink::Staged {
                out: BufWriter::new(temporary_beside(&target).with_context(|| {
                    format!(
                        "{}: cannot create a file in {}",
                        path.display(),
                        parent(&target).display()
                    )
                })?),
                target,
                force,
                permissions: existing.map(|m| m.permissions()),
            },
        };
        Ok(Output { shown, sink })
    }

    /// Makes the output complete: flushed, and for a file synced to disk and
    /// renamed over its target.
    pub fn finish(self) -> Result<()> {
        let shown = self.shown.display();
        let cannot_write = || format!("{shown}: cannot write");
        match self.sink {
            Sink::Stdout(mut out) => out.flush().context("cannot write to standard output"),
            Sink::InPlace(mut out) => out.flush().with_context(cannot_write),
            Sink::Staged { out, target, force, permissions } => {
                let file =
                    out.into_inner().map_err(|e| e.into_error()).with_context(cannot_write)?;
                if let Some(permissions) = permissions {
                    file.as_file().set_permissions(permissions).with_context(cannot_write)?;
                }
                file.as_file().sync_all().with_context(cannot_write)?;
                file.persist(&target, force).map_err(|e| match e.kind() {
                    io::ErrorKind::AlreadyExists => {
                        anyhow::anyhow!("{shown}: already exists; pass --force to overwrite it")
                    }
                    _ => anyhow::anyhow!("{shown}: cannot replace: {e}"),
                })
            }
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.sink {
            Sink::Stdout(out) => out.write(buf),
            Sink::InPlace(out) => out.write(buf),
            Sink::Staged { out, .. } => out.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.sink {
            Sink::Stdout(out) => out.flush(),
            Sink::InPlace(out) => out.flush(),
            Sink::Staged { out, .. } => out.flush(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names in `dir`, sorted: what a failed write must leave as it was.
    fn listing(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// A writer that fails after `budget` bytes, as a full disk does.
    struct FailingAfter<'a> {
        out: &'a mut dyn Write,
        budget: usize,
    }

    impl Write for FailingAfter<'_> {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if buf.len() > self.budget {
                return Err(io::Error::from_raw_os_error(28)); // ENOSPC
            }
            self.budget -= buf.len();
            self.out.write(buf)
        }

        fn flush(&mut self) -> io::Result<()> {
            self.out.flush()
        }
    }

    /// Renders 1 MiB through a writer that fails a quarter of the way.
    fn fails_midway(out: &mut dyn Write) -> Result<()> {
        let mut failing = FailingAfter { out, budget: 256 << 10 };
        for _ in 0..256 {
            failing.write_all(&[b'x'; 4096])?;
        }
        Ok(())
    }

    #[test]
    fn a_failed_write_leaves_the_target_and_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.json");
        std::fs::write(&target, "old").unwrap();
        let error = write_with(&target, true, fails_midway).unwrap_err();
        assert!(format!("{error:#}").contains("No space left"), "{error:#}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "old");
        assert_eq!(listing(dir.path()), ["out.json"]);
    }

    #[test]
    fn a_failed_write_creates_nothing() {
        let dir = tempfile::tempdir().unwrap();
        write_with(&dir.path().join("new.json"), false, fails_midway).unwrap_err();
        assert!(listing(dir.path()).is_empty());
    }

    #[test]
    fn nothing_is_visible_at_the_target_until_finished() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.json");
        std::fs::write(&target, "old").unwrap();
        let mut output = Output::open(&target, true).unwrap();
        output.write_all(&[b'x'; 100_000]).unwrap();
        output.flush().unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "old");
        assert_eq!(listing(dir.path()).len(), 2, "the target and one temporary file");
        output.finish().unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), [b'x'; 100_000]);
        assert_eq!(listing(dir.path()), ["out.json"]);
    }

    #[test]
    fn a_file_that_appears_meanwhile_is_kept_without_force() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.json");
        let mut output = Output::open(&target, false).unwrap();
        output.write_all(b"ours").unwrap();
        std::fs::write(&target, "theirs").unwrap();
        let error = output.finish().unwrap_err().to_string();
        assert_eq!(
            error,
            format!("{}: already exists; pass --force to overwrite it", target.display())
        );
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "theirs");
        assert_eq!(listing(dir.path()), ["out.json"]);
    }

    #[test]
    fn a_replaced_file_keeps_its_permissions() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.json");
        std::fs::write(&target, "old").unwrap();
        std::fs::set_permissions(&target, Permissions::from_mode(0o640)).unwrap();
        write_with(&target, true, |out| Ok(out.write_all(b"new")?)).unwrap();
        let mode = std::fs::metadata(&target).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
    }

    #[test]
    fn a_symlink_stays_a_link_to_the_replaced_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("data")).unwrap();
        let file = dir.path().join("data/out.json");
        let link = dir.path().join("link.json");
        std::fs::write(&file, "old").unwrap();
        std::os::unix::fs::symlink("data/out.json", &link).unwrap();
        write_with(&link, true, |out| Ok(out.write_all(b"new")?)).unwrap();
        assert!(link.symlink_metadata().unwrap().is_symlink());
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "new");
        assert_eq!(listing(dir.path()), ["data", "link.json"]);
        assert_eq!(listing(&dir.path().join("data")), ["out.json"]);
    }

    #[test]
    fn a_dangling_symlink_gets_the_file_it_names() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink("missing.json", &link).unwrap();
        write_with(&link, false, |out| Ok(out.write_all(b"new")?)).unwrap();
        assert!(link.symlink_metadata().unwrap().is_symlink());
        assert_eq!(std::fs::read_to_string(dir.path().join("missing.json")).unwrap(), "new");
    }

    #[test]
    fn a_device_is_written_in_place_and_kept() {
        let error =
            write_with(Path::new("/dev/full"), true, |out| Ok(out.write_all(&[0; 1 << 16])?))
                .unwrap_err();
        assert!(format!("{error:#}").contains("No space left"), "{error:#}");
        assert!(Path::new("/dev/full").exists());
        write_with(Path::new("/dev/null"), true, |out| Ok(out.write_all(b"x")?)).unwrap();
        assert!(Path::new("/dev/null").exists());
    }

    #[test]
    fn a_name_as_long_as_the_file_system_allows_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("x".repeat(255));
        write_with(&target, false, |out| Ok(out.write_all(b"new")?)).unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
    }

    #[test]
    fn a_loop_of_links_is_one_line() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        std::os::unix::fs::symlink(&b, &a).unwrap();
        std::os::unix::fs::symlink(&a, &b).unwrap();
        let error = Output::open(&a, true).err().unwrap().to_string();
        assert_eq!(error, format!("{}: more than 40 symbolic links in a row", a.display()));
    }
}
