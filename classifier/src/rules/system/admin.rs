//! Machine administration: mounts and swap, users and groups, kernel settings and
//! modules, host settings (`hostnamectl`, `timedatectl`, `localectl`), logs
//! (`journalctl`, `dmesg`) and block-device listing.
//!
//! Reads stay T0; every change is T3. Nothing here is on the blocked floor (disk
//! formatting tools belong to coreutils' `mkfs`/`dd` rules).

use crate::call::args::{ArgSpec, Args};
use crate::call::Invocation;
use crate::call::{first_positional, has_flag, has_short, operand_words};
use crate::rules::{Cx, Rule};
use crate::words;

/// ## What it matches
/// Read-only views: bare `mount` / `mount -l`, `swapon --show`, `sysctl NAME`/`-a`, `modprobe -c`,
/// `passwd -S`, `chage -l`, `hostnamectl [status]`, `timedatectl [status|show|list-timezones]`,
/// `localectl [status|list-*]`, `journalctl …` (without vacuum/rotate), `dmesg` (without clearing), `lsblk`.
/// ## Why this tier
/// They report on the machine; nothing changes.
pub static READ: Rule = Rule::t0("system.admin.read")
    .reason("reads machine settings, mounts, accounts or logs only")
    .matches(words![
        "mount", "sysctl -a", "sysctl net.ipv4.ip_forward", "journalctl -u nginx --since today", "dmesg -T", "hostnamectl", "timedatectl status", "lsblk -f",
        "swapon --show", "passwd -S bob", "modprobe -c", "localectl list-keymaps",
    ])
    .not_matches(words!["sysctl -w net.ipv4.ip_forward=1", "journalctl --vacuum-time=1d", "mount /dev/sdb1 /mnt"]);

/// ## What it matches
/// `mount DEV DIR`, `umount`, `swapon DEV|-a`, `swapoff`, `sysctl -w|-p|--system|NAME=VALUE`,
/// `modprobe MOD`, `modprobe -r`, `insmod`, `rmmod`, `hostnamectl set-*`, `timedatectl set-*`,
/// `localectl set-*`, `journalctl --vacuum-*|--rotate|--flush`, `dmesg -c|-C|-n`,
/// `date -s|--set TIME` or `date MMDDhhmm…` (an operand that is not a `+FORMAT`), `hostname NAME`, `hostname -F FILE`.
/// ## Why this tier
/// Changes the running machine (file systems, kernel, clock, host name, logs).
pub static CHANGE: Rule = Rule::t3("system.admin.change")
    .reason("changes mounts, kernel settings, host settings or system logs; ask the user first")
    .matches(words![
        "mount /dev/sdb1 /mnt", "umount /mnt", "swapoff -a", "sysctl -w net.ipv4.ip_forward=1", "modprobe br_netfilter", "rmmod nvidia",
        "hostnamectl set-hostname x", "timedatectl set-time '2020-01-01'", "journalctl --vacuum-time=1d", "dmesg -C", "date -s '2020-01-01 00:00'",
        "date 010100002020", "hostname build-box", "hostname -F /etc/hostname",
    ])
    .not_matches(words!["mount", "dmesg", "modprobe -n br_netfilter", "date +%s", "date -d yesterday +%F", "date -j -f %s 0", "hostname -I", "hostname"]);

/// ## What it matches
/// `modprobe -n|--dry-run`.
/// ## Why this tier
/// Simulation: prints what would be loaded.
pub static DRY_RUN: Rule = Rule::t2("system.admin.dry-run")
    .reason("dry run: prints what would change and changes nothing")
    .matches(words!["modprobe -n br_netfilter", "modprobe --dry-run -v zfs"])
    .not_matches(words!["modprobe zfs"]);

/// ## What it matches
/// Account changes: `useradd`, `userdel`, `usermod`, `adduser`, `deluser`, `groupadd`, `groupdel`,
/// `groupmod`, `gpasswd`, `passwd USER`, `chpasswd`, `chage`, `chsh`, `chfn`, `visudo`, `vipw`, `vigr`, `newusers`.
/// ## Why this tier
/// Creates, deletes or grants accounts and privileges.
pub static ACCOUNTS: Rule = Rule::t3("system.accounts.change")
    .reason("creates, deletes or changes user accounts, groups, passwords or sudo rights; ask the user first")
    .matches(words![
        "useradd bob", "userdel -r bob", "usermod -aG sudo bob", "passwd bob", "visudo", "sudo groupadd devs", "chsh -s /bin/zsh", "systemd-sysusers"
    ])
    .not_matches(words!["passwd -S bob", "chage -l bob", "id bob", "systemd-sysusers --dry-run"]);

pub(super) fn mount(inv: &Invocation, cx: &mut Cx<'_>) {
    let p = inv.program.as_str();
    let reads = match p {
        // `mount`, `mount -l`, `mount -t ext4` (lists mounts of that type).
        "mount" => operand_words(&inv.args, words!["-t", "--types", "-O", "--test-opts"]).is_empty() && !has_flag(&inv.args, words!["-a", "--all"]),
        "swapon" => inv.args.is_empty() || has_flag(&inv.args, words!["--show", "-s", "--summary"]),
        _ => false,
    };
    cx.hit(if reads { &READ } else { &CHANGE });
}

pub(super) fn accounts(inv: &Invocation, cx: &mut Cx<'_>) {
    let reads = match inv.program.as_str() {
        "passwd" => has_flag(&inv.args, words!["-S", "--status"]),
        "chage" => has_flag(&inv.args, words!["-l", "--list"]),
        // `visudo -c` only checks the sudoers syntax.
        "visudo" => has_flag(&inv.args, words!["-c", "--check"]),
        "systemd-sysusers" => has_flag(&inv.args, words!["--dry-run", "--cat-config", "--tldr"]),
        _ => false,
    };
    cx.hit(if reads { &READ } else { &ACCOUNTS });
}

pub(super) fn sysctl(inv: &Invocation, cx: &mut Cx<'_>) {
    let writes = has_flag(&inv.args, words!["-w", "--write", "-p", "--load", "--system"])
        || Args::parse(&inv.args, ArgSpec::values(words![])).operands().any(|o| o.arg.text.contains('='));
    cx.hit(if writes { &CHANGE } else { &READ });
}

pub(super) fn modules(inv: &Invocation, cx: &mut Cx<'_>) {
    if inv.program == "modprobe" {
        if has_flag(&inv.args, words!["-n", "--dry-run", "--show"]) {
            cx.hit(&DRY_RUN);
            return;
        }
        if has_flag(&inv.args, words!["-c", "--showconfig", "--show-depends", "-D", "--show-modversions", "--dump-modversions"]) {
            cx.hit(&READ);
            return;
        }
    }
    cx.hit(&CHANGE);
}

pub(super) fn hostctl(inv: &Invocation, cx: &mut Cx<'_>) {
    let verb = first_positional(&inv.args, words!["-H", "--host", "-M", "--machine", "-p", "--property"]).map(|i| inv.args[i].text.as_str());
    match verb {
        None | Some("status" | "show" | "timesync-status" | "show-timesync" | "hostname" | "icon-name" | "chassis" | "deployment" | "location")
            if !(inv.program == "hostnamectl" && operand_words(&inv.args, words![]).len() > 1) =>
        {
            cx.hit(&READ)
        }
        Some(v) if v.starts_with("list-") => cx.hit(&READ),
        _ => cx.hit(&CHANGE),
    }
}

pub(super) fn journalctl(inv: &Invocation, cx: &mut Cx<'_>) {
    let changes = inv
        .flags()
        .any(|f| f.starts_with("--vacuum") || matches!(f, "--rotate" | "--flush" | "--sync" | "--relinquish-var" | "--smart-relinquish-var" | "--setup-keys"));
    cx.hit(if changes { &CHANGE } else { &READ });
}

pub(super) fn dmesg(inv: &Invocation, cx: &mut Cx<'_>) {
    let changes = has_flag(&inv.args, words!["--clear", "--read-clear", "--console-off", "--console-on", "--console-level"])
        || has_short(&inv.args, 'c')
        || has_short(&inv.args, 'C')
        || has_short(&inv.args, 'n')
        || has_short(&inv.args, 'D')
        || has_short(&inv.args, 'E');
    cx.hit(if changes { &CHANGE } else { &READ });
}

/// `date`: reads the clock unless told to set it (`-s TIME`, or an operand that is not a
/// `+FORMAT`: GNU and BSD date set the clock from `MMDDhhmm[[CC]YY][.ss]`; BSD's `-j` never sets).
pub(super) fn date(inv: &Invocation, cx: &mut Cx<'_>) {
    const SPEC: ArgSpec = ArgSpec::values(words!["-d", "--date", "-f", "--file", "-r", "--reference", "-s", "--set", "-v", "--rfc-3339"])
        .with_optional(words!["-I", "--iso-8601"]);
    let mut sets = false;
    let mut no_set = false;
    for t in Args::parse(&inv.args, SPEC) {
        match t {
            crate::call::args::Token::Opt { name: "-s" | "--set", .. } => sets = true,
            crate::call::args::Token::Flag { word: "-j", .. } => no_set = true,
            crate::call::args::Token::Operand(o) if !o.arg.text.starts_with('+') => sets = true,
            _ => {}
        }
    }
    cx.hit(if sets && !no_set { &CHANGE } else { &READ });
}

/// `hostname`: prints the host name unless given one (`hostname NAME`, `-F FILE`).
pub(super) fn hostname(inv: &Invocation, cx: &mut Cx<'_>) {
    let sets = has_flag(&inv.args, words!["-F", "--file"]) || !operand_words(&inv.args, words!["-F", "--file"]).is_empty();
    cx.hit(if sets { &CHANGE } else { &READ });
}
