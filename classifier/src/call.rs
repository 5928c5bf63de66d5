//! `Invocation`: one executed command after parsing, de-quoting and unwrapping.
//!
//! This is the only shape rules see. It carries no parser types (those stay in
//! `parse/`) and it does not decide tiers; the `rules/` families do.

pub mod args;
pub mod cli;

use crate::verdict::Span;
use crate::words;
use crate::words::Words;
use args::{ArgSpec, Args};

/// One de-quoted word of a command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arg {
    /// The word as bash would pass it (quotes removed, escapes resolved).
    /// Unresolvable parts (`$VAR`, `$(..)`) are kept as their source text.
    pub text: String,
    /// False when the word held an unresolved expansion, so `text` is not what runs.
    pub exact: bool,
    /// True when any part of the word was quoted or escaped.
    pub quoted: bool,
    /// Where the word sits in the original command.
    pub span: Span,
    /// Whether the word's value carries secret data (`$(cat ~/.ssh/id_rsa)`, `$GITHUB_TOKEN`).
    pub secret: Secret,
}

/// How much secret data a word's value (or a command's input or output) carries,
/// from the sources the engine sees: what a network sink may be handed
/// (`rules::flow::secrets`). Ordered: a stricter level wins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Secret {
    /// Nothing secret is known to flow here.
    #[default]
    None,
    /// A credential meant to authenticate: a secret-named variable (`$GITHUB_TOKEN`)
    /// or the output of a command that prints one token (`gh auth token`).
    Token,
    /// Data read from credential files, an environment dump or shell history
    /// (`$(cat ~/.ssh/id_rsa)`, `$(env)`), or a variable assigned from them.
    Read,
}

impl Arg {
    /// A literal word (tests and synthesised argv such as `xargs` targets).
    pub fn lit(text: &str) -> Arg {
        Arg { text: text.to_owned(), exact: true, quoted: false, span: Span::default(), secret: Secret::None }
    }

    pub fn is_flag(&self) -> bool {
        self.text.len() > 1 && self.text.starts_with('-')
    }
}

/// What feeds a command's standard input, when the shell text says so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stdin {
    /// Nothing visible: the terminal or an inherited stream.
    None,
    /// A heredoc body. `expands` is false for a quoted delimiter (`<<'EOF'`).
    Heredoc { body: String, expands: bool },
    /// A here-string (`<<< word`).
    HereString(String),
    /// The previous pipeline stage; `program` is its unwrapped program name.
    Pipe { program: String },
    /// `< file`.
    File(String),
}

/// A fully unwrapped command: `sudo -u x env A=1 /usr/bin/git push` → program `git`.
#[derive(Clone, Debug)]
pub struct Invocation {
    /// Basename of the program word (`/usr/bin/git` → `git`).
    pub program: String,
    /// The program word as written, de-quoted (`/usr/bin/git`, `./run.sh`).
    pub program_path: String,
    /// The arguments after the program word.
    pub args: Vec<Arg>,
    /// The working directory this unit runs in, when known (request cwd, threaded through `cd`).
    pub cwd: Option<String>,
    pub stdin: Stdin,
    /// Wrappers peeled to reach this program, outermost first (`sudo`, `env`, `timeout`).
    pub wrappers: Vec<&'static str>,
    /// True when the previous stage's output is piped in (`… | sh`).
    pub piped: bool,
    /// Secret data in what the program is given besides its words: a here-string,
    /// heredoc or `< file` that carries it, or a `NAME=value` set for the command.
    /// (A pipe's data is judged over the pipeline, `rules::flow`.)
    pub secret_input: Secret,
    /// The whole unit's span in the command text.
    pub span: Span,
    /// `NAME=value` words that set a language's module search path for this program
    /// (`vocab::vars::SEARCH_PATHS`: `PYTHONPATH=src`), exported earlier on the line,
    /// set as its prefix or through a wrapper (`env PERL5LIB=lib`): where its loads
    /// look besides its own directories (`rules::interp::preload::include_dirs`).
    pub search_paths: Vec<String>,
}

impl Invocation {
    /// A literal invocation from words, for tests and synthesised payloads.
    pub fn from_words(words: &[&str]) -> Option<Invocation> {
        let (first, rest) = words.split_first()?;
        Some(Invocation {
            program: basename(first).to_owned(),
            program_path: (*first).to_owned(),
            args: rest.iter().map(|w| Arg::lit(w)).collect(),
            cwd: None,
            stdin: Stdin::None,
            wrappers: Vec::new(),
            piped: false,
            secret_input: Secret::None,
            span: Span::default(),
            search_paths: Vec::new(),
        })
    }

    /// A wrapper's own words as an invocation (`strace -o x` before its target).
    pub(crate) fn from_args(program: &str, program_word: &Arg, args: &[Arg], cwd: Option<&str>, span: Span) -> Invocation {
        Invocation {
            program: program.to_owned(),
            program_path: program_word.text.clone(),
            args: args.to_vec(),
            cwd: cwd.map(str::to_owned),
            stdin: Stdin::None,
            wrappers: Vec::new(),
            piped: false,
            secret_input: Secret::None,
            span,
            search_paths: Vec::new(),
        }
    }

    /// Argument texts.
    pub fn words(&self) -> impl Iterator<Item = &str> + '_ {
        self.args.iter().map(|a| a.text.as_str())
    }

    /// The `i`th argument's text.
    pub fn arg(&self, i: usize) -> Option<&str> {
        self.args.get(i).map(|a| a.text.as_str())
    }

    /// Words that do not start with `-` (all words after `--`). Option values are
    /// included: families that know their value-taking options use [`args::Args::operands`].
    pub fn bare_words(&self) -> impl Iterator<Item = &str> + '_ {
        let mut after_dashdash = false;
        self.args.iter().filter_map(move |a| {
            if after_dashdash {
                return Some(a.text.as_str());
            }
            if a.text == "--" {
                after_dashdash = true;
                return None;
            }
            (!a.is_flag()).then_some(a.text.as_str())
        })
    }

    /// True if a long flag (`--force`, also `--force=x`) appears before `--`.
    pub fn has_long(&self, name: &str) -> bool {
        self.flags().any(|f| f == name || f.strip_prefix(name).is_some_and(|r| r.starts_with('=')))
    }

    /// True if a short flag letter appears, alone (`-f`) or packed (`-rf`), before `--`.
    pub fn has_short(&self, letter: char) -> bool {
        has_short(&self.args, letter)
    }

    /// Any of the given spellings (`-f`, `--force`) is present.
    pub fn has_any(&self, spellings: Words) -> bool {
        spellings.iter().any(|s| {
            if let Some(long) = s.strip_prefix("--") {
                let _ = long;
                self.has_long(s)
            } else if let Some(short) = s.strip_prefix('-') {
                let mut cs = short.chars();
                match (cs.next(), cs.next()) {
                    (Some(c), None) => self.has_short(c),
                    _ => self.flags().any(|f| f == s),
                }
            } else {
                self.words().any(|w| w == s)
            }
        })
    }

    /// Flag words before `--`.
    pub fn flags(&self) -> impl Iterator<Item = &str> + '_ {
        option_words(&self.args)
    }

    /// The value of an option (see [`value_of`]).
    pub fn option(&self, spellings: Words) -> Option<&str> {
        value_of(&self.args, spellings)
    }

    /// True when every word, the program included, is exactly what runs.
    pub fn exact(&self) -> bool {
        self.args.iter().all(|a| a.exact)
    }
}

/// The one reading of an option's value, for every family: `--name value`,
/// `--name=value` (also `-n=value`), `-n value` and, for a one-letter option,
/// `-nvalue`. Only words before `--` are options. See [`args`].
pub fn value_of(args: &[Arg], spellings: Words) -> Option<&str> {
    Args::parse(args, ArgSpec::values(spellings)).find_map(|t| match t {
        args::Token::Opt { value, .. } => value,
        _ => None,
    })
}

/// An operand: a word that is neither an option nor the value of one.
#[derive(Clone, Copy, Debug)]
pub struct Operand<'a> {
    /// Index into the argv it came from.
    pub index: usize,
    pub arg: &'a Arg,
    /// True for words after `--`.
    pub after_dashdash: bool,
}

/// Option words before `--` (`-x`, `-rf`, `--long=v`), values of other options included.
pub fn option_words(args: &[Arg]) -> impl Iterator<Item = &str> + '_ {
    args.iter().take_while(|a| a.text != "--").filter(|a| a.is_flag()).map(|a| a.text.as_str())
}

/// True when one of `flags` (`--force`, also `--force=x`; `-f`) is given before `--`.
pub fn has_flag(args: &[Arg], flags: Words) -> bool {
    Args::parse(args, ArgSpec::values(words![]).with_flags(flags)).has(flags)
}

/// True when a short option cluster before `--` (`-f`, `-rf`) holds `letter`.
pub fn has_short(args: &[Arg], letter: char) -> bool {
    option_words(args).any(|f| f.len() >= 2 && !f.starts_with("--") && f[1..].chars().all(|c| c.is_ascii_alphanumeric()) && f[1..].contains(letter))
}

/// Where the `--` that ends the options is, under `spec`.
pub fn dashdash(args: &[Arg], spec: ArgSpec) -> Option<usize> {
    Args::parse(args, spec).find_map(|t| match t {
        args::Token::DashDash(d) => Some(d),
        _ => None,
    })
}

/// An option's value as an [`Arg`]: the next word itself when the value is that
/// word (its quoting and exactness kept), otherwise the attached text (`-cCODE`,
/// `--eval=CODE`) with the option word's span and exactness.
pub fn value_arg(args: &[Arg], index: usize, value: &str) -> Arg {
    match (args.get(index), args.get(index + 1)) {
        (_, Some(next)) if std::ptr::eq(next.text.as_str(), value) => next.clone(),
        (Some(word), _) => Arg { text: value.to_owned(), ..word.clone() },
        (None, _) => Arg::lit(value),
    }
}

/// The value of the first of `spellings` given (as [`value_of`] reads it), as an
/// [`Arg`] that keeps its exactness (a `-o $OUT` value is unresolved).
pub fn option_arg(args: &[Arg], spellings: Words) -> Option<Arg> {
    Args::parse(args, ArgSpec::values(spellings)).find_map(|t| match t {
        args::Token::Opt { index, value: Some(v), .. } => Some(value_arg(args, index, v)),
        _ => None,
    })
}

/// The first operand under `spec`: a subcommand, a script, a target. Nothing is
/// allocated, so a family may ask on every call.
pub fn first_operand<'a>(args: &'a [Arg], spec: ArgSpec) -> Option<Operand<'a>> {
    Args::parse(args, spec).operands().next()
}

/// Operand words as (index into `args`, text): a view of [`Args::operands`]: words that
/// are neither options nor the value of one of `value_opts` given as its own word.
pub(crate) fn operand_words(args: &[Arg], value_opts: Words) -> Vec<(usize, &str)> {
    Args::parse(args, ArgSpec::values(value_opts)).operands().map(|o| (o.index, o.arg.text.as_str())).collect()
}

/// Index of the first positional word, skipping `value_opts` values.
pub(crate) fn first_positional(args: &[Arg], value_opts: Words) -> Option<usize> {
    operand_words(args, value_opts).first().map(|(i, _)| *i)
}

/// Single-quotes `s` for the shell (for re-assembling argv into script text).
pub(crate) fn shell_quote(s: &str) -> String {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:@%+,".contains(c)) {
        return s.to_owned();
    }
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// `/usr/bin/git` → `git`.
pub fn basename(path: &str) -> &str {
    // After the last `/` (asked several times per unit: a byte scan, no split iterator).
    match path.as_bytes().iter().rposition(|&c| c == b'/') {
        Some(i) => &path[i + 1..],
        None => path,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inv(s: &str) -> Invocation {
        let words: Vec<&str> = s.split_whitespace().collect();
        Invocation::from_words(&words).unwrap_or_else(|| panic!("empty"))
    }

    #[test]
    fn basename_is_the_part_after_the_last_slash() {
        for p in ["", "/", "git", "/usr/bin/git", "a/b/", "./run.sh", "é/ü", "//x"] {
            assert_eq!(basename(p), p.rsplit('/').next().unwrap_or(p), "{p}");
        }
    }

    #[test]
    fn packed_short_flags_are_seen() {
        let i = inv("rm -rf build");
        assert!(i.has_short('r') && i.has_short('f') && !i.has_short('i'));
        assert!(i.has_any(words!["-f", "--force"]));
    }

    #[test]
    fn flags_after_double_dash_are_operands() {
        let i = inv("rm -- -f");
        assert!(!i.has_short('f'));
        assert_eq!(i.bare_words().collect::<Vec<_>>(), ["-f"]);
        assert_eq!(Args::parse(&i.args, ArgSpec::values(words![])).operands().map(|o| o.arg.text.as_str()).collect::<Vec<_>>(), ["-f"]);
    }

    #[test]
    fn option_values_in_all_spellings() {
        assert_eq!(inv("git --output=x").option(words!["--output"]), Some("x"));
        assert_eq!(inv("kubectl -n prod get").option(words!["-n"]), Some("prod"));
        assert_eq!(inv("kubectl -nprod get").option(words!["-n"]), Some("prod"));
        assert_eq!(inv("kubectl -n=prod get").option(words!["-n"]), Some("prod"));
        assert_eq!(inv("x -- -n prod").option(words!["-n"]), None);
    }

    #[test]
    fn operand_splitting_skips_option_values_and_keeps_words_after_dashdash() {
        let i = inv("tar -C dir -x f1 -- -f2");
        let ops: Vec<(usize, &str, bool)> =
            Args::parse(&i.args, ArgSpec::values(words!["-C"])).operands().map(|o| (o.index, o.arg.text.as_str(), o.after_dashdash)).collect();
        assert_eq!(ops, [(3, "f1", false), (5, "-f2", true)]);
    }

    #[test]
    fn value_options_are_skipped() {
        let a: Vec<Arg> = "-H host --context=x run -d nginx".split_whitespace().map(Arg::lit).collect();
        let p: Vec<&str> = operand_words(&a, words!["-H"]).into_iter().map(|(_, w)| w).collect();
        assert_eq!(p, ["run", "nginx"]);
    }

    #[test]
    fn quoting_round_trips_plain_words() {
        assert_eq!(shell_quote("--watch"), "--watch");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
    }
}
