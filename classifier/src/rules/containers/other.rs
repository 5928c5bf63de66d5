//! Lower-level container tools (`buildah`, `skopeo`, `ctr`, `crictl`) and VM
//! managers (`lima`/`limactl`, `colima`, `vagrant`).
//!
//! Verbs are looked up in each tool's read list, then the generic verb tables;
//! anything unknown is T3 because these tools mutate by default.

use super::docker::{BUILD, HELP};
use crate::call::Invocation;
use crate::rules::packages::args::{operand_words, verb, wants_help, Verb};
use crate::rules::{Cx, Rule};

/// ## What it matches
/// Read-only actions of `buildah`, `skopeo`, `ctr` and `crictl` (`skopeo inspect`, `ctr images ls`,
/// `crictl ps`, `buildah images`).
/// ## Why this tier
/// They only report on images, containers and pods.
pub static TOOL_READ: Rule = Rule::t0("containers.tool-read")
    .reason("reads container runtime or registry state only")
    .matches(&["skopeo inspect docker://nginx", "ctr images ls", "crictl ps -a", "buildah images", "crictl pods"])
    .not_matches(&["ctr images rm nginx", "skopeo copy docker://a docker://b"]);

/// ## What it matches
/// Any other action of those tools: `skopeo copy|delete|sync|login`, `ctr run|images rm|tasks kill`,
/// `crictl rmi|stopp|rmp|exec`, `buildah from|run|commit|push|rm`; unknown actions too.
/// ## Why this tier
/// Changes containers, images or registries; these CLIs mutate by default, so unknown is T3.
pub static TOOL_CHANGE: Rule = Rule::t3("containers.tool-change")
    .reason("changes containers, images or a registry through a low-level runtime tool; ask the user first")
    .matches(&[
        "skopeo copy docker://a docker://b", "ctr images rm nginx", "crictl rmi nginx", "buildah push app docker://r/app", "skopeo delete docker://r/app:1",
        "ctr images label docker.io/library/nginx:latest env=prod",
    ])
    .not_matches(&["crictl ps", "skopeo list-tags docker://nginx"]);

/// ## What it matches
/// Read-only VM manager commands: `limactl list`, `colima status`, `vagrant status|global-status|ssh-config`.
/// ## Why this tier
/// They only report on VMs.
pub static VM_READ: Rule = Rule::t0("containers.vm-read")
    .reason("reads VM state only")
    .matches(&["limactl list", "colima status", "vagrant status", "vagrant box list", "vagrant global-status"])
    .not_matches(&["vagrant destroy -f", "colima start"]);

/// ## What it matches
/// Everything else: `vagrant up|halt|destroy|provision|ssh`, `colima start|stop|delete`,
/// `limactl start|stop|delete|shell`, `lima CMD` (runs CMD in the VM).
/// ## Why this tier
/// Starts, stops, deletes or enters a VM; approvable (the VM's disk is local and scoped).
pub static VM_CHANGE: Rule = Rule::t3("containers.vm-change")
    .reason("starts, stops, deletes or enters a VM; ask the user first")
    .matches(&["vagrant up", "vagrant destroy -f", "colima start --cpu 4", "limactl shell default", "lima uname -a", "lima"])
    .not_matches(&["vagrant status", "limactl list"]);

/// Tool actions that only read (beyond the generic read verbs).
/// The generic read verbs (`packages::args::READ_VERBS`: images, inspect, ps, logs, stats,
/// info, version, ls, list) are asked right after this table, so they are not repeated here.
const TOOL_READS: &[&str] =
    &["containers", "inspecti", "inspectp", "pods", "statsp", "imagefsinfo", "list-tags", "content", "snapshots", "namespaces", "plugins", "leases", "tasks"];
/// Tool actions that change things even where the generic tables read them (the generic
/// mutating verbs, `packages::args::MUTATIVE_VERBS`, are asked beside this table, so not repeated).
const TOOL_CHANGES: &[&str] =
    &["rmi", "rmp", "stopp", "runp", "from", "commit", "login", "logout", "pull", "umount", "unmount", "prune", "config", "manifest", "bud", "build"];
/// Value options of these tools' global flags.
const TOOL_VALUE_OPTS: &[&str] = &[
    "-n", "--namespace", "-a", "--address", "-r", "--runtime-endpoint", "-i", "--image-endpoint", "-c", "--config", "-t", "--timeout", "--override-os",
    "--override-arch", "--registries-conf", "--storage-driver", "--root", "--runroot",
];

pub(super) fn tool(inv: &Invocation, cx: &mut Cx<'_>) {
    if wants_help(&inv.args, &["-h"]) {
        cx.hit(&HELP);
        return;
    }
    let words: Vec<&str> = operand_words(&inv.args, TOOL_VALUE_OPTS).into_iter().take(2).map(|(_, w)| w).collect();
    if words.is_empty() {
        cx.hit(&HELP);
        return;
    }
    if inv.program == "buildah" && matches!(words[0], "bud" | "build") {
        cx.hit(&BUILD);
        return;
    }
    // `ctr images rm`: a changing word anywhere in the first two wins over a group noun.
    if words.iter().any(|w| TOOL_CHANGES.contains(w) || verb(w, &[], &[]) == Verb::Mutate) {
        cx.hit(&TOOL_CHANGE);
    } else if words.iter().any(|w| TOOL_READS.contains(w) || verb(w, &[], &[]) == Verb::Read) {
        cx.hit(&TOOL_READ);
    } else {
        cx.hit_because(&TOOL_CHANGE, format!("`{} {}` is not an action tiergate models; ask the user first", inv.program, words.join(" ")));
    }
}

const VM_READS: &[&str] =
    &["list", "ls", "status", "global-status", "ssh-config", "version", "info", "port", "validate", "show-ssh", "--version", "sudoers", "prune-dry-run"];

pub(super) fn vm(inv: &Invocation, cx: &mut Cx<'_>) {
    if wants_help(&inv.args, &["-h"]) {
        cx.hit(&HELP);
        return;
    }
    if inv.program == "lima" {
        // `lima CMD…` runs CMD inside the default instance.
        if inv.args.is_empty() {
            cx.hit(&VM_CHANGE);
        } else {
            cx.hit_because(&VM_CHANGE, "runs a command inside the lima VM; ask the user first".to_owned());
        }
        return;
    }
    let words: Vec<&str> = operand_words(&inv.args, &["--profile", "-p"]).into_iter().take(2).map(|(_, w)| w).collect();
    let read = match words.as_slice() {
        [] => inv.args.iter().all(|a| a.text == "--version" || a.text == "-v"),
        [w] => VM_READS.contains(w),
        [group, action, ..] => VM_READS.contains(group) || (matches!(*group, "box" | "plugin" | "snapshot" | "cloud") && VM_READS.contains(action)),
    };
    cx.hit(if read { &VM_READ } else { &VM_CHANGE });
}
