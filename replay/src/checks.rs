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
        } else if let Spec::Truth { rule: Some(rule), .. } = &r.spec {
            if v.rule != *rule {
                out.push(Failure::new(
                    area,
                    Some(&r.id),
                    format!("{at}: {what} {expect} decided by {rule}, head says {} by {} ({})", v.class, v.rule, v.reason),
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::{parse, Kind};
    use crate::protocol::Class;

    fn verdict(class: Class, rule: &str) -> Verdict {
        Verdict { class, rule: rule.into(), reason: "r".into(), error: None }
    }

    /// A truth file may name the deciding rule in a last `rule` column; a row that gets
    /// its tier from another rule fails, a row without a rule is judged by tier alone.
    #[test]
    fn a_named_rule_must_decide_the_row() {
        let csv = "id,command,cwd,expect,pinned,family,note,rule\n\
                   a,git show-ref,,T0,false,free,,git.read\n\
                   b,git zzqx,,T0,false,free,,\n";
        let rows = parse(Kind::Truth, "t.csv", csv.as_bytes()).unwrap();
        let read = verdict(Class::T0, "git.read");
        let unknown = verdict(Class::T0, "git.unknown");
        let head: HashMap<&str, &Verdict> = [("a", &read), ("b", &unknown)].into();
        assert!(head_checks(&rows, &head).is_empty());
        let head: HashMap<&str, &Verdict> = [("a", &unknown), ("b", &read)].into();
        let f = head_checks(&rows, &head);
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(f[0].message.contains("decided by git.read, head says T0 by git.unknown"), "{}", f[0].message);
        // The seven-column header still loads; a rule cell that is not an id is an error.
        let seven = parse(Kind::Truth, "t.csv", "id,command,cwd,expect,pinned,family,note\na,ls,,T0,false,free,\n".as_bytes()).unwrap();
        assert!(matches!(&seven[0].spec, Spec::Truth { rule: None, .. }), "{:?}", seven[0].spec);
        let bad = parse(Kind::Truth, "t.csv", "id,command,cwd,expect,pinned,family,note,rule\na,ls,,T0,false,free,,Git Read\n".as_bytes());
        assert!(bad.unwrap_err()[0].starts_with("t.csv:2: column rule:"));
    }
}
