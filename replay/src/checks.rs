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
/// `verdicts` in the same order.
pub fn head_checks(rows: &[Row], verdicts: &[Verdict]) -> Vec<Failure> {
    rows.iter().zip(verdicts).filter_map(|(r, v)| r.kind.def().check(r, v)).collect()
}

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
}
