//! Policy tables: a `Words` list of entries (verbs, programs, option spellings,
//! paths) together with what the table's author says about any of its entries —
//! its probes: how an entry appears on a command line and the tier that command
//! gets (docs/decisions/0013-program-cards.md, 0009-table-probes.md).
//!
//! A table is declared with [`table!`](crate::table!) and registered with
//! [`tables!`](crate::tables!); `tiergate programs` dumps every table with its
//! entries, probes and source position, and the bench reads the dump (probe rows,
//! table mutants). The hot path reads only the entries: the probes, the name and
//! the position are reached through code (`about`), never through a pointer in a
//! static, so a table costs the loader no more than its `Words` (decision 0005).

use crate::words::Words;

/// The class a probe's command line must get.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    T0,
    T1,
    T2,
    T3,
    Blocked,
}

impl Expect {
    pub fn as_str(self) -> &'static str {
        match self {
            Expect::T0 => "T0",
            Expect::T1 => "T1",
            Expect::T2 => "T2",
            Expect::T3 => "T3",
            Expect::Blocked => "BLOCKED",
        }
    }
}

/// What a table says about its entries, as [`Table::about`] tells it.
pub trait About {
    /// Each entry (or each of `only`, when not empty) put into `template` (`{}` is the
    /// entry, `{-}` the entry less its last character) gets `expect`, decided by `rule`
    /// when it is not empty. An entry `only` names gets the probes naming it instead of
    /// the table-wide ones.
    fn probe(&mut self, template: &'static str, expect: Expect, rule: &'static str, only: Words);
    /// `entries` have no table-wide probe, for the reason `why`.
    fn except(&mut self, entries: Words, why: &'static str);
}

/// A policy table: its entries and what it says about them.
#[derive(Clone, Copy)]
pub struct Table {
    pub words: Words,
    /// The table's name in its source (`MUTATIVE_VERBS`).
    pub name: &'static str,
    /// Where it is declared (`file!()`, `line!()` of the `table!`).
    pub file: &'static str,
    pub line: u32,
    /// Tells its probes and exceptions.
    pub about: fn(&mut dyn About),
}

/// A policy table with its probes:
///
/// ```ignore
/// table! {
///     /// Read-only git subcommands.
///     pub(super) READ_SUBS = ["status", "log", "help"];
///     probe "git {}" => T0, "git.read";
///     probe only ["help"] "git {} reset" => T0, "git.help";
///     except ["help"]: "`git help` prints help";
/// }
/// ```
///
/// declares `const READ_SUBS: Words` — the entries, all the hot path reads — and,
/// in a module of the same name (modules and constants do not share a namespace),
/// `READ_SUBS::TABLE`, the record `tiergate programs` dumps. A probe's tier is `T0` … `T3` or `Blocked`;
/// the rule id after it is optional; `only [...]` restricts a probe to the entries it
/// names (they then get no table-wide probe); `except [...]: "why"` leaves entries
/// without the table-wide probe, saying why.
#[macro_export]
macro_rules! table {
    (
        $(#[$attr:meta])*
        $vis:vis $name:ident = [$($entry:literal),* $(,)?];
        $(probe $(only [$($only:literal),* $(,)?])? $template:literal => $expect:ident $(, $rule:literal)?;)*
        $(except [$($except:literal),* $(,)?]: $why:literal;)*
    ) => {
        $(#[$attr])*
        $vis const $name: $crate::words::Words = $crate::words![$($entry),*];
        #[allow(non_snake_case)]
        mod $name {
            /// The table's record for `tiergate programs`: its entries, probes and place.
            pub(super) const TABLE: $crate::table::Table = $crate::table::Table {
                words: super::$name,
                name: stringify!($name),
                file: file!(),
                line: line!(),
                about: |_about: &mut dyn $crate::table::About| {
                    $(_about.probe($template, $crate::table::Expect::$expect, concat!("" $(, $rule)?), $crate::words![$($($only),*)?]);)*
                    $(_about.except($crate::words![$($except),*], $why);)*
                },
            };
        }
    };
}

/// Receives the registered tables ([`tables!`](crate::tables!)), one call each. The
/// parts come as scalars so that registering a table adds no relocation: a
/// `Table` passed by value is copied from a constant the loader must relocate.
pub trait Visit {
    fn table(&mut self, name: &'static str, file: &'static str, line: u32, text: &'static str, ends: &'static [u16], about: fn(&mut dyn About));
}

impl<F: FnMut(Table)> Visit for F {
    fn table(&mut self, name: &'static str, file: &'static str, line: u32, text: &'static str, ends: &'static [u16], about: fn(&mut dyn About)) {
        self(Table { words: Words::packed(text, ends), name, file, line, about })
    }
}

/// Registers a module's tables for `tiergate programs`: `tables![A, B]` defines
/// `fn tables`, which hands each to a visitor, then asks the modules named after a
/// `;` for theirs (`tables![A; verbs, lane]`).
#[macro_export]
macro_rules! tables {
    ($($table:ident),* $(; $($module:ident),* $(,)?)?) => {
        /// Every table of this module and of the modules below it, for `tiergate programs`.
        pub(crate) fn tables(visit: &mut dyn $crate::table::Visit) {
            $({
                let (text, ends) = $table::TABLE.words.parts();
                visit.table($table::TABLE.name, $table::TABLE.file, $table::TABLE.line, text, ends, $table::TABLE.about);
            })*
            $($($module::tables(visit);)*)?
            let _ = &visit;
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::table! {
        /// A test table.
        SOME = ["status", "log", "help"];
        probe "git {}" => T0, "git.read";
        probe only ["help"] "git {} reset" => T0, "git.help";
        except ["log"]: "a reason";
    }

    crate::tables![SOME];

    #[derive(Default)]
    struct Seen(Vec<String>);

    impl About for Seen {
        fn probe(&mut self, template: &'static str, expect: Expect, rule: &'static str, only: Words) {
            self.0.push(format!("probe {template} {} {rule} {:?}", expect.as_str(), only.iter().collect::<Vec<_>>()));
        }
        fn except(&mut self, entries: Words, why: &'static str) {
            self.0.push(format!("except {:?} {why}", entries.iter().collect::<Vec<_>>()));
        }
    }

    #[test]
    fn a_table_tells_its_entries_probes_and_place() {
        let mut all = Vec::new();
        tables(&mut |t: Table| all.push(t));
        assert_eq!(all.len(), 1);
        let t = all[0];
        assert_eq!((t.name, t.file, t.words.iter().collect::<Vec<_>>()), ("SOME", "classifier/src/table.rs", vec!["status", "log", "help"]));
        assert!(t.line > 100 && SOME.contains("log") && !SOME.contains("x"));
        let mut seen = Seen::default();
        (t.about)(&mut seen);
        assert_eq!(seen.0, ["probe git {} T0 git.read []", "probe git {} reset T0 git.help [\"help\"]", "except [\"log\"] a reason"]);
    }
}
