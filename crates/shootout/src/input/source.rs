//! Where input bytes come from, read once per pass: a file, standard input or
//! bytes in memory. Every pass counts and hashes the raw bytes it reads, so a
//! reader can report progress and the SHA-256 of exactly what it parsed.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, Cursor, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
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

/// What the tool reads of one kind of file, at the most (docs/your-data.md,
/// "Inputs, limits and errors"): far beyond any real file of the kind, and small enough that
/// what is built from one stays within a few hundred MB whatever the file.
#[derive(Debug, Clone, Copy)]
pub struct Cap {
    /// The kind, as errors name it: "a .proto schema".
    pub what: &'static str,
    pub bytes: u64,
}

/// A results file (docs/results.md): a run of every language in 30 processes writes about 2 MB.
pub const RESULTS_FILE: Cap = Cap { what: "a results file", bytes: 64 << 20 };
/// A matrix, study result or replay given to `report --attach`.
pub const ATTACHMENT_FILE: Cap = Cap { what: "an attachment", bytes: 64 << 20 };
/// A `--schema` `.proto` and each file it imports, or an `.avsc`: real schemas are kilobytes.
pub const SCHEMA_FILE: Cap = Cap { what: "a schema file", bytes: 4 << 20 };
/// A `.proto` and every file it imports, together.
pub const SCHEMA_FILES: u64 = 16 << 20;
/// An interop manifest: a dozen short fields.
pub const MANIFEST_FILE: Cap = Cap { what: "an interop manifest", bytes: 1 << 20 };
/// A robustness case file (`robustness --replay`): a few records and their mutants.
pub const CASE_FILE: Cap = Cap { what: "a robustness case file", bytes: 64 << 20 };
/// One line of JSON Lines, and the lines one window holds: a line's value
/// takes up to 16 times its text in memory (`[0,0,…]`).
pub const JSONL_LINE: Cap = Cap { what: "a JSON Lines line", bytes: 16 << 20 };
/// One record (row) of a CSV file, quoted line breaks included.
pub const CSV_RECORD: Cap = Cap { what: "a CSV record", bytes: 16 << 20 };
/// One record of an interop stream, its framing included.
pub const STREAM_RECORD: Cap = Cap { what: "an interop record", bytes: 64 << 20 };

impl Cap {
    /// `64 MiB`.
    pub fn shown(&self) -> String {
        match self.bytes {
            b if b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
            b if b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
            b => format!("{b} bytes"),
        }
    }

    /// `expected at most 67108864 (64 MiB) for a results file`.
    pub fn expected(&self) -> String {
        format!("expected at most {} ({}) for {}", self.bytes, self.shown(), self.what)
    }

    /// The one line for `name` holding `found` ("104857600 bytes", "more than 67108864 bytes").
    pub fn exceeded(&self, name: &str, found: &str) -> anyhow::Error {
        anyhow::anyhow!("{name}: {found}; {}", self.expected())
    }
}

/// Opens `path` for reading if it is a regular file (after symlinks), or
/// one line naming what it is: a directory, a FIFO (which would wait for a
/// writer), a device or a socket.
pub fn open_regular(path: &Path, name: &str) -> Result<File> {
    let checked = |metadata: io::Result<std::fs::Metadata>| {
        let metadata = metadata.with_context(|| format!("{name}: cannot read"))?;
        match irregular(&metadata) {
            Some(what) => Err(not_regular(name, what)),
            None => Ok(()),
        }
    };
    checked(std::fs::metadata(path))?;
    let file = File::open(path).with_context(|| format!("{name}: cannot read"))?;
    // The path may have been swapped between the two calls.
    checked(file.metadata())?;
    Ok(file)
}

/// What a file that is not a regular one is, as an error names it.
fn irregular(metadata: &std::fs::Metadata) -> Option<&'static str> {
    let kind = metadata.file_type();
    Some(match () {
        () if kind.is_file() => return None,
        () if kind.is_dir() => "a directory",
        () if kind.is_fifo() => "a FIFO",
        () if kind.is_char_device() || kind.is_block_device() => "a device",
        () if kind.is_socket() => "a socket",
        () => "neither a file nor a directory",
    })
}

fn not_regular(name: &str, what: &str) -> anyhow::Error {
    anyhow::anyhow!("{name}: not a regular file ({what}); expected a file")
}

/// The whole of a regular file of kind `cap` (a FIFO, which would wait for
/// a writer, or a device is refused), or one line naming the file and the
/// cap, by the file's size before a byte is read.
pub fn read_whole(path: &Path, name: &str, cap: &Cap) -> Result<Vec<u8>> {
    read_capped(open_regular(path, name)?, name, cap)
}

/// As [`read_whole`], where a pipe or a device may stand for the file too
/// (`report <(…)`): it is read up to the cap and refused as soon as it has
/// given one byte more.
pub fn read_whole_or_pipe(path: &Path, name: &str, cap: &Cap) -> Result<Vec<u8>> {
    let file = File::open(path).map_err(|e| anyhow::anyhow!("{name}: cannot read: {e}"))?;
    read_capped(file, name, cap)
}

fn read_capped(file: File, name: &str, cap: &Cap) -> Result<Vec<u8>> {
    let cannot = |e: io::Error| anyhow::anyhow!("{name}: cannot read: {e}");
    let metadata = file.metadata().map_err(cannot)?;
    if metadata.is_dir() {
        return Err(not_regular(name, "a directory"));
    }
    let size = metadata.is_file().then_some(metadata.len());
    if let Some(size) = size.filter(|&size| size > cap.bytes) {
        return Err(cap.exceeded(name, &format!("{size} bytes")));
    }
    let mut text = Vec::with_capacity(size.unwrap_or(0) as usize);
    file.take(cap.bytes + 1).read_to_end(&mut text).map_err(cannot)?;
    if text.len() as u64 > cap.bytes {
        return Err(cap.exceeded(name, &format!("more than {} bytes", cap.bytes)));
    }
    Ok(text)
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

/// Whether passes hash what they read. Off only in the process counting
/// instructions under Valgrind (`run --instructions`), which reports no input
/// file, and which Valgrind could not run: a `target-cpu=native` build hashes
/// with the CPU's SHA instructions, which Valgrind does not decode.
static HASHING: AtomicBool = AtomicBool::new(true);

/// From now on, passes leave their input unhashed: its digest reads as empty.
pub fn stop_hashing() {
    HASHING.store(false, Ordering::Relaxed);
}

/// What a pass has read so far, shared with readers stacked on top of the raw
/// bytes (a gzip decoder, a parser's buffer) that hide the raw stream.
#[derive(Debug)]
pub struct Tap {
    read: AtomicU64,
    total: Option<u64>,
    /// `None` once [`stop_hashing`] was called.
    sha256: Option<Mutex<Sha256>>,
}

impl Tap {
    /// Raw bytes read so far, and the input's size when known.
    pub fn progress(&self) -> (u64, Option<u64>) {
        (self.read.load(Ordering::Relaxed), self.total)
    }

    /// Size and SHA-256 (hex) of the bytes read so far: of the whole input once
    /// the pass reached its end.
    pub fn digest(&self) -> (u64, String) {
        let hex = self.sha256.as_ref().map_or_else(String::new, |sha256| {
            let digest = sha256.lock().unwrap_or_else(PoisonError::into_inner).clone().finalize();
            digest.iter().map(|b| format!("{b:02x}")).collect()
        });
        (self.read.load(Ordering::Relaxed), hex)
    }
}

impl Raw {
    fn new(mut inner: Inner, total: Option<u64>) -> Raw {
        let tap = Arc::new(Tap {
            read: AtomicU64::new(0),
            total,
            sha256: HASHING.load(Ordering::Relaxed).then(|| Mutex::new(Sha256::new())),
        });
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
                if let Some(sha256) = &counted.sha256 {
                    sha256.lock().unwrap_or_else(PoisonError::into_inner).update(&chunk[..n]);
                }
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

    /// A cap of 10 bytes, for files of a few.
    const SMALL: Cap = Cap { what: "a test file", bytes: 10 };

    #[test]
    fn a_file_read_whole_is_a_regular_file_within_its_cap() {
        let dir = tempfile::tempdir().unwrap();
        let fits = dir.path().join("fits");
        std::fs::write(&fits, b"0123456789").unwrap();
        assert_eq!(read_whole(&fits, "fits", &SMALL).unwrap(), b"0123456789");
        std::fs::write(&fits, b"0123456789!").unwrap();
        assert_eq!(
            read_whole(&fits, "fits", &SMALL).unwrap_err().to_string(),
            "fits: 11 bytes; expected at most 10 (10 bytes) for a test file"
        );
        let error = |path: &Path| read_whole(path, "it", &SMALL).unwrap_err().to_string();
        assert_eq!(error(dir.path()), "it: not a regular file (a directory); expected a file");
        assert_eq!(
            error(Path::new("/dev/zero")),
            "it: not a regular file (a device); expected a file"
        );
        // No writer ever comes: opening it would wait forever.
        let fifo = dir.path().join("fifo");
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        assert_eq!(error(&fifo), "it: not a regular file (a FIFO); expected a file");
        assert_eq!(
            read_whole_or_pipe(Path::new("/dev/zero"), "zero", &SMALL).unwrap_err().to_string(),
            "zero: more than 10 bytes; expected at most 10 (10 bytes) for a test file"
        );
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
