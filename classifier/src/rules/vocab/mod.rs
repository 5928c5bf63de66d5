//! The common vocabulary of the rule families: words and readings every family
//! shares, so no family asks another for them (docs/decisions/0013-program-cards.md).
//! It decides no tier by itself; the families and passes that use it do.
//!
//! - `input`: what feeds a program's standard input, read one way for everyone;
//! - `verbs`: the verb taxonomy (what a command word says a command does);
//! - `lane`: the verb-scan lane of the smaller CLIs (first command word with a kind decides).

pub(crate) mod input;
pub(crate) mod lane;
pub(crate) mod verbs;
