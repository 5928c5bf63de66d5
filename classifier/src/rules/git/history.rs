//! git subcommands that rewrite or drop history and refs (`branch -D`, `merge`,
//! `rebase`, `pull`, `filter-branch`, `reflog expire`, `update-ref`, `gc --prune=now`)
//! and the few that act outside the repository (`send-email`, `svn dcommit`,
//! `daemon`, `credential approve`, `maintenance start`).
//!
//! `push` is in `push.rs`; work-tree discards in `discard.rs`.

use super::local::{transport, LOCAL};
use super::read::READ;
use super::{split_operands, GitCall};
use crate::call::args::{ArgSpec, Args, Token};
use crate::rules::{Cx, Rule};
use crate::words;

/// ## What it matches
/// `git branch -D`, `--delete --force`, `-M`, `-C`, `-f`/`--force` (a checkout `-B` is `git.checkout.discard`).
/// ## Why this tier
/// Deletes or moves a branch whatever its merge state; unmerged commits drop out of
/// every branch and survive only in the reflog.
pub(super) static BRANCH_FORCE: Rule = Rule::t3("git.branch.force")
    .reason("force-deletes or overwrites a branch even if unmerged; use git branch -d, which refuses unmerged branches")
    .matches(words!["git branch -D feature", "git branch -M old new", "git branch -f main HEAD~3", "git branch --delete --force x"])
    .not_matches(words!["git branch -d feature", "git branch feature-x", "git branch -a", "git branch -m old new", "git branch --merged main"])
    .suggest("git branch -d feature");

/// ## What it matches
/// `git merge` (except `--abort`/`--quit`).
/// ## Why this tier
/// Rewrites the work tree and the current branch with another line of history; kept
/// gated as in the original (cherry-pick and revert, one commit at a time, are local-safe).
pub(super) static MERGE: Rule = Rule::t3("git.merge")
    .reason("merges another branch into the current one and rewrites the work tree; ask the user before merging")
    .matches(words!["git merge main", "git merge --no-ff feature", "git merge-base main HEAD && git merge main"])
    .not_matches(words!["git merge --abort", "git merge-base main HEAD", "git --work-tree=/srv/www merge feature"]);

/// ## What it matches
/// `git rebase` (except `--abort`, `--quit`, `--show-current-patch`); `-x CMD` is classified too.
/// ## Why this tier
/// Rewrites commits of the current branch; the old ones survive only in the reflog.
pub(super) static REBASE: Rule = Rule::t3("git.rebase")
    .reason("rebase rewrites the branch's commits; ask the user first (git rebase --abort undoes an unfinished one)")
    .matches(words!["git rebase main", "git rebase -i HEAD~3", "git rebase --continue", "git rebase --onto main a b"])
    .not_matches(words!["git rebase --abort", "git --work-tree=/srv/www rebase main"]);

/// ## What it matches
/// `git pull` (fetch plus merge or rebase into the work tree).
/// ## Why this tier
/// Unlike `fetch`, it rewrites the current branch and work tree with remote content.
pub(super) static PULL: Rule = Rule::t3("git.pull")
    .reason("pull merges remote changes into the current branch and work tree; git fetch first to look, then ask")
    .matches(words!["git pull", "git pull --rebase", "git pull origin main"])
    .not_matches(words!["git fetch origin", "git pull --dry-run", "git --work-tree=/srv/www pull"])
    .suggest("git fetch");

/// ## What it matches
/// `git filter-branch`, `git filter-repo`, `git replace <obj> <obj>`.
/// ## Why this tier
/// Rewrites every matching commit of the repository.
pub(super) static REWRITE: Rule = Rule::t3("git.history.rewrite")
    .reason("rewrites repository history wholesale; back the repository up and ask the user")
    .matches(words!["git filter-branch --tree-filter 'rm -f secrets.txt' HEAD", "git filter-repo --path secrets.txt --invert-paths", "git replace abc def"])
    .not_matches(words!["git replace -l", "git log"]);

/// ## What it matches
/// Plumbing that moves or deletes refs or their history: `git update-ref`,
/// `git symbolic-ref` writes, `git reflog expire|delete`.
/// ## Why this tier
/// Bypasses porcelain safety checks; an expired reflog removes the way back.
pub(super) static REFS: Rule = Rule::t3("git.refs.write")
    .reason("writes or deletes refs (or their reflog) directly; use git branch/tag commands and ask the user")
    .matches(words![
        "git update-ref -d refs/heads/main", "git reflog expire --expire=now --all", "git symbolic-ref HEAD refs/heads/x", "git fast-import --force < repo.fi",
    ])
    .not_matches(words!["git reflog", "git symbolic-ref HEAD", "git reflog show --date=iso"]);

/// ## What it matches
/// `git gc --prune=now|all` and `git prune`, which delete unreachable objects now.
/// ## Why this tier
/// Unreachable commits are the last copy of dropped work; pruning removes them.
pub(super) static PRUNE: Rule = Rule::t3("git.gc.prune")
    .reason("prunes unreachable objects now, removing the last copy of dropped commits; run plain git gc")
    .matches(words!["git gc --prune=now", "git prune", "git gc --prune=all"])
    .not_matches(words!["git gc", "git gc --aggressive", "git prune -n"])
    .suggest("git gc");

/// ## What it matches
/// git subcommands that act outside the repository: `send-email`, `svn dcommit`,
/// `p4 submit`, `daemon`, `instaweb`, `credential approve|reject|store|erase`,
/// `maintenance start|register`.
/// ## Why this tier
/// They send mail, publish commits elsewhere, start servers, store credentials or schedule jobs.
pub(super) static OUTSIDE: Rule = Rule::t3("git.outside-effect")
    .reason("this git subcommand sends, publishes, serves, stores credentials or schedules jobs outside the repository; ask the user")
    .matches(words![
        "git send-email --to=a@b.c HEAD~1", "git svn dcommit", "git daemon --export-all", "git maintenance start", "git p4 submit",
        "git credential approve < creds.txt",
    ])
    .not_matches(words!["git svn log", "git maintenance run"]);

/// ## What it matches
/// `git pull --dry-run` (git fetches in dry-run mode and stops before merging).
/// ## Why this tier
/// A simulation.
pub(super) static PULL_DRY_RUN: Rule = Rule::t2("git.pull.dry-run")
    .reason("dry run: shows what pull would fetch, merges nothing")
    .matches(words!["git pull --dry-run"])
    .not_matches(words!["git pull"]);

pub(super) fn check(call: &GitCall, cx: &mut Cx<'_>) {
    let inv = &call.inv;
    let first = inv.args.first().map(|a| a.text.as_str()).unwrap_or("");
    match call.sub.as_str() {
        "branch" => {
            // `-d -f` is `-D`; `-f` alone resets an existing branch.
            if inv.has_any(words!["-D", "-M", "-C", "-f", "--force"]) {
                cx.hit(&BRANCH_FORCE);
            } else {
                cx.hit(&LOCAL);
            }
        }
        "merge" => {
            if inv.has_any(words!["--abort", "--quit"]) {
                cx.hit(&LOCAL);
            } else {
                cx.hit(&MERGE);
            }
        }
        "rebase" => {
            if inv.has_any(words!["--abort", "--quit", "--show-current-patch"]) {
                cx.hit(&LOCAL);
                return;
            }
            cx.hit(&REBASE);
            // `-x CMD`, `-xCMD`, `--exec=CMD`: each runs after every commit.
            for t in Args::parse(&inv.args, ArgSpec::values(words!["-x", "--exec"])) {
                if let Token::Opt { value: Some(c), .. } = t {
                    cx.shell(c, call.cwd());
                }
            }
        }
        "pull" => {
            transport(call, cx);
            if inv.has_long("--dry-run") {
                cx.hit(&PULL_DRY_RUN);
            } else {
                cx.hit(&PULL);
            }
        }
        "filter-branch" | "filter-repo" => cx.hit(&REWRITE),
        "replace" => {
            let (ops, _) = split_operands(&inv.args, words!["--format"]);
            if inv.has_any(words!["-l", "--list"]) || (ops.is_empty() && !inv.has_any(words!["-d", "--delete", "--edit", "--graft", "--convert-graft-file"])) {
                cx.hit(&READ);
            } else {
                cx.hit(&REWRITE);
            }
        }
        "reflog" => {
            if matches!(first, "expire" | "delete") {
                cx.hit(&REFS);
            } else {
                cx.hit(&READ);
            }
        }
        "update-ref" => cx.hit(&REFS),
        "fast-import" => {
            if inv.has_long("--force") {
                cx.hit(&REFS);
            } else {
                cx.hit(&LOCAL);
            }
        }
        "symbolic-ref" => {
            let (ops, _) = split_operands(&inv.args, words!["-m"]);
            if ops.len() >= 2 || inv.has_any(words!["-d", "--delete"]) {
                cx.hit(&REFS);
            } else {
                cx.hit(&READ);
            }
        }
        "gc" => {
            let now = inv.option(words!["--prune"]).is_some_and(|v| matches!(v, "now" | "all"));
            if now {
                cx.hit(&PRUNE);
            } else {
                cx.hit(&LOCAL);
            }
        }
        "prune" => {
            if inv.has_any(words!["-n", "--dry-run"]) {
                cx.hit(&READ);
            } else {
                cx.hit(&PRUNE);
            }
        }
        "send-email" | "daemon" | "instaweb" => cx.hit(&OUTSIDE),
        "svn" => {
            if matches!(first, "dcommit" | "set-tree" | "branch" | "tag" | "commit-diff" | "propset" | "mkdirs") {
                cx.hit(&OUTSIDE);
            } else {
                cx.hit(&LOCAL);
            }
        }
        "p4" => {
            if first == "submit" {
                cx.hit(&OUTSIDE);
            } else {
                cx.hit(&LOCAL);
            }
        }
        "credential" => {
            if matches!(first, "approve" | "reject" | "store" | "erase") {
                cx.hit(&OUTSIDE);
            } else {
                cx.hit(&READ);
            }
        }
        _ => {
            // `maintenance`
            if matches!(first, "start" | "register" | "unregister" | "stop") {
                cx.hit(&OUTSIDE);
            } else {
                cx.hit(&LOCAL);
            }
        }
    }
}
