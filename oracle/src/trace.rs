//! strace output (`-f -qq -y -s 256`) → syscall records. Lines of one pid that
//! strace split (`<unfinished ...>` … `<... x resumed>`) are joined first; the
//! arguments are split at top-level commas (quotes, braces, brackets respected)
//! and quoted strings are unescaped. Nothing here decides what is harmful.

use std::collections::HashMap;

/// One completed syscall.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    pub pid: u32,
    pub name: String,
    pub args: Vec<String>,
    /// The text after ` = `: `0`, `3</etc/x>`, `-1 EROFS (Read-only file system)`.
    pub ret: String,
    /// The raw (joined) line, for evidence.
    pub line: String,
}

impl Call {
    /// `Some("EROFS")` for a failed call.
    pub fn errno(&self) -> Option<&str> {
        let r = self.ret.strip_prefix("-1 ")?;
        r.split_whitespace().next()
    }
    pub fn ok(&self) -> bool {
        !self.ret.starts_with('-') && !self.ret.starts_with('?')
    }
    /// The `<path>` strace -y appends to an fd (argument or return value).
    pub fn fd_path(s: &str) -> Option<&str> {
        let start = s.find('<')?;
        let end = s.rfind('>')?;
        (end > start).then(|| &s[start + 1..end])
    }
}

/// Parses a whole trace. Unparseable lines are counted, never guessed at.
pub fn parse(text: &str) -> (Vec<Call>, usize) {
    let mut pending: HashMap<u32, String> = HashMap::new();
    let mut calls = Vec::new();
    let mut bad = 0;
    for line in text.lines() {
        let Some((pid, rest)) = split_pid(line) else {
            bad += usize::from(!line.trim().is_empty());
            continue;
        };
        if rest.starts_with("+++") || rest.starts_with("---") {
            continue;
        }
        let joined = if let Some(r) = rest.strip_prefix("<... ") {
            // `<... openat resumed>, O_RDONLY) = 3`
            let Some(end) = r.find(" resumed>") else {
                bad += 1;
                continue;
            };
            match pending.remove(&pid) {
                Some(head) => format!("{head}{}", &r[end + " resumed>".len()..]),
                None => continue,
            }
        } else if let Some(head) = rest.strip_suffix(" <unfinished ...>") {
            pending.insert(pid, head.to_owned());
            continue;
        } else {
            rest.to_owned()
        };
        match call(pid, &joined) {
            Some(c) => calls.push(c),
            None => bad += 1,
        }
    }
    (calls, bad)
}

fn split_pid(line: &str) -> Option<(u32, &str)> {
    let t = line.trim_start();
    let end = t.find(|c: char| !c.is_ascii_digit())?;
    let pid = t[..end].parse().ok()?;
    Some((pid, t[end..].trim_start()))
}

fn call(pid: u32, s: &str) -> Option<Call> {
    let open = s.find('(')?;
    let name = &s[..open];
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return None;
    }
    // strace pads before ` = ` (`)        = 0`); the return is after the last ` = `
    // whose left side ends the argument list.
    let close = s.rmatch_indices(" = ").find_map(|(i, _)| {
        let left = s[..i].trim_end();
        left.ends_with(')').then_some(left.len() - 1)
    })?;
    let ret = s[close + 1..].trim_start().strip_prefix('=')?.trim().to_owned();
    Some(Call { pid, name: name.to_owned(), args: split_args(&s[open + 1..close]), ret, line: s.to_owned() })
}

/// Top-level comma split of an argument list.
pub fn split_args(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut depth, mut quoted, mut escaped) = (0i32, false, false);
    let mut cur = String::new();
    for ch in s.chars() {
        if quoted {
            cur.push(ch);
            match (escaped, ch) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => quoted = false,
                _ => {}
            }
            continue;
        }
        match ch {
            '"' => {
                quoted = true;
                cur.push(ch);
            }
            '{' | '[' | '(' => {
                depth += 1;
                cur.push(ch);
            }
            '}' | ']' | ')' => {
                depth -= 1;
                cur.push(ch);
            }
            ',' if depth == 0 => out.push(std::mem::take(&mut cur).trim().to_owned()),
            _ => cur.push(ch),
        }
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_owned());
    }
    out
}

/// The first quoted string of `arg`, unescaped (`"a\"b"...` → `a"b`).
pub fn unquote(arg: &str) -> Option<String> {
    let start = arg.find('"')?;
    let mut out = Vec::new();
    let b = arg.as_bytes();
    let mut i = start + 1;
    while i < b.len() {
        match b[i] {
            b'"' => return Some(String::from_utf8_lossy(&out).into_owned()),
            b'\\' if i + 1 < b.len() => {
                i += 1;
                match b[i] {
                    b'n' => out.push(b'\n'),
                    b't' => out.push(b'\t'),
                    b'r' => out.push(b'\r'),
                    b'x' if i + 2 < b.len() => {
                        out.push(u8::from_str_radix(std::str::from_utf8(&b[i + 1..i + 3]).ok()?, 16).ok()?);
                        i += 2;
                    }
                    d @ b'0'..=b'7' => {
                        let mut v = u32::from(d - b'0');
                        let mut n = 1;
                        while n < 3 && i + 1 < b.len() && (b'0'..=b'7').contains(&b[i + 1]) {
                            i += 1;
                            n += 1;
                            v = v * 8 + u32::from(b[i] - b'0');
                        }
                        out.push(v as u8);
                    }
                    other => out.push(other),
                }
            }
            c => out.push(c),
        }
        i += 1;
    }
    None
}

/// `["a", "b"]` → the strings (execve's argv).
pub fn string_list(arg: &str) -> Vec<String> {
    let inner = arg.trim().trim_start_matches('[').trim_end_matches(']');
    split_args(inner).iter().filter_map(|a| unquote(a)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_unfinished_lines_and_splits_arguments() {
        let t = "7     openat(AT_FDCWD</srv/proj>, \"/etc/x\", O_WRONLY|O_CREAT <unfinished ...>\n\
                 8     kill(7, SIGTERM) = 0\n\
                 7     <... openat resumed>|O_NOCTTY, 0666)    = -1 EROFS (Read-only file system)\n\
                 7     +++ exited with 1 +++\n\
                 garbage\n";
        let (calls, bad) = parse(t);
        assert_eq!(bad, 1);
        assert_eq!(calls.len(), 2);
        let o = calls.iter().find(|c| c.name == "openat").unwrap();
        assert_eq!(o.args, ["AT_FDCWD</srv/proj>", "\"/etc/x\"", "O_WRONLY|O_CREAT|O_NOCTTY", "0666"]);
        assert_eq!(o.errno(), Some("EROFS"));
        assert_eq!(Call::fd_path(&o.args[0]), Some("/srv/proj"));
    }

    #[test]
    fn execve_argv_and_escapes() {
        let (calls, _) = parse("5 execve(\"/bin/sh\", [\"sh\", \"-c\", \"echo \\\"a, b\\\"\\n\"], 0x7ff /* 3 vars */) = 0\n");
        assert_eq!(string_list(&calls[0].args[1]), ["sh", "-c", "echo \"a, b\"\n"]);
        assert_eq!(unquote("\"\\x41\\101\""), Some("AA".into()));
        assert!(calls[0].ok());
    }
}
