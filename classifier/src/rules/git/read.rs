//! Read-only git subcommands (`status`, `log`, `diff`, `show`, `blame` …), help,
//! their `--output=FILE` writes and the options that run a program
//! (`grep -O`, `difftool -x`), plus unknown subcommands.
//!
//! It does not cover subcommands that change refs, the index or the worktree.

use super::GitCall;
use crate::call::args::{ArgSpec, Args, Token};
use crate::call::value_arg;
use crate::rules::vocab::verbs::mutates_history;
use crate::rules::{Cx, Rule};
use crate::words;

/// ## What it matches
/// Subcommands that only read the repository: `status log diff show blame reflog
/// shortlog ls-files ls-tree ls-remote rev-parse rev-list describe grep cat-file
/// for-each-ref merge-base whatchanged show-ref name-rev archive format-patch …`, and bare `git`.
/// ## Why this tier
/// They print repository state and change nothing (an `--output` file is judged as a write).
pub(super) static READ: Rule = Rule::t0("git.read")
    .reason("git subcommand that only reads the repository")
    .matches(words![
        "git status", "git log --oneline", "/usr/bin/git status", "git -C ../other-repo status", "git --no-pager log -5", "git grep -n 'rm -rf'",
        "git log --grep='push --force'", "git merge-base main HEAD", "git --help log --oneline", "git", "git worktree list",
        // One per site that answers git.read outside this file (config.rs, history.rs, local.rs, globals.rs).
        "git remote prune -n origin", "git remote add --dry-run upstream https://x/up.git", "git remote -v", "git tag -l", "git submodule status",
        "git --dry-run", "git replace -l", "git reflog", "git symbolic-ref HEAD", "git prune -n", "git credential capability", "git ls-remote origin",
        "git apply --check fix.patch", "git bundle create repo.bundle --all", "git bugreport -o reports",
    ])
    .not_matches(words!["git push", "git log --output=/etc/motd", "git bundle create /etc/x.bundle HEAD", "git bugreport -o /etc/x", "git diagnose -o ~/.ssh"]);

/// ## What it matches
/// `git <subcommand> --help` / `-h`, and `git help <subcommand>`.
/// ## Why this tier
/// Prints documentation; nothing runs.
pub(super) static HELP: Rule = Rule::t0("git.help")
    .reason("prints git help; nothing runs")
    .matches(words!["git push --help", "git reset -h", "git worktree remove --help", "git --help push", "git help reset"])
    .not_matches(words!["git push origin main", "git --help push origin main", "git clean -fdx -e -h", "git commit -m -h"]);

/// ## What it matches
/// Options of reading subcommands that run a program: `git grep -O/--open-files-in-pager`,
/// `git difftool -x/--extcmd`, `git log|diff --ext-diff` is not one (it uses configured drivers).
/// ## Why this tier
/// The named program runs with the user's rights.
pub(super) static OUTPUT_PROGRAM: Rule = Rule::t3("git.read.runs-program")
    .reason("this git option runs another program on the results; run that program yourself on the listed files")
    .matches(words!["git grep -Ovim foo", "git grep --open-files-in-pager=vim foo", "git difftool -x 'rm -f' HEAD"])
    .not_matches(words!["git grep -n foo", "git difftool HEAD"]);

/// ## What it matches
/// A subcommand tiergate does not model whose name is not a mutating verb
/// (third-party `git-foo` helpers, config aliases such as `git st`).
/// ## Why this tier
/// Safe by elimination, as for unknown programs; mutating verbs get `git.unknown.mutative`.
/// ## Known gaps
/// A config alias (`alias.st = !rm -rf x`) defined in `.gitconfig` is not read.
pub(super) static UNKNOWN: Rule = Rule::t0("git.unknown")
    .reason("git subcommand tiergate does not model and whose name does not say it changes anything")
    .matches(words!["git st", "git absorb --help-me", "git fame --bytype", "git bug ls", "git standup"])
    .not_matches(words!["git publish", "git status", "git clear"])
    .unmodelled_word();

/// ## What it matches
/// An unmodelled subcommand named for a mutating verb (`git publish`, `git sync`,
/// `git deploy`, `git delete-merged`), or a computed subcommand word.
/// ## Why this tier
/// The name says it changes state; unseen is not safe.
pub(super) static UNKNOWN_MUTATIVE: Rule = Rule::t3("git.unknown.mutative")
    .reason("unmodelled git subcommand named for a mutating verb; check what it does and ask the user")
    .matches(words!["git publish", "git sync", "git delete-merged-branches", "git $SUB", "git flow feature publish x", "git clear", "git bug push"])
    .not_matches(words!["git st", "git status"])
    .unmodelled_word();

crate::table! {
    /// Subcommands answered by `git.read` (an unknown word is T0 too, by `git.unknown`, so the probe names the rule).
    /// `cherry` and `ls-remote` are local.rs's (`LOCAL_SUBS`, which answers first), read there.
    READ_SUBS = [
        "status", "log", "diff", "show", "blame", "annotate", "shortlog", "ls-files", "ls-tree", "rev-parse", "rev-list", "describe", "grep", "cat-file",
        "for-each-ref", "merge-base", "whatchanged", "show-ref", "show-branch", "name-rev", "count-objects", "verify-commit", "verify-tag", "verify-pack",
        "check-ignore", "check-attr", "check-mailmap", "check-ref-format", "range-diff", "var", "version", "help", "diff-tree", "diff-index", "diff-files",
        "get-tar-commit-id", "archive", "format-patch", "request-pull", "difftool", "fsck", "bugreport", "column", "fmt-merge-msg", "hash-object",
        "interpret-trailers", "mailinfo", "mailsplit", "merge-tree", "patch-id", "stripspace", "unpack-file", "show-index", "diagnose", "bundle",
    ];
    probe "git {}" => T0, "git.read";
    except ["help"]: "`git help` prints help (git.help); without the entry `git help reset` reads as the mutating verb `reset`";
}

crate::table! {
    /// Well-known third-party subcommands (git-extras and friends) that discard work,
    /// rewrite history, write global config or send data elsewhere.
    RISKY_EXTRAS = [
        "clear", "clear-soft", "fresh-branch", "graft", "scp", "rscp", "paste", "magic", "alias", "psykorebase", "merge-into", "merge-repo", "reset-file", "bulk",
        "reauthor", "sed", "utimes", "secret", "crypt", "setup", "lock", "unlock", "stamp", "coauthor", "for-each-repo", "subtree", "rebase-patch", "pr", "mr",
        "pull-request", "gh-pages",
    ];
    probe "git {}" => T3, "git.unknown.mutative";
}

crate::table! {
    /// Flags that mark an unknown subcommand as destructive.
    RISKY_FLAGS = ["--force", "-f", "--delete", "-D", "--purge", "--hard", "--prune", "--remove", "--remote"];
    probe "git frobnicate {}" => T3, "git.unknown.mutative";
}

pub(super) fn check(call: &GitCall, cx: &mut Cx<'_>) {
    let sub = call.sub.as_str();
    if READ_SUBS.contains(sub) {
        read(call, cx);
        return;
    }
    // The subcommand and the next two operand words (`git flow feature publish`).
    let words: Vec<&str> = std::iter::once(sub).chain(call.inv.bare_words().take(2)).filter(|w| !w.contains(['/', '.'])).collect();
    // The verb vocabulary's words (`rules::vocab::verbs`), with the version-control
    // helpers' own (`land`, `squash`); a hyphenated word by its head (`git prune-x`).
    let verb = words.iter().find(|w| {
        let head = w.split(['-', '_']).next().unwrap_or(w);
        mutates_history(head) || mutates_history(w)
    });
    let risky = RISKY_EXTRAS.contains(sub) || call.inv.has_any(RISKY_FLAGS);
    if let Some(v) = verb {
        cx.hit_because(&UNKNOWN_MUTATIVE, format!("`git {sub}` is not modelled and `{v}` says it changes state; check what it does and ask the user"));
    } else if risky {
        cx.hit_because(&UNKNOWN_MUTATIVE, format!("`git {sub}` is a third-party helper (or has a destructive flag) that can discard work, rewrite history or send data; check what it does and ask the user"));
    } else {
        cx.hit(&UNKNOWN);
    }
}

/// `git bundle create`'s value option before the file: `--version=N` is the bundle
/// format's number, so the word after a bare `--version` is no operand.
const BUNDLE_CREATE_VALUES: crate::words::Words = words!["--version"]; // not help: a value option, the bundle format

fn read(call: &GitCall, cx: &mut Cx<'_>) {
    let inv = &call.inv;
    let sub = call.sub.as_str();
    if sub == "help" {
        cx.hit(&HELP);
        return;
    }
    cx.hit(&READ);
    if sub == "archive" {
        super::local::transport(call, cx);
    }
    // `-o` is the output of `archive` and `format-patch`, the output directory of `bugreport` and `diagnose`.
    let outputs = if matches!(sub, "archive" | "format-patch" | "bugreport" | "diagnose") {
        words!["--output", "--output-directory", "-o"]
    } else {
        words!["--output", "--output-directory"]
    };
    for t in Args::parse(&inv.args, ArgSpec::values(outputs)) {
        if let Token::Opt { index, value: Some(v), .. } = t {
            call.write(cx, &value_arg(&inv.args, index, v));
        }
    }
    // `git bundle create FILE REVS`: FILE is written (`-` is stdout).
    if sub == "bundle" && inv.arg(0) == Some("create") {
        let file = Args::parse(&inv.args[1..], ArgSpec::values(BUNDLE_CREATE_VALUES)).operands().next().map(|o| o.arg.clone());
        if let Some(f) = file.filter(|f| f.text != "-") {
            call.write(cx, &f);
        }
    }
    let runs = match sub {
        // `-O[PAGER]`, `--open-files-in-pager[=PAGER]`: the value is optional.
        "grep" => Args::parse(&inv.args, ArgSpec::values(words![]).with_optional(words!["-O", "--open-files-in-pager"])).has(&["-O", "--open-files-in-pager"]),
        "difftool" => Args::parse(&inv.args, ArgSpec::values(words!["-x", "--extcmd"])).has(&["-x", "--extcmd"]),
        _ => false,
    };
    if runs {
        cx.hit(&OUTPUT_PROGRAM);
    }
}

crate::tables![READ_SUBS, RISKY_EXTRAS, RISKY_FLAGS];
