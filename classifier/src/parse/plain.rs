//! The plain-command fast path: a source that is one simple command of plain
//! words (`kubectl delete pod web-1`, `git log --oneline -5`, `grep -e 'a b' f`), or
//! a pipeline of such commands (`ls | wc -l`, tldr's `brew upgrade formula|cask`),
//! each with plain redirections (`> out`, `2>/dev/null`, `2>&1`, `< in`),
//! is modelled without brush-parser, which spends most of its time trying every
//! word as an assignment and an expansion (about half of `tiergate batch`'s
//! instructions before this; issue 14). 28,697 of the 29,861 inputs of the
//! model-equality test below qualify.
//!
//! "Plain" is decided byte by byte and errs towards the parser: outside quotes only
//! ASCII letters, digits, single spaces between words and `_ . / : , @ % + = -`,
//! `|` between commands with at most one space on either side, and at a word's
//! start `>`, `>>`, `<` (after one fd digit or none) before a plain word, or
//! `>&`/`<&` and one digit; inside single or
//! double quotes, printable ASCII and spaces, except `$`, backquote, backslash and
//! `!` between double quotes. No escape, expansion, unquoted glob, brace, tilde,
//! list operator, other redirection, comment, tab or newline can appear, so every word is
//! literal and the only structure is the word lists and their files. Any reserved word anywhere,
//! quoted or not (`time`, `if`, `in` …), sends the source to the parser, as does
//! anything else in doubt (`||`, `|&`, an empty stage, a stage of assignments only).
//! Tests check that the model built here equals the parser's for every tldr
//! command it accepts and for generated sources of words, quotes and pipes.

use super::model::{List, Pipeline, Redirect, Simple, Stage, Word};
use crate::verdict::Span;
use crate::words;
use crate::words::Words;

/// The model of `src` when it is a plain simple command or a pipeline of them;
/// `None` sends it to the parser.
pub(super) fn parse(src: &str) -> Option<List> {
    let b = src.as_bytes();
    if b.is_empty() {
        return None;
    }
    let mut stages = Vec::new();
    // One word per space (doubled spaces are refused below), each built in one allocation.
    let mut s = simple(b.iter().filter(|&&c| c == b' ' || c == b'|').count() + 1);
    let mut i = 0;
    loop {
        if let Some((r, end)) = redirect(src, i) {
            s.redirects.push(r?);
            i = end;
        } else {
            let (w, end) = word(src, i)?;
            // Leading `NAME=value` / `NAME+=value` words are assignments; after the
            // program word they are arguments. The name is never quoted (`'A'=1` is a word).
            if s.words.is_empty() && assignment(&src[i..end]) {
                s.assigns.push(w);
            } else {
                s.words.push(w);
            }
            i = end;
        }
        if i == b.len() {
            break;
        }
        if b[i] == b' ' {
            i += 1;
        }
        // `a | b`, `a|b`: one space at most on either side of the pipe, and every
        // stage a command (`A=1 | b` is left to the parser).
        if b.get(i) == Some(&b'|') {
            if s.words.is_empty() {
                return None;
            }
            stages.push(Stage::Simple(finish(std::mem::replace(&mut s, simple(0)))));
            i += 1;
            if b.get(i) == Some(&b' ') {
                i += 1;
            }
        }
    }
    // A command of redirections (and assignments) only, or an empty last stage: left to the parser.
    if (!stages.is_empty() || !s.redirects.is_empty()) && s.words.is_empty() {
        return None;
    }
    stages.push(Stage::Simple(finish(s)));
    Some(List { pipelines: vec![Pipeline { stages }] })
}

/// The plain word starting at `i` and where it ends (at a space, a pipe or the
/// end); `None` when there is none there or it is not plain.
fn word(src: &str, mut i: usize) -> Option<(Word, usize)> {
    let b = src.as_bytes();
    let start = i;
    let mut quoted = false;
    while let Some(&c) = b.get(i).filter(|&&c| c != b' ' && c != b'|') {
        if c == b'\'' || c == b'"' {
            // A quoted run of printable ASCII: literal, nothing expands in it.
            let len = b[i + 1..].iter().position(|&q| q == c)?;
            if !b[i + 1..i + 1 + len].iter().all(|&q| quoted_byte(q, c == b'"')) {
                return None;
            }
            quoted = true;
            i += len + 2;
        } else if plain_byte(c) {
            i += 1;
        } else {
            return None;
        }
    }
    let raw = &src[start..i];
    if raw.is_empty() {
        // Leading, trailing or doubled spaces, an empty stage (`a ||`, `| a`): left to the parser.
        return None;
    }
    let text = if quoted { unquoted(raw) } else { raw.to_owned() };
    // The longest reserved word is 8 bytes (`function`).
    if text.len() <= 8 && RESERVED.contains(text.as_str()) {
        return None;
    }
    Some((Word { text, exact: true, quoted, subs: Vec::new(), opaque: false, span: Span { start, end: i }, secret: crate::call::Secret::None }, i))
}

/// A redirection starting at `i` (at a word's start), and where it ends:
/// `[n]> file`, `[n]>> file`, `[n]< file` (the file attached or after one space,
/// a plain word), and `[n]>&m`, `[n]<&m` with one digit `m` (no file: `Dup`).
/// `None`: no redirection starts here; `Some((None, _))`: one does, but not one
/// of these shapes, and the source goes to the parser.
fn redirect(src: &str, i: usize) -> Option<(Option<Redirect>, usize)> {
    let b = src.as_bytes();
    let fd = b.get(i).filter(|c| c.is_ascii_digit() && matches!(b.get(i + 1), Some(b'>' | b'<'))).map(|c| i32::from(c - b'0'));
    let at = i + usize::from(fd.is_some());
    let op = *b.get(at).filter(|c| matches!(c, b'>' | b'<'))?;
    let append = op == b'>' && b.get(at + 1) == Some(&b'>');
    let mut j = at + 1 + usize::from(append);
    if !append && b.get(j) == Some(&b'&') {
        let one_digit = b.get(j + 1).is_some_and(u8::is_ascii_digit) && matches!(b.get(j + 2), None | Some(b' ' | b'|'));
        return Some(if one_digit { (Some(Redirect::Dup), j + 2) } else { (None, j) });
    }
    if b.get(j) == Some(&b' ') {
        j += 1;
    }
    let Some((target, end)) = word(src, j) else { return Some((None, j)) };
    Some(match op {
        b'<' => (Some(Redirect::Read { fd, target }), end),
        _ => (Some(Redirect::Write { fd, target, append }), end),
    })
}

fn simple(words: usize) -> Simple {
    Simple { assigns: Vec::new(), words: Vec::with_capacity(words), redirects: Vec::new(), procsubs: Vec::new(), span: Span::default() }
}

/// The command's span: its first word to its last, as the parser's model has it.
fn finish(mut s: Simple) -> Simple {
    let first = s.assigns.first().or(s.words.first()).map(|w| w.span);
    let last = s.words.last().or(s.assigns.last()).map(|w| w.span);
    if let (Some(a), Some(z)) = (first, last) {
        s.span = Span { start: a.start, end: z.end.max(a.end) };
    }
    s
}

/// A word checked above with its quotes removed (each quoted run is closed and holds no quote of its kind).
fn unquoted(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(q) = rest.find(['\'', '"']) {
        out.push_str(&rest[..q]);
        let quote = &rest[q..q + 1];
        let after = &rest[q + 1..];
        let close = after.find(quote).unwrap_or(after.len());
        out.push_str(&after[..close]);
        rest = after.get(close + 1..).unwrap_or("");
    }
    out.push_str(rest);
    out
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
const RESERVED: Words = words![
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
    use proptest::prelude::*;

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
                "grep -e 'a|b' f", "find . -name '*.rs'", "echo '$x' \"#x\" '~' '{a,b}'", "x='1' y=\"2\"", "git commit -m 'fix: a, b'", "ls | wc", "a|b",
                "a |b", "a| b", "a|b|c d", "A=1 a | B=2 b", "echo 'x|y' | grep \"|\"", "a | b=1", "brew upgrade formula|cask", "ls > x", "ls >x",
                "ls 2>/dev/null", "a 2>&1 | b", "cmd < in > out", "a >> log", "> f cmd", "A=1 > f cmd", "a >&2", "a 1>&2 b", "a 0<in", "a > 'x y'|b",
                "a 2>>e.log x",
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
        assert!(fast > 28_500, "only {fast} commands took the plain path");
        for c in [
            "time ls", "ls in x", "ls  -l", " ls", "ls ", "", "ls\tx", "ls >", "ls > ", "ls >  x", "ls >| x", "ls &> x", "ls <<EOF", "ls <<< x", "ls <> x",
            "ls >&x", "ls 2>&1x", "ls 10> x", "> x", "A=1 > x", "ls >&-", "ls a>b", "ls > if", "ls >>& x", "a || b", "a |& b", "a|", "|a", "a  | b", "a |  b",
            "a | ", "A=1 | b", "a | A=1", "a | time b", "a|!b", "a | | b", "ls ~", "ls *", "ls #x", "ls {a,b}", "ls $x", "ls 'x", "echo \"$x\"",
            "echo \"`id`\"", "echo \"a\\b\"", "echo \"!x\"", "echo 'a\tb'", "echo 'a\nb'", "'if' x", "ls 'é'",
        ] {
            assert!(parse(c).is_none(), "{c:?} must go to the parser");
        }
    }

    /// Words, quotes, pipes and what must not pass for them, for sources the fast
    /// path must either model as the parser does or leave to it.
    fn soup() -> impl Strategy<Value = String> {
        const TOKENS: &[&str] = &[
            "a", "ls", "-x", "--y=1", "A=1", "b+=2", "=", "'q|r s'", "\"t u\"", "''", "'", "\"", " ", " ", "|", "||", "|&", "&", "time", "if", "!", "2", ">",
            "<", ">>", "2>&1", ">&2", "<&", "$x", "#", "{", "in", "\\", "\t", "é",
        ];
        proptest::collection::vec(proptest::sample::select(TOKENS), 1..12).prop_map(|t| t.concat())
    }

    /// Pipelines of plain-looking words, joined with and without spaces (most of them plain).
    fn pipelines() -> impl Strategy<Value = String> {
        const WORDS: &[&str] = &[
            "a", "ls", "-x", "--y=1", "A=1", "b+=2", "x=", "'q|r s'", "\"t u\"", "''", "a'b'c", "in", "2", "%1", "./p", "é", "> f", ">f", ">> 'l g'", "< in",
            "2>/dev/null", "2>&1", ">&2", "2> if", "1>",
        ];
        const JOINS: &[&str] = &["|", " |", "| ", " | ", "  |", "||", " ", " ", " "];
        let stage = proptest::collection::vec(proptest::sample::select(WORDS), 1..4).prop_map(|w| w.join(" "));
        (proptest::collection::vec(stage, 1..4), proptest::collection::vec(proptest::sample::select(JOINS), 3)).prop_map(|(stages, joins)| {
            let mut out = String::new();
            for (i, st) in stages.iter().enumerate() {
                if i > 0 {
                    out.push_str(joins[i - 1]);
                }
                out.push_str(st);
            }
            out
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn a_source_the_fast_path_takes_is_modelled_as_the_parser_models_it(src in prop_oneof![soup(), pipelines()]) {
            if let Some(mine) = parse(&src) {
                let theirs = super::super::parse_here(&src).map_err(|e| TestCaseError::fail(format!("{src:?}: the parser refuses what the fast path took ({e:?})")))?;
                prop_assert_eq!(format!("{mine:?}"), format!("{theirs:?}"), "{:?}", src);
            }
        }
    }
}
