//! Parsed inputs, kept under the cache folder so a stored case is parsed once, not on every
//! run: parsing the text was most of the judge's own work on a fast solution. An entry is
//! named by the input file's path, inode, size and modification and change times, so any
//! write to the file (which moves its change time) makes a new entry and the old one unused.
//! An entry is checked against the problem's constraints when read; one that fails, or is
//! missing, is parsed again from the text.

use std::fs::{self, Metadata};
use std::io::Read;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use crate::exec::compile::write_atomically;
use crate::exec::digest::Digest;
use crate::problem::{MAX_LEN, MAX_VALUE, MIN_LEN, MIN_VALUE};

/// The first bytes of an entry; a new layout gets a new tag.
const TAG: &[u8; 8] = b"sg3in01\n";

pub struct Parsed {
    dir: PathBuf,
}

impl Parsed {
    /// The cache in `dir`, created if needed; None if it cannot be, and then every case is
    /// parsed from its text.
    pub fn open(dir: &Path) -> Option<Parsed> {
        fs::create_dir_all(dir).ok()?;
        Some(Parsed { dir: dir.to_path_buf() })
    }

    fn entry(&self, input: &Path, meta: &Metadata) -> PathBuf {
        let identity = format!(
            "{}\0{}\0{}\0{}\0{}.{}\0{}.{}",
            input.display(),
            meta.dev(),
            meta.ino(),
            meta.len(),
            meta.mtime(),
            meta.mtime_nsec(),
            meta.ctime(),
            meta.ctime_nsec()
        );
        self.dir.join(Digest::of(identity.as_bytes()).hex())
    }

    /// The values of `input` as last parsed, if that file has not changed since. Read through
    /// a small buffer straight into the values: a whole-file buffer would be fresh memory for
    /// every large case, and faulting its pages in costs more than the copy.
    pub fn get(&self, input: &Path, meta: &Metadata) -> Option<Vec<i32>> {
        let mut file = fs::File::open(self.entry(input, meta)).ok()?;
        let size = file.metadata().ok()?.len() as usize;
        let count = size.checked_sub(TAG.len()).filter(|body| body % 4 == 0)? / 4;
        if !(MIN_LEN..=MAX_LEN).contains(&count) {
            return None;
        }
        let mut tag = [0u8; TAG.len()];
        file.read_exact(&mut tag).ok().filter(|_| &tag == TAG)?;
        let mut values = Vec::with_capacity(count);
        let mut chunk = [0u8; 1 << 14];
        while values.len() < count {
            let want = ((count - values.len()) * 4).min(chunk.len());
            file.read_exact(&mut chunk[..want]).ok()?;
            values.extend(chunk[..want].chunks_exact(4).map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]])));
        }
        values.iter().all(|v| (MIN_VALUE..=MAX_VALUE).contains(v)).then_some(values)
    }

    /// Remembers the values of `input`; a failure only costs a parse next time.
    pub fn put(&self, input: &Path, meta: &Metadata, values: &[i32]) {
        let _ = write_atomically(&self.entry(input, meta), &encode(values));
    }
}

fn encode(values: &[i32]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(TAG.len() + 4 * values.len());
    bytes.extend_from_slice(TAG);
    for value in values {
        bytes.extend_from_slice(&value.to_le_bytes());
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_gives_back_its_values_until_the_file_changes() {
        let dir = std::env::temp_dir().join(format!("judge-parsed-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let cache = Parsed::open(&dir.join("cache")).unwrap();
        let input = dir.join("a.in");
        fs::write(&input, "[1,-2,3]\n").unwrap();
        let meta = fs::metadata(&input).unwrap();
        assert_eq!(cache.get(&input, &meta), None);
        cache.put(&input, &meta, &[1, -2, 3]);
        assert_eq!(cache.get(&input, &fs::metadata(&input).unwrap()), Some(vec![1, -2, 3]));
        // Past any coarse clock tick, a rewrite moves the change time: the entry no longer applies.
        std::thread::sleep(std::time::Duration::from_millis(50));
        fs::write(&input, "[7,-2,3]\n").unwrap();
        assert_eq!(cache.get(&input, &fs::metadata(&input).unwrap()), None);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_broken_or_out_of_range_entry_is_not_used() {
        let dir = std::env::temp_dir().join(format!("judge-parsed-broken-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let cache = Parsed::open(&dir.join("cache")).unwrap();
        let input = dir.join("a.in");
        fs::write(&input, "[1]\n").unwrap();
        let meta = fs::metadata(&input).unwrap();
        let read = |bytes: &[u8]| {
            fs::write(cache.entry(&input, &meta), bytes).unwrap();
            cache.get(&input, &meta)
        };
        let many: Vec<i32> = (0..40_000).map(|i| i % 2001 - 1000).collect();
        assert_eq!(read(&encode(&many)), Some(many.clone()), "longer than the read buffer");
        let whole = encode(&[5, 6]);
        assert_eq!(read(&whole[..whole.len() - 1]), None, "cut short");
        assert_eq!(read(&whole[1..]), None, "no tag");
        assert_eq!(read(&encode(&[])), None, "no piles");
        assert_eq!(read(&encode(&[1001])), None, "out of range");
        assert_eq!(read(&encode(&vec![0; MAX_LEN + 1])), None, "too many");
        fs::remove_dir_all(&dir).unwrap();
    }
}
