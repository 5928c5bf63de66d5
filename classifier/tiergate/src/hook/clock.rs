//! The hook's clock and one-time codes: Unix seconds (overridable by the test-only
//! `TIERGATE_NOW`), RFC 3339 rendering without a date crate, and random codes.
//!
//! It does not decide anything; it only answers "what time is it" and "give me a code".

use std::io::Read;
use std::time::{SystemTime, UNIX_EPOCH};

/// Seconds since the Unix epoch. `TIERGATE_NOW=<seconds>` overrides it so tests can
/// expire grants without sleeping; an unparsable value is reported and ignored.
pub fn now() -> i64 {
    if let Ok(v) = std::env::var("TIERGATE_NOW") {
        match v.trim().parse::<i64>() {
            Ok(n) => return n,
            Err(_) => eprintln!("tiergate: ignoring TIERGATE_NOW={v:?} (want Unix seconds)"),
        }
    }
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0)
}

/// `2026-12-01T18:39:09Z` for Unix seconds (UTC, proleptic Gregorian).
pub fn rfc3339(secs: i64) -> String {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

// Howard Hinnant's days-to-civil algorithm; exact for every i64 day we will see.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// Letters and digits a human can read back without confusion (no 0/O, 1/I/L, U).
const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTVWXYZ23456789";
pub const CODE_LEN: usize = 6;

/// A fresh random code such as `K7QF2M`, from the OS random source. An error here
/// means no code can be minted, which the caller turns into a deny, never an allow.
pub fn random_code() -> Result<String, String> {
    let mut bytes = [0u8; CODE_LEN * 2];
    std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut bytes)).map_err(|e| format!("reading /dev/urandom: {e}"))?;
    Ok(bytes
        .chunks(2)
        .map(|c| {
            let n = usize::from(u16::from_le_bytes([c[0], c[1]]));
            char::from(CODE_ALPHABET[n % CODE_ALPHABET.len()])
        })
        .collect())
}

/// Upper-cases a code the human typed and strips spaces and dashes around it.
pub fn normalise_code(code: &str) -> String {
    code.chars().filter(|c| c.is_ascii_alphanumeric()).map(|c| c.to_ascii_uppercase()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_known_instants() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(1_796_150_349), "2026-12-01T18:39:09Z");
    }

    #[test]
    fn codes_use_the_readable_alphabet() {
        let c = random_code().unwrap();
        assert_eq!(c.len(), CODE_LEN);
        assert!(c.bytes().all(|b| CODE_ALPHABET.contains(&b)), "{c}");
        assert_eq!(normalise_code(" k7q-f2m "), "K7QF2M");
    }
}
