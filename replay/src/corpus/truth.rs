//! Truth-table columns: `id,command,cwd,expect,pinned,family,note`, and an optional
//! last column `rule`: the rule id that must decide the row (empty: any). A tier
//! alone cannot tell a read verb from an unknown word that is also T0; the deciding
//! rule can (`git.read` vs `git.unknown`). It validates a row's fields; it does not
//! compare verdicts (crate::checks does).

use super::{cwd_of, Spec};
use crate::protocol::Class;

pub(super) const COLUMNS: &[&str] = &["id", "command", "cwd", "expect", "pinned", "family", "note"];
/// `COLUMNS` plus the deciding rule.
pub(super) const COLUMNS_WITH_RULE: &[&str] = &["id", "command", "cwd", "expect", "pinned", "family", "note", "rule"];

/// `gated` and `free` are controls on either side of a rule's line; `open` records a
/// known gap at its current verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TruthFamily {
    Gated,
    Free,
    Open,
}

/// The shape of a rule id (`git.read`, `exec.option-command`): lower-case words,
/// digits, `.`, `-`, `_` — what the classifier's registry test allows.
pub fn is_rule_id(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'_'))
}

type Parsed = (Spec, u64, Option<String>, String);

pub(super) fn spec(f: &super::Fields, bad: &mut dyn FnMut(&str, String)) -> Option<Parsed> {
    let expect = Class::parse(f.get("expect"));
    if expect.is_none() {
        bad("expect", format!("{:?} is not one of T0 T1 T2 T3 BLOCKED", f.get("expect")));
    }
    let pinned = match f.get("pinned") {
        "true" => Some(true),
        "false" => Some(false),
        other => {
            bad("pinned", format!("{other:?} is not one of true false"));
            None
        }
    };
    let family = match f.get("family") {
        "gated" => Some(TruthFamily::Gated),
        "free" => Some(TruthFamily::Free),
        "open" => Some(TruthFamily::Open),
        other => {
            bad("family", format!("{other:?} is not one of gated free open"));
            None
        }
    };
    let rule = f.get("rule").trim();
    if !rule.is_empty() && !is_rule_id(rule) {
        bad("rule", format!("{rule:?} is not a rule id (lower-case words, digits, `.`, `-`, `_`)"));
        return None;
    }
    let rule = (!rule.is_empty()).then(|| rule.to_owned());
    Some((Spec::Truth { expect: expect?, pinned: pinned?, family: family?, rule }, 1, cwd_of(f.get("cwd")), f.get("note").to_owned()))
}
