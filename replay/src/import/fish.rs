//! fish history (`$XDG_DATA_HOME/fish/fish_history`): YAML-ish entries
//! `- cmd: <c>` / `  when: <epoch>` / `  paths:` / `    - <p>`. Inside `cmd`, `\\`
//! is a backslash and `\n` a newline. A `when` that does not parse keeps the entry
//! (fish itself keeps the previous timestamp); a line outside any entry, or an
//! entry that is not UTF-8, is counted and skipped.

use super::{utf8, Acc};

/// fish's escaping of the `cmd` value.
pub(crate) fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('n') => out.push('\n'),
            Some('\\') => out.push('\\'),
            Some(o) => {
                out.push('\\');
                out.push(o);
            }
            None => out.push('\\'),
        }
    }
    out
}

pub(crate) fn parse(label: &str, bytes: &[u8]) -> Acc {
    let mut acc = Acc::default();
    let mut in_entry = false;
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let n = i + 1;
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        if raw.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        if let Some(cmd) = raw.strip_prefix(b"- cmd:") {
            in_entry = true;
            match utf8(cmd) {
                Ok(t) => {
                    let t = t.strip_prefix(' ').unwrap_or(t);
                    acc.add(unescape(t), None, 1);
                }
                Err(why) => {
                    acc.bad(label, n, why);
                    in_entry = false;
                }
            }
            continue;
        }
        // Entry fields (`when:`, `paths:`, path items) are indented.
        if in_entry && raw.starts_with(b" ") {
            continue;
        }
        acc.bad(label, n, "not a `- cmd:` entry or one of its fields; skipped");
    }
    acc
}
