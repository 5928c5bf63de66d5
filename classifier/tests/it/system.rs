//! The `system` family through the full pipeline: services, power, signals, cron,
//! accounts, kernel, firewall, network, macOS tools and OS package managers, with
//! bypass and false-positive forms.

use crate::check::check;

#[test]
fn service_reads_are_free_and_control_asks() {
    for cmd in [
        "systemctl status nginx", "systemctl", "systemctl list-units --failed", "journalctl -u nginx --since today", "service --status-all", "launchctl list",
        "systemctl --user is-enabled app",
    ] {
        check(cmd, "T0");
    }
    for cmd in [
        "sudo systemctl stop nginx", "systemctl restart docker", "systemctl enable --now app", "service nginx reload", "systemctl daemon-reload",
        "launchctl unload ~/Library/LaunchAgents/x.plist", "systemctl frobnicate x",
    ] {
        check(cmd, "T3");
    }
}

#[test]
fn power_is_approvable_not_blocked() {
    for cmd in ["sudo reboot", "shutdown -h now", "shutdown -r +5", "poweroff", "halt", "systemctl poweroff", "init 0"] {
        check(cmd, "T3");
    }
    check("shutdown --help", "T0");
}

#[test]
fn kill_named_processes_asks_and_everything_is_blocked() {
    check("kill -9 1234", "T3");
    check("kill -1 1234", "T3");
    check("pkill -f 'node server.js'", "T3");
    check("killall node", "T3");
    check("kill -l", "T0");
    check("kill -0 1234", "T0");
    for cmd in ["kill -9 -1", "kill -- -1", "kill 1", "sudo kill -KILL 1", "bash -c 'kill -9 -1'"] {
        check(cmd, "BLOCKED");
    }
}

#[test]
fn crontab_and_at() {
    check("crontab -l", "T0");
    check("crontab -e", "T3");
    check("crontab -r", "T3");
    check("crontab jobs.txt", "T3");
    check("atq", "T0");
    check("at now + 1 minute <<'EOF'\nmake backup\nEOF", "T3");
    // The job body is classified: a blocked job stays blocked.
    check("at now <<'EOF'\nkill -9 -1\nEOF", "BLOCKED");
}

#[test]
fn accounts_kernel_mounts() {
    for cmd in [
        "useradd bob", "userdel -r bob", "passwd bob", "usermod -aG sudo bob", "visudo", "mount /dev/sdb1 /mnt", "umount /mnt", "swapoff -a",
        "sysctl -w net.ipv4.ip_forward=1", "sysctl net.ipv4.ip_forward=1", "modprobe br_netfilter", "hostnamectl set-hostname x",
        "timedatectl set-time '2020-01-01'", "journalctl --vacuum-size=100M", "dmesg -c",
    ] {
        check(cmd, "T3");
    }
    for cmd in ["mount", "sysctl -a", "passwd -S bob", "lsblk", "dmesg -T", "hostnamectl", "timedatectl"] {
        check(cmd, "T0");
    }
}

#[test]
fn firewall_and_network() {
    for cmd in [
        "iptables -L", "iptables -nvL", "iptables -S", "ufw status", "nft list ruleset", "ip addr", "ip a", "ip route", "ip -s link", "ifconfig", "route -n",
        "nmcli device status",
    ] {
        check(cmd, "T0");
    }
    for cmd in [
        "iptables -F", "iptables -A INPUT -j DROP", "ufw disable", "ufw allow 22", "firewall-cmd --reload", "ip link set eth0 down",
        "ip addr add 10.0.0.1/24 dev eth0", "route add default gw 10.0.0.1", "ifconfig eth0 down", "nmcli connection up wifi",
    ] {
        check(cmd, "T3");
    }
    check("ufw --dry-run enable", "T2");
}

#[test]
fn macos_tools() {
    check("defaults read com.apple.dock", "T0");
    check("defaults write com.apple.dock autohide -bool true", "T3");
    check("diskutil list", "T0");
    check("csrutil status", "T0");
    check("csrutil disable", "T3");
    check("security find-generic-password -s gh -w", "T3");
    for cmd in ["diskutil eraseDisk APFS X disk2", "diskutil zeroDisk disk2", "diskutil secureErase 0 disk2", "sudo diskutil apfs deleteContainer disk3"] {
        check(cmd, "BLOCKED");
    }
}

#[test]
fn os_package_managers() {
    for cmd in [
        "apt-get install nginx", "apt-get -V install nginx", "apt-get -f install nginx", "apt-get -y remove nginx", "apt-get --assume-yes install nginx",
        "apt install nginx", "apt -y install nginx", "yum install nginx", "yum -C install nginx", "dnf --assumeyes install nginx", "apt-get update",
        "sudo apt install -y nginx", "brew install jq", "pacman -S vim", "apk add curl", "snap install code --classic", "dpkg -i x.deb",
        "nix-env -iA nixpkgs.hello", "env DEBIAN_FRONTEND=noninteractive apt-get install -y jq",
    ] {
        check(cmd, "T3");
    }
    for cmd in [
        "apt list --installed", "apt-cache policy nginx", "dpkg -l", "brew list", "brew info jq", "rpm -qa", "pacman -Qi vim", "dnf list installed",
        "apt-get -h install nginx", "apt-get --help remove nginx", "apt -h install nginx", "yum -h install nginx",
    ] {
        check(cmd, "T0");
    }
    for cmd in [
        "apt-get -s install nginx", "apt-get -s remove nginx", "apt -s install nginx", "apt-get install --dry-run nginx", "dnf install --assumeno git",
        "brew cleanup -n",
    ] {
        check(cmd, "T2");
    }
}

#[test]
fn system_words_in_data_do_not_gate() {
    check("echo 'systemctl stop nginx'", "T0");
    check("grep -n 'kill -9 -1' notes.txt", "T0");
    check("git commit -m 'fix: do not reboot on shutdown'", "T0");
}
