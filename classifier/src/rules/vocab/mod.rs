//! The common vocabulary of the rule families: words and readings every family
//! shares, so no family asks another for them (docs/decisions/0013-program-cards.md).
//! It decides no tier by itself; the families and passes that use it do.
//!
//! - `input`: what feeds a program's standard input, read one way for everyone;
//! - `verbs`: the verb taxonomy (what a command word says a command does);
//! - `lane`: the verb-scan lane of the smaller CLIs (first command word with a kind decides);
//! - `patch`: which files a diff writes or deletes;
//! - `payload`: code a command substitution downloads or decodes, met inside a payload;
//! - `vars`: variables that carry a command or inject code (and search paths into the tree, which do not);
//! - `build_wrappers`: `./gradlew`, `./mvnw`, `./sbtx` as the build tool they start;
//! - `writes`: "this program writes that path", the door to the write policy (`rules::paths`).

pub(crate) mod build_wrappers;
pub(crate) mod input;
pub(crate) mod lane;
pub(crate) mod patch;
pub(crate) mod payload;
pub(crate) mod vars;
pub(crate) mod verbs;
pub(crate) mod writes;

crate::tables![; build_wrappers, lane, vars, verbs];
