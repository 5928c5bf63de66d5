//! Ruby's operand positions, as its own lexer decides them (parse.y): whether a
//! `%` opens a literal (`%x(ls)`) or takes a modulo, and whether `<<` opens a
//! heredoc or shifts, both turn on whether the name before is a local variable.

use super::lexer::{operand_expected, Tok};

/// Keywords after which Ruby expects an operand (its lexer's `EXPR_BEG`).
const RUBY_BEG_KEYWORDS: &[&str] =
    &["return", "if", "unless", "and", "or", "not", "when", "while", "until", "case", "in", "then", "else", "elsif", "do", "yield"];

/// `%x{…}`, `%w[…]`, `%q(…)`, `%(…)` at `c[i]`: the kind letter and the opening
/// delimiter, decided the way Ruby's own lexer decides (parse.y, `parser_percent`).
/// After a type letter the delimiter is any ASCII character but a letter or digit,
/// whitespace included (`%x reboot ` runs `reboot`). Where an operand is expected
/// it is a literal. After an identifier, a space and no space after `%`, Ruby reads
/// a literal when the identifier is a method call (`p %x(ls)`) and a modulo when it
/// is a local variable (`a %x(ls)` after `a = 3`): local variables are the names the
/// code assigned or took as block parameters before this point.
pub(super) fn ruby_percent(c: &[char], i: usize, toks: &[Tok]) -> Option<(Option<char>, char)> {
    let a = *c.get(i + 1)?;
    if !ruby_operand(c, i, toks, a) {
        return None;
    }
    if matches!(a, 'x' | 'q' | 'Q' | 'w' | 'W' | 'i' | 'I' | 'r' | 's') {
        let d = *c.get(i + 2)?;
        return (d.is_ascii() && !d.is_ascii_alphanumeric()).then_some((Some(a.to_ascii_lowercase()), d));
    }
    matches!(a, '(' | '[' | '{' | '<' | '|' | '!').then_some((None, a))
}

/// Whether Ruby reads an operand (a literal) at `c[i]`, `a` the character after the
/// operator there (`%`, `<<`): where an operand is expected, or after a method name
/// with a space before and none after (`p %x(ls)`, `puts <<~EOS`), not after a local
/// variable (`a %x`, `a <<EOS` are modulo and shift).
pub(super) fn ruby_operand(c: &[char], i: usize, toks: &[Tok], a: char) -> bool {
    match toks.last() {
        Some(Tok::Ident(w)) if !RUBY_BEG_KEYWORDS.contains(&w.as_str()) => {
            let spaced = i > 0 && c[i - 1].is_whitespace();
            spaced && !a.is_whitespace() && a != '=' && !ruby_local(toks, w)
        }
        _ => operand_expected(toks),
    }
}

/// True when `name` is a local variable at this point of Ruby code: assigned
/// (`name =`, `name += …`, `a, name = …`), or a block parameter (`{ |a, name|`).
fn ruby_local(toks: &[Tok], name: &str) -> bool {
    let is_name = |t: &Tok| matches!(t, Tok::Ident(w) if w == name);
    let mut in_params = false;
    for (k, t) in toks.iter().enumerate() {
        match t {
            Tok::Punct('|') if in_params => in_params = false,
            Tok::Punct('|') if matches!(k.checked_sub(1).map(|p| &toks[p]), Some(Tok::Punct('{')) | Some(Tok::Ident(_))) => {
                in_params = matches!(&toks[k - 1], Tok::Punct('{')) || matches!(&toks[k - 1], Tok::Ident(d) if d == "do");
            }
            _ if in_params && is_name(t) => return true,
            _ if is_name(t) => {
                // `name =` (not `==`, `=~`, `=>`), `name op= …`, or `name,` in a multiple assignment.
                let rest = &toks[k + 1..];
                let assigns =
                    |r: &[Tok]| matches!(r, [Tok::Punct('='), next, ..] if !matches!(next, Tok::Punct('=' | '~' | '>'))) || matches!(r, [Tok::Punct('=')]);
                let op_assign = matches!(rest, [Tok::Punct('+' | '-' | '*' | '/' | '|' | '&' | '%'), Tok::Punct('='), ..]);
                let multi = matches!(rest.first(), Some(Tok::Punct(','))) && {
                    let stmt = rest.iter().take_while(|t| !matches!(t, Tok::Sep)).collect::<Vec<_>>();
                    stmt.iter()
                        .position(|t| matches!(t, Tok::Punct('=')))
                        .is_some_and(|e| stmt[..e].iter().all(|t| matches!(t, Tok::Ident(_) | Tok::Punct(','))))
                };
                if assigns(rest) || op_assign || multi {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::super::lexer::tokenize;
    use super::super::scripts::Lang;
    use super::*;

    fn ruby_cmds(src: &str) -> Vec<String> {
        tokenize(Lang::Ruby, src).unwrap_or_default().into_iter().filter_map(|t| if let Tok::Cmd { text, .. } = t { Some(text) } else { None }).collect()
    }

    #[test]
    fn a_ruby_percent_literal_takes_any_delimiter_ruby_accepts() {
        // Checked with ruby 3.1: each of these runs `reboot`.
        for src in ["x = %x reboot ", "x = %x\treboot\t", "x = %x\nreboot\n", "x = %x;reboot;", "x = %x-reboot-", "p(%x reboot )"] {
            assert_eq!(ruby_cmds(src), ["reboot"], "{src:?}");
        }
        // A letter or digit after the type letter is no literal (Ruby: unknown type of %string).
        assert!(ruby_cmds("x = %xareboota").is_empty());
    }

    #[test]
    fn after_a_name_ruby_reads_a_literal_for_a_method_and_a_modulo_for_a_local() {
        assert_eq!(ruby_cmds("p %x(reboot)"), ["reboot"]);
        assert_eq!(ruby_cmds("foo = 1; p %x reboot "), ["reboot"]);
        // `a` is a local (assigned, a block parameter, a multiple assignment): `a %x(…)` is `a % x(…)`.
        for src in ["a = 3; p a %x(y)", "[7].each { |a| p a %x(y) }", "a, b = 1, 2; p a %x(y)", "a += 1; p a %x(y)"] {
            assert!(ruby_cmds(src).is_empty(), "{src:?}");
        }
        // No space before `%`, a space after it, or a number before it: a modulo.
        for src in ["p a%x(y)", "p a % x", "puts 10 %x"] {
            assert!(ruby_cmds(src).is_empty(), "{src:?}");
        }
    }
}
