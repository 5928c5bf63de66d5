//! Local-safe git subcommands: they change only the repository the agent works
//! in, recoverably (`add commit mv notes bisect cherry-pick revert init clone
//! fetch …`), plus patches (`apply`, `am`) and the options of fetch/clone that
//! run programs or force-update refs.
//!
//! Destructive forms of these live in `discard.rs` and `history.rs`.

use super::{check_protected_operands, globals, split_operands, GitCall};
use crate::call::args::{ArgSpec, Args, Token};
use crate::call::{value_arg, Arg};
use crate::rules::vocab::input::{self, Source};
use crate::rules::vocab::patch::{patch_targets, PatchScan};
use crate::rules::vocab::writes;
use crate::rules::{Cx, FileText, Rule};
use crate::words;

/// ## What it matches
/// `git mv -f`/`--force` (overwrites an existing destination).
/// ## Why this tier
/// The overwritten destination's uncommitted changes are lost.
pub(super) static MV_FORCE: Rule = Rule::t3("git.mv.force")
    .reason("git mv -f overwrites the destination, losing its uncommitted changes; move without -f")
    .matches(words!["git mv -f src existing_dst"])
    .not_matches(words!["git mv old.py new.py"])
    .suggest("git mv src existing_dst");

crate::table! {
    /// Subcommands that rewrite files in the work tree (a `--work-tree` elsewhere is a write there).
    pub(super) WRITES_WORKTREE = [
        "checkout", "switch", "reset", "restore", "merge", "pull", "stash", "clean", "apply", "am", "cherry-pick", "revert", "rebase", "mv", "rm", "read-tree",
        "checkout-index",
    ];
    probe "git --work-tree=/srv/www {}" => T3, "paths.write-system";
}

/// ## What it matches
/// Subcommands that change only the local repository, recoverably: `add commit
/// (--amend too) mv notes bisect cherry-pick revert init clone fetch sparse-checkout
/// mergetool rerere update-index repack …`.
/// ## Why this tier
/// The original's local-safe set: history stays in the reflog and nothing leaves
/// the machine; commit messages are data (`git commit -m 'rm -rf /'`).
pub(super) static LOCAL: Rule = Rule::t0("git.local")
    .reason("git subcommand that changes only the local repository, recoverably")
    .matches(words![
        "git add -A",
        "git commit -m 'rm -rf / drop database'",
        "git commit --amend --no-edit",
        "git mv old.py new.py",
        "git cherry-pick abc123",
        "git fetch --prune origin",
        "git clone https://github.com/rust-lang/rust-analyzer.git",
        "git init",
        "git init sub --separate-git-dir=.repos/sub",
        "git -C sub/path commit -m \"update config\"",
        "git commit -F - <<'EOF'\nfix: stop kubectl delete namespace in CI\n\nWe used to run rm -rf / in a test.\nEOF",
        // One per site that answers git.local (config.rs, discard.rs, history.rs, this file).
        "git worktree prune",
        "git submodule foreach git status",
        "git submodule init",
        "git lfs pull",
        "git reset HEAD~1",
        "git switch main",
        "git restore --staged app.py",
        "git stash",
        "git rm old.txt",
        "git checkout main",
        "git branch feature",
        "git merge --abort",
        "git rebase --abort",
        "git fast-import --quiet < repo.fi",
        "git gc",
        "git svn fetch",
        "git p4 sync",
        "git maintenance run",
        "git bisect start",
        "git merge-file -p ours.txt base.txt theirs.txt",
        "git am --abort",
        "git apply <<'EOF'\n--- a/src/app.py\n+++ b/src/app.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\nEOF",
    ])
    .not_matches(words![
        "git push", "git mv a.py .claude/hooks/a.py", "git fetch --force", "git init /etc/app", "git -C /etc/app init",
        // A write in another working tree (decision 0014).
        "git -C /some/path commit -m \"update config\"", "cd ../other && git commit -am wip", "git init --separate-git-dir ~/.config/x",
        "git clone --separate-git-dir=/etc/x https://x/r.git d", "git fast-export --export-marks=/etc/marks --all",
    ]);

/// ## What it matches
/// `git apply` / `git am` whose patch tiergate cannot read, or that deletes files.
/// A readable patch is judged file by file as writes (free inside the tree,
/// blocked into `.claude/hooks`).
/// ## Why this tier
/// Without the patch text, what it writes (and where) is unknown.
pub(super) static PATCH: Rule = Rule::t3("git.patch")
    .reason("applies a patch tiergate cannot read (or that deletes files); show the patch first or apply it with a visible file")
    .matches(words![
        "git apply --reject fix.patch",
        "git am < patch.mbox",
        "cat fix.diff | git apply",
        "git apply <<'EOF'\ndiff --git a/old.txt b/old.txt\ndeleted file mode 100644\n--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\nEOF",
        "git apply <<'EOF'\nnot a patch at all\nEOF",
    ])
    // With `--work-tree` outside the tree, that write answers first (`WRITES_WORKTREE`).
    .not_matches(words!["git apply --check fix.patch", "git am --abort", "git --work-tree=/srv/www apply fix.patch", "git --work-tree=/srv/www am fix.patch"]);

/// ## What it matches
/// `git fetch --force`/`-f`, or a forced refspec into a local branch (`+main:main`).
/// ## Why this tier
/// Overwrites local branches with whatever the remote has; local commits can vanish.
pub(super) static FETCH_FORCE: Rule = Rule::t3("git.fetch.force")
    .reason("forced fetch can overwrite local branches; fetch without --force and merge explicitly")
    .matches(words!["git fetch --force", "git fetch --prune --force", "git fetch origin +main:main"])
    .not_matches(words!["git fetch --prune", "git fetch origin +refs/heads/*:refs/remotes/origin/*"])
    .suggest("git fetch --prune");

/// ## What it matches
/// `git clone --template=DIR` or `git init --template=DIR` (copies hooks that then run), or `clone -c` with an exec key.
/// ## Why this tier
/// The new repository's hooks run on the next git command.
pub(super) static CLONE_EXEC: Rule = Rule::t3("git.clone.template")
    .reason("clone --template installs hooks from that directory, and they run on later git commands; clone without it")
    .matches(words!["git clone --template=/tmp/t https://x/r.git", "git clone --template /tmp/t https://x/r.git", "git init --template=/tmp/t"])
    .not_matches(words!["git clone https://x/r.git", "git init"]);

/// ## What it matches
/// Options that run a program in place of git's transport helpers:
/// `--upload-pack`, `-u`, `--receive-pack`, `--exec`, and `ext::` URLs.
/// ## Why this tier
/// The named command runs locally (or on the remote) with the user's rights.
pub(super) static REMOTE_CMD: Rule = Rule::t3("git.transport.command")
    .reason("this git option or ext:: URL runs an arbitrary command as the transport; use a plain URL")
    .matches(words!["git fetch --upload-pack='touch x' origin", "git clone 'ext::sh -c touch% /tmp/p' d", "git ls-remote --upload-pack=evil origin"])
    .not_matches(words!["git clone https://x/r.git", "git ls-remote origin"]);

crate::table! {
    /// Subcommands answered here (mostly `git.local`; `apply`/`am` read their patch, `cherry`/`ls-remote` are reads):
    /// every one has its transport options checked, which an unknown subcommand does not.
    LOCAL_SUBS = [
        "add", "stage", "commit", "mv", "notes", "bisect", "cherry-pick", "revert", "init", "clone", "fetch", "sparse-checkout", "mergetool", "rerere",
        "update-index", "repack", "pack-refs", "prune-packed", "commit-tree", "write-tree", "read-tree", "checkout-index", "merge-file", "mktree", "mktag",
        "unpack-objects", "index-pack", "pack-objects", "apply", "am", "citool", "gui", "gitk", "hook", "multi-pack-index", "commit-graph", "fast-export",
        "cherry", "ls-remote", "merge-index", "merge-one-file", "backfill", "scalar",
    ];
    probe "git {} --upload-pack=x" => T3, "git.transport.command";
}

/// Handles local subcommands; false when `sub` is not one.
pub(super) fn check(call: &GitCall, cx: &mut Cx<'_>) -> bool {
    let sub = call.sub.as_str();
    if !LOCAL_SUBS.contains(sub) {
        return false;
    }
    transport(call, cx);
    match sub {
        "apply" | "am" => patch(call, cx),
        "clone" => clone(call, cx),
        "init" => init(call, cx),
        "fetch" => fetch(call, cx),
        "mv" => {
            let (before, after) = split_operands(&call.inv.args, words![]);
            let all: Vec<&Arg> = before.into_iter().chain(after).collect();
            check_protected_operands(call, cx, &all);
            if call.inv.has_any(words!["-f", "--force"]) {
                cx.hit(&MV_FORCE);
            } else {
                cx.hit(&LOCAL);
            }
        }
        "bisect" => {
            cx.hit(&LOCAL);
            if call.inv.arg(0) == Some("run") && call.inv.args.len() > 1 {
                cx.argv(&call.inv.args[1..], call.cwd());
            }
        }
        "merge-file" => {
            let (ops, _) = split_operands(&call.inv.args, words!["-L"]);
            if !call.inv.has_any(words!["-p", "--stdout"]) {
                if let Some(cur) = ops.first() {
                    call.write(cx, cur);
                }
            }
            cx.hit(&LOCAL);
        }
        "ls-remote" | "cherry" => cx.hit(&super::read::READ),
        // `--export-marks=FILE` writes the marks file (`fast-import` is history.rs's).
        "fast-export" => {
            cx.hit(&LOCAL);
            for t in Args::parse(&call.inv.args, ArgSpec::values(words!["--export-marks"])) {
                if let Token::Opt { index, name: "--export-marks", value: Some(v) } = t {
                    call.write(cx, &value_arg(&call.inv.args, index, v));
                }
            }
        }
        _ => cx.hit(&LOCAL),
    }
    true
}

/// `--upload-pack`/`--receive-pack`/`--exec` and `ext::` URLs on any transport subcommand.
pub(super) fn transport(call: &GitCall, cx: &mut Cx<'_>) {
    let inv = &call.inv;
    let named = inv.has_any(words!["--upload-pack", "--receive-pack", "--exec"])
        || (call.sub == "clone" && Args::parse(&inv.args, ArgSpec::values(words!["-u", "--upload-pack"])).has(&["-u"]));
    let ext = inv.words().any(|w| w.starts_with("ext::"));
    if named || ext {
        cx.hit(&REMOTE_CMD);
    }
}

crate::table! {
    CLONE_VALUES = [
        "-o", "--origin", "-b", "--branch", "-u", "--upload-pack", "--reference", "--reference-if-able", "--separate-git-dir", "--depth", "--shallow-since",
        "--shallow-exclude", "-c", "--config", "--server-option", "--filter", "--template", "-j", "--jobs", "--bundle-uri", "--ref-format",
    ];
    probe "git clone {} x https://h.example/r.git .claude" => Blocked, "paths.claude-hooks";
}

fn clone(call: &GitCall, cx: &mut Cx<'_>) {
    let inv = &call.inv;
    cx.hit(&LOCAL);
    if inv.has_long("--template") {
        cx.hit(&CLONE_EXEC);
    }
    // `-c NAME=VALUE`, `-cNAME=VALUE`, `--config=NAME=VALUE`: every one is checked.
    for t in Args::parse(&inv.args, ArgSpec::values(words!["-c", "--config"])) {
        if let Token::Opt { index, value: Some(v), .. } = t {
            globals::check_setting(&value_arg(&inv.args, index, v), cx, call.cwd());
        }
    }
    separate_git_dir(call, cx);
    let (before, after) = split_operands(&inv.args, CLONE_VALUES);
    let ops: Vec<&Arg> = before.into_iter().chain(after).collect();
    if let Some(dest) = ops.get(1) {
        call.write(cx, dest);
        // A clone into a `.claude` directory writes its hooks and settings.
        if crate::call::basename(dest.text.trim_end_matches('/')) == ".claude" {
            writes::replaces_guard(cx, &format!("`git clone` into `{}`", dest.text));
        }
    }
}

/// `--separate-git-dir DIR` (clone, init): the repository itself is written at DIR.
fn separate_git_dir(call: &GitCall, cx: &mut Cx<'_>) {
    let inv = &call.inv;
    for t in Args::parse(&inv.args, ArgSpec::values(words!["--separate-git-dir"])) {
        if let Token::Opt { index, name: "--separate-git-dir", value: Some(v) } = t {
            call.write(cx, &value_arg(&inv.args, index, v));
        }
    }
}

/// `git init [DIR]`: creates DIR (and its `.git`), copying hooks from `--template`.
fn init(call: &GitCall, cx: &mut Cx<'_>) {
    let inv = &call.inv;
    cx.hit(&LOCAL);
    if inv.has_long("--template") {
        cx.hit_because(&CLONE_EXEC, "init --template installs hooks from that directory, and they run on later git commands; init without it".to_owned());
    }
    separate_git_dir(call, cx);
    let (before, after) = split_operands(&inv.args, words!["--template", "--separate-git-dir", "-b", "--initial-branch", "--object-format", "--ref-format"]);
    // No operand: the directory git works in (`git -C /etc init`).
    let dir = before.into_iter().chain(after).next().cloned().unwrap_or_else(|| Arg::lit("."));
    call.write(cx, &dir);
}

fn fetch(call: &GitCall, cx: &mut Cx<'_>) {
    let inv = &call.inv;
    cx.hit(&LOCAL);
    let (ops, _) = split_operands(
        &inv.args,
        words![
            "--depth", "--deepen", "--shallow-since", "--shallow-exclude", "-j", "--jobs", "--upload-pack", "-o", "--server-option", "--negotiation-tip",
            "--refmap", "--recurse-submodules-default",
        ],
    );
    let forced_local = ops.iter().skip(1).any(|r| {
        r.text.strip_prefix('+').is_some_and(|spec| {
            let dst = spec.split_once(':').map(|(_, d)| d).unwrap_or("");
            !dst.is_empty() && !dst.starts_with("refs/remotes/") && !dst.starts_with("refs/tags/")
        })
    });
    if inv.has_any(words!["-f", "--force"]) || forced_local {
        cx.hit(&FETCH_FORCE);
    }
}

/// Patch text to scan: the operand files, else stdin.
fn patch(call: &GitCall, cx: &mut Cx<'_>) {
    let inv = &call.inv;
    let sub = call.sub.as_str();
    if sub == "am" && inv.has_any(words!["--abort", "--skip", "--quit", "--show-current-patch", "--continue", "--resolved", "-r"]) {
        cx.hit(&LOCAL);
        return;
    }
    let report_only = ["--check", "--stat", "--numstat", "--summary"].iter().any(|f| inv.has_long(f)) && !inv.has_long("--apply");
    if sub == "apply" && report_only {
        cx.hit(&super::read::READ);
        return;
    }
    let (ops, after) = split_operands(&inv.args, words!["-p", "-C", "--exclude", "--include", "--directory", "--whitespace", "-S", "--patch-format"]);
    let files: Vec<&Arg> = ops.into_iter().chain(after).collect();
    let strip = inv.option(words!["-p"]).and_then(|v| v.parse::<usize>().ok()).unwrap_or(1);
    let dir = inv.option(words!["--directory"]).map(str::to_owned);
    let mut texts = Vec::new();
    if files.is_empty() {
        // `git apply < x.patch` reads the file from where git runs (`-C`).
        texts.push(match input::of(inv) {
            Source::Shown { text, .. } => Some(text.to_owned()),
            Source::File(f) => read_text(cx, f, call.cwd()),
            Source::None | Source::Pipe => None,
        });
    } else {
        for f in &files {
            texts.push(if f.exact && f.text != "-" { read_text(cx, &f.text, call.cwd()) } else { None });
        }
    }
    let only_index = sub == "apply" && inv.has_long("--cached") && !inv.has_long("--index");
    cx.hit(&LOCAL);
    for t in texts {
        let Some(text) = t else {
            cx.hit(&PATCH);
            continue;
        };
        match patch_targets(&text, strip) {
            PatchScan::Targets { writes, deletes } => {
                if deletes && !only_index {
                    cx.hit_because(&PATCH, "the patch deletes files; review it and ask the user".to_owned());
                }
                if only_index {
                    continue;
                }
                for w in writes {
                    let path = match &dir {
                        Some(d) => format!("{d}/{w}"),
                        None => w,
                    };
                    call.write(cx, &Arg::lit(&path));
                }
            }
            PatchScan::Unknown => cx.hit(&PATCH),
        }
    }
}

fn read_text(cx: &mut Cx<'_>, path: &str, cwd: Option<&str>) -> Option<String> {
    match cx.read(path, cwd) {
        FileText::Text(t) => Some(t),
        FileText::Missing | FileText::Unusable(_) => None,
    }
}

crate::tables![WRITES_WORKTREE, LOCAL_SUBS, CLONE_VALUES];
