//! The `system` family: machine administration — services and power, processes
//! and scheduled jobs, mounts, accounts, kernel and host settings, logs, firewalls
//! and networking, macOS administration tools, and the operating system's package
//! managers.
//!
//! Reads are T0, changes to the running machine T3, simulations T2; the blocked
//! floor here is disk erasure (`diskutil eraseDisk` …, Windows `format`/`Format-Volume`)
//! and `kill` aimed at every process or init. Coreutils-level file operations
//! (`chmod`, `rm`, `mkfs`, `dd`) and PowerShell payloads (`pwsh -Command …`, the
//! interpreter family's) are not this family's.

use crate::words;

mod admin;
mod cmd;
mod hoststate;
mod macos;
mod network;
mod ospkg;
mod process;
pub(crate) mod services;
mod windows;

use crate::call::args::Help;
use crate::call::Invocation;
use crate::rules::{Card, Check, Cx, Family, Rule};

pub static FAMILY: Family = Family::new("system", CARDS, RULES).entered_by(enter).answers_help(&services::HELP);

/// `--help` anywhere it is an option of its own, and `--version` or `-V` as the
/// whole argv (`systemctl --help`, `iptables --version`).
const HELP: Help = Help::LONG.with(Help::VERSION.with(Help::DASH_UPPER_V).alone());
/// The programs whose `-h` means help too ([`DASH_H_IS_HELP`]; elsewhere it can
/// mean `--halt`, `--human` …).
const DASH_H_HELP: Help = HELP.with(Help::DASH_H);
/// `ip`'s `-V` and `--version` are left to its check, as they always were.
const IP_HELP: Help = Help::LONG;

static CARDS: &[Card] = &[
    Card::of(hoststate::PROGRAMS, hoststate::check).help(HELP),
    Card::of(words!["systemctl"], services::systemctl).help(DASH_H_HELP),
    Card::of(words!["service"], services::service).help(HELP),
    Card::of(words!["launchctl"], services::launchctl).help(HELP),
    Card::of(words!["loginctl"], services::loginctl).help(DASH_H_HELP),
    Card::of(words!["busctl"], services::busctl).help(HELP),
    Card::of(words!["chkconfig"], services::chkconfig).help(HELP),
    Card::of(words!["update-rc.d"], |_, cx| cx.hit(&services::CONTROL)).help(HELP),
    Card::of(words!["reboot", "shutdown", "halt", "poweroff", "init", "telinit"], services::power).help(HELP),
    Card::of(words!["kill"], process::kill),
    Card::of(words!["killall", "pkill", "xkill"], process::killall).help(HELP),
    Card::of(words!["crontab"], process::crontab).help(DASH_H_HELP),
    Card::of(words!["at", "batch", "atq"], process::at).help(HELP),
    Card::of(words!["atrm"], |_, cx| cx.hit(&process::CRON_WRITE)).help(HELP),
    Card::of(words!["watchman"], process::watchman).help(HELP),
    Card::of(words!["mount", "umount", "swapon", "swapoff"], admin::mount).help(HELP),
    Card::of(words!["sysctl"], admin::sysctl).help(HELP),
    Card::of(words!["modprobe"], admin::modules).help(DASH_H_HELP),
    Card::of(words!["insmod", "rmmod"], admin::modules).help(HELP),
    Card::of(words!["hostnamectl", "timedatectl", "localectl"], admin::hostctl).help(DASH_H_HELP),
    Card::of(words!["date"], admin::date).help(HELP),
    Card::of(words!["hostname"], admin::hostname).help(HELP),
    Card::of(words!["journalctl"], admin::journalctl).help(DASH_H_HELP),
    Card::of(words!["dmesg"], admin::dmesg).help(HELP),
    Card::of(words!["lsblk"], |_, cx| cx.hit(&admin::READ)).help(HELP),
    Card::of(words!["iptables", "ip6tables"], network::iptables).help(DASH_H_HELP),
    Card::of(words!["iptables-save", "ip6tables-save", "iptables-restore", "ip6tables-restore"], network::iptables).help(HELP),
    Card::of(words!["nft"], network::nft).help(DASH_H_HELP),
    Card::of(words!["ufw"], network::ufw).help(DASH_H_HELP),
    Card::of(words!["firewall-cmd"], network::firewall_cmd).help(DASH_H_HELP),
    Card::of(words!["ip"], network::ip).help(IP_HELP),
    Card::of(words!["ifconfig"], network::ifconfig).help(HELP),
    Card::of(words!["route"], network::route).help(HELP),
    Card::of(words!["nmcli"], network::nmcli).help(DASH_H_HELP),
    Card::of(words!["defaults"], macos::defaults).help(HELP),
    Card::of(words!["diskutil"], macos::diskutil),
    Card::of(words!["csrutil"], macos::csrutil).help(HELP),
    Card::of(words!["nvram"], macos::nvram).help(HELP),
    Card::of(words!["tmutil"], macos::tmutil).help(HELP),
    Card::of(words!["pmset"], macos::pmset).help(HELP),
    Card::of(words!["networksetup"], macos::networksetup).help(HELP),
    Card::of(words!["scutil"], macos::scutil).help(HELP),
    Card::of(words!["security"], macos::security).help(HELP),
    Card::of(words!["hdiutil"], macos::hdiutil).help(HELP),
    Card::of(words!["profiles"], macos::profiles).help(HELP),
    Card::of(words!["dscl"], macos::dscl).help(HELP),
    Card::of(words!["apt", "apt-get", "apt-cache", "aptitude"], ospkg::apt).help(DASH_H_HELP),
    Card::of(words!["dpkg"], ospkg::dpkg).help(DASH_H_HELP),
    Card::of(words!["dpkg-query", "dpkg-reconfigure"], ospkg::dpkg).help(HELP),
    Card::of(words!["rpm"], ospkg::rpm).help(HELP),
    Card::of(words!["yum", "dnf", "microdnf"], ospkg::dnf).help(DASH_H_HELP),
    Card::of(words!["pacman"], ospkg::pacman).help(DASH_H_HELP),
    Card::of(words!["yay", "paru"], ospkg::pacman).help(HELP),
    Card::of(words!["zypper"], ospkg::zypper).help(DASH_H_HELP),
    Card::of(words!["apk"], ospkg::apk).help(DASH_H_HELP),
    // `brew install -h`: every brew command takes `-h` for its help.
    Card::of(words!["brew"], ospkg::brew).help(DASH_H_HELP),
    Card::of(words!["port"], ospkg::port).help(HELP),
    // The BSDs' package tools (OpenBSD, NetBSD, older FreeBSD).
    Card::of(words!["pkg_add", "pkg_delete", "pkg_info"], ospkg::bsd_pkg).help(HELP),
    Card::of(words!["snap"], ospkg::snap).help(DASH_H_HELP),
    Card::of(words!["flatpak"], ospkg::flatpak).help(DASH_H_HELP),
    Card::of(words!["nix", "nix-env", "nix-channel", "nix-collect-garbage", "nix-shell", "nix-build", "nixos-rebuild"], ospkg::nix).help(HELP),
    Card::of(words!["useradd", "userdel", "usermod", "groupadd", "groupdel", "groupmod", "passwd", "chage"], admin::accounts).help(DASH_H_HELP),
    Card::of(
        words!["adduser", "deluser", "addgroup", "delgroup", "gpasswd", "chpasswd", "chsh", "chfn", "visudo", "vipw", "vigr", "newusers", "systemd-sysusers",],
        admin::accounts,
    )
    .help(HELP),
    // `cmd /c CMD` on a POSIX command line: a shell with cmd's syntax (`cmd.rs`).
    Card::of(words!["cmd", "cmd.exe"], cmd::check).help(HELP),
    // Windows: cmd built-ins and PowerShell cmdlets (and their exec aliases) typed bare;
    // any other case (`remove-item`, `REMOVE-ITEM`) folds to these (`crate::names`).
    Card::of(
        words![
            "iex", "icm", "del", "erase", "rd", "ren", "move", "attrib", "icacls", "takeown", "cipher", "taskkill", "format", "diskpart", "dir", "type",
            "findstr", "reg", "sc", "vssadmin", "Get-ChildItem", "Get-Content", "Get-Process", "Get-Service", "Get-Item", "Get-ItemProperty", "Get-Location",
            "Get-Command", "Get-Help", "Get-Date", "Get-Host", "Get-Disk", "Get-Volume", "Get-Partition", "Get-NetIPAddress", "Get-NetAdapter", "Get-EventLog",
            "Get-WinEvent", "Get-Acl", "Get-Module", "Get-Package", "Get-ExecutionPolicy", "Get-CimInstance", "Get-WmiObject", "Get-FileHash", "Get-Member",
            "Get-Alias", "Get-Variable", "Get-History", "Get-PSDrive", "Get-Clipboard", "Get-ComputerInfo", "Get-HotFix", "Select-Object", "Where-Object",
            "Sort-Object", "Measure-Object", "Format-Table", "Format-List", "Format-Wide", "Format-Custom", "Out-String", "Out-Host", "Out-Null",
            "Out-GridView", "Write-Output", "Write-Host", "Test-Path", "Test-Connection", "Test-NetConnection", "Resolve-Path", "Select-String",
            "ConvertTo-Json", "ConvertFrom-Json", "ConvertTo-Csv", "ConvertFrom-Csv", "Compare-Object", "Group-Object", "Join-Path", "Split-Path",
            "Import-Csv", "ForEach-Object", "Tee-Object", "Export-Csv", "Wait-Process", "Remove-Item", "Remove-ItemProperty", "Set-Content", "Add-Content",
            "Clear-Content", "Out-File", "Set-Item", "Set-ItemProperty", "New-Item", "New-ItemProperty", "Copy-Item", "Move-Item", "Rename-Item",
            "Stop-Process", "Stop-Service", "Start-Service", "Restart-Service", "Set-Service", "New-Service", "Remove-Service", "Start-Process",
            "Stop-Computer", "Restart-Computer", "Set-ExecutionPolicy", "Invoke-Expression", "Invoke-Command", "Invoke-Item", "Set-Acl", "Clear-RecycleBin",
            "Install-Module", "Install-Package", "Uninstall-Module", "Uninstall-Package", "Update-Module", "Enable-PSRemoting",
            "Enable-WindowsOptionalFeature", "Disable-WindowsOptionalFeature", "Set-NetFirewallProfile", "New-NetFirewallRule", "Remove-NetFirewallRule",
            "Set-MpPreference", "Add-MpPreference", "Format-Volume", "Clear-Disk", "Initialize-Disk", "Remove-Partition",
        ],
        windows::check,
    )
    .help(HELP),
];

static RULES: &[&Rule] = &[
    &services::READ,
    &services::CONTROL,
    &services::POWER,
    &services::HELP,
    &process::READ,
    &process::SIGNAL,
    &process::KILL_ALL,
    &process::CRON_READ,
    &process::CRON_WRITE,
    &process::WATCHMAN_TRIGGER,
    &admin::READ,
    &admin::CHANGE,
    &admin::DRY_RUN,
    &admin::ACCOUNTS,
    &network::FIREWALL_READ,
    &network::FIREWALL_CHANGE,
    &network::FIREWALL_DRY_RUN,
    &network::NET_READ,
    &network::NET_CHANGE,
    &macos::READ,
    &macos::CHANGE,
    &macos::SECRET,
    &macos::ERASE,
    &ospkg::READ,
    &ospkg::CHANGE,
    &ospkg::SIMULATE,
    &ospkg::BUILD,
    &windows::READ,
    &windows::CHANGE,
    &windows::DISK,
    &cmd::UNMODELLED,
    &hoststate::KEYS,
    &hoststate::HOST,
    &hoststate::FS_REPAIR,
];

crate::table! {
    /// Programs whose `-h` means help (elsewhere it can mean `--halt`, `--human` …):
    /// their cards honour `Help::DASH_H` (a test holds the cards to this list).
    DASH_H_IS_HELP = [
        "apt", "apt-get", "apt-cache", "aptitude", "yum", "dnf", "microdnf", "zypper", "apk", "pacman", "snap", "flatpak", "systemctl", "journalctl", "loginctl",
        "hostnamectl", "timedatectl", "localectl", "useradd", "userdel", "usermod", "groupadd", "groupdel", "groupmod", "passwd", "chage", "ufw", "nmcli",
        "firewall-cmd", "iptables", "ip6tables", "nft", "crontab", "dpkg", "modprobe", "brew",
    ];
    probe "{} -h" => T0, "system.help";
}

crate::table! {
    /// Programs that honour `--dry-run` themselves; for the rest the flag is ignored, so it
    /// neither lowers nor raises a verdict (`kill --dry-run -9 -1` is still `kill -9 -1`).
    HONOURS_DRY_RUN = ["apt", "apt-get", "aptitude", "dpkg", "zypper", "brew", "modprobe", "ufw", "nix-env", "nix-collect-garbage", "systemctl", "apk", "systemd-sysusers"];
    probe "{} --dry-run upgrade -i x" => T2;
    except ["systemd-sysusers"]: "its `--dry-run` only prints what it would create, a read (system.admin.read, T0), not a simulation";
    except ["systemctl", "apk"]: "their checks do not read `--dry-run` (apk simulates with `-s`; systemctl's verbs ask either way), so a change stays T3";
}

fn enter(inv: &Invocation, cx: &mut Cx<'_>, check: Check) {
    if !HONOURS_DRY_RUN.contains(inv.program.as_str()) && inv.args.iter().any(|a| a.text == "--dry-run") {
        let mut plain = inv.clone();
        plain.args.retain(|a| a.text != "--dry-run");
        return check(&plain, cx);
    }
    check(inv, cx)
}

crate::tables![DASH_H_IS_HELP, HONOURS_DRY_RUN; hoststate, macos, network, ospkg, process, services, windows];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::call::args::asks_help;
    use crate::call::Arg;

    #[test]
    fn dash_h_is_help_on_exactly_the_cards_of_dash_h_is_help() {
        let dash_h = [Arg::lit("-h")];
        for card in CARDS {
            for name in card.names.iter() {
                assert_eq!(asks_help(&dash_h, card.args), DASH_H_IS_HELP.contains(name), "{name}");
            }
        }
        // The KILL_ALL floor and disk erasure are never waved through by a help word.
        for never in ["kill", "diskutil"] {
            let card = CARDS.iter().find(|c| c.names.iter().any(|n| n == never));
            assert!(card.is_some_and(|c| c.args.help.is_empty()), "{never}");
        }
    }
}
