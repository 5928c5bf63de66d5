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

mod admin;
mod hoststate;
mod macos;
mod network;
mod ospkg;
mod process;
pub(crate) mod services;
mod windows;

use crate::call::Invocation;
use crate::rules::{Cx, Family, Rule};

pub static FAMILY: Family = Family { name: "system", programs: PROGRAMS, check, rules: RULES };

static PROGRAMS: &[&str] = &[
    // services and power
    "systemctl", "service", "launchctl", "loginctl", "busctl", "update-rc.d", "chkconfig", "reboot", "shutdown", "halt", "poweroff", "init", "telinit",
    // processes and jobs
    "kill", "killall", "pkill", "xkill", "crontab", "at", "batch", "atq", "atrm", // mounts, accounts, kernel, host settings, logs
    "mount", "umount", "swapon", "swapoff", "useradd", "userdel", "usermod", "adduser", "deluser", "addgroup", "delgroup", "groupadd", "groupdel", "groupmod",
    "gpasswd", "passwd", "chpasswd", "chage", "chsh", "chfn", "visudo", "vipw", "vigr", "newusers", "systemd-sysusers", "sysctl", "modprobe", "insmod",
    "rmmod", "hostnamectl", "timedatectl", "localectl", "journalctl", "dmesg", "lsblk", // firewall and network
    "iptables", "ip6tables", "iptables-save", "ip6tables-save", "iptables-restore", "ip6tables-restore", "nft", "ufw", "firewall-cmd", "ip", "ifconfig",
    "route", "nmcli", // macOS
    "defaults", "diskutil", "csrutil", "nvram", "tmutil", "pmset", "networksetup", "scutil", "security", // OS package managers
    "apt", "apt-get", "apt-cache", "aptitude", "dpkg", "dpkg-query", "dpkg-reconfigure", "rpm", "yum", "dnf", "microdnf", "pacman", "yay", "paru", "zypper",
    "apk", "brew", "port", "snap", "flatpak", "nix", "nix-env", "nix-channel", "nix-collect-garbage", "nix-shell", "nix-build", "nixos-rebuild",
    // Windows: cmd built-ins and PowerShell cmdlets (and their exec aliases) typed bare
    "iex", "icm", "del", "erase", "rd", "ren", "move", "attrib", "icacls", "takeown", "cipher", "taskkill", "format", "diskpart", "dir", "type", "findstr",
    "reg", "sc", "vssadmin", "Get-ChildItem", "Get-Content", "Get-Process", "Get-Service", "Get-Item", "Get-ItemProperty", "Get-Location", "Get-Command",
    "Get-Help", "Get-Date", "Get-Host", "Get-Disk", "Get-Volume", "Get-Partition", "Get-NetIPAddress", "Get-NetAdapter", "Get-EventLog", "Get-WinEvent",
    "Get-Acl", "Get-Module", "Get-Package", "Get-ExecutionPolicy", "Get-CimInstance", "Get-WmiObject", "Get-FileHash", "Get-Member", "Get-Alias",
    "Get-Variable", "Get-History", "Get-PSDrive", "Get-Clipboard", "Get-ComputerInfo", "Get-HotFix", "Select-Object", "Where-Object", "Sort-Object",
    "Measure-Object", "Format-Table", "Format-List", "Format-Wide", "Format-Custom", "Out-String", "Out-Host", "Out-Null", "Out-GridView", "Write-Output",
    "Write-Host", "Test-Path", "Test-Connection", "Test-NetConnection", "Resolve-Path", "Select-String", "ConvertTo-Json", "ConvertFrom-Json", "ConvertTo-Csv",
    "ConvertFrom-Csv", "Compare-Object", "Group-Object", "Join-Path", "Split-Path", "Import-Csv", "ForEach-Object", "Tee-Object", "Export-Csv", "Wait-Process",
    "Remove-Item", "Remove-ItemProperty", "Set-Content", "Add-Content", "Clear-Content", "Out-File", "Set-Item", "Set-ItemProperty", "New-Item",
    "New-ItemProperty", "Copy-Item", "Move-Item", "Rename-Item", "Stop-Process", "Stop-Service", "Start-Service", "Restart-Service", "Set-Service",
    "New-Service", "Remove-Service", "Start-Process", "Stop-Computer", "Restart-Computer", "Set-ExecutionPolicy", "Invoke-Expression", "Invoke-Command",
    "Invoke-Item", "Set-Acl", "Clear-RecycleBin", "Install-Module", "Install-Package", "Uninstall-Module", "Uninstall-Package", "Update-Module",
    "Enable-PSRemoting", "Enable-WindowsOptionalFeature", "Disable-WindowsOptionalFeature", "Set-NetFirewallProfile", "New-NetFirewallRule",
    "Remove-NetFirewallRule", "Set-MpPreference", "Add-MpPreference", "Format-Volume", "Clear-Disk", "Initialize-Disk", "Remove-Partition", "remove-item",
    "remove-itemproperty", "set-content", "add-content", "clear-content", "out-file", "set-item", "set-itemproperty", "new-item", "new-itemproperty",
    "copy-item", "move-item", "rename-item", "stop-process", "stop-service", "start-service", "restart-service", "set-service", "new-service",
    "remove-service", "start-process", "stop-computer", "restart-computer", "set-executionpolicy", "invoke-expression", "invoke-command", "invoke-item",
    "set-acl", "clear-recyclebin", "install-module", "install-package", "uninstall-module", "uninstall-package", "update-module", "enable-psremoting",
    "enable-windowsoptionalfeature", "disable-windowsoptionalfeature", "set-netfirewallprofile", "new-netfirewallrule", "remove-netfirewallrule",
    "set-mppreference", "add-mppreference", "format-volume", "clear-disk", "initialize-disk", "remove-partition",
    // hoststate.rs (a test checks the lists agree)
    "gpg", "gpg2", "apt-key", "xauth", "systemd-creds", "systemd-machine-id-setup", "xdg-user-dirs-update", "dbus-daemon", "resize2fs", "fsck", "e2fsck",
    "fsck.ext2", "fsck.ext3", "fsck.ext4", "fsck.vfat", "fsck.fat", "dosfsck", "xfs_repair", "xfs_growfs", "tune2fs", "ntfsfix", "growpart",
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
const DASH_H_IS_HELP: &[&str] = &[
    "apt", "apt-get", "apt-cache", "aptitude", "yum", "dnf", "microdnf", "zypper", "apk", "pacman", "snap", "flatpak", "systemctl", "journalctl", "loginctl",
    "hostnamectl", "timedatectl", "localectl", "useradd", "userdel", "usermod", "groupadd", "groupdel", "groupmod", "passwd", "chage", "ufw", "nmcli",
    "firewall-cmd", "iptables", "ip6tables", "nft", "crontab", "dpkg", "modprobe",
];

fn wants_help(inv: &Invocation) -> bool {
    let p = inv.program.as_str();
    let dash_h = DASH_H_IS_HELP.contains(&p);
    // The KILL_ALL floor and disk erasure are never waved through by a help word.
    if matches!(p, "kill" | "diskutil") {
        return false;
    }
    let only_version = inv.args.len() == 1 && matches!(inv.args[0].text.as_str(), "--version" | "-V") && p != "ip";
    only_version || inv.args.iter().take_while(|a| a.text != "--").any(|a| a.text == "--help" || (dash_h && a.text == "-h"))
}

/// Programs that honour `--dry-run` themselves; for the rest the flag is ignored, so it
/// neither lowers nor raises a verdict (`kill --dry-run -9 -1` is still `kill -9 -1`).
const HONOURS_DRY_RUN: &[&str] =
    &["apt", "apt-get", "aptitude", "dpkg", "zypper", "brew", "modprobe", "ufw", "nix-env", "nix-collect-garbage", "systemctl", "apk", "systemd-sysusers"];

fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    if !HONOURS_DRY_RUN.contains(&inv.program.as_str()) && inv.args.iter().any(|a| a.text == "--dry-run") {
        let mut plain = inv.clone();
        plain.args.retain(|a| a.text != "--dry-run");
        return check(&plain, cx);
    }
    if wants_help(inv) {
        cx.hit(&services::HELP);
        return;
    }
    match inv.program.as_str() {
        p if hoststate::PROGRAMS.contains(&p) => hoststate::check(inv, cx),
        "systemctl" => services::systemctl(inv, cx),
        "service" => services::service(inv, cx),
        "launchctl" => services::launchctl(inv, cx),
        "loginctl" => services::loginctl(inv, cx),
        "busctl" => services::busctl(inv, cx),
        "chkconfig" => services::chkconfig(inv, cx),
        "update-rc.d" => cx.hit(&services::CONTROL),
        "reboot" | "shutdown" | "halt" | "poweroff" | "init" | "telinit" => services::power(inv, cx),
        "kill" => process::kill(inv, cx),
        "killall" | "pkill" | "xkill" => process::killall(inv, cx),
        "crontab" => process::crontab(inv, cx),
        "at" | "batch" | "atq" => process::at(inv, cx),
        "atrm" => cx.hit(&process::CRON_WRITE),
        "mount" | "umount" | "swapon" | "swapoff" => admin::mount(inv, cx),
        "sysctl" => admin::sysctl(inv, cx),
        "modprobe" | "insmod" | "rmmod" => admin::modules(inv, cx),
        "hostnamectl" | "timedatectl" | "localectl" => admin::hostctl(inv, cx),
        "journalctl" => admin::journalctl(inv, cx),
        "dmesg" => admin::dmesg(inv, cx),
        "lsblk" => cx.hit(&admin::READ),
        "iptables" | "ip6tables" | "iptables-save" | "ip6tables-save" | "iptables-restore" | "ip6tables-restore" => network::iptables(inv, cx),
        "nft" => network::nft(inv, cx),
        "ufw" => network::ufw(inv, cx),
        "firewall-cmd" => network::firewall_cmd(inv, cx),
        "ip" => network::ip(inv, cx),
        "ifconfig" => network::ifconfig(inv, cx),
        "route" => network::route(inv, cx),
        "nmcli" => network::nmcli(inv, cx),
        "defaults" => macos::defaults(inv, cx),
        "diskutil" => macos::diskutil(inv, cx),
        "csrutil" => macos::csrutil(inv, cx),
        "nvram" => macos::nvram(inv, cx),
        "tmutil" => macos::tmutil(inv, cx),
        "pmset" => macos::pmset(inv, cx),
        "networksetup" => macos::networksetup(inv, cx),
        "scutil" => macos::scutil(inv, cx),
        "security" => macos::security(inv, cx),
        "apt" | "apt-get" | "apt-cache" | "aptitude" => ospkg::apt(inv, cx),
        "dpkg" | "dpkg-query" | "dpkg-reconfigure" => ospkg::dpkg(inv, cx),
        "rpm" => ospkg::rpm(inv, cx),
        "yum" | "dnf" | "microdnf" => ospkg::dnf(inv, cx),
        "pacman" | "yay" | "paru" => ospkg::pacman(inv, cx),
        "zypper" => ospkg::zypper(inv, cx),
        "apk" => ospkg::apk(inv, cx),
        "brew" => ospkg::brew(inv, cx),
        "port" => ospkg::port(inv, cx),
        "snap" => ospkg::snap(inv, cx),
        "flatpak" => ospkg::flatpak(inv, cx),
        "nix" | "nix-env" | "nix-channel" | "nix-collect-garbage" | "nix-shell" | "nix-build" | "nixos-rebuild" => ospkg::nix(inv, cx),
        "useradd" | "userdel" | "usermod" | "adduser" | "deluser" | "addgroup" | "delgroup" | "groupadd" | "groupdel" | "groupmod" | "gpasswd" | "passwd"
        | "chpasswd" | "chage" | "chsh" | "chfn" | "visudo" | "vipw" | "vigr" | "newusers" | "systemd-sysusers" => admin::accounts(inv, cx),
        // Windows: every program left in PROGRAMS.
        _ => windows::check(inv, cx),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn hoststate_programs_are_dispatched_here() {
        for p in super::hoststate::PROGRAMS {
            assert!(super::PROGRAMS.contains(p), "{p} is in hoststate.rs but not in system's PROGRAMS");
        }
    }
}
