//! Lower-level container tools (`buildah`, `skopeo`, `ctr`, `crictl`) and VM
//! managers (`lima`/`limactl`, `colima`, `vagrant`).
//!
//! Verbs are looked up in each tool's read list, then the generic verb tables;
//! anything unknown is T3 because these tools mutate by default.

use super::docker::{BUILD, HELP};
use crate::call::args::Help;
use crate::call::operand_words;
use crate::call::Invocation;
use crate::rules::vocab::verbs::{verb, Verb};
use crate::rules::{Cx, Rule};
use crate::words;

/// ## What it matches
/// Read-only actions of `buildah`, `skopeo`, `ctr` and `crictl` (`skopeo inspect`, `ctr images ls`,
/// `crictl ps`, `buildah images`).
/// ## Why this tier
/// They only report on images, containers and pods.
pub static TOOL_READ: Rule = Rule::t0("containers.tool-read")
    .reason("reads container runtime or registry state only")
    .matches(words!["skopeo inspect docker://nginx", "ctr images ls", "crictl ps -a", "buildah images", "crictl pods"])
    .not_matches(words!["ctr images rm nginx", "skopeo copy docker://a docker://b"]);

/// ## What it matches
/// Any other action of those tools: `skopeo copy|delete|sync|login`, `ctr run|images rm|tasks kill`,
/// `crictl rmi|stopp|rmp|exec`, `buildah from|run|commit|push|rm`; unknown actions too.
/// ## Why this tier
/// Changes containers, images or registries; these CLIs mutate by default, so unknown is T3.
pub static TOOL_CHANGE: Rule = Rule::t3("containers.tool-change")
    .reason("changes containers, images or a registry through a low-level runtime tool; ask the user first")
    .matches(words![
        "skopeo copy docker://a docker://b", "ctr images rm nginx", "crictl rmi nginx", "buildah push app docker://r/app", "skopeo delete docker://r/app:1",
        "ctr images label docker.io/library/nginx:latest env=prod", "buildah --log-level info rm web",
    ])
    .not_matches(words!["crictl ps", "skopeo list-tags docker://nginx", "buildah --log-level debug images"]);

/// ## What it matches
/// Read-only VM manager commands: `limactl list`, `colima status`, `vagrant status|global-status|ssh-config`.
/// ## Why this tier
/// They only report on VMs.
pub static VM_READ: Rule = Rule::t0("containers.vm-read")
    .reason("reads VM state only")
    .matches(words!["limactl list", "colima status", "vagrant status", "vagrant box list", "vagrant global-status"])
    .not_matches(words!["vagrant destroy -f", "colima start"]);

/// ## What it matches
/// Everything else: `vagrant up|halt|destroy|provision|ssh`, `colima start|stop|delete`,
/// `limactl start|stop|delete|shell`, `lima CMD` (runs CMD in the VM).
/// ## Why this tier
/// Starts, stops, deletes or enters a VM; approvable (the VM's disk is local and scoped).
pub static VM_CHANGE: Rule = Rule::t3("containers.vm-change")
    .reason("starts, stops, deletes or enters a VM; ask the user first")
    .matches(words![
        "vagrant up", "vagrant destroy -f", "colima start --cpu 4", "limactl shell default", "lima uname -a", "lima",
        "limactl --log-level info delete default",
    ])
    .not_matches(words!["vagrant status", "limactl list", "limactl --log-level debug list"]);

crate::table! {
    /// Tool actions that only read (beyond the generic read verbs).
    /// The shared read verbs (`vocab::verbs::READ_ONLY_VERBS` and `PACKAGE_READS`: images, inspect, ps, logs, stats,
    /// info, version, ls, list …, and `list-tags` by its head) are asked after this table,
    /// so they are not repeated here. Anything else is a change: these CLIs mutate by default.
    TOOL_READS = ["containers", "inspecti", "inspectp", "statsp", "imagefsinfo", "pods"];
    probe "skopeo {}" => T0, "containers.tool-read";
}
crate::table! {
    /// Tool actions that change something although the shared read verbs hold the word
    /// (`crictl config --set KEY=VALUE` writes its configuration).
    TOOL_CHANGES = ["config"];
    probe "crictl {}" => T3, "containers.tool-change";
}
crate::table! {
    /// `ctr` groups (and their aliases) whose second word is the action: `ctr tasks ls`,
    /// `ctr tasks checkpoint web`, `ctr i rm nginx`.
    CTR_GROUPS = ["containers", "c", "content", "images", "i", "leases", "namespaces", "ns", "plugins", "snapshots", "tasks", "t"];
    probe "ctr {} ls" => T0, "containers.tool-read";
}
crate::table! {
    /// Value options of these tools' global flags.
    TOOL_VALUE_OPTS = [
        "-n", "--namespace", "-a", "--address", "-r", "--runtime-endpoint", "-i", "--image-endpoint", "-c", "--config", "-t", "--timeout", "--override-os",
        "--override-arch", "--registries-conf", "--storage-driver", "--root", "--runroot", "--log-level", "--storage-opt", "--registries-conf-dir",
        "--cgroup-manager", "--command-timeout", "--policy", "--registries.d", "--override-variant", "--tmpdir", "--connect-timeout",
    ];
    probe "buildah {} rm images" => T0, "containers.tool-read";
}

pub(super) fn tool(inv: &Invocation, cx: &mut Cx<'_>) {
    let words: Vec<&str> = operand_words(&inv.args, TOOL_VALUE_OPTS).into_iter().take(2).map(|(_, w)| w).collect();
    if words.is_empty() {
        cx.hit(&HELP);
        return;
    }
    if inv.program == "buildah" && matches!(words[0], "bud" | "build") {
        cx.hit(&BUILD);
        return;
    }
    // The subcommand decides, never its operand (`buildah rmi search-api`, `buildah
    // unshare find …`); a group's action is its second word (`ctr tasks checkpoint`,
    // `buildah manifest inspect`), and a group alone prints its usage.
    let group = match inv.program.as_str() {
        "ctr" => CTR_GROUPS.contains(words[0]),
        "buildah" => words[0] == "manifest",
        _ => false,
    };
    let action = if group { words.get(1).copied() } else { Some(words[0]) };
    match action.map(|a| (a, verb(a, TOOL_READS, TOOL_CHANGES))) {
        None => cx.hit(&HELP),
        Some((_, Verb::Read)) => cx.hit(&TOOL_READ),
        Some((_, Verb::Mutate)) => cx.hit(&TOOL_CHANGE),
        Some((a, Verb::Unknown)) => cx.hit_because(&TOOL_CHANGE, format!("`{} {a}` is not an action tiergate models; ask the user first", inv.program)),
    }
}

/// The version words a VM manager prints its version for.
const VERSION_WORDS: Help = Help::VERSION.with(Help::DASH_V);

crate::table! {
    /// VM manager commands (or a group's action: `vagrant box list`) that only report.
    VM_READS = ["list", "ls", "status", "global-status", "ssh-config", "version", "info", "port", "validate", "show-ssh", "sudoers"];
    probe "vagrant {}" => T0, "containers.vm-read";
}

pub(super) fn vm(inv: &Invocation, cx: &mut Cx<'_>) {
    if inv.program == "lima" {
        // `lima CMD…` runs CMD inside the default instance.
        if inv.args.is_empty() {
            cx.hit(&VM_CHANGE);
        } else {
            cx.hit_because(&VM_CHANGE, "runs a command inside the lima VM; ask the user first".to_owned());
        }
        return;
    }
    // The value options before the command word: colima's profile, limactl's log settings
    // (`limactl --log-level info delete default` deletes; `info` is the level, not the command).
    let words: Vec<&str> = operand_words(&inv.args, words!["--profile", "-p", "--log-level", "--log-format"]).into_iter().take(2).map(|(_, w)| w).collect();
    let read = match words.as_slice() {
        // Usage, or nothing but version words (`colima --version`, `vagrant -v`).
        [] => inv.args.iter().all(|a| VERSION_WORDS.holds(&a.text)),
        [w] => VM_READS.contains(w),
        [group, action, ..] => VM_READS.contains(group) || (matches!(*group, "box" | "plugin" | "snapshot" | "cloud") && VM_READS.contains(action)),
    };
    cx.hit(if read { &VM_READ } else { &VM_CHANGE });
}

crate::tables![TOOL_READS, TOOL_CHANGES, CTR_GROUPS, TOOL_VALUE_OPTS, VM_READS];
