//! macOS administration: `defaults`, `diskutil`, `csrutil`, `nvram`, `tmutil`,
//! `pmset`, `networksetup`, `scutil`, `security`, `hdiutil`, `profiles`, `dscl`.
//!
//! Decisions: erasing disks (`diskutil eraseDisk|eraseVolume|zeroDisk|secureErase|
//! randomDisk|reformat|partitionDisk`, `apfs deleteContainer|deleteVolume|eraseVolume`)
//! is on the blocked floor, like `mkfs`/`dd`. `csrutil disable` is T3, not blocked:
//! it only works from the recovery OS and `csrutil enable` reverses it. Printing a
//! keychain secret (`security find-generic-password -w`, `dump-keychain -d`) is T3:
//! the read itself discloses a credential.

use crate::call::args::{short_letters, ArgSpec, Args, Help, Token};
use crate::call::Invocation;
use crate::call::{first_positional, has_flag, operand_words, value_of};
use crate::rules::vocab::input::{self, Source};
use crate::rules::{Cx, Rule};
use crate::words;

/// ## What it matches
/// `defaults read|read-type|domains|find|export`, `diskutil list|info|activity|apfs list|verifyVolume`,
/// `csrutil status`, `nvram -p`/`nvram NAME`, `tmutil listbackups|status|latestbackup|destinationinfo`,
/// `pmset -g`, `networksetup -list*|-get*|-print*`, `scutil --get|--dns|--proxy`, `security find-*|list-keychains|verify-cert`.
/// ## Why this tier
/// They read system settings; nothing changes.
pub static READ: Rule = Rule::t0("system.macos.read")
    .reason("reads macOS settings, disks or backups only")
    .matches(words![
        "defaults read com.apple.dock", "diskutil list", "diskutil info disk0", "csrutil status", "pmset -g", "tmutil listbackups",
        "networksetup -listallnetworkservices", "scutil --dns", "security find-certificate -a", "nvram -p", "diskutil",
    ])
    .not_matches(words!["defaults write com.apple.dock autohide -bool true", "diskutil eraseDisk APFS X disk2"]);

/// ## What it matches
/// `defaults write|delete|import|rename`, `diskutil mount|unmount|eject|rename|repair*|apfs add*|resize*`,
/// `csrutil disable|enable|clear`, `nvram NAME=VALUE|-d|-c`, `tmutil delete*|disable|enable|setdestination|startbackup|restore`,
/// `pmset` settings, `networksetup -set*|-add*|-remove*`, `scutil --set`, `security add-*|delete-*|import|unlock-keychain|authorizationdb write`.
/// ## Why this tier
/// Changes system settings, mounts, backups or the keychain.
pub static CHANGE: Rule = Rule::t3("system.macos.change")
    .reason("changes macOS settings, mounts, backups or the keychain; ask the user first")
    .matches(words![
        "defaults write com.apple.dock autohide -bool true", "diskutil unmountDisk disk2", "csrutil disable", "nvram boot-args=-v", "tmutil disable",
        "pmset -a sleep 0", "networksetup -setdnsservers Wi-Fi 1.1.1.1", "scutil --set HostName x", "security delete-keychain login.keychain",
    ])
    .not_matches(words!["defaults read", "diskutil list"]);

/// ## What it matches
/// `security find-generic-password|find-internet-password -w|-g`, `security dump-keychain -d`.
/// ## Why this tier
/// Prints stored passwords: the output is the secret, so the user decides.
pub static SECRET: Rule = Rule::t3("system.macos.reveal-secret")
    .reason("prints a password from the keychain; ask the user before reading secrets")
    .matches(words!["security find-generic-password -s github -w", "security dump-keychain -d login.keychain"])
    .not_matches(words!["security find-generic-password -s github", "security list-keychains"]);

/// ## What it matches
/// Disk erasure: `diskutil eraseDisk|eraseVolume|zeroDisk|secureErase|randomDisk|reformat|partitionDisk`,
/// `diskutil apfs deleteContainer|deleteVolume|eraseVolume`, `diskutil appleRAID delete`.
/// ## Why this tier
/// Destroys every file on a disk or volume; no undo. Never approvable, like `mkfs` and `dd of=/dev/…`.
pub static ERASE: Rule = Rule::blocked("system.disk.erase")
    .reason("erases or repartitions a disk or volume, destroying its data; the user must do this by hand")
    .matches(words![
        "diskutil eraseDisk APFS Blank disk2", "diskutil zeroDisk disk3", "sudo diskutil secureErase 0 disk2", "diskutil apfs deleteVolume disk1s5",
        "diskutil partitionDisk disk2 GPT APFS x 100%",
    ])
    .not_matches(words!["diskutil list", "diskutil info disk2", "diskutil verifyVolume /"])
    .suggest("diskutil list");

crate::table! {
    DEFAULTS_READS = ["read", "read-type", "domains", "find", "help", "export"];
    probe "defaults {}" => T0, "system.macos.read";
}

pub(super) fn defaults(inv: &Invocation, cx: &mut Cx<'_>) {
    let verb = first_positional(&inv.args, words!["-host"]).map(|i| inv.args[i].text.as_str());
    // `defaults export DOMAIN -` prints; to a file it is authoring, like a redirect.
    cx.hit(if verb.is_none_or(|v| DEFAULTS_READS.contains(v)) { &READ } else { &CHANGE });
}

crate::table! {
    DISK_ERASE = [
        "erasedisk", "erasevolume", "zerodisk", "secureerase", "randomdisk", "reformat", "partitiondisk", "deletecontainer", "deletevolume", "splitpartition",
        "mergepartitions", "erase",
    ];
    probe "diskutil {} disk2" => Blocked, "system.disk.erase";
}
crate::table! {
    DISK_READS = [
        "list", "info", "information", "activity", "listfilesystems", "verifyvolume", "verifydisk", "listusers", "listcryptousers", "listvolumegroups",
        "listsnapshots", "listvolumes", "liststatus", "listunits",
    ];
    probe "diskutil {}" => T0, "system.macos.read";
}

pub(super) fn diskutil(inv: &Invocation, cx: &mut Cx<'_>) {
    let words: Vec<String> = operand_words(&inv.args, words![]).into_iter().take(2).map(|(_, w)| w.to_ascii_lowercase()).collect();
    let group = matches!(words.first().map(String::as_str), Some("apfs" | "cs" | "corestorage" | "appleraid" | "ar"));
    let verb = if group { words.get(1) } else { words.first() };
    match verb.map(String::as_str) {
        Some(v) if DISK_ERASE.contains(v) || (group && v == "delete") => cx.hit(&ERASE),
        None => cx.hit(&READ),
        Some(v) if DISK_READS.contains(v) => cx.hit(&READ),
        Some(_) => cx.hit(&CHANGE),
    }
}

pub(super) fn csrutil(inv: &Invocation, cx: &mut Cx<'_>) {
    cx.hit(if matches!(inv.arg(0), None | Some("status" | "authenticated-root" | "netboot")) && inv.args.len() <= 1 { &READ } else { &CHANGE });
}

pub(super) fn nvram(inv: &Invocation, cx: &mut Cx<'_>) {
    let writes = has_flag(&inv.args, words!["-d", "-c", "-f"]) || inv.words().any(|w| w.contains('='));
    cx.hit(if writes { &CHANGE } else { &READ });
}

crate::table! {
    TMUTIL_READS = [
        "listbackups", "latestbackup", "status", "destinationinfo", "machinedirectory", "compare", "isexcluded", "listlocalsnapshots", "listlocalsnapshotdates",
        "version", "calculatedrift", "uniquesize", "verifychecksums", "help",
    ];
    probe "tmutil {}" => T0, "system.macos.read";
}

pub(super) fn tmutil(inv: &Invocation, cx: &mut Cx<'_>) {
    cx.hit(if inv.arg(0).is_none_or(|v| TMUTIL_READS.contains(v)) { &READ } else { &CHANGE });
}

pub(super) fn pmset(inv: &Invocation, cx: &mut Cx<'_>) {
    cx.hit(if inv.args.is_empty() || has_flag(&inv.args, words!["-g"]) { &READ } else { &CHANGE });
}

pub(super) fn networksetup(inv: &Invocation, cx: &mut Cx<'_>) {
    // Every option a read (`-listallnetworkservices`, `-getinfo`) or `-help`/`-version`.
    let prints = Help::SINGLE_DASH.with(Help::SINGLE_DASH_VERSION);
    let reads = inv.flags().all(|f| ["-list", "-get", "-print", "-show", "-is"].iter().any(|p| f.starts_with(p)) || prints.holds(f));
    cx.hit(if reads { &READ } else { &CHANGE });
}

crate::table! {
    /// `scutil --nc VERB`: the VPN connection verbs that only print.
    SCUTIL_NC_READS = ["list", "status", "show", "statistics", "help"];
    probe "scutil --nc {} MyVPN" => T0, "system.macos.read";
}

pub(super) fn scutil(inv: &Invocation, cx: &mut Cx<'_>) {
    // `scutil --nc start|stop|select|enablevpn …` connects, disconnects or reconfigures a VPN.
    let nc_change = has_flag(&inv.args, words!["--nc"]) && value_of(&inv.args, words!["--nc"]).is_none_or(|v| !SCUTIL_NC_READS.contains(v));
    let writes = nc_change || has_flag(&inv.args, words!["--set", "--renew"]) || (inv.args.is_empty() && input::of(inv) != Source::None);
    cx.hit(if writes { &CHANGE } else { &READ });
}

crate::table! {
    /// `security` commands that only print: help, error strings, leak reports, code
    /// requirement and translocation checks.
    SECURITY_READS = [
        "help", "error", "leaks", "requirement-evaluate", "translocate-policy-check", "translocate-status-check", "translocate-original-path",
    ];
    probe "security {} x" => T0, "system.macos.read";
}

crate::table! {
    /// `security` commands that print a keychain search list or default, and set it with `-s`.
    SECURITY_LISTS = ["list-keychains", "default-keychain", "login-keychain"];
    probe "security {}" => T0, "system.macos.read";
    probe "security {} -s a.keychain" => T3, "system.macos.change";
}

pub(super) fn security(inv: &Invocation, cx: &mut Cx<'_>) {
    let verb = inv.arg(0).unwrap_or("");
    if (verb.ends_with("-password") && verb.starts_with("find-") && has_flag(&inv.args, words!["-w", "-g"]))
        || (verb == "dump-keychain" && has_flag(&inv.args, words!["-d"]))
    {
        cx.hit(&SECRET);
        return;
    }
    let reads = if SECURITY_LISTS.contains(verb) {
        // `-s` (alone or in a cluster: `-ds`) sets the list; `-d DOMAIN` only picks it.
        !inv.flags().any(|f| short_letters(f).is_some_and(|l| l.contains('s')))
    } else {
        verb.is_empty()
            || ["find-", "list-", "show-", "verify-", "dump-", "get-"].iter().any(|p| verb.starts_with(p))
            || SECURITY_READS.contains(verb)
            || matches!(verb, "cms" | "smartcards" | "user-trust-settings-export" | "trust-settings-export")
                && operand_words(&inv.args, words![]).len() <= 1
                && !has_flag(&inv.args, words!["-s", "-d"])
    };
    cx.hit(if reads { &READ } else { &CHANGE });
}

crate::table! {
    /// `hdiutil` verbs that only inspect images and mounts.
    HDIUTIL_READS = ["info", "imageinfo", "verify", "checksum", "isencrypted", "plugins", "pmap", "help"];
    probe "hdiutil {} image.dmg" => T0, "system.macos.read";
}

/// `hdiutil VERB`: the reads print; anything else attaches, ejects, burns, creates
/// or rewrites a disk image (`eject`, `erasekeys`, `burn`).
pub(super) fn hdiutil(inv: &Invocation, cx: &mut Cx<'_>) {
    let verb = operand_words(&inv.args, words![]).into_iter().next().map(|(_, w)| w.to_ascii_lowercase());
    cx.hit(if verb.is_none_or(|v| HDIUTIL_READS.contains(&v)) { &READ } else { &CHANGE });
}

crate::table! {
    /// `profiles VERB`: the configuration-profile verbs that only print or check.
    PROFILES_READS = ["list", "show", "status", "validate", "version", "help"];
    probe "profiles {} -type configuration" => T0, "system.macos.read";
}

/// `profiles VERB`: the reads print; `remove`, `renew`, `sync`, `install` change
/// the machine's managed configuration.
pub(super) fn profiles(inv: &Invocation, cx: &mut Cx<'_>) {
    let verb = operand_words(&inv.args, words![]).into_iter().next().map(|(_, w)| w.to_ascii_lowercase());
    cx.hit(if verb.is_none_or(|v| PROFILES_READS.contains(&v)) { &READ } else { &CHANGE });
}

crate::table! {
    /// dscl's commands that only read the directory (spelled with or without a dash).
    DSCL_READS = ["read", "readall", "readpl", "readpli", "list", "search", "diff", "help", "h", "cat", "ls", "cd", "q", "quit"];
    probe "dscl . -{} /Users/me" => T0, "system.macos.read";
}

/// dscl's datasource and global options, before its command.
const DSCL_SPEC: ArgSpec = ArgSpec::values(words!["-u", "-P", "-f"]).with_flags(words!["-p", "-raw", "-plist", "-url", "-q"]).single_dash_long();

/// `dscl [options] DATASOURCE [COMMAND …]`: DATASOURCE (`.`, `localhost`,
/// `/Local/Default`) names a directory node, never a file to run. A command of
/// its own grammar (`-read`, `list`) follows; one that is not a read (`-create`,
/// `-passwd`, `-delete`) or none (the interactive prompt) changes or may change
/// accounts.
pub(super) fn dscl(inv: &Invocation, cx: &mut Cx<'_>) {
    let mut tokens = Args::parse(&inv.args, DSCL_SPEC);
    let command = tokens.by_ref().find_map(|t| match t {
        Token::Operand(o) => Some(o.index),
        _ => None,
    });
    let command = command.and_then(|datasource| inv.args.get(datasource + 1)).map(|a| a.text.trim_start_matches('-').to_ascii_lowercase());
    cx.hit(if command.is_some_and(|c| DSCL_READS.contains(&c)) { &READ } else { &CHANGE });
}

crate::tables![
    DEFAULTS_READS, DISK_ERASE, DISK_READS, TMUTIL_READS, SCUTIL_NC_READS, SECURITY_READS, SECURITY_LISTS, HDIUTIL_READS, PROFILES_READS, DSCL_READS
];
