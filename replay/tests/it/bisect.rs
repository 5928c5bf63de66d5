//! Bisect and probe over a dozen commits: the commit that moved the verdict is
//! named, the unbuildable one is skipped, and probe follows git's 0/1/125 contract.

use replay::bisect::{bisect, Regress};
use replay::probe::{verdict_at, Expect};
use replay::protocol::Class;

use crate::repo::{dozen_commits, Repo};

#[test]
fn bisect_names_the_commit_that_moved_the_verdict_and_skips_the_broken_one() {
    let repo = Repo::new();
    let (good, moved, broken) = dozen_commits(&repo);
    let f = bisect(&repo.root, "make install", None, &good, "HEAD", Regress::Changed, &|_| {}).unwrap();
    assert_eq!(f.commit, moved, "{f:?}");
    assert_eq!(f.subject, "step 7");
    assert_eq!((f.before.class, f.before.rule.as_str()), (Class::T0, "default"));
    assert_eq!((f.after.class, f.after.rule.as_str()), (Class::T3, "make.install"));
    assert_eq!(f.skipped, vec![broken[..10].to_owned()]);
    assert!(f.ambiguous.is_empty());

    // Loosening never happened here: asking for it finds nothing.
    let err = bisect(&repo.root, "make install", None, &good, "HEAD", Regress::Loosened, &|_| {}).unwrap_err();
    assert!(err.contains("did not move"), "{err}");

    // Probe: exact classes and decisions at revisions, untestable for the broken one.
    let at = |rev: &str| verdict_at(&repo.root, Some(rev), "make install", None, &|_| {});
    assert!(Expect::Allow.holds(at(&good).unwrap().class));
    assert!(Expect::Ask.holds(at("HEAD").unwrap().class));
    assert!(at(&broken).unwrap_err().0.contains("does not build"));
}
