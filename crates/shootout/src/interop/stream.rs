//! Streams on disk: Rust's encoder writing them, any language's read back and
//! cut into records' bodies (by the `.ends` offsets and the framing), re-framed
//! for a consumer that delimits records differently, compared byte for byte,
//! and decoded by a Rust codec.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail, ensure};
use sha2::{Digest, Sha256};

use super::{Answer, Identity, MANIFEST_SCHEMA, Manifest, Status};
use crate::benchmark::Registered;
use crate::caught::quietly;
use crate::format::{FormatInfo, Framing};
use crate::input::DEFAULT_WINDOW;
use crate::input::Input;
use crate::input::source::{STREAM_RECORD, open_regular};
use crate::workload::Workload;

/// Encodes every record of `input`, in order, with one codec into
/// `dir/rust-<format>.bin` (+ `.ends`, `.json`), as the harness's encode pass does.
pub fn encode_all<W: Workload>(
    input: &dyn Input<W>,
    info: &FormatInfo,
    mut codec: Box<dyn crate::benchmark::DynCodec<W>>,
    dir: &Path,
) -> Result<Manifest> {
    let stem = format!("rust-{}", info.name);
    let bin = dir.join(format!("{stem}.bin"));
    let mut out = BufWriter::new(
        std::fs::File::create(&bin).with_context(|| format!("{}: cannot create", bin.display()))?,
    );
    let ends_file = dir.join(format!("{stem}.ends"));
    let mut ends = BufWriter::new(
        std::fs::File::create(&ends_file)
            .with_context(|| format!("{}: cannot create", ends_file.display()))?,
    );
    let mut hash = Sha256::new();
    let mut written = 0u64;
    let mut records = 0u64;
    let mut error = None;
    let mut stream = Vec::new();
    let mut reader = input.open()?;
    'windows: while let Some(window) = reader.next_window(DEFAULT_WINDOW)? {
        stream.clear();
        for &i in window.order {
            if let Err(e) = codec.encode(&window.records[i as usize], &mut stream) {
                error = Some(format!("record {records}: {e:#}"));
                break 'windows;
            }
            records += 1;
            ends.write_all(&(written + stream.len() as u64).to_le_bytes())?;
        }
        out.write_all(&stream)?;
        hash.update(&stream);
        written += stream.len() as u64;
    }
    out.flush()?;
    ends.flush()?;
    drop((out, ends));
    let manifest = Manifest {
        schema: MANIFEST_SCHEMA.to_owned(),
        language: "rust".to_owned(),
        format: info.name.to_owned(),
        wire: None,
        family: info.family.name().to_owned(),
        library: info.library.to_owned(),
        version: crate::environment::crate_version(info.library).to_owned(),
        workload: W::NAME.to_owned(),
        records,
        framing: Some(info.framing),
        stream: error.is_none().then(|| format!("{stem}.bin")),
        bytes: written,
        sha256: error.is_none().then(|| crate::input::capture::hex(&hash.finalize())),
        error,
    };
    if manifest.error.is_some() {
        std::fs::remove_file(&bin).ok();
        std::fs::remove_file(&ends_file).ok();
    }
    let path = dir.join(format!("{stem}.json"));
    std::fs::write(&path, serde_json::to_vec_pretty(&manifest)?)
        .with_context(|| format!("{}: cannot write", path.display()))?;
    Ok(manifest)
}

/// A producer's stream, checked once: its records are where its record ends
/// (or, without a `.ends` file, its framing) say, each framed as declared.
/// Nothing of it stays in memory; it is read again, record by record, when
/// compared, re-framed or decoded, so memory does not grow with the stream.
pub struct Stream {
    id: String,
    path: PathBuf,
    framing: Framing,
}

impl Stream {
    /// Reads `dir/<manifest.stream>` and its `.ends` through, checking them
    /// against the manifest.
    pub fn open(dir: &Path, manifest: &Manifest) -> Result<Stream> {
        let name = manifest.stream.as_deref().context("the manifest names no stream")?;
        let framing = manifest.framing.context("the manifest names no framing")?;
        let path = dir.join(name);
        let mut records = Records::open(&path, framing)?;
        while records.next()?.is_some() {}
        ensure!(
            records.offset == manifest.bytes && records.index == manifest.records,
            "{}: {} bytes and {} records, the manifest says {} bytes and {} records",
            path.display(),
            records.offset,
            records.index,
            manifest.bytes,
            manifest.records
        );
        Ok(Stream { id: manifest.id(), path, framing })
    }

    /// The stream's SHA-256, in hex: its file read again, as only a stream
    /// from outside, whose manifest gives one, needs it.
    pub fn sha256(&self) -> Result<String> {
        let mut raw = crate::input::Source::File(self.path.clone()).open()?;
        std::io::copy(&mut raw, &mut std::io::sink())
            .with_context(|| format!("{}: cannot read", self.path.display()))?;
        Ok(raw.tap().digest().1)
    }

    fn records(&self) -> Result<Records> {
        Records::open(&self.path, self.framing)
    }

    /// This stream as a codec framing its records with `framing` reads it,
    /// with its record ends beside it (the runners read record by record):
    /// the file itself, or a re-framed copy (written once per framing) when
    /// the framing differs or the file has no `.ends`.
    pub fn for_framing(&self, dir: &Path, framing: Framing) -> Result<PathBuf> {
        if framing == self.framing && ends_path(&self.path).exists() {
            return Ok(self.path.clone());
        }
        let reframed = dir.join("reframed");
        std::fs::create_dir_all(&reframed)?;
        let path = reframed.join(format!(
            "{}.{}.bin",
            self.id.replace('/', "-"),
            serde_json::to_value(framing)?.as_str().unwrap_or("framing")
        ));
        if !path.exists() {
            let mut out = BufWriter::new(std::fs::File::create(&path)?);
            let mut ends = BufWriter::new(std::fs::File::create(ends_path(&path))?);
            let (mut records, mut written, mut framed) = (self.records()?, 0u64, Vec::new());
            while let Some(record) = records.next()? {
                frame(record.body(), framing, &mut framed)?;
                out.write_all(&framed)?;
                written += framed.len() as u64;
                ends.write_all(&written.to_le_bytes())?;
            }
            out.flush()?;
            ends.flush()?;
        }
        Ok(path)
    }
}

/// Where a stream's record ends are kept: beside it, `.ends` for its extension.
fn ends_path(stream: &Path) -> PathBuf {
    stream.with_extension("ends")
}

/// One record of a stream: its bytes, framing included, in the reader's buffer.
struct Record<'a> {
    /// Its first byte's offset in the stream.
    start: u64,
    bytes: &'a [u8],
    /// Where its body lies within `bytes`.
    body: std::ops::Range<usize>,
}

impl Record<'_> {
    fn body(&self) -> &[u8] {
        &self.bytes[self.body.clone()]
    }
}

/// A stream read one record at a time into a reused buffer: cut where its
/// `.ends` file says, or, without one, where its framing says (every framing
/// but none delimits its records), and each record checked to be framed so.
struct Records {
    path: PathBuf,
    framing: Framing,
    stream: BufReader<File>,
    /// The stream's size, so that no record end or length prefix read from
    /// the files can make the reader allocate more than the stream holds.
    size: u64,
    /// The `.ends` file, if the stream has one.
    ends: Option<BufReader<File>>,
    /// Records read so far.
    index: u64,
    /// Bytes read so far: where the next record starts.
    offset: u64,
    buffer: Vec<u8>,
}

impl Records {
    fn open(path: &Path, framing: Framing) -> Result<Records> {
        let file = open_regular(path, &path.display().to_string())?;
        let size =
            file.metadata().with_context(|| format!("{}: cannot read", path.display()))?.len();
        let ends_path = ends_path(path);
        let ends = match std::fs::symlink_metadata(&ends_path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && framing != Framing::None => None,
            Err(e) => {
                return Err(e).with_context(|| {
                    format!("{}: cannot read (framing none needs it)", ends_path.display())
                });
            }
            Ok(_) => {
                Some(BufReader::new(open_regular(&ends_path, &ends_path.display().to_string())?))
            }
        };
        Ok(Records {
            path: path.to_owned(),
            framing,
            stream: BufReader::new(file),
            size,
            ends,
            index: 0,
            offset: 0,
            buffer: Vec::new(),
        })
    }

    /// The next record; none after the last.
    fn next(&mut self) -> Result<Option<Record<'_>>> {
        let start = self.offset;
        self.buffer.clear();
        match &mut self.ends {
            Some(ends) => {
                let ends_path = ends_path(&self.path);
                let Some(end) = read_end(ends).with_context(|| {
                    format!("{}: not a whole number of u64 LE record ends", ends_path.display())
                })?
                else {
                    ensure!(
                        start == self.size,
                        "{}: bytes after the last record",
                        self.path.display()
                    );
                    return Ok(None);
                };
                ensure!(
                    end > start && end <= self.size,
                    "{}: record {} ends at byte {end}, after {start} and within {}",
                    ends_path.display(),
                    self.index,
                    self.size
                );
                if end - start > STREAM_RECORD.bytes {
                    let found =
                        format!("record {} at byte {start}: {} bytes", self.index, end - start);
                    return Err(STREAM_RECORD.exceeded(&self.path.display().to_string(), &found));
                }
                self.buffer.resize((end - start) as usize, 0);
                self.stream
                    .read_exact(&mut self.buffer)
                    .with_context(|| format!("{}: cannot read", self.path.display()))?;
            }
            None if start == self.size => return Ok(None),
            None => read_framed(
                &mut self.stream,
                self.framing,
                self.size - start,
                &mut self.buffer,
            )
            .map_err(|e| {
                anyhow!(
                    "{}: no {} beside it, and its records are not {:?}-framed as the manifest \
                         says: record {} at byte {start}: {e:#}",
                    self.path.display(),
                    ends_path(&self.path).display(),
                    self.framing,
                    self.index
                )
            })?,
        }
        let body = unframe(&self.buffer, self.framing).map_err(|e| {
            anyhow!(
                "{}: record {} at byte {start} is not {:?}-framed as the manifest says: {e}",
                self.path.display(),
                self.index,
                self.framing
            )
        })?;
        self.index += 1;
        self.offset += self.buffer.len() as u64;
        Ok(Some(Record { start, bytes: &self.buffer, body }))
    }
}

/// The next u64 LE record end; none at the end of the file.
fn read_end(ends: &mut impl Read) -> Result<Option<u64>> {
    let mut end = [0u8; 8];
    let mut filled = 0;
    while filled < end.len() {
        match ends.read(&mut end[filled..])? {
            0 if filled == 0 => return Ok(None),
            0 => bail!("{filled} bytes after the last whole one"),
            n => filled += n,
        }
    }
    Ok(Some(u64::from_le_bytes(end)))
}

/// Reads one record, framing included, into `record`, as its length prefix
/// or newline delimits it; a prefix may not claim more than the `left` bytes.
fn read_framed(
    stream: &mut impl BufRead,
    framing: Framing,
    left: u64,
    record: &mut Vec<u8>,
) -> Result<()> {
    let said = match framing {
        Framing::None => bail!("framing none does not say where a record ends"),
        Framing::Newline => {
            stream.take(STREAM_RECORD.bytes + 1).read_until(b'\n', record)?;
            ensure!(
                record.len() as u64 <= STREAM_RECORD.bytes,
                "a line of more than {} bytes; {}",
                STREAM_RECORD.bytes,
                STREAM_RECORD.expected()
            );
            ensure!(record.last() == Some(&b'\n'), "the last record ends in no newline");
            return Ok(());
        }
        Framing::U32le => {
            let mut prefix = [0u8; 4];
            stream.read_exact(&mut prefix).context("shorter than its 4-byte prefix")?;
            record.extend_from_slice(&prefix);
            u64::from(u32::from_le_bytes(prefix))
        }
        Framing::Varint => loop {
            let mut byte = [0u8];
            stream.read_exact(&mut byte).context("no complete varint prefix")?;
            record.push(byte[0]);
            if byte[0] & 0x80 == 0 {
                break varint(record).context("no complete varint prefix")?.0;
            }
            ensure!(record.len() < 10, "no complete varint prefix");
        },
    };
    let total = record.len() as u64 + said;
    ensure!(total <= left, "it says {total} bytes, {left} are left");
    ensure!(total <= STREAM_RECORD.bytes, "it says {total} bytes; {}", STREAM_RECORD.expected());
    let prefix = record.len();
    record.resize(total as usize, 0);
    stream.read_exact(&mut record[prefix..])?;
    Ok(())
}

/// One record as a codec framing with `framing` writes it, into `record`.
fn frame(body: &[u8], framing: Framing, record: &mut Vec<u8>) -> Result<()> {
    record.clear();
    match framing {
        Framing::None | Framing::Newline => {}
        Framing::U32le => record.extend_from_slice(
            &u32::try_from(body.len())
                .context("a record over 4 GiB cannot take a 4-byte prefix")?
                .to_le_bytes(),
        ),
        Framing::Varint => {
            let mut n = body.len() as u64;
            while n >= 0x80 {
                record.push(n as u8 | 0x80);
                n >>= 7;
            }
            record.push(n as u8);
        }
    }
    record.extend_from_slice(body);
    // A body may end its line already (Go's json.Encoder does, inside its length prefix).
    if framing == Framing::Newline && body.last() != Some(&b'\n') {
        record.push(b'\n');
    }
    Ok(())
}

/// Where the body lies within one record's bytes.
fn unframe(record: &[u8], framing: Framing) -> Result<std::ops::Range<usize>> {
    match framing {
        Framing::None => Ok(0..record.len()),
        Framing::Newline => {
            ensure!(record.last() == Some(&b'\n'), "it does not end in a newline");
            Ok(0..record.len() - 1)
        }
        Framing::U32le => {
            let prefix = record.first_chunk::<4>().context("shorter than its 4-byte prefix")?;
            let said = u32::from_le_bytes(*prefix) as usize;
            ensure!(
                said == record.len() - 4,
                "its prefix says {said} bytes, {} follow",
                record.len() - 4
            );
            Ok(4..record.len())
        }
        Framing::Varint => {
            let (said, used) = varint(record).context("no complete varint prefix")?;
            ensure!(
                said == (record.len() - used) as u64,
                "its prefix says {said} bytes, {} follow",
                record.len() - used
            );
            Ok(used..record.len())
        }
    }
}

/// A protobuf varint at the start of `bytes`: (value, bytes used).
fn varint(bytes: &[u8]) -> Option<(u64, usize)> {
    let mut value = 0u64;
    for (i, &b) in bytes.iter().enumerate().take(10) {
        value |= u64::from(b & 0x7f) << (7 * i);
        if b & 0x80 == 0 {
            return Some((value, i + 1));
        }
    }
    None
}

/// Per pair of producers of different languages: the same record bodies, or
/// where they first differ.
pub fn identities(producers: &[&Manifest], streams: &[Option<&Stream>]) -> Result<Vec<Identity>> {
    let mut out = Vec::new();
    for (i, a) in streams.iter().enumerate() {
        for (j, b) in streams.iter().enumerate().skip(i + 1) {
            let (Some(a), Some(b)) = (a, b) else { continue };
            if producers[i].language == producers[j].language {
                continue;
            }
            let first_difference = first_difference(a, b)?;
            out.push(Identity {
                a: a.id.clone(),
                b: b.id.clone(),
                identical: first_difference.is_none(),
                first_difference,
            });
        }
    }
    Ok(out)
}

/// The two streams read side by side, body against body.
fn first_difference(a: &Stream, b: &Stream) -> Result<Option<String>> {
    let (mut a, mut b) = (a.records()?, b.records()?);
    loop {
        let (i, x, y) = (a.index, a.next()?, b.next()?);
        let (x, y) = match (x, y) {
            (Some(x), Some(y)) => (x, y),
            (None, None) => return Ok(None),
            (Some(_), None) => {
                let mut m = i + 1;
                while a.next()?.is_some() {
                    m += 1;
                }
                return Ok(Some(format!("{m} records against {i}")));
            }
            (None, Some(_)) => {
                let mut n = i + 1;
                while b.next()?.is_some() {
                    n += 1;
                }
                return Ok(Some(format!("{i} records against {n}")));
            }
        };
        let (p, q) = (x.body(), y.body());
        if p != q {
            let at = p.iter().zip(q).position(|(p, q)| p != q).unwrap_or(p.len().min(q.len()));
            return Ok(Some(format!(
                "record {i}, byte {at} of its body (stream bytes {} and {}); {} and {} body bytes",
                x.start + (x.body.start + at) as u64,
                y.start + (y.body.start + at) as u64,
                p.len(),
                q.len()
            )));
        }
    }
}

/// A Rust codec's verdict on the stream at `path` (with its record ends
/// beside it, as `Stream::for_framing` gives it): each record decoded from
/// its own bytes, which it must use exactly, into one sink checked against
/// the reference; on a mismatch only (so the common path pays nothing for
/// it), the first record whose own aggregate differs from its source's.
pub fn decode_all<W: Workload>(
    input: &dyn Input<W>,
    reference: &W::Aggregate,
    registered: &Registered<W>,
    path: &Path,
) -> Result<Answer> {
    let answer = |status, records, detail: Option<String>| Answer {
        format: registered.info.name.to_owned(),
        stream: path.display().to_string(),
        status,
        records,
        detail,
    };
    let mut codec = registered.codec().context("a consumer runs this workload")?;
    let mut sink = W::new_sink(reference);
    let mut records = match Records::open(path, registered.info.framing) {
        Ok(records) => records,
        Err(e) => return Ok(answer(Status::Error, 0, Some(format!("{e:#}")))),
    };
    loop {
        let index = records.index;
        let record = match records.next() {
            Ok(Some(record)) => record,
            Ok(None) => break,
            Err(e) => return Ok(answer(Status::Error, index, Some(format!("{e:#}")))),
        };
        if let Err(e) = decode_whole(&mut *codec, &record, &mut sink) {
            return Ok(answer(
                Status::Error,
                index,
                Some(format!("record {index}, byte offset {}: {e}", record.start)),
            ));
        }
    }
    let decoded = records.index;
    let aggregate = W::finish(sink);
    let Some(difference) = W::first_difference(reference, &aggregate) else {
        return Ok(answer(Status::Ok, decoded, None));
    };
    let detail =
        first_differing_record(input, reference, &mut *codec, path, registered.info.framing)?
            .unwrap_or(difference);
    Ok(answer(Status::Mismatch, decoded, Some(detail)))
}

/// Decodes `record` into `sink`, requiring the codec to use exactly its
/// bytes; a panic is an error, as any other.
fn decode_whole<W: Workload>(
    codec: &mut dyn crate::benchmark::DynCodec<W>,
    record: &Record,
    sink: &mut W::Sink,
) -> std::result::Result<(), String> {
    match quietly(|| codec.decode(record.bytes, sink)) {
        Ok(Ok(used)) if used == record.bytes.len() => Ok(()),
        Ok(Ok(used)) => {
            Err(format!("decode used {used} of the record's {} bytes", record.bytes.len()))
        }
        Ok(Err(e)) => Err(format!("{e:#}")),
        Err(panic) => Err(format!("the decoder panicked: {panic}")),
    }
}

/// Each record decoded alone into a fresh sink, against its source record
/// fed alone into another; the stream and the input read side by side.
fn first_differing_record<W: Workload>(
    input: &dyn Input<W>,
    reference: &W::Aggregate,
    codec: &mut dyn crate::benchmark::DynCodec<W>,
    path: &Path,
    framing: Framing,
) -> Result<Option<String>> {
    let mut records = Records::open(path, framing)?;
    let mut reader = input.open()?;
    while let Some(window) = reader.next_window(DEFAULT_WINDOW)? {
        for &r in window.order {
            let i = records.index;
            let Some(record) = records.next()? else {
                return Ok(Some(format!("record {i}: missing from the stream")));
            };
            let mut expected = W::new_sink(reference);
            W::feed(&window.records[r as usize], &mut expected);
            let mut actual = W::new_sink(reference);
            // It decoded within the stream; a codec that keeps state between
            // records may not decode it alone: said, not fatal.
            if let Err(e) = decode_whole(codec, &record, &mut actual) {
                return Ok(Some(format!("record {i}: decoded alone, {e}")));
            }
            if let Some(d) = W::first_difference(&W::finish(expected), &W::finish(actual)) {
                return Ok(Some(format!("record {i}: {d}")));
            }
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_reframed_reads_back_under_each_framing() {
        let mut record = Vec::new();
        for framing in [Framing::None, Framing::U32le, Framing::Varint, Framing::Newline] {
            let body = vec![7u8; 300];
            frame(&body, framing, &mut record).unwrap();
            assert_eq!(&record[unframe(&record, framing).unwrap()], &body[..], "{framing:?}");
        }
        frame(&[0; 300], Framing::Varint, &mut record).unwrap();
        assert_eq!(record[..2], [0xac, 0x02]);
        assert!(unframe(b"{}", Framing::Newline).is_err());
        assert!(unframe(&[5, 0, 0, 0, 1], Framing::U32le).is_err());
        assert!(unframe(&[0x80], Framing::Varint).is_err());
    }

    /// A record longer than [`STREAM_RECORD`] is refused before a byte of it
    /// is read, whether its `.ends` entry or its length prefix says so.
    #[test]
    fn a_record_over_the_cap_is_refused_before_it_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.bin");
        let size = STREAM_RECORD.bytes + 8;
        std::fs::File::create(&path).unwrap().set_len(size).unwrap();
        std::fs::write(ends_path(&path), size.to_le_bytes()).unwrap();
        let error = Records::open(&path, Framing::None).unwrap().next().err().unwrap();
        assert_eq!(
            format!("{error:#}"),
            format!(
                "{}: record 0 at byte 0: {size} bytes; expected at most 67108864 (64 MiB) for an interop record",
                path.display()
            )
        );
        let mut prefixed = std::io::Cursor::new(u32::MAX.to_le_bytes());
        let error = read_framed(&mut prefixed, Framing::U32le, u64::MAX, &mut Vec::new());
        assert!(format!("{:#}", error.unwrap_err()).contains("for an interop record"));
    }

    /// Records cut by the framing alone and by a `.ends` file agree, and a
    /// stream that breaks either is refused with the record it breaks at.
    #[test]
    fn records_are_cut_by_ends_or_by_framing() {
        let dir = tempfile::tempdir().unwrap();
        let cut = |bytes: &[u8], framing: Framing, ends: Option<&[u64]>| {
            let path = dir.path().join("s.bin");
            std::fs::write(&path, bytes).unwrap();
            let ends_file = ends_path(&path);
            std::fs::remove_file(&ends_file).ok();
            if let Some(ends) = ends {
                let ends: Vec<u8> = ends.iter().flat_map(|e| e.to_le_bytes()).collect();
                std::fs::write(&ends_file, ends).unwrap();
            }
            let mut records = Records::open(&path, framing).map_err(|e| format!("{e:#}"))?;
            let mut bodies = Vec::new();
            while let Some(record) = records.next().map_err(|e| format!("{e:#}"))? {
                bodies.push(record.body().to_vec());
            }
            Ok::<_, String>(bodies)
        };
        let u32le = [2, 0, 0, 0, 1, 2, 0, 0, 0, 0, 1, 0, 0, 0, 3];
        let bodies = vec![vec![1, 2], vec![], vec![3]];
        assert_eq!(cut(&u32le, Framing::U32le, None).unwrap(), bodies);
        assert_eq!(cut(&u32le, Framing::U32le, Some(&[6, 10, 15])).unwrap(), bodies);
        assert_eq!(cut(&[2, 1, 2, 0, 1, 3], Framing::Varint, None).unwrap(), bodies);
        assert_eq!(cut(b"{}\n[]\n", Framing::Newline, None).unwrap().len(), 2);
        /// A stream's bytes, its framing, its record ends if it has a file
        /// of them, and what the refusal says.
        type Refused<'a> = (&'a [u8], Framing, Option<&'a [u64]>, &'a str);
        let refused: [Refused; 6] = [
            (
                &u32le[..14],
                Framing::U32le,
                None,
                "record 2 at byte 10: it says 5 bytes, 4 are left",
            ),
            (&u32le, Framing::U32le, Some(&[6, 9, 15]), "record 1 at byte 6 is not U32le-framed"),
            (&u32le, Framing::U32le, Some(&[6, 10]), "bytes after the last record"),
            (&u32le, Framing::U32le, Some(&[6, 10, 99]), "record 2 ends at byte 99"),
            (b"{}\n[]", Framing::Newline, None, "the last record ends in no newline"),
            (&u32le, Framing::None, None, "framing none needs it"),
        ];
        for (bytes, framing, ends, said) in refused {
            let error = cut(bytes, framing, ends).unwrap_err();
            assert!(error.contains(said), "{said}: {error}");
        }
    }
}
