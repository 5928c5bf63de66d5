//! Host state the sandbox oracle (ORACLE.md §4) caught allowed tools writing:
//! keyrings and trust stores (`gpg --recv-keys`, `apt-key add`, `xauth add`),
//! machine identity and credentials (`systemd-creds`, `systemd-machine-id-setup`),
//! user directories, system daemons and login terminals, and file-system repair
//! or resize on a device.

use crate::call::args::Help;
use crate::call::Invocation;
use crate::rules::{Cx, Rule};
use crate::words;

crate::table! {
    /// Programs this module answers for.
    pub(super) PROGRAMS = [
        "gpg", "gpg2", "apt-key", "xauth", "systemd-creds", "systemd-machine-id-setup", "xdg-user-dirs-update", "dbus-daemon", "resize2fs", "fsck", "e2fsck",
        "fsck.ext2", "fsck.ext3", "fsck.ext4", "fsck.vfat", "fsck.fat", "dosfsck", "xfs_repair", "xfs_growfs", "tune2fs", "ntfsfix", "growpart",
    ];
    probe "{} add --import --set /dev/sdb" => T3;
    except ["systemd-creds"]: "its changes are `encrypt`/`setup`/`decrypt`, which share no word with apt-key's and xauth's `add` (truth row system-hostops-002)";
}

/// ## What it matches
/// Changing a keyring or trust store: `gpg --recv-keys|--import|--locate-keys|--fetch-keys|--refresh-keys|--delete-keys|--gen-key|--edit-key|--sign-key`, `apt-key add|adv|del`, `xauth add|remove|merge|generate`.
/// ## Why this tier
/// Trusted keys decide what later installs and connections accept; the oracle saw each of these write `~/.gnupg`, the APT keyring or `~/.Xauthority`.
pub static KEYS: Rule = Rule::t3("system.keys.change")
    .reason("changes a keyring or trust store (GPG keys, APT signing keys, X authority); ask the user first")
    .matches(words!["gpg --recv-keys ABCDEF", "gpg --import key.asc", "apt-key add key.asc", "xauth add :0 . abc", "gpg --locate-keys a@b.c"])
    .not_matches(words!["gpg --list-keys", "gpg --verify x.sig x", "xauth list", "gpg --version"]);

/// ## What it matches
/// Machine identity, credentials, user directories and daemons: `systemd-creds encrypt|setup`, `systemd-machine-id-setup`, `xdg-user-dirs-update --set`, `dbus-daemon --system|--session`.
/// ## Why this tier
/// Each changes the host beyond the tree (ORACLE.md §4 rows 12–15, 21): even `systemd-machine-id-setup --print` opens `/etc/machine-id` for writing.
/// ## Known gaps
/// Row 22's `agetty`, `tload /dev/tty1` and `logger` and row 21's `systemd-ask-password` stay free: a login prompt, a tty display, a syslog line and a password prompt to the user are low-impact and common in documentation.
pub static HOST: Rule = Rule::t3("system.host-state")
    .reason("changes the machine's identity, credentials, user directories or daemons; ask the user first")
    .matches(words![
        "systemd-machine-id-setup --print", "systemd-creds encrypt --name n in out", "xdg-user-dirs-update --set DESKTOP ~/x", "dbus-daemon --system"
    ])
    .not_matches(words!["systemd-creds list", "xdg-user-dirs-update --help"]);

/// ## What it matches
/// Repairing or resizing a file system on a device: `fsck -y /dev/sdb`, `e2fsck -f /dev/sdb1`, `resize2fs /dev/sdb1 40G`, `xfs_repair`, `tune2fs -O …`, `growpart`,
/// and `xfs_growfs` on a mount point (`xfs_growfs -d /`); a device named by tag (`e2fsck -fy LABEL=data`) or every one in fstab (`fsck -Ay`).
/// ## Why this tier
/// The tool rewrites the file system's metadata in place (the oracle saw `O_RDWR` opens of the device); a wrong answer loses data. Checks that only read (`fsck -n`, `tune2fs -l`) stay free.
pub static FS_REPAIR: Rule = Rule::t3("system.fs-repair")
    .reason("repairs, resizes or retunes a file system on a device in place; back up first and ask the user")
    .matches(words![
        "fsck -fy /dev/sdb", "resize2fs -p /dev/sdb1 40G", "e2fsck -f /dev/sdb1", "xfs_repair /dev/sdc1", "growpart /dev/sda 1", "xfs_growfs -d /", "fsck -Ay",
        "e2fsck -fy LABEL=data",
    ])
    .not_matches(words!["fsck -n /dev/sdb", "tune2fs -l /dev/sda1", "e2fsck -n /dev/sdb1", "xfs_growfs -n /data", "fsck -A -N", "e2fsck -fy disk.img"]);

crate::table! {
    CHANGES = [
        "--recv-keys", "--recv-key", "--import", "--locate-keys", "--locate-external-keys", "--fetch-keys", "--refresh-keys", "--delete-keys",
        "--delete-key", "--delete-secret-keys", "--delete-secret-and-public-key", "--gen-key", "--generate-key", "--full-generate-key",
        "--full-gen-key", "--quick-generate-key", "--quick-gen-key", "--edit-key", "--sign-key", "--lsign-key", "--quick-sign-key",
        "--import-ownertrust", "--update-trustdb", "--send-keys", "--send-key", "--keyserver-options",
    ];
    probe "gpg {} x" => T3, "system.keys.change";
}

crate::table! {
    TAGS = ["LABEL=", "UUID=", "PARTUUID=", "PARTLABEL="];
    probe "e2fsck -fy {}data" => T3, "system.fs-repair";
}

pub(super) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    let first = inv.bare_words().next();
    let flags: Vec<&str> = inv.flags().collect();
    match inv.program.as_str() {
        "gpg" | "gpg2" => {
            if flags.iter().any(|f| CHANGES.contains(f.split('=').next().unwrap_or(f))) {
                cx.hit(&KEYS);
            }
        }
        "apt-key" => {
            if matches!(first, Some("add" | "adv" | "del" | "update" | "net-update")) {
                cx.hit(&KEYS);
            }
        }
        "xauth" => {
            if matches!(first, Some("add" | "remove" | "merge" | "generate" | "source" | "nmerge")) {
                cx.hit(&KEYS);
            }
        }
        "systemd-creds" => {
            if matches!(first, Some("encrypt" | "setup" | "decrypt")) {
                cx.hit(&HOST);
            }
        }
        "xdg-user-dirs-update" => {
            if flags.contains(&"--set") {
                cx.hit(&HOST);
            }
        }
        "systemd-machine-id-setup" | "dbus-daemon" => {
            if !flags.iter().any(|f| Help::LONG.with(Help::VERSION).with(Help::DASH_H).holds(f)) {
                cx.hit(&HOST);
            }
        }
        // `fsck -n`, `e2fsck -n`, `tune2fs -l`: checks that open read-only.
        "tune2fs" => {
            if !flags.iter().all(|f| *f == "-l") {
                cx.hit(&FS_REPAIR);
            }
        }
        _ => {
            let read_only = flags.iter().any(|f| *f == "-n" || *f == "-N" || f.starts_with("-n") && f.len() == 2) && inv.program != "resize2fs";
            // `xfs_growfs` names the mounted file system by its mount point (`xfs_growfs -d /`), not its device;
            // a device may be named by tag (`e2fsck -fy LABEL=data`), and `fsck -A` checks every file system in fstab.
            let device = inv.bare_words().any(|w| w.starts_with("/dev/") || TAGS.iter().any(|t| w.starts_with(t)) || inv.program == "xfs_growfs")
                || inv.program == "fsck" && crate::call::has_short(&inv.args, 'A');
            if device && !read_only {
                cx.hit(&FS_REPAIR);
            }
        }
    }
    cx.or_unowned(inv);
}

crate::tables![PROGRAMS, CHANGES, TAGS];
