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
    /// The programs are installed under versioned names too (`python3.15`,
    /// `ruby3.4`, `node22`): a name no card lists that is one of `names` followed
    /// by a version (digits and dots) is this card's program.
    pub versioned: bool,
}

impl Card {
    /// Programs a family owns and checks with `check`.
    pub const fn of(names: Words, check: Check) -> Card {
        Card { names, check: Some(check), traits: Traits::NONE, input: InputUse::Data, versioned: false }
    }

    /// Programs no family checks, whose traits are still known.
    pub const fn known(names: Words) -> Card {
        Card { names, check: None, traits: Traits::NONE, input: InputUse::Data, versioned: false }
    }

    /// The same card with these traits.
    pub const fn traits(self, traits: Traits) -> Card {
        Card { traits, ..self }
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
