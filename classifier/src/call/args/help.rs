//! One help vocabulary and the `Help` bit set a program's reading declares
//! over it (docs/decisions/0013-program-cards.md, "Help is the grammar's job").
//!
//! A program's card says which help words its program honours and how
//! (`Help::LONG | Help::DASH_H`; `--version` only as the whole argv:
//! `Help::VERSION.alone()`). The argument layer yields [`super::Token::Help`]
//! where its reading says such a word is an option of its own, and
//! [`asks_help`] is the one answer to "does this invocation ask for help":
//! families never compare a word against help words themselves (a tidy check,
//! `check_help_readings`, holds them to it).
//!
//! This module does not say what a help request is worth: the engine answers it
//! with the owning family's help rule (`rules::help`).

use super::{ArgSpec, Args, Token};
use crate::call::Arg;
use crate::words::Words;

/// The help vocabulary: bit `i` of a [`Help`] is entry `i`. A word is a help
/// word only when it is exactly one of these.
const VOCABULARY: Words = crate::words!["--help", "-h", "-help", "-?", "--usage", "--version", "-V", "-v", "-version", "--manual", "-M",];

/// How many entries [`VOCABULARY`] has; a [`Help`] keeps one bit per entry for
/// each of its two places.
const WORDS: u32 = 11;
/// Where the "only as the whole argv" bits start.
const ALONE_SHIFT: u32 = 12;
/// The help words count only when the reading has no operand.
const WITHOUT_OPERANDS: u32 = 1 << 31;
// Both places and the mode bit fit in a `u32` without overlapping.
const _: () = assert!(WORDS <= ALONE_SHIFT && ALONE_SHIFT + WORDS < 31);

/// The help words a program honours, where they count, as one integer (a card
/// costs no pointer for it: decision 0005).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Help(u32);

impl Help {
    pub const NONE: Help = Help(0);
    /// `--help`
    pub const LONG: Help = Help(1);
    /// `-h`
    pub const DASH_H: Help = Help(1 << 1);
    /// `-help`
    pub const SINGLE_DASH: Help = Help(1 << 2);
    /// `-?`
    pub const QUESTION: Help = Help(1 << 3);
    /// `--usage`
    pub const USAGE: Help = Help(1 << 4);
    /// `--version`
    pub const VERSION: Help = Help(1 << 5);
    /// `-V`
    pub const DASH_UPPER_V: Help = Help(1 << 6);
    /// `-v`
    pub const DASH_V: Help = Help(1 << 7);
    /// `-version`
    pub const SINGLE_DASH_VERSION: Help = Help(1 << 8);
    /// `--manual`
    pub const MANUAL: Help = Help(1 << 9);
    /// `-M`
    pub const DASH_M: Help = Help(1 << 10);

    /// Both sets.
    pub const fn with(self, other: Help) -> Help {
        Help(self.0 | other.0)
    }

    /// The same words, honoured only as the program's whole argv (`ip -V` prints
    /// the version; `ip -V link set …` is not a version request to tiergate).
    pub const fn alone(self) -> Help {
        Help((self.0 & ((1 << WORDS) - 1)) << ALONE_SHIFT)
    }

    /// The same set, honoured only when the reading has no operand (`rm --help`
    /// prints help; `rm x --help` is judged as `rm x`).
    pub const fn without_operands(self) -> Help {
        Help(self.0 | WITHOUT_OPERANDS)
    }

    /// True when no help word is honoured.
    pub const fn is_empty(self) -> bool {
        self.0 & !WITHOUT_OPERANDS == 0
    }

    /// The vocabulary bit of `word`, if it is a help word.
    fn bit(word: &str) -> Option<u32> {
        VOCABULARY.iter().position(|w| w == word).map(|i| 1 << i)
    }

    /// True when `word`, taken on its own, is one of the help words this set
    /// honours anywhere: for a program whose every word only prints (`vagrant
    /// --version`, `cpan -v -l`). Where a word stands in argv is [`asks_help`]'s.
    pub fn holds(self, word: &str) -> bool {
        self.anywhere(word)
    }

    /// True when `word` is one of the help words this set honours anywhere.
    fn anywhere(self, word: &str) -> bool {
        Help::bit(word).is_some_and(|b| self.0 & b != 0)
    }

    /// True when `word` is one of the help words this set honours as the whole argv.
    fn only_alone(self, word: &str) -> bool {
        Help::bit(word).is_some_and(|b| self.0 & (b << ALONE_SHIFT) != 0)
    }

    /// True when `word` is a help word of this set where it stands: the reading
    /// yields it as [`Token::Help`]. `whole` says it is the whole argv; a word
    /// honoured only alone is an ordinary option anywhere else.
    pub(super) fn names(self, word: &str, whole: bool) -> bool {
        !self.is_empty() && (self.anywhere(word) || (whole && self.only_alone(word)))
    }

    /// The words honoured anywhere, then those honoured alone, for `tiergate programs`.
    pub fn words(self) -> (Vec<&'static str>, Vec<&'static str>) {
        let pick = |shift: u32| VOCABULARY.iter().enumerate().filter(|(i, _)| self.0 & (1 << (i + shift as usize)) != 0).map(|(_, w)| w).collect();
        (pick(0), pick(ALONE_SHIFT))
    }

    /// True when the help words count only without operands.
    pub fn needs_no_operands(self) -> bool {
        self.0 & WITHOUT_OPERANDS != 0
    }
}

/// Whether `args`, read under `spec`, ask for help: a help word the spec honours
/// stands as an option of its own ([`Token::Help`]: never an option's value, never
/// after `--`, not right after an undeclared option under a lenient spec), as the
/// whole argv for a word honoured only alone, and with no operand when the spec says so.
pub fn asks_help(args: &[Arg], spec: ArgSpec) -> bool {
    if spec.help.is_empty() {
        return false;
    }
    let mut help = false;
    for t in Args::parse(args, spec) {
        match t {
            Token::Help { .. } => {
                if !spec.help.needs_no_operands() {
                    return true;
                }
                help = true;
            }
            Token::Operand(_) if spec.help.needs_no_operands() => return false,
            _ => {}
        }
    }
    help
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words;

    fn args(s: &str) -> Vec<Arg> {
        s.split_whitespace().map(Arg::lit).collect()
    }

    fn asks(spec: ArgSpec, s: &str) -> bool {
        asks_help(&args(s), spec)
    }

    #[test]
    fn the_vocabulary_has_one_bit_per_word() {
        assert_eq!(VOCABULARY.len() as u32, WORDS);
        let all = [
            Help::LONG,
            Help::DASH_H,
            Help::SINGLE_DASH,
            Help::QUESTION,
            Help::USAGE,
            Help::VERSION,
            Help::DASH_UPPER_V,
            Help::DASH_V,
            Help::SINGLE_DASH_VERSION,
            Help::MANUAL,
            Help::DASH_M,
        ];
        for (i, h) in all.iter().enumerate() {
            assert_eq!(h.words().0, [VOCABULARY.get(i)], "bit {i}");
        }
        assert_eq!(Help::VERSION.alone().words(), (vec![], vec!["--version"]));
    }

    #[test]
    fn a_help_word_is_help_only_where_it_is_an_option_of_its_own() {
        let spec = ArgSpec::values(words!["-c", "--output"]).help(Help::LONG.with(Help::DASH_H));
        assert!(asks(spec, "--help"));
        assert!(asks(spec, "run x -h"));
        assert!(asks(spec, "-c x --help"), "after a declared option's value");
        assert!(!asks(spec, "-c --help x"), "the value of a declared value option");
        assert!(!asks(spec, "--output=o -- --help"), "after `--`");
        assert!(!asks(spec, "-y --help"), "a lenient spec: an undeclared option may own the next word");
        assert!(asks(spec, "-y=1 --help"), "an undeclared option with `=` owns nothing more");
        assert!(!asks(spec, "--version"), "a word the spec does not honour");
        assert!(!asks(ArgSpec::values(words![]), "--help"), "a spec with no help words");
    }

    #[test]
    fn strict_and_packed_specs_read_help_words_too() {
        let strict = ArgSpec::strict(words!["-u"], words!["-q"], words![], false).help(Help::LONG);
        assert!(asks(strict, "-q --help"));
        assert!(!asks(strict, "-u --help"));
        let packed = ArgSpec::values(words!["-f"]).packed().help(Help::DASH_H);
        assert!(!asks(packed, "-xf -h"), "`-h` is the value of the cluster's `-f`");
        assert!(!asks(packed, "-xv -h"), "after an undeclared cluster");
    }

    #[test]
    fn alone_and_without_operands_narrow_where_help_counts() {
        let spec = ArgSpec::values(words![]).help(Help::LONG.with(Help::VERSION.alone()));
        assert!(asks(spec, "--version"));
        assert!(!asks(spec, "--version link"));
        assert!(asks(spec, "link --help"));
        let bare = ArgSpec::values(words![]).help(Help::LONG.without_operands());
        assert!(asks(bare, "--help"));
        assert!(!asks(bare, "x --help") && !asks(bare, "--help x") && !asks(bare, "--help -- x"));
    }
}
