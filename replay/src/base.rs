//! Picks the base commit and says which rule picked it: `--base REV`, else
//! `$REPLAY_BASE`, else `git merge-base HEAD origin/main` (or `main`), else
//! `HEAD~1`. A missing commit is an infrastructure error that says how to fetch it.
//! It does not build anything.

use std::path::Path;

use crate::exit::ReplayError;
use crate::git::git;

#[derive(Clone, Debug)]
pub struct Base {
    /// Full commit id.
    pub commit: String,
    /// Human sentence: which rule applied.
    pub rule: String,
}

/// Resolves the base. `flag` is `--base`, `env` is `$REPLAY_BASE`.
pub fn resolve(root: &Path, flag: Option<&str>, env: Option<&str>) -> Result<Base, ReplayError> {
    if let Some(rev) = flag {
        return verify(root, rev).map(|commit| Base { commit, rule: format!("--base {rev}") });
    }
    if let Some(rev) = env.filter(|e| !e.is_empty()) {
        return verify(root, rev).map(|commit| Base { commit, rule: format!("$REPLAY_BASE={rev}") });
    }
    for upstream in ["origin/main", "main"] {
        if git(root, &["rev-parse", "--verify", "--quiet", &format!("{upstream}^{{commit}}")]).is_ok() {
            if let Ok(mb) = git(root, &["merge-base", "HEAD", upstream]) {
                return Ok(Base { commit: mb, rule: format!("git merge-base HEAD {upstream}") });
            }
        }
    }
    verify(root, "HEAD~1").map(|commit| Base { commit, rule: "HEAD~1 (no --base, $REPLAY_BASE or main to merge-base with)".into() })
}

fn verify(root: &Path, rev: &str) -> Result<String, ReplayError> {
    match git(root, &["rev-parse", "--verify", "--quiet", &format!("{rev}^{{commit}}")]) {
        Ok(c) if !c.is_empty() => Ok(c),
        _ => {
            let shallow = git(root, &["rev-parse", "--is-shallow-repository"]).map(|s| s == "true").unwrap_or(false);
            Err(ReplayError::infra(if shallow {
                format!(
                    "base {rev:?} is not in this shallow clone; fetch history with `git fetch --unshallow` \
                     (or `git fetch --depth=50 origin main`) and run again"
                )
            } else {
                format!("base {rev:?} does not name a commit here; fetch it with `git fetch origin {rev}` or pass another --base")
            }))
        }
    }
}

/// The head commit, and whether the work tree is dirty.
pub fn head(root: &Path) -> Result<(String, bool), ReplayError> {
    let commit = git(root, &["rev-parse", "HEAD"]).map_err(ReplayError::infra)?;
    let dirty = crate::git::is_dirty(root).map_err(ReplayError::infra)?;
    Ok((commit, dirty))
}

/// The first 10 hex digits, used in report folder names.
pub fn short(commit: &str) -> &str {
    &commit[..commit.len().min(10)]
}
