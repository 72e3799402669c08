//! The latency histograms of a results file: how every runner records them
//! (HdrHistogram, 3 significant digits) and writes them (V2 encoding, plain or
//! deflated, in base64), and how a reader refuses one beyond what any runner
//! writes before allocating for it.

use std::io::{Cursor, Read};

use base64::Engine;
use hdrhistogram::Histogram;
use hdrhistogram::serialization::{Deserializer, Serializer, V2Serializer};

/// Enough range for one record taking a minute; 3 significant digits.
const HIGHEST_NS: u64 = 60_000_000_000;

/// The histogram every Rust pass records latency samples into.
pub fn new_histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, HIGHEST_NS, 3).expect("valid histogram bounds")
}

/// The latency histogram in HdrHistogram's V2 format, base64: any HdrHistogram
/// library can read it back to merge runs or compute other percentiles.
pub fn encode_histogram(h: &Histogram<u64>) -> String {
    let mut bytes = Vec::new();
    V2Serializer::new()
        .serialize(h, &mut bytes)
        .expect("serializing a histogram into memory cannot fail");
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// A histogram as runners store it: base64 of HdrHistogram's V2 encoding,
/// plain (Rust, Java) or deflated (Go). The header is checked against
/// [`HistogramLimits`] before the hdrhistogram crate sizes anything by it, so a
/// results file cannot make a reader allocate more than its own size implies.
pub fn decode_histogram(text: &str) -> Result<Histogram<u64>, String> {
    if text.len() > HISTOGRAM_LIMITS.base64_chars() {
        return Err(format!(
            "{} characters of base64; expected at most {} (the largest histogram a runner writes)",
            text.len(),
            HISTOGRAM_LIMITS.base64_chars()
        ));
    }
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(text)
        .map_err(|e| format!("not base64 ({e})"))?;
    let plain = HISTOGRAM_LIMITS.plain_encoding(bytes)?;
    let histogram: Histogram<u64> = Deserializer::new()
        .deserialize(&mut Cursor::new(plain))
        .map_err(|e| format!("not an HdrHistogram V2 encoding ({e})"))?;
    if histogram.len() > HISTOGRAM_LIMITS.samples {
        return Err(format!(
            "{} samples; expected at most {} (one per record of a run)",
            histogram.len(),
            HISTOGRAM_LIMITS.samples
        ));
    }
    Ok(histogram)
}

/// What a stored latency histogram may declare. Every runner records from
/// 1 ns up to a minute (Rust) or 10 s (Go, Java) at 3 significant figures;
/// the counts array HdrHistogram allocates grows with the figures and the
/// range (5 figures up to 2^62 ns is 48 MB), so a header beyond these is
/// refused before anything is allocated for it.
pub struct HistogramLimits {
    pub lowest_ns: u64,
    pub significant_figures: u32,
    /// An hour: no one record's latency comes near it.
    pub highest_ns: u64,
    /// The encoded counts (LEB128, 9 bytes each at worst) of the largest
    /// histogram these bounds allow take about 300 KB.
    pub payload_bytes: usize,
    /// One sample per record: far more than any input holds, and small
    /// enough that sums over every run of a direction cannot overflow.
    pub samples: u64,
}

pub const HISTOGRAM_LIMITS: HistogramLimits = HistogramLimits {
    lowest_ns: 1,
    significant_figures: 3,
    highest_ns: 3_600_000_000_000,
    payload_bytes: 512 * 1024,
    samples: 1 << 40,
};

/// HdrHistogram's V2 cookies (with the word size bits its writers set), and
/// the V2 header: cookie, payload length, normalizing offset, significant
/// figures, lowest and highest value, integer-to-double ratio.
const V2_COOKIE: u64 = 0x1c84_9313;
const V2_DEFLATED_COOKIE: u64 = 0x1c84_9314;
const V2_HEADER_BYTES: usize = 40;

impl HistogramLimits {
    /// The longest base64 text of a histogram within the limits.
    pub const fn base64_chars(&self) -> usize {
        (V2_HEADER_BYTES + self.payload_bytes).div_ceil(3) * 4
    }

    /// The plain V2 encoding of `bytes` (inflated when deflated, with the
    /// inflated size capped), once its header is within the limits.
    fn plain_encoding(&self, bytes: Vec<u8>) -> Result<Vec<u8>, String> {
        let plain = match bytes.get(..4).map(|cookie| big_endian(cookie, 0, 4)) {
            Some(V2_COOKIE) => bytes,
            Some(V2_DEFLATED_COOKIE) => {
                let deflated = bytes.get(8..).unwrap_or_default();
                let most = (V2_HEADER_BYTES + self.payload_bytes) as u64;
                let mut plain = Vec::new();
                flate2::read::ZlibDecoder::new(deflated)
                    .take(most + 1)
                    .read_to_end(&mut plain)
                    .map_err(|e| format!("a deflated V2 encoding that does not inflate ({e})"))?;
                if plain.len() as u64 > most {
                    return Err(format!(
                        "a deflated V2 encoding inflating past {most} bytes; expected at most that (the largest histogram a runner writes)"
                    ));
                }
                plain
            }
            _ => return Err("not an HdrHistogram V2 encoding (no V2 cookie)".to_owned()),
        };
        self.check_header(&plain)?;
        Ok(plain)
    }

    fn check_header(&self, plain: &[u8]) -> Result<(), String> {
        let Some(header) =
            plain.get(..V2_HEADER_BYTES).filter(|h| big_endian(h, 0, 4) == V2_COOKIE)
        else {
            return Err(format!(
                "a V2 encoding of {} bytes; expected a {V2_HEADER_BYTES}-byte header from a V2 cookie",
                plain.len()
            ));
        };
        let (payload, figures) = (big_endian(header, 4, 4), big_endian(header, 12, 4));
        let (lowest, highest) = (big_endian(header, 16, 8), big_endian(header, 24, 8));
        if figures == 0 || figures > u64::from(self.significant_figures) {
            return Err(format!(
                "{figures} significant figures; expected 1 to {}",
                self.significant_figures
            ));
        }
        if lowest != self.lowest_ns || highest < 2 * lowest || highest > self.highest_ns {
            return Err(format!(
                "values from {lowest} to {highest} ns; expected from {} to at most {} ns (an hour)",
                self.lowest_ns, self.highest_ns
            ));
        }
        let most = self.payload_bytes.min(plain.len() - V2_HEADER_BYTES);
        if payload > most as u64 {
            return Err(format!(
                "a payload of {payload} bytes; expected at most {most} (the bytes present, and at most {})",
                self.payload_bytes
            ));
        }
        Ok(())
    }
}

/// The big-endian unsigned number of `len` bytes at `at` (the caller checked the length).
fn big_endian(bytes: &[u8], at: usize, len: usize) -> u64 {
    bytes[at..at + len].iter().fold(0, |n, &b| n << 8 | u64::from(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histograms_written_by_every_runner_are_read_back() {
        let mut h = new_histogram();
        h.record(42).unwrap();
        let mut plain = Vec::new();
        hdrhistogram::serialization::V2Serializer::new().serialize(&h, &mut plain).unwrap();
        let mut deflated = Vec::new();
        hdrhistogram::serialization::V2DeflateSerializer::new()
            .serialize(&h, &mut deflated)
            .unwrap();
        for bytes in [plain, deflated] {
            let text = base64::engine::general_purpose::STANDARD.encode(bytes);
            assert_eq!(decode_histogram(&text).map(|h| h.max()), Ok(42));
        }
        assert!(decode_histogram("not a histogram").is_err());
    }

    /// A V2 header as a forged file would write it.
    fn v2_header(figures: u32, lowest: u64, highest: u64, declared_payload: u32) -> Vec<u8> {
        let mut bytes = (V2_COOKIE as u32).to_be_bytes().to_vec();
        bytes.extend_from_slice(&declared_payload.to_be_bytes());
        bytes.extend_from_slice(&0u32.to_be_bytes());
        bytes.extend_from_slice(&figures.to_be_bytes());
        bytes.extend_from_slice(&lowest.to_be_bytes());
        bytes.extend_from_slice(&highest.to_be_bytes());
        bytes.extend_from_slice(&1f64.to_be_bytes());
        bytes
    }

    fn refusal(bytes: &[u8]) -> String {
        decode_histogram(&base64::engine::general_purpose::STANDARD.encode(bytes)).unwrap_err()
    }

    /// A header asking for more than any runner writes is refused before the
    /// counts it implies are allocated (5 figures up to 2^62 would be 48 MB),
    /// as is a deflated encoding inflating past the largest allowed; one at
    /// the limits is read.
    #[test]
    fn histograms_beyond_the_writers_limits_are_refused_before_allocating() {
        let limits = &HISTOGRAM_LIMITS;
        for (bytes, says) in [
            (v2_header(5, 1, 1 << 62, 0), "5 significant figures; expected 1 to 3"),
            (v2_header(0, 1, 1000, 0), "0 significant figures"),
            (v2_header(3, 2, 1000, 0), "values from 2 to 1000 ns"),
            (v2_header(3, 1, limits.highest_ns + 1, 0), "to 3600000000001 ns"),
            (v2_header(3, 1, 1000, u32::MAX), "a payload of 4294967295 bytes; expected at most 0"),
            (v2_header(3, 1, 1000, 0)[..39].to_vec(), "a V2 encoding of 39 bytes"),
        ] {
            let refused = refusal(&bytes);
            assert!(refused.contains(says), "{refused}");
        }
        let mut bomb = v2_header(3, 1, 1000, 0);
        bomb.resize(64 << 20, 0);
        let mut deflated = (V2_DEFLATED_COOKIE as u32).to_be_bytes().to_vec();
        deflated.extend_from_slice(&0u32.to_be_bytes());
        let mut zlib = flate2::write::ZlibEncoder::new(deflated, flate2::Compression::best());
        std::io::Write::write_all(&mut zlib, &bomb).unwrap();
        assert!(refusal(&zlib.finish().unwrap()).contains("inflating past"));

        let mut widest = Histogram::<u64>::new_with_bounds(1, limits.highest_ns, 3).unwrap();
        widest.record(limits.highest_ns).unwrap();
        let mut bytes = Vec::new();
        V2Serializer::new().serialize(&widest, &mut bytes).unwrap();
        let text = base64::engine::general_purpose::STANDARD.encode(&bytes);
        assert_eq!(decode_histogram(&text).map(|h| h.len()), Ok(1));

        widest.record_n(1, limits.samples).unwrap();
        bytes.clear();
        V2Serializer::new().serialize(&widest, &mut bytes).unwrap();
        assert!(refusal(&bytes).contains("samples; expected at most 1099511627776"));
    }
}
