//! `patch`: the files a patch writes (read by the patch-text scanner the vocabulary
//! shares with `git apply`/`git am`, `rules::vocab::patch`), its output, reject and
//! backup files.
//!
//! It reads the patch through `Cx::read` (hermetic); it does not apply hunks or
//! check that they fit.

use crate::call::{self, Arg, Invocation};
use crate::rules::vocab::input::{self, Input, Source};
use crate::rules::vocab::patch::{patch_targets, PatchScan};
use crate::rules::{Cx, FileText, Rule};
use crate::words;

/// ## What it matches
/// `patch` whose patch text cannot be read (a pipe, a missing file), or that deletes files.
/// A readable patch is judged per target file as a write (free inside the tree).
/// ## Why this tier
/// Without the text, what it writes and where is unknown.
pub(super) static UNSEEN: Rule = Rule::t3("coreutils.patch.unseen")
    .reason("applies a patch tiergate cannot read (or one that deletes files); show the patch file first")
    .matches(words!["patch -p1 < fix.patch", "cat fix.diff | patch -p1"])
    .not_matches(words!["patch --dry-run -p1 < fix.patch"]);

/// ## What it matches
/// `patch --dry-run` (GNU) / `-C` (BSD `--check`).
/// ## Why this tier
/// A simulation: reports whether the hunks apply, writes nothing.
pub(super) static DRY_RUN: Rule = Rule::t2("coreutils.patch.dry-run")
    .reason("dry run: checks whether the patch applies, writes nothing")
    .matches(words!["patch --dry-run -p1 < fix.patch"])
    .not_matches(words!["patch -p1 < fix.patch"]);

crate::table! {
    /// Value-taking options of GNU patch.
    VALUES = [
        "-p", "--strip", "-i", "--input", "-o", "--output", "-d", "--directory", "-B", "--prefix", "-z", "--suffix", "-r", "--reject-file", "-D", "--ifdef", "-F",
        "--fuzz", "-V", "--version-control", "-g", "--get", "--quoting-style",
    ];
    probe "patch {} in.txt /zzqx/x.txt x.diff" => T3, "paths.write-outside-tree";
}

pub(super) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    let cwd = inv.cwd.as_deref();
    if inv.has_any(words!["--dry-run", "-C", "--check"]) {
        cx.hit(&DRY_RUN);
        return;
    }
    let strip = inv.option(words!["-p", "--strip"]).and_then(|v| v.parse::<usize>().ok()).unwrap_or(usize::MAX);
    let ops = super::operand_args(inv, VALUES);
    if let Some(out) = inv.option(words!["-o", "--output"]) {
        super::write_to(cx, &Arg::lit(out), cwd);
    }
    let dir = call::option_arg(&inv.args, words!["-d", "--directory"]);
    // `-d DIR` changes directory before anything is opened: a relative file is DIR's.
    // The joined path is exact only when both parts are (`-d "$HOME"` is not).
    let in_dir = |path: &Arg| match &dir {
        Some(d) if !path.text.starts_with('/') => Arg { text: format!("{}/{}", d.text, path.text), exact: d.exact && path.exact, ..path.clone() },
        _ => path.clone(),
    };
    // Rejected hunks go to the reject file (`-r -` discards them).
    if let Some(rej) = call::option_arg(&inv.args, words!["-r", "--reject-file"]).filter(|r| r.text != "-") {
        super::write_to(cx, &in_dir(&rej), cwd);
    }
    // `patch FILE [PATCHFILE]`: an explicit target file is the only write (and its
    // backup, `-B PREFIX` + FILE, when the prefix names a directory).
    if let Some(target) = ops.first() {
        super::write_to(cx, &in_dir(target), cwd);
        if let Some(prefix) = call::option_arg(&inv.args, words!["-B", "--prefix"]).filter(|p| p.text.contains('/')) {
            let backup = Arg { text: format!("{}{}", prefix.text, target.text), exact: prefix.exact && target.exact, ..prefix.clone() };
            super::write_to(cx, &in_dir(&backup), cwd);
        }
        if ops.len() >= 2 || inv.option(words!["-i", "--input"]).is_some() || input::of(inv) != Source::None {
            return;
        }
    }
    let text = if let Some(input) = inv.option(words!["-i", "--input"]) {
        match cx.read(input, cwd) {
            FileText::Text(t) => Some(t),
            _ => None,
        }
    } else {
        match cx.input(inv) {
            Input::Seen(t) => Some(t),
            Input::None | Input::Unseen(_) => None,
        }
    };
    let Some(text) = text else {
        cx.hit(&UNSEEN);
        return;
    };
    // Without -p GNU patch uses the basename; stripping everything matches that.
    match patch_targets(&text, strip) {
        PatchScan::Targets { writes, deletes } => {
            if deletes {
                cx.hit_because(&UNSEEN, "the patch deletes files; review it and ask the user".to_owned());
            }
            for w in writes {
                super::write_to(cx, &in_dir(&Arg::lit(&w)), cwd);
            }
            if !cx.reached(crate::verdict::Tier::T1) {
                cx.hit(&super::WRITE);
            }
        }
        PatchScan::Unknown => cx.hit(&UNSEEN),
    }
}

crate::tables![VALUES];
