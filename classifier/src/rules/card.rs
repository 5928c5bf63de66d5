//! The program card: what tiergate knows about one program, or a group of
//! programs read alike, declared once beside the check that reads what is
//! particular to it (docs/decisions/0013-program-cards.md).
//!
//! A card names its programs, the check the engine dispatches them to, and the
//! facts every pass asks about a program whoever owns it: its traits (a shell,
//! an interpreter, an editor, a network sink …). The engine and the passes read
//! these fields; no family asks another family for them.
//!
//! Cards are compile-time data in a family's `static` list. Every pointer in a
//! static is a relocation the shipped static-pie binary applies at each start
//! (decision 0005), so a card costs only what it declares: an empty `words![]`
//! and the integer fields cost none.

use crate::call::args::{ArgSpec, Help};
use crate::call::Invocation;
use crate::words::Words;

use super::Check;

/// One program (or a group read alike) and what tiergate knows about it.
#[derive(Clone, Copy)]
pub struct Card {
    /// Program basenames (`curl`; `python3`, `python3.12` …).
    pub names: Words,
    /// The family's check for these programs. `None` is a card that only states
    /// facts (traits): the program stays unowned, and the unowned pass (the verb
    /// scan, implicit wrappers) judges it as it judges any program no family models.
    pub check: Option<Check>,
    /// Properties the passes ask about (see [`Traits`]).
    pub traits: Traits,
    /// What the program does with its standard input.
    pub input: InputUse,
    /// How the program reads its words: its options, values and operands
    /// (`call::args`), for the passes that read its argv (computed options).
    pub args: ArgSpec,
    /// Its options that carry a command, code or a written path.
    pub carries: &'static [Carried],
    /// The programs are installed under versioned names too (`python3.15`,
    /// `ruby3.4`, `node22`): a name no card lists that is one of `names` followed
    /// by a version (digits and dots) is this card's program.
    pub versioned: bool,
}

impl Card {
    /// Programs a family owns and checks with `check`.
    pub const fn of(names: Words, check: Check) -> Card {
        Card { names, check: Some(check), traits: Traits::NONE, input: InputUse::Data, args: ArgSpec::values(crate::words![]), carries: &[], versioned: false }
    }

    /// Programs no family checks, whose traits are still known.
    pub const fn known(names: Words) -> Card {
        Card { names, check: None, traits: Traits::NONE, input: InputUse::Data, args: ArgSpec::values(crate::words![]), carries: &[], versioned: false }
    }

    /// The same card with these traits.
    pub const fn traits(self, traits: Traits) -> Card {
        Card { traits, ..self }
    }

    /// The same card reading its argv with `args` (the help words it honours are kept).
    pub const fn args(self, args: ArgSpec) -> Card {
        Card { args: args.help(self.args.help.with(args.help)), ..self }
    }

    /// The same card honouring these help words: the engine answers an invocation
    /// whose reading asks for help with the family's help rule (`Family::help`).
    pub const fn help(self, help: Help) -> Card {
        Card { args: self.args.help(self.args.help.with(help)), ..self }
    }

    /// The same card with these carried options.
    pub const fn carries(self, carries: &'static [Carried]) -> Card {
        Card { carries, ..self }
    }

    /// The same card, also for its names followed by a version (`python3.15`).
    pub const fn versioned(self) -> Card {
        Card { versioned: true, ..self }
    }

    /// The same card with this use of its input.
    pub const fn input(self, input: InputUse) -> Card {
        Card { input, ..self }
    }
}

/// What a program does with its standard input: the flow pass asks it of every
/// stage a pipeline feeds (`… | sh`, `… | psql`), instead of asking the families.
#[derive(Clone, Copy)]
pub enum InputUse {
    /// Data, or nothing tiergate models.
    Data,
    /// Runs it as code (a shell or an interpreter) when the invocation reads its
    /// code there: `bash`, `bash -s`, `python3 -` do; `bash -c …`, `python3 x.py` do not.
    Code(fn(&Invocation) -> bool),
    /// Runs it as database statements when the invocation reads them there
    /// (`psql db` does; `psql -c …` does not).
    Statements(fn(&Invocation) -> bool),
}

/// Options of a program that carry something the engine must see: a command it runs,
/// code, a path it writes … (the carriers pass applies them to every unit of the program).
#[derive(Clone, Copy, Debug)]
pub struct Carried {
    /// The option's spellings (`--shell-escape`, `-shell-escape`).
    pub names: Words,
    pub carry: Carry,
}

/// What an option's value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Carry {
    /// A shell command line the program runs.
    Shell,
    /// `-exec CMD… ;`: the words up to `;` or `+` are an argv the program runs.
    Argv,
    /// Code or a command file in a language tiergate does not read.
    Code,
    /// A code file the program loads, when the value is a path; a bare name is
    /// looked up among installed ones (`cowsay -f tux`; a `.cow` file is Perl).
    CodePath,
    /// A path the program writes.
    Output,
    /// `-o Key=Value` in ssh syntax: `ProxyCommand`, `LocalCommand`, `KnownHostsCommand` are shell.
    SshOption,
    /// Mercurial's `--config section.name=value`: a shell alias (`alias.x=!CMD`), a
    /// hook (`hooks.*=CMD`, or Python code as `python:…`) and the command settings
    /// (`ui.ssh`, `ui.editor`, `ui.remotecmd`, `pager.pager`) run a command.
    HgConfig,
    /// fzf `--bind 'key:execute(CMD)'` actions.
    FzfBind,
    /// `exec=CMD` (tar `--checkpoint-action`).
    ExecPrefixed,
    /// A flag with no value that lets the program run commands from its input.
    Flag,
    /// An rpm macro definition or expression: code only when it shells out (`%(…)`, `%{lua:…}`).
    Macro,
    /// A credential the program authenticates with (`curl -u USER:PASS`, `ssh -i KEY`):
    /// the flow pass lets a secret-named variable land here (`rules::flow::secrets`).
    Credential,
    /// A `Name: value` header the program sends (`curl -H`); a credential when its
    /// name says so (`Authorization`, `X-API-Key`). With no option names, the
    /// program's operands are such items (httpie's `Authorization:Bearer …`).
    Header,
}

impl Carry {
    /// The carry's name in `tiergate programs`.
    pub fn as_str(self) -> &'static str {
        match self {
            Carry::Shell => "shell",
            Carry::Argv => "argv",
            Carry::Code => "code",
            Carry::CodePath => "code-path",
            Carry::Output => "output",
            Carry::SshOption => "ssh-option",
            Carry::HgConfig => "hg-config",
            Carry::FzfBind => "fzf-bind",
            Carry::ExecPrefixed => "exec-prefixed",
            Carry::Flag => "flag",
            Carry::Macro => "macro",
            Carry::Credential => "credential",
            Carry::Header => "header",
        }
    }
}

impl InputUse {
    /// The use's name in `tiergate programs`.
    pub fn as_str(self) -> &'static str {
        match self {
            InputUse::Data => "data",
            InputUse::Code(_) => "code",
            InputUse::Statements(_) => "statements",
        }
    }
}

/// Properties of a program that passes and other families ask about, one bit
/// each: the one place a program is said to be a shell, an editor, a network
/// sink … (each was a list of its own, in several families, before).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Traits(u32);

impl Traits {
    pub const NONE: Traits = Traits(0);
    /// A POSIX-family shell: its arguments and its input are shell code tiergate reads.
    pub const SHELL: Traits = Traits(1);
    /// An interpreter of a language tiergate analyses, which also reads code on its input.
    pub const INTERPRETER: Traits = Traits(1 << 1);
    /// A database client: its input is statements.
    pub const DB_CLIENT: Traits = Traits(1 << 2);
    /// Can write what it downloads to its output (`curl URL | sh` runs downloaded code).
    pub const FETCHER: Traits = Traits(1 << 3);
    /// Sends what it reads to another machine (secrets piped into it leave).
    pub const NETWORK_SINK: Traits = Traits(1 << 4);

    /// Every trait, with its name in `tiergate programs`.
    pub const ALL: [(Traits, &'static str); 5] = [
        (Traits::SHELL, "shell"),
        (Traits::INTERPRETER, "interpreter"),
        (Traits::DB_CLIENT, "db-client"),
        (Traits::FETCHER, "fetcher"),
        (Traits::NETWORK_SINK, "network-sink"),
    ];

    /// Both sets of traits.
    pub const fn with(self, other: Traits) -> Traits {
        Traits(self.0 | other.0)
    }

    /// True when every trait of `t` is set.
    pub const fn has(self, t: Traits) -> bool {
        self.0 & t.0 == t.0 && t.0 != 0
    }

    /// The names of the traits set, in `ALL` order.
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        Traits::ALL.into_iter().filter(move |(t, _)| self.has(*t)).map(|(_, n)| n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traits_combine_and_name_themselves() {
        let t = Traits::NONE.with(Traits::SHELL);
        assert!(t.has(Traits::SHELL) && !Traits::NONE.has(Traits::SHELL) && !t.has(Traits::NONE));
        assert_eq!(t.names().collect::<Vec<_>>(), ["shell"]);
        let bits: Vec<u32> = Traits::ALL.iter().map(|(t, _)| t.0).collect();
        assert!(bits.iter().all(|b| b.count_ones() == 1), "one bit per trait: {bits:?}");
        assert!(bits.windows(2).all(|w| w[0] < w[1]), "ALL in bit order: {bits:?}");
    }
}
