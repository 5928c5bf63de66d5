//! Reads one member out of a zip archive (a Python wheel) held in memory: the end
//! of central directory record, the central directory, the local header, then the
//! stored or deflated bytes. It supports what wheels use (no zip64, no encryption,
//! methods 0 and 8) and says so plainly for anything else.

use std::io::Read;

use anyhow::{bail, Context};

fn u16_at(b: &[u8], at: usize) -> anyhow::Result<u16> {
    let s = b.get(at..at + 2).context("zip: truncated record")?;
    Ok(u16::from_le_bytes([s[0], s[1]]))
}

fn u32_at(b: &[u8], at: usize) -> anyhow::Result<u32> {
    let s = b.get(at..at + 4).context("zip: truncated record")?;
    Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

/// Returns the uncompressed bytes of `member` in the zip archive `zip`.
pub fn member(zip: &[u8], member: &str) -> anyhow::Result<Vec<u8>> {
    // The end-of-central-directory record sits in the last 64 KiB + 22 bytes.
    let lo = zip.len().saturating_sub(65_557);
    let eocd = (lo..zip.len().saturating_sub(21))
        .rev()
        .find(|&i| zip[i..].starts_with(b"PK\x05\x06"))
        .context("zip: no end of central directory record (not a zip file?)")?;
    let entries = u16_at(zip, eocd + 10)? as usize;
    let mut at = u32_at(zip, eocd + 16)? as usize;
    for _ in 0..entries {
        if !zip.get(at..).is_some_and(|s| s.starts_with(b"PK\x01\x02")) {
            bail!("zip: bad central directory entry at byte {at}");
        }
        let method = u16_at(zip, at + 10)?;
        let csize = u32_at(zip, at + 20)? as usize;
        let usize_ = u32_at(zip, at + 24)? as usize;
        let nlen = u16_at(zip, at + 28)? as usize;
        let xlen = u16_at(zip, at + 30)? as usize;
        let clen = u16_at(zip, at + 32)? as usize;
        let local = u32_at(zip, at + 42)? as usize;
        let name = zip.get(at + 46..at + 46 + nlen).context("zip: truncated name")?;
        at += 46 + nlen + xlen + clen;
        if name != member.as_bytes() {
            continue;
        }
        if !zip.get(local..).is_some_and(|s| s.starts_with(b"PK\x03\x04")) {
            bail!("zip: bad local header for {member}");
        }
        let start = local + 30 + u16_at(zip, local + 26)? as usize + u16_at(zip, local + 28)? as usize;
        let data = zip.get(start..start + csize).context("zip: member data truncated")?;
        return match method {
            0 => Ok(data.to_vec()),
            8 => {
                let mut out = Vec::with_capacity(usize_);
                flate2::read::DeflateDecoder::new(data).read_to_end(&mut out).context("zip: inflating")?;
                Ok(out)
            }
            m => bail!("zip: {member} uses compression method {m}; only stored (0) and deflate (8) are supported"),
        };
    }
    bail!("zip: no member named {member}")
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::io::Write;

    /// Builds a one-member zip by hand (deflate), the shape a wheel has.
    pub(crate) fn one_member_zip(name: &str, content: &[u8]) -> Vec<u8> {
        let mut enc = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(content).unwrap();
        let data = enc.finish().unwrap();
        let mut z = Vec::new();
        let n = name.len() as u16;
        z.extend_from_slice(b"PK\x03\x04");
        z.extend_from_slice(&[20, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        z.extend_from_slice(&(data.len() as u32).to_le_bytes());
        z.extend_from_slice(&(content.len() as u32).to_le_bytes());
        z.extend_from_slice(&n.to_le_bytes());
        z.extend_from_slice(&0u16.to_le_bytes());
        z.extend_from_slice(name.as_bytes());
        z.extend_from_slice(&data);
        let cd = z.len() as u32;
        z.extend_from_slice(b"PK\x01\x02");
        z.extend_from_slice(&[20, 0, 20, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        z.extend_from_slice(&(data.len() as u32).to_le_bytes());
        z.extend_from_slice(&(content.len() as u32).to_le_bytes());
        z.extend_from_slice(&n.to_le_bytes());
        z.extend_from_slice(&[0; 12]);
        z.extend_from_slice(&0u32.to_le_bytes());
        z.extend_from_slice(name.as_bytes());
        let cdlen = z.len() as u32 - cd;
        z.extend_from_slice(b"PK\x05\x06");
        z.extend_from_slice(&[0, 0, 0, 0, 1, 0, 1, 0]);
        z.extend_from_slice(&cdlen.to_le_bytes());
        z.extend_from_slice(&cd.to_le_bytes());
        z.extend_from_slice(&0u16.to_le_bytes());
        z
    }

    #[test]
    fn reads_a_deflated_member_and_names_a_missing_one() {
        let z = one_member_zip("pkg/data.txt", b"hello hello hello");
        assert_eq!(member(&z, "pkg/data.txt").unwrap(), b"hello hello hello");
        let err = member(&z, "pkg/other.txt").unwrap_err().to_string();
        assert!(err.contains("no member named pkg/other.txt"), "{err}");
        assert!(member(b"not a zip", "x").is_err());
    }
}
