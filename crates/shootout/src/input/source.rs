//! Where input bytes come from, read once per pass: a file, standard input or
//! bytes in memory. Every pass counts and hashes the raw bytes it reads, so a
//! reader can report progress and the SHA-256 of exactly what it parsed.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, Cursor, Read, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::{Arc, LazyLock, Mutex, PoisonError};

use crate::document::InputFile;
use anyhow::{Context, Result, bail};
use sha2::{Digest, Sha256};

/// Where input bytes come from.
#[derive(Debug, Clone)]
pub enum Source {
    File(PathBuf),
    /// `--input -`.
    Stdin,
    /// Bytes made in memory (the embedded default); `name` stands in for a path in messages.
    Memory {
        name: String,
        bytes: Arc<[u8]>,
    },
}

impl Source {
    /// What the results record of the file a pass read (`bytes` long, its
    /// SHA-256 `sha256`): nothing for records held in memory.
    pub fn input_file(&self, bytes: u64, sha256: String) -> Option<InputFile> {
        match self {
            Source::Memory { .. } => None,
            Source::File(_) | Source::Stdin => Some(InputFile { path: self.name(), bytes, sha256 }),
        }
    }

    /// A command-line input: `-` is standard input.
    pub fn from_arg(path: PathBuf) -> Source {
        if path.as_os_str() == "-" { Source::Stdin } else { Source::File(path) }
    }

    pub fn name(&self) -> String {
        match self {
            Source::File(path) => path.display().to_string(),
            Source::Stdin => "standard input".to_owned(),
            Source::Memory { name, .. } => name.clone(),
        }
    }

    /// Opens the raw bytes for one pass. A non-regular file (standard input, a
    /// FIFO, process substitution) can be read only once: its bytes are copied
    /// to a temporary file as the first pass reads them, and later passes read
    /// that copy.
    pub fn open(&self) -> Result<Raw> {
        let name = self.name();
        match self {
            Source::Memory { bytes, .. } => {
                Ok(Raw::new(Inner::Memory(Cursor::new(bytes.clone())), Some(bytes.len() as u64)))
            }
            Source::Stdin => spooled(SpoolKey::Stdin, || Ok(Box::new(io::stdin()))),
            Source::File(path) => {
                if let Some(spool) = SPOOLS
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .get(&SpoolKey::Path(path.clone()))
                {
                    return Ok(SpoolReader::open(spool.clone()));
                }
                let file = File::open(path).with_context(|| format!("{name}: cannot open"))?;
                let metadata = file.metadata().with_context(|| format!("{name}: cannot read"))?;
                if metadata.is_dir() {
                    bail!("{name}: is a directory, expected a file");
                }
                if metadata.is_file() {
                    Ok(Raw::new(Inner::File(file), Some(metadata.len())))
                } else {
                    spooled(SpoolKey::Path(path.clone()), || Ok(Box::new(file)))
                }
            }
        }
    }
}

/// One pass's raw bytes. A thread of their own reads them a few chunks ahead
/// of the caller, counts and hashes them: SHA-256 costs about as much as
/// parsing a capture, and this way the two run side by side.
pub struct Raw {
    chunks: Receiver<io::Result<(Vec<u8>, usize)>>,
    /// Chunks the caller is done with, for the thread to fill again.
    recycle: SyncSender<Vec<u8>>,
    current: Vec<u8>,
    filled: usize,
    at: usize,
    ended: bool,
    tap: Arc<Tap>,
}

const CHUNK: usize = 1 << 20;
/// Chunks read but not yet taken: with the one being filled and the one being
/// taken, memory stays within a few MiB.
const CHUNKS_AHEAD: usize = 2;

enum Inner {
    File(File),
    Spool(SpoolReader),
    Memory(Cursor<Arc<[u8]>>),
}

impl Read for Inner {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Inner::File(file) => file.read(buf),
            Inner::Spool(spool) => spool.read(buf),
            Inner::Memory(cursor) => cursor.read(buf),
        }
    }
}

/// What a pass has read so far, shared with readers stacked on top of the raw
/// bytes (a gzip decoder, a parser's buffer) that hide the raw stream.
#[derive(Debug)]
pub struct Tap {
    read: AtomicU64,
    total: Option<u64>,
    sha256: Mutex<Sha256>,
}

impl Tap {
    /// Raw bytes read so far, and the input's size when known.
    pub fn progress(&self) -> (u64, Option<u64>) {
        (self.read.load(Ordering::Relaxed), self.total)
    }

    /// Size and SHA-256 (hex) of the bytes read so far: of the whole input once
    /// the pass reached its end.
    pub fn digest(&self) -> (u64, String) {
        let sha256 = self.sha256.lock().unwrap_or_else(PoisonError::into_inner).clone().finalize();
        (self.read.load(Ordering::Relaxed), sha256.iter().map(|b| format!("{b:02x}")).collect())
    }
}

impl Raw {
    fn new(mut inner: Inner, total: Option<u64>) -> Raw {
        let tap =
            Arc::new(Tap { read: AtomicU64::new(0), total, sha256: Mutex::new(Sha256::new()) });
        let (sender, chunks) = mpsc::sync_channel(CHUNKS_AHEAD);
        let (recycle, recycled) = mpsc::sync_channel::<Vec<u8>>(CHUNKS_AHEAD + 2);
        let counted = tap.clone();
        // The thread ends at the end of the input, on an error, or when the `Raw` is dropped.
        std::thread::spawn(move || {
            loop {
                let mut chunk = recycled.try_recv().unwrap_or_else(|_| vec![0; CHUNK]);
                let n = loop {
                    match inner.read(&mut chunk) {
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(e) => {
                            let _ = sender.send(Err(e));
                            return;
                        }
                        Ok(n) => break n,
                    }
                };
                counted.sha256.lock().unwrap_or_else(PoisonError::into_inner).update(&chunk[..n]);
                counted.read.fetch_add(n as u64, Ordering::Relaxed);
                if sender.send(Ok((chunk, n))).is_err() || n == 0 {
                    return;
                }
            }
        });
        Raw { chunks, recycle, current: Vec::new(), filled: 0, at: 0, ended: false, tap }
    }

    pub fn tap(&self) -> Arc<Tap> {
        self.tap.clone()
    }
}

impl Read for Raw {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.filled {
            if self.ended {
                return Ok(0);
            }
            let taken = std::mem::take(&mut self.current);
            if !taken.is_empty() {
                let _ = self.recycle.try_send(taken);
            }
            match self.chunks.recv() {
                Ok(Ok((chunk, n))) => {
                    (self.current, self.filled, self.at, self.ended) = (chunk, n, 0, n == 0);
                }
                Ok(Err(e)) => {
                    self.ended = true;
                    return Err(e);
                }
                Err(mpsc::RecvError) => {
                    self.ended = true;
                    return Err(io::Error::other("the thread reading the input stopped"));
                }
            }
        }
        let n = buf.len().min(self.filled - self.at);
        buf[..n].copy_from_slice(&self.current[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum SpoolKey {
    Stdin,
    Path(PathBuf),
}

/// A pipe's bytes can be read only once per process, so their copy belongs to
/// the process, not to one `Source` value.
static SPOOLS: LazyLock<Mutex<HashMap<SpoolKey, Arc<Mutex<Spool>>>>> =
    LazyLock::new(Default::default);

/// The bytes of a pipe read so far, in an unnamed temporary file the system
/// deletes when the process ends, and the pipe itself until its end.
struct Spool {
    copy: File,
    len: u64,
    pipe: Option<Box<dyn Read + Send>>,
}

fn spooled(key: SpoolKey, open_pipe: impl FnOnce() -> Result<Box<dyn Read + Send>>) -> Result<Raw> {
    let mut spools = SPOOLS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(spool) = spools.get(&key) {
        return Ok(SpoolReader::open(spool.clone()));
    }
    let copy = tempfile::tempfile()
        .context("cannot create a temporary file to keep a copy of piped input")?;
    let spool = Arc::new(Mutex::new(Spool { copy, len: 0, pipe: Some(open_pipe()?) }));
    spools.insert(key, spool.clone());
    Ok(SpoolReader::open(spool))
}

/// Reads a spool from its start: what is copied already, then more of the pipe,
/// copied as it goes, so a pass stopped early leaves nothing unread for the next.
struct SpoolReader {
    spool: Arc<Mutex<Spool>>,
    at: u64,
}

impl SpoolReader {
    fn open(spool: Arc<Mutex<Spool>>) -> Raw {
        let total = {
            let spool = spool.lock().unwrap_or_else(PoisonError::into_inner);
            spool.pipe.is_none().then_some(spool.len)
        };
        Raw::new(Inner::Spool(SpoolReader { spool, at: 0 }), total)
    }

    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut guard = self.spool.lock().unwrap_or_else(PoisonError::into_inner);
        let spool = &mut *guard;
        if self.at < spool.len {
            spool.copy.seek(SeekFrom::Start(self.at))?;
            let n = (&mut spool.copy).take(spool.len - self.at).read(buf)?;
            self.at += n as u64;
            return Ok(n);
        }
        let Some(pipe) = &mut spool.pipe else {
            return Ok(0);
        };
        let n = pipe.read(buf)?;
        if n == 0 {
            spool.pipe = None;
            return Ok(0);
        }
        spool.copy.seek(SeekFrom::End(0))?;
        spool.copy.write_all(&buf[..n])?;
        spool.len += n as u64;
        self.at += n as u64;
        Ok(n)
    }
}

/// Fills the caller's buffer completely unless the stream ends: a gzip decoder
/// and a pipe return short reads, and the pcap parser takes a short first read
/// for a short file. Keeps the I/O error the parser reduces to "read error".
pub struct Filling<R> {
    inner: R,
    pub error: Arc<Mutex<Option<io::Error>>>,
}

impl<R: Read> Filling<R> {
    pub fn new(inner: R) -> Self {
        Filling { inner, error: Arc::default() }
    }
}

impl<R: Read> Read for Filling<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut filled = 0;
        while filled < buf.len() {
            match self.inner.read(&mut buf[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    let kind = e.kind();
                    *self.error.lock().unwrap_or_else(PoisonError::into_inner) = Some(e);
                    return Err(io::Error::from(kind));
                }
            }
        }
        Ok(filled)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(source: &Source) -> (Vec<u8>, Arc<Tap>) {
        let mut raw = source.open().unwrap();
        let mut bytes = Vec::new();
        raw.read_to_end(&mut bytes).unwrap();
        (bytes, raw.tap())
    }

    /// A FIFO that a thread fills with `payload` once a reader opens it.
    fn fifo(payload: &[u8]) -> (tempfile::TempDir, Source, std::thread::JoinHandle<()>) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("fifo");
        assert!(std::process::Command::new("mkfifo").arg(&path).status().unwrap().success());
        let (writer_end, payload) = (path.clone(), payload.to_vec());
        let writer = std::thread::spawn(move || std::fs::write(writer_end, payload).unwrap());
        (dir, Source::File(path), writer)
    }

    #[test]
    fn a_pipe_is_read_once_and_replayed_from_its_copy() {
        let payload: Vec<u8> = (0..300_000u32).map(|i| (i % 251) as u8).collect();
        let (_dir, source, writer) = fifo(&payload);
        let (first, tap) = read_all(&source);
        writer.join().unwrap();
        assert_eq!(first, payload);
        assert_eq!(
            tap.progress(),
            (payload.len() as u64, None),
            "a pipe's size is unknown on the first pass"
        );
        let (second, tap) = read_all(&source);
        assert_eq!(second, payload);
        assert_eq!(tap.progress(), (payload.len() as u64, Some(payload.len() as u64)));
    }

    #[test]
    fn a_pass_stopped_early_leaves_the_rest_for_the_next() {
        let payload: Vec<u8> = (0..100_000u32).map(|i| (i % 13) as u8).collect();
        let (_dir, source, writer) = fifo(&payload);
        let mut partial = [0; 1000];
        source.open().unwrap().read_exact(&mut partial).unwrap();
        let (whole, _) = read_all(&source);
        writer.join().unwrap();
        assert_eq!(whole, payload);
    }

    #[test]
    fn digest_is_the_sha256_of_the_bytes_as_given() {
        let source = Source::Memory { name: "m".into(), bytes: Arc::from(&b"abc"[..]) };
        let (_, tap) = read_all(&source);
        assert_eq!(
            tap.digest(),
            (3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad".to_owned())
        );
    }
}
