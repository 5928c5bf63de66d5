//! `git push`: plain pushes (T3), force and mirror pushes (blocked), deletions of
//! remote refs (T3) and `--dry-run` (T2).
//!
//! It does not look at which remote or branch is pushed to: every push changes
//! shared state and asks.

use super::local::transport;
use super::{split_operands, GitCall};
use crate::call::{Arg, Invocation};
use crate::rules::{Cx, Rule};
use crate::words;

/// ## What it matches
/// `git push` of commits or tags, including `--force-with-lease` and `-u`.
/// ## Why this tier
/// Publishes to a shared remote; others see it at once.
pub(super) static PUSH: Rule = Rule::t3("git.push")
    .reason("pushes to a remote, which others share; ask the user before publishing")
    .matches(words![
        "git push", "git send-pack origin main", "git push -u origin HEAD", "git push --force-with-lease origin feature-branch", "git push --tags",
        "git -P push origin main",
    ])
    .not_matches(words!["git push --dry-run", "git push -f", "git commit -m 'push to production'"]);

/// ## What it matches
/// `git push` with `-f`/`--force` (packed too: `-fu`), a `+ref` refspec, or `--mirror`, behind any wrapper.
/// ## Why this tier
/// Overwrites the remote branch; commits others already pulled can vanish. Never approvable.
pub(super) static FORCE: Rule = Rule::blocked("git.push.force")
    .reason("force push rewrites remote history; push with --force-with-lease (which refuses to overwrite others' work) and ask the user")
    .matches(words![
        "git push -f origin main", "git push origin --force", "sudo git push -f", "git push -fu origin main", "git push origin +main", "git push --mirror",
        "git -C app push -f", "bash -c 'git push --force'", "git push -f --help",
    ])
    .not_matches(words!["git push --force-with-lease origin main", "git commit -m 'git push -f'", "git push origin main", "git push -f --dry-run"])
    .suggest("git push --force-with-lease");

/// ## What it matches
/// `git push --delete`/`-d`, a `:ref` refspec, or `--prune`.
/// ## Why this tier
/// Deletes branches or tags on the shared remote; approvable because the commits
/// usually survive elsewhere.
pub(super) static DELETE: Rule = Rule::t3("git.push.delete")
    .reason("deletes refs on the remote; make sure nobody still needs the branch and ask the user")
    .matches(words!["git push --delete origin feature-branch", "git push origin :feature-branch", "git push -d origin x", "git push --prune"])
    .not_matches(words!["git push origin main"]);

/// ## What it matches
/// `git push -n`/`--dry-run`, whatever else is given.
/// ## Why this tier
/// git really honours it: nothing is sent.
pub(super) static DRY_RUN: Rule = Rule::t2("git.push.dry-run")
    .reason("dry run: shows what would be pushed, sends nothing")
    .matches(words!["git push --dry-run", "git push -n origin main", "git push -f --dry-run"])
    .not_matches(words!["git push origin main"]);

/// True for a push whose flags or refspecs force (used to refuse the help exemption).
pub(super) fn is_force(call: &GitCall) -> bool {
    if !matches!(call.sub.as_str(), "push" | "send-pack" | "http-push") {
        return false;
    }
    call.inv.has_any(words!["-f", "--force"]) || call.inv.has_long("--mirror") || refspecs(&call.inv).iter().any(|r| r.text.starts_with('+'))
}

crate::table! {
    VALUE_FLAGS = ["-o", "--push-option", "--repo", "--receive-pack", "--exec"];
    probe "git push origin {} +main" => T3;
}

/// The refspec operands: those after the remote, or all of them when `--repo`
/// names the remote (`git push --repo=origin +main` force-pushes).
fn refspecs(inv: &Invocation) -> Vec<&Arg> {
    let (ops, after) = split_operands(&inv.args, VALUE_FLAGS);
    let repo_named = inv.args.iter().any(|a| a.text == "--repo" || a.text.starts_with("--repo="));
    ops.into_iter().chain(after).skip(usize::from(!repo_named)).collect()
}

pub(super) fn check(call: &GitCall, cx: &mut Cx<'_>) {
    let inv = &call.inv;
    if inv.has_any(words!["-n", "--dry-run"]) {
        cx.hit(&DRY_RUN);
        return;
    }
    transport(call, cx);
    let refspecs: Vec<&str> = refspecs(inv).into_iter().map(|a| a.text.as_str()).collect();
    let plus = refspecs.iter().find(|r| r.starts_with('+'));
    if inv.has_any(words!["-f", "--force"]) || inv.has_long("--mirror") {
        cx.hit(&FORCE);
    } else if let Some(r) = plus {
        cx.hit_because(&FORCE, format!("refspec `{r}` force-pushes (the leading +); push without it using --force-with-lease and ask the user"));
    } else if inv.has_any(words!["-d", "--delete", "--prune"]) || refspecs.iter().any(|r| r.starts_with(':') && r.len() > 1) {
        cx.hit(&DELETE);
    } else {
        cx.hit(&PUSH);
    }
}

crate::tables![VALUE_FLAGS];
