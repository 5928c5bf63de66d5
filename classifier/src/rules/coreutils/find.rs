//! `find`: `-delete`, the commands run by `-exec/-execdir/-ok/-okdir`, and the
//! files written by `-fprint*`/`-fls`. Plain searches are T0 by elimination.
//!
//! `{}` in an `-exec` command is passed as an unresolved word: the matched files
//! are unknown, so a write to them is judged as a write to an unknown path.

use super::rm::catastrophic;
use super::target;
use crate::call::{Arg, Invocation};
use crate::rules::{Cx, Rule};
use crate::words;

/// ## What it matches
/// `find … -delete`.
/// ## Why this tier
/// Deletes every match, recursively; deleting is T3 anywhere.
pub(super) static DELETE: Rule = Rule::t3("coreutils.find.delete")
    .reason("find -delete deletes every match; run it with -print first to see the list, then ask the user")
    .matches(words!["find . -name '*.pyc' -delete", "find . -name \"*.tmp\" -delete", "find build -type f -delete"])
    .not_matches(words!["find . -name '*.pyc' -print", "find / -delete", "cat -delete f"])
    .suggest("find . -name '*.pyc' -print");

/// ## What it matches
/// `find` from `/`, the home directory or a system directory with `-delete`, or
/// with `-exec rm …` / `-exec shred …`.
/// ## Why this tier
/// Deletes throughout the machine or the user's files. Never approvable.
pub(super) static DELETE_ROOT: Rule = Rule::blocked("coreutils.find.delete-root")
    .reason("find deletes throughout the root, home or a system directory; start it in the project directory instead")
    .matches(words!["find / -delete", "find ~ -name '*' -delete", "find / -type f -exec rm -f {} +", "sudo find /etc -delete"])
    .not_matches(words!["find . -delete", "find / -name x -print"]);

/// ## What it matches
/// `find … -exec|-execdir|-ok|-okdir CMD … ;|+`: the command is classified as if
/// run on unknown files (`{}`); this rule records that it runs.
/// ## Why this tier
/// The verdict is that of the command run (`find -exec rm {} ;` → T3); a reading command stays T0.
pub(super) static EXEC: Rule = Rule::t0("coreutils.find.exec")
    .reason("find runs a command on each match; the verdict is that command's")
    .matches(words!["find . -name '*.rs' -exec grep -n TODO {} +", "find . -type f -exec wc -l {} \\;", "fd -e rs -x wc -l"])
    .not_matches(words!["find . -type f -exec rm {} \\;", "find . -name x"]);

pub(super) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    let cwd = inv.cwd.as_deref();
    let home = cx.home();
    let args = &inv.args;
    // Start paths: after -H/-L/-P/-D x/-Ox, before the first expression token.
    let mut i = 0;
    while i < args.len() && matches!(args[i].text.as_str(), "-H" | "-L" | "-P" | "-D" | "-O0" | "-O1" | "-O2" | "-O3") {
        i += if args[i].text == "-D" { 2 } else { 1 };
    }
    let mut starts: Vec<&Arg> = Vec::new();
    while i < args.len() && !is_expr(&args[i].text) {
        starts.push(&args[i]);
        i += 1;
    }
    let root_start = starts.iter().any(|a| target(a, cwd, home.as_deref()).is_some_and(|t| catastrophic(&t.abs, home.as_deref())));
    let mut deletes = false;
    while i < args.len() {
        let t = args[i].text.as_str();
        match t {
            "-delete" => deletes = true,
            "-fprint" | "-fprint0" | "-fls" | "-fprintf" => {
                if let Some(f) = args.get(i + 1) {
                    super::write_to(cx, f, cwd);
                }
                i += if t == "-fprintf" { 2 } else { 1 };
            }
            "-exec" | "-execdir" | "-ok" | "-okdir" => {
                let mut cmd = Vec::new();
                let mut j = i + 1;
                while j < args.len() {
                    let w = &args[j];
                    if w.text == ";" || (w.text == "+" && cmd.last().is_some_and(|p: &Arg| p.text == "{}")) {
                        break;
                    }
                    let mut w = w.clone();
                    if w.text.contains("{}") {
                        w.exact = false;
                    }
                    cmd.push(w);
                    j += 1;
                }
                let program = cmd.first().map(|a| crate::names::program(&a.text).into_owned()).unwrap_or_default();
                if root_start && matches!(program.as_ref(), "rm" | "shred" | "unlink" | "srm") {
                    deletes = true;
                }
                cx.hit(&EXEC);
                cx.argv(&cmd, cwd);
                i = j;
            }
            _ => {}
        }
        i += 1;
    }
    if deletes {
        if root_start {
            cx.hit(&DELETE_ROOT);
        } else {
            cx.hit(&DELETE);
        }
    }
}

/// `fd … -x|--exec CMD …` / `-X|--exec-batch CMD …`: the rest of the words (up to
/// a lone `;`) are the command, run per match (`{}` and its variants are unknown files).
pub(super) fn fd(inv: &Invocation, cx: &mut Cx<'_>) {
    let cwd = inv.cwd.as_deref();
    let args = &inv.args;
    let Some(pos) = args.iter().position(|a| matches!(a.text.as_str(), "-x" | "--exec" | "-X" | "--exec-batch")) else {
        return;
    };
    let cmd: Vec<Arg> = args[pos + 1..]
        .iter()
        .take_while(|a| a.text != ";")
        .map(|a| {
            let mut a = a.clone();
            if a.text.contains('{') {
                a.exact = false;
            }
            a
        })
        .collect();
    cx.hit(&EXEC);
    cx.argv(&cmd, cwd);
}

fn is_expr(t: &str) -> bool {
    (t.starts_with('-') && t.len() > 1) || matches!(t, "(" | ")" | "!" | ",")
}
