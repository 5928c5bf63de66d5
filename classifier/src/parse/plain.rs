//! The plain-command fast path: a source that is one simple command of plain
//! words (`kubectl delete pod web-1`, `git log --oneline -5`, `grep -e 'a b' f`) is
//! modelled without brush-parser, which spends most of its time trying every word
//! as an assignment and an expansion (about half of `tiergate batch`'s instructions
//! before this; issue 14). About 26,000 of the 29,790 tldr commands qualify.
//!
//! "Plain" is decided byte by byte and errs towards the parser: outside quotes only
//! ASCII letters, digits, single spaces between words and `_ . / : , @ % + = -`;
//! inside single or double quotes, printable ASCII and spaces, except `$`, backquote,
//! backslash and `!` between double quotes. No escape, expansion, unquoted glob,
//! brace, tilde, operator, redirection, comment, tab or newline can appear, so every
//! word is literal and the only structure is the word list. Any reserved word
//! anywhere, quoted or not (`time`, `if`, `in` …), sends the source to the parser, as
//! does anything else in doubt. A test checks that the model built here equals the
//! parser's for every tldr command it accepts.

use super::model::{List, Pipeline, Simple, Stage, Word};
use crate::verdict::Span;

/// The model of `src` when it is one plain simple command; `None` sends it to the parser.
pub(super) fn parse(src: &str) -> Option<List> {
    let b = src.as_bytes();
    if b.is_empty() {
        return None;
    }
    let mut s = Simple { assigns: Vec::new(), words: Vec::new(), redirects: Vec::new(), procsubs: Vec::new(), span: Span::default() };
    let mut i = 0;
    loop {
        let start = i;
        let (mut text, mut quoted) = (String::new(), false);
        while let Some(&c) = b.get(i).filter(|&&c| c != b' ') {
            if c == b'\'' || c == b'"' {
                // A quoted run of printable ASCII: literal, nothing expands in it.
                let len = b[i + 1..].iter().position(|&q| q == c)?;
                let inner = &src[i + 1..i + 1 + len];
                if !inner.bytes().all(|q| quoted_byte(q, c == b'"')) {
                    return None;
                }
                text.push_str(inner);
                quoted = true;
                i += len + 2;
            } else if plain_byte(c) {
                text.push(c as char);
                i += 1;
            } else {
                return None;
            }
        }
        let raw = &src[start..i];
        if raw.is_empty() {
            // Leading, trailing or doubled spaces: left to the parser.
            return None;
        }
        if RESERVED.contains(&text.as_str()) {
            return None;
        }
        let w = Word { text, exact: true, quoted, subs: Vec::new(), opaque: false, span: Span { start, end: i } };
        // Leading `NAME=value` / `NAME+=value` words are assignments; after the
        // program word they are arguments. The name is never quoted (`'A'=1` is a word).
        if s.words.is_empty() && assignment(raw) {
            s.assigns.push(w);
        } else {
            s.words.push(w);
        }
        if i == b.len() {
            break;
        }
        i += 1;
    }
    let first = s.assigns.first().or(s.words.first()).map(|w| w.span);
    let last = s.words.last().or(s.assigns.last()).map(|w| w.span);
    if let (Some(a), Some(z)) = (first, last) {
        s.span = Span { start: a.start, end: z.end.max(a.end) };
    }
    Some(List { pipelines: vec![Pipeline { stages: vec![Stage::Simple(s)] }] })
}

fn plain_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'/' | b':' | b',' | b'@' | b'%' | b'+' | b'=' | b'-')
}

/// Inside quotes: printable ASCII and spaces, except what still expands between
/// double quotes (`$`, backquote, backslash, and `!` for history expansion).
fn quoted_byte(c: u8, double: bool) -> bool {
    (c == b' ' || c.is_ascii_graphic()) && !(double && matches!(c, b'$' | b'`' | b'\\' | b'!'))
}

/// Bash's reserved words (and brush's), whatever their position.
const RESERVED: &[&str] = &[
    "!", "[[", "]]", "{", "}", "case", "coproc", "do", "done", "elif", "else", "esac", "fi", "for", "function", "if", "in", "select", "then", "time", "until",
    "while",
];

/// `NAME=…` or `NAME+=…` with a valid shell name.
fn assignment(w: &str) -> bool {
    let Some(eq) = w.find('=') else { return false };
    let name = w[..eq].strip_suffix('+').unwrap_or(&w[..eq]);
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_') && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
#[path = "../../../benches/corpus_csv.rs"]
mod corpus_csv;

#[cfg(test)]
mod tests {
    use super::corpus_csv;
    use super::*;

    /// The fast path's model, as Debug text, equals the parser's for every tldr
    /// command it accepts (and for a few hand-written edge cases).
    #[test]
    fn the_plain_path_models_what_the_parser_models() {
        // Compiled in: the library reads no files, its tests included (clippy.toml).
        let csv = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/history/tldr.csv"));
        // id,command,weight, RFC 4180 (commands hold quotes, commas and newlines).
        let mut cmds: Vec<String> = corpus_csv::commands(csv);
        cmds.extend(
            [
                "a=1", "a=1 b+=2 env", "A_1=x cmd a=b", "1a=b cmd", "=x", "x= y", "cmd -- a=b", "time ls", "ls in x", "a=1 time", "ls  -l", " ls", "ls ", "%1",
                "export A=1", "declare -x A=1 B", "local a=1", "readonly a=b", "typeset -i n=1", "alias ll=ls", "eval ls", "exec ls", "builtin echo a",
                "command -v git", "a=1 b=2", "a+=1", "_=x", "A=b=c cmd", "x=a,b", "cmd a=1 b", "ls x=", "cd /", "set -e", "shopt -s extglob", "fg %1",
                "ls 'a b'", "echo \"x y\"", "A='x y' cmd", "'A'=1 cmd", "A\"=1\" cmd", "ls ''", "echo 'it''s'", "echo \"a'b\"", "echo 'a\"b'",
                "grep -e 'a|b' f", "find . -name '*.rs'", "echo '$x' \"#x\" '~' '{a,b}'", "x='1' y=\"2\"", "git commit -m 'fix: a, b'",
            ]
            .map(str::to_owned),
        );
        let mut fast = 0;
        for c in &cmds {
            let Some(mine) = parse(c) else { continue };
            fast += 1;
            let theirs = super::super::parse_here(c);
            assert_eq!(format!("{mine:?}"), format!("{:?}", theirs.expect("the parser accepts a plain command")), "{c}");
        }
        assert!(fast > 25_000, "only {fast} commands took the plain path");
        for c in [
            "time ls", "ls in x", "ls  -l", " ls", "ls ", "", "ls\tx", "ls > x", "ls | wc", "ls ~", "ls *", "ls #x", "ls {a,b}", "ls $x", "ls 'x",
            "echo \"$x\"", "echo \"`id`\"", "echo \"a\\b\"", "echo \"!x\"", "echo 'a\tb'", "echo 'a\nb'", "'if' x", "ls 'é'",
        ] {
            assert!(parse(c).is_none(), "{c:?} must go to the parser");
        }
    }
}
