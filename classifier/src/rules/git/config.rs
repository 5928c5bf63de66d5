//! git subcommands with a read and a write side: `config`, `remote`, `tag`,
//! `worktree`, `submodule`, `lfs`.
//!
//! Reads are T0 (`git.config.read`, or `git.read`/`git.local`); writes are T3.

use super::globals::{is_exec_key, EXEC_CONFIG};
use super::local::{transport, LOCAL};
use super::read::READ;
use super::{split_operands, GitCall};
use crate::call::Arg;
use crate::rules::{Cx, Rule};
use crate::words;

/// ## What it matches
/// `git config` reads: `--get*`, `--list`/`-l`, a single key, `git config get|list`.
/// ## Why this tier
/// Prints configuration.
pub(super) static CONFIG_READ: Rule = Rule::t0("git.config.read")
    .reason("reads git configuration")
    .matches(words![
        "git config --get user.email", "git config --list", "git config user.email", "git config --global --list", "git config", "git config get user.name",
    ])
    .not_matches(words!["git config user.email a@b.c", "git config --unset user.email"]);

/// ## What it matches
/// `git config` writes: a key and a value, `--add`, `--replace-all`, `--unset*`,
/// `--remove-section`, `--rename-section`, `--edit`/`-e`, `git config set|unset|edit …`.
/// ## Why this tier
/// Changes how git behaves for this repository or (with `--global`) for every one.
pub(super) static CONFIG_WRITE: Rule = Rule::t3("git.config.write")
    .reason("changes git configuration; ask the user, or pass the setting for one command with git -c")
    .matches(words![
        "git config user.email someone@else.com", "git config --global init.defaultBranch main", "git config --unset user.email", "git config --edit",
        "git config set user.name x",
    ])
    .not_matches(words!["git config --get user.email", "git config -l"]);

/// ## What it matches
/// `git remote add|set-url|remove|rm|rename|set-head|set-branches|prune`.
/// ## Why this tier
/// Changes where fetches and pushes go.
pub(super) static REMOTE_WRITE: Rule = Rule::t3("git.remote.write")
    .reason("changes the repository's remotes (where fetch and push go); ask the user")
    .matches(words![
        "git remote add origin git@github.com:me/repo.git", "git remote set-url origin https://new.url", "git remote remove origin",
        "git remote rename origin upstream",
    ])
    .not_matches(words!["git remote -v", "git remote", "git remote show origin", "git remote get-url origin", "git remote prune -n origin"]);

/// ## What it matches
/// `git tag` that creates, deletes, forces, signs or annotates (`git tag v1`, `-a`, `-d`, `-f`, `-s`, `-m`).
/// ## Why this tier
/// Tags mark releases; release tooling and pushes pick them up.
pub(super) static TAG_WRITE: Rule = Rule::t3("git.tag.write")
    .reason("creates or deletes a tag, which release tooling and pushes pick up; ask the user")
    .matches(words!["git tag v1.2.3", "git tag -a v1.0 -m 'Release 1.0'", "git tag -d v1", "git tag --force v1", "git tag -m msg v1"])
    .not_matches(words!["git tag", "git tag -l 'v1.*'", "git tag --contains abc1234", "git tag -n5", "git tag -v v1.0", "git tag --sort=-v:refname"]);

/// ## What it matches
/// `git worktree add|move|remove`.
/// ## Why this tier
/// Creates or deletes a checkout outside the current tree (`remove` deletes its files).
pub(super) static WORKTREE_WRITE: Rule = Rule::t3("git.worktree.write")
    .reason("adds, moves or removes a linked work tree (remove deletes its files); ask the user")
    .matches(words!["git worktree add ../wt feature", "git worktree remove /tmp/wt", "git -p worktree remove /tmp/wt"])
    .not_matches(words!["git worktree list", "git worktree prune"]);

/// ## What it matches
/// `git submodule update|add|deinit|sync|set-url|set-branch|absorbgitdirs`.
/// ## Why this tier
/// Fetches other repositories and rewrites their checkouts (`deinit -f` drops their changes).
pub(super) static SUBMODULE_WRITE: Rule = Rule::t3("git.submodule.write")
    .reason("fetches or rewrites submodule checkouts; ask the user")
    .matches(words!["git submodule update --init --recursive --remote", "git submodule add https://x/r.git lib/r", "git submodule deinit -f lib"])
    .not_matches(words!["git submodule status", "git submodule", "git submodule summary"]);

/// ## What it matches
/// `git lfs push|install|uninstall|migrate|prune|lock|unlock`.
/// ## Why this tier
/// Uploads objects, installs hooks and global config, rewrites history or deletes local objects.
pub(super) static LFS_WRITE: Rule = Rule::t3("git.lfs.write")
    .reason("this git lfs command uploads, installs hooks, rewrites history or deletes objects; ask the user")
    .matches(words!["git lfs push origin main", "git lfs install", "git lfs migrate import --everything"])
    .not_matches(words!["git lfs ls-files", "git lfs status", "git lfs pull"]);

crate::table! {
    /// `git config` options that take a value (`--default` is not here: git accepts it
    /// only with `--get` or `git config get`, which read whatever follows).
    CONFIG_VALUES = ["-f", "--file", "--blob", "--type", "--comment", "--value"];
    probe "git config {} x core.pager" => T0, "git.config.read";
}

pub(super) fn config(call: &GitCall, cx: &mut Cx<'_>) {
    let inv = &call.inv;
    let (ops, _) = split_operands(&inv.args, CONFIG_VALUES);
    let verb = ops.first().map(|a| a.text.as_str()).unwrap_or("");
    // `git config <verb> …` (git 2.46+) vs the classic `git config <key> [value]`.
    let (write, key) = match verb {
        "get" | "list" => (false, None),
        "set" | "unset" | "rename-section" | "remove-section" | "edit" => (true, ops.get(1).copied()),
        _ => {
            let writes_flag =
                ["--add", "--replace-all", "--unset", "--unset-all", "--remove-section", "--rename-section", "--edit"].iter().any(|f| inv.has_long(f))
                    || inv.has_short('e');
            let reads_flag = inv.flags().any(|f| f.starts_with("--get") || f == "--list" || f == "-l");
            (!reads_flag && (writes_flag || ops.len() >= 2), ops.first().copied())
        }
    };
    if !write {
        cx.hit(&CONFIG_READ);
        return;
    }
    // The more specific reason first: of equal tiers the verdict names the first hit,
    // and "makes git run a program later" says more than "changes configuration".
    if let Some(k) = key {
        if is_exec_key(&k.text) {
            cx.hit_because(&EXEC_CONFIG, format!("`git config {}` makes git run a program later; ask the user", k.text));
        }
    }
    cx.hit(&CONFIG_WRITE);
    if let Some(file) = inv.option(words!["-f", "--file"]) {
        call.write(cx, &Arg::lit(file));
    }
}

pub(super) fn remote(call: &GitCall, cx: &mut Cx<'_>) {
    let (ops, _) = split_operands(&call.inv.args, words!["-t", "-m", "--push"]);
    let verb = ops.first().map(|a| a.text.as_str()).unwrap_or("");
    let dry = call.inv.has_any(words!["-n", "--dry-run"]);
    if verb == "prune" && dry {
        cx.hit(&READ);
    } else if dry && verb != "prune" && !verb.is_empty() && verb != "show" && verb != "update" {
        // Only `remote prune` has a dry run; git rejects the option elsewhere and runs nothing.
        cx.hit(&READ);
    } else if matches!(verb, "add" | "set-url" | "remove" | "rm" | "rename" | "set-head" | "set-branches" | "prune") {
        if verb == "add" || verb == "set-url" {
            transport(call, cx);
        }
        cx.hit(&REMOTE_WRITE);
    } else {
        cx.hit(&READ);
    }
}

pub(super) fn tag(call: &GitCall, cx: &mut Cx<'_>) {
    let inv = &call.inv;
    let writes = inv.has_any(words![
        "-a", "--annotate", "-s", "--sign", "-u", "--local-user", "-f", "--force", "-d", "--delete", "-m", "--message", "-F", "--file", "-e", "--edit",
    ]);
    let lists = inv.has_any(words!["-l", "--list", "-v", "--verify"]);
    let (ops, _) = split_operands(
        &inv.args,
        words![
            "-m", "--message", "-F", "--file", "-u", "--local-user", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "--sort",
            "--format", "--cleanup",
        ],
    );
    // `-n` takes its count packed (`-n5`); a bare `-n` may be followed by a pattern only in list mode.
    if writes || (!lists && !ops.is_empty() && !inv.has_short('n')) {
        cx.hit(&TAG_WRITE);
    } else {
        cx.hit(&READ);
    }
}

pub(super) fn worktree(call: &GitCall, cx: &mut Cx<'_>) {
    let verb = call.inv.arg(0).unwrap_or("");
    if matches!(verb, "add" | "move" | "remove") {
        cx.hit(&WORKTREE_WRITE);
    } else if verb == "list" {
        cx.hit(&READ);
    } else {
        cx.hit(&LOCAL);
    }
}

pub(super) fn submodule(call: &GitCall, cx: &mut Cx<'_>) {
    let inv = &call.inv;
    let (ops, _) = split_operands(&inv.args, words!["-b", "--branch", "--name", "--reference", "--depth", "-j", "--jobs"]);
    let verb = ops.first().map(|a| a.text.as_str()).unwrap_or("");
    match verb {
        "update" | "add" | "deinit" | "sync" | "set-url" | "set-branch" | "absorbgitdirs" => {
            transport(call, cx);
            cx.hit(&SUBMODULE_WRITE);
        }
        "foreach" => {
            cx.hit(&LOCAL);
            let pos = inv.args.iter().position(|a| a.text == "foreach").map_or(0, |p| p + 1);
            let rest: Vec<Arg> = inv.args[pos..].iter().filter(|a| a.text != "--recursive" && a.text != "--quiet").cloned().collect();
            if rest.len() == 1 {
                cx.shell(&rest[0].text, call.cwd());
            } else if !rest.is_empty() {
                cx.argv(&rest, call.cwd());
            }
        }
        "status" | "summary" | "" => cx.hit(&READ),
        _ => cx.hit(&LOCAL),
    }
}

pub(super) fn lfs(call: &GitCall, cx: &mut Cx<'_>) {
    let verb = call.inv.arg(0).unwrap_or("");
    if matches!(verb, "push" | "install" | "uninstall" | "migrate" | "prune" | "lock" | "unlock") {
        cx.hit(&LFS_WRITE);
    } else {
        cx.hit(&LOCAL);
    }
}

crate::tables![CONFIG_VALUES];
