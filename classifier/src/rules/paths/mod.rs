//! Where a write lands: the working tree (free: authoring is not mutation), a
//! system path, a dot-file in the home directory, git internals, another tree, or
//! a protected path (blocked). Which paths are protected is decided once, in
//! `crate::protect` (the table there); this module only turns its answer into hits.
//!
//! It is the write pass's policy: families say what a program writes through
//! the vocabulary (`rules::vocab::writes::check_write`: `cp`, `tee`, `sed -i`,
//! `dd of=`, output flags), the engine for redirections; this module does not know
//! which programs write.

use crate::lanes::resolve;
use crate::protect::{Guard, Protected, Protection};
use crate::rules::{Family, Rule};
use crate::words;

pub static FAMILY: Family = Family::new("paths", &[], RULES);

static RULES: &[&Rule] = &[
    &CLAUDE_HOOKS, &CLAUDE_SETTINGS, &CLAUDE_USER_CONFIG, &TIERGATE_CONFIG, &TIERGATE_STORE, &TIERGATE_BINARY, &PROTECTED, &EXTRACT_PROTECTED, &DEVICE,
    &SYSTEM, &DOTFILE, &GIT_INTERNALS, &OUTSIDE, &UNRESOLVED,
];

/// ## What it matches
/// Any write into a `hooks` directory under `.claude/` (except Markdown), by redirect, copy, move, tee, sed -i, git …
/// ## Why this tier
/// The hooks are the guard itself; an agent that rewrites them disables every check.
pub static CLAUDE_HOOKS: Rule = Rule::blocked("paths.claude-hooks")
    .reason("writes into .claude/hooks, which holds the guard itself; ask the user to edit hooks by hand")
    .matches(words![
        "cp payload.py .claude/hooks/pre_tool_use.py", "echo x > .claude/hooks/h.sh", "sudo tee .claude/hooks/x.py", "echo x > .claude/agents/hooks/x.sh",
    ])
    .not_matches(words!["cat .claude/hooks/h.sh", "echo x > .claude/hooks/README.md", "echo x > notes/hooks/x.sh"]);

/// ## What it matches
/// Any write to a `.claude/**/settings*.json` file.
/// ## Why this tier
/// Settings decide which hooks run and what is pre-approved; an agent must not grant itself permissions.
pub static CLAUDE_SETTINGS: Rule = Rule::blocked("paths.claude-settings")
    .reason("writes Claude Code settings, which control hooks and permissions; ask the user to change settings by hand")
    .matches(words!["echo {} > .claude/settings.json", "cp x .claude/settings.local.json", "mv a ~/.claude/settings.json"])
    .not_matches(words!["cat .claude/settings.json", "echo x > settings.json"]);

/// ## What it matches
/// Any write to a file named `.claude.json` (`~/.claude.json`).
/// ## Why this tier
/// Claude Code's user config holds the allowed tools, MCP servers and per-project state; an agent must not grant itself more.
pub static CLAUDE_USER_CONFIG: Rule = Rule::blocked("paths.claude-user-config")
    .reason("writes Claude Code's user config (~/.claude.json: allowed tools, MCP servers); ask the user to change it by hand")
    .matches(words!["echo {} > ~/.claude.json", "jq . x.json > /home/user/.claude.json", "sed -i s/a/b/ ~/.claude.json"])
    .not_matches(words!["cat ~/.claude.json", "jq .projects ~/.claude.json", "echo x > claude.json"]);

/// ## What it matches
/// Any write to a tiergate config file (`tiergate.toml`, `.tiergate.toml`, or the file the hook was started with).
/// ## Why this tier
/// The config picks the mode and the protected paths; an agent rewriting it loosens its own guard.
pub static TIERGATE_CONFIG: Rule = Rule::blocked("paths.tiergate-config")
    .reason("writes tiergate's own config, which sets how the guard answers; ask the user to edit it by hand")
    .matches(words!["echo 'mode = \"ask\"' > .tiergate.toml", "tee ~/.config/tiergate/tiergate.toml"])
    .not_matches(words!["cat .tiergate.toml", "echo x > tiergate.md"]);

/// ## What it matches
/// Any write to tiergate's approval store: a file named `tiergate.db` (or its journal), or anything in the hook's data directory.
/// ## Why this tier
/// The store holds the user's grants; an agent writing it could mint its own approval.
pub static TIERGATE_STORE: Rule = Rule::blocked("paths.tiergate-store")
    .reason("writes tiergate's approval store, which holds the user's grants; only the user approves a code, in their own terminal")
    .matches(words!["echo x > /var/lib/tg/tiergate.db", "echo x >> data/tiergate.db-wal"])
    .not_matches(words!["echo x > tiergate.db.txt"]);

/// ## What it matches
/// A write to the running `tiergate` binary (known to the hook and `tiergate batch`).
/// ## Why this tier
/// Replacing the binary replaces the guard.
pub static TIERGATE_BINARY: Rule =
    Rule::blocked("paths.tiergate-binary").reason("writes the tiergate binary itself, which is the guard; ask the user to reinstall it by hand");

/// ## What it matches
/// A write to a path matching the user's `protected_paths` (tiergate.toml), by any tool.
/// ## Why this tier
/// The user said so; the Write tool and Bash answer alike.
pub static PROTECTED: Rule =
    Rule::blocked("paths.protected").reason("writes a path the user protected in tiergate.toml (protected_paths); ask the user to change it by hand");

/// ## What it matches
/// An archive extracted into a directory where a protected path could land: inside
/// `.claude` (blocked as `paths.claude-hooks`), or above a path the user protected (this rule).
/// ## Why this tier
/// The member names are inside the archive, unseen; one of them may overwrite a protected file.
pub static EXTRACT_PROTECTED: Rule = Rule::t3("paths.extract-protected")
    .reason("extracts an archive where a protected path could be overwritten; list its members first, or extract elsewhere and copy what you need");

/// ## What it matches
/// A write straight onto a disk device (`> /dev/sda`, `cp img /dev/nvme0n1`, `tee /dev/disk2`).
/// ## Why this tier
/// Overwrites the partition table or file system underneath everything. Never approvable.
pub static DEVICE: Rule = Rule::blocked("paths.write-device")
    .reason("writes raw bytes onto a disk device, destroying its file system; write to a file instead")
    .matches(words!["cat image.iso > /dev/sda", "echo x > /dev/nvme0n1", "cp disk.img /dev/disk2"])
    .not_matches(words!["echo x > /dev/null", "cat /dev/sda1 > backup.img"]);

/// ## What it matches
/// A write under a system directory (`/etc`, `/usr`, `/bin`, `/boot`, `/var`, `/opt` …).
/// ## Why this tier
/// Changes the machine, not the project.
pub static SYSTEM: Rule = Rule::t3("paths.write-system")
    .reason("writes a system path outside the project; write inside the working tree instead")
    .matches(words![
        "echo 1 > /etc/hosts", "cp x /usr/local/bin/x", "tee -a /etc/fstab", "patch -d /etc/nginx nginx.conf fix.diff",
        "patch -r /etc/profile.d/x.sh a.py fix.diff",
    ])
    .not_matches(words!["echo 1 > out.txt", "echo 1 > /dev/null", "echo 1 > /tmp/x", "patch -d src main.c fix.diff", "patch -r - a.py fix.diff"]);

/// ## What it matches
/// A write to a dot-file or dot-directory in the home directory (`~/.bashrc`, `~/.ssh/…`).
/// ## Why this tier
/// Shell start-up files, keys and tool configs persist beyond the task and can run code later.
pub static DOTFILE: Rule = Rule::t3("paths.write-dotfile")
    .reason("writes a dot-file in the home directory (shell start-up, keys or tool config); ask the user first")
    .matches(words!["echo 'alias x=y' >> ~/.bashrc", "cp key ~/.ssh/authorized_keys"])
    .not_matches(words!["cat ~/.bashrc"]);

/// ## What it matches
/// A write inside `.git/` (hooks, config, refs).
/// ## Why this tier
/// Git hooks run code on the next commit; config and refs change the repository behind git's back.
pub static GIT_INTERNALS: Rule = Rule::t3("paths.write-git-internals")
    .reason("writes inside .git (hooks, config or refs); use git commands instead")
    .matches(words!["echo x > .git/hooks/pre-commit", "cp hook .git/hooks/post-checkout"])
    .not_matches(words!["cat .git/config", "echo x > git.txt"]);

/// ## What it matches
/// A write to an absolute path outside the working tree and outside scratch space.
/// ## Why this tier
/// Another tree is not the task's to change.
pub static OUTSIDE: Rule = Rule::t3("paths.write-outside-tree").reason("writes outside the working tree; keep writes inside the project or in /tmp");

/// ## What it matches
/// A write whose target holds a variable or substitution (`> $OUT`).
/// ## Why this tier
/// Where it lands is unknown until it runs.
pub static UNRESOLVED: Rule = Rule::t3("paths.write-unresolved")
    .reason("writes to a path held in a variable or substitution; spell the path out")
    .matches(words!["echo x > $OUT", "cp a \"$(mktemp -d)/b\""])
    .not_matches(words!["echo x > out.txt"]);

crate::table! {
    SYSTEM_ROOTS = [
        "/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/boot", "/sys", "/proc", "/dev", "/root", "/var", "/opt", "/srv", "/System", "/Library",
        "/Applications", "/private/etc", "/snap", "/run",
    ];
    probe "cp a {}/x" => T3, "paths.write-system";
}
crate::table! {
    SCRATCH_ROOTS = ["/tmp", "/var/tmp", "/private/tmp", "/dev/shm"];
    probe "echo hi > {}/x.txt" => T0;
}
crate::table! {
    DEVICE_SINKS = ["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero"];
    probe "echo hi > {}" => T0;
}

/// Where a resolved write lands.
#[derive(Debug, PartialEq, Eq, Clone)]
pub enum Place {
    WorkTree,
    Scratch,
    Sink,
    /// A protected path (`crate::protect`): always blocked.
    Protected(Protection),
    GitInternals,
    Dotfile,
    Device,
    System,
    Outside,
    Unresolved,
}

fn under(path: &str, root: &str) -> bool {
    path == root || path.strip_prefix(root).is_some_and(|r| r.starts_with('/'))
}

/// Says where a write to `target` lands. It resolves against `cwd` (the unit's
/// directory, moved by `cd`) but judges against `root` (the request's working
/// tree, which `cd /etc && …` does not move). With no root, relative paths are
/// taken as inside the working tree. `protect` decides what is protected.
pub fn place(target: &str, exact: bool, cwd: Option<&str>, root: Option<&str>, home: Option<&str>, protect: &Protected) -> Place {
    if !exact {
        // `$PWD/x` and `$HOME/x` are known; anything else stays unresolved, unless
        // its literal tail already names a protected file (`$OUT/.claude/settings.json`,
        // `$D/tiergate.db`): the name-based built-ins hold wherever the prefix points.
        let known = expand_known(target, cwd.or(root), home);
        if let Some(t) = known.as_deref().filter(|t| !t.contains('$') && !t.contains('`')) {
            return place(t, true, cwd, root, home, protect);
        }
        let lit = target.rsplit(['$', '`', ')', '}']).next().unwrap_or("");
        let tail = lit.trim_start_matches('/');
        if !tail.is_empty() {
            if let Some(p) = Protected::builtin().check_path(tail, Some("/__unresolved__"), None) {
                return Place::Protected(Protection { path: target.to_owned(), ..p });
            }
        }
        let lower = target.to_ascii_lowercase();
        if lower.find(".claude/").is_some_and(|i| lower[i..].contains("/hooks/")) && !lower.ends_with(".md") {
            let p = Protection { guard: Guard::ClaudeHooks, rule: Guard::ClaudeHooks.rule(), path: target.to_owned(), matched: None };
            return Place::Protected(p);
        }
        return Place::Unresolved;
    }
    let abs = match landing(target, cwd, root, home) {
        Ok(abs) => abs,
        Err(place) => return place,
    };
    if let Some(p) = protect.check_resolved(&abs) {
        return Place::Protected(p);
    }
    let home_dir = home.unwrap_or(UNKNOWN_HOME);
    let tree_root = root.unwrap_or(UNKNOWN_TREE);
    if abs.split('/').any(|c| c == ".git") {
        return Place::GitInternals;
    }
    let home_dot = under(&abs, home_dir) && abs[home_dir.len()..].split('/').any(|c| c.starts_with('.') && c.len() > 1);
    // A tree that holds the home directory (the agent runs in `~`, or above it)
    // does not make the home's dot-files authoring: `.bashrc` and
    // `.ssh/authorized_keys` are start-up files and keys wherever the tree is.
    if under(&abs, tree_root) && !(home_dot && under(home_dir, tree_root)) {
        return Place::WorkTree;
    }
    if SCRATCH_ROOTS.iter().any(|r| under(&abs, r)) {
        return Place::Scratch;
    }
    if home_dot {
        return Place::Dotfile;
    }
    if SYSTEM_ROOTS.iter().any(|r| under(&abs, r)) {
        return Place::System;
    }
    Place::Outside
}

const UNKNOWN_HOME: &str = "/home/~";
const UNKNOWN_TREE: &str = "/__worktree__";

/// The first steps of `place` for an exact target: the absolute path it lands on,
/// or the place when that is already decided (a sink, a device, unresolvable).
pub(crate) fn landing(target: &str, cwd: Option<&str>, root: Option<&str>, home: Option<&str>) -> Result<String, Place> {
    if DEVICE_SINKS.contains(target) || target.starts_with("/dev/fd/") || target.starts_with("/proc/self/fd/") {
        return Err(Place::Sink);
    }
    let abs = resolve(target, Some(cwd.or(root).unwrap_or(UNKNOWN_TREE)), Some(home.unwrap_or(UNKNOWN_HOME))).ok_or(Place::Unresolved)?;
    if is_disk_device(&abs) {
        return Err(Place::Device);
    }
    Ok(abs)
}

/// Replaces `$PWD`/`${PWD}` and `$HOME`/`${HOME}` when their values are known.
fn expand_known(target: &str, cwd: Option<&str>, home: Option<&str>) -> Option<String> {
    let mut t = target.to_owned();
    for (names, value) in [(["${PWD}", "$PWD"], cwd), (["${HOME}", "$HOME"], home)] {
        for n in names {
            if t.contains(n) {
                t = t.replace(n, value?);
            }
        }
    }
    Some(t)
}

/// `/dev/sda`, `/dev/nvme0n1p2`, `/dev/disk3`, `/dev/mmcblk0`, `/dev/xvdb`, `/dev/vda`, `/dev/mapper/x`.
pub fn is_disk_device(path: &str) -> bool {
    let Some(dev) = path.strip_prefix("/dev/") else { return false };
    ["sd", "hd", "vd", "xvd", "nvme", "mmcblk", "disk", "rdisk", "md", "dm-", "loop", "mapper/", "nbd"]
        .iter()
        .any(|p| dev.strip_prefix(p).is_some_and(|rest| !rest.is_empty() && (p.ends_with('/') || rest.starts_with(|c: char| c.is_ascii_alphanumeric()))))
}

crate::tables![SYSTEM_ROOTS, SCRATCH_ROOTS, DEVICE_SINKS];

#[cfg(test)]
mod tests {
    use super::*;

    fn at(target: &str, exact: bool, cwd: Option<&str>, root: Option<&str>, home: Option<&str>) -> String {
        match place(target, exact, cwd, root, home, &Protected::builtin()) {
            Place::Protected(p) => format!("{:?}", p.guard),
            other => format!("{other:?}"),
        }
    }

    #[track_caller]
    fn check(target: &str, expect: &str) {
        assert_eq!(at(target, true, Some("/w/proj"), Some("/w/proj"), Some("/home/u")), expect, "{target}");
    }

    #[test]
    fn writes_are_placed() {
        check("out.txt", "WorkTree");
        check("src/../x", "WorkTree");
        check("../other/x", "Outside");
        check("/tmp/x", "Scratch");
        check("/dev/null", "Sink");
        check("/etc/hosts", "System");
        check("/dev/sda", "Device");
        check("/dev/nvme0n1p1", "Device");
        check("~/.bashrc", "Dotfile");
        // `cd /etc && echo x > hosts`: the unit moved, the tree did not.
        assert_eq!(at("hosts", true, Some("/etc"), Some("/w/proj"), None), "System");
        assert_eq!(at("hosts", true, Some("/etc"), None, None), "System");
        assert_eq!(at("x", true, Some("/w/proj/sub"), Some("/w/proj"), None), "WorkTree");
        check("/home/u/notes.txt", "Outside");
        check(".git/hooks/pre-commit", "GitInternals");
        check(".claude/hooks/x.py", "ClaudeHooks");
        check(".claude/agents/hooks/x.sh", "ClaudeHooks");
        check(".claude/hooks/README.md", "WorkTree");
        check(".claude/settings.local.json", "ClaudeSettings");
        check("~/.claude/settings.json", "ClaudeSettings");
        check("~/.claude.json", "ClaudeUserConfig");
        check("./.claude/agents/x/settings.json", "ClaudeSettings");
        check(".CLAUDE/Settings.json", "ClaudeSettings");
        check(".Claude/Hooks/x.py", "ClaudeHooks");
        check(".tiergate.toml", "TiergateConfig");
        assert_eq!(at("$PWD/.claude/hooks/pre.py", false, Some("/w/proj"), Some("/w/proj"), None), "ClaudeHooks");
        assert_eq!(at("$OUT/.claude/settings.json", false, Some("/w/proj"), Some("/w/proj"), None), "ClaudeSettings");
        assert_eq!(at("$OUT/.claude/hooks/$NAME", false, Some("/w/proj"), Some("/w/proj"), None), "ClaudeHooks");
        assert_eq!(at("$D/tiergate.db", false, Some("/w/proj"), Some("/w/proj"), None), "TiergateStore");
        assert_eq!(at("$HOME/.bashrc", false, Some("/w/proj"), Some("/w/proj"), Some("/home/u")), "Dotfile");
        assert_eq!(at("$OUT/x", false, Some("/w/proj"), Some("/w/proj"), None), "Unresolved");
    }

    /// The tree may hold the home directory (an agent started in `~` or above it):
    /// its dot-files stay dot-files, the rest of it is the tree. A tree inside the
    /// home keeps its own dot-files (`.eslintrc`) as authoring.
    #[test]
    fn a_tree_holding_the_home_keeps_its_dot_files_guarded() {
        let in_home = |target: &str, root: &str| at(target, true, Some(root), Some(root), Some("/home/u"));
        assert_eq!(in_home(".bashrc", "/home/u"), "Dotfile");
        assert_eq!(in_home(".ssh/authorized_keys", "/home/u"), "Dotfile");
        assert_eq!(in_home("proj/.env", "/home/u"), "Dotfile");
        assert_eq!(in_home("u/.profile", "/home"), "Dotfile");
        assert_eq!(in_home("notes.txt", "/home/u"), "WorkTree");
        assert_eq!(in_home("proj/src/app.py", "/home/u"), "WorkTree");
        assert_eq!(in_home("other/x", "/home"), "WorkTree");
        assert_eq!(in_home(".eslintrc", "/home/u/proj"), "WorkTree");
        assert_eq!(in_home(".github/workflows/ci.yml", "/home/u/proj"), "WorkTree");
    }
}
