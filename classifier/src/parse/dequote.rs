//! Bash de-quoting: turns a raw word (`r''m`, `\rm`, `"rm"`, `$'\x72m'`) into what
//! bash passes to the program, and collects the substitutions that run when it
//! expands. Table-tested below.

use brush_parser::word::{self, WordPiece, WordPieceWithSource};
use brush_parser::ParserOptions;

use super::model::Word;
use crate::verdict::Span;

/// De-quotes one raw word. A word the word-parser rejects is returned opaque and
/// inexact, so it can never lower a verdict.
pub fn word(raw: &str, span: Span, opts: &ParserOptions) -> Word {
    let mut w = Word { text: String::new(), exact: true, quoted: false, subs: Vec::new(), opaque: false, span, secret: crate::call::Secret::None };
    // Fast path: a plain word with nothing bash would interpret.
    if raw.bytes().all(|b| !matches!(b, b'\'' | b'"' | b'\\' | b'$' | b'`' | b'~' | b'*' | b'?' | b'[' | b'{')) {
        w.text.push_str(raw);
        return w;
    }
    match word::parse(raw, opts) {
        Ok(pieces) => {
            for p in &pieces {
                piece(raw, p, &mut w, false);
            }
        }
        Err(_) => {
            w.text.push_str(raw);
            w.exact = false;
            w.opaque = true;
        }
    }
    w
}

/// The substitutions that run when an unquoted-delimiter heredoc body expands.
pub fn heredoc_subs(body: &str, opts: &ParserOptions) -> (Vec<String>, bool) {
    if !body.contains("$(") && !body.contains('`') {
        return (Vec::new(), false);
    }
    match word::parse_heredoc(body, opts) {
        Ok(pieces) => {
            let mut w = Word {
                text: String::new(),
                exact: true,
                quoted: false,
                subs: Vec::new(),
                opaque: false,
                span: Span::default(),
                secret: crate::call::Secret::None,
            };
            for p in &pieces {
                piece(body, p, &mut w, true);
            }
            (w.subs, w.opaque)
        }
        Err(_) => (Vec::new(), true),
    }
}

fn piece(src: &str, p: &WordPieceWithSource, w: &mut Word, in_dquote: bool) {
    let raw = src.get(p.start_index..p.end_index).unwrap_or("");
    match &p.piece {
        WordPiece::Text(t) => {
            if !in_dquote && has_glob_or_brace(t) {
                w.exact = false;
            }
            w.text.push_str(t);
        }
        WordPiece::SingleQuotedText(t) => {
            w.quoted = true;
            w.text.push_str(t);
        }
        WordPiece::AnsiCQuotedText(t) => {
            w.quoted = true;
            w.text.push_str(&ansi_c(t));
        }
        WordPiece::DoubleQuotedSequence(inner) | WordPiece::GettextDoubleQuotedSequence(inner) => {
            w.quoted = true;
            for q in inner {
                piece(src, q, w, true);
            }
        }
        WordPiece::EscapeSequence(e) => {
            w.quoted = true;
            let unescaped = e.strip_prefix('\\').unwrap_or(e);
            if in_dquote && !matches!(unescaped.chars().next(), Some('$' | '`' | '"' | '\\' | '\n')) {
                w.text.push_str(e);
            } else if unescaped != "\n" {
                w.text.push_str(unescaped);
            }
        }
        WordPiece::TildeExpansion(_) => w.text.push_str(raw),
        WordPiece::ParameterExpansion(_) => {
            w.exact = false;
            if raw.contains("$(") || raw.contains('`') || raw.contains("<(") {
                // `${X:-$(cmd)}`: the default may run. Find the bodies; if the scan
                // cannot be sure, the word is opaque. Inside double quotes a `'`
                // there is a plain character (`"${X:-'$(cmd)'}"` runs cmd), so only
                // an unquoted expansion's single quotes hide a body.
                match scan_subs(raw, !in_dquote) {
                    Some(bodies) => w.subs.extend(bodies),
                    None => w.opaque = true,
                }
            }
            w.text.push_str(raw);
        }
        WordPiece::CommandSubstitution(body) | WordPiece::BackquotedCommandSubstitution(body) => {
            w.exact = false;
            w.subs.push(body.clone());
            w.text.push_str(raw);
        }
        WordPiece::ArithmeticExpression(expr) => {
            w.exact = false;
            if expr.value.contains("$(") || expr.value.contains('`') {
                w.opaque = true;
            }
            w.text.push_str(raw);
        }
    }
}

/// Finds `$( … )` and `` ` … ` `` bodies in text, honouring nesting and, when
/// `single_quotes`, single quotes. `None` when the text is unbalanced or holds
/// `<(`/`$((`, which are left to the caller as opaque. (Inside double quotes bash
/// still honours `'` in a pattern operator's word, `"${X#'$(cmd)'}"`; read as
/// plain characters there, such a body counts as run: stricter, never looser.)
fn scan_subs(text: &str, single_quotes: bool) -> Option<Vec<String>> {
    if text.contains("<(") || text.contains("$((") {
        return None;
    }
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut in_single = false;
    while i < b.len() {
        match b[i] {
            b'\\' if !in_single => i += 1,
            b'\'' if single_quotes => in_single = !in_single,
            b'$' if !in_single && b.get(i + 1) == Some(&b'(') => {
                let start = i + 2;
                let mut depth = 1;
                let mut j = start;
                while j < b.len() && depth > 0 {
                    match b[j] {
                        b'(' => depth += 1,
                        b')' => depth -= 1,
                        _ => {}
                    }
                    j += 1;
                }
                if depth != 0 {
                    return None;
                }
                out.push(text.get(start..j - 1)?.to_owned());
                i = j;
                continue;
            }
            b'`' if !in_single => {
                let end = text[i + 1..].find('`')? + i + 1;
                out.push(text.get(i + 1..end)?.to_owned());
                i = end + 1;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    Some(out)
}

fn has_glob_or_brace(t: &str) -> bool {
    let b = t.as_bytes();
    if b.iter().any(|&c| matches!(c, b'*' | b'?')) {
        return true;
    }
    // `[` starts a pattern only when a `]` closes it (`[ -f x ]`'s `[` is the test command).
    if let Some(open) = t.find('[') {
        if t[open + 1..].contains(']') {
            return true;
        }
    }
    // Brace expansion needs `{` … `,` or `..` … `}`.
    match (t.find('{'), t.rfind('}')) {
        (Some(open), Some(close)) if open < close => {
            let inner = &t[open + 1..close];
            inner.contains(',') || inner.contains("..")
        }
        _ => false,
    }
}

/// Decodes the body of `$'…'` (the parser hands it over still escaped).
pub fn ansi_c(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('a') => out.push('\u{7}'),
            Some('b') => out.push('\u{8}'),
            Some('e') | Some('E') => out.push('\u{1b}'),
            Some('f') => out.push('\u{c}'),
            Some('v') => out.push('\u{b}'),
            Some('\\') => out.push('\\'),
            Some('\'') => out.push('\''),
            Some('"') => out.push('"'),
            Some('?') => out.push('?'),
            Some('x') => out.push(take_radix(&mut chars, 16, 2)),
            Some('u') => out.push(take_radix(&mut chars, 16, 4)),
            Some('U') => out.push(take_radix(&mut chars, 16, 8)),
            Some(d @ '0'..='7') => {
                let mut v = d.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek().and_then(|c| c.to_digit(8)) {
                        Some(x) => {
                            v = v * 8 + x;
                            chars.next();
                        }
                        None => break,
                    }
                }
                out.push(char::from_u32(v).unwrap_or('\u{fffd}'));
            }
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

fn take_radix(chars: &mut std::iter::Peekable<std::str::Chars<'_>>, radix: u32, max: usize) -> char {
    let mut v: u32 = 0;
    for _ in 0..max {
        match chars.peek().and_then(|c| c.to_digit(radix)) {
            Some(x) => {
                v = v.saturating_mul(radix).saturating_add(x);
                chars.next();
            }
            None => break,
        }
    }
    char::from_u32(v).unwrap_or('\u{fffd}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(raw: &str, text: &str, exact: bool) {
        let w = word(raw, Span::default(), &ParserOptions::default());
        assert_eq!((w.text.as_str(), w.exact), (text, exact), "de-quoting {raw:?}");
    }

    #[test]
    fn quotes_and_escapes_vanish_like_bash() {
        check("r''m", "rm", true);
        check("\\rm", "rm", true);
        check("\"rm\"", "rm", true);
        check("$'\\x72m'", "rm", true);
        check("$'\\162m'", "rm", true);
        check("'a b'\"c\"", "a bc", true);
        check("\"a\\$b\"", "a$b", true);
        check("\"a\\qb\"", "a\\qb", true);
    }

    #[test]
    fn expansions_are_inexact() {
        check("$CMD", "$CMD", false);
        check("\"$(echo rm)\"", "$(echo rm)", false);
        check("{rm,-rf,/}", "{rm,-rf,/}", false);
        check("r*", "r*", false);
        check("[", "[", true);
        check("[a-z]x", "[a-z]x", false);
        check("'r*'", "r*", true);
    }

    #[test]
    fn substitutions_in_parameter_defaults_are_found() {
        let opts = ParserOptions::default();
        let w = word("\"${X:-$(rm -rf build)}\"", Span::default(), &opts);
        assert_eq!((w.subs.as_slice(), w.opaque), (&["rm -rf build".to_owned()][..], false));
        assert!(word("${X:-$((1+$(id)))}", Span::default(), &opts).opaque);
        // Unquoted, `'…'` in the default quotes its body; inside double quotes it
        // is a plain character and the body runs (bash prints `'RAN'` for
        // `echo "${X:-'$(echo RAN)'}"`).
        assert!(word("${X:-'$(rm -rf build)'}", Span::default(), &opts).subs.is_empty());
        let w = word("\"${X:-'$(rm -rf build)'}\"", Span::default(), &opts);
        assert_eq!(w.subs, ["rm -rf build"]);
        assert_eq!(word("\"${X:-'`id`'}\"", Span::default(), &opts).subs, ["id"]);
    }

    #[test]
    fn substitutions_are_collected_but_not_in_single_quotes() {
        let opts = ParserOptions::default();
        assert_eq!(word("\"x $(rm -rf /) y\"", Span::default(), &opts).subs, ["rm -rf /"]);
        assert!(word("'$(rm -rf /)'", Span::default(), &opts).subs.is_empty());
        assert_eq!(word("a`id`", Span::default(), &opts).subs, ["id"]);
    }
}
