//! Python tokens: names, string literals (every prefix, triple quotes, escapes,
//! f-string holes), numbers, operators and logical-line ends; comments dropped.
//! `python.rs` scans them; this module knows nothing about calls or effects.

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tok {
    Name(String),
    /// A string literal; `holes` are an f-string's `{…}` expressions (none: a plain literal).
    Str {
        text: String,
        holes: Vec<String>,
    },
    Num,
    Op(String),
    Newline,
}

/// Splits Python source into tokens; `Err` names the line of an unterminated string.
pub(crate) fn tokenize(src: &str) -> Result<Vec<Tok>, String> {
    let c: Vec<char> = src.chars().collect();
    let mut toks = Vec::new();
    let mut i = 0;
    let mut depth = 0usize;
    let mut line = 1usize;
    while i < c.len() {
        let ch = c[i];
        match ch {
            '#' => {
                while i < c.len() && c[i] != '\n' {
                    i += 1;
                }
            }
            '\\' if c.get(i + 1) == Some(&'\n') => {
                i += 2;
                line += 1;
            }
            '\n' => {
                if depth == 0 && !matches!(toks.last(), Some(Tok::Newline) | None) {
                    toks.push(Tok::Newline);
                }
                line += 1;
                i += 1;
            }
            ';' => {
                toks.push(Tok::Newline);
                i += 1;
            }
            c0 if c0.is_whitespace() => i += 1,
            '\'' | '"' => {
                let (t, next, lines) = string(&c, i, "", line)?;
                toks.push(t);
                line += lines;
                i = next;
            }
            c0 if c0.is_alphabetic() || c0 == '_' => {
                let start = i;
                while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                    i += 1;
                }
                let word: String = c[start..i].iter().collect();
                let lower = word.to_ascii_lowercase();
                if matches!(c.get(i), Some('\'' | '"')) && matches!(lower.as_str(), "r" | "u" | "b" | "f" | "br" | "rb" | "fr" | "rf" | "t" | "tr" | "rt") {
                    let (t, next, lines) = string(&c, i, &lower, line)?;
                    toks.push(t);
                    line += lines;
                    i = next;
                } else {
                    toks.push(Tok::Name(word));
                }
            }
            c0 if c0.is_ascii_digit() => {
                while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_' || c[i] == '.') {
                    i += 1;
                }
                toks.push(Tok::Num);
            }
            _ => {
                if matches!(ch, '(' | '[' | '{') {
                    depth += 1;
                } else if matches!(ch, ')' | ']' | '}') {
                    depth = depth.saturating_sub(1);
                }
                let two: String = c[i..(i + 2).min(c.len())].iter().collect();
                let op = if matches!(
                    two.as_str(),
                    "==" | "!=" | "<=" | ">=" | "+=" | "-=" | "*=" | "/=" | "|=" | "&=" | "->" | ":=" | "**" | "//" | "%=" | "^=" | "@=" | "<<" | ">>"
                ) {
                    two
                } else {
                    ch.to_string()
                };
                i += op.chars().count();
                toks.push(Tok::Op(op));
            }
        }
    }
    Ok(toks)
}

/// Reads a string literal starting at the quote `c[i]`; returns the token, the
/// index after it and the newlines it spans.
fn string(c: &[char], mut i: usize, prefix: &str, line: usize) -> Result<(Tok, usize, usize), String> {
    let raw = prefix.contains('r');
    let fmt = prefix.contains('f') || prefix.contains('t');
    let q = c[i];
    let triple = c.get(i + 1) == Some(&q) && c.get(i + 2) == Some(&q);
    i += if triple { 3 } else { 1 };
    let mut text = String::new();
    let mut lines = 0;
    loop {
        let Some(&ch) = c.get(i) else {
            return Err(format!("unterminated string starting on line {line}"));
        };
        if ch == q && (!triple || (c.get(i + 1) == Some(&q) && c.get(i + 2) == Some(&q))) {
            i += if triple { 3 } else { 1 };
            break;
        }
        if ch == '\n' {
            if !triple {
                return Err(format!("unterminated string on line {line}"));
            }
            lines += 1;
        }
        if ch == '\\' {
            let next = c.get(i + 1).copied().unwrap_or('\\');
            if raw {
                text.push('\\');
                text.push(next);
            } else {
                match next {
                    'n' => text.push('\n'),
                    't' => text.push('\t'),
                    'r' => text.push('\r'),
                    '0' => text.push('\0'),
                    '\n' => lines += 1,
                    '\\' | '\'' | '"' => text.push(next),
                    'x' => {
                        let hex: String = c.get(i + 2..i + 4).map(|s| s.iter().collect()).unwrap_or_default();
                        match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                            Some(d) => {
                                text.push(d);
                                i += 2;
                            }
                            None => text.push_str("\\x"),
                        }
                    }
                    other => {
                        text.push('\\');
                        text.push(other);
                    }
                }
            }
            i += 2;
            continue;
        }
        text.push(ch);
        i += 1;
    }
    let holes = if fmt { holes_of(&text) } else { Vec::new() };
    Ok((Tok::Str { text, holes }, i, lines))
}

/// The `{…}` expressions of an f-string (`{{`/`}}` are literal braces). A hole's
/// expression ends where [`expr_end`] says; the conversion and format spec after it
/// are not code, but a `{` in a spec opens a hole of its own (`{x:>{width()}}`;
/// there `{{` is no escape: `{x:{{f()}}}` calls `f`), so the scan reads on through
/// the spec, `open` counting the holes whose spec it is in.
fn holes_of(text: &str) -> Vec<String> {
    let mut holes = Vec::new();
    let c: Vec<char> = text.chars().collect();
    let mut open = 0usize;
    let mut i = 0;
    while i < c.len() {
        match c[i] {
            '{' if open == 0 && c.get(i + 1) == Some(&'{') => i += 2,
            '{' => {
                let end = expr_end(&c, i + 1);
                holes.push(c[i + 1..end].iter().collect());
                if c.get(end).is_some_and(|&e| e != '}') {
                    open += 1;
                }
                i = end + 1;
            }
            '}' if open > 0 => {
                open -= 1;
                i += 1;
            }
            _ => i += 1,
        }
    }
    holes
}

/// Where the expression of a hole that starts at `c[start]` ends: its closing `}`,
/// or the `!` of a conversion (not `!=`) or the `:` of a format spec, each only
/// outside brackets and string literals (`{d["k"]!r:>10}`, `{a[1:2]}`, `{'}'}`,
/// `{ {"k": v}["k"] }` are whole expressions); else the end of the text. Cutting at
/// the first `!` or `:` anywhere would leave the rest of a call unread.
fn expr_end(c: &[char], start: usize) -> usize {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut i = start;
    while i < c.len() {
        let ch = c[i];
        if let Some(q) = quote {
            if ch == '\\' {
                i += 1;
            } else if ch == q {
                quote = None;
            }
        } else {
            match ch {
                '\'' | '"' => quote = Some(ch),
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' if depth > 0 => depth -= 1,
                '}' => return i,
                ':' if depth == 0 => return i,
                '!' if depth == 0 && c.get(i + 1) != Some(&'=') => return i,
                _ => {}
            }
        }
        i += 1;
    }
    c.len()
}
