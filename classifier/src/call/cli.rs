//! How a CLI with subcommands reads its argv (`aws ec2 describe-instances`,
//! `kubectl -n prod delete pod x`): option values removed so the command path is
//! found exactly, under the options the CLI declares (`Opts`), read through the
//! argument layer (`call::args`). The cloud, kube and iac families read their
//! programs through it.

use crate::call::args::{asks_help, ArgSpec, Args, Help, Token};
use crate::call::Arg;
use crate::words::Words;

/// The help words of a CLI with subcommands (FEATURES.md §6a): `--help`, `-h`,
/// `-help`, `-?` and `--usage`, options of their own anywhere before `--`. A CLI
/// whose `-h` is something else (gsutil's header) reads [`HELP_WORDS_NO_DASH_H`]; one whose
/// `--version` prints adds it (`HELP_WORDS.with(Help::VERSION)`).
pub(crate) const HELP_WORDS: Help = HELP_WORDS_NO_DASH_H.with(Help::DASH_H);
/// [`HELP_WORDS`] without `-h`.
pub(crate) const HELP_WORDS_NO_DASH_H: Help = Help::LONG.with(Help::SINGLE_DASH).with(Help::QUESTION).with(Help::USAGE);

/// Option spellings a CLI declares: which take a value, and (for `greedy` CLIs such
/// as `aws` and `az`, where nearly every option takes one) which do not.
pub(crate) struct Opts {
    pub values: Words,
    pub bools: Words,
    pub greedy: bool,
}

/// An argv with option values separated from the command path.
#[derive(Debug, Default)]
pub(crate) struct Argv<'a> {
    /// Non-option words before `--`, option values removed.
    pub pos: Vec<&'a str>,
    /// For each word of `pos`: true when it directly follows an option word the CLI's `Opts`
    /// do not declare (`skaffold -v info run`), so it may be that option's value rather than a command word.
    pub after_undeclared: Vec<bool>,
    /// Option words before `--` (`--namespace=prod`, `-n`, `--all`).
    pub flags: Vec<&'a str>,
    /// Words after `--`.
    pub rest: Vec<&'a str>,
    /// True when the argument layer reads one of the CLI's help words as an option
    /// of its own ([`Token::Help`]: not an option's value, not after `--`, not right
    /// after an undeclared option that may own it).
    pub help: bool,
    /// Every non-option word before `--`, values included: a superset for floor checks,
    /// so an undeclared value option can never hide a blocked path.
    pub words: Vec<&'a str>,
}

impl<'a> Argv<'a> {
    /// True when an option with this name is present (`--all`, `--all=true`).
    pub(crate) fn has(&self, name: &str) -> bool {
        self.flags.iter().any(|f| *f == name || f.strip_prefix(name).is_some_and(|r| r.starts_with('=')))
    }

    /// The value of `--name=v`, `--name v`, `-n v` or `-nv` (read from the raw argv).
    pub(crate) fn value(&self, args: &'a [Arg], names: Words) -> Option<&'a str> {
        super::value_of(args, names)
    }

    /// True when `seq` occurs contiguously in the command path (declared option values removed)
    /// or in the value-inclusive words (so an undeclared value option cannot hide it either).
    pub(crate) fn has_seq(&self, seq: &[&str]) -> bool {
        let within = |list: &[&str]| list.windows(seq.len()).any(|w| w.iter().zip(seq).all(|(a, b)| a.eq_ignore_ascii_case(b)));
        !seq.is_empty() && (within(&self.pos) || within(&self.words))
    }
}

/// The value of an output option (`-D dir`, `--dir=dir`, `-Ddir`) as an `Arg`, keeping its
/// exactness, so a family can pass it to `writes::check_write`.
pub(crate) fn option_arg(args: &[Arg], names: Words) -> Option<Arg> {
    super::option_arg(args, names)
}

impl Opts {
    /// The CLI's options as the argument layer reads them.
    fn spec(&self) -> ArgSpec {
        let spec = ArgSpec::values(self.values).with_flags(self.bools);
        if self.greedy {
            spec.greedy()
        } else {
            spec
        }
    }
}

/// Whether `args`, read under `opts`, ask for help with one of `help`'s words
/// (`call::args::asks_help`): `terraform -version`, where version words count
/// only without a command word (`help.without_operands()`).
pub(crate) fn asks(args: &[Arg], opts: &Opts, help: Help) -> bool {
    asks_help(args, opts.spec().help(help))
}

/// Split `args` by `opts`; `help` names the words the CLI honours as help ([`HELP_WORDS`]).
pub(crate) fn split<'a>(args: &'a [Arg], opts: &Opts, help: Help) -> Argv<'a> {
    let mut out = Argv::default();
    let mut it = Args::parse(args, opts.spec().help(help));
    // The previous word was an undeclared option that took no value (`-v`, not `-v=2`).
    let mut undeclared = false;
    while let Some(t) = it.next() {
        // The value an option took from the next word (not an attached `=value`).
        let (index, taken) = match t {
            Token::Operand(o) if o.after_dashdash => {
                out.rest.push(o.arg.text.as_str());
                continue;
            }
            Token::Operand(o) => {
                out.pos.push(o.arg.text.as_str());
                out.after_undeclared.push(std::mem::take(&mut undeclared));
                out.words.push(o.arg.text.as_str());
                continue;
            }
            Token::DashDash(_) => continue,
            Token::Help { index, .. } => {
                out.help = true;
                (index, None)
            }
            Token::Opt { index, value, .. } => (index, value.filter(|_| it.pos() == index + 2)),
            Token::Flag { index, value, .. } => (index, value),
            Token::Opt2 { index, .. } | Token::Unknown { index, .. } | Token::Missing { index, .. } => (index, None),
        };
        undeclared = matches!(t, Token::Flag { value: None, .. }) && !args[index].text.contains('=');
        out.flags.push(args[index].text.as_str());
        out.words.extend(taken);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words;

    fn args(s: &str) -> Vec<Arg> {
        s.split_whitespace().map(Arg::lit).collect()
    }

    const KOPTS: Opts = Opts { values: words!["-n", "--namespace", "--context"], bools: words![], greedy: false };

    #[test]
    fn option_values_leave_the_command_path() {
        let a = args("-n prod --context=x get pods");
        let v = split(&a, &KOPTS, HELP_WORDS);
        assert_eq!(v.pos, ["get", "pods"]);
        assert_eq!(v.words, ["prod", "get", "pods"]);
    }

    #[test]
    fn a_word_after_an_undeclared_option_may_be_its_value() {
        let a = args("-v info -n prod --all=true run x");
        let v = split(&a, &KOPTS, HELP_WORDS);
        assert_eq!(v.pos, ["info", "run", "x"]);
        assert_eq!(v.after_undeclared, [true, false, false]);
    }

    #[test]
    fn help_as_an_option_value_is_not_help() {
        const V: Opts = Opts { values: words!["--field-manager"], bools: words![], greedy: false };
        let a = args("delete pod x --field-manager --help");
        assert!(!split(&a, &V, HELP_WORDS).help);
        let b = args("delete pod x --help");
        assert!(split(&b, &V, HELP_WORDS).help);
        let c = args("delete pod x --force --help");
        assert!(!split(&c, &V, HELP_WORDS).help, "right after an undeclared option, which may own it");
        assert_eq!(split(&c, &V, HELP_WORDS).flags, ["--force", "--help"]);
        assert!(!split(&args("-- --help"), &V, HELP_WORDS).help, "after `--`");
        assert!(!split(&args("-h"), &V, HELP_WORDS_NO_DASH_H).help && split(&args("-h"), &V, HELP_WORDS).help);
    }

    #[test]
    fn greedy_options_eat_their_value_but_not_a_following_flag() {
        const G: Opts = Opts { values: words![], bools: words!["--yes"], greedy: true };
        let a = args("group delete --name rg --yes --no-wait");
        let v = split(&a, &G, HELP_WORDS);
        assert_eq!(v.pos, ["group", "delete"]);
        assert!(v.has_seq(&["group", "delete"]));
    }
}
