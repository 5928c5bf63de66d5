//! Service managers and power: `systemctl`, `service`, `launchctl`, `loginctl`, `busctl`,
//! `update-rc.d`, `chkconfig`, `systemd-run`, `reboot`/`shutdown`/`halt`/`poweroff`,
//! `init`/`telinit`.
//!
//! Decision: rebooting and shutting down are disruptive but reversible, so they are
//! T3 (approvable), not blocked.

use crate::call::Invocation;
use crate::call::{first_positional, has_flag, operand_words};
use crate::rules::{Cx, Rule};
use crate::words;

/// ## What it matches
/// Read-only service queries: `systemctl status|show|cat|list-*|is-*|get-default`, bare `systemctl`,
/// `service X status`, `service --status-all`, `launchctl list|print|blame`, `loginctl list-*|show-*`,
/// `chkconfig --list`, `busctl list|status|monitor|capture|tree|introspect|get-property|wait`.
/// ## Why this tier
/// They report on services and sessions; nothing changes.
pub static READ: Rule = Rule::t0("system.service.read")
    .reason("reads service or session state only")
    .matches(words![
        "systemctl status nginx", "systemctl list-units --failed", "systemctl --user is-active app", "service nginx status", "launchctl list",
        "loginctl list-sessions", "sudo systemctl cat docker", "busctl monitor", "chkconfig --list", "systemctl -M web status nginx", "systemctl", "launchctl",
        "launchctl limit maxfiles", "loginctl",
    ])
    .not_matches(words!["systemctl restart docker", "service nginx reload"]);

/// ## What it matches
/// Service control: `systemctl start|stop|restart|reload|enable|disable|mask|kill|daemon-reload|edit|set-default|isolate …`,
/// `service X start|stop|restart|reload`, `launchctl load|unload|bootstrap|bootout|kickstart|kill|enable|disable`,
/// `loginctl terminate-*|kill-*|enable-linger`, `update-rc.d`, `chkconfig X on|off`, `systemd-run`,
/// `busctl call|emit|set-property` (a D-Bus method call reaches any service: `StopUnit`, `Reboot`);
/// unknown `systemctl` and `busctl` verbs too.
/// ## Why this tier
/// Starts, stops or reconfigures live services.
pub static CONTROL: Rule = Rule::t3("system.service.control")
    .reason("starts, stops or reconfigures a service; ask the user first")
    .matches(words![
        "sudo systemctl stop nginx",
        "systemctl restart docker",
        "systemctl enable --now app",
        "service nginx reload",
        "launchctl unload ~/Library/LaunchAgents/x.plist",
        "systemd-run --user sleep 10",
        "update-rc.d nginx defaults",
        "busctl call org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager StopUnit ss nginx.service replace",
        "loginctl terminate-session 3",
        "chkconfig nginx on",
        "busctl -C status call org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager Reboot",
    ])
    .not_matches(words!["systemctl status nginx", "systemctl --help"]);

/// ## What it matches
/// `reboot`, `shutdown`, `halt`, `poweroff`, `systemctl reboot|poweroff|halt|suspend|hibernate`, `init 0|6`, `telinit`.
/// ## Why this tier
/// Disruptive but reversible (the machine comes back), so approvable rather than blocked.
pub static POWER: Rule = Rule::t3("system.power")
    .reason("reboots, suspends or shuts the machine down; ask the user first")
    .matches(words![
        "sudo reboot", "shutdown -h now", "poweroff", "systemctl reboot", "init 6", "halt -p", "systemctl poweroff", "systemctl halt", "systemctl suspend",
        "systemctl hibernate", "systemctl hybrid-sleep", "systemctl suspend-then-hibernate", "systemctl kexec", "systemctl soft-reboot", "systemctl emergency",
        "systemctl rescue", "systemctl default", "systemctl exit", "launchctl reboot",
    ])
    .not_matches(words!["shutdown --help", "systemctl status"]);

/// ## What it matches
/// `--help`/`-h`/`--version` on a system administration command (`systemctl --help`, `shutdown --help`).
/// ## Why this tier
/// Prints usage; runs nothing.
pub static HELP: Rule = Rule::t0("system.help")
    .reason("prints help or version only")
    .matches(words!["systemctl --help", "shutdown --help", "useradd --help", "apt-get -h install nginx", "iptables --version", "telinit"])
    .not_matches(words!["systemctl restart x", "useradd -c -h evil", "systemctl -p --help stop nginx"]);

crate::table! {
    SYSTEMCTL_READS = [
        "status", "show", "cat", "list-units", "list-unit-files", "list-sockets", "list-timers", "list-jobs", "list-dependencies", "list-machines",
        "list-automounts", "list-paths", "is-active", "is-enabled", "is-failed", "is-system-running", "get-default", "help", "show-environment", "whoami",
    ];
    probe "systemctl {}" => T0, "system.service.read";
}
crate::table! {
    SYSTEMCTL_POWER = [
        "reboot", "poweroff", "halt", "suspend", "hibernate", "hybrid-sleep", "suspend-then-hibernate", "kexec", "soft-reboot", "emergency", "rescue", "default",
        "exit",
    ];
    probe "systemctl {}" => T3, "system.power";
}
crate::table! {
    SYSTEMCTL_VALUE_OPTS = [
        "-t", "--type", "--state", "-p", "--property", "-H", "--host", "-M", "--machine", "-n", "--lines", "-o", "--output", "--signal", "-s", "--kill-whom",
        "--root", "--job-mode", "--what", "--timestamp", "--boot-loader-entry", "--message", "--when",
    ];
    probe "systemctl {} stop status" => T0, "system.service.read";
}

pub(super) fn systemctl(inv: &Invocation, cx: &mut Cx<'_>) {
    let Some(i) = first_positional(&inv.args, SYSTEMCTL_VALUE_OPTS) else {
        // Bare `systemctl` lists units.
        cx.hit(&READ);
        return;
    };
    match inv.args[i].text.as_str() {
        v if SYSTEMCTL_READS.contains(v) => cx.hit(&READ),
        v if SYSTEMCTL_POWER.contains(v) => cx.hit(&POWER),
        v => cx.hit_because(&CONTROL, format!("`systemctl {v}` changes services or system state; ask the user first")),
    }
}

pub(super) fn service(inv: &Invocation, cx: &mut Cx<'_>) {
    let pos = operand_words(&inv.args, words![]);
    if has_flag(&inv.args, words!["--status-all"]) || matches!(pos.get(1), Some((_, "status"))) {
        cx.hit(&READ);
    } else {
        cx.hit(&CONTROL);
    }
}

crate::table! {
    LAUNCHCTL_READS = [
        "list", "print", "print-cache", "print-disabled", "blame", "dumpstate", "dumpjpcategory", "managerpid", "manageruid", "managername", "getenv", "version",
        "help", "procinfo", "resolveport", "error", "hostinfo", "examine", "plist",
    ];
    probe "launchctl {}" => T0, "system.service.read";
}

pub(super) fn launchctl(inv: &Invocation, cx: &mut Cx<'_>) {
    match inv.arg(0) {
        None => cx.hit(&READ),
        Some(v) if LAUNCHCTL_READS.contains(v) => cx.hit(&READ),
        // `launchctl limit` with no value prints the limits.
        Some("limit") if inv.args.len() <= 2 => cx.hit(&READ),
        Some("reboot") => cx.hit(&POWER),
        Some(_) => cx.hit(&CONTROL),
    }
}

pub(super) fn loginctl(inv: &Invocation, cx: &mut Cx<'_>) {
    match first_positional(
        &inv.args,
        words!["-p", "--property", "-H", "--host", "-M", "--machine", "-n", "--lines", "-o", "--output", "-s", "--signal", "--kill-whom"],
    )
    .map(|i| inv.args[i].text.as_str())
    {
        None => cx.hit(&READ),
        Some(v) if v.starts_with("list-") || v.starts_with("show-") || v.ends_with("-status") => cx.hit(&READ),
        Some(_) => cx.hit(&CONTROL),
    }
}

crate::table! {
    /// `-C`/`--capsule NAME` (systemd 256) names a capsule's bus: `busctl -C status call …` calls.
    VALUE_OPTS = ["-H", "--host", "-M", "--machine", "--address", "--match", "--size", "--timeout", "--json", "--destination", "-C", "--capsule"];
    probe "busctl {} call status" => T0, "system.service.read";
}

/// `busctl`: the read verbs observe the bus; `call`, `emit`, `set-property` and
/// anything unknown act on whatever service answers (found by the sandbox oracle:
/// `busctl monitor` connects to the system bus, and `busctl call` was T0).
pub(super) fn busctl(inv: &Invocation, cx: &mut Cx<'_>) {
    match first_positional(&inv.args, VALUE_OPTS).map(|i| inv.args[i].text.as_str()) {
        None | Some("list" | "status" | "monitor" | "capture" | "tree" | "introspect" | "get-property" | "wait" | "help") => cx.hit(&READ),
        Some(_) => cx.hit(&CONTROL),
    }
}

pub(super) fn chkconfig(inv: &Invocation, cx: &mut Cx<'_>) {
    let pos = operand_words(&inv.args, words!["--level"]);
    if has_flag(&inv.args, words!["--list"]) || pos.len() <= 1 && !has_flag(&inv.args, words!["--add", "--del", "--override"]) {
        cx.hit(&READ);
    } else {
        cx.hit(&CONTROL);
    }
}

pub(super) fn power(inv: &Invocation, cx: &mut Cx<'_>) {
    // `init`/`telinit` with no runlevel only print usage.
    if matches!(inv.program.as_str(), "init" | "telinit") && inv.args.is_empty() {
        cx.hit(&HELP);
        return;
    }
    cx.hit(&POWER);
}

crate::tables![SYSTEMCTL_READS, SYSTEMCTL_POWER, SYSTEMCTL_VALUE_OPTS, LAUNCHCTL_READS, VALUE_OPTS];
