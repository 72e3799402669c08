//! Streams on disk: Rust's encoder writing them, any language's read back and
//! cut into records' bodies (by the `.ends` offsets and the framing), re-framed
//! for a consumer that delimits records differently, compared byte for byte,
//! and decoded by a Rust codec.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, ensure};
use sha2::{Digest, Sha256};

use super::{Answer, Identity, MANIFEST_SCHEMA, Manifest, Status};
use crate::benchmark::Registered;
use crate::caught::quietly;
use crate::format::{FormatInfo, Framing};
use crate::input::DEFAULT_WINDOW;
use crate::input::Input;
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
    let mut ends: Vec<u8> = Vec::new();
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
            ends.extend_from_slice(&(written + stream.len() as u64).to_le_bytes());
        }
        out.write_all(&stream)?;
        hash.update(&stream);
        written += stream.len() as u64;
    }
    out.flush()?;
    drop(out);
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
    } else {
        std::fs::write(dir.join(format!("{stem}.ends")), &ends)?;
    }
    let path = dir.join(format!("{stem}.json"));
    std::fs::write(&path, serde_json::to_vec_pretty(&manifest)?)
        .with_context(|| format!("{}: cannot write", path.display()))?;
    Ok(manifest)
}

/// A producer's stream, cut into its records' bodies.
pub struct Stream {
    id: String,
    path: PathBuf,
    framing: Framing,
    bytes: Vec<u8>,
    /// Each record's body: (start, end) in `bytes`, framing excluded.
    bodies: Vec<(usize, usize)>,
}

impl Stream {
    /// Reads `dir/<manifest.stream>` and its `.ends`, checking them against
    /// the manifest. Without a `.ends` file, the record ends of a stream
    /// whose framing delimits its records (every framing but none) are found
    /// by walking the framing.
    pub fn open(dir: &Path, manifest: &Manifest) -> Result<Stream> {
        let name = manifest.stream.as_deref().context("the manifest names no stream")?;
        let framing = manifest.framing.context("the manifest names no framing")?;
        let path = dir.join(name);
        let bytes =
            std::fs::read(&path).with_context(|| format!("{}: cannot read", path.display()))?;
        let ends_path = path.with_extension("ends");
        let ends: Vec<u64> = match std::fs::read(&ends_path) {
            Ok(ends) => {
                ensure!(
                    ends.len() % 8 == 0,
                    "{}: {} bytes, not a whole number of u64 LE record ends",
                    ends_path.display(),
                    ends.len()
                );
                ends.chunks_exact(8)
                    .map(|end| u64::from_le_bytes(end.try_into().expect("8 bytes")))
                    .collect()
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && framing != Framing::None => {
                derived_ends(&bytes, framing).map_err(|e| {
                    anyhow!(
                        "{}: no {} beside it, and its records are not {framing:?}-framed as the manifest says: {e}",
                        path.display(),
                        ends_path.display()
                    )
                })?
            }
            Err(e) => {
                return Err(e).with_context(|| {
                    format!("{}: cannot read (framing none needs it)", ends_path.display())
                });
            }
        };
        ensure!(
            bytes.len() as u64 == manifest.bytes && ends.len() as u64 == manifest.records,
            "{}: {} bytes and {} record ends, the manifest says {} bytes and {} records",
            path.display(),
            bytes.len(),
            ends.len(),
            manifest.bytes,
            manifest.records
        );
        let mut bodies = Vec::with_capacity(ends.len());
        let mut start = 0usize;
        for (i, &end) in ends.iter().enumerate() {
            let end = usize::try_from(end).unwrap_or(usize::MAX);
            ensure!(
                end > start && end <= bytes.len(),
                "{}: record {i} ends at byte {end}, after {start} and within {}",
                ends_path.display(),
                bytes.len()
            );
            let (from, to) = unframe(&bytes[start..end], framing).map_err(|e| {
                anyhow!(
                    "{}: record {i} at byte {start} is not {framing:?}-framed as the manifest says: {e}",
                    path.display()
                )
            })?;
            bodies.push((start + from, start + to));
            start = end;
        }
        ensure!(start == bytes.len(), "{}: bytes after the last record", path.display());
        Ok(Stream { id: manifest.id(), path, framing, bytes, bodies })
    }

    /// The stream's SHA-256, in hex.
    pub fn sha256(&self) -> String {
        crate::input::capture::hex(&Sha256::digest(&self.bytes))
    }

    fn body(&self, i: usize) -> &[u8] {
        let (start, end) = self.bodies[i];
        &self.bytes[start..end]
    }

    /// This stream as a codec framing its records with `framing` reads it:
    /// the file itself, or a re-framed copy beside it (written once per framing).
    pub fn for_framing(&self, dir: &Path, framing: Framing) -> Result<PathBuf> {
        if framing == self.framing {
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
            for i in 0..self.bodies.len() {
                out.write_all(&frame(self.body(i), framing)?)?;
            }
            out.flush()?;
        }
        Ok(path)
    }
}

/// Where the body lies within one record's bytes: (start, end).
fn unframe(record: &[u8], framing: Framing) -> Result<(usize, usize)> {
    match framing {
        Framing::None => Ok((0, record.len())),
        Framing::Newline => {
            ensure!(record.last() == Some(&b'\n'), "it does not end in a newline");
            Ok((0, record.len() - 1))
        }
        Framing::U32le => {
            let prefix = record.first_chunk::<4>().context("shorter than its 4-byte prefix")?;
            let said = u32::from_le_bytes(*prefix) as usize;
            ensure!(
                said == record.len() - 4,
                "its prefix says {said} bytes, {} follow",
                record.len() - 4
            );
            Ok((4, record.len()))
        }
        Framing::Varint => {
            let (said, used) = varint(record).context("no complete varint prefix")?;
            ensure!(
                said == (record.len() - used) as u64,
                "its prefix says {said} bytes, {} follow",
                record.len() - used
            );
            Ok((used, record.len()))
        }
    }
}

/// Each record's end offset in a stream whose `framing` delimits its
/// records: after each length prefix's body, or after each newline.
fn derived_ends(bytes: &[u8], framing: Framing) -> Result<Vec<u64>> {
    let mut ends = Vec::new();
    let mut start = 0usize;
    while start < bytes.len() {
        let rest = &bytes[start..];
        let len = match framing {
            Framing::None => anyhow::bail!("framing none does not say where a record ends"),
            Framing::Newline => {
                rest.iter()
                    .position(|&b| b == b'\n')
                    .context("the last record ends in no newline")?
                    + 1
            }
            Framing::U32le => {
                let prefix = rest.first_chunk::<4>().with_context(|| {
                    format!("record {} is shorter than its 4-byte prefix", ends.len())
                })?;
                4 + u32::from_le_bytes(*prefix) as usize
            }
            Framing::Varint => {
                let (said, used) = varint(rest).with_context(|| {
                    format!("record {} has no complete varint prefix", ends.len())
                })?;
                used.saturating_add(usize::try_from(said).unwrap_or(usize::MAX))
            }
        };
        ensure!(
            len <= rest.len(),
            "record {} at byte {start} says {len} bytes, {} are left",
            ends.len(),
            rest.len()
        );
        start += len;
        ends.push(start as u64);
    }
    Ok(ends)
}

/// One record as a codec framing with `framing` writes it.
fn frame(body: &[u8], framing: Framing) -> Result<Vec<u8>> {
    let mut record = match framing {
        Framing::None | Framing::Newline => Vec::new(),
        Framing::U32le => u32::try_from(body.len())
            .context("a record over 4 GiB cannot take a 4-byte prefix")?
            .to_le_bytes()
            .to_vec(),
        Framing::Varint => {
            let mut n = body.len() as u64;
            let mut out = Vec::new();
            while n >= 0x80 {
                out.push(n as u8 | 0x80);
                n >>= 7;
            }
            out.push(n as u8);
            out
        }
    };
    record.extend_from_slice(body);
    // A body may end its line already (Go's json.Encoder does, inside its length prefix).
    if framing == Framing::Newline && body.last() != Some(&b'\n') {
        record.push(b'\n');
    }
    Ok(record)
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
pub fn identities(producers: &[&Manifest], streams: &[Option<&Stream>]) -> Vec<Identity> {
    let mut out = Vec::new();
    for (i, a) in streams.iter().enumerate() {
        for (j, b) in streams.iter().enumerate().skip(i + 1) {
            let (Some(a), Some(b)) = (a, b) else { continue };
            if producers[i].language == producers[j].language {
                continue;
            }
            let first_difference = first_difference(a, b);
            out.push(Identity {
                a: a.id.clone(),
                b: b.id.clone(),
                identical: first_difference.is_none(),
                first_difference,
            });
        }
    }
    out
}

fn first_difference(a: &Stream, b: &Stream) -> Option<String> {
    for i in 0..a.bodies.len().min(b.bodies.len()) {
        let (x, y) = (a.body(i), b.body(i));
        if x != y {
            let at = x.iter().zip(y).position(|(p, q)| p != q).unwrap_or(x.len().min(y.len()));
            return Some(format!(
                "record {i}, byte {at} of its body (stream bytes {} and {}); {} and {} body bytes",
                a.bodies[i].0 + at,
                b.bodies[i].0 + at,
                x.len(),
                y.len()
            ));
        }
    }
    (a.bodies.len() != b.bodies.len())
        .then(|| format!("{} records against {}", a.bodies.len(), b.bodies.len()))
}

/// A Rust codec's verdict on the stream at `path`: decoded record by record
/// into one sink and checked against the reference; on a mismatch only (so
/// the common path pays nothing for it), the first record whose own
/// aggregate differs from its source's: each record decoded alone into a
/// fresh sink against the reference record fed alone into another.
pub fn decode_all<W: Workload>(
    input: &dyn Input<W>,
    reference: &W::Aggregate,
    registered: &Registered<W>,
    path: &Path,
) -> Result<Answer> {
    let bytes = std::fs::read(path).with_context(|| format!("{}: cannot read", path.display()))?;
    let answer = |status, records, detail: Option<String>| Answer {
        format: registered.info.name.to_owned(),
        stream: path.display().to_string(),
        status,
        records,
        detail,
    };
    let mut codec = registered.codec().context("a consumer runs this workload")?;
    let mut sink = W::new_sink(reference);
    let mut starts = Vec::new();
    let mut offset = 0;
    while offset < bytes.len() {
        let record = starts.len();
        let used = match quietly(|| codec.decode(&bytes[offset..], &mut sink)) {
            Ok(Ok(used)) => used,
            Ok(Err(e)) => {
                return Ok(answer(
                    Status::Error,
                    record as u64,
                    Some(format!("record {record}, byte offset {offset}: {e:#}")),
                ));
            }
            Err(panic) => {
                return Ok(answer(
                    Status::Error,
                    record as u64,
                    Some(format!(
                        "record {record}, byte offset {offset}: the decoder panicked: {panic}"
                    )),
                ));
            }
        };
        if used == 0 || used > bytes.len() - offset {
            return Ok(answer(
                Status::Error,
                record as u64,
                Some(format!(
                    "record {record}, byte offset {offset}: decode reported {used} bytes used"
                )),
            ));
        }
        starts.push(offset);
        offset += used;
    }
    starts.push(offset);
    let decoded = starts.len() as u64 - 1;
    let aggregate = W::finish(sink);
    let Some(difference) = W::first_difference(reference, &aggregate) else {
        return Ok(answer(Status::Ok, decoded, None));
    };
    let detail = first_differing_record(input, reference, &mut *codec, &bytes, &starts)?
        .unwrap_or(difference);
    Ok(answer(Status::Mismatch, decoded, Some(detail)))
}

fn first_differing_record<W: Workload>(
    input: &dyn Input<W>,
    reference: &W::Aggregate,
    codec: &mut dyn crate::benchmark::DynCodec<W>,
    bytes: &[u8],
    starts: &[usize],
) -> Result<Option<String>> {
    let mut reader = input.open()?;
    let mut i = 0;
    while let Some(window) = reader.next_window(DEFAULT_WINDOW)? {
        for &r in window.order {
            let Some(range) = starts.get(i..i + 2) else {
                return Ok(Some(format!("record {i}: missing from the stream")));
            };
            let mut expected = W::new_sink(reference);
            W::feed(&window.records[r as usize], &mut expected);
            let mut actual = W::new_sink(reference);
            // It decoded within the stream; a codec that keeps state between
            // records may not decode it alone: said, not fatal.
            match quietly(|| codec.decode(&bytes[range[0]..range[1]], &mut actual)) {
                Ok(Ok(_)) => {}
                Ok(Err(e)) => {
                    return Ok(Some(format!("record {i}: decoded alone, an error: {e:#}")));
                }
                Err(panic) => {
                    return Ok(Some(format!(
                        "record {i}: decoded alone, the decoder panicked: {panic}"
                    )));
                }
            }
            if let Some(d) = W::first_difference(&W::finish(expected), &W::finish(actual)) {
                return Ok(Some(format!("record {i}: {d}")));
            }
            i += 1;
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_reframed_reads_back_under_each_framing() {
        for framing in [Framing::None, Framing::U32le, Framing::Varint, Framing::Newline] {
            let body = vec![7u8; 300];
            let record = frame(&body, framing).unwrap();
            let (start, end) = unframe(&record, framing).unwrap();
            assert_eq!(&record[start..end], &body[..], "{framing:?}");
        }
        assert_eq!(frame(&[0; 300], Framing::Varint).unwrap()[..2], [0xac, 0x02]);
        assert!(unframe(b"{}", Framing::Newline).is_err());
        assert!(unframe(&[5, 0, 0, 0, 1], Framing::U32le).is_err());
        assert!(unframe(&[0x80], Framing::Varint).is_err());
    }
}
