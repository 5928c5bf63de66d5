//! One command's verdict at one revision, for `cargo xtask probe` (the `git bisect
//! run` contract: 0 matches, 1 does not, 125 cannot build or test) and for bisect.
//! Builds go through build.rs's cache (worktree outside the repository, binary per
//! commit); answers go through the verdict store. It never touches the main work tree.

use std::path::Path;
use std::time::Duration;

use crate::build::{self, BaseBuild, Handshake, Subject};
use crate::protocol::{Class, Verdict};
use crate::runner::{run, Job};
use crate::store::Store;

/// What a probe expects: a hook decision or an exact class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    Allow,
    Ask,
    Deny,
    Class(Class),
}

impl Expect {
    pub fn parse(s: &str) -> Option<Expect> {
        Some(match s {
            "allow" => Expect::Allow,
            "ask" => Expect::Ask,
            "deny" => Expect::Deny,
            other => Expect::Class(Class::parse(other)?),
        })
    }
    pub fn holds(self, c: Class) -> bool {
        match self {
            Expect::Allow => c < Class::T3,
            Expect::Ask => c == Class::T3,
            Expect::Deny => c == Class::Blocked,
            Expect::Class(e) => c == e,
        }
    }
}

/// Why a revision cannot be tested (exit 125 under `git bisect run`).
#[derive(Debug)]
pub struct Untestable(pub String);

/// The subject at `rev` (None = the work tree, built like replay's head).
pub fn subject_at(root: &Path, rev: Option<&str>, log: &dyn Fn(&str)) -> Result<Subject, Untestable> {
    let subject = match rev {
        None => build::build_head(root, &build::head_target_dir(root), log).map_err(|e| Untestable(e.to_string()))?.0,
        Some(rev) => {
            let commit = crate::git::git(root, &["rev-parse", "--verify", "--quiet", &format!("{rev}^{{commit}}")])
                .map_err(|_| Untestable(format!("{rev:?} does not name a commit")))?;
            let target = build::replay_dir(root).join("base-target");
            match build::build_base(root, &commit, &target, log) {
                Ok(BaseBuild::Ready { subject, .. }) => subject,
                Ok(BaseBuild::Predates(why)) => return Err(Untestable(why)),
                Err(e) => return Err(Untestable(e.to_string())),
            }
        }
    };
    match build::handshake(&subject.argv) {
        Handshake::V1 => Ok(subject),
        Handshake::Other(v) => Err(Untestable(format!("speaks protocol {v}, not 1"))),
        Handshake::Unsupported(why) => Err(Untestable(format!("does not speak protocol v1: {why}"))),
    }
}

/// Answers one command on `subject`, through the verdict store. A command with a
/// cwd may read files there, which can change under the same build: it is never
/// cached.
pub fn answer(root: &Path, subject: &Subject, command: &str, cwd: Option<&str>) -> Result<Verdict, Untestable> {
    let store = if cwd.is_none() { Store::open(&build::replay_dir(root).join("cache.sqlite")).ok() } else { None };
    if let (Some(s), Some(id)) = (&store, &subject.build_id) {
        if let Some(v) = s.get(id, command, cwd.unwrap_or("")) {
            return Ok(v);
        }
    }
    let job = Job::new(command, cwd.map(str::to_owned));
    let v = run(subject, std::slice::from_ref(&job), Duration::from_secs(10), &|| {})
        .map_err(|e| Untestable(e.to_string()))?
        .pop()
        .unwrap_or_else(|| Verdict::error("no answer"));
    if let Some(e) = &v.error {
        return Err(Untestable(format!("no verdict: {e}")));
    }
    if let (Some(mut s), Some(id)) = (store, &subject.build_id) {
        let _ = s.insert(id, std::iter::once((command, cwd.unwrap_or(""), "", &v)));
    }
    Ok(v)
}

/// Builds (or reuses) `rev` and answers `command`.
pub fn verdict_at(root: &Path, rev: Option<&str>, command: &str, cwd: Option<&str>, log: &dyn Fn(&str)) -> Result<Verdict, Untestable> {
    let subject = subject_at(root, rev, log)?;
    answer(root, &subject, command, cwd)
}
