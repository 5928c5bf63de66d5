//! `git bisect run cargo xtask probe …` over the dozen-commit history of the
//! bench's tests reaches the same first bad commit as `cargo xtask bisect`, and the
//! unbuildable commit is skipped through probe's exit 125.

#[path = "../../replay/tests/it/repo.rs"]
#[allow(dead_code)]
mod repo;

use std::process::Command;

#[test]
fn git_bisect_run_with_probe_finds_the_same_commit_as_bisect() {
    let repo = repo::Repo::new();
    let (good, moved, _broken) = repo::dozen_commits(&repo);
    let xtask = env!("CARGO_BIN_EXE_xtask");
    let root = repo.root.display().to_string();

    let out = Command::new(xtask).args(["bisect", "--root", &root, "--command", "make install", "--good", &good, "--bad", "HEAD"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains(&format!("first commit that moved `make install`: {} step 7", &moved[..10])), "{text}");
    assert!(text.contains("skipped (cannot build or test)"), "{text}");

    repo.git(&["bisect", "start", "HEAD", &good]);
    let out = Command::new("git")
        .arg("-C")
        .arg(&repo.root)
        .args(["bisect", "run", xtask, "probe", "--root", &root, "--command", "make install", "--expect", "allow"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(&format!("{moved} is the first bad commit")), "{text}{}", String::from_utf8_lossy(&out.stderr));
    repo.git(&["bisect", "reset"]);
}
