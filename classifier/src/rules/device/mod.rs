//! The `device` family: tools that drive an attached phone, tablet or emulator
//! (`adb`, OpenHarmony's `hdc`, `fastboot`). A device is another machine: its
//! shell (`adb shell CMD`, `adb exec-out CMD`, `hdc shell CMD`) is judged the
//! way `ssh host CMD` is (`Cx::remote`: the session asks as `shell.ssh-remote`,
//! and the command is classified as a command line on the other side, so a
//! blocked one stays blocked). Installing, removing, pushing files, rebooting and flashing
//! change the device; listing devices, reading logs and pulling files do not
//! (a pulled file's local destination goes through the path policy).
//!
//! It does not model what a particular app does once installed.

use crate::call::args::{ArgSpec, Args, Help, Token};
use crate::call::{Arg, Invocation};
use crate::rules::vocab::writes;
use crate::rules::{Card, Cx, Family, Rule};
use crate::words;

pub static FAMILY: Family = Family::new("device", CARDS, RULES);

static CARDS: &[Card] = &[Card::of(words!["adb"], adb), Card::of(words!["hdc"], hdc), Card::of(words!["fastboot"], fastboot)];

static RULES: &[&Rule] = &[&READ, &CHANGE, &FLASH];

/// ## What it matches
/// Reading an attached device or the bridge: `adb devices`, `adb logcat`, `adb pull` (into the tree), `adb forward`,
/// `adb version`; `hdc list targets`, `hdc hilog`; `fastboot devices`, `fastboot getvar all`.
/// ## Why this tier
/// They list, read or copy from the device; nothing on it changes.
pub static READ: Rule = Rule::t0("device.read")
    .reason("reads an attached device or the debug bridge only")
    .matches(words![
        "adb devices -l", "adb logcat *:W", "adb -s emulator-5554 logcat", "adb pull /sdcard/log.txt ./logs/", "adb forward tcp:8080 tcp:8080", "adb version",
        "hdc list targets", "fastboot devices", "fastboot getvar all",
    ])
    .not_matches(words!["adb shell ls", "adb install app.apk", "fastboot flash boot boot.img"]);

/// ## What it matches
/// Changing the device: `adb install|install-multiple|uninstall|push|sync|reboot|root|unroot|remount|sideload|restore|
/// backup|disable-verity|enable-verity|tcpip|usb|emu|keygen`, the bridge's state (`adb connect|disconnect|pair|
/// start-server|kill-server`), `hdc install|uninstall|file send|target boot|tmode`; unknown `hdc` verbs too.
/// ## Why this tier
/// Apps, files and the device's boot state change; approvable, but the user should know.
pub static CHANGE: Rule = Rule::t3("device.change")
    .reason("installs, removes, copies onto, reboots or reconfigures the attached device; ask the user first")
    .matches(words![
        "adb install -r app.apk", "adb uninstall com.example.app", "adb push build/ /sdcard/", "adb reboot bootloader", "adb -d root", "hdc install entry.hap",
        "hdc file send a.txt /data/local/tmp", "adb connect 192.168.1.5:5555", "adb kill-server",
    ])
    .not_matches(words!["adb devices", "adb pull /sdcard/a.txt ."]);

/// ## What it matches
/// `fastboot` doing anything but listing or reading variables: `flash`, `erase`, `format`, `-w`, `oem`, `flashing`,
/// `boot`, `reboot`, `set_active`, `update`.
/// ## Why this tier
/// Writes partitions or unlocks the bootloader (which wipes the device's data); approvable, but never silently.
pub static FLASH: Rule = Rule::t3("device.flash")
    .reason("flashes, erases or unlocks an attached device's partitions (unlocking wipes its data); ask the user first")
    .matches(words!["fastboot flash boot boot.img", "fastboot -w", "fastboot oem unlock", "fastboot flashing unlock", "fastboot erase userdata"])
    .not_matches(words!["fastboot devices", "fastboot getvar all", "fastboot --version"]);

/// adb's global options: the device selectors and the server address.
const ADB_GLOBALS: ArgSpec = ArgSpec::values(words!["-s", "-t", "-H", "-P", "-L", "--one-device"]).with_flags(words!["-a", "-d", "-e"]).posix();

/// `adb shell`'s own options before the command (`-e ESC` takes a value).
/// `--help` there prints the shell's usage.
const ADB_SHELL: ArgSpec = ArgSpec::values(words!["-e"]).with_flags(words!["-n", "-T", "-t", "-x"]).packed().posix().help(Help::LONG);

crate::table! {
    /// adb subcommands that only read the device or the bridge.
    ADB_READS = [
        "devices", "version", "help", "logcat", "get-state", "get-serialno", "get-devpath", "forward", "reverse", "wait-for-device", "wait-for-recovery",
        "wait-for-bootloader", "wait-for-sideload", "mdns", "features", "host-features", "jdwp", "track-devices", "pull", "bugreport",
    ];
    probe "adb {}" => T0, "device.read";
}

crate::table! {
    /// adb subcommands that change the device. The bridge's own state counts too:
    /// `connect`/`pair` reach a device over the network (pairing stores a key), and
    /// starting or killing the server cuts every other session.
    ADB_CHANGES = [
        "install", "install-multiple", "install-multi-package", "uninstall", "push", "sync", "reboot", "root", "unroot", "remount", "sideload", "restore",
        "backup", "disable-verity", "enable-verity", "tcpip", "usb", "emu", "keygen", "ppp", "connect", "disconnect", "pair", "start-server", "kill-server",
        "reconnect", "attach", "detach",
    ];
    probe "adb {} x" => T3, "device.change";
}

fn adb(inv: &Invocation, cx: &mut Cx<'_>) {
    let sub = Args::parse(&inv.args, ADB_GLOBALS).operands().next();
    let Some(sub) = sub else {
        // `adb`, `adb --version`, `adb -s X`: usage or version.
        return cx.hit(&READ);
    };
    let rest = &inv.args[sub.index + 1..];
    match sub.arg.text.as_str() {
        "shell" | "exec-out" | "exec-in" => device_shell(inv, cx, "adb", &sub.arg.text, rest, ADB_SHELL),
        s if ADB_READS.contains(s) => {
            cx.hit(&READ);
            // `adb pull REMOTE… [LOCAL]`, `adb bugreport [PATH]`: the local side is a write here.
            if matches!(s, "pull" | "bugreport") {
                let ops: Vec<&Arg> = Args::parse(rest, ArgSpec::values(words![])).operands().map(|o| o.arg).collect();
                let local = if s == "pull" && ops.len() < 2 { None } else { ops.last().copied() };
                if let Some(local) = local {
                    writes::check_write(cx, local, inv.cwd.as_deref());
                }
            }
        }
        s if ADB_CHANGES.contains(s) => cx.hit_because(&CHANGE, format!("`adb {s}` changes the attached device; ask the user first")),
        _ => cx.or_unowned(inv),
    }
}

/// `hdc`'s global options (`-t KEY` selects the device, `-s ADDR` the server).
const HDC_GLOBALS: ArgSpec = ArgSpec::values(words!["-t", "-s", "-l"]).posix();

fn hdc(inv: &Invocation, cx: &mut Cx<'_>) {
    let Some(sub) = Args::parse(&inv.args, HDC_GLOBALS).operands().next() else {
        return cx.hit(&READ);
    };
    let rest = &inv.args[sub.index + 1..];
    let next = rest.first().map(|a| a.text.as_str());
    match (sub.arg.text.as_str(), next) {
        ("shell", _) => device_shell(inv, cx, "hdc", "shell", rest, ArgSpec::values(words![]).posix()),
        ("list" | "hilog" | "version" | "help" | "-h" | "-v" | "checkserver" | "discover" | "fport", _) | ("file", Some("recv")) => cx.hit(&READ),
        (s, _) => cx.hit_because(&CHANGE, format!("`hdc {s}` changes the attached device; ask the user first")),
    }
}

fn fastboot(inv: &Invocation, cx: &mut Cx<'_>) {
    /// fastboot's options that take a value.
    const SPEC: ArgSpec =
        ArgSpec::values(words!["-s", "-S", "--slot", "-b", "--base", "-c", "--cmdline", "-i", "-n", "--page-size", "--os-version", "--os-patch-level"])
            .with_flags(words!["-w"]);
    // `--version`, `-h`, `--help`: read as options of their own, wherever they stand.
    const PRINTS: Help = Help::VERSION.with(Help::DASH_H).with(Help::LONG);
    let mut args = Args::parse(&inv.args, SPEC);
    let mut wipes = false;
    let mut sub: Option<&str> = None;
    for t in args.by_ref() {
        match t {
            Token::Opt { name: "-w", .. } => wipes = true,
            _ if sub.is_none() && !wipes && t.name().is_some_and(|n| PRINTS.holds(n)) => return cx.hit(&READ),
            Token::Operand(o) if sub.is_none() => sub = Some(o.arg.text.as_str()),
            _ => {}
        }
    }
    match sub {
        Some("devices" | "getvar" | "help") | None if !wipes => cx.hit(&READ),
        Some(s) => cx.hit_because(&FLASH, format!("`fastboot {s}` writes the attached device's partitions or boot state; {}", FLASH.reason)),
        None => cx.hit(&FLASH),
    }
}

/// `adb shell [OPTS] [CMD…]`, `hdc shell [CMD…]`: a session on the device, and
/// its command classified there, the way `ssh host CMD` is.
fn device_shell(inv: &Invocation, cx: &mut Cx<'_>, tool: &str, sub: &str, rest: &[Arg], spec: ArgSpec) {
    let mut payload = rest.len();
    for t in Args::parse(rest, spec) {
        match t {
            Token::Help { .. } => return cx.hit(&READ),
            Token::Operand(o) => {
                payload = o.index;
                break;
            }
            Token::DashDash(d) => {
                payload = d + 1;
                break;
            }
            _ => {}
        }
    }
    let _ = inv;
    cx.remote(Some(&format!("`{tool} {sub}` (the attached device)")), &rest[payload.min(rest.len())..]);
}

crate::tables![ADB_READS, ADB_CHANGES];
