//! The `backup` family: backup tools that keep snapshots in a repository. `restic`
//! (one CLI, about twenty subcommands): listing and reading snapshots is a read,
//! `check` a validation, `--dry-run` a simulation; writing a snapshot, restoring
//! files, creating or unlocking a repository or changing its keys changes state,
//! and `forget`/`prune` delete snapshots and their data.
//!
//! This file is the example docs/architecture.md's "find a change" table points at:
//! a new CLI is this one file and its registration in `rules/mod.rs`. It does not
//! model what a repository holds or whether a restore overwrites newer files.

use crate::call::args::{ArgSpec, Args, Help};
use crate::call::{Arg, Invocation};
use crate::rules::vocab::writes;
use crate::rules::{Card, Carried, Carry, Cx, Family, Rule};
use crate::words;

pub static FAMILY: Family = Family::new("backup", CARDS, RULES).answers_help(&READ);

static CARDS: &[Card] = &[Card::of(words!["restic"], restic).args(RESTIC_ARGS).help(Help::LONG.with(Help::DASH_H)).carries(&RESTIC_CARRIES)];

static RULES: &[&Rule] = &[&READ, &CHECK, &DRY_RUN, &WRITE, &DELETE];

/// restic's options that take a value (global and per subcommand), so that a value
/// (`-r /srv/repo`, `--tag backup`) is never read as the subcommand.
const RESTIC_ARGS: ArgSpec = ArgSpec::values(words![
    "-r", "--repo", "--repository-file", "-p", "--password-file", "--password-command", "--cache-dir", "--key-hint", "--limit-upload", "--limit-download",
    "-o", "--option", "--tls-client-cert", "--cacert", "--pack-size", "--compression", "--tag", "--host", "--path", "-t", "--target", "--exclude", "-e",
    "--include", "-i", "--keep-last", "--keep-hourly", "--keep-daily", "--keep-weekly", "--keep-monthly", "--keep-yearly", "--keep-within", "--keep-tag",
    "--group-by", "--files-from", "--exclude-file", "--iexclude", "--from-repo", "--from-password-file", "--from-password-command", "--stdin-filename",
]);

/// restic runs `--password-command` through the shell to read the password.
static RESTIC_CARRIES: [Carried; 1] = [Carried { names: words!["--password-command", "--from-password-command"], carry: Carry::Shell }];

/// ## What it matches
/// `restic snapshots|ls|cat|stats|diff|find|dump|version|help|list|generate`, `restic key list`, and `--help` anywhere.
/// ## Why this tier
/// They read the repository (or print restic's own text); nothing in it or on disk changes.
pub static READ: Rule = Rule::t0("backup.read")
    .reason("reads a backup repository (snapshots, files, statistics) only")
    .matches(words!["restic snapshots", "restic -r /srv/repo ls latest", "restic stats --mode raw-data", "restic key list", "restic backup --help"])
    .not_matches(words!["restic backup ~/src", "restic forget --keep-last 3"]);

/// ## What it matches
/// `restic check` (with or without `--read-data`).
/// ## Why this tier
/// It verifies the repository's structure and data, reading only.
pub static CHECK: Rule = Rule::t1("backup.check")
    .reason("verifies a backup repository's integrity, reading only")
    .matches(words!["restic check", "restic -r /srv/repo check --read-data"])
    .not_matches(words!["restic prune"]);

/// ## What it matches
/// `restic backup|forget|prune|restore|rewrite --dry-run` (or `-n`).
/// ## Why this tier
/// restic says what it would write or remove and changes nothing.
pub static DRY_RUN: Rule = Rule::t2("backup.dry-run")
    .reason("a restic dry run: says what would be written or removed, changes nothing")
    .matches(words!["restic backup --dry-run .", "restic forget -n --keep-last 3 --prune", "restic prune --dry-run"])
    .not_matches(words!["restic prune", "restic backup ."]);

/// ## What it matches
/// `restic backup|init|restore|tag|unlock|copy|mount|rewrite|repair|migrate|recover|self-update|cache`, `restic key
/// add|remove|passwd`, and any subcommand tiergate does not know. A restore's `--target` goes through the path policy.
/// ## Why this tier
/// A snapshot is written, files are restored over a directory, or the repository's locks, keys or format change.
pub static WRITE: Rule = Rule::t3("backup.write")
    .reason("writes a backup repository or restores files from it; ask the user first")
    .matches(words![
        "restic backup ~/src", "restic -r /srv/repo init", "restic restore latest --target ./out", "restic unlock", "restic key add", "restic frob"
    ])
    .not_matches(words!["restic snapshots", "restic backup -n ."]);

/// ## What it matches
/// `restic forget` and `restic prune` (not as a dry run).
/// ## Why this tier
/// Snapshots and the data only they referenced are deleted from the repository; approvable, but never silently.
pub static DELETE: Rule = Rule::t3("backup.delete")
    .reason("deletes snapshots or their data from a backup repository; ask the user first")
    .matches(words!["restic forget --keep-last 3 --prune", "restic prune", "restic forget 4bba301e"])
    .not_matches(words!["restic forget --dry-run --keep-last 3", "restic snapshots"]);

crate::table! {
    /// restic subcommands that only read.
    READS = ["snapshots", "ls", "cat", "stats", "diff", "find", "dump", "version", "help", "list", "generate"];
    probe "restic {}" => T0, "backup.read";
}

crate::table! {
    /// restic subcommands that honour `--dry-run`.
    DRY_RUNS = ["backup", "forget", "prune", "restore", "rewrite"];
    probe "restic {} --dry-run" => T2, "backup.dry-run";
}

fn restic(inv: &Invocation, cx: &mut Cx<'_>) {
    let operands: Vec<&Arg> = Args::parse(&inv.args, RESTIC_ARGS).operands().map(|o| o.arg).collect();
    let Some(sub) = operands.first().map(|a| a.text.as_str()) else { return cx.hit(&READ) };
    let dry = crate::call::has_flag(&inv.args, words!["--dry-run", "-n"]);
    match (sub, operands.get(1).map(|a| a.text.as_str())) {
        (s, _) if READS.contains(s) => cx.hit(&READ),
        ("key", Some("list")) => cx.hit(&READ),
        ("check", _) => cx.hit(&CHECK),
        (s, _) if dry && DRY_RUNS.contains(s) => cx.hit(&DRY_RUN),
        ("forget" | "prune", _) => cx.hit_because(&DELETE, format!("`restic {sub}` deletes snapshots or their data; ask the user first")),
        ("restore", _) => {
            cx.hit_because(&WRITE, "`restic restore` writes files from a snapshot; ask the user first".to_owned());
            if let Some(target) = crate::call::option_arg(&inv.args, words!["-t", "--target"]) {
                writes::check_write(cx, &target, inv.cwd.as_deref());
            }
        }
        (s, _) => cx.hit_because(&WRITE, format!("`restic {s}` writes the backup repository or changes its keys or locks; ask the user first")),
    }
}

crate::tables![READS, DRY_RUNS];
