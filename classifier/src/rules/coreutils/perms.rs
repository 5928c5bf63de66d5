//! Permission and ownership tools: `chmod`, `chown`, `chgrp`, `chattr`, `setfacl`.
//!
//! Every permission, ownership, attribute or ACL change is T3 (as the original and
//! the pinned truth row `chmod 755 script.sh` have it), except adding execute
//! permission to files in the working tree (authoring); a recursive change of `/`,
//! the home or a system directory is blocked.
//! Each file operand also goes through `writes::check_write`.

use super::rm::catastrophic;
use super::{target, wrote};
use crate::call::args::{short_letters, ArgSpec, Args, Token};
use crate::call::{Arg, Invocation};
use crate::rules::vocab::writes;
use crate::rules::{Cx, Rule};
use crate::words;

/// ## What it matches
/// `chmod` of any mode but a world-writable or set-id one (`coreutils.chmod.open`),
/// and every `chattr` / `setfacl`.
/// ## Why this tier
/// Permissions are not part of what the diff shows and can open files to every
/// user or to privilege escalation; the original gates chmod, and so does the
/// pinned truth row `chmod 755 script.sh`.
/// Adding execute permission to files in the working tree (`chmod +x run.sh`,
/// `chmod u+x bin/tool`) is authoring, like writing the script (issue 29): it is
/// free, and running the script is judged when it runs.
pub(super) static MODE: Rule = Rule::t3("coreutils.chmod")
    .reason("changes file permissions; ask the user (or have the script run through its interpreter: bash script.sh)")
    .matches(words![
        "chattr +i file", "setfacl -m u:bob:rw file", "chmod 755 script.sh", "chmod +x /usr/local/bin/tool", "chmod +x ~/bin/tool", "chmod -R +x scripts",
        "chmod +x .git/hooks/pre-commit", "chmod +x /tmp/run.sh", "chmod 1755 dir", "chmod 644 notes.txt", "chmod +w notes.txt", "chmod o-w notes.txt",
        "chmod g+w notes.txt", "chmod u=rwx tool", "chmod 0775 dir",
    ])
    .not_matches(words!["chmod -x .claude/hooks/guard.sh", "chmod -R 777 /", "chmod --help", "Chmod --help", "chmod +x script.sh", "chmod u+x bin/tool"]);

/// ## What it matches
/// `chmod` to a world-writable or set-id mode: the other-write bit (`777`, `0666`, `o+w`, `a=rwx`),
/// or setuid/setgid (`4755`, `2775`, `u+s`, `g+s`). The sticky bit alone (`1755`) is neither.
/// ## Why this tier
/// T3 as any chmod, and named apart: such a mode lets every user rewrite the files, or runs them
/// with their owner's privileges, which the user should see before agreeing.
pub(super) static OPEN_MODE: Rule = Rule::t3("coreutils.chmod.open")
    .reason("makes files world-writable or set-id; ask the user, or use a narrower mode (755, 644)")
    .matches(words![
        "chmod -R 777 .", "chmod 777 run.sh", "chmod u+s tool", "Chmod 777 /etc/passwd", "chmod u+xs tool", "chmod 4755 tool", "chmod 2775 shared",
        "chmod g+s shared", "chmod o+w notes.txt", "chmod a=rwx notes.txt", "chmod u+x,o+w notes.txt", "chmod 0666 notes.txt",
    ])
    .not_matches(words!["chmod 755 script.sh", "chmod 1755 dir", "chmod +w notes.txt", "chmod o-w notes.txt", "chmod g+w notes.txt", "chmod -R 777 /"]);

/// ## What it matches
/// `chown`, `chgrp` of anything.
/// ## Why this tier
/// Changing owners needs privileges and locks users out of files; always the user's call.
pub(super) static OWNER: Rule = Rule::t3("coreutils.chown")
    .reason("changes file ownership; ask the user")
    .matches(words!["chown -R root:root /srv", "chown user file.txt", "chgrp staff notes.md"])
    .not_matches(words!["chown -R root /"]);

/// ## What it matches
/// A recursive `chmod`/`chown`/`chgrp`/`setfacl` of `/`, the home directory or a
/// top-level system directory (`chmod -R 777 /`, `chown -R nobody /etc`).
/// ## Why this tier
/// Breaks the machine (sudo, ssh and services refuse wrong modes) and is not
/// practically reversible. Never approvable.
pub(super) static CATASTROPHIC: Rule = Rule::blocked("coreutils.perms.catastrophic")
    .reason("recursively changes permissions or owners of the root, home or a system directory; name the specific project directory instead")
    .matches(words!["chmod -R 777 /", "chown -R root /", "sudo chmod -R 000 /etc", "chown -R nobody ~", "chmod -R a+w /usr"])
    .not_matches(words!["chmod -R 755 scripts", "chown -R root:root /srv"]);

crate::table! {
    /// Short flags of chmod/chown/chgrp without a value. Long options need no list:
    /// a `--word` is never the mode, the owner or a file (`split`).
    BOOL_FLAGS = ["-R", "-v", "-c", "-f", "-h", "-H", "-L", "-P", "-V"];
}

pub(super) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    let cwd = inv.cwd.as_deref();
    let home = cx.home();
    let program = inv.program.as_str();
    let recursive = inv.has_any(words!["-R", "--recursive"]);
    let (spec, files) = split(inv);
    match program {
        "chown" | "chgrp" => cx.hit(&OWNER),
        "chattr" | "setfacl" | "chflags" | "setfattr" => cx.hit(&MODE),
        _ => {
            let mode = spec.map(|a| a.text.as_str()).unwrap_or("");
            if !recursive && adds_execute(mode) && !files.is_empty() && files.iter().all(|f| writes::authored(cx, f, cwd).is_some_and(|a| !a.scratch)) {
                // `chmod +x run.sh` on a script in the tree: authoring (issue 29), as
                // writing the script was. The script still asks when it runs whatever
                // it does, and a mode that opens files to others still asks.
                wrote(cx);
                return;
            }
            if broad_mode(mode) {
                cx.hit_because(&OPEN_MODE, format!("mode `{mode}` makes files world-writable or set-id; ask the user, or use a narrower mode (755, 644)"));
            } else {
                cx.hit(&MODE);
            }
        }
    }
    for f in &files {
        if recursive {
            if let Some(t) = target(f, cwd, home.as_deref()) {
                if catastrophic(&t.abs, home.as_deref()) {
                    cx.hit_because(
                        &CATASTROPHIC,
                        format!("`{program} -R` on {} changes the whole system or home directory; name the specific project directory instead", t.abs),
                    );
                }
            }
        }
        super::write_to(cx, f, cwd);
    }
    wrote(cx);
}

/// chmod, chown, chgrp, chflags: `--reference RFILE` and `--from CUR` take a value.
const PERMS_ARGS: ArgSpec = ArgSpec::values(words!["--reference", "--from"]).with_flags(BOOL_FLAGS).packed();
/// chattr: `-v VERSION`, `-p PROJECT`.
const CHATTR_ARGS: ArgSpec = ArgSpec::values(words!["-v", "-p"]).with_flags(BOOL_FLAGS).packed();
/// setfacl: the ACL is the value of `-m`, `-x` and the like.
const SETFACL_ARGS: ArgSpec = ArgSpec::values(words!["-m", "-x", "-M", "-X", "--set", "--set-file", "--modify", "--remove", "--modify-file", "--remove-file"])
    .with_flags(BOOL_FLAGS)
    .packed();
/// setfattr: `-n NAME`, `-v VALUE`, `-x NAME`, `--restore FILE`.
const SETFATTR_ARGS: ArgSpec = ArgSpec::values(words!["-n", "-v", "-x", "--name", "--value", "--remove", "--restore"]).with_flags(BOOL_FLAGS).packed();

/// Splits argv into the mode/owner/ACL spec and the file operands.
fn split(inv: &Invocation) -> (Option<&Arg>, Vec<&Arg>) {
    let program = inv.program.as_str();
    let mut spec = None;
    let mut files = Vec::new();
    let has_ref = inv.has_long("--reference");
    let acl = matches!(program, "setfacl" | "setfattr");
    let args = match program {
        "setfacl" => SETFACL_ARGS,
        "setfattr" => SETFATTR_ARGS,
        "chattr" => CHATTR_ARGS,
        _ => PERMS_ARGS,
    };
    let mut last = None;
    for t in Args::parse(&inv.args, args) {
        let index = match t {
            Token::Operand(o) => o.index,
            // A chmod mode (`-x`, `-rwx`) or a chattr attribute (`-i`) is spelled like
            // a short option the spec does not declare: it is the operand it looks
            // like. A long option (`--changes`, `--silent`) never is.
            Token::Flag { index, word, .. } if !acl && short_letters(word).is_some() && last != Some(index) => index,
            _ => continue,
        };
        last = Some(index);
        let a = &inv.args[index];
        if spec.is_none() && !has_ref && !acl {
            spec = Some(a);
        } else {
            files.push(a);
        }
    }
    (spec, files)
}

/// Symbolic modes that only add execute permission (`+x`, `u+x`, `a+x`, `ug+x,o+x`).
fn adds_execute(mode: &str) -> bool {
    mode.split(',').all(|clause| {
        clause.split_once('+').is_some_and(|(who, perms)| who.chars().all(|c| "ugoa".contains(c)) && !perms.is_empty() && perms.chars().all(|c| c == 'x'))
    })
}

/// World-writable or set-id modes (symbolic or octal).
fn broad_mode(mode: &str) -> bool {
    if !mode.is_empty() && mode.chars().all(|c| c.is_ascii_digit()) {
        let digits: Vec<u32> = mode.chars().filter_map(|c| c.to_digit(8)).collect();
        let other = digits.last().copied().unwrap_or(0);
        let special = if digits.len() >= 4 { digits[digits.len() - 4] } else { 0 };
        return other & 2 != 0 || special & 6 != 0;
    }
    mode.split(',').any(|clause| {
        let who_end = clause.find(['+', '-', '=']).unwrap_or(clause.len());
        let (who, rest) = clause.split_at(who_end);
        let grants = rest.starts_with('+') || rest.starts_with('=');
        let perms = rest.trim_start_matches(['+', '-', '=']);
        let everyone = who.is_empty() || who.contains('a') || who.contains('o');
        grants && (perms.contains('s') || (everyone && perms.contains('w') && !who.is_empty()))
    })
}

/// ## What it matches
/// `setcap CAPS FILE`: grants a binary Linux capabilities (`cap_net_raw+ep`, `cap_sys_admin+ep`); `setcap -r` removes them.
/// ## Why this tier
/// A capability lets the binary do as an unprivileged user what only root could; `getcap` and `setcap -v` read.
pub(super) static CAPS: Rule = Rule::t3("coreutils.setcap")
    .reason("grants or removes Linux capabilities on a binary, changing what it may do as any user; ask the user first")
    .matches(words!["setcap cap_net_raw+ep /tmp/x", "sudo setcap cap_sys_admin+ep ./tool", "setcap -r ./tool"])
    .not_matches(words!["setcap -v cap_net_raw+ep ./tool", "getcap ./tool"]);

pub(super) fn setcap(inv: &Invocation, cx: &mut Cx<'_>) {
    if inv.has_any(words!["-v", "--verify"]) {
        return cx.or_unowned(inv);
    }
    cx.hit(&CAPS);
}

crate::tables![BOOL_FLAGS];
