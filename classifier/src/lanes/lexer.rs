//! A comment- and string-aware lexer for JavaScript, Ruby, Perl, PHP, Lua, R,
//! Tcl and Groovy. It keeps string literals (and whether they interpolate),
//! turns Ruby/Perl/PHP backticks, `%x{}` and `qx{}` into shell-command tokens
//! (JS template literals stay strings), reads a Perl `s///e` replacement as the
//! code it is, reads Ruby, Perl and PHP heredocs as the strings they are
//! (`lexer_heredoc.rs`), skips comments and regex literals, and marks statement ends. `lexer_sinks.rs` scans the tokens for effects.
//!
//! It does not build a syntax tree; what it cannot tokenize is an error, and the
//! caller treats unreadable code as unseen (T3).

use super::lexer_heredoc::{self as heredoc, Heredoc};
use super::lexer_ruby::{ruby_operand, ruby_percent};
use super::scripts::Lang;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    Ident(String),
    /// A string literal; `interp` when it interpolates (`"#{x}"`, `` `${x}` ``, `"$x"`).
    Str {
        text: String,
        interp: bool,
    },
    /// Shell text run by the language itself (backticks, `%x{}`, `qx{}`).
    Cmd {
        text: String,
        interp: bool,
    },
    Punct(char),
    /// `->` and `::` (member access in Perl, PHP, Ruby, R).
    Arrow,
    /// End of a statement (`;` or a newline).
    Sep,
    Num,
}

/// Tokenizes `src`; `Err` says what was left open and on which line.
pub(crate) fn tokenize(lang: Lang, src: &str) -> Result<Vec<Tok>, String> {
    tokenize_nested(lang, src, 0)
}

/// How deep `s///e` replacements may nest (`s{x}{s{y}{…}e}e`) before the code is
/// refused as unreadable: each level is a recursive call.
const MAX_EVAL_NESTING: usize = 4;

/// [`tokenize`] of code nested `depth` deep in `s///e` replacements.
fn tokenize_nested(lang: Lang, src: &str, depth: usize) -> Result<Vec<Tok>, String> {
    let c: Vec<char> = src.chars().collect();
    let mut toks: Vec<Tok> = Vec::new();
    let mut i = 0;
    let slash_comments = matches!(lang, Lang::Js | Lang::Php | Lang::Groovy);
    let hash_comments = matches!(lang, Lang::Ruby | Lang::Perl | Lang::Php | Lang::R | Lang::Tcl | Lang::Awk | Lang::PowerShell);
    let cmd_backticks = matches!(lang, Lang::Ruby | Lang::Perl | Lang::Php);
    // The tokens of the code inside string interpolations, read after the rest.
    let mut embedded: Vec<Tok> = Vec::new();
    // Ruby and Perl heredocs opened on this line, each with the index of its token:
    // their bodies follow the line's end.
    let mut pending: Vec<(Heredoc, usize)> = Vec::new();
    while i < c.len() {
        let ch = c[i];
        let next = c.get(i + 1).copied();
        if ch == '\n' {
            toks.push(Tok::Sep);
            i = heredoc_bodies(lang, &c, i, std::mem::take(&mut pending), &mut toks, &mut embedded, depth)?;
            i += 1;
            continue;
        }
        if ch.is_whitespace() {
            i += 1;
            continue;
        }
        // `#` right after `$` is Perl's last index (`$#a`, `$#{$r}`), and after `?` Ruby's
        // character literal (`?#`): no comment starts there, and the code after it is read.
        let hash_comment = hash_comments && ch == '#' && !(i > 0 && (c[i - 1] == '$' || lang == Lang::Ruby && c[i - 1] == '?'));
        if slash_comments && ch == '/' && next == Some('/') || hash_comment || lang == Lang::Lua && ch == '-' && next == Some('-') {
            if lang == Lang::Lua && c.get(i + 2) == Some(&'[') && c.get(i + 3) == Some(&'[') {
                i = find(&c, i + 4, "]]").ok_or_else(|| format!("unterminated comment on line {}", line_of(&c, i)))? + 2;
                continue;
            }
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if slash_comments && ch == '/' && next == Some('*') {
            i = find(&c, i + 2, "*/").ok_or_else(|| format!("unterminated comment on line {}", line_of(&c, i)))? + 2;
            continue;
        }
        if ch == '"' && !openers(lang, '"').is_empty() || ch == '`' && lang == Lang::Js {
            // A string that interpolates: the code in its `#{…}` / `${…}` / `[…]` runs
            // when the string is built, so it is read after the statement (and its own
            // quotes do not end the string).
            let (text, end, code) =
                interpolating(&c, i + 1, Some(ch), openers(lang, ch)).ok_or_else(|| format!("unterminated string on line {}", line_of(&c, i)))?;
            let interp = if ch == '`' { text.contains("${") } else { interpolates(lang, &text) };
            toks.push(Tok::Str { text, interp });
            embed(lang, code, depth, &mut embedded)?;
            i = end;
            continue;
        }
        if ch == '\'' || ch == '"' {
            let (text, end) = quoted(&c, i + 1, ch, true).ok_or_else(|| format!("unterminated string on line {}", line_of(&c, i)))?;
            let interp = ch == '"' && interpolates(lang, &text);
            toks.push(Tok::Str { text, interp });
            i = end;
            continue;
        }
        if ch == '`' {
            let (text, end) = quoted(&c, i + 1, '`', true).ok_or_else(|| format!("unterminated backtick on line {}", line_of(&c, i)))?;
            if cmd_backticks {
                let interp = interpolates(lang, &text);
                toks.push(Tok::Cmd { text, interp });
            } else if lang == Lang::R {
                toks.push(Tok::Ident(text));
            } else {
                let interp = text.contains("${");
                toks.push(Tok::Str { text, interp });
            }
            i = end;
            continue;
        }
        if lang == Lang::Lua && ch == '[' && next == Some('[') {
            let end = find(&c, i + 2, "]]").ok_or_else(|| format!("unterminated long string on line {}", line_of(&c, i)))?;
            toks.push(Tok::Str { text: c[i + 2..end].iter().collect(), interp: false });
            i = end + 2;
            continue;
        }
        if ch == '/' && matches!(lang, Lang::Js | Lang::Ruby | Lang::Perl | Lang::Awk) && operand_expected(&toks) {
            let (_, end) = quoted(&c, i + 1, '/', true).ok_or_else(|| format!("unterminated regex on line {}", line_of(&c, i)))?;
            i = end;
            while i < c.len() && c[i].is_ascii_alphabetic() {
                i += 1;
            }
            toks.push(Tok::Str { text: String::new(), interp: false });
            continue;
        }
        if ch == '%' && lang == Lang::Ruby {
            if let Some((kind, open)) = ruby_percent(&c, i, &toks) {
                let close = closer(open);
                let start = i + if kind.is_some() { 3 } else { 2 };
                let (text, end) = delimited(&c, start, open, close).ok_or_else(|| format!("unterminated %-literal on line {}", line_of(&c, i)))?;
                toks.push(match kind {
                    Some('x') => Tok::Cmd { interp: text.contains("#{"), text },
                    Some('q') | Some('w') | Some('i') => Tok::Str { text, interp: false },
                    _ => Tok::Str { interp: text.contains("#{"), text },
                });
                i = end;
                continue;
            }
        }
        if ch == '<' && matches!(lang, Lang::Ruby | Lang::Perl | Lang::Php) {
            if let Some((doc, end)) = heredoc::opener(lang == Lang::Php, &c, i, heredoc_here(lang, &c, i, &toks)) {
                if doc.inline {
                    // PHP: the body follows at once, and code resumes after its closing tag.
                    let (text, resume) = heredoc::body(&c, end + 1, &doc).ok_or_else(|| format!("unterminated heredoc on line {}", line_of(&c, i)))?;
                    toks.push(heredoc_tok(lang, &doc, text, depth, &mut embedded)?);
                    i = resume;
                } else {
                    pending.push((doc, toks.len()));
                    toks.push(Tok::Str { text: String::new(), interp: false });
                    i = end;
                }
                continue;
            }
        }
        if ch == '/' && next == Some('/') && lang == Lang::Perl && !operand_expected(&toks) {
            // After a value, Perl's `//` is defined-or (`$x // 2`, `//=`), not an empty pattern.
            toks.extend([Tok::Punct('/'), Tok::Punct('/')]);
            i += 2;
            continue;
        }
        if ch.is_alphabetic() || ch == '_' || ch == '$' || ch == '@' || (ch == '-' && lang == Lang::Tcl && next.is_some_and(char::is_alphabetic)) {
            let start = i;
            i += 1;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_' || (lang == Lang::R && c[i] == '.') || (lang == Lang::Tcl && c[i] == '-')) {
                i += 1;
            }
            let word: String = c[start..i].iter().collect();
            if lang == Lang::Perl {
                if let Some(end) = perl_quote_like(&c, i, &word, &mut toks, depth)? {
                    i = end;
                    continue;
                }
            }
            toks.push(Tok::Ident(word));
            continue;
        }
        if ch.is_ascii_digit() {
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '.' || c[i] == '_') {
                i += 1;
            }
            toks.push(Tok::Num);
            continue;
        }
        if (ch == '-' && next == Some('>')) || (ch == ':' && next == Some(':')) {
            toks.push(Tok::Arrow);
            i += 2;
            continue;
        }
        if ch == ';' {
            toks.push(Tok::Sep);
        } else {
            toks.push(Tok::Punct(ch));
        }
        i += 1;
    }
    if let Some((doc, _)) = pending.first() {
        return Err(format!("unterminated heredoc {}", doc.id));
    }
    toks.extend(embedded);
    Ok(toks)
}

/// The line of `c[i]` (from 1) for an error's text, counted when the error is
/// raised rather than kept up while reading (a count kept by hand drifted, and only
/// ever changed an error's wording).
fn line_of(c: &[char], i: usize) -> usize {
    c[..i.min(c.len())].iter().filter(|&&x| x == '\n').count() + 1
}

/// Tokenizes the code of a string's interpolations into `embedded`, read after the rest.
fn embed(lang: Lang, code: Vec<String>, depth: usize, embedded: &mut Vec<Tok>) -> Result<(), String> {
    for body in code {
        if depth >= MAX_EVAL_NESTING {
            return Err(format!("string interpolations nested more than {MAX_EVAL_NESTING} deep"));
        }
        embedded.push(Tok::Sep);
        embedded.extend(tokenize_nested(lang, &body, depth + 1).map_err(|e| format!("in a string interpolation: {e}"))?);
    }
    Ok(())
}

/// Whether a `<<` at `c[i]` may open a heredoc: Ruby decides as for a `%` literal
/// (`ruby_operand`); Perl where it expects a term, after an operator or a list
/// operator (`print <<EOF`, `die <<"EOF"`), not after a value (`$x <<EOF` shifts).
fn heredoc_here(lang: Lang, c: &[char], i: usize, toks: &[Tok]) -> bool {
    match lang {
        Lang::Ruby => c.get(i + 2).is_some_and(|&a| ruby_operand(c, i, toks, a)),
        Lang::Perl => {
            operand_expected(toks)
                || matches!(toks.last(), Some(Tok::Ident(w)) if matches!(w.as_str(), "die" | "warn" | "say" | "printf" | "sprintf" | "push" | "unshift"))
        }
        _ => false,
    }
}

/// Reads the bodies of the heredocs `pending` opened on the line ending at the
/// newline `c[nl]`, in order, into their tokens; returns the index of the newline
/// (or end) after the last body, where code resumes.
fn heredoc_bodies(
    lang: Lang,
    c: &[char],
    nl: usize,
    pending: Vec<(Heredoc, usize)>,
    toks: &mut [Tok],
    embedded: &mut Vec<Tok>,
    depth: usize,
) -> Result<usize, String> {
    let mut at = nl;
    for (doc, tok) in pending {
        let (text, end) = heredoc::body(c, at + 1, &doc).ok_or_else(|| format!("unterminated heredoc {} on line {}", doc.id, line_of(c, nl)))?;
        toks[tok] = heredoc_tok(lang, &doc, text, depth, embedded)?;
        at = end;
    }
    Ok(at)
}

/// The token of a heredoc's body: text when its tag is quoted with `'`, a command
/// for a backtick tag, else a string whose interpolations are code.
fn heredoc_tok(lang: Lang, doc: &Heredoc, text: String, depth: usize, embedded: &mut Vec<Tok>) -> Result<Tok, String> {
    let interp = interpolates(lang, &text);
    Ok(match doc.quote {
        '\'' => Tok::Str { text, interp: false },
        '`' => Tok::Cmd { text, interp },
        _ => {
            let body: Vec<char> = text.chars().collect();
            let (_, _, code) = interpolating(&body, 0, None, openers(lang, '"')).ok_or("an unclosed interpolation in a heredoc")?;
            embed(lang, code, depth, embedded)?;
            Tok::Str { text, interp }
        }
    })
}

/// The openings of an interpolation in a string quoted with `q`: `#{` (Ruby), `${`
/// (a JS template, Groovy, Perl, PHP), `@{` (Perl's `@{[ … ]}`), `{$` (PHP), `[` (Tcl).
fn openers(lang: Lang, q: char) -> &'static [&'static str] {
    match (lang, q) {
        (Lang::Ruby, '"') => &["#{"],
        (Lang::Js, '`') | (Lang::Groovy, '"') => &["${"],
        (Lang::Perl, '"') => &["${", "@{"],
        (Lang::Php, '"') => &["{$", "${"],
        (Lang::Tcl, '"') => &["["],
        _ => &[],
    }
}

/// Reads a string that interpolates up to its closing `q`, as `quoted` does, or to
/// the end where there is none (a heredoc's body); the body of each interpolation
/// (after its first `{` or `[`) is read whole, nested brackets and quotes honoured,
/// and returned as code.
fn interpolating(c: &[char], mut i: usize, q: Option<char>, openers: &[&str]) -> Option<(String, usize, Vec<String>)> {
    let mut text = String::new();
    let mut code = Vec::new();
    while i < c.len() {
        let ch = c[i];
        if ch == '\\' && i + 1 < c.len() {
            // A heredoc has no closing quote: only a backslash escapes itself there.
            push_escape(&mut text, c[i + 1], q.unwrap_or('\\'));
            i += 2;
            continue;
        }
        if Some(ch) == q {
            return Some((text, i + 1, code));
        }
        let opener = openers.iter().find(|o| o.chars().enumerate().all(|(k, x)| c.get(i + k) == Some(&x)));
        if let Some(o) = opener {
            let bracket = i + o.find(['{', '[']).unwrap_or(0);
            let end = balanced(c, bracket)?;
            code.push(c[bracket + 1..end].iter().collect());
            text.extend(&c[i..=end]);
            i = end + 1;
            continue;
        }
        text.push(ch);
        i += 1;
    }
    q.is_none().then_some((text, i, code))
}

/// Where the bracket at `open` closes, nested brackets and quoted strings honoured.
fn balanced(c: &[char], open: usize) -> Option<usize> {
    let (o, cl) = (c[open], closer(c[open]));
    let mut depth = 0;
    let mut k = open;
    while k < c.len() {
        match c[k] {
            q @ ('"' | '\'' | '`') => {
                k = quoted(c, k + 1, q, true)?.1;
                continue;
            }
            x if x == o => depth += 1,
            x if x == cl => {
                depth -= 1;
                if depth == 0 {
                    return Some(k);
                }
            }
            _ => {}
        }
        k += 1;
    }
    None
}

fn find(c: &[char], from: usize, pat: &str) -> Option<usize> {
    let p: Vec<char> = pat.chars().collect();
    (from..c.len()).find(|&k| c[k..].starts_with(&p))
}

/// Reads up to the closing `q` (backslash escapes honoured); returns the text and the index after it.
fn quoted(c: &[char], mut i: usize, q: char, escapes: bool) -> Option<(String, usize)> {
    let mut text = String::new();
    while i < c.len() {
        let ch = c[i];
        if ch == '\\' && escapes && i + 1 < c.len() {
            push_escape(&mut text, c[i + 1], q);
            i += 2;
            continue;
        }
        if ch == q {
            return Some((text, i + 1));
        }
        if ch == '\n' && q == '/' {
            return None;
        }
        text.push(ch);
        i += 1;
    }
    None
}

/// Appends what the escape `\` + `next` stands for inside a string quoted with `q`:
/// `\n` and `\t` are their characters, an escaped quote or backslash is itself, and any
/// other escape is kept as written (backslash included). `quoted` and `interpolating`
/// read escapes the same way through this one function.
fn push_escape(text: &mut String, next: char, q: char) {
    match next {
        'n' => text.push('\n'),
        't' => text.push('\t'),
        n if n == q || n == '\\' => text.push(n),
        n => {
            text.push('\\');
            text.push(n);
        }
    }
}

/// Bracketed literals nest (`%x{a {b}}`); other delimiters close on their twin.
fn delimited(c: &[char], mut i: usize, open: char, close: char) -> Option<(String, usize)> {
    if open == close {
        return quoted(c, i, close, true);
    }
    let mut depth = 1;
    let mut text = String::new();
    while i < c.len() {
        let ch = c[i];
        if ch == '\\' && i + 1 < c.len() {
            text.push(c[i + 1]);
            i += 2;
            continue;
        }
        if ch == open {
            depth += 1;
        } else if ch == close {
            depth -= 1;
            if depth == 0 {
                return Some((text, i + 1));
            }
        }
        text.push(ch);
        i += 1;
    }
    None
}

fn closer(open: char) -> char {
    match open {
        '(' => ')',
        '[' => ']',
        '{' => '}',
        '<' => '>',
        other => other,
    }
}

/// Whether a double-quoted string (or a command backtick) substitutes variables.
/// JavaScript's double quotes never do: only its template literals (backticks,
/// read above) hold `${…}`, so `execSync("rm -rf ${HOME}")` hands the shell the
/// text `rm -rf ${HOME}`, which the shell expands and the caller classifies as shell.
fn interpolates(lang: Lang, text: &str) -> bool {
    match lang {
        Lang::Ruby => text.contains("#{"),
        Lang::Perl | Lang::Php | Lang::Groovy | Lang::Tcl => text.contains('$') || (lang == Lang::Perl && text.contains('@')),
        _ => false,
    }
}

/// True where a `/` starts a regex rather than dividing.
pub(super) fn operand_expected(toks: &[Tok]) -> bool {
    match toks.last() {
        None | Some(Tok::Sep) | Some(Tok::Arrow) => true,
        Some(Tok::Punct(p)) => !matches!(p, ')' | ']' | '}'),
        Some(Tok::Ident(w)) => matches!(
            w.as_str(),
            "return"
                | "typeof"
                | "if"
                | "unless"
                | "and"
                | "or"
                | "not"
                | "split"
                | "grep"
                | "when"
                | "while"
                | "until"
                | "case"
                | "in"
                | "of"
                | "print"
                | "puts"
                | "map"
                | "join"
        ),
        _ => false,
    }
}

/// Perl's quote-like operators: `qx{}` (shell), `q()`, `qq{}`, `qw//` (strings),
/// `m//`, `qr//`, `s///`, `tr///`, `y///` (patterns). Returns the index after it.
fn perl_quote_like(c: &[char], i: usize, word: &str, toks: &mut Vec<Tok>, depth: usize) -> Result<Option<usize>, String> {
    if !matches!(word, "qx" | "q" | "qq" | "qw" | "m" | "qr" | "s" | "tr" | "y") {
        return Ok(None);
    }
    // After `-` the word is a file test (`-s $f`) or a `-bareword` string, after `->` a
    // method name (`$o->s($x)`): not an operator, and what follows is code, not its text.
    let before = &c[..i - word.chars().count()];
    if before.last() == Some(&'-') || before.ends_with(&['-', '>']) {
        return Ok(None);
    }
    let mut j = i;
    while j < c.len() && c[j] == ' ' {
        j += 1;
    }
    let Some(&open) = c.get(j) else { return Ok(None) };
    // A closing bracket ends the word's expression: `foo(s)`, and `$h{s}`, a hash key.
    if open.is_alphanumeric()
        || open.is_whitespace()
        || open == '_'
        || open == ','
        || open == ';'
        || (open == '=' && c.get(j + 1) == Some(&'>'))
        || open == ')'
        || open == '}'
    {
        return Ok(None);
    }
    let close = closer(open);
    let Some((text, mut end)) = delimited(c, j + 1, open, close) else { return Ok(None) };
    let mut replacement = String::new();
    if matches!(word, "s" | "tr" | "y") {
        // The replacement part: same delimiter, or a new bracket pair.
        let part = if open == close {
            quoted(c, end, close, true)
        } else {
            let mut k = end;
            while k < c.len() && c[k].is_whitespace() {
                k += 1;
            }
            let Some(&o2) = c.get(k) else { return Ok(None) };
            delimited(c, k + 1, o2, closer(o2))
        };
        let Some((r, e)) = part else { return Ok(None) };
        (replacement, end) = (r, e);
    }
    let flags_from = end;
    while end < c.len() && c[end].is_ascii_alphabetic() {
        end += 1;
    }
    toks.push(match word {
        "qx" => Tok::Cmd { interp: open != '\'' && interpolates(Lang::Perl, &text), text },
        "q" | "qw" => Tok::Str { text, interp: false },
        "qq" => Tok::Str { interp: interpolates(Lang::Perl, &text), text },
        _ => Tok::Str { text: String::new(), interp: false },
    });
    // `s///e` runs its replacement as Perl code for every match (`ee` evaluates that
    // code's value again), so it is code to scan, not text: `s/x/system("rm -rf ~")/e`.
    let evals = c[flags_from..end].iter().filter(|&&f| f == 'e').count();
    if word == "s" && evals > 0 {
        if depth >= MAX_EVAL_NESTING {
            return Err(format!("s///e replacements nested more than {MAX_EVAL_NESTING} deep"));
        }
        let code = tokenize_nested(Lang::Perl, &replacement, depth + 1).map_err(|e| format!("in an s///e replacement: {e}"))?;
        toks.push(Tok::Sep);
        if evals > 1 {
            toks.extend([Tok::Ident("eval".to_owned()), Tok::Punct('(')]);
            toks.extend(code);
            toks.push(Tok::Punct(')'));
        } else {
            toks.extend(code);
        }
        toks.push(Tok::Sep);
    }
    Ok(Some(end))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn js_template_literals_are_strings_and_ruby_backticks_are_commands() {
        let js = tokenize(Lang::Js, "const s = `rm -rf ${x}`; // exec('x')").unwrap_or_default();
        assert!(js.iter().any(|t| matches!(t, Tok::Str { interp: true, .. })));
        assert!(!js.iter().any(|t| matches!(t, Tok::Cmd { .. })));
        let rb = tokenize(Lang::Ruby, "puts `ls`; %x{rm -rf /}").unwrap_or_default();
        assert_eq!(rb.iter().filter(|t| matches!(t, Tok::Cmd { .. })).count(), 2);
    }

    #[test]
    fn perl_patterns_do_not_open_strings() {
        assert!(tokenize(Lang::Perl, r#"s/"//g; print if /TODO/"#).is_ok());
        assert!(tokenize(Lang::Perl, "print qx{ls}").unwrap_or_default().iter().any(|t| matches!(t, Tok::Cmd { .. })));
    }

    fn perl_idents(src: &str) -> Vec<String> {
        tokenize(Lang::Perl, src).unwrap_or_default().into_iter().filter_map(|t| if let Tok::Ident(w) = t { Some(w) } else { None }).collect()
    }

    #[test]
    fn an_s_e_replacement_is_code_and_other_replacements_are_text() {
        assert_eq!(perl_idents(r#"s/x/system("ls")/e"#), ["system"]);
        assert_eq!(perl_idents(r#"s{x} {system("ls")}ge"#), ["system"]);
        assert_eq!(perl_idents(r#"s/x/$y/ee"#), ["eval", "$y"], "`ee` evaluates the replacement's value");
        assert!(perl_idents(r#"s/x/system("ls")/g"#).is_empty());
        assert!(perl_idents(r#"tr/e/system/"#).is_empty());
        // The flags end the literal: what follows is code again, `m//s` no `s` operator.
        assert_eq!(perl_idents(r#"m/a/s || system("ls") || print "|""#), ["system", "print"]);
        let deep = (0..=MAX_EVAL_NESTING).fold("1".to_owned(), |inner, _| format!("s{{x}}{{{inner}}}e"));
        assert!(tokenize(Lang::Perl, &deep).is_err(), "nesting past the limit is refused: {deep}");
    }

    #[test]
    fn after_a_value_perl_reads_a_defined_or() {
        assert!(tokenize(Lang::Perl, "my $x = $a // 2; $x //= 3").is_ok());
        assert!(tokenize(Lang::Perl, "my $x = $h{k} // 'a'").is_ok());
        // Where an operand is expected `//` is a pattern.
        assert_eq!(tokenize(Lang::Perl, "split //, $s").unwrap_or_default()[1], Tok::Str { text: String::new(), interp: false });
    }
}
