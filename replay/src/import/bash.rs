//! bash history (`~/.bash_history`, `$HISTFILE`): one command per line, or, with
//! `HISTTIMEFORMAT` set, a `#<epoch>` line before each command. When timestamps are
//! present, the lines between two of them are one (multi-line) command; without
//! them each line stands alone. Invalid UTF-8 lines are counted and skipped.

use super::{utf8, Acc};

fn is_timestamp(line: &[u8]) -> bool {
    line.len() > 1 && line[0] == b'#' && line[1..].iter().all(u8::is_ascii_digit)
}

pub(crate) fn parse(label: &str, bytes: &[u8]) -> Acc {
    let mut acc = Acc::default();
    let lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').map(|l| l.strip_suffix(b"\r").unwrap_or(l)).collect();
    let stamped = lines.iter().any(|l| is_timestamp(l));
    // (first line number, lines) of the command being collected.
    let mut current: Option<(usize, Vec<&str>)> = None;
    let flush = |acc: &mut Acc, cur: &mut Option<(usize, Vec<&str>)>| {
        if let Some((_, parts)) = cur.take() {
            acc.add(parts.join("\n"), None, 1);
        }
    };
    for (i, raw) in lines.iter().enumerate() {
        let n = i + 1;
        if is_timestamp(raw) {
            flush(&mut acc, &mut current);
            current = Some((n, Vec::new()));
            continue;
        }
        if raw.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let text = match utf8(raw) {
            Ok(t) => t,
            Err(why) => {
                acc.bad(label, n, why);
                // A broken line poisons the stamped entry it belongs to.
                if stamped {
                    current = None;
                }
                continue;
            }
        };
        if stamped {
            match current.as_mut() {
                Some((_, parts)) => parts.push(text),
                // Lines before the first timestamp stand alone.
                None => acc.add(text.to_owned(), None, 1),
            }
        } else {
            acc.add(text.to_owned(), None, 1);
        }
    }
    flush(&mut acc, &mut current);
    acc
}
