//! Opening a capture: a file or bytes in memory, gzip detected by its magic
//! number, with the counts needed to name byte offsets in error messages.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Cursor, Read};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use anyhow::{Context, Result, bail};

const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];
const READ_BUFFER: usize = 1 << 20;

/// Where capture bytes come from.
#[derive(Debug, Clone)]
pub enum Source {
    File(PathBuf),
    /// A capture made in memory (the embedded default); `name` stands in for a path in messages.
    Memory { name: String, bytes: Arc<[u8]> },
}

impl Source {
    pub fn name(&self) -> String {
        match self {
            Source::File(path) => path.display().to_string(),
            Source::Memory { name, .. } => name.clone(),
        }
    }
}

/// Counters shared with the reader handed to the pcap parser, which only
/// reports "read error" and never the byte count.
#[derive(Debug, Default)]
pub struct Progress {
    /// Bytes delivered to the parser (decompressed when gzip).
    pub delivered: AtomicU64,
    /// Bytes taken from the file by the gzip decoder.
    pub compressed: AtomicU64,
    pub io_error: Mutex<Option<io::Error>>,
}

pub struct Opened {
    pub reader: Box<dyn Read + Send>,
    pub gzip: bool,
    pub progress: Arc<Progress>,
}

/// Opens `source`, undoing gzip if its first bytes say so.
pub fn open(source: &Source) -> Result<Opened> {
    let name = source.name();
    let raw: Box<dyn Read + Send> = match source {
        Source::File(path) => Box::new(File::open(path).with_context(|| format!("{name}: cannot open"))?),
        Source::Memory { bytes, .. } => Box::new(Cursor::new(bytes.clone())),
    };
    let progress = Arc::new(Progress::default());
    let mut buffered = BufReader::with_capacity(READ_BUFFER, raw);
    let head = buffered.fill_buf().with_context(|| format!("{name}: cannot read"))?;
    if head.is_empty() {
        bail!("{name}: empty file (0 bytes), expected a pcap or pcapng capture");
    }
    let gzip = head.starts_with(&GZIP_MAGIC);
    let reader: Box<dyn Read + Send> = if gzip {
        let counted = Counting { inner: buffered, count: progress.clone() };
        Box::new(flate2::read::MultiGzDecoder::new(counted))
    } else {
        Box::new(buffered)
    };
    Ok(Opened { reader: Box::new(FillingReader { inner: reader, progress: progress.clone() }), gzip, progress })
}

/// Reads `len` bytes at `offset` of the (decompressed) stream: used only to
/// describe a damaged final record, so re-reading from the start is fine.
pub fn bytes_at(source: &Source, offset: u64, len: usize) -> Vec<u8> {
    let Ok(mut opened) = open(source) else { return Vec::new() };
    if io::copy(&mut (&mut opened.reader).take(offset), &mut io::sink()).is_err() {
        return Vec::new();
    }
    let mut bytes = Vec::with_capacity(len);
    let _ = opened.reader.take(len as u64).read_to_end(&mut bytes);
    bytes
}

struct Counting<R> {
    inner: R,
    count: Arc<Progress>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.compressed.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// Fills the caller's buffer completely unless the stream ends (a gzip decoder
/// returns short reads, and the pcap parser takes a short first read for a
/// short file), counts what it delivers, and keeps the I/O error the parser drops.
struct FillingReader {
    inner: Box<dyn Read + Send>,
    progress: Arc<Progress>,
}

impl Read for FillingReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut filled = 0;
        while filled < buf.len() {
            match self.inner.read(&mut buf[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    let kind = e.kind();
                    *self.progress.io_error.lock().unwrap() = Some(e);
                    return Err(io::Error::from(kind));
                }
            }
        }
        self.progress.delivered.fetch_add(filled as u64, Ordering::Relaxed);
        Ok(filled)
    }
}
