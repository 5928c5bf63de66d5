//! Tools whose effect is writing files: `cp mv ln install mkdir touch truncate tee`.
//! Each written path goes through `writes::check_write` (free inside the working
//! tree, T3 for system paths and home dot-files, blocked for `.claude` hooks and
//! settings). `mv` also removes its source, so it is gated as a delete unless it
//! is a rename inside the tree onto a name that does not exist yet, which the
//! file source answers (`FileSource::entry`).
//!
//! It does not look at file contents. For the write policy it checks a
//! destination both as a file and as a directory receiving each source.

use super::{operand_args, target, value_arg, wrote};
use crate::call::{basename, Arg, Invocation};
use crate::lanes::Entry;
use crate::rules::vocab::writes;
use crate::rules::{Cx, Rule};
use crate::words;

/// ## What it matches
/// `mv` that can lose something: it replaces a name that exists, moves a file out
/// of the working tree (or takes one from outside it), names files by a pattern,
/// or runs where tiergate cannot see the tree; and every `rename`.
/// ## Why this tier
/// A move deletes the source path and silently replaces an existing destination.
/// Inside the tree, onto a name that does not exist yet, nothing is lost: the
/// content is at its new name, as after an editor's "save as" (issue 29; free, see
/// `coreutils.write`). `git mv` of tracked files is local-safe.
pub(super) static MOVE: Rule = Rule::t3("coreutils.mv")
    .reason("mv removes the source and silently replaces any existing destination; use git mv for tracked files, or cp and ask before deleting")
    .matches(words!["mv src/a.rs /tmp/", "mv $SRC notes.txt", "mv *.log old/", "mv /etc/hosts hosts.bak", "rename 's/a/b/' *.txt"])
    .not_matches(words![
        "git mv old.txt new.txt", "mv x.sh .claude/hooks/guard.sh", "cp old.txt new.txt", "mv old.txt new.txt", "mv build/out.py_new src/out.py"
    ])
    .suggest("git mv old.txt new.txt");

/// ## What it matches
/// `cp`, `mv`, `install`, `rsync` of a private key or credentials file
/// (`id_rsa`, `id_ed25519`, `*.pem`, `*.key`, `.netrc`, `.pgpass`, `credentials`), anywhere.
/// ## Why this tier
/// A copy in `/tmp` is readable by others; a copy in the tree gets committed.
pub(super) static SECRET: Rule = Rule::t3("coreutils.copy.secret")
    .reason("copies a private key or credentials file; ask the user, and never into the tree or /tmp")
    .matches(words!["cp id_rsa /tmp/", "cp ~/.ssh/id_ed25519 ./key", "cp server.pem backup/", "rsync -a ~/.aws/credentials out/"])
    .not_matches(words!["cp id_rsa.pub keys/", "cp src.txt dst.txt"]);

/// True for file names that hold secrets.
pub(super) fn is_secret(path: &str) -> bool {
    let name = basename(path.trim_end_matches('/'));
    matches!(name, "id_rsa" | "id_dsa" | "id_ecdsa" | "id_ed25519" | ".netrc" | ".pgpass" | "credentials" | ".git-credentials" | "shadow")
        || name.ends_with(".pem")
        || name.ends_with(".key")
        || name.ends_with(".p12")
        || name.ends_with(".pfx")
}

crate::table! {
    /// cp and mv options that take a value.
    VALUES_CP = ["-t", "--target-directory", "-S", "--suffix"];
    probe "cp a.txt b.txt {} /zzqx/x" => T0;
    probe only ["-t", "--target-directory"] "cp {} in.d a.txt /zzqx/x" => T0;
}
crate::table! {
    VALUES_INSTALL = ["-m", "--mode", "-o", "--owner", "-g", "--group", "-t", "--target-directory", "-S", "--suffix", "--strip-program"];
    probe "install a b {} /etc/x" => T0;
    except ["-t", "--target-directory"]: "its value is the destination, so /etc/x is written with or without the entry";
    except ["--strip-program"]: "its value is a program install runs (coreutils.runs-program)";
}
crate::table! {
    VALUES_TOUCH = ["-r", "--reference", "-d", "--date", "-t"];
    probe "touch {} /etc/x f" => T0, "coreutils.write";
}
crate::table! {
    VALUES_TRUNCATE = ["-s", "--size", "-r", "--reference"];
    probe "truncate {} /etc/x f" => T0, "coreutils.write";
}

pub(super) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    let cwd = inv.cwd.as_deref();
    match inv.program.as_str() {
        "mv" | "cp" | "ln" | "install" => copy_like(inv, cx),
        // `mkdir -m 700 dir`: a mode or SELinux context read as one more directory
        // name is a relative name in the working directory, never a protected one,
        // so reading it as an operand can only ask more, never less.
        "mkdir" => {
            // Directories: no later unit reads them as a file the line wrote.
            for a in operand_args(inv, words![]) {
                cx.new_dir = true;
                super::write_to(cx, a, cwd);
                cx.new_dir = false;
            }
        }
        "touch" => each(cx, &operand_args(inv, VALUES_TOUCH), cwd),
        "truncate" => each(cx, &operand_args(inv, VALUES_TRUNCATE), cwd),
        "rename" => {
            // util-linux `rename FROM TO FILES` or perl `rename EXPR FILES` (perl code):
            // either way files lose their names.
            cx.hit_because(&MOVE, "rename renames files in bulk (the perl variant also runs its expression as code); ask the user or use git mv".to_owned());
            let ops = operand_args(inv, words![]);
            each(cx, ops.get(1..).unwrap_or(&[]), cwd);
        }
        _ => each(cx, &operand_args(inv, words![]), cwd), // `tee`, `sponge`
    }
    wrote(cx);
}

fn each(cx: &mut Cx<'_>, ops: &[&Arg], cwd: Option<&str>) {
    for a in ops {
        super::write_to(cx, a, cwd);
    }
}

fn copy_like(inv: &Invocation, cx: &mut Cx<'_>) {
    let cwd = inv.cwd.as_deref();
    let program = inv.program.as_str();
    let values = if program == "install" { VALUES_INSTALL } else { VALUES_CP };
    let ops = operand_args(inv, values);
    if program == "install" && inv.has_any(words!["-d", "--directory"]) {
        each(cx, &ops, cwd);
        return;
    }
    if program == "install" && inv.has_long("--strip-program") {
        cx.hit_because(&super::text::RUNS_PROGRAM, "install --strip-program runs that program on the installed files; drop the option".to_owned());
    }
    let target_dir = value_arg(inv, words!["-t", "--target-directory"]);
    let (sources, dest): (Vec<&Arg>, Option<Arg>) = match target_dir {
        Some(d) => (ops.clone(), Some(d)),
        None if ops.len() >= 2 => (ops[..ops.len() - 1].to_vec(), ops.last().map(|a| (*a).clone())),
        None if program == "ln" && ops.len() == 1 => {
            // `ln -s TARGET` makes a link named after TARGET in the cwd.
            (Vec::new(), ops.first().map(|a| Arg { text: basename(&a.text).to_owned(), ..(*a).clone() }))
        }
        None => (Vec::new(), None),
    };
    let Some(dest) = dest else {
        return;
    };
    if program != "ln" {
        if let Some(s) = sources.iter().find(|s| is_secret(&s.text)) {
            cx.hit_because(&SECRET, format!("copies `{}`, a private key or credentials file; ask the user, and never into the tree or /tmp", s.text));
        }
    }
    // `mv x .claude` may rename a directory onto `.claude`; `mv x .claude/` only moves x inside
    // (checked below under its own name).
    let recursive = (program == "mv" && !dest.text.ends_with('/')) || (program == "cp" && inv.has_any(words!["-r", "-R", "-a", "--recursive", "--archive"]));
    copy_dest(cx, &dest, &sources, cwd, recursive);
    if program == "mv" {
        for s in &sources {
            if writes::is_protected(cx, &s.text, cwd) {
                super::write_to(cx, s, cwd);
            }
        }
        if let Err(why) = renames_in_tree(inv, cx, &sources, &dest) {
            cx.hit_because(&MOVE, format!("{why}; use git mv for tracked files, or ask the user"));
        }
    }
}

/// A rename that loses nothing: each source is authoring space (the tree, or
/// scratch), and each name it lands on is in the tree and does not exist yet, as
/// the file source says (the hook reads the real file system). Otherwise, why not.
fn renames_in_tree(inv: &Invocation, cx: &Cx<'_>, sources: &[&Arg], dest: &Arg) -> Result<(), String> {
    let cwd = inv.cwd.as_deref();
    if cx.root_str().is_none() {
        return Err("mv removes the source and replaces the destination if it exists, and tiergate cannot see the working tree to tell".to_owned());
    }
    for s in sources {
        // A pattern (`*.log`) names files tiergate cannot list.
        if s.text.contains(['*', '?', '[']) {
            return Err(format!("mv of `{}`, a pattern whose files (and the names they land on) tiergate cannot see", s.text));
        }
        if writes::authored(cx, s, cwd).is_none() {
            return Err(format!("mv removes `{}` from a place outside the working tree (or one tiergate cannot resolve)", s.text));
        }
    }
    let Some(d) = writes::authored(cx, dest, cwd).filter(|d| !d.scratch) else {
        return Err(format!("mv moves files out of the working tree, to `{}`", dest.text));
    };
    let no_target_dir = inv.has_any(words!["-T", "--no-target-directory"]);
    let landing: Vec<String> = match cx.entry(&d.abs, None) {
        Entry::Dir if !no_target_dir => {
            let mut names = Vec::with_capacity(sources.len());
            for s in sources {
                let name = basename(s.text.trim_end_matches('/'));
                if matches!(name, "" | "." | "..") {
                    return Err(format!("mv of `{}` into `{}`", s.text, dest.text));
                }
                names.push(format!("{}/{name}", d.abs));
            }
            names
        }
        // A missing destination is the new name of a single source; given several
        // sources, or `-t`, mv fails and moves nothing.
        Entry::Missing => return Ok(()),
        Entry::Dir => return Err(format!("`{}` is a directory that mv -T replaces", dest.text)),
        Entry::File => return Err(format!("`{}` already exists, and mv replaces it", dest.text)),
        Entry::Other | Entry::Unknown => return Err(format!("tiergate cannot tell what `{}` is (a link, or unreadable), so mv may replace it", dest.text)),
    };
    match landing.iter().find(|l| cx.entry(l, None) != Entry::Missing || writes::authored(cx, &Arg::lit(l), cwd).is_none_or(|a| a.scratch)) {
        Some(l) => Err(format!("`{l}` already exists, and mv replaces it")),
        None => Ok(()),
    }
}

/// Checks a copy destination both as the written file and as a directory that
/// receives each source under its own name (`cp -r backup/.claude .`).
pub(crate) fn copy_dest(cx: &mut Cx<'_>, dest: &Arg, sources: &[&Arg], cwd: Option<&str>, recursive: bool) {
    super::write_to(cx, dest, cwd);
    let home = cx.home();
    // A directory copied onto `.claude` (or `.claude/hooks`) brings its own hooks and settings.
    if recursive {
        if let Some(t) = target(dest, cwd, home.as_deref()) {
            if t.abs.ends_with("/.claude") || t.abs.ends_with("/.claude/hooks") {
                writes::replaces_guard(cx, &format!("a directory copied onto `{}`", dest.text));
                return;
            }
        }
    }
    for s in sources {
        let name = basename(s.text.trim_end_matches('/'));
        if name.is_empty() || name == "." || name == ".." {
            continue;
        }
        let joined = Arg { text: format!("{}/{}", dest.text.trim_end_matches('/'), name), exact: dest.exact && s.exact, ..dest.clone() };
        if let Some(t) = target(&joined, cwd, home.as_deref()) {
            if t.abs.ends_with("/.claude") || t.abs.ends_with("/.claude/hooks") {
                writes::replaces_guard(cx, &format!("`{}` lands in {}", s.text, t.abs));
                continue;
            }
        }
        if writes::is_protected(cx, &joined.text, cwd) {
            super::write_to(cx, &joined, cwd);
        }
    }
}

crate::tables![VALUES_CP, VALUES_INSTALL, VALUES_TOUCH, VALUES_TRUNCATE];
