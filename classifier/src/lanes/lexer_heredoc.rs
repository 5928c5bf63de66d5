//! Heredocs of Ruby (`<<~ID`, `<<-ID`, `<<ID`), Perl (`<<"ID"`, `<<~ID`, `<<ID`) and
//! PHP (`<<<ID`, `<<<'ID'`): a string whose body is the lines after the opener, up
//! to a line holding only `ID`. A body quoted with `'` is text; any other body
//! interpolates like a double-quoted string (Ruby `#{…}`, Perl `@{[ … ]}`, PHP
//! `{$…}`), so the code in it runs: `lexer.rs` reads it. A backtick tag
//! (`` <<~`CMD` ``) makes the body shell text the language runs.
//!
//! Read as code, a body hid its interpolations behind the language's comments
//! (`#` starts a comment in all three) and quotes: `<<~EOS` `#{system("rm -rf ~")}`
//! was read as a comment. What ends a body is matched loosely (surrounding
//! blanks ignored): ending early only reads text as code, never code as text.

/// A heredoc opener: its tag and how its body is quoted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Heredoc {
    pub(super) id: String,
    /// `"` interpolates, `'` is text, `` ` `` is a command.
    pub(super) quote: char,
    /// PHP: code resumes right after the closing tag, on its own line
    /// (`EOT;`); Ruby and Perl bodies start after the opener's line and end
    /// with the tag's line.
    pub(super) inline: bool,
}

/// The heredoc opener at `c[i]` (a `<`) for a language that has heredocs,
/// and the index after it; `None` where none opens. `operand` says whether the
/// language reads an operand here (where it reads an operator, `<<` shifts).
pub(super) fn opener(php: bool, c: &[char], i: usize, operand: bool) -> Option<(Heredoc, usize)> {
    let at = |k: usize| c.get(k).copied();
    if php {
        // `<<<` is no operator in PHP: always a heredoc (or a nowdoc with `'`).
        if !(at(i + 1) == Some('<') && at(i + 2) == Some('<')) {
            return None;
        }
        let mut k = i + 3;
        while matches!(at(k), Some(' ' | '\t')) {
            k += 1;
        }
        let (id, quote, end) = tag(c, k, &['"', '\''])?;
        // The body starts on the next line: nothing but blanks may follow the tag.
        let mut e = end;
        while matches!(at(e), Some(' ' | '\t' | '\r')) {
            e += 1;
        }
        if at(e) != Some('\n') {
            return None;
        }
        return Some((Heredoc { id, quote, inline: true }, e));
    }
    if !operand || at(i + 1) != Some('<') {
        return None;
    }
    // `<<~` (Ruby, Perl 5.26) and `<<-` (Ruby) let the closing tag be indented;
    // the loose match below accepts an indented tag anyway.
    let k = if matches!(at(i + 2), Some('~' | '-')) { i + 3 } else { i + 2 };
    let (id, quote, end) = tag(c, k, &['"', '\'', '`'])?;
    Some((Heredoc { id, quote, inline: false }, end))
}

/// The tag at `c[k]`: a bare identifier (interpolating) or one quoted with a
/// character of `quotes`; returns it, its quote and the index after it.
fn tag(c: &[char], k: usize, quotes: &[char]) -> Option<(String, char, usize)> {
    let first = *c.get(k)?;
    if quotes.contains(&first) {
        let close = c[k + 1..].iter().position(|&x| x == first || x == '\n')? + k + 1;
        let id: String = c[k + 1..close].iter().collect();
        return (c[close] == first && !id.is_empty()).then_some((id, first, close + 1));
    }
    if !(first.is_alphabetic() || first == '_') {
        return None;
    }
    let end = c[k..].iter().position(|x| !(x.is_alphanumeric() || *x == '_')).map_or(c.len(), |p| k + p);
    Some((c[k..end].iter().collect(), '"', end))
}

/// The body of `doc` from `c[from]` (the first character of its first line):
/// its text and the index where code resumes — the newline (or the end) after
/// the closing line, or for an inline heredoc the character after the tag.
/// `None` when no line closes it.
pub(super) fn body(c: &[char], from: usize, doc: &Heredoc) -> Option<(String, usize)> {
    let id: Vec<char> = doc.id.chars().collect();
    let mut text = String::new();
    let mut k = from;
    while k < c.len() {
        let end = c[k..].iter().position(|&x| x == '\n').map_or(c.len(), |p| k + p);
        let line = &c[k..end];
        let lead = line.iter().take_while(|x| x.is_whitespace()).count();
        let rest = &line[lead..];
        if doc.inline {
            // PHP 7.3: the tag, then anything but an identifier character (`EOT;`, `EOT)`).
            if rest.starts_with(&id) && !rest.get(id.len()).is_some_and(|x| x.is_alphanumeric() || *x == '_') {
                return Some((text, k + lead + id.len()));
            }
        } else if rest.iter().collect::<String>().trim_end() == doc.id {
            return Some((text, end));
        }
        text.extend(line);
        text.push('\n');
        k = end + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::lexer::{tokenize, Tok};
    use super::super::scripts::Lang;
    use super::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    #[test]
    fn an_opener_reads_its_tag_and_quote() {
        let c = chars("x = <<~'EOS'.strip");
        assert_eq!(opener(false, &c, 4, true), Some((Heredoc { id: "EOS".into(), quote: '\'', inline: false }, 12)));
        let c = chars("print <<EOF;");
        assert_eq!(opener(false, &c, 6, true).map(|(d, _)| d.quote), Some('"'));
        // Where an operator is read, `<<` shifts; a space after it names no tag.
        assert_eq!(opener(false, &c, 6, false), None);
        assert_eq!(opener(false, &chars("a << b"), 2, true), None);
        // PHP: the tag must end its line.
        assert!(opener(true, &chars("<<<EOT\nx\nEOT;"), 0, false).is_some());
        assert!(opener(true, &chars("<<<EOT x"), 0, false).is_none());
    }

    #[test]
    fn a_body_ends_at_its_tag_line() {
        let doc = Heredoc { id: "EOS".into(), quote: '"', inline: false };
        let c = chars("a\n  EOSX\n  EOS  \nputs 1");
        assert_eq!(body(&c, 0, &doc), Some(("a\n  EOSX\n".into(), 16)));
        assert_eq!(body(&chars("a\nb"), 0, &doc), None, "unterminated");
        let php = Heredoc { id: "EOT".into(), quote: '"', inline: true };
        let c = chars("x\n  EOTX\n  EOT;");
        assert_eq!(body(&c, 0, &php), Some(("x\n  EOTX\n".into(), 14)));
    }

    #[test]
    fn a_heredoc_body_is_a_string_whose_interpolations_are_code() {
        let idents = |lang, src| -> Vec<String> {
            tokenize(lang, src).unwrap_or_default().into_iter().filter_map(|t| if let Tok::Ident(w) = t { Some(w) } else { None }).collect()
        };
        assert_eq!(idents(Lang::Ruby, "x = <<~EOS\n  it's #{system('ls')}\nEOS\ny"), ["x", "y", "system"]);
        assert_eq!(idents(Lang::Ruby, "x = <<~'EOS'\n  #{system('ls')}\nEOS"), ["x"], "a quoted tag is text");
        let cmd = Tok::Cmd { text: "  reboot\n".into(), interp: false };
        assert_eq!(tokenize(Lang::Ruby, "x = <<~`EOS`\n  reboot\nEOS").unwrap_or_default()[2], cmd, "a backtick tag runs its body");
        assert_eq!(idents(Lang::Php, "echo <<<EOT\n# {$x}\nEOT . y();"), ["echo", "y", "$x"]);
        assert_eq!(idents(Lang::Perl, "print <<EOF;\n# @{[ z() ]}\nEOF\n"), ["print", "z"]);
        // A local before `<<` makes it a shift: the next line is code.
        assert_eq!(idents(Lang::Ruby, "a = 1\na <<-X\nsystem('ls')\nX"), ["a", "a", "X", "system", "X"]);
        assert!(tokenize(Lang::Ruby, "x = <<~EOS\n  open").is_err(), "no closing line");
    }
}
