//! Deterministic random values for the generated workloads.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub struct Random(ChaCha8Rng);

const ALNUM: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

impl Random {
    pub fn new(seed: u64) -> Self {
        Random(ChaCha8Rng::seed_from_u64(seed))
    }

    pub fn rng(&mut self) -> &mut ChaCha8Rng {
        &mut self.0
    }

    pub fn hex(&mut self, len: usize) -> String {
        (0..len).map(|_| char::from(b"0123456789abcdef"[self.0.random_range(0..16)])).collect()
    }

    pub fn alnum(&mut self, len: usize) -> String {
        (0..len).map(|_| char::from(ALNUM[self.0.random_range(0..ALNUM.len())])).collect()
    }

    /// RFC 4122 version-4 text form: 36 characters.
    pub fn uuid(&mut self) -> String {
        let h = self.hex(32);
        let variant = ["8", "9", "a", "b"][self.0.random_range(0..4)];
        format!(
            "{}-{}-4{}-{}{}-{}",
            &h[..8],
            &h[8..12],
            &h[13..16],
            variant,
            &h[17..20],
            &h[20..32]
        )
    }

    /// "YYYY-MM-DD HH:MM:SS" between 2015 and 2024, UTC.
    pub fn datetime(&mut self) -> String {
        let seconds = self.0.random_range(1_420_070_400u64..1_735_689_600);
        let stamp = humantime::format_rfc3339_seconds(
            std::time::UNIX_EPOCH + std::time::Duration::from_secs(seconds),
        );
        stamp.to_string().trim_end_matches('Z').replace('T', " ")
    }

    /// `operations` indices into a pool of `pool` records, uniformly at random.
    pub fn picks(&mut self, pool: usize, operations: usize) -> Vec<u32> {
        (0..operations).map(|_| self.0.random_range(0..pool as u32)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_of_generated_text() {
        let mut r = Random::new(1);
        let uuid = r.uuid();
        assert_eq!(uuid.len(), 36);
        assert_eq!(uuid.matches('-').count(), 4);
        assert_eq!(&uuid[14..15], "4");
        let dt = r.datetime();
        assert_eq!(dt.len(), 19, "{dt}");
        assert_eq!(&dt[10..11], " ");
        assert!(r.hex(32).chars().all(|c| c.is_ascii_hexdigit()));
        assert_eq!(r.alnum(20).len(), 20);
    }
}
