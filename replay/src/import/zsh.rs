//! zsh history (`~/.zsh_history`, `~/.zhistory`): plain lines or, with
//! EXTENDED_HISTORY, `: <start-epoch>:<elapsed-secs>;<command>`. A line ending in a
//! backslash continues on the next line (the backslash-newline is the command's own
//! newline). The file is metafied: byte 0x83 means "XOR the next byte with 0x20", so
//! it is unmetafied before UTF-8 decoding (else `echo 你好` is corrupted).

use super::{utf8, Acc};

const META: u8 = 0x83;

/// Reverses zsh's metafication.
pub(crate) fn unmetafy(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut it = bytes.iter();
    while let Some(&b) = it.next() {
        if b == META {
            if let Some(&n) = it.next() {
                out.push(n ^ 0x20);
            }
        } else {
            out.push(b);
        }
    }
    out
}

/// `: <digits>:<digits>;`
pub(crate) fn is_extended_header(line: &[u8]) -> bool {
    header_len(line).is_some()
}

fn header_len(line: &[u8]) -> Option<usize> {
    let rest = line.strip_prefix(b": ")?;
    let a = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    let rest2 = rest.get(a..)?.strip_prefix(b":")?;
    let b = rest2.iter().take_while(|b| b.is_ascii_digit()).count();
    rest2.get(b..)?.strip_prefix(b";")?;
    (a > 0 && b > 0).then_some(2 + a + 1 + b + 1)
}

/// Ends in an odd number of backslashes: the newline after it is escaped.
fn continues(line: &[u8]) -> bool {
    line.iter().rev().take_while(|&&b| b == b'\\').count() % 2 == 1
}

pub(crate) fn parse(label: &str, bytes: &[u8]) -> Acc {
    let mut acc = Acc::default();
    // Lines are split on the raw bytes: 0x83 0x2A etc. never produce a raw newline.
    let lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    let mut i = 0;
    while i < lines.len() {
        let start = i + 1;
        let mut entry: Vec<u8> = Vec::new();
        let first = lines[i];
        let body = if let Some(h) = header_len(first) {
            &first[h..]
        } else if first.starts_with(b": ") && first.contains(&b';') {
            acc.bad(label, start, "extended-history header is not `: <epoch>:<secs>;`; skipped");
            i += 1;
            while i < lines.len() && continues(lines[i - 1]) {
                i += 1;
            }
            continue;
        } else {
            first
        };
        let mut line = body;
        loop {
            if continues(line) && i + 1 < lines.len() {
                entry.extend_from_slice(&line[..line.len() - 1]);
                entry.push(b'\n');
                i += 1;
                line = lines[i];
            } else {
                entry.extend_from_slice(line);
                break;
            }
        }
        i += 1;
        let raw = unmetafy(&entry);
        match utf8(&raw) {
            Ok(t) => acc.add(t.trim_end_matches('\r').to_owned(), None, 1),
            Err(why) => acc.bad(label, start, why),
        }
    }
    acc
}
