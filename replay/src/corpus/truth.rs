//! Truth-table columns: `id,command,cwd,expect,pinned,family,note`. It validates a
//! row's fields; it does not compare verdicts (crate::checks does).

use super::{cwd_of, Spec};
use crate::protocol::Class;

pub(super) const COLUMNS: &[&str] = &["id", "command", "cwd", "expect", "pinned", "family", "note"];

/// `gated` and `free` are controls on either side of a rule's line; `open` records a
/// known gap at its current verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TruthFamily {
    Gated,
    Free,
    Open,
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
    Some((Spec::Truth { expect: expect?, pinned: pinned?, family: family? }, 1, cwd_of(f.get("cwd")), f.get("note").to_owned()))
}
