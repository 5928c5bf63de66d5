//! Policy failures, and the head-only checks: every row against what its kind
//! expects of head (truth: exactly its expectation; curated: its direction; history:
//! any verdict at all). The kinds decide (crate::corpus); this collects. It does not
//! compare with the base (diff.rs does).

use crate::corpus::Row;
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

/// Every row's own check against head's answer (`CorpusKind::check`), `rows` and
/// `verdicts` in the same order; and, for every kind, no `internal.error`.
pub fn head_checks(rows: &[Row], verdicts: &[Verdict]) -> Vec<Failure> {
    rows.iter().zip(verdicts).filter_map(|(r, v)| panicked(r, v).or_else(|| r.kind.def().check(r, v))).collect()
}

/// `internal.error` is the classifier's answer to its own panic (`classify_with`
/// asks, T3). It keeps the tier of a row that already asked, so no tier cap sees it,
/// yet it is always a bug: on any row of any corpus it fails the replay.
fn panicked(r: &Row, v: &Verdict) -> Option<Failure> {
    (v.rule == INTERNAL_ERROR).then(|| {
        Failure::new("panic", Some(&r.id), format!("head answered `{INTERNAL_ERROR}` (the classifier panicked on this command and asked); fix the panic"))
    })
}

/// The rule id of the classifier's answer to a panic (classifier/src/rules/engine.rs, `INTERNAL_ERROR`).
const INTERNAL_ERROR: &str = "internal.error";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::{parse, Kind, Spec};
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
        assert!(head_checks(&rows, &[read.clone(), unknown.clone()]).is_empty());
        let f = head_checks(&rows, &[unknown, read]);
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(f[0].message.contains("decided by git.read, head says T0 by git.unknown"), "{}", f[0].message);
        // The seven-column header still loads; a rule cell that is not an id is an error.
        let seven = parse(Kind::Truth, "t.csv", "id,command,cwd,expect,pinned,family,note\na,ls,,T0,false,free,\n".as_bytes()).unwrap();
        assert!(matches!(&seven[0].spec, Spec::Truth { rule: None, .. }), "{:?}", seven[0].spec);
        let bad = parse(Kind::Truth, "t.csv", "id,command,cwd,expect,pinned,family,note,rule\na,ls,,T0,false,free,,Git Read\n".as_bytes());
        assert!(bad.unwrap_err()[0].starts_with("t.csv:2: column rule:"));
    }

    /// A panic answered as `internal.error` (T3) fails even a row whose kind accepts
    /// T3 (a gated truth row here), and names the row; any other rule passes.
    #[test]
    fn an_internal_error_fails_any_row() {
        let csv = "id,command,cwd,expect,pinned,family,note\na,rm -rf build,,T3,false,gated,\n";
        let rows = parse(Kind::Truth, "t.csv", csv.as_bytes()).unwrap();
        assert!(head_checks(&rows, &[verdict(Class::T3, "coreutils.rm")]).is_empty());
        let f = head_checks(&rows, &[verdict(Class::T3, "internal.error")]);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!((f[0].area, f[0].row.as_deref()), ("panic", Some("a")));
    }
}
