//! The help pass: the engine answers a help request before the owning family's
//! check (docs/decisions/0013-program-cards.md, "Help is the grammar's job").
//!
//! Whether an invocation asks for help is its card's reading alone
//! (`call::args::asks_help` over `Card::args`, with the help words `Card::help`
//! declares); what the answer is worth is the family's help rule
//! (`Family::help`). One exception keeps a help word from waving a blocked form
//! through: the check still runs on a help invocation, without recording its
//! writes, and when it finds a blocked form its hits are the answer
//! (`git push -f --help` stays a force push).
//!
//! It does not decide help for programs no family owns (the unowned pass reads
//! its own default spec) nor for the words a family hands on (a subcommand's
//! reading is the family's).

use crate::call::args::asks_help;
use crate::call::Invocation;

use super::{Card, Check, Cx, Family};

/// Answers `inv` with `family`'s help rule when its card's reading asks for help;
/// false (nothing done) otherwise.
pub(crate) fn answer(family: &Family, card: &Card, inv: &Invocation, cx: &mut Cx<'_>, check: Check) -> bool {
    let Some(rule) = family.help else { return false };
    if !asks_help(&inv.args, card.args) {
        return false;
    }
    let hits = cx.trial(|trial| (family.enter)(inv, trial, check));
    if hits.iter().any(|h| h.rule.blocked) {
        cx.hits.extend(hits);
    } else {
        cx.hit(rule);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::call::args::{ArgSpec, Help};
    use crate::call::Arg;
    use crate::protect::Protected;
    use crate::rules::{Engine, FileText, Hit, Rule};
    use crate::words;

    /// Help, a change and a blocked form (not `static NAME: Rule`: they belong to no family).
    static TEST_RULES: [Rule; 3] = [Rule::t0("test.help"), Rule::t3("test.change"), Rule::blocked("test.wipe")];
    static CARDS: &[Card] = &[Card::of(words!["prog"], check).args(ArgSpec::values(words!["-o"])).help(Help::LONG)];
    static FAMILY: Family = Family::new("test", CARDS, &[]).answers_help(&TEST_RULES[0]);

    /// `prog wipe` is blocked, anything else changes state; every operand is written.
    /// `prog child` runs `wipe` as its child, with its input and cwd (a runner's
    /// `uv run …`), which the engine answers.
    fn check(inv: &Invocation, cx: &mut Cx<'_>) {
        if inv.words().any(|w| w == "child") {
            return cx.argv_inheriting(&[Arg::lit("wipe")], inv);
        }
        for w in inv.words().filter(|w| !w.starts_with('-')) {
            cx.wrote(Some(w.to_owned()));
        }
        cx.hit(if inv.words().any(|w| w == "wipe") { &TEST_RULES[2] } else { &TEST_RULES[1] });
    }

    /// An engine that only counts the writes reported to it.
    #[derive(Default)]
    struct Counting {
        writes: usize,
        protected: Protected,
    }

    impl Engine for Counting {
        fn shell(&mut self, _: &str, _: Option<&str>) -> Vec<Hit> {
            Vec::new()
        }
        fn argv(&mut self, _: &[Arg], _: Option<&str>) -> Vec<Hit> {
            Vec::new()
        }
        fn argv_inheriting(&mut self, args: &[Arg], _: &Invocation) -> Vec<Hit> {
            let wipe = args.first().is_some_and(|a| a.text == "wipe");
            if wipe {
                vec![Hit { rule: &TEST_RULES[2], detail: None, span: crate::verdict::Span::default() }]
            } else {
                Vec::new()
            }
        }
        fn read(&mut self, _: &str, _: Option<&str>) -> FileText {
            FileText::Missing
        }
        fn entry(&self, _: &str, _: Option<&str>) -> crate::lanes::Entry {
            crate::lanes::Entry::Unknown
        }
        fn home(&self) -> Option<&str> {
            None
        }
        fn root(&self) -> Option<&str> {
            None
        }
        fn protected(&self) -> &Protected {
            &self.protected
        }
        fn canonical(&self, _: &str) -> Option<String> {
            None
        }
        fn wrote(&mut self, _: Option<String>, _: bool) {
            self.writes += 1;
        }
        fn written_earlier(&self, _: &str, _: Option<&str>) -> bool {
            false
        }
    }

    /// The rule ids `prog WORDS` gets through the pass and then the check, and the writes recorded.
    fn run(words: &str) -> (Vec<&'static str>, usize) {
        let mut argv = vec!["prog"];
        argv.extend(words.split_whitespace());
        let inv = Invocation::from_words(&argv).unwrap_or_else(|| panic!("empty"));
        let mut engine = Counting::default();
        let mut cx = Cx::new(&mut engine, crate::verdict::Span::default());
        if !answer(&FAMILY, &CARDS[0], &inv, &mut cx, check) {
            (FAMILY.enter)(&inv, &mut cx, check);
        }
        let ids = cx.hits.iter().map(|h| h.rule.id).collect();
        drop(cx);
        (ids, engine.writes)
    }

    #[test]
    fn the_family_help_rule_answers_a_help_reading_and_nothing_is_recorded() {
        assert_eq!(run("--help x"), (vec!["test.help"], 0));
        assert_eq!(run("x"), (vec!["test.change"], 1));
        assert_eq!(run("-o --help x"), (vec!["test.change"], 1), "a value option's value is not help");
        assert_eq!(run("x -- --help"), (vec!["test.change"], 1), "after `--` is an operand");
    }

    #[test]
    fn a_blocked_form_keeps_its_verdict_under_a_help_word() {
        assert_eq!(run("wipe --help"), (vec!["test.wipe"], 0));
    }

    /// The trial asks the engine what a child the check hands on does
    /// (`Unrecorded::argv_inheriting`), so a blocked child stays blocked under a help
    /// word. No family that answers help hands on a child today (only the packages
    /// runners do, and that family has no help pass), so no command reaches this:
    /// reports/mutants/equivalent.tsv records it as unreachable, and this test holds it.
    #[test]
    fn a_blocked_child_keeps_its_verdict_under_a_help_word() {
        assert_eq!(run("child"), (vec!["test.wipe"], 0));
        assert_eq!(run("child --help"), (vec!["test.wipe"], 0));
    }
}
