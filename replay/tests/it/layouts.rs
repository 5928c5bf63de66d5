//! The bench across the package split: a base or bisect step with the old layout
//! (`-p classifier --bin tiergate`) and a head with the new one (`-p tiergate`),
//! each built the way its own manifests say (replay::layout).

use replay::bisect::{bisect, Regress};
use replay::layout;
use replay::probe::{verdict_at, Expect};
use replay::protocol::Class;

use crate::repo::{check, failures, Repo, RULES};

#[test]
fn an_old_layout_base_against_a_split_head_builds_both_and_is_clean() {
    let repo = Repo::new();
    let old = repo.git(&["rev-parse", "HEAD"]);
    repo.split_packages();
    let split = repo.commit("split the packages");
    assert_eq!(layout::at_commit(&repo.root, &old).unwrap().package, "classifier");
    assert_eq!(layout::at_commit(&repo.root, &split).unwrap().package, "tiergate");
    assert_eq!(layout::at_dir(&repo.root).unwrap().package, "tiergate");

    let (code, r) = check(&repo.config(&old));
    assert_eq!(code, 0, "{}", failures(&r));
    let out = r.unwrap();
    assert!(out.report.diffed, "both sides built and answered: {:?}", out.report.notes);
    assert!(!out.report.notes.iter().any(|n| n.contains("predates")), "{:?}", out.report.notes);
}

#[test]
fn bisect_and_probe_cross_the_layout_change() {
    let repo = Repo::new();
    let good = repo.git(&["rev-parse", "HEAD"]);
    repo.write("NOTES", "before the split\n");
    repo.commit("old layout, unrelated change");
    repo.split_packages();
    let split = repo.commit("split the packages");
    repo.write("classifier/tiergate/rules.txt", &format!("make install\tT3\tmake.install\n{RULES}"));
    let moved = repo.commit("make install asks");
    repo.write("NOTES", "after\n");
    repo.commit("new layout, unrelated change");

    let f = bisect(&repo.root, "make install", None, &good, "HEAD", Regress::Changed, &|_| {}).unwrap();
    assert_eq!(f.commit, moved, "{f:?}");
    assert!(f.skipped.is_empty(), "every step built, in either layout: {:?}", f.skipped);
    assert_eq!((f.after.class, f.after.rule.as_str()), (Class::T3, "make.install"));

    let at = |rev: &str| verdict_at(&repo.root, Some(rev), "make install", None, &|_| {});
    assert!(Expect::Allow.holds(at(&good).unwrap().class), "old layout");
    assert!(Expect::Allow.holds(at(&split).unwrap().class), "new layout, before the rule");
    assert!(Expect::Ask.holds(at("HEAD").unwrap().class), "new layout, after the rule");
}
