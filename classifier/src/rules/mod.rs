//! The rule registry: every family, dispatch by program name, and the default for
//! programs no family owns (safe by elimination, only for a fully parsed literal).
//!
//! Families live one per module; this file only lists them.

mod card;
mod help;
mod rule;

pub mod agents;
pub mod backup;
pub mod cloud;
pub mod containers;
pub mod coreutils;
pub mod db;
pub mod device;
mod engine;
pub mod exec;
pub mod fallback;
pub mod flow;
pub mod git;
pub mod http;
pub mod iac;
pub mod interp;
pub mod kube;
pub mod packages;
pub mod paths;
pub mod shell;
pub mod system;
pub mod tiergate;
pub mod tools;
pub(crate) mod vocab;

pub use card::{Card, Carried, Carry, InputUse, Traits};
pub(crate) use engine::*;
pub use rule::{Check, Cx, Engine, Enter, Family, FileText, Hit, Rule, WRITTEN_ON_LINE};

use crate::call::Invocation;
use crate::words::Words;

/// Every family, in dispatch order. A program belongs to exactly one family
/// (a registry test checks it).
pub static FAMILIES: &[&Family] = &[
    &git::FAMILY,
    &kube::FAMILY,
    &iac::FAMILY,
    &cloud::FAMILY,
    &containers::FAMILY,
    &packages::FAMILY,
    &db::FAMILY,
    &http::FAMILY,
    &interp::FAMILY,
    &coreutils::FAMILY,
    &system::FAMILY,
    &device::FAMILY,
    &backup::FAMILY,
    &tiergate::FAMILY,
    &tools::FAMILY,
    &agents::FAMILY,
    &fallback::FAMILY,
    &exec::FAMILY,
    &paths::FAMILY,
    &shell::FAMILY,
    &flow::FAMILY,
    &engine::FAMILY,
];

/// Every policy table of every family, pass and the vocabulary, for `tiergate
/// programs` (entries, probes, source position). An unregistered `table!`, or a
/// module's `tables` no parent calls, is dead code, which `clippy -D warnings` refuses.
pub fn tables(visit: &mut dyn crate::table::Visit) {
    agents::tables(visit);
    backup::tables(visit);
    cloud::tables(visit);
    containers::tables(visit);
    coreutils::tables(visit);
    db::tables(visit);
    device::tables(visit);
    exec::tables(visit);
    fallback::tables(visit);
    flow::tables(visit);
    git::tables(visit);
    http::tables(visit);
    iac::tables(visit);
    interp::tables(visit);
    kube::tables(visit);
    packages::tables(visit);
    paths::tables(visit);
    shell::tables(visit);
    system::tables(visit);
    tools::tables(visit);
    vocab::tables(visit);
}

/// Every rule of every family.
pub fn all() -> impl Iterator<Item = &'static Rule> {
    FAMILIES.iter().flat_map(|f| f.rules.iter().copied())
}

/// The family whose card lists a program name, and that card: a binary search
/// of `OWNERS`, a table of every card's program names sorted at compile time (no
/// map to build when a hook process starts: building one was ~10% of a hook
/// call's instructions). The first family listing a name wins, as the dispatch
/// order always did; a registry test keeps every name in one card.
fn card_of(program: &str) -> Option<(&'static Family, &'static Card)> {
    listed(program).or_else(|| versioned(program))
}

/// The card that lists `program` itself.
fn listed(program: &str) -> Option<(&'static Family, &'static Card)> {
    owner_index(program).map(|lo| {
        let e = OWNERS[lo];
        let family = FAMILIES[e.family as usize];
        (family, &family.cards[e.group as usize])
    })
}

/// `python3.15`, `ruby3.4`, `node22`: a name no card lists, read as a listed name
/// followed by a version, when that name's card says its programs are installed
/// under versioned names. An interpreter's new release is still that interpreter.
fn versioned(program: &str) -> Option<(&'static Family, &'static Card)> {
    let base = program.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    let version = &program[base.len()..];
    if base.is_empty() || !version.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    listed(base).filter(|(_, c)| c.versioned)
}

/// The leftmost `OWNERS` position whose name is `program`.
fn owner_index(program: &str) -> Option<usize> {
    let key = program.as_bytes();
    let (mut lo, mut hi) = (0, PROGRAM_COUNT);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if crate::sorted::below(OWNER_NAMES.bytes_at(mid), key) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    (lo < PROGRAM_COUNT && OWNER_NAMES.bytes_at(lo) == key).then_some(lo)
}

/// The family that owns a program name and the check its card names (a card
/// without a check states facts only: its program stays unowned).
fn owner(program: &str) -> Option<(&'static Family, Check)> {
    card_of(program).and_then(|(f, c)| Some((f, c.check?)))
}

/// What the cards say about a program, whoever owns it (none for a program no card lists).
pub fn traits_of(program: &str) -> Traits {
    card_of(program).map_or(Traits::NONE, |(_, c)| c.traits)
}

/// How a program reads its argv, as its card says (`None` for a program no card lists).
pub(crate) fn args_of(program: &str) -> Option<crate::call::args::ArgSpec> {
    card_of(program).map(|(_, c)| c.args)
}

/// A program's own options that carry something, from its card.
pub(crate) fn carries_of(program: &str) -> &'static [Carried] {
    card_of(program).map_or(&[], |(_, c)| c.carries)
}

/// What a program does with its input, as its card says (data for a program no card lists).
pub fn input_use(program: &str) -> InputUse {
    card_of(program).map_or(InputUse::Data, |(_, c)| c.input)
}

/// One `OWNERS` entry: `FAMILIES[family].cards[group].names[index]`. Indices,
/// not a `&str`: every pointer in a static is a relocation the loader applies at
/// each start.
#[derive(Clone, Copy)]
struct Owner {
    family: u8,
    group: u8,
    index: u16,
}

impl Owner {
    const fn name(self) -> &'static [u8] {
        FAMILIES[self.family as usize].cards[self.group as usize].names.bytes_at(self.index as usize)
    }
}

/// How many program names the cards list (duplicates included).
const PROGRAM_COUNT: usize = {
    let (mut n, mut f) = (0, 0);
    while f < FAMILIES.len() {
        let mut g = 0;
        while g < FAMILIES[f].cards.len() {
            n += FAMILIES[f].cards[g].names.len();
            g += 1;
        }
        f += 1;
    }
    n
};

/// Every listed program name, sorted by name and then by family index, so the
/// leftmost entry for a name is its first family.
static OWNERS: [Owner; PROGRAM_COUNT] = SORTED_OWNERS;

/// The cards' names in declaration order: family, then card, then position.
const DECLARED_OWNERS: [Owner; PROGRAM_COUNT] = {
    assert!(FAMILIES.len() <= u8::MAX as usize);
    let mut t = [Owner { family: 0, group: 0, index: 0 }; PROGRAM_COUNT];
    let (mut i, mut f) = (0, 0);
    while f < FAMILIES.len() {
        let groups = FAMILIES[f].cards;
        assert!(groups.len() <= u8::MAX as usize);
        let mut g = 0;
        while g < groups.len() {
            assert!(groups[g].names.len() <= u16::MAX as usize);
            let mut p = 0;
            while p < groups[g].names.len() {
                t[i] = Owner { family: f as u8, group: g as u8, index: p as u16 };
                i += 1;
                p += 1;
            }
            g += 1;
        }
        f += 1;
    }
    t
};

/// `DECLARED_OWNERS` sorted by the one sorter (`sorted::order`: by name, then by
/// position), so equal names keep declaration order and the first family leads.
const SORTED_OWNERS: [Owner; PROGRAM_COUNT] = {
    let order: [u16; PROGRAM_COUNT] = crate::sorted::order(crate::words!(@from &names_of(&DECLARED_OWNERS)));
    let mut t = DECLARED_OWNERS;
    let mut i = 0;
    while i < PROGRAM_COUNT {
        t[i] = DECLARED_OWNERS[order[i] as usize];
        i += 1;
    }
    t
};

/// `OWNERS`' names in its order, in one `Words`: a probe of the search reads two
/// offsets and the bytes they bound, not three tables to reach one name.
static OWNER_NAMES: Words = crate::words!(@from &OWNER_NAME_LIST);
const OWNER_NAME_LIST: [&str; PROGRAM_COUNT] = names_of(&SORTED_OWNERS);

const fn names_of(owners: &[Owner; PROGRAM_COUNT]) -> [&'static str; PROGRAM_COUNT] {
    let mut t = [""; PROGRAM_COUNT];
    let mut i = 0;
    while i < PROGRAM_COUNT {
        t[i] = crate::words::text(owners[i].name());
        i += 1;
    }
    t
}

/// True when some family owns this program name.
pub fn owned(program: &str) -> bool {
    owner(program).is_some()
}

/// The program name a family spells with capitals (`R`, `Rscript`,
/// `Get-ChildItem`) that `lower`, folded to lower case, matches with case
/// ignored. A registry test keeps program names distinct with case ignored,
/// so the answer is the only one.
pub(crate) fn capitalised_name(lower: &str) -> Option<&'static str> {
    crate::sorted::find_folded(&CAPITALISED_ORDER, lower, |i| CAPITALISED.bytes_at(i)).map(|i| CAPITALISED.get(i))
}

/// How many listed program names hold an ASCII capital.
const CAPITALISED_COUNT: usize = {
    let (mut n, mut i) = (0, 0);
    while i < PROGRAM_COUNT {
        n += has_capital(OWNER_NAME_LIST[i].as_bytes()) as usize;
        i += 1;
    }
    n
};

const CAPITALISED_LIST: [&str; CAPITALISED_COUNT] = {
    let mut t = [""; CAPITALISED_COUNT];
    let (mut n, mut i) = (0, 0);
    while i < PROGRAM_COUNT {
        if has_capital(OWNER_NAME_LIST[i].as_bytes()) {
            t[n] = OWNER_NAME_LIST[i];
            n += 1;
        }
        i += 1;
    }
    t
};

/// The few names with capitals, apart: a lower-case name is searched only here
/// (a handful of probes), not in every name.
static CAPITALISED: Words = crate::words!(@from &CAPITALISED_LIST);
static CAPITALISED_ORDER: [u16; CAPITALISED_COUNT] = crate::sorted::order_folded(crate::words!(@from &CAPITALISED_LIST));

const fn has_capital(name: &[u8]) -> bool {
    let mut i = 0;
    while i < name.len() {
        if name[i].is_ascii_uppercase() {
            return true;
        }
        i += 1;
    }
    false
}

/// The rule with this id, if any (ids are unique; a registry test checks it).
pub fn find(id: &str) -> Option<&'static Rule> {
    all().find(|r| r.id == id)
}

/// Runs the family that owns `inv.program`, if any. Cross-cutting checks
/// (protected paths, redirect targets) run for every unit from the engine.
/// Returns whether a family (or the script lane) owned the program.
pub(crate) fn dispatch(inv: &Invocation, cx: &mut Cx<'_>) -> bool {
    // `./run.sh`, `scripts/x.py`, `/tmp/x/git`: a program path outside the installed
    // tool directories is a file to read, whatever its name claims to be.
    if interp::runs_as_script(&inv.program_path) {
        interp::direct_exec(inv, cx);
        return true;
    }
    if let Some((family, card)) = card_of(inv.program.as_str()) {
        if let Some(check) = card.check {
            if !help::answer(family, card, inv, cx, check) {
                (family.enter)(inv, cx, check);
            }
            return true;
        }
    }
    fallback::check_unowned(inv, cx);
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owner_is_the_first_family_listing_the_name() {
        for f in FAMILIES {
            for p in f.names() {
                let first = FAMILIES.iter().find(|g| g.lists(p)).map(|g| g.name);
                assert_eq!(card_of(p).map(|(g, _)| g.name), first, "{p}");
            }
        }
        assert!(OWNERS.windows(2).all(|w| (w[0].name(), w[0].family) <= (w[1].name(), w[1].family)), "OWNERS is not sorted");
        for unknown in ["", "gi", "gitx", "zzzz-not-a-program", "kubectl-"] {
            assert!(owner(unknown).is_none(), "{unknown}");
        }
        assert_eq!(owner("git").map(|(f, _)| f.name), Some("git"));
    }

    #[test]
    fn help_words_are_honoured_only_where_a_family_answers_them() {
        for f in FAMILIES {
            let honours = f.cards.iter().filter(|c| !c.args.help.is_empty()).count();
            for c in f.cards.iter().filter(|c| !c.args.help.is_empty()) {
                assert!(c.check.is_some() && f.help.is_some(), "{}: a card of {:?} honours help words but nothing answers them", f.name, c.names.get(0));
            }
            if let Some(rule) = f.help {
                assert!(honours > 0, "{}: a help rule no card asks for", f.name);
                assert!(f.rules.iter().any(|r| std::ptr::eq(*r, rule)), "{}: its help rule {} is not in its rules", f.name, rule.id);
            }
        }
    }
}
