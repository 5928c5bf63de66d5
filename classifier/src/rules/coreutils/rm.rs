//! Deleting files: `rm`, `rmdir`, `unlink`, `shred`, `srm`, `wipe`.
//!
//! Deleting is T3 anywhere (the tree included: deleted work is not in the diff).
//! The blocked floor is a recursive or forced delete of `/`, a top-level system
//! directory or the home directory, and `--no-preserve-root`. Targets are
//! resolved against the unit's cwd and the home directory (`$HOME` included).

use super::{operand_args, target};
use crate::call::{Arg, Invocation};
use crate::rules::vocab::writes;
use crate::rules::{Cx, Rule};
use crate::words;

/// ## What it matches
/// `rm`, `rmdir`, `unlink` of any path, the working tree included.
/// ## Why this tier
/// Deleted files are gone (untracked ones are not even in git); the user decides.
pub(super) static RM: Rule = Rule::t3("coreutils.rm")
    .reason("deletes files, which cannot be undone; ask the user (or move them aside instead)")
    .matches(words![
        "rm file.txt", "rm -rf build/", "rm -rf ./check", "rm -rf node_modules", "rmdir empty", "unlink file", "rm -rf ~/projects/old",
        "rm -rf /tmp/build-cache", // The default of a parameter expansion runs when the variable is unset.
        "echo ${KEEP:-$(rm -rf build)}",
    ])
    .not_matches(words!["rm --help", "rm -rf /", "echo rm -rf /"]);

/// ## What it matches
/// A recursive, forced or globbed `rm` whose target resolves to `/`, `/*`, the home
/// directory (`~`, `~/`, `$HOME`, `*` run in `~`), or a top-level system directory
/// (`/etc /usr /bin /boot /var /lib /home /System …`), behind any wrapper.
/// ## Why this tier
/// Wipes the machine or the user's files. Never approvable.
pub(super) static CATASTROPHIC: Rule = Rule::blocked("coreutils.rm.catastrophic")
    .reason("deletes the root, the home directory or a system directory; name the specific subdirectory to delete instead")
    .matches(words![
        "rm -rf /", "rm -rf /*", "rm -rf ~", "rm -rf ~/", "rm -rf $HOME", "rm -rf \"$HOME\"", "rm -fr /", "rm -r -f /", "rm --recursive --force /",
        "rm -rf /etc", "rm -rf /usr", "/bin/rm -rf /", "sudo rm -rf /var", "rm -rf ./ /", "rm -rf / --dry-run", "cd ~ && rm -rf *", "ls && rm -rf ~",
        "rm -rf ../../..", "rm -rf /System", "rm -rf \"${HOME:?}\"", "rm -rf ~root", "rm -rf /*/",
        // A case-insensitive file system runs `rm` for these (`crate::names`).
        "Rm -rf /", "RM -rf ~", "SuDo Rm -Rf /",
    ])
    .not_matches(words!["rm -rf ./check", "rm -rf build node_modules", "rm -rf /tmp/foo", "rm -rf ~/projects/old", "rm /etc/passwd-"]);

/// ## What it matches
/// `rm --no-preserve-root`, whatever the target.
/// ## Why this tier
/// The flag exists only to let `rm -rf /` through. Never approvable.
pub(super) static NO_PRESERVE_ROOT: Rule = Rule::blocked("coreutils.rm.no-preserve-root")
    .reason("--no-preserve-root only serves to delete /; drop the flag and name the directory to delete")
    .matches(words!["rm -rf --no-preserve-root /tmp/x"])
    .not_matches(words!["rm -rf /tmp/x"]);

/// ## What it matches
/// A recursive `rm` whose target holds a variable or substitution (`rm -rf "$DIR"`,
/// `rm -rf $BUILD/*`).
/// ## Why this tier
/// Where it lands is unknown until it runs: with `$DIR` unset, `rm -rf $DIR/` is
/// `rm -rf /`. Gated, not blocked, because scripts do this legitimately; the
/// reason says what to check.
pub(super) static UNRESOLVED: Rule = Rule::t3("coreutils.rm.unresolved")
    .reason("recursive delete of a path held in a variable; if the variable is empty this deletes from / — spell the path out")
    .matches(words!["rm -rf \"$DIR\"", "rm -rf $DIR/*", "rm -rf $(mktemp -d)/x", "rm -r ${OUT}/", "find . -name x | xargs rm -rf"])
    .not_matches(words!["rm -rf build", "rm -rf \"$HOME\""]);

/// ## What it matches
/// `shred`, `srm`, `wipe` of files.
/// ## Why this tier
/// Overwrites then (with `-u`) deletes: unrecoverable by design. Devices are `coreutils.disk.device-write`.
pub(super) static SHRED: Rule = Rule::t3("coreutils.shred")
    .reason("shreds files beyond recovery; ask the user")
    .matches(words!["shred -u secrets.txt", "srm file", "wipe -f old.img"])
    .not_matches(words!["shred -n 3 /dev/sda"]);

crate::table! {
    /// Resolved targets a recursive delete must never reach.
    FLOOR = [
        "/", "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib32", "/lib64", "/libx32", "/proc", "/root", "/sbin", "/sys", "/usr", "/var", "/opt", "/snap",
        "/System", "/Library", "/Applications", "/Users", "/private", "/private/etc", "/private/var", "/usr/bin", "/usr/sbin", "/usr/lib", "/usr/lib64",
        "/usr/local", "/usr/share", "/usr/include", "/var/lib", "/etc/ssh",
    ];
    probe "rm -rf {}" => Blocked, "coreutils.rm.catastrophic";
}

/// True when `abs` is `/`, a floor directory, the home directory, or any user's
/// home directory (`/home/x`, `/Users/x`).
pub(crate) fn catastrophic(abs: &str, home: Option<&str>) -> bool {
    let home = home.unwrap_or(super::UNKNOWN_HOME).trim_end_matches('/');
    let user_home = ["/home/", "/Users/"].iter().any(|p| abs.strip_prefix(p).is_some_and(|n| !n.is_empty() && !n.contains('/')));
    FLOOR.contains(abs) || abs == home || user_home
}

/// True when deleting `abs` (recursively) takes the `.claude` hook or settings files with it.
fn holds_protected(abs: &str) -> bool {
    abs.ends_with("/.claude") || abs.ends_with("/.claude/hooks")
}

pub(super) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    let cwd = inv.cwd.as_deref();
    let home = cx.home();
    let program = inv.program.as_str();
    let ops = operand_args(inv, words!["-n", "--iterations", "-s", "--size", "--random-source"]);
    if matches!(program, "shred" | "srm" | "wipe") {
        if super::disk::any_device(&ops) {
            super::disk::hit_device(cx, program);
            return;
        }
        protected(cx, &ops, cwd, home.as_deref(), true);
        cx.hit(&SHRED);
        return;
    }
    if inv.has_long("--no-preserve-root") {
        cx.hit(&NO_PRESERVE_ROOT);
        return;
    }
    let recursive = program == "rm" && inv.has_any(words!["-r", "-R", "--recursive"]);
    let force = inv.has_any(words!["-f", "--force"]);
    for a in &ops {
        match target(a, cwd, home.as_deref()) {
            Some(t) if (recursive || force || t.glob) && catastrophic(&t.abs, home.as_deref()) => {
                let shown = if t.glob { format!("{}/*", t.abs.trim_end_matches('/')) } else { t.abs.clone() };
                cx.hit_because(&CATASTROPHIC, format!("`rm {}` deletes {shown}; name the specific subdirectory to delete instead", a.text));
            }
            Some(_) => {}
            None if recursive => {
                cx.hit_because(
                    &UNRESOLVED,
                    format!(
                        "recursive delete of `{}`, a path held in a variable or glob; if it expands to nothing this deletes from / — spell the path out",
                        a.text
                    ),
                );
            }
            None => {}
        }
    }
    if recursive && inv.wrappers.contains(&"xargs") {
        // The targets arrive on xargs' input, unseen here (`echo / | xargs rm -rf`).
        cx.hit_because(&UNRESOLVED, "recursive delete of paths read by xargs from its input, which tiergate cannot see; if that input holds / or ~ this wipes it — list the paths explicitly".to_owned());
    }
    protected(cx, &ops, cwd, home.as_deref(), recursive);
    cx.hit(&RM);
}

/// Deleting a protected `.claude` file (or, recursively, the directory that holds them) is blocked.
fn protected(cx: &mut Cx<'_>, ops: &[&Arg], cwd: Option<&str>, home: Option<&str>, recursive: bool) {
    for a in ops {
        if writes::is_protected(cx, &a.text, cwd) {
            super::write_to(cx, a, cwd);
        } else if recursive {
            if let Some(t) = target(a, cwd, home) {
                if holds_protected(&t.abs) {
                    writes::replaces_guard(cx, &format!("`{}` holds them", a.text));
                }
            }
        }
    }
}

crate::tables![FLOOR];
