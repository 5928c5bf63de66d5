//! git subcommands that can throw away uncommitted work: `reset --hard`,
//! `checkout <paths>`/`-f`, `restore` (work tree), `clean`, `stash drop|clear`,
//! `rm -f`. Their safe forms (`reset --soft`, `checkout main`, `restore --staged`,
//! `stash pop`) are local-safe (`git.local`).
//!
//! Uncommitted changes are in no reflog, so these are consent-gated (T3), not
//! blocked: the user may well want them.

use super::local::LOCAL;
use super::{check_protected_operands, split_operands, GitCall};
use crate::call::args::ArgSpec;
use crate::call::Arg;
use crate::rules::{Cx, Rule};
use crate::words;

/// ## What it matches
/// `git reset --hard`, `--keep`, `--merge`.
/// ## Why this tier
/// Discards uncommitted changes in the work tree; they are in no reflog.
pub(super) static RESET_HARD: Rule = Rule::t3("git.reset.hard")
    .reason("reset --hard throws away uncommitted changes; commit or stash them first, or use reset --soft")
    .matches(words!["git reset --hard", "git reset --hard origin/main", "git reset --keep HEAD~2", "sudo git reset --hard HEAD~1"])
    .not_matches(words![
        "git reset --soft HEAD~1", "git reset HEAD~1", "git reset -- file.txt", "git commit -m 'git reset --hard'",
        // A `--work-tree` outside the tree is a write there, which answers first.
        "git --work-tree=/srv/www reset --keep HEAD~1",
    ])
    .suggest("git stash");

/// ## What it matches
/// `git checkout` of paths (`.`, anything after `--`, a second operand, `--ours`/`--theirs`,
/// `-p`, a lone operand the tree holds or that tiergate cannot look up), `checkout -f`/`--force`,
/// `checkout -B`; `git switch -f`/`--discard-changes`/`-C` (a lone `git switch` operand is never a path).
/// ## Why this tier
/// Overwrites the work-tree copies of those paths; uncommitted edits are lost.
pub(super) static CHECKOUT_DISCARD: Rule = Rule::t3("git.checkout.discard")
    .reason("this checkout overwrites uncommitted changes in the work tree; stash them first (git stash) or switch branches without -f")
    .matches(words![
        "git checkout .", "git checkout -- file.txt", "git checkout -f main", "git checkout --force", "git checkout HEAD src/a.rs",
        "git switch --discard-changes main", "git checkout --theirs x.txt",
    ])
    .not_matches(words!["git checkout main", "git checkout -b new-branch", "git switch -c feature/login", "git checkout feature/login", "git checkout HEAD"])
    .suggest("git stash");

/// ## What it matches
/// `git restore <paths>` of the work tree (no `--staged`, or with `--worktree`).
/// ## Why this tier
/// Overwrites uncommitted edits of those files.
pub(super) static RESTORE_WORKTREE: Rule = Rule::t3("git.restore.worktree")
    .reason("restore overwrites uncommitted edits in the work tree; use restore --staged to unstage only")
    .matches(words!["git restore file.txt", "git restore .", "git restore --staged --worktree a.rs", "git restore -s HEAD~1 src/"])
    .not_matches(words!["git restore --staged file.txt", "git restore -S a.rs", "git --work-tree=/srv/www restore app.py"])
    .suggest("git restore --staged .");

/// ## What it matches
/// `git clean` that deletes (`-f`, `-d`, `-x`, `-i`, or bare).
/// ## Why this tier
/// Deletes untracked files, which git cannot bring back.
pub(super) static CLEAN: Rule = Rule::t3("git.clean")
    .reason("git clean deletes untracked files for good; run git clean -n first to see what would go")
    .matches(words!["git clean -fd", "git clean -fdx", "git clean", "git clean -f -d build/"])
    .not_matches(words!["git clean -n", "git clean --dry-run", "git --work-tree=/srv/www clean -fd"])
    .suggest("git clean -n");

/// ## What it matches
/// `git clean -n` / `--dry-run`.
/// ## Why this tier
/// A simulation: lists what would be deleted.
pub(super) static CLEAN_DRY_RUN: Rule = Rule::t2("git.clean.dry-run")
    .reason("dry run: lists the untracked files git clean would delete")
    .matches(words!["git clean -n", "git clean --dry-run", "git clean -fdn"])
    .not_matches(words!["git clean -fd"]);

/// ## What it matches
/// `git stash drop` and `git stash clear`.
/// ## Why this tier
/// A dropped stash is only reachable through `git fsck` for a while; usually lost.
pub(super) static STASH_DROP: Rule = Rule::t3("git.stash.drop")
    .reason("drops stashed work, which is then effectively lost; keep the stash or apply it first")
    .matches(words!["git stash drop", "git stash clear", "git stash drop stash@{0}"])
    .not_matches(words!["git stash", "git stash pop", "git stash list", "git stash push -m 'drop it'"])
    .suggest("git stash list");

/// ## What it matches
/// `git rm -f`/`--force` (removes files whose changes are not committed).
/// ## Why this tier
/// Plain `git rm` refuses to drop uncommitted changes, so it is recoverable from
/// HEAD; `-f` removes them for good.
pub(super) static RM_FORCE: Rule = Rule::t3("git.rm.force")
    .reason("git rm -f deletes files with uncommitted changes; commit or stash them, or use git rm --cached")
    .matches(words!["git rm -f notes.txt", "git rm -rf build"])
    .not_matches(words!["git rm --cached secrets.env", "git rm old.txt", "git rm -r --cached ."])
    .suggest("git rm --cached notes.txt");

pub(super) fn check(call: &GitCall, cx: &mut Cx<'_>) {
    let inv = &call.inv;
    match call.sub.as_str() {
        "reset" => {
            if inv.has_any(words!["--hard", "--keep", "--merge"]) {
                cx.hit(&RESET_HARD);
            } else {
                cx.hit(&LOCAL);
            }
        }
        "checkout" => checkout(call, cx),
        "switch" => {
            if inv.has_any(words!["-f", "--force", "--discard-changes", "-C", "--force-create"]) {
                cx.hit(&CHECKOUT_DISCARD);
            } else {
                cx.hit(&LOCAL);
            }
        }
        "restore" => {
            let (before, after) = split_operands(&inv.args, words!["-s", "--source", "--pathspec-from-file"]);
            let ops: Vec<&Arg> = before.into_iter().chain(after).collect();
            let staged = inv.has_any(words!["-S", "--staged"]);
            if !staged || inv.has_any(words!["-W", "--worktree"]) {
                // Only a work-tree restore rewrites the files themselves.
                check_protected_operands(call, cx, &ops);
                cx.hit(&RESTORE_WORKTREE);
            } else {
                cx.hit(&LOCAL);
            }
        }
        "clean" => {
            if inv.has_any(words!["-n", "--dry-run"]) {
                cx.hit(&CLEAN_DRY_RUN);
            } else {
                cx.hit(&CLEAN);
            }
        }
        "stash" => {
            let verb = inv.args.first().map(|a| a.text.as_str()).unwrap_or("");
            if matches!(verb, "drop" | "clear") {
                cx.hit(&STASH_DROP);
            } else {
                let (_, after) = split_operands(&inv.args, words!["-m", "--message", "--pathspec-from-file"]);
                check_protected_operands(call, cx, &after);
                cx.hit(&LOCAL);
            }
        }
        _ => {
            // `rm`
            let (before, after) = split_operands(&inv.args, words!["--pathspec-from-file"]);
            let ops: Vec<&Arg> = before.into_iter().chain(after).collect();
            check_protected_operands(call, cx, &ops);
            if inv.has_any(words!["-f", "--force"]) && !inv.has_long("--cached") {
                cx.hit(&RM_FORCE);
            } else {
                cx.hit(&LOCAL);
            }
        }
    }
}

crate::table! {
    VALUES = ["-b", "-B", "--orphan", "--pathspec-from-file"];
    probe "git checkout -f {} .claude/hooks/x" => T3, "git.checkout.discard";
}

fn checkout(call: &GitCall, cx: &mut Cx<'_>) {
    let inv = &call.inv;
    let (before, after) = split_operands(&inv.args, VALUES);
    let all: Vec<&Arg> = before.iter().chain(after.iter()).copied().collect();
    check_protected_operands(call, cx, &all);
    if inv.has_any(words!["--ours", "--theirs"]) {
        // Decision 0014: one side's whole version, over whatever the work tree holds.
        return cx.hit_because(
            &CHECKOUT_DISCARD,
            "--ours/--theirs takes one side's whole version of these paths: on a path not in conflict it discards uncommitted edits, in a conflict it \
             overwrites the resolution typed so far and drops the other side's changes to it; ask the user which side to keep"
                .to_owned(),
        );
    }
    let dashdash = crate::call::dashdash(&inv.args, ArgSpec::values(VALUES)).is_some();
    let paths = dashdash
        || before.len() > 1
        || before.iter().any(|a| a.text == "." || a.text.ends_with("/.") || a.text == "*" || !a.exact)
        || inv.has_any(words!["-p", "--patch", "--pathspec-from-file", "-m", "--merge"]);
    if paths || inv.has_any(words!["-f", "--force", "-B"]) {
        return cx.hit(&CHECKOUT_DISCARD);
    }
    // `git checkout X`: a path checkout when X is not a revision (decision 0014). Git
    // reads refs, tiergate reads the tree: X there is a path whose edits are overwritten.
    let branch_only = inv.has_any(words!["-b", "--orphan", "--detach", "-t", "--track"]);
    match before.first().filter(|a| !branch_only && a.text != "-") {
        Some(x) => match cx.exists(&x.text, call.cwd()) {
            Some(false) => cx.hit(&LOCAL),
            Some(true) => cx.hit_because(
                &CHECKOUT_DISCARD,
                format!("`{}` is a path in the tree: this checkout overwrites its uncommitted edits; stash them first (git stash) or name a branch", x.text),
            ),
            None => cx.hit_because(
                &CHECKOUT_DISCARD,
                format!(
                    "tiergate cannot tell whether `{}` is a branch or a path (whose uncommitted edits this checkout would overwrite); use git switch for a branch",
                    x.text
                ),
            ),
        },
        None => cx.hit(&LOCAL),
    }
}

crate::tables![VALUES];
