//! The git family: read-only and local-safe subcommands, work-tree discards,
//! history rewrites, pushes, config/remote/tag writes and exec-config globals,
//! through wrappers, quoting and shell payloads.

use crate::check::{check, check_with, verdict};
use classifier::MemFiles;

#[test]
fn reading_subcommands_are_free() {
    for cmd in [
        "git status", "git log --oneline -n 20 --format='%h %s'", "git diff --stat HEAD~1", "git show HEAD:README.md", "git blame -L 10,20 src/main.rs",
        "git rev-parse --abbrev-ref HEAD", "git ls-files", "git reflog show --date=iso", "git for-each-ref refs/heads", "git cat-file -p HEAD",
        "git describe --tags", "git --no-pager log -5", "git -P status", "git -C repo log --oneline", "git remote -v", "git config --get remote.origin.url",
        "git tag -l 'v1.*'", "git worktree list", "git submodule status", "git stash list", "git log --output=out/log.txt",
    ] {
        check(cmd, "T0");
    }
}

#[test]
fn local_safe_subcommands_are_free() {
    for cmd in [
        "git add -A", "git commit --amend --no-edit", "git checkout -b new-branch", "git checkout feature/login", "git switch -c feature/login",
        "git branch -d merged", "git branch -m old new", "git stash", "git stash pop", "git restore --staged file.txt", "git reset --soft HEAD~1",
        "git cherry-pick abc123", "git revert HEAD", "git fetch --prune origin", "git clone https://github.com/o/r.git", "git mv old.py new.py",
        "git rm --cached secrets.env", "git merge --abort", "git rebase --abort", "git gc", "git init",
    ] {
        check(cmd, "T0");
    }
}

#[test]
fn commit_messages_are_data() {
    check("git commit -m 'rm -rf / && git push --force'", "T0");
    check("git commit -am \"chore: drop table users from fixtures\"", "T0");
    check("git commit -F - <<'EOF'\nfix: kubectl delete namespace prod\nEOF", "T0");
    check("git log --grep='push --force'", "T0");
    check("git grep -n 'rm -rf /'", "T0");
    // A substitution in an unquoted heredoc does run.
    check("git commit -F - <<EOF\n$(rm -rf /)\nEOF", "BLOCKED");
}

#[test]
fn work_tree_discards_ask() {
    for cmd in [
        "git reset --hard", "git reset --hard origin/main", "git checkout .", "git checkout -- file.txt", "git checkout -f main", "git checkout HEAD src/a.rs",
        "git switch --discard-changes main", "git restore src/", "git clean -fdx", "git clean", "git stash drop", "git stash clear", "git rm -f notes.txt",
    ] {
        check(cmd, "T3");
    }
    check("git clean -n", "T2");
    check("git clean --dry-run", "T2");
}

#[test]
fn history_and_ref_rewrites_ask() {
    for cmd in [
        "git branch -D feature", "git branch -f main HEAD~3", "git merge feature-x", "git rebase -i HEAD~3", "git rebase --continue", "git pull --rebase",
        "git filter-branch --tree-filter 'rm -f secrets.txt' HEAD", "git reflog expire --expire=now --all", "git update-ref -d refs/heads/main",
        "git gc --prune=now", "git send-email --to=a@b.c HEAD~1",
    ] {
        check(cmd, "T3");
    }
}

#[test]
fn rebase_exec_payload_is_classified() {
    check("git rebase -x 'cargo test' main", "T3");
    check("git rebase --exec 'rm -rf /' main", "BLOCKED");
    check("git bisect run rm -rf /", "BLOCKED");
    check("git bisect run grep -q fixed src/lib.rs", "T0");
}

#[test]
fn pushes_ask_and_force_pushes_are_blocked() {
    check("git push", "T3");
    check("git push -u origin HEAD", "T3");
    check("git push --force-with-lease origin main", "T3");
    check("git push --delete origin old", "T3");
    check("git push origin :old", "T3");
    check("git push --dry-run", "T2");
    check("git push -n origin main", "T2");
    for cmd in [
        "git push --force", "git push -f origin main", "git push -fu origin main", "git push origin +main", "git push origin +HEAD:main", "git push --mirror",
        "git -C app push -f", "git -c color.ui=never push --force", "sudo git push --force", "/usr/bin/git push -f", "env GIT_TRACE=1 git push -f",
        "timeout 30 git push --force origin main", "bash -c 'git push --force'", "g''it push -f", "git push \"--force\"",
        "git push origin main && git push -f",
    ] {
        check(cmd, "BLOCKED");
    }
}

#[test]
fn force_push_suggestion_is_approvable() {
    let v = verdict("git push -f origin main");
    assert_eq!(v.rule, "git.push.force");
    assert!(v.reason.contains("--force-with-lease"), "{}", v.reason);
}

#[test]
fn config_remote_and_tag_writes_ask() {
    check("git config user.email someone@else.com", "T3");
    check("git config --global core.editor vim", "T3");
    check("git config --unset user.email", "T3");
    check("git config user.email", "T0");
    check("git config --list", "T0");
    check("git remote add upstream https://github.com/x/y", "T3");
    check("git remote set-url origin git@github.com:o/r.git", "T3");
    check("git remote show origin", "T0");
    check("git tag v1.2.3", "T3");
    check("git tag -d v1", "T3");
    check("git tag", "T0");
    check("git tag -n5", "T0");
    check("git worktree add ../wt feature", "T3");
    check("git submodule update --init --recursive", "T3");
}

#[test]
fn exec_config_globals_ask() {
    check("git -c core.hooksPath=/tmp/evil commit -m x", "T3");
    check("git -c core.pager='sh -c id' log", "T3");
    check("git -c core.sshCommand='ssh -i k' fetch", "T3");
    check("git -c filter.lfs.smudge=x checkout main", "T3");
    check("git --exec-path=/tmp/bin status", "T3");
    check("git -c user.name=bot commit -m x", "T0");
    // A shell alias body is what runs.
    check("git -c alias.st='!rm -rf ~' st", "BLOCKED");
    check("git -c alias.st='!git status' st", "T3");
    check("git fetch --upload-pack='touch /tmp/x' origin", "T3");
    check("git clone 'ext::sh -c touch% /tmp/pwned' d", "T3");
}

#[test]
fn help_is_free_but_not_a_bypass() {
    check("git push --help", "T0");
    check("git reset -h", "T0");
    check("git --help push", "T0");
    check("git --help push origin main", "T3");
    check("git -p push origin main", "T3");
}

#[test]
fn output_files_are_writes() {
    check("git diff --output=/home/user/.bashrc", "T3");
    check("git log --output=/etc/motd", "T3");
    check("git format-patch -o patches/ HEAD~3", "T0");
    check("git archive -o /usr/local/x.tar HEAD", "T3");
    check("git diff --output=.claude/settings.json", "BLOCKED");
}

#[test]
fn protected_paths_are_blocked_through_git() {
    check("git mv a.py .claude/hooks/a.py", "BLOCKED");
    check("git mv .claude/hooks/guard.py x.py", "BLOCKED");
    check("git checkout other -- .claude/settings.json", "BLOCKED");
    check("git restore .claude/hooks/pre.sh", "BLOCKED");
    check("git rm .claude/settings.local.json", "BLOCKED");
    check("git clone https://x/r.git .claude/hooks", "BLOCKED");
    check("git show HEAD:.claude/settings.json", "T0");
    check("git diff .claude/settings.json", "T0");
}

#[test]
fn patches_are_judged_by_what_they_write() {
    let good = "diff --git a/src/a.rs b/src/a.rs\n--- a/src/a.rs\n+++ b/src/a.rs\n@@ -1 +1 @@\n-a\n+b\n";
    let evil = "--- a/.claude/settings.json\n+++ b/.claude/settings.json\n@@ -1 +1 @@\n-{}\n+{\"x\":1}\n";
    let del = "--- a/src/a.rs\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n";
    let files = MemFiles::new().with("/work/proj/good.patch", good).with("/work/proj/evil.patch", evil).with("/work/proj/del.patch", del);
    check_with("git apply good.patch", &files, "T0");
    check_with("git am < good.patch", &files, "T0");
    check_with("git apply evil.patch", &files, "BLOCKED");
    check_with("git apply del.patch", &files, "T3");
    check_with("git apply missing.patch", &files, "T3");
    check_with("git apply --check evil.patch", &files, "T0");
    check_with("git apply --cached del.patch", &files, "T0");
    check_with("patch -p1 < good.patch", &files, "T0");
    check_with("patch -p1 < evil.patch", &files, "BLOCKED");
}

#[test]
fn work_tree_elsewhere_is_a_write_there() {
    check("git --work-tree=/etc checkout .", "T3");
    check("git --work-tree=/etc reset --hard", "T3");
    check("git --work-tree=. status", "T0");
}

#[test]
fn unknown_subcommands_follow_their_verb() {
    check("git st", "T0");
    check("git publish", "T3");
    check("git $SUB", "T3");
    check("git --frobnicate status", "T3");
}

#[test]
fn push_plumbing_is_a_push() {
    check("git send-pack origin main", "T3");
    check("git send-pack --force origin main", "BLOCKED");
    check("git http-push https://x/r.git +main", "BLOCKED");
    check("git fast-import --force < stream", "T3");
    check("git archive --exec='rm x' --remote=origin HEAD", "T3");
}

#[test]
fn dash_c_moves_where_writes_land() {
    check("git -C /etc diff --output=motd", "T3");
    check("git -C sub diff --output=out.txt", "T0");
    check("git -C /tmp/other clone https://x/r.git .claude/hooks", "BLOCKED");
}

#[test]
fn unstaging_a_protected_file_is_not_a_write() {
    check("git restore --staged .claude/settings.json", "T0");
    check("git restore .claude/settings.json", "BLOCKED");
    check("git add .claude/settings.json", "T0");
}

#[test]
fn cloning_into_a_claude_dir_is_blocked() {
    check("git clone https://x/cfg.git ~/.claude", "BLOCKED");
    check("git clone https://x/cfg.git .claude/", "BLOCKED");
    check("git clone https://x/cfg.git vendor/cfg", "T0");
}

/// Issue 27 item 4 (decision 0014): a lone `git checkout` operand the tree holds is
/// a path, whose edits the checkout overwrites; a name the tree lacks is a branch.
#[test]
fn a_lone_checkout_operand_the_tree_holds_is_a_path() {
    let tree = MemFiles::new().with("/work/proj/src/app.py", "x = 1\n").with("/work/proj/bun.lock", "{}\n");
    for cmd in [
        "git checkout src/app.py", "git checkout bun.lock", "git checkout src", "git checkout ./src/app.py", "cd src && git checkout app.py",
        "git -C src checkout app.py", "sudo git checkout src/app.py", "git checkout --theirs bun.lock", "git checkout --ours -- src/app.py",
    ] {
        check_with(cmd, &tree, "T3");
        assert_eq!(crate::check::verdict_with(cmd, &tree).rule, "git.checkout.discard", "{cmd}");
    }
    for cmd in
        ["git checkout main", "git checkout feature/login", "git checkout -", "git checkout -b src/app.py", "git switch src/app.py", "git checkout HEAD~1"]
    {
        check_with(cmd, &tree, "T0");
    }
    // With no file source to ask, a lone operand could be either: ask.
    let blind = classifier::classify(&crate::check::request("git checkout main"));
    assert_eq!((blind.rule, blind.decision.as_str()), ("git.checkout.discard", "ask"));
}

/// A git write in a directory outside the request's working tree is a write there.
#[test]
fn git_writes_in_another_tree_ask() {
    for cmd in ["cd /srv/other && git commit -am wip", "git -C ../other commit -am wip", "cd .. && git add -A", "cd /opt/app; git stash"] {
        check(cmd, "T3");
    }
    for cmd in ["cd src && git commit -am wip", "git -C sub commit -m x", "cd /tmp/x && git commit -am wip", "cd /srv/other && git log", "git commit -am wip"] {
        check(cmd, "T0");
    }
}
