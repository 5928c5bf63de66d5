//! Where a write lands: the working tree (free: authoring is not mutation), a
//! system path, a dot-file in the home directory, git internals, another tree, or
//! the protected `.claude` hook and settings files (blocked).
//!
//! Families that write files (`cp`, `tee`, `sed -i`, redirections) call
//! `check_write`; this module does not know which programs write.

use crate::call::{Arg, Invocation};
use crate::lanes::resolve;
use crate::rules::{Cx, Family, Rule};

pub static FAMILY: Family = Family { name: "paths", programs: &[], check, rules: RULES };

static RULES: &[&Rule] = &[&CLAUDE_HOOKS, &CLAUDE_SETTINGS, &DEVICE, &SYSTEM, &DOTFILE, &GIT_INTERNALS, &OUTSIDE, &UNRESOLVED];

fn check(_inv: &Invocation, _cx: &mut Cx<'_>) {}

/// ## What it matches
/// Any write into `.claude/hooks/` (except Markdown), by redirect, copy, move, tee, sed -i, git …
/// ## Why this tier
/// The hooks are the guard itself; an agent that rewrites them disables every check.
pub static CLAUDE_HOOKS: Rule = Rule::blocked("paths.claude-hooks")
    .reason("writes into .claude/hooks, which holds the guard itself; ask the user to edit hooks by hand")
    .matches(&["cp payload.py .claude/hooks/pre_tool_use.py", "echo x > .claude/hooks/h.sh", "sudo tee .claude/hooks/x.py"])
    .not_matches(&["cat .claude/hooks/h.sh", "echo x > .claude/hooks/README.md"]);

/// ## What it matches
/// Any write to a `.claude/**/settings*.json` file.
/// ## Why this tier
/// Settings decide which hooks run and what is pre-approved; an agent must not grant itself permissions.
pub static CLAUDE_SETTINGS: Rule = Rule::blocked("paths.claude-settings")
    .reason("writes Claude Code settings, which control hooks and permissions; ask the user to change settings by hand")
    .matches(&["echo {} > .claude/settings.json", "cp x .claude/settings.local.json", "mv a ~/.claude/settings.json"])
    .not_matches(&["cat .claude/settings.json", "echo x > settings.json"]);

/// ## What it matches
/// A write straight onto a disk device (`> /dev/sda`, `cp img /dev/nvme0n1`, `tee /dev/disk2`).
/// ## Why this tier
/// Overwrites the partition table or file system underneath everything. Never approvable.
pub static DEVICE: Rule = Rule::blocked("paths.write-device")
    .reason("writes raw bytes onto a disk device, destroying its file system; write to a file instead")
    .matches(&["cat image.iso > /dev/sda", "echo x > /dev/nvme0n1", "cp disk.img /dev/disk2"])
    .not_matches(&["echo x > /dev/null", "cat /dev/sda1 > backup.img"]);

/// ## What it matches
/// A write under a system directory (`/etc`, `/usr`, `/bin`, `/boot`, `/var`, `/opt` …).
/// ## Why this tier
/// Changes the machine, not the project.
pub static SYSTEM: Rule = Rule::t3("paths.write-system")
    .reason("writes a system path outside the project; write inside the working tree instead")
    .matches(&["echo 1 > /etc/hosts", "cp x /usr/local/bin/x", "tee -a /etc/fstab"])
    .not_matches(&["echo 1 > out.txt", "echo 1 > /dev/null", "echo 1 > /tmp/x"]);

/// ## What it matches
/// A write to a dot-file or dot-directory in the home directory (`~/.bashrc`, `~/.ssh/…`).
/// ## Why this tier
/// Shell start-up files, keys and tool configs persist beyond the task and can run code later.
pub static DOTFILE: Rule = Rule::t3("paths.write-dotfile")
    .reason("writes a dot-file in the home directory (shell start-up, keys or tool config); ask the user first")
    .matches(&["echo 'alias x=y' >> ~/.bashrc", "cp key ~/.ssh/authorized_keys"])
    .not_matches(&["cat ~/.bashrc"]);

/// ## What it matches
/// A write inside `.git/` (hooks, config, refs).
/// ## Why this tier
/// Git hooks run code on the next commit; config and refs change the repository behind git's back.
pub static GIT_INTERNALS: Rule = Rule::t3("paths.write-git-internals")
    .reason("writes inside .git (hooks, config or refs); use git commands instead")
    .matches(&["echo x > .git/hooks/pre-commit", "cp hook .git/hooks/post-checkout"])
    .not_matches(&["cat .git/config", "echo x > git.txt"]);

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
    .matches(&["echo x > $OUT", "cp a \"$(mktemp -d)/b\""])
    .not_matches(&["echo x > out.txt"]);

const SYSTEM_ROOTS: &[&str] = &[
    "/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/boot", "/sys", "/proc", "/dev", "/root", "/var", "/opt", "/srv", "/System", "/Library",
    "/Applications", "/private/etc", "/snap", "/run",
];
const SCRATCH_ROOTS: &[&str] = &["/tmp", "/var/tmp", "/private/tmp", "/dev/shm"];
const DEVICE_SINKS: &[&str] = &["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero"];

/// Where a resolved write lands.
#[derive(Debug, PartialEq, Eq, Clone, Copy)]
pub enum Place {
    WorkTree,
    Scratch,
    Sink,
    ClaudeHooks,
    ClaudeSettings,
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
/// taken as inside the working tree.
pub fn place(target: &str, exact: bool, cwd: Option<&str>, root: Option<&str>, home: Option<&str>) -> Place {
    if !exact {
        // `$PWD/x` and `$HOME/x` are known; anything else stays unresolved, unless
        // its literal part already points into the protected `.claude` files.
        let known = expand_known(target, cwd.or(root), home);
        if let Some(t) = known.as_deref().filter(|t| !t.contains('$') && !t.contains('`')) {
            return place(t, true, cwd, root, home);
        }
        let lit = target.rsplit(['$', '`', ')', '}']).next().unwrap_or("");
        let lower = target.to_ascii_lowercase();
        if lower.contains(".claude/") && matches!(place(lit.trim_start_matches('/'), true, None, None, None), Place::ClaudeHooks | Place::ClaudeSettings) {
            return if lower.contains("settings") { Place::ClaudeSettings } else { Place::ClaudeHooks };
        }
        if lower.contains(".claude/hooks/") && !lower.ends_with(".md") {
            return Place::ClaudeHooks;
        }
        return Place::Unresolved;
    }
    if DEVICE_SINKS.contains(&target) || target.starts_with("/dev/fd/") || target.starts_with("/proc/self/fd/") {
        return Place::Sink;
    }
    let home_dir = home.unwrap_or("/home/~");
    let tree_root = root.unwrap_or("/__worktree__");
    let Some(abs) = resolve(target, Some(cwd.unwrap_or(tree_root)), Some(home_dir)) else {
        return Place::Unresolved;
    };
    if is_disk_device(&abs) {
        return Place::Device;
    }
    let comps: Vec<&str> = abs.split('/').filter(|c| !c.is_empty()).collect();
    // Case-insensitive: on macOS's default file system `.CLAUDE/Settings.json` is the same file.
    if let Some(ci) = comps.iter().position(|c| c.eq_ignore_ascii_case(".claude")) {
        let rest = &comps[ci + 1..];
        let file = comps.last().copied().unwrap_or("").to_ascii_lowercase();
        if file.starts_with("settings") && file.ends_with(".json") {
            return Place::ClaudeSettings;
        }
        if rest.first().is_some_and(|c| c.eq_ignore_ascii_case("hooks")) && !file.ends_with(".md") {
            return Place::ClaudeHooks;
        }
    }
    if comps.contains(&".git") {
        return Place::GitInternals;
    }
    let tree = under(&abs, tree_root);
    if tree {
        return Place::WorkTree;
    }
    if SCRATCH_ROOTS.iter().any(|r| under(&abs, r)) {
        return Place::Scratch;
    }
    if under(&abs, home_dir) {
        let rel = &abs[home_dir.len()..];
        if rel.split('/').any(|c| c.starts_with('.') && c.len() > 1) {
            return Place::Dotfile;
        }
    }
    if SYSTEM_ROOTS.iter().any(|r| under(&abs, r)) {
        return Place::System;
    }
    Place::Outside
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

/// Records the hit a write to `target` deserves (none inside the working tree).
pub fn check_write(cx: &mut Cx<'_>, target: &Arg, cwd: Option<&str>) {
    let home = cx.home();
    let root = cx.root();
    let rule: &'static Rule = match place(&target.text, target.exact, cwd, root.as_deref(), home.as_deref()) {
        Place::WorkTree | Place::Scratch | Place::Sink => return,
        Place::ClaudeHooks => &CLAUDE_HOOKS,
        Place::ClaudeSettings => &CLAUDE_SETTINGS,
        Place::GitInternals => &GIT_INTERNALS,
        Place::Dotfile => &DOTFILE,
        Place::Device => &DEVICE,
        Place::System => &SYSTEM,
        Place::Outside => &OUTSIDE,
        Place::Unresolved => &UNRESOLVED,
    };
    cx.hit_because(rule, format!("{} (`{}`)", rule.reason, target.text));
}

/// True when a path (as written) points into the protected `.claude` files;
/// used by families whose reads and writes are hard to tell apart.
pub fn is_protected(target: &str, cwd: Option<&str>, home: Option<&str>) -> bool {
    matches!(place(target, true, cwd, cwd, home), Place::ClaudeHooks | Place::ClaudeSettings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(target: &str, expect: Place) {
        assert_eq!(place(target, true, Some("/w/proj"), Some("/w/proj"), Some("/home/u")), expect, "{target}");
    }

    #[test]
    fn writes_are_placed() {
        check("out.txt", Place::WorkTree);
        check("src/../x", Place::WorkTree);
        check("../other/x", Place::Outside);
        check("/tmp/x", Place::Scratch);
        check("/dev/null", Place::Sink);
        check("/etc/hosts", Place::System);
        check("/dev/sda", Place::Device);
        check("/dev/nvme0n1p1", Place::Device);
        check("~/.bashrc", Place::Dotfile);
        // `cd /etc && echo x > hosts`: the unit moved, the tree did not.
        assert_eq!(place("hosts", true, Some("/etc"), Some("/w/proj"), None), Place::System);
        assert_eq!(place("hosts", true, Some("/etc"), None, None), Place::System);
        assert_eq!(place("x", true, Some("/w/proj/sub"), Some("/w/proj"), None), Place::WorkTree);
        check("/home/u/notes.txt", Place::Outside);
        check(".git/hooks/pre-commit", Place::GitInternals);
        check(".claude/hooks/x.py", Place::ClaudeHooks);
        check(".claude/hooks/README.md", Place::WorkTree);
        check(".claude/settings.local.json", Place::ClaudeSettings);
        check("~/.claude/settings.json", Place::ClaudeSettings);
        check("./.claude/agents/x/settings.json", Place::ClaudeSettings);
        check(".CLAUDE/Settings.json", Place::ClaudeSettings);
        check(".Claude/Hooks/x.py", Place::ClaudeHooks);
        assert_eq!(place("$PWD/.claude/hooks/pre.py", false, Some("/w/proj"), Some("/w/proj"), None), Place::ClaudeHooks);
        assert_eq!(place("$OUT/.claude/settings.json", false, Some("/w/proj"), Some("/w/proj"), None), Place::ClaudeSettings);
        assert_eq!(place("$HOME/.bashrc", false, Some("/w/proj"), Some("/w/proj"), Some("/home/u")), Place::Dotfile);
        assert_eq!(place("$OUT/x", false, Some("/w/proj"), Some("/w/proj"), None), Place::Unresolved);
    }
}
