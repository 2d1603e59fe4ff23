//! A 128-bit content digest: two FNV-style multiply-xor hashes over 8-byte words, with
//! different starting points and mixing. It names build cache entries and notices changed
//! files; it is not meant to resist anyone forging it.

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Digest(u64, u64);

#[derive(Clone, Copy)]
pub struct Hasher(u64, u64);

const PRIME: u64 = 0x0000_0100_0000_01b3;

impl Hasher {
    pub fn new() -> Hasher {
        Hasher(0xcbf2_9ce4_8422_2325, 0x6c62_272e_07bb_0142)
    }

    pub fn write(&mut self, bytes: &[u8]) -> &mut Hasher {
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            self.mix(u64::from_le_bytes(word.try_into().unwrap_or_default()));
        }
        let mut last = [0u8; 8];
        last[..words.remainder().len()].copy_from_slice(words.remainder());
        self.mix(u64::from_le_bytes(last));
        // The length, so that ("ab", "c") and ("a", "bc") differ, as do trailing zeros.
        self.mix(bytes.len() as u64);
        self
    }

    fn mix(&mut self, word: u64) {
        self.0 = (self.0 ^ word).wrapping_mul(PRIME);
        self.1 = (self.1 ^ word.rotate_left(29)).wrapping_mul(PRIME).rotate_left(5);
    }

    pub fn finish(&self) -> Digest {
        Digest(self.0, self.1)
    }
}

impl Default for Hasher {
    fn default() -> Hasher {
        Hasher::new()
    }
}

impl Digest {
    pub fn of(bytes: &[u8]) -> Digest {
        Hasher::new().write(bytes).finish()
    }

    /// 32 lowercase hex digits, for a file name.
    pub fn hex(self) -> String {
        format!("{:016x}{:016x}", self.0, self.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_bytes_give_equal_digests_and_any_change_another() {
        assert_eq!(Digest::of(b"stone"), Digest::of(b"stone"));
        assert_ne!(Digest::of(b"stone"), Digest::of(b"stonf"));
        assert_ne!(Digest::of(b"stone"), Digest::of(b"stone\0"));
        assert_ne!(Digest::of(b"abcdefgh1"), Digest::of(b"abcdefgh2"));
        let split = |a: &[u8], b: &[u8]| Hasher::new().write(a).write(b).finish();
        assert_ne!(split(b"ab", b"c"), split(b"a", b"bc"));
        assert_eq!(Digest::of(b"").hex().len(), 32);
    }
}
