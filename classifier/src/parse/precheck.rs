//! Checks on the raw source before brush-parser sees it: what could make the
//! parser recurse past a stack, loop without bound or backtrack for seconds is
//! counted here, cheaply and without regard to meaning, and refused up front.

/// `(` minus `)` outside single quotes, double quotes and backslash escapes, so
/// a quoted `)` cannot make an unclosed run look balanced. (`case` patterns'
/// lone `)` only lower the count, which only lets more through to the parser.)
/// A comment and a heredoc's body are text the parser does not backtrack over,
/// so their `(` do not count (`echo hi # ( ( (` is an ordinary comment). Both are
/// read narrowly, since counting too few lets a slow input through: a comment is
/// a `#` after an unescaped blank (or first), and a body is skipped only when the
/// source holds no `((` (where `1<<2` is a shift) and its end line is found
/// (tabs stripped for `<<-`; the tag is its word with quotes and `\` dropped);
/// after the first body with no end line, none is.
pub(super) fn unclosed_parens(src: &str) -> usize {
    let (mut open, mut close) = (0usize, 0usize);
    let (mut single, mut double) = (false, false);
    let mut heredocs = !src.contains("((");
    // Heredoc tags opened on the current line, whose bodies start after it.
    let mut pending: Vec<(String, bool)> = Vec::new();
    let mut after_blank = true;
    let b = src.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let outside = !single && !double;
        match c {
            b'\\' if !single => {
                i += 2;
                after_blank = false;
                continue;
            }
            b'\'' if !double => single = !single,
            b'"' if !single => double = !double,
            b'#' if outside && after_blank => {
                i = b[i..].iter().position(|&c| c == b'\n').map_or(b.len(), |p| i + p);
                continue;
            }
            b'<' if heredocs && outside && b.get(i + 1) == Some(&b'<') && b.get(i + 2) != Some(&b'<') => {
                let strip = b.get(i + 2) == Some(&b'-');
                let mut at = if strip { i + 3 } else { i + 2 };
                while matches!(b.get(at), Some(b' ' | b'\t')) {
                    at += 1;
                }
                let end =
                    b[at..].iter().position(|c| matches!(c, b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'<' | b'>' | b'(' | b')')).map_or(b.len(), |p| at + p);
                let tag: String = src[at..end].chars().filter(|c| !matches!(c, '\'' | '"' | '\\')).collect();
                if !tag.is_empty() {
                    pending.push((tag, strip));
                }
                (i, after_blank) = (end, false);
                continue;
            }
            b'\n' if outside && !pending.is_empty() => {
                i += 1;
                for (tag, strip) in pending.drain(..) {
                    match heredoc_end(src, i, &tag, strip) {
                        Some(past) => i = past,
                        // A body with no end line runs to the end of the source,
                        // so no later body is skipped: every later `(` counts (the
                        // stricter reading), and no later tag rescans the rest,
                        // which kept thousands of unterminated tags quadratic.
                        None => {
                            heredocs = false;
                            break;
                        }
                    }
                }
                after_blank = true;
                continue;
            }
            b'(' if outside => open += 1,
            b')' if outside => close += 1,
            _ => {}
        }
        after_blank = outside && c.is_ascii_whitespace();
        i += 1;
    }
    open.saturating_sub(close)
}

/// Where the heredoc body starting at byte `from` ends (past its end line), if
/// a line that is `tag` closes it.
fn heredoc_end(src: &str, from: usize, tag: &str, strip: bool) -> Option<usize> {
    let mut at = from;
    while at < src.len() {
        let end = src[at..].find('\n').map_or(src.len(), |p| at + p);
        let line = &src[at..end];
        if (if strip { line.trim_start_matches('\t') } else { line }) == tag {
            return Some(end);
        }
        at = end + 1;
    }
    None
}

/// Upper bound on how deep the parser can recurse: every bracket, backtick and
/// reserved word that opens a nested body (`then`, `do`, `case`, `coproc`,
/// `function`), counted without regard to quoting and never decremented, so it
/// can only over-estimate, which only ever costs a thread or a refusal.
pub(super) fn openers(src: &str) -> usize {
    let b = src.as_bytes();
    let mut n = 0usize;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'(' | b'{' | b'[' | b'`' => n += 1,
            c if c.is_ascii_lowercase() && (i == 0 || !is_word_byte(b[i - 1])) => {
                let end = b[i..].iter().position(|&c| !is_word_byte(c)).map_or(b.len(), |p| i + p);
                if matches!(&b[i..end], b"then" | b"do" | b"case" | b"coproc" | b"function") {
                    n += 1;
                }
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    n
}

/// A heredoc tag holding an expansion (`<<$(`, `<<E,K$(`, ``<<-`x` ``):
/// brush-parser 0.4's tokenizer loops without bound (gigabytes per second) on
/// `<<E,K$(  ${^\oc>( ${` and `<<$(  ${` — found by the `classify` fuzz target.
/// No real heredoc tag holds `$` or a backtick, so such a source is refused
/// before the tokenizer sees it. The tag is read up to the first blank or
/// operator byte, counted without regard to quoting (refuses more, never less).
pub(super) fn expanding_heredoc_tag(src: &str) -> bool {
    let b = src.as_bytes();
    (0..b.len().saturating_sub(2)).any(|i| {
        if &b[i..i + 2] != b"<<" || b.get(i + 2) == Some(&b'<') || (i > 0 && b[i - 1] == b'<') {
            return false;
        }
        let mut at = if b.get(i + 2) == Some(&b'-') { i + 3 } else { i + 2 };
        while matches!(b.get(at), Some(b' ' | b'\t')) {
            at += 1;
        }
        b[at.min(b.len())..].iter().take_while(|c| !matches!(c, b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'<' | b'>')).any(|c| matches!(c, b'$' | b'`'))
    })
}

fn is_word_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}
