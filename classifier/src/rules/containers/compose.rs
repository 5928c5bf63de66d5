//! `docker compose …`, `docker-compose …` and `podman-compose …`.
//!
//! Decision: `down -v`/`--volumes` is T3, not blocked: it deletes the named volumes of
//! one compose project only (the same scope as `docker volume rm NAME`), where
//! `docker volume prune` (blocked) deletes every unused volume on the host.

use super::docker::{BUILD, BUILD_PUSH, CHANGE, HELP, READ, REGISTRY, RUN, UNKNOWN};
use super::HELP_READING;
use crate::call::args::asks_help;
use crate::call::{first_positional, has_flag, has_short};
use crate::call::{Arg, Invocation};
use crate::rules::{Cx, Rule};
use crate::words;

/// ## What it matches
/// `docker compose --dry-run ACTION …` (compose v2 honours `--dry-run` for every action).
/// ## Why this tier
/// Simulation: compose prints what it would do and changes nothing.
pub static DRY_RUN: Rule = Rule::t2("containers.compose.dry-run")
    .reason("compose --dry-run only prints what it would do")
    .matches(words!["docker compose --dry-run up -d", "docker compose --dry-run down -v"])
    .not_matches(words!["docker compose up -d"]);

/// ## What it matches
/// `docker compose down -v|--volumes` (and `docker-compose down -v`).
/// ## Why this tier
/// Deletes the project's named volumes, i.e. its data; approvable because it is scoped to one project.
pub static DOWN_VOLUMES: Rule = Rule::t3("containers.compose.down-volumes")
    .reason("compose down -v deletes this project's volumes and their data; run `docker compose down` to keep the data, or ask the user")
    .matches(words!["docker compose down -v", "docker-compose down --volumes", "docker compose -f dev.yml down -v --remove-orphans"])
    .not_matches(words!["docker compose down", "docker compose ps"]);

crate::table! {
    /// Compose global options that take a value.
    VALUE_OPTS = [
        "-f", "--file", "-p", "--project-name", "--project-directory", "--env-file", "--profile", "--ansi", "--progress", "--parallel", "-H", "--host",
        "--context", "-c",
    ];
    probe "docker compose {} down ps" => T0, "containers.read";
}

crate::table! {
    READS = ["ps", "logs", "config", "ls", "images", "top", "version", "port", "events", "convert", "stats", "wait", "volumes", "viz"];
    probe "docker compose {}" => T0, "containers.read";
}
crate::table! {
    RUNS = ["up", "run", "exec", "start", "create", "attach", "watch", "cp", "scale", "restart", "unpause"];
    probe "docker compose {}" => T3, "containers.run";
}
crate::table! {
    CHANGES = ["down", "stop", "rm", "kill", "pause", "commit", "export"];
    probe "docker compose {}" => T3, "containers.change";
}

/// `args` are the words after `compose` (or after `docker-compose`).
pub(super) fn check(args: &[Arg], _inv: &Invocation, cx: &mut Cx<'_>) {
    let Some(i) = first_positional(args, VALUE_OPTS) else {
        cx.hit(&HELP);
        return;
    };
    if asks_help(args, HELP_READING) {
        cx.hit(&HELP);
        return;
    }
    let (mut action, mut rest) = (args[i].text.as_str(), &args[i + 1..]);
    // `compose alpha ACTION`: the experimental actions (`viz` reads; `publish`, `watch` do not).
    if action == "alpha" {
        if let Some(j) = first_positional(rest, words![]) {
            (action, rest) = (rest[j].text.as_str(), &rest[j + 1..]);
        }
    }
    if has_flag(&args[..i], words!["--dry-run"]) || (!READS.contains(action) && has_flag(rest, words!["--dry-run"])) {
        cx.hit(&DRY_RUN);
        return;
    }
    match action {
        a if READS.contains(a) => cx.hit(&READ),
        "build" if has_flag(rest, words!["--push"]) => cx.hit(&BUILD_PUSH),
        "build" => cx.hit(&BUILD),
        "down" if has_short(rest, 'v') || has_flag(rest, words!["--volumes"]) => cx.hit(&DOWN_VOLUMES),
        "push" | "pull" => cx.hit(&REGISTRY),
        a if RUNS.contains(a) => cx.hit(&RUN),
        a if CHANGES.contains(a) => cx.hit(&CHANGE),
        a => cx.hit_because(&UNKNOWN, format!("`compose {a}` is a compose action tiergate does not model; ask the user before running it")),
    }
}

crate::tables![VALUE_OPTS, READS, RUNS, CHANGES];
