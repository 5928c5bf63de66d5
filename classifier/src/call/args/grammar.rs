//! How a program spells its options, named (docs/decisions/0013-program-cards.md,
//! "Grammar"): one variant per real CLI convention, read by [`super::Args`] and
//! moved between by `ArgSpec`'s builders.

/// The convention a program's options follow (decision 0013, "Grammar"): each
/// variant names one real CLI convention, and the reading follows from it. A
/// spec's builders move between them (`.packed()`, `.posix()`, `.plus()`,
/// `.greedy()`, `.single_dash_long()`); a combination no CLI uses does not
/// compile (the builders are `const` and panic on it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Grammar {
    /// Every option is one word; an undeclared cluster `-xvf` is one flag; a
    /// declared one-letter value option takes an attached value (`-nprod`);
    /// options and operands interleave.
    #[default]
    Words,
    /// `Words`, and options end at the first operand (runners, interpreters without clusters).
    WordsPosix,
    /// GNU `getopt_long`: short clusters (`-xvf file`) read letter by letter (a
    /// declared letter is its option, a value letter takes the rest of the word or
    /// the next word, any other letter is a flag), `--long[=v]`, interleaved.
    GetoptLong,
    /// POSIX `getopt` (`+` optstring): clusters, options end at the first operand.
    Getopt,
    /// `Getopt` plus `+x` words (`bash +o posix`, `set +e`).
    Shell,
    /// cobra/pflag: `Words`, and an undeclared `--long` (no `=value`, not a declared
    /// flag) takes the next word unless that word is an option (`aws`, `az`).
    Pflag,
    /// Whole-word options (`-cmd`, `-csv`, `-name`; git's globals): no short
    /// option carries an attached value and no cluster is unpacked.
    SingleDash,
}

impl Grammar {
    /// Short clusters are read letter by letter (lenient specs; a strict one always unpacks).
    pub const fn packed(self) -> bool {
        matches!(self, Grammar::GetoptLong | Grammar::Getopt | Grammar::Shell)
    }
    /// Options end at the first operand.
    pub const fn posix(self) -> bool {
        matches!(self, Grammar::WordsPosix | Grammar::Getopt | Grammar::Shell)
    }
    /// `+x` words are options.
    pub const fn plus(self) -> bool {
        matches!(self, Grammar::Shell)
    }
    /// An undeclared `--long` takes the next plain word.
    pub const fn greedy(self) -> bool {
        matches!(self, Grammar::Pflag)
    }
    /// Every option is a whole word.
    pub const fn whole_words(self) -> bool {
        matches!(self, Grammar::SingleDash)
    }
    /// The grammar's name in `tiergate programs`.
    pub const fn name(self) -> &'static str {
        match self {
            Grammar::Words => "words",
            Grammar::WordsPosix => "words-posix",
            Grammar::GetoptLong => "getopt-long",
            Grammar::Getopt => "getopt",
            Grammar::Shell => "shell",
            Grammar::Pflag => "pflag",
            Grammar::SingleDash => "single-dash",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::call::args::ArgSpec;
    use crate::words;

    #[test]
    fn builders_name_the_grammar_of_each_combination_in_use() {
        let v = || ArgSpec::values(words![]);
        assert_eq!(v().grammar, Grammar::Words);
        assert_eq!(v().posix().grammar, Grammar::WordsPosix);
        assert_eq!(v().packed().grammar, Grammar::GetoptLong);
        assert_eq!(v().packed().posix().grammar, Grammar::Getopt);
        assert_eq!(v().posix().packed().grammar, Grammar::Getopt);
        assert_eq!(v().packed().posix().plus().grammar, Grammar::Shell);
        assert_eq!(v().greedy().grammar, Grammar::Pflag);
        assert_eq!(v().single_dash_long().grammar, Grammar::SingleDash);
        let strict = ArgSpec::strict(words![], words![], words![], false);
        assert!(strict.stops_at_operand() && strict.single_dash_long().stops_at_operand(), "a strict spec stops at its first operand");
        assert!(!v().single_dash_long().stops_at_operand() && v().posix().stops_at_operand());
    }

    /// `tiergate programs` names each card's grammar with `name()`, and no verdict
    /// reads it, so only this test tells the names apart: each distinct, and the
    /// lower-case words of the grammar's own name.
    #[test]
    fn each_grammar_has_its_own_name_in_the_dump() {
        let all = [Grammar::Words, Grammar::WordsPosix, Grammar::GetoptLong, Grammar::Getopt, Grammar::Shell, Grammar::Pflag, Grammar::SingleDash];
        let names: Vec<&str> = all.iter().map(|g| g.name()).collect();
        for (g, name) in all.iter().zip(&names) {
            assert_eq!(format!("{g:?}").to_lowercase(), name.replace('-', ""), "{g:?} is named {name:?}");
        }
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), all.len(), "{names:?}");
    }
}
