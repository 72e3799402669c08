//! Temporary files and directories that disappear however shootout ends: when
//! dropped (success or error) and on SIGINT or SIGTERM, when no destructor runs.
//!
//! Every one is listed while it lives. The first one created starts a thread
//! that waits for those signals, removes everything listed and then lets the
//! signal end the process as it would have without a handler, so a shell or a
//! parent process still sees that it was interrupted.

use std::io;
use std::ops::{Deref, DerefMut};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

/// The paths of every live temporary file and directory.
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Held while a path is added, renamed away or removed, and by the signal
/// thread until the process is gone: a signal never sees half of a change.
fn live() -> MutexGuard<'static, Vec<PathBuf>> {
    LIVE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Starts the signal thread once; later calls return how that went.
fn watch_signals() -> io::Result<()> {
    static WATCHING: OnceLock<Result<(), String>> = OnceLock::new();
    WATCHING
        .get_or_init(|| {
            let mut signals = Signals::new([SIGINT, SIGTERM]).map_err(|e| e.to_string())?;
            std::thread::Builder::new()
                .name("signals".into())
                .spawn(move || {
                    if let Some(signal) = signals.forever().next() {
                        let live = live();
                        live.iter().for_each(|path| remove(path));
                        // Dies of the signal while still holding the list, so nothing renames or creates meanwhile.
                        let _ = signal_hook::low_level::emulate_default_handler(signal);
                        std::process::exit(128 + signal);
                    }
                })
                .map(drop)
                .map_err(|e| e.to_string())
        })
        .clone()
        .map_err(|e| io::Error::other(format!("cannot watch for SIGINT and SIGTERM: {e}")))
}

fn remove(path: &Path) {
    let _ = match std::fs::symlink_metadata(path) {
        Ok(metadata) if metadata.is_dir() => std::fs::remove_dir_all(path),
        _ => std::fs::remove_file(path),
    };
}

/// Adds what `create` makes to the list, under the lock, so that no signal
/// finds it made but not listed.
fn listed<T>(create: impl FnOnce() -> io::Result<T>, path: impl Fn(&T) -> &Path) -> io::Result<T> {
    watch_signals()?;
    let mut live = live();
    let made = create()?;
    live.push(std::path::absolute(path(&made))?);
    Ok(made)
}

fn unlist(path: &Path, live: &mut Vec<PathBuf>) {
    if let Ok(path) = std::path::absolute(path) {
        live.retain(|p| *p != path);
    }
}

/// A temporary file made by `builder` in `dir`, removed unless [`File::persist`]ed.
pub fn file(builder: &tempfile::Builder, dir: &Path) -> io::Result<File> {
    let inner = listed(|| builder.tempfile_in(dir), |f| f.path())?;
    Ok(File { inner: Some(inner) })
}

/// A temporary file in the system's temporary directory.
pub fn system_file(builder: &tempfile::Builder) -> io::Result<File> {
    file(builder, &std::env::temp_dir())
}

/// A temporary directory in the system's temporary directory, removed with
/// everything in it.
pub fn system_dir(builder: &tempfile::Builder) -> io::Result<Dir> {
    let inner = listed(|| builder.tempdir(), |d| d.path())?;
    Ok(Dir { inner: Some(inner) })
}

/// A listed [`tempfile::NamedTempFile`].
pub struct File {
    /// `None` only once persisted or dropped.
    inner: Option<tempfile::NamedTempFile>,
}

impl File {
    /// Renames the file to `target`: over an existing file when `replace`, else
    /// only if nothing is there (an existing file is then an `AlreadyExists`
    /// error). On an error the temporary file is removed when this is dropped.
    pub fn persist(mut self, target: &Path, replace: bool) -> io::Result<()> {
        let mut live = live();
        let file = self.inner.take().expect("a live temporary file");
        let path = file.path().to_owned();
        let persisted = match replace {
            true => file.persist(target).map(drop),
            false => file.persist_noclobber(target).map(drop),
        };
        match persisted {
            Ok(()) => {
                unlist(&path, &mut live);
                Ok(())
            }
            Err(e) => {
                self.inner = Some(e.file);
                Err(e.error)
            }
        }
    }
}

impl Deref for File {
    type Target = tempfile::NamedTempFile;

    fn deref(&self) -> &Self::Target {
        self.inner.as_ref().expect("a live temporary file")
    }
}

impl DerefMut for File {
    fn deref_mut(&mut self) -> &mut Self::Target {
        self.inner.as_mut().expect("a live temporary file")
    }
}

impl io::Write for File {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.deref_mut().write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.deref_mut().flush()
    }
}

impl Drop for File {
    fn drop(&mut self) {
        if let Some(inner) = self.inner.take() {
            let path = inner.path().to_owned();
            // Removed first, unlisted after: a signal in between removes nothing that is there.
            drop(inner);
            unlist(&path, &mut live());
        }
    }
}

/// A listed [`tempfile::TempDir`].
pub struct Dir {
    /// `None` only once dropped.
    inner: Option<tempfile::TempDir>,
}

impl Dir {
    pub fn path(&self) -> &Path {
        self.inner.as_ref().expect("a live temporary directory").path()
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        if let Some(inner) = self.inner.take() {
            let path = inner.path().to_owned();
            drop(inner);
            unlist(&path, &mut live());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listed_now(path: &Path) -> bool {
        live().contains(&std::path::absolute(path).unwrap())
    }

    #[test]
    fn a_dropped_file_is_removed_and_unlisted() {
        let dir = tempfile::tempdir().unwrap();
        let file = file(&tempfile::Builder::new(), dir.path()).unwrap();
        let path = file.path().to_owned();
        assert!(path.exists() && listed_now(&path));
        drop(file);
        assert!(!path.exists() && !listed_now(&path));
    }

    #[test]
    fn a_persisted_file_stays_and_is_unlisted() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target");
        let file = file(&tempfile::Builder::new(), dir.path()).unwrap();
        let path = file.path().to_owned();
        file.persist(&target, false).unwrap();
        assert!(target.exists() && !path.exists() && !listed_now(&path));
    }

    #[test]
    fn persisting_without_replace_keeps_an_existing_target_and_removes_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target");
        std::fs::write(&target, "old").unwrap();
        let mut file = file(&tempfile::Builder::new(), dir.path()).unwrap();
        io::Write::write_all(&mut file, b"new").unwrap();
        let path = file.path().to_owned();
        let error = file.persist(&target, false).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "old");
        assert!(!path.exists() && !listed_now(&path));
    }

    #[test]
    fn a_dropped_directory_is_removed_with_its_files() {
        let dir = system_dir(&tempfile::Builder::new()).unwrap();
        let path = dir.path().to_owned();
        std::fs::write(path.join("stream"), "bytes").unwrap();
        assert!(listed_now(&path));
        drop(dir);
        assert!(!path.exists() && !listed_now(&path));
    }
}
