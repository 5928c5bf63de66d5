//! The one argument layer: how a program's words split into options, option
//! values and operands, given what the program declares (`ArgSpec`).
//!
//! Every reader of argv asks this module: the wrappers (which must find their
//! target exactly), every rule family (each declares its programs' options beside
//! the code that reads them; a tidy check fails on a family that reads options by
//! hand), [`super::operands`], [`super::value_of`] and the option table of
//! `rules::exec`. Two strengths:
//! - **lenient** ([`ArgSpec::values`]): the family knows only its value-taking
//!   options (and the flags it asks about); any other option word is a flag and a
//!   cluster is unpacked only when the spec says so ([`ArgSpec::packed`]).
//! - **strict** ([`ArgSpec::strict`]): every option is declared; an undeclared one
//!   is [`Token::Unknown`] and parsing stops, because what follows cannot be known.
//!
//! Builders say how a program reads its words: packed clusters, attached-only
//! optional values, options ending at the first operand, `+x` options, whole-word
//! single-dash options, and pflag's greedy long options.
//!
//! GNU `getopt_long` also accepts any unambiguous prefix of a long option;
//! [`long_prefix`] is the one implementation of that reading.
//!
//! A word built at run time that stands where an option goes is found here too
//! ([`computed_option`], `args/computed.rs`).

use super::{Arg, Operand};
use crate::words::{WordList, Words};

mod computed;
mod grammar;
mod help;
pub use computed::{computed_option, could_be_option};
pub use grammar::Grammar;
pub use help::{asks_help, Help};

/// What a program declares about its options.
#[derive(Clone, Copy, Debug, Default)]
pub struct ArgSpec {
    /// Options that take a value (`-u`, `--user`).
    pub value: Words,
    /// Options that take none (strict specs only; lenient ones treat every other option so).
    pub flags: Words,
    /// Options that take two values (`bwrap --bind SRC DEST`).
    pub value2: Words,
    /// Every `--long` word is self-contained (`--tool=memcheck`, `--private`).
    pub long_free: bool,
    /// Undeclared options are `Unknown` and short clusters are unpacked letter by letter.
    pub strict: bool,
    /// How the program spells its options ([`Grammar`]): clusters, where options
    /// end, `+x` words, whole-word options, pflag's greedy long options.
    pub grammar: Grammar,
    /// Options whose value is optional and only ever attached (`--color=auto`,
    /// `sed -i.bak`, `perl -l0`): the bare spelling has none and the next word is
    /// never taken.
    pub optional: Words,
    /// The help words the program honours ([`Help`]): the reading yields them as
    /// [`Token::Help`] where they are options of their own.
    pub help: Help,
}

impl ArgSpec {
    /// A family that knows only which options take a value.
    pub const fn values(value: Words) -> ArgSpec {
        ArgSpec {
            value,
            flags: crate::words![],
            value2: crate::words![],
            long_free: false,
            strict: false,
            grammar: Grammar::Words,
            optional: crate::words![],
            help: Help::NONE,
        }
    }

    /// A program whose every option is declared; parsing stops at its first operand.
    pub const fn strict(value: Words, flags: Words, value2: Words, long_free: bool) -> ArgSpec {
        ArgSpec { value, flags, value2, long_free, strict: true, grammar: Grammar::Getopt, optional: crate::words![], help: Help::NONE }
    }

    /// Also names flags the caller asks about: each is read as an [`Token::Opt`]
    /// without a value (a lenient spec still takes any other option as a flag).
    pub const fn with_flags(self, flags: Words) -> ArgSpec {
        ArgSpec { flags, ..self }
    }

    /// Declares options whose value is optional and attached only (see [`ArgSpec::optional`]).
    pub const fn with_optional(self, optional: Words) -> ArgSpec {
        ArgSpec { optional, ..self }
    }

    /// Reads short clusters letter by letter: `Words` becomes `GetoptLong`,
    /// `WordsPosix` becomes `Getopt` ([`Grammar`]).
    pub const fn packed(self) -> ArgSpec {
        let grammar = match self.grammar {
            Grammar::Words | Grammar::GetoptLong => Grammar::GetoptLong,
            Grammar::WordsPosix | Grammar::Getopt => Grammar::Getopt,
            Grammar::Shell => Grammar::Shell,
            Grammar::Pflag | Grammar::SingleDash => panic!("no grammar packs clusters with pflag's or whole-word options"),
        };
        ArgSpec { grammar, ..self }
    }

    /// Ends option parsing at the first operand (POSIX `getopt`, `+` in
    /// `getopt_long`'s optstring): `Words` becomes `WordsPosix`, `GetoptLong` `Getopt`.
    pub const fn posix(self) -> ArgSpec {
        let grammar = match self.grammar {
            Grammar::Words | Grammar::WordsPosix => Grammar::WordsPosix,
            Grammar::GetoptLong | Grammar::Getopt => Grammar::Getopt,
            Grammar::Shell => Grammar::Shell,
            Grammar::Pflag | Grammar::SingleDash => panic!("pflag and whole-word grammars interleave options and operands"),
        };
        ArgSpec { grammar, ..self }
    }

    /// Reads every option as a whole word ([`Grammar::SingleDash`]); a strict spec
    /// still stops at its first operand.
    pub const fn single_dash_long(self) -> ArgSpec {
        let grammar = match self.grammar {
            Grammar::Words | Grammar::SingleDash => Grammar::SingleDash,
            Grammar::Getopt if self.strict => Grammar::SingleDash,
            _ => panic!("whole-word options are a grammar of their own"),
        };
        ArgSpec { grammar, ..self }
    }

    /// Lets undeclared long options take the next word ([`Grammar::Pflag`]).
    pub const fn greedy(self) -> ArgSpec {
        let grammar = match self.grammar {
            Grammar::Words | Grammar::Pflag => Grammar::Pflag,
            _ => panic!("only a whole-word lenient reading is pflag's"),
        };
        ArgSpec { grammar, ..self }
    }

    /// Reads `+x` words as options too ([`Grammar::Shell`]: a POSIX `getopt` reading).
    pub const fn plus(self) -> ArgSpec {
        let grammar = match self.grammar {
            Grammar::Getopt | Grammar::Shell => Grammar::Shell,
            _ => panic!("`+x` options belong to the shell's getopt reading: .packed().posix().plus()"),
        };
        ArgSpec { grammar, ..self }
    }

    /// True when option parsing ends at the first operand: a POSIX grammar, or a
    /// strict spec (a wrapper, whose target's own options follow).
    pub const fn stops_at_operand(&self) -> bool {
        self.strict || self.grammar.posix()
    }

    /// Honours these help words (see [`Help`], [`asks_help`]).
    pub const fn help(self, help: Help) -> ArgSpec {
        ArgSpec { help, ..self }
    }

    /// True when `word` is an option word under this spec (`-x`, `--long`, `+x` if [`ArgSpec::plus`]).
    pub fn is_option(&self, word: &str) -> bool {
        word.len() > 1 && (word.starts_with('-') || (self.grammar.plus() && word.starts_with('+')))
    }
}

/// One reading of one piece of argv.
#[derive(Clone, Copy, Debug)]
pub enum Token<'a> {
    /// A declared option at word `index`. `name` is its declared spelling (for a
    /// letter of a packed cluster, the declared `-x`); `value` is its argument,
    /// inline or the next word.
    Opt { index: usize, name: &'static str, value: Option<&'a str> },
    /// A declared two-valued option (`--bind SRC DEST`).
    Opt2 { index: usize, name: &'static str, values: (&'a str, &'a str) },
    /// An option word the spec does not declare, read as a flag: any option in
    /// a lenient spec, a self-contained `--long` word in a `long_free` one. In a
    /// packed lenient spec each undeclared letter of a cluster is one (`word` is
    /// the whole cluster).
    /// `value` is the next word, which a greedy spec takes as an undeclared
    /// `--long` option's value.
    Flag { index: usize, word: &'a str, value: Option<&'a str> },
    /// A word that is neither an option nor an option's value.
    Operand(Operand<'a>),
    /// The `--` that ends options.
    DashDash(usize),
    /// Strict only: an option the spec does not declare. Parsing stops.
    Unknown { index: usize, word: &'a str },
    /// A value-taking option with nothing after it. Parsing stops.
    Missing { index: usize, name: &'static str },
    /// A help word the spec honours ([`ArgSpec::help`]), standing as an option of
    /// its own: not a declared option's value, not after `--`, and under a lenient
    /// spec not right after an undeclared option without `=` (which may own it).
    Help { index: usize, word: &'a str },
}

impl Token<'_> {
    /// The option a token names: a declared option's spelling, or an undeclared
    /// option word with any `--long=value` split off. `None` for operands and `--`.
    pub fn name(&self) -> Option<&str> {
        match *self {
            Token::Opt { name, .. } | Token::Opt2 { name, .. } | Token::Missing { name, .. } => Some(name),
            Token::Flag { word, .. } | Token::Unknown { word, .. } if word.starts_with("--") => Some(split_option(word).0),
            Token::Flag { word, .. } | Token::Unknown { word, .. } | Token::Help { word, .. } => Some(word),
            Token::Operand(_) | Token::DashDash(_) => None,
        }
    }
}

/// The tokens of `args` under a spec; see [`Args::parse`].
#[derive(Clone, Debug)]
pub struct Args<'a> {
    args: &'a [Arg],
    spec: ArgSpec,
    pos: usize,
    /// Inside a strict short cluster (`-nE`): the byte offset of the next letter.
    cluster: usize,
    after_dashdash: bool,
    done: bool,
    /// The last token was an undeclared option without `=`, which (under a lenient
    /// spec) may own the next word: a help word there is not help.
    after_undeclared: bool,
}

impl<'a> Args<'a> {
    /// The one `Args::parse`: `args` read under `spec`, lazily, without allocating.
    pub fn parse(args: &'a [Arg], spec: ArgSpec) -> Args<'a> {
        Args { args, spec, pos: 0, cluster: 0, after_dashdash: false, done: false, after_undeclared: false }
    }

    /// Starts at word `index` (a wrapper's own words begin after its program word).
    pub fn starting_at(mut self, index: usize) -> Args<'a> {
        self.pos = index;
        self
    }

    /// The word the next token starts at, or `None` at the end. Inside a packed
    /// cluster this is still the cluster's word: see [`Args::mid_word`].
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// True while the next token is a later letter of a packed cluster.
    pub fn mid_word(&self) -> bool {
        self.cluster > 0
    }

    /// The operands alone, in order.
    pub fn operands(self) -> impl Iterator<Item = Operand<'a>> + use<'a> {
        self.filter_map(|t| match t {
            Token::Operand(o) => Some(o),
            _ => None,
        })
    }

    /// True when one of `names` (declared spellings) is given before the reading
    /// ends, with its value or (at the end of argv) without.
    pub fn has<'n>(mut self, names: impl WordList<'n>) -> bool {
        self.any(|t| matches!(t, Token::Opt { name, .. } | Token::Opt2 { name, .. } | Token::Missing { name, .. } if names.has(name)))
    }

    /// Skips the word at the current position without reading it (a caller's own
    /// special case, such as `env NAME=value`).
    pub fn skip_word(&mut self) {
        self.pos += 1;
        self.cluster = 0;
        self.after_undeclared = false;
    }

    fn value_after(&mut self, index: usize, name: &'static str) -> Token<'a> {
        match self.args.get(index + 1) {
            Some(v) => {
                self.pos = index + 2;
                Token::Opt { index, name, value: Some(v.text.as_str()) }
            }
            None => self.stop(Token::Missing { index, name }),
        }
    }

    fn stop(&mut self, t: Token<'a>) -> Token<'a> {
        self.done = true;
        t
    }

    /// A cluster's next letter (`self.cluster` is its byte offset in the word).
    fn cluster_letter(&mut self, index: usize, word: &'a str) -> Token<'a> {
        let rest = &word[self.cluster..];
        let letter = rest.chars().next().map_or(0, char::len_utf8);
        let sign = &word[..1];
        let find = |set: Words| set.iter().find(|s| s.len() == 1 + letter && s.starts_with(sign) && s[1..] == rest[..letter]);
        if let Some(name) = find(self.spec.value) {
            self.cluster = 0;
            let packed = &rest[letter..];
            if packed.is_empty() {
                return self.value_after(index, name);
            }
            self.pos = index + 1;
            return Token::Opt { index, name, value: Some(packed) };
        }
        if let Some(name) = find(self.spec.optional) {
            // `-i.bak`: the rest of the word is the value, whatever it holds.
            self.cluster = 0;
            self.pos = index + 1;
            let packed = &rest[letter..];
            return Token::Opt { index, name, value: (!packed.is_empty()).then_some(packed) };
        }
        let token = match find(self.spec.flags) {
            Some(name) => Token::Opt { index, name, value: None },
            None if self.spec.strict => return self.stop(Token::Unknown { index, word }),
            None => Token::Flag { index, word, value: None },
        };
        if letter == rest.len() {
            self.cluster = 0;
            self.pos = index + 1;
        } else {
            self.cluster += letter;
        }
        token
    }

    fn option(&mut self, index: usize, word: &'a str) -> Token<'a> {
        let spec = self.spec;
        if self.cluster > 0 {
            return self.cluster_letter(index, word);
        }
        // A strict spec splits `=` off long options only: getopt reads `-u=x` as `-u`
        // with the value `=x`, and a flag cluster `-t=1` as the undeclared `-=`.
        let (name, inline) = if spec.strict && !word.starts_with("--") { (word, None) } else { split_option(word) };
        if let Some(name) = spec.value2.find(name) {
            return match (self.args.get(index + 1), self.args.get(index + 2)) {
                (Some(a), Some(b)) => {
                    self.pos = index + 3;
                    Token::Opt2 { index, name, values: (a.text.as_str(), b.text.as_str()) }
                }
                _ => self.stop(Token::Missing { index, name }),
            };
        }
        if let Some(declared) = spec.value.find(name) {
            if let Some(v) = inline {
                self.pos = index + 1;
                return Token::Opt { index, name: declared, value: Some(v) };
            }
            return self.value_after(index, declared);
        }
        if let Some(declared) = spec.optional.find(name) {
            self.pos = index + 1;
            return Token::Opt { index, name: declared, value: inline };
        }
        // Under a lenient spec an undeclared option right before may own the word.
        if (spec.strict || !self.after_undeclared) && spec.help.names(word, self.args.len() == 1) {
            self.pos = index + 1;
            return Token::Help { index, word };
        }
        if !spec.strict {
            if let Some(declared) = spec.flags.find(name) {
                self.pos = index + 1;
                return Token::Opt { index, name: declared, value: inline };
            }
            if spec.grammar.greedy() && inline.is_none() && word.starts_with("--") {
                let value = self.args.get(index + 1).map(|n| n.text.as_str()).filter(|n| !spec.is_option(n));
                self.pos = index + 1 + usize::from(value.is_some());
                return Token::Flag { index, word, value };
            }
            if spec.grammar.whole_words() {
                self.pos = index + 1;
                return Token::Flag { index, word, value: None };
            }
            if spec.grammar.packed() && !word.starts_with("--") && word.len() > 2 {
                self.cluster = 1;
                return self.cluster_letter(index, word);
            }
            // `-nVALUE`: a declared one-letter option with its value packed on.
            if let Some(s) = spec
                .value
                .iter()
                .chain(spec.optional)
                .find(|s| s.len() == 2 && !s.starts_with("--") && word.len() > 2 && !word.starts_with("--") && word.starts_with(*s))
            {
                self.pos = index + 1;
                return Token::Opt { index, name: s, value: Some(&word[2..]) };
            }
            self.pos = index + 1;
            return Token::Flag { index, word, value: None };
        }
        if let Some(declared) = spec.flags.find(name) {
            self.pos = index + 1;
            return Token::Opt { index, name: declared, value: inline };
        }
        if spec.long_free && word.starts_with("--") {
            self.pos = index + 1;
            return Token::Flag { index, word, value: None };
        }
        if !word.starts_with("--") && word.len() > 2 && !spec.grammar.whole_words() {
            self.cluster = 1;
            return self.cluster_letter(index, word);
        }
        self.stop(Token::Unknown { index, word })
    }
}

impl<'a> Iterator for Args<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        if self.done {
            return None;
        }
        let index = self.pos;
        let arg = self.args.get(index)?;
        let word = arg.text.as_str();
        // Whether the token before this one was an undeclared option; only an option
        // word (a help word) asks, and the state never outlives one token.
        let after_undeclared = std::mem::take(&mut self.after_undeclared);
        if self.after_dashdash {
            self.pos += 1;
            return Some(Token::Operand(Operand { index, arg, after_dashdash: true }));
        }
        if self.cluster == 0 && word == "--" {
            self.pos += 1;
            self.after_dashdash = true;
            if self.spec.stops_at_operand() {
                self.done = true;
            }
            return Some(Token::DashDash(index));
        }
        if self.cluster == 0 && !self.spec.is_option(word) {
            if self.spec.stops_at_operand() {
                self.done = true;
            }
            self.pos += 1;
            return Some(Token::Operand(Operand { index, arg, after_dashdash: false }));
        }
        self.after_undeclared = after_undeclared;
        let t = self.option(index, word);
        self.after_undeclared = matches!(t, Token::Flag { word, value: None, .. } if split_option(word).1.is_none());
        Some(t)
    }
}

/// The letters of a short option word (`-rf` → `rf`); `None` for a long option or a non-option.
pub fn short_letters(word: &str) -> Option<&str> {
    word.strip_prefix('-').filter(|l| !l.is_empty() && !l.starts_with('-'))
}

/// `--name=value` → (`--name`, `value`); `-n=value` → (`-n`, `value`); anything
/// else is all name.
pub fn split_option(word: &str) -> (&str, Option<&str>) {
    match word.split_once('=') {
        Some((n, v)) if n.starts_with('-') && n.len() > 1 => (n, Some(v)),
        _ => (word, None),
    }
}

/// GNU `getopt_long`'s reading of an abbreviated long option: the declared long
/// spelling that `name` (`--rsh-c`, no `=value`) is a proper prefix of, when the
/// candidates it prefixes all `agree` (the same option, or options that mean the
/// same thing). `None` for an exact spelling, a short option or no match.
pub fn long_prefix<'s, T>(name: &str, candidates: impl Iterator<Item = (&'s str, T)>, agree: impl Fn(&T, &T) -> bool) -> Option<(&'s str, T)> {
    if !name.starts_with("--") || name.len() < 3 {
        return None;
    }
    let mut first: Option<(&'s str, T)> = None;
    let mut agreed = true;
    for (s, t) in candidates {
        if s == name {
            return None;
        }
        if !s.starts_with(name) {
            continue;
        }
        match &first {
            None => first = Some((s, t)),
            Some((_, f)) => agreed &= agree(f, &t),
        }
    }
    first.filter(|_| agreed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words;

    fn args(s: &str) -> Vec<Arg> {
        s.split_whitespace().map(Arg::lit).collect()
    }

    fn show(t: &Token<'_>) -> String {
        match t {
            Token::Opt { name, value: Some(v), .. } => format!("{name}={v}"),
            Token::Opt { name, value: None, .. } => (*name).to_owned(),
            Token::Opt2 { name, values, .. } => format!("{name}={},{}", values.0, values.1),
            Token::Flag { word, .. } => format!("~{word}"),
            Token::Operand(o) => format!("<{}>", o.arg.text),
            Token::DashDash(_) => "--".into(),
            Token::Unknown { word, .. } => format!("?{word}"),
            Token::Missing { name, .. } => format!("!{name}"),
            Token::Help { word, .. } => format!("help:{word}"),
        }
    }

    fn tokens(spec: ArgSpec, s: &str) -> String {
        let a = args(s);
        Args::parse(&a, spec).map(|t| show(&t)).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn lenient_specs_read_values_in_every_spelling_and_interleave_operands() {
        let spec = ArgSpec::values(words!["-C", "--output", "-n"]);
        assert_eq!(tokens(spec, "x -C dir f1 -v --output=o -nprod -n=p f2 -- -f3"), "<x> -C=dir <f1> ~-v --output=o -n=prod -n=p <f2> -- <-f3>");
        // An undeclared cluster stays one flag word; a lone `-` is an operand.
        assert_eq!(tokens(spec, "-xC dir -"), "~-xC <dir> <->");
        // A value option takes the next word whatever it is (getopt does).
        assert_eq!(tokens(spec, "-C -- f"), "-C=-- <f>");
        assert_eq!(tokens(spec, "f -C"), "<f> !-C");
    }

    #[test]
    fn strict_specs_unpack_clusters_stop_at_the_first_operand_and_refuse_the_undeclared() {
        let spec = ArgSpec::strict(words!["-u", "-c", "--user"], words!["-E", "-q", "-n"], words!["--bind"], false);
        assert_eq!(tokens(spec, "-E -u root cmd -x"), "-E -u=root <cmd>");
        assert_eq!(tokens(spec, "-qc 'rm' f"), "-q -c='rm' <f>");
        assert_eq!(tokens(spec, "-qcrm f"), "-q -c=rm <f>");
        assert_eq!(tokens(spec, "-nE --user=x -- cmd"), "-n -E --user=x --");
        assert_eq!(tokens(spec, "--bind a b cmd"), "--bind=a,b <cmd>");
        assert_eq!(tokens(spec, "-E --frob cmd"), "-E ?--frob");
        assert_eq!(tokens(spec, "-Ez cmd"), "-E ?-Ez");
        assert_eq!(tokens(spec, "-u"), "!-u");
        assert_eq!(tokens(spec, "-u=root cmd"), "-u==root <cmd>");
        assert_eq!(tokens(spec, "-E=1 cmd"), "-E ?-E=1");
        let free = ArgSpec::strict(words![], words!["-q"], words![], true);
        assert_eq!(tokens(free, "--tool=memcheck -q prog"), "~--tool=memcheck -q <prog>");
    }

    #[test]
    fn packed_lenient_specs_read_clusters_letter_by_letter() {
        let spec = ArgSpec::values(words!["-C", "-f"]).with_flags(words!["-x"]).packed();
        // getopt: `-xC dir` is `-x` then `-C dir`; an undeclared letter is a flag of the cluster.
        assert_eq!(tokens(spec, "-xC dir -vf file -Cdir op"), "-x -C=dir ~-vf -f=file -C=dir <op>");
        assert_eq!(tokens(spec, "--long=1 -x"), "~--long=1 -x");
    }

    #[test]
    fn optional_values_are_attached_only() {
        let spec = ArgSpec::values(words!["-e"]).with_optional(words!["-i", "--in-place"]).packed();
        assert_eq!(tokens(spec, "-i.bak -e s/a/b/ f"), "-i=.bak -e=s/a/b/ <f>");
        assert_eq!(tokens(spec, "-i f --in-place=.orig --in-place g"), "-i <f> --in-place=.orig --in-place <g>");
        assert_eq!(tokens(spec, "-ni f"), "~-ni -i <f>");
        let plain = ArgSpec::values(words![]).with_optional(words!["-i"]);
        assert_eq!(tokens(plain, "-i.bak f"), "-i=.bak <f>");
    }

    #[test]
    fn posix_specs_stop_at_the_first_operand_and_plus_words_are_options() {
        let spec = ArgSpec::values(words!["-o", "+o"]).packed().posix().plus();
        assert_eq!(tokens(spec, "+o posix -e script -x"), "+o=posix ~-e <script>");
        assert_eq!(tokens(ArgSpec::values(words![]), "+x f"), "<+x> <f>");
    }

    #[test]
    fn operand_and_presence_helpers_read_through_the_spec() {
        let a = args("-C dir -v build -- -x");
        let spec = ArgSpec::values(words!["-C"]).with_flags(words!["-v"]);
        assert_eq!(Args::parse(&a, spec).operands().map(|o| o.arg.text.as_str()).collect::<Vec<_>>(), ["build", "-x"]);
        assert!(Args::parse(&a, spec).has(&["-v"]));
        assert!(!Args::parse(&a, ArgSpec::values(words!["-C"]).with_flags(words!["-x"])).has(&["-x"]), "after `--` is an operand");
    }

    #[test]
    fn greedy_specs_give_undeclared_long_options_the_next_plain_word() {
        let spec = ArgSpec::values(words!["-n"]).with_flags(words!["--yes"]).greedy();
        assert_eq!(tokens(spec, "--region eu s3 --yes rm --force --debug -x a --b=c d"), "~--region <s3> --yes <rm> ~--force ~--debug ~-x <a> ~--b=c <d>");
        let a = args("--region eu s3");
        let value = Args::parse(&a, spec).find_map(|t| match t {
            Token::Flag { value, .. } => value,
            _ => None,
        });
        assert_eq!(value, Some("eu"));
    }

    #[test]
    fn unique_long_prefixes_resolve_and_ambiguous_ones_do_not() {
        let names = ["--rsh", "--rsh-command", "--recursive", "--remove"];
        let pick = |w: &str| long_prefix(w, names.iter().map(|n| (*n, n.len())), |a, b| a == b).map(|(n, _)| n);
        assert_eq!(pick("--rec"), Some("--recursive"));
        assert_eq!(pick("--rsh-c"), Some("--rsh-command"));
        assert_eq!(pick("--r"), None, "ambiguous");
        assert_eq!(pick("--rsh"), None, "an exact spelling is not an abbreviation");
        assert_eq!(pick("-r"), None);
    }
}
