//! Head-only checks: every truth row's class must equal its expectation (gated,
//! free and open alike: an open row records a known gap at its current verdict),
//! and curated rows must hold their direction (bypass/worst: at least as strict as
//! expected; fp: at most). It does not compare with the base (diff.rs does).

use std::collections::HashMap;

use crate::corpus::{CuratedFamily, Row, Spec};
use crate::protocol::Verdict;

/// A policy failure: exit 1. `row` is the row id when there is one.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Failure {
    pub area: &'static str,
    pub row: Option<String>,
    pub message: String,
}

impl Failure {
    pub fn new(area: &'static str, row: Option<&str>, message: String) -> Failure {
        Failure { area, row: row.map(str::to_owned), message }
    }
}

/// Checks `rows` (truth and curated) against head's verdicts by id.
pub fn head_checks(rows: &[Row], head: &HashMap<&str, &Verdict>) -> Vec<Failure> {
    let mut out = Vec::new();
    for r in rows {
        let (expect, ok, area, what) = match r.spec {
            Spec::Truth { expect, pinned, .. } => (expect, None, "truth", if pinned { "expected (pinned)" } else { "expected" }),
            Spec::Curated { expect, family } => {
                let ok: fn(crate::protocol::Class, crate::protocol::Class) -> bool = match family {
                    CuratedFamily::Bypass | CuratedFamily::Worst => |h, e| h >= e,
                    CuratedFamily::Fp => |h, e| h <= e,
                };
                let what = match family {
                    CuratedFamily::Bypass => "bypass: expected at least",
                    CuratedFamily::Worst => "worst case: expected at least",
                    CuratedFamily::Fp => "false-positive guard: expected at most",
                };
                (expect, Some(ok), "curated", what)
            }
            Spec::History => continue,
        };
        let Some(v) = head.get(r.id.as_str()) else { continue };
        let at = format!("{}:{} {}", r.file, r.line, r.id);
        if let Some(e) = &v.error {
            out.push(Failure::new(area, Some(&r.id), format!("{at}: head gave no verdict ({e})")));
            continue;
        }
        let holds = match ok {
            None => v.class == expect,
            Some(f) => f(v.class, expect),
        };
        if !holds {
            out.push(Failure::new(area, Some(&r.id), format!("{at}: {what} {expect}, head says {} ({}: {})", v.class, v.rule, v.reason)));
        }
    }
    out
}
