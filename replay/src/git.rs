//! Thin wrappers over the `git` command: run, read files at a commit, list a tree.
//! No policy here; base.rs decides which commit, build.rs makes worktrees.

use std::path::Path;
use std::process::Command;

/// Runs `git args` in `root`; returns trimmed stdout or the error text.
pub fn git(root: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new("git").arg("-C").arg(root).args(args).output().map_err(|e| format!("cannot run git: {e}"))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).trim_end().to_owned())
    } else {
        Err(format!("`git {}` failed: {}", args.join(" "), String::from_utf8_lossy(&out.stderr).trim()))
    }
}

/// Raw bytes of `path` at `commit`, or None if it does not exist there.
pub fn show(root: &Path, commit: &str, path: &str) -> Option<Vec<u8>> {
    let out = Command::new("git").arg("-C").arg(root).args(["show", &format!("{commit}:{path}")]).output().ok()?;
    out.status.success().then_some(out.stdout)
}

/// Files under `dir` at `commit` (below it too when `recursive`) whose name ends
/// with `suffix`, sorted.
pub fn ls_tree(root: &Path, commit: &str, dir: &str, suffix: &str, recursive: bool) -> Vec<String> {
    let dir = format!("{dir}/");
    let args: &[&str] = if recursive { &["ls-tree", "-r", "--name-only", commit, &dir] } else { &["ls-tree", "--name-only", commit, &dir] };
    let mut v: Vec<String> = git(root, args).unwrap_or_default().lines().filter(|l| l.ends_with(suffix)).map(str::to_owned).collect();
    v.sort();
    v
}

/// True when the work tree differs from HEAD (tracked changes or untracked files).
pub fn is_dirty(root: &Path) -> Result<bool, String> {
    git(root, &["status", "--porcelain"]).map(|s| !s.is_empty())
}
