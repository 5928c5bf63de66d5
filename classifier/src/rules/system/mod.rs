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
use crate::words::Words;

mod admin;
mod hoststate;
mod macos;
mod network;
mod ospkg;
mod process;
pub(crate) mod services;
mod windows;

use crate::call::Invocation;
use crate::rules::{Check, Cx, Family, Programs, Rule};

pub static FAMILY: Family = Family::new("system", PROGRAMS, RULES).entered_by(enter);

static PROGRAMS: &[Programs] = &[
    Programs::of(hoststate::PROGRAMS, hoststate::check),
    Programs::of(words!["systemctl"], services::systemctl),
    Programs::of(words!["service"], services::service),
    Programs::of(words!["launchctl"], services::launchctl),
    Programs::of(words!["loginctl"], services::loginctl),
    Programs::of(words!["busctl"], services::busctl),
    Programs::of(words!["chkconfig"], services::chkconfig),
    Programs::of(words!["update-rc.d"], |_, cx| cx.hit(&services::CONTROL)),
    Programs::of(words!["reboot", "shutdown", "halt", "poweroff", "init", "telinit"], services::power),
    Programs::of(words!["kill"], process::kill),
    Programs::of(words!["killall", "pkill", "xkill"], process::killall),
    Programs::of(words!["crontab"], process::crontab),
    Programs::of(words!["at", "batch", "atq"], process::at),
    Programs::of(words!["atrm"], |_, cx| cx.hit(&process::CRON_WRITE)),
    Programs::of(words!["watchman"], process::watchman),
    Programs::of(words!["mount", "umount", "swapon", "swapoff"], admin::mount),
    Programs::of(words!["sysctl"], admin::sysctl),
    Programs::of(words!["modprobe", "insmod", "rmmod"], admin::modules),
    Programs::of(words!["hostnamectl", "timedatectl", "localectl"], admin::hostctl),
    Programs::of(words!["date"], admin::date),
    Programs::of(words!["hostname"], admin::hostname),
    Programs::of(words!["journalctl"], admin::journalctl),
    Programs::of(words!["dmesg"], admin::dmesg),
    Programs::of(words!["lsblk"], |_, cx| cx.hit(&admin::READ)),
    Programs::of(words!["iptables", "ip6tables", "iptables-save", "ip6tables-save", "iptables-restore", "ip6tables-restore"], network::iptables),
    Programs::of(words!["nft"], network::nft),
    Programs::of(words!["ufw"], network::ufw),
    Programs::of(words!["firewall-cmd"], network::firewall_cmd),
    Programs::of(words!["ip"], network::ip),
    Programs::of(words!["ifconfig"], network::ifconfig),
    Programs::of(words!["route"], network::route),
    Programs::of(words!["nmcli"], network::nmcli),
    Programs::of(words!["defaults"], macos::defaults),
    Programs::of(words!["diskutil"], macos::diskutil),
    Programs::of(words!["csrutil"], macos::csrutil),
    Programs::of(words!["nvram"], macos::nvram),
    Programs::of(words!["tmutil"], macos::tmutil),
    Programs::of(words!["pmset"], macos::pmset),
    Programs::of(words!["networksetup"], macos::networksetup),
    Programs::of(words!["scutil"], macos::scutil),
    Programs::of(words!["security"], macos::security),
    Programs::of(words!["apt", "apt-get", "apt-cache", "aptitude"], ospkg::apt),
    Programs::of(words!["dpkg", "dpkg-query", "dpkg-reconfigure"], ospkg::dpkg),
    Programs::of(words!["rpm"], ospkg::rpm),
    Programs::of(words!["yum", "dnf", "microdnf"], ospkg::dnf),
    Programs::of(words!["pacman", "yay", "paru"], ospkg::pacman),
    Programs::of(words!["zypper"], ospkg::zypper),
    Programs::of(words!["apk"], ospkg::apk),
    Programs::of(words!["brew"], ospkg::brew),
    Programs::of(words!["port"], ospkg::port),
    Programs::of(words!["snap"], ospkg::snap),
    Programs::of(words!["flatpak"], ospkg::flatpak),
    Programs::of(words!["nix", "nix-env", "nix-channel", "nix-collect-garbage", "nix-shell", "nix-build", "nixos-rebuild"], ospkg::nix),
    Programs::of(
        words![
            "useradd", "userdel", "usermod", "adduser", "deluser", "addgroup", "delgroup", "groupadd", "groupdel", "groupmod", "gpasswd", "passwd", "chpasswd",
            "chage", "chsh", "chfn", "visudo", "vipw", "vigr", "newusers", "systemd-sysusers",
        ],
        admin::accounts,
    ),
    // Windows: cmd built-ins and PowerShell cmdlets (and their exec aliases) typed bare;
    // any other case (`remove-item`, `REMOVE-ITEM`) folds to these (`crate::names`).
    Programs::of(
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
    ),
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
    &hoststate::KEYS,
    &hoststate::HOST,
    &hoststate::FS_REPAIR,
];

/// Programs whose `-h` means help (elsewhere it can mean `--halt`, `--human` …).
/// probe: `{} -h` T0 system.help
const DASH_H_IS_HELP: Words = words![
    "apt", "apt-get", "apt-cache", "aptitude", "yum", "dnf", "microdnf", "zypper", "apk", "pacman", "snap", "flatpak", "systemctl", "journalctl", "loginctl",
    "hostnamectl", "timedatectl", "localectl", "useradd", "userdel", "usermod", "groupadd", "groupdel", "groupmod", "passwd", "chage", "ufw", "nmcli",
    "firewall-cmd", "iptables", "ip6tables", "nft", "crontab", "dpkg", "modprobe",
];

fn wants_help(inv: &Invocation) -> bool {
    let p = inv.program.as_str();
    let dash_h = DASH_H_IS_HELP.contains(p);
    // The KILL_ALL floor and disk erasure are never waved through by a help word.
    if matches!(p, "kill" | "diskutil") {
        return false;
    }
    let only_version = inv.args.len() == 1 && matches!(inv.args[0].text.as_str(), "--version" | "-V") && p != "ip";
    only_version || crate::call::stands_alone(&inv.args, |w| w == "--help" || (dash_h && w == "-h"))
}

/// Programs that honour `--dry-run` themselves; for the rest the flag is ignored, so it
/// neither lowers nor raises a verdict (`kill --dry-run -9 -1` is still `kill -9 -1`).
/// probe: `{} --dry-run upgrade -i x` T2
/// probe-except: `systemd-sysusers`: its `--dry-run` only prints what it would create, a read (system.admin.read, T0), not a simulation
/// probe-except: `systemctl` `apk`: their checks do not read `--dry-run` (apk simulates with `-s`; systemctl's verbs ask either way), so a change stays T3
const HONOURS_DRY_RUN: Words =
    words!["apt", "apt-get", "aptitude", "dpkg", "zypper", "brew", "modprobe", "ufw", "nix-env", "nix-collect-garbage", "systemctl", "apk", "systemd-sysusers"];

fn enter(inv: &Invocation, cx: &mut Cx<'_>, check: Check) {
    if !HONOURS_DRY_RUN.contains(inv.program.as_str()) && inv.args.iter().any(|a| a.text == "--dry-run") {
        let mut plain = inv.clone();
        plain.args.retain(|a| a.text != "--dry-run");
        return enter(&plain, cx, check);
    }
    if wants_help(inv) {
        cx.hit(&services::HELP);
        return;
    }
    check(inv, cx)
}
