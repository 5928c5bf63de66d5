//! The `containers` family: docker, podman, nerdctl (and their compose front ends),
//! buildah, skopeo, ctr, crictl, and the VM managers lima, colima and vagrant.
//!
//! It parses the CLI's global options, finds the subcommand (and the action of a
//! management group such as `docker volume prune`) and hands off to the rule files.
//! It does not classify the command a container runs (`docker exec web rm -rf /`):
//! that runs inside the container's file system, not the host's, so the exec itself
//! (T3) is the verdict; see `docker.rs`.

use crate::words;

mod compose;
mod docker;
mod other;

use crate::call::args::{ArgSpec, Help};
use crate::call::Invocation;
use crate::rules::{Card, Check, Cx, Family, Rule};

pub static FAMILY: Family = Family::new("containers", CARDS, RULES).entered_by(enter).answers_help(&docker::HELP);

/// `--help` and `-h`: every program here prints its usage for either.
const HELP: Help = Help::LONG.with(Help::DASH_H);
/// The reading a subcommand's words are asked for help under (`docker run --help`,
/// `docker volume prune --help`): the help words where they are options of their
/// own, never an undeclared option's possible value (`docker --config --help rm`).
pub(super) const HELP_READING: ArgSpec = ArgSpec::values(words![]).help(HELP);

static CARDS: &[Card] = &[
    Card::of(words!["docker", "podman", "nerdctl"], docker::check),
    Card::of(words!["docker-compose", "podman-compose"], |inv, cx| compose::check(&inv.args, inv, cx)),
    // The tools and VM managers read help anywhere in argv (`skopeo copy --help`);
    // docker's help is its subcommand's (`docker.rs`, `compose.rs`).
    Card::of(words!["buildah", "skopeo", "ctr", "crictl"], other::tool).help(HELP),
    Card::of(words!["lima", "limactl", "colima", "vagrant"], other::vm).help(HELP),
];

static RULES: &[&Rule] = &[
    &docker::READ,
    &docker::HELP,
    &docker::BUILD,
    &docker::BUILD_PUSH,
    &docker::RUN,
    &docker::RUN_HOST,
    &docker::CHANGE,
    &docker::REGISTRY,
    &docker::PRUNE_ALL,
    &docker::PRUNE_VOLUMES,
    &docker::SYSTEM_RESET,
    &docker::UNKNOWN,
    &compose::DRY_RUN,
    &compose::DOWN_VOLUMES,
    &other::TOOL_READ,
    &other::TOOL_CHANGE,
    &other::VM_READ,
    &other::VM_CHANGE,
];

fn enter(inv: &Invocation, cx: &mut Cx<'_>, check: Check) {
    // Only compose honours `--dry-run`; elsewhere the flag is ignored, so it neither
    // lowers nor raises a verdict.
    let compose = matches!(inv.program.as_str(), "docker-compose" | "podman-compose") || inv.words().any(|w| w == "compose");
    if !compose && inv.args.iter().any(|a| a.text == "--dry-run") {
        let mut plain = inv.clone();
        plain.args.retain(|a| a.text != "--dry-run");
        return check(&plain, cx);
    }
    check(inv, cx)
}

crate::tables![; compose, docker, other];
