//! Disk tools: `dd`, `mkfs*`/`mke2fs`/`mkswap`, partitioners (`fdisk sfdisk gdisk
//! sgdisk cfdisk parted`), `wipefs`, `blkdiscard`, and shredding a device.
//!
//! Writing to a block device is the blocked floor; listing partitions is T0; the
//! same tools on an image file are ordinary writes (`writes::check_write`).

use super::{operand_args, wrote};
use crate::call::args::{ArgSpec, Args};
use crate::call::{first_operand, Arg, Invocation};
use crate::rules::{Cx, Rule};
use crate::words;

/// ## What it matches
/// `dd of=<block device>` and `shred`/`wipe` of a device (`/dev/sda`, `/dev/nvme0n1`,
/// `/dev/disk2`, `/dev/mmcblk0`, `/dev/xvda`, `/dev/vda`, `/dev/mapper/…` …).
/// ## Why this tier
/// Overwrites a disk below the file system: everything on it is gone. Never approvable.
pub(super) static DEVICE_WRITE: Rule = Rule::blocked("coreutils.disk.device-write")
    .reason("writes raw data over a disk device, destroying its contents; write to an image file (of=disk.img) instead")
    .matches(words![
        "dd if=/dev/zero of=/dev/sda", "dd if=image.iso of=/dev/sdb bs=4M", "dd of=/dev/nvme0n1 if=/dev/urandom", "sudo dd if=x.img of=/dev/disk2",
        "shred -n 3 /dev/sda", "dd if=x of=/dev/$DISK",
    ])
    .not_matches(words!["dd if=/dev/sda of=disk.img count=1", "dd if=/dev/zero of=blank.img bs=1M count=10", "dd if=/dev/zero of=/dev/null"])
    .suggest("dd if=/dev/zero of=disk.img bs=1M count=10");

/// ## What it matches
/// Formatting, partitioning or erasing a device: `mkfs*`, `mke2fs`, `mkswap`,
/// `fdisk|gdisk|cfdisk|sgdisk|sfdisk|parted <device>` (not listing), `wipefs -a`, `blkdiscard`.
/// ## Why this tier
/// Destroys the file system or partition table on that disk. Never approvable.
pub(super) static FORMAT: Rule = Rule::blocked("coreutils.disk.format")
    .reason("formats, partitions or erases a disk device; list it instead (fdisk -l, lsblk) and ask the user to do this by hand")
    .matches(words![
        "mkfs.ext4 /dev/sda1", "mkfs /dev/sda1", "mkfs -t xfs /dev/sdc", "mkfs.vfat /dev/sdb1", "fdisk /dev/sda", "parted /dev/sda mklabel gpt",
        "sfdisk /dev/sda < layout", "wipefs -a /dev/sda", "blkdiscard /dev/nvme0n1", "mkswap /dev/sdb2",
    ])
    .not_matches(words!["fdisk -l", "parted -l", "mkfs --help", "mkfs.ext4 disk.img", "wipefs /dev/sda"])
    .suggest("fdisk -l");

/// ## What it matches
/// Listing disks and partitions: `fdisk -l`, `parted -l`, `parted /dev/sda print`,
/// `sfdisk -l|-d`, `gdisk -l`, `sgdisk -p`, `wipefs <dev>` (no `-a`), `wipefs -n`.
/// ## Why this tier
/// Prints the partition table; writes nothing.
pub(super) static READ: Rule = Rule::t0("coreutils.disk.read")
    .reason("lists disks or partitions; changes nothing")
    .matches(words!["fdisk -l", "parted -l", "parted /dev/sda print", "sfdisk -d /dev/sda", "wipefs /dev/sda", "sgdisk -p /dev/sda"])
    .not_matches(words!["fdisk /dev/sda"]);

/// ## What it matches
/// Destroying volumes, pools, encrypted containers and RAID metadata: `lvremove`, `vgremove`, `pvremove`, `lvm lvremove`, `zpool destroy|labelclear`, `zfs destroy`, `cryptsetup luksFormat|erase|luksErase`, `mdadm --zero-superblock`.
/// ## Why this tier
/// The data on the volume is gone with its metadata. Never approvable.
pub(super) static VOLUME_DESTROY: Rule = Rule::blocked("coreutils.disk.volume-destroy")
    .reason("destroys a logical volume, pool, encrypted container or RAID member and the data on it; ask the user to do this by hand")
    .matches(words![
        "lvremove -f vg/lv", "vgremove vg0", "hdparm --security-erase NULL /dev/sda", "badblocks -w /dev/sda", "pvremove /dev/sda1", "lvm lvremove vg/lv",
        "zpool destroy tank", "zfs destroy -r tank/data", "cryptsetup luksFormat /dev/sdb1", "mdadm --zero-superblock /dev/sdb", "cryptsetup erase /dev/sdb1",
    ])
    .not_matches(words![
        "lvs", "lvm lvs", "zpool status", "zfs list", "cryptsetup status root", "mdadm --detail /dev/md0", "hdparm -I /dev/sda", "badblocks -sv /dev/sda",
    ]);

crate::table! {
    /// Programs whose subcommand or first word is `VOLUME_DESTROY`.
    pub(super) VOLUME_TOOLS = ["lvremove", "vgremove", "pvremove", "lvm", "zpool", "zfs", "cryptsetup", "mdadm", "hdparm", "badblocks", "sg_format", "flashrom"];
}

/// cryptsetup's options that take a value: the action is the first operand after them
/// (`cryptsetup --type luks2 luksFormat DEV`).
const CRYPTSETUP_ARGS: ArgSpec = ArgSpec::values(words![
    "-c", "--cipher", "-s", "--key-size", "-h", "--hash", "-d", "--key-file", "-i", "--iter-time", "-S", "--key-slot", "-o", "--offset", "-p", "--skip", "-b",
    "--size", "-t", "--timeout", "-T", "--tries", "-l", "--keyfile-size", "--keyfile-offset", "--type", "--header", "--label", "--subsystem", "--uuid",
    "--pbkdf", "--sector-size", "--integrity", "--master-key-file", "--volume-key-file", "--key-description", "--token-id",
]);

pub(super) fn volume(inv: &Invocation, cx: &mut Cx<'_>) {
    let spec = if inv.program == "cryptsetup" { CRYPTSETUP_ARGS } else { ArgSpec::values(words![]) };
    let first = first_operand(&inv.args, spec).map(|o| o.arg.text.as_str());
    let destroys = match inv.program.as_str() {
        // They destroy what they name or select (`-S`, `--select`); with neither
        // they remove nothing (`vgremove --help` is help, not a blocked form).
        "lvremove" | "vgremove" | "pvremove" => first.is_some() || inv.flags().any(|f| f.starts_with("-S") || f.starts_with("--select")),
        "lvm" => matches!(first, Some("lvremove" | "vgremove" | "pvremove")),
        "zpool" => matches!(first, Some("destroy" | "labelclear")),
        "zfs" => matches!(first, Some("destroy")),
        "cryptsetup" => matches!(first, Some("luksFormat" | "erase" | "luksErase" | "reencrypt")),
        "mdadm" => inv.has_any(words!["--zero-superblock"]),
        // Device-level erasure: ATA secure erase, destructive surface tests, SCSI format, firmware writes.
        "hdparm" => inv
            .flags()
            .any(|f| f.starts_with("--security-erase") || matches!(f, "--trim-sector-ranges" | "--write-sector" | "--make-bad-sector" | "--dco-restore")),
        "badblocks" => inv.has_short('w'),
        "sg_format" => first_operand(&inv.args, ArgSpec::values(words![])).is_some(),
        "flashrom" => inv.flags().any(|f| matches!(f, "-w" | "--write" | "-E" | "--erase")),
        _ => false,
    };
    if destroys {
        cx.hit_because(&VOLUME_DESTROY, format!("`{} {}`: {}", inv.program, first.unwrap_or(""), VOLUME_DESTROY.reason));
    }
    // `zfs create`, `zpool import`, `cryptsetup close`: the verb scan as before.
    cx.or_unowned(inv);
}

crate::table! {
    /// `/dev` entries that are not disks.
    HARMLESS_DEV = ["/dev/null", "/dev/zero", "/dev/random", "/dev/urandom", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty", "/dev/full"];
    probe "shred {}" => T3, "coreutils.shred";
}

/// True for a path naming a block device (any `/dev/…` other than the streams).
pub fn is_device(path: &str) -> bool {
    path.starts_with("/dev/")
        && !HARMLESS_DEV.contains(path)
        && !path.starts_with("/dev/fd/")
        && !path.starts_with("/dev/shm/")
        && !path.starts_with("/dev/pts/")
}

/// A device word: a literal device path, or `/dev/…` completed by a variable
/// (`/dev/$DISK`, `/dev/sd$X`), which names a disk whatever it expands to.
fn is_device_word(a: &Arg) -> bool {
    // `is_device` only looks at the literal `/dev/` prefix, so an unresolved leaf still counts.
    is_device(&a.text)
}

pub(super) fn any_device(ops: &[&Arg]) -> bool {
    ops.iter().any(|a| is_device_word(a))
}

pub(super) fn hit_device(cx: &mut Cx<'_>, program: &str) {
    cx.hit_because(&DEVICE_WRITE, format!("`{program}` overwrites a disk device, destroying its contents; work on an image file instead"));
}

pub(super) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    let cwd = inv.cwd.as_deref();
    let program = inv.program.as_str();
    if program == "dd" {
        for a in &inv.args {
            if let Some(of) = a.text.strip_prefix("of=") {
                if is_device_word(&Arg { text: of.to_owned(), ..a.clone() }) {
                    hit_device(cx, "dd");
                } else {
                    super::write_to(cx, &Arg { text: of.to_owned(), ..a.clone() }, cwd);
                    wrote(cx);
                }
            }
        }
        return;
    }
    // Every word that is not an option, option values included: a device anywhere is named.
    let words: Vec<&Arg> = Args::parse(&inv.args, ArgSpec::values(words![])).operands().map(|o| o.arg).collect();
    let device = words.iter().find(|a| is_device_word(a)).map(|a| a.text.clone());
    let listing = match program {
        "fdisk" | "gdisk" => inv.has_any(words!["-l", "--list"]),
        "sfdisk" => inv.has_any(words![
            "-l", "--list", "-d", "--dump", "-s", "--show-size", "-J", "--json", "-V", "--verify", "-F", "--list-free", "-n", "--no-act", "-g",
            "--show-geometry",
        ]),
        "parted" => inv.has_any(words!["-l", "--list"]) || parted_reads(&inv.args),
        "sgdisk" => inv.flags().all(|f| {
            matches!(f, "-p" | "--print" | "-v" | "--verify" | "-L" | "--list-types" | "-O" | "--print-mbr") || f.starts_with("-i") || f.starts_with("--info")
        }),
        "wipefs" => !inv.has_any(words!["-a", "--all", "-o", "--offset"]) || inv.has_any(words!["-n", "--no-act"]),
        _ => false,
    };
    if listing {
        cx.hit(&READ);
        return;
    }
    if let Some(dev) = device {
        cx.hit_because(
            &FORMAT,
            format!("`{program}` formats, partitions or erases {dev}; list it instead (fdisk -l, lsblk) and ask the user to do this by hand"),
        );
        return;
    }
    // An image file or an unresolved target: a write like any other.
    let values = words!["-t", "--type", "-L", "--label", "-b", "-N", "-U", "--uuid", "-O", "-E", "-c", "-l", "-n", "-s"];
    for a in operand_args(inv, values) {
        super::write_to(cx, a, cwd);
    }
    wrote(cx);
}

/// `parted DEV print` (or `p`, `unit …`, `help`) only reads; `-a ALIGN` takes a value.
fn parted_reads(args: &[Arg]) -> bool {
    let cmds: Vec<&str> =
        Args::parse(args, ArgSpec::values(words!["-a", "--align"])).operands().map(|o| o.arg.text.as_str()).filter(|w| !w.starts_with("/dev/")).collect();
    !cmds.is_empty() && cmds.iter().all(|c| matches!(*c, "print" | "p" | "help" | "unit" | "s" | "B" | "MB" | "GB" | "MiB" | "GiB" | "free" | "list" | "all"))
}

crate::tables![VOLUME_TOOLS, HARMLESS_DEV];
