//! Two digests. A 128-bit content digest: two FNV-style multiply-xor hashes over 8-byte words,
//! with different starting points and mixing; it names build cache entries and notices changed
//! files, and anyone can compute it. And a keyed tag, SipHash-2-4: without its 128-bit key
//! nobody can make the tag of bytes of their own choosing, so it seals cache entries.

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

/// SipHash-2-4 (Aumasson and Bernstein, 2012) of `bytes` under `key`: a 64-bit tag that
/// cannot be made for other bytes without the key.
pub fn keyed(key: [u64; 2], bytes: &[u8]) -> u64 {
    let [k0, k1] = key;
    let mut v = [
        k0 ^ 0x736f_6d65_7073_6575,
        k1 ^ 0x646f_7261_6e64_6f6d,
        k0 ^ 0x6c79_6765_6e65_7261,
        k1 ^ 0x7465_6462_7974_6573,
    ];
    fn compress(v: &mut [u64; 4], m: u64, rounds: usize) {
        v[3] ^= m;
        for _ in 0..rounds {
            v[0] = v[0].wrapping_add(v[1]);
            v[1] = v[1].rotate_left(13) ^ v[0];
            v[0] = v[0].rotate_left(32);
            v[2] = v[2].wrapping_add(v[3]);
            v[3] = v[3].rotate_left(16) ^ v[2];
            v[0] = v[0].wrapping_add(v[3]);
            v[3] = v[3].rotate_left(21) ^ v[0];
            v[2] = v[2].wrapping_add(v[1]);
            v[1] = v[1].rotate_left(17) ^ v[2];
            v[2] = v[2].rotate_left(32);
        }
        v[0] ^= m;
    }
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        compress(&mut v, u64::from_le_bytes(word.try_into().unwrap_or_default()), 2);
    }
    let mut last = [0u8; 8];
    last[..words.remainder().len()].copy_from_slice(words.remainder());
    compress(&mut v, u64::from_le_bytes(last) | ((bytes.len() as u64) << 56), 2);
    v[2] ^= 0xff;
    compress(&mut v, 0, 4);
    v[0] ^ v[1] ^ v[2] ^ v[3]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_keyed_tag_is_siphash_2_4() {
        // The reference vectors of the SipHash paper: key 00 01 .. 0f, messages 00 01 .. (n-1).
        let key = [0x0706_0504_0302_0100, 0x0f0e_0d0c_0b0a_0908];
        let message: Vec<u8> = (0..15).collect();
        assert_eq!(keyed(key, &message), 0xa129_ca61_49be_45e5);
        assert_eq!(keyed(key, &[]), 0x726f_db47_dd0e_0e31);
        assert_ne!(keyed([key[0] ^ 1, key[1]], &message), keyed(key, &message));
    }

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
