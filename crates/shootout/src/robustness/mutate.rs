//! Hostile inputs derived from one record's encoded bytes. Formats differ, so
//! the mutators know none of them: length and count fields are found by their
//! look (see [`length_fields`]), and framing boundaries are where those fields
//! end and where the regions they delimit end.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// How a case was derived from its record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    BitFlip,
    ByteOverwrite,
    /// Cut at a framing boundary (see [`boundaries`]).
    TruncateBoundary,
    TruncateRandom,
    /// A candidate length or count field set to 2³¹ or 2³²−1.
    InflateLength,
    ZeroFill,
    RandomFill,
    /// The whole record twice in a row: a decoder must read the first and stop.
    RepeatRecord,
    /// A slice of the record repeated in place.
    RepeatSlice,
}

/// The kinds the random part of a run cycles through.
const RANDOM_KINDS: [Kind; 9] = [
    Kind::BitFlip,
    Kind::ByteOverwrite,
    Kind::TruncateBoundary,
    Kind::TruncateRandom,
    Kind::InflateLength,
    Kind::ZeroFill,
    Kind::RandomFill,
    Kind::RepeatRecord,
    Kind::RepeatSlice,
];

/// The values inflated fields get.
pub const INFLATED: [u64; 2] = [1 << 31, u32::MAX as u64];

/// One hostile input: which record it came from, how, and its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mutant {
    pub record: usize,
    pub kind: Kind,
    pub description: String,
    pub bytes: Vec<u8>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    U32Le,
    U32Be,
    /// LEB128, as protobuf, postcard, bincode's varint and Avro (zigzag aside) write lengths.
    Varint,
}

/// A run of bytes that may hold a length or count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LengthField {
    pub offset: usize,
    pub width: usize,
    pub encoding: Encoding,
    pub value: u64,
}

impl LengthField {
    fn end(&self) -> usize {
        self.offset + self.width
    }

    fn name(&self) -> &'static str {
        match self.encoding {
            Encoding::U32Le => "u32 little-endian",
            Encoding::U32Be => "u32 big-endian",
            Encoding::Varint => "varint",
        }
    }
}

/// Every place in `bytes` that reads as a u32 (either byte order) or a varint
/// of at most 5 bytes whose value is between 1 and the bytes left after it: a
/// length or count that fits its record looks like that. Most candidates are
/// not lengths; those inflate like any overwrite.
pub fn length_fields(bytes: &[u8]) -> Vec<LengthField> {
    let mut fields = Vec::new();
    for offset in 0..bytes.len() {
        let fits = |width: usize, value: u64| {
            let left = (bytes.len() - offset - width) as u64;
            (1..=left).contains(&value)
        };
        if let Some(word) = bytes.get(offset..offset + 4) {
            let word: [u8; 4] = word.try_into().expect("four bytes");
            let le = u64::from(u32::from_le_bytes(word));
            let be = u64::from(u32::from_be_bytes(word));
            for (encoding, value) in [(Encoding::U32Le, le), (Encoding::U32Be, be)] {
                let duplicate = encoding == Encoding::U32Be && be == le;
                if fits(4, value) && !duplicate {
                    fields.push(LengthField { offset, width: 4, encoding, value });
                }
            }
        }
        if let Some((value, width)) = varint(&bytes[offset..])
            && fits(width, value)
        {
            fields.push(LengthField { offset, width, encoding: Encoding::Varint, value });
        }
    }
    fields
}

/// The LEB128 value at the start of `bytes` and its width, if it ends within 5 bytes.
fn varint(bytes: &[u8]) -> Option<(u64, usize)> {
    let mut value = 0u64;
    for (i, &byte) in bytes.iter().take(5).enumerate() {
        value |= u64::from(byte & 0x7f) << (7 * i);
        if byte & 0x80 == 0 {
            return Some((value, i + 1));
        }
    }
    None
}

fn leb128(mut value: u64) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let byte = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            out.push(byte);
            return out;
        }
        out.push(byte | 0x80);
    }
}

/// The lengths to truncate a record of `len` bytes to at its framing
/// boundaries: nothing at all, the end of every candidate length field, the
/// end of the region each delimits, and one byte short of the whole.
pub fn boundaries(len: usize, fields: &[LengthField]) -> Vec<usize> {
    let mut cuts: Vec<usize> = [0, len.saturating_sub(1)]
        .into_iter()
        .chain(fields.iter().map(LengthField::end))
        .chain(fields.iter().map(|f| f.end() + f.value as usize))
        .filter(|&cut| cut < len)
        .collect();
    cuts.sort_unstable();
    cuts.dedup();
    cuts
}

fn inflate(bytes: &[u8], field: &LengthField, value: u64) -> Vec<u8> {
    let replacement = match field.encoding {
        Encoding::U32Le => (value as u32).to_le_bytes().to_vec(),
        Encoding::U32Be => (value as u32).to_be_bytes().to_vec(),
        Encoding::Varint => leb128(value),
    };
    [&bytes[..field.offset], &replacement[..], &bytes[field.end()..]].concat()
}

fn inflated(record: usize, bytes: &[u8], field: &LengthField, value: u64) -> Mutant {
    Mutant {
        record,
        kind: Kind::InflateLength,
        description: format!(
            "{} at byte {} ({}) set to {value}",
            field.name(),
            field.offset,
            field.value
        ),
        bytes: inflate(bytes, field, value),
    }
}

fn truncated(record: usize, bytes: &[u8], kind: Kind, len: usize) -> Mutant {
    Mutant {
        record,
        kind,
        description: format!("truncated to {len} of {} bytes", bytes.len()),
        bytes: bytes[..len].to_vec(),
    }
}

fn zero_filled(record: usize, bytes: &[u8]) -> Mutant {
    Mutant {
        record,
        kind: Kind::ZeroFill,
        description: format!("{} zero bytes", bytes.len()),
        bytes: vec![0; bytes.len()],
    }
}

fn repeated(record: usize, bytes: &[u8]) -> Mutant {
    Mutant {
        record,
        kind: Kind::RepeatRecord,
        description: format!("the record's {} bytes twice", bytes.len()),
        bytes: bytes.repeat(2),
    }
}

/// The cases every framing boundary and every candidate field of the first
/// record yields, each once: what a sample of random cases could miss.
fn systematic(bytes: &[u8]) -> Vec<Mutant> {
    if bytes.is_empty() {
        return Vec::new();
    }
    let fields = length_fields(bytes);
    let mut cases: Vec<Mutant> = boundaries(bytes.len(), &fields)
        .into_iter()
        .map(|len| truncated(0, bytes, Kind::TruncateBoundary, len))
        .collect();
    for field in &fields {
        cases.extend(INFLATED.map(|value| inflated(0, bytes, field, value)));
    }
    cases.push(zero_filled(0, bytes));
    cases.push(repeated(0, bytes));
    cases
}

/// One case of `kind` from `bytes` (record `record`), or `None` when the
/// record has nothing that kind mutates (no bytes, no candidate field).
fn random(rng: &mut ChaCha8Rng, record: usize, bytes: &[u8], kind: Kind) -> Option<Mutant> {
    let len = bytes.len();
    if len == 0 {
        return None;
    }
    let mutant = |description: String, bytes: Vec<u8>| Mutant { record, kind, description, bytes };
    Some(match kind {
        Kind::BitFlip => {
            let (at, bit) = (rng.random_range(0..len), rng.random_range(0..8u8));
            let mut out = bytes.to_vec();
            out[at] ^= 1 << bit;
            mutant(format!("bit {bit} of byte {at} flipped"), out)
        }
        Kind::ByteOverwrite => {
            let at = rng.random_range(0..len);
            // Not the byte already there: an overwrite that changes nothing is no case.
            let value = bytes[at] ^ rng.random_range(1..=255u8);
            let mut out = bytes.to_vec();
            out[at] = value;
            mutant(format!("byte {at} ({}) set to {value}", bytes[at]), out)
        }
        Kind::TruncateBoundary => {
            let cuts = boundaries(len, &length_fields(bytes));
            truncated(record, bytes, kind, cuts[rng.random_range(0..cuts.len())])
        }
        Kind::TruncateRandom => truncated(record, bytes, kind, rng.random_range(0..len)),
        Kind::InflateLength => {
            let fields = length_fields(bytes);
            if fields.is_empty() {
                return None;
            }
            let field = fields[rng.random_range(0..fields.len())];
            let value = INFLATED[rng.random_range(0..INFLATED.len())];
            inflated(record, bytes, &field, value)
        }
        Kind::ZeroFill => zero_filled(record, bytes),
        Kind::RandomFill => {
            let out: Vec<u8> = (0..len).map(|_| rng.random()).collect();
            mutant(format!("{len} random bytes"), out)
        }
        Kind::RepeatRecord => repeated(record, bytes),
        Kind::RepeatSlice => {
            let start = rng.random_range(0..len);
            let end = rng.random_range(start + 1..=len);
            let out = [&bytes[..end], &bytes[start..]].concat();
            mutant(format!("bytes {start}..{end} repeated in place"), out)
        }
    })
}

/// `count` cases from `records` (each one record's encoded bytes), the same
/// ones for the same seed: first the first record's [`systematic`] cases (at
/// most half of `count`, spread evenly over them when there are more), then
/// random ones, cycling through the kinds, each on a random record.
pub fn cases(records: &[Vec<u8>], count: usize, seed: u64) -> Vec<Mutant> {
    let Some(first) = records.first() else {
        return Vec::new();
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let all = systematic(first);
    let room = count / 2;
    let mut out: Vec<Mutant> = if all.len() <= room {
        all
    } else {
        (0..room).map(|i| all[i * all.len() / room].clone()).collect()
    };
    let mut kinds = RANDOM_KINDS.iter().cycle();
    while out.len() < count {
        let kind = *kinds.next().expect("a cycle never ends");
        let record = rng.random_range(0..records.len());
        // A record with nothing this kind mutates gets a bit flip instead.
        if let Some(mutant) = random(&mut rng, record, &records[record], kind)
            .or_else(|| random(&mut rng, record, &records[record], Kind::BitFlip))
        {
            out.push(mutant);
        } else if records.iter().all(Vec::is_empty) {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record framed like many formats: a u32 LE length, then a varint-prefixed string.
    fn record() -> Vec<u8> {
        let mut bytes = 8u32.to_le_bytes().to_vec();
        bytes.push(5);
        bytes.extend_from_slice(b"hello");
        bytes.extend_from_slice(&[0xAA, 0xBB]);
        bytes
    }

    #[test]
    fn finds_the_length_fields_a_record_is_framed_with() {
        let fields = length_fields(&record());
        let at = |offset, encoding| {
            fields.iter().find(|f| f.offset == offset && f.encoding == encoding).copied()
        };
        assert_eq!(
            at(0, Encoding::U32Le),
            Some(LengthField { offset: 0, width: 4, encoding: Encoding::U32Le, value: 8 })
        );
        assert_eq!(at(4, Encoding::Varint).map(|f| f.value), Some(5));
        // 0x08000000 big-endian is far past the record's end: no candidate.
        assert_eq!(at(0, Encoding::U32Be), None);
        // Every candidate fits what follows it.
        assert!(fields.iter().all(|f| f.end() + f.value as usize <= record().len()));
    }

    #[test]
    fn boundaries_are_the_ends_of_fields_and_of_what_they_delimit() {
        let bytes = record();
        let cuts = boundaries(bytes.len(), &length_fields(&bytes));
        // Empty, after the u32 length, after the varint, the end of the string, one short.
        for cut in [0, 4, 5, 10, 11] {
            assert!(cuts.contains(&cut), "{cut} in {cuts:?}");
        }
        assert!(cuts.iter().all(|&c| c < bytes.len()));
        assert!(cuts.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn inflating_writes_the_value_in_the_fields_own_encoding() {
        let bytes = record();
        let fields = length_fields(&bytes);
        let u32_le =
            fields.iter().find(|f| f.offset == 0 && f.encoding == Encoding::U32Le).unwrap();
        assert_eq!(inflate(&bytes, u32_le, u32::MAX as u64)[..4], [0xFF, 0xFF, 0xFF, 0xFF]);
        let varint_field =
            fields.iter().find(|f| f.offset == 4 && f.encoding == Encoding::Varint).unwrap();
        let out = inflate(&bytes, varint_field, 1 << 31);
        assert_eq!(varint(&out[4..]), Some((1 << 31, 5)));
        assert_eq!(out.len(), bytes.len() + 4);
        assert_eq!(&out[9..], &bytes[5..]);
    }

    #[test]
    fn the_same_seed_gives_the_same_cases_and_another_seed_others() {
        let records = vec![record(), b"another record, longer than the first".to_vec()];
        let first = cases(&records, 200, 7);
        assert_eq!(first.len(), 200);
        assert_eq!(first, cases(&records, 200, 7));
        assert_ne!(first, cases(&records, 200, 8));
    }

    #[test]
    fn cases_cover_every_kind_and_differ_from_their_record() {
        let records = vec![record(), b"another record, longer than the first".to_vec()];
        let all = cases(&records, 300, 1);
        for kind in RANDOM_KINDS {
            assert!(all.iter().any(|m| m.kind == kind), "{kind:?}");
        }
        for mutant in &all {
            assert_ne!(mutant.bytes, records[mutant.record], "{mutant:?}");
        }
        let flips = all.iter().filter(|m| m.kind == Kind::BitFlip);
        for flip in flips {
            let original = &records[flip.record];
            let differing: u32 =
                flip.bytes.iter().zip(original).map(|(a, b)| (a ^ b).count_ones()).sum();
            assert_eq!(differing, 1, "{flip:?}");
        }
    }

    #[test]
    fn systematic_cases_take_at_most_half_and_come_first() {
        let records = vec![record()];
        let few = cases(&records, 10, 1);
        assert_eq!(few.len(), 10);
        let systematic_count = systematic(&records[0]).len();
        assert!(systematic_count > 5);
        assert!(few[..5].iter().all(|m| m.record == 0));
        assert_eq!(few[0], truncated(0, &records[0], Kind::TruncateBoundary, 0));
    }

    #[test]
    fn empty_records_give_no_cases_and_no_endless_loop() {
        assert!(cases(&[], 10, 1).is_empty());
        assert!(cases(&[Vec::new()], 10, 1).is_empty());
    }
}
