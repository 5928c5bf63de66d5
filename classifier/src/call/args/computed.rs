//! Words built at run time where an option goes: `find . $(echo -delete)`,
//! `tar $X -f a.tar`, `-$FLAGS`. Read under a program's [`ArgSpec`], so the value
//! of a declared option (`-f "$ARCHIVE"`) is a value, not an option. It decides
//! no tier (`rules::exec::computed` does).

use super::{split_option, ArgSpec, Args, Token};
use crate::call::Arg;
use crate::words::Words;

/// True when `arg` is computed at run time and its value may begin with a dash,
/// so the program may read it as an option: an inexact word that starts with an
/// expansion (`$X`, `"${X}"`, `$(…)`, `` `…` ``, `$((…))`). A word that starts with
/// literal text (`./$X`, `name=$X`) or a tilde cannot be an option. Filename globs
/// are not counted: a glob matches an option-like name only after such a file was
/// created.
pub fn could_be_option(arg: &Arg) -> bool {
    !arg.exact && arg.text.starts_with(['$', '`'])
}

/// True when an option word's name (not its value) holds an expansion under
/// `spec`: `-$FLAGS`, `--$(echo delete)=1`, and in a packed cluster a computed
/// letter before the first letter that takes a value (`-x$F`; in `-xf$ARCHIVE`
/// the expansion is `-f`'s value).
fn computed_name(word: &str, spec: ArgSpec) -> bool {
    let expansion = |c: char| c == '$' || c == '`';
    if word.starts_with("--") || !spec.grammar.packed() || spec.grammar.whole_words() {
        return split_option(word).0.contains(expansion);
    }
    for (at, c) in word.char_indices().skip(1) {
        if expansion(c) {
            return true;
        }
        let letter = &word[at..at + c.len_utf8()];
        let declared = |set: Words| set.iter().any(|s| s.len() == 1 + letter.len() && s.starts_with('-') && &s[1..] == letter);
        if declared(spec.value) || declared(spec.optional) {
            return false;
        }
    }
    false
}

/// The index of the first word of `args` that is computed at run time and stands
/// where an option goes under `spec`: a [`could_be_option`] operand before `--`
/// (for a POSIX spec, only the first, since options end there), or an option word
/// with a computed name. The value of a declared option is a value (`tar -f
/// "$ARCHIVE"`, `git commit -m "$MSG"`), whatever it holds; a word after an
/// undeclared option is read as an operand, so a spec declares the value options
/// of its program and any other option counts as a flag.
pub fn computed_option(args: &[Arg], spec: ArgSpec) -> Option<usize> {
    Args::parse(args, spec).find_map(|t| match t {
        Token::Operand(o) if !o.after_dashdash && could_be_option(o.arg) => Some(o.index),
        Token::Flag { index, word, .. } | Token::Unknown { index, word } if !args[index].exact && computed_name(word, spec) => Some(index),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words;

    #[test]
    fn computed_words_count_where_an_option_goes_and_not_as_values() {
        let computed = |s: &str| s.split_whitespace().map(|w| Arg { exact: !w.contains(['$', '`']), ..Arg::lit(w) }).collect::<Vec<_>>();
        let spec = ArgSpec::values(words!["-f", "-C", "-m"]).packed();
        let at = |s: &str| computed_option(&computed(s), spec);
        assert_eq!(at(". $(echo -delete)"), Some(1));
        assert_eq!(at("$(echo -x) -f a.tar"), Some(0));
        assert_eq!(at("-a $X src/"), Some(1), "after a flag");
        assert_eq!(at("-$FLAGS x"), Some(0), "a computed option name");
        assert_eq!(at("--$(echo delete)=1 x"), Some(0));
        assert_eq!(at("-f $ARCHIVE -C $DIR -m \"$MSG\""), None, "values of declared options");
        assert_eq!(at("-xf$ARCHIVE"), None, "a packed value");
        assert_eq!(at("x -- $X"), None, "after --");
        assert_eq!(at("./$X ~$USER name=$X"), None, "literal text first");
        assert_eq!(computed_option(&computed("host $X"), ArgSpec::values(words![]).posix()), None, "a POSIX spec stops at its first operand");
        assert_eq!(computed_option(&computed("$X host"), ArgSpec::values(words![]).posix()), Some(0));
    }
}
