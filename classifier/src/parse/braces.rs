//! Bash brace expansion (`{a,b}`, `x{1..3}`, `{,"git",push,--force,}`), done
//! on a command word's raw text before it is de-quoted, as bash does it before
//! any other expansion: one word becomes the words it expands to, so the program
//! and its arguments are what bash runs (`{,"git",push,--force,origin,main,}` is
//! `git push --force origin main`).
//!
//! brush-parser's `parse_brace_expansions` finds the expressions (quotes and
//! `${…}` protect braces, as in bash); this module only multiplies them out, in
//! bash's order, within a budget. It does not de-quote: every piece stays raw text
//! for `dequote::word`.

use brush_parser::word::{self, BraceExpressionMember as Member, BraceExpressionOrText as Piece};
use brush_parser::ParserOptions;

use super::dequote;
use super::model::Word;
use crate::verdict::Span;

/// Most words one word may expand to; beyond it the expansion is not modelled.
pub const MAX_BRACE_WORDS: usize = 1024;

/// What brace expansion makes of one raw word.
#[derive(Debug, PartialEq, Eq)]
pub enum Braces {
    /// No brace expression (or one this module leaves to bash, such as a
    /// zero-padded sequence): the word stays as written.
    None,
    /// The raw words it becomes, in order, empty ones removed as bash removes them.
    Words(Vec<String>),
    /// More than [`MAX_BRACE_WORDS`] words: not modelled.
    TooMany,
}

/// A raw command word after brace expansion: the words bash passes for it, each
/// de-quoted (`{,"git",push}` is `git push`). One past the budget is opaque.
pub(super) fn command_words(raw: &str, at: Span, opts: &ParserOptions, out: &mut Vec<Word>) {
    match expand(raw, opts) {
        Braces::None => out.push(dequote::word(raw, at, opts)),
        Braces::Words(words) => out.extend(words.iter().map(|w| dequote::word(w, at, opts))),
        Braces::TooMany => {
            out.push(Word { text: raw.to_owned(), exact: false, quoted: false, subs: Vec::new(), opaque: true, span: at, secret: crate::call::Secret::None })
        }
    }
}

/// Brace-expands one raw command word.
pub fn expand(raw: &str, opts: &ParserOptions) -> Braces {
    // Every brace expression holds `{`, then `,` or `..`, then `}`.
    let Some(open) = raw.find('{') else { return Braces::None };
    let rest = &raw[open..];
    if !rest.contains('}') || !(rest.contains(',') || rest.contains("..")) {
        return Braces::None;
    }
    let Ok(Some(pieces)) = word::parse_brace_expansions(raw, opts) else {
        return Braces::None;
    };
    if !pieces.iter().any(|p| matches!(p, Piece::Expr(_))) || zero_padded(raw) {
        return Braces::None;
    }
    match product(&pieces) {
        // A word that expands to nothing but empty text (`{,}`) is removed whole.
        Some(words) => Braces::Words(words.into_iter().filter(|w| !w.is_empty()).collect()),
        None => Braces::TooMany,
    }
}

/// `{01..10}`, `{1..010}`: bash pads the numbers, which the parser's integers
/// do not keep; such words are left unexpanded (and so inexact).
fn zero_padded(raw: &str) -> bool {
    let b = raw.as_bytes();
    (0..b.len()).any(|i| {
        let after_open = matches!(b.get(i.wrapping_sub(1)), Some(b'{' | b'.' | b'-'));
        b[i] == b'0' && after_open && b.get(i + 1).is_some_and(u8::is_ascii_digit)
    })
}

/// Every word a sequence of pieces spells, in bash's order (the leftmost
/// expression varies slowest); `None` past the budget.
fn product(pieces: &[Piece]) -> Option<Vec<String>> {
    let mut out = vec![String::new()];
    for p in pieces {
        let alternatives = match p {
            Piece::Text(t) => {
                for w in &mut out {
                    w.push_str(t);
                }
                continue;
            }
            Piece::Expr(members) => expression(members)?,
        };
        if out.len().saturating_mul(alternatives.len()) > MAX_BRACE_WORDS {
            return None;
        }
        out = out.iter().flat_map(|prefix| alternatives.iter().map(move |a| format!("{prefix}{a}"))).collect();
    }
    Some(out)
}

/// The alternatives of one `{…}`, each member's words in turn.
fn expression(members: &[Member]) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for m in members {
        match m {
            Member::Child(pieces) => out.extend(product(pieces)?),
            Member::NumberSequence { start, end, increment } => {
                out.extend(sequence(*start, *end, *increment)?.map(|n| n.to_string()));
            }
            Member::CharSequence { start, end, increment } => {
                let chars = sequence(i64::from(u32::from(*start)), i64::from(u32::from(*end)), *increment)?;
                out.extend(chars.filter_map(|c| u32::try_from(c).ok().and_then(char::from_u32)).map(String::from));
            }
        }
        if out.len() > MAX_BRACE_WORDS {
            return None;
        }
    }
    Some(out)
}

/// `start..end` by `|increment|` (0 counts as 1), counting down when `end < start`,
/// as bash does; `None` when it would hold more than the budget.
fn sequence(start: i64, end: i64, increment: i64) -> Option<impl Iterator<Item = i64>> {
    let step = increment.unsigned_abs().max(1);
    let count = start.abs_diff(end) / step + 1;
    if count > MAX_BRACE_WORDS as u64 {
        return None;
    }
    let down = end < start;
    Some((0..count).map(move |k| {
        let offset = i64::try_from(k * step).unwrap_or(i64::MAX);
        if down {
            start.saturating_sub(offset)
        } else {
            start.saturating_add(offset)
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(raw: &str, expect: &[&str]) {
        let got = expand(raw, &ParserOptions::default());
        let want = if expect.is_empty() { Braces::None } else { Braces::Words(expect.iter().map(|s| (*s).to_owned()).collect()) };
        assert_eq!(got, want, "{raw:?}");
    }

    // Each expectation was checked against bash 5 (`printf '[%s]' WORD`).
    #[test]
    fn words_expand_as_bash_expands_them() {
        check("{,\"git\",push,--force,origin,main,}", &["\"git\"", "push", "--force", "origin", "main"]);
        check("x{a,b}{1..3}", &["xa1", "xa2", "xa3", "xb1", "xb2", "xb3"]);
        check("{a..e..2}", &["a", "c", "e"]);
        check("{3..1}", &["3", "2", "1"]);
        check("{-1..1}", &["-1", "0", "1"]);
        check("{a,'b c'}", &["a", "'b c'"]);
        check("{a,{b,c}}", &["a", "b", "c"]);
        check("{\"\",a}", &["\"\"", "a"]);
        check("{a..c}{,}", &["a", "a", "b", "b", "c", "c"]);
        check("{$x,y}", &["$x", "y"]);
        check("{r,}m", &["rm", "m"]);
    }

    #[test]
    fn quoted_or_incomplete_braces_stay_one_word() {
        for raw in ["'{a,b}'", "\"{a,b}\"", "{a}", "{}", "{", "a,b", "${x:-{a,b}}", "{05..10..3}", "{a..01}", "plain"] {
            check(raw, &[]);
        }
    }

    #[test]
    fn expansions_past_the_budget_are_refused() {
        let opts = ParserOptions::default();
        assert_eq!(expand("{1..100000}", &opts), Braces::TooMany);
        assert_eq!(expand(&"{a,b}".repeat(11), &opts), Braces::TooMany);
        assert!(matches!(expand(&"{a,b}".repeat(10), &opts), Braces::Words(w) if w.len() == MAX_BRACE_WORDS));
    }
}
