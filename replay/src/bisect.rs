//! Finds the first commit on `git rev-list --first-parent good..bad` whose verdict
//! for one command moved away from good's (changed, loosened or tightened), by
//! binary search over cached per-commit builds in worktrees outside the repository.
//! Unbuildable commits are skipped (the nearest testable neighbour is tried). It
//! never checks out the main work tree.

use std::path::Path;

use crate::git::git;
use crate::probe::{verdict_at, Untestable};
use crate::protocol::Verdict;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Regress {
    Changed,
    Loosened,
    Tightened,
}

impl Regress {
    pub fn parse(s: &str) -> Option<Regress> {
        Some(match s {
            "changed" => Regress::Changed,
            "loosened" => Regress::Loosened,
            "tightened" => Regress::Tightened,
            _ => return None,
        })
    }
    /// Did `v` move away from the good verdict `g` in this sense?
    fn moved(self, g: &Verdict, v: &Verdict) -> bool {
        match self {
            Regress::Changed => g.class != v.class || g.rule != v.rule,
            Regress::Loosened => v.class < g.class,
            Regress::Tightened => v.class > g.class,
        }
    }
}

#[derive(Debug)]
pub struct Found {
    pub commit: String,
    pub subject: String,
    pub before: Verdict,
    pub after: Verdict,
    /// Commits that could not be built or tested (short ids).
    pub skipped: Vec<String>,
    /// Candidates the first move may hide among, when skipped commits border it.
    pub ambiguous: Vec<String>,
    pub tested: usize,
}

/// Bisects `command` between `good` and `bad` (commit-ish).
pub fn bisect(root: &Path, command: &str, cwd: Option<&str>, good: &str, bad: &str, regress: Regress, log: &dyn Fn(&str)) -> Result<Found, String> {
    let good_c = git(root, &["rev-parse", "--verify", &format!("{good}^{{commit}}")])?;
    let list = git(root, &["rev-list", "--first-parent", "--reverse", &format!("{good_c}..{bad}")])?;
    let commits: Vec<String> = list.lines().map(str::to_owned).collect();
    if commits.is_empty() {
        return Err(format!("no commits between {good} and {bad}"));
    }
    let mut tested = 0usize;
    let mut at = |c: &str| -> Result<Verdict, Untestable> {
        tested += 1;
        verdict_at(root, Some(c), command, cwd, log)
    };
    let g = at(&good_c).map_err(|u| format!("good {good} cannot be tested: {}", u.0))?;
    let n = commits.len();
    let mut cache: Vec<Option<Result<Verdict, String>>> = vec![None; n];
    let mut probe = |i: usize, cache: &mut Vec<Option<Result<Verdict, String>>>| -> Result<Verdict, String> {
        if cache[i].is_none() {
            cache[i] = Some(at(&commits[i]).map_err(|u| u.0));
        }
        cache[i].clone().unwrap_or_else(|| Err("not tested".into()))
    };
    let last = probe(n - 1, &mut cache).map_err(|e| format!("bad {bad} cannot be tested: {e}"))?;
    if !regress.moved(&g, &last) {
        return Err(format!("the verdict did not move between {good} ({}) and {bad} ({})", g.short(), last.short()));
    }
    // Invariant: lo is good (-1 = the good commit), hi is bad.
    let (mut lo, mut hi): (isize, usize) = (-1, n - 1);
    while hi as isize - lo > 1 {
        let mid = ((lo + hi as isize) / 2) as usize;
        // Try mid, then neighbours outward, staying strictly inside (lo, hi).
        let mut order = vec![mid];
        for d in 1..n {
            if mid + d < hi {
                order.push(mid + d);
            }
            if mid >= d && (mid - d) as isize > lo {
                order.push(mid - d);
            }
        }
        let mut decided = false;
        for i in order {
            match probe(i, &mut cache) {
                Ok(v) if regress.moved(&g, &v) => {
                    hi = i;
                    decided = true;
                    break;
                }
                Ok(_) => {
                    lo = i as isize;
                    decided = true;
                    break;
                }
                Err(_) => continue,
            }
        }
        if !decided {
            break; // every commit strictly between lo and hi is untestable
        }
    }
    let skipped: Vec<String> =
        cache.iter().enumerate().filter(|(_, c)| matches!(c, Some(Err(_)))).map(|(i, _)| crate::base::short(&commits[i]).to_owned()).collect();
    let ambiguous: Vec<String> = ((lo + 1) as usize..hi).map(|i| crate::base::short(&commits[i]).to_owned()).collect();
    let before = if lo < 0 { g.clone() } else { probe(lo as usize, &mut cache).unwrap_or_else(|_| g.clone()) };
    let after = probe(hi, &mut cache)?;
    let subject = git(root, &["log", "-1", "--format=%s", &commits[hi]]).unwrap_or_default();
    Ok(Found { commit: commits[hi].clone(), subject, before, after, skipped, ambiguous, tested })
}
