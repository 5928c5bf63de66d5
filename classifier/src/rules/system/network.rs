//! Firewalls and network configuration: `iptables`/`ip6tables` (and `-save`/`-restore`),
//! `nft`, `ufw`, `firewall-cmd`, `ip`, `ifconfig`, `route`, `nmcli`.
//!
//! Listing rules, addresses and routes is T0; anything that adds, deletes, flushes
//! or sets is T3. `ufw --dry-run` is honoured (T2).

use crate::call::args::{short_letters, Help};
use crate::call::Invocation;
use crate::call::{has_flag, operand_words};
use crate::rules::vocab::verbs::{verb, Verb};
use crate::rules::{Cx, Rule};
use crate::words;
use crate::words::Words;

/// ## What it matches
/// `iptables -L|-S|-C`, `iptables-save`, `nft list …`, `ufw status|show|app list`, `firewall-cmd --state|--list-*|--get-*|--query-*`.
/// ## Why this tier
/// Lists firewall rules; nothing changes.
pub static FIREWALL_READ: Rule = Rule::t0("system.firewall.read")
    .reason("lists firewall rules only")
    .matches(words![
        "iptables -L", "sudo iptables -L -n -v", "iptables -S INPUT", "nft list ruleset", "ufw status verbose", "firewall-cmd --list-all", "iptables-save",
    ])
    .not_matches(words!["iptables -F", "ufw disable"]);

/// ## What it matches
/// Firewall changes: `iptables -A|-I|-D|-R|-F|-X|-P|-N|-Z`, `iptables-restore`, `nft add|delete|flush|-f`,
/// `ufw enable|disable|allow|deny|delete|reset|reload|default`, `firewall-cmd --add-*|--remove-*|--set-*|--reload`.
/// ## Why this tier
/// Opens or closes the machine to the network; a wrong rule can lock everyone out.
pub static FIREWALL_CHANGE: Rule = Rule::t3("system.firewall.change")
    .reason("changes firewall rules; ask the user first")
    .matches(words![
        "iptables -F", "iptables -A INPUT -p tcp --dport 22 -j ACCEPT", "ufw disable", "ufw allow 22/tcp", "nft flush ruleset",
        "firewall-cmd --add-port=80/tcp --permanent", "iptables-restore < rules.v4",
    ])
    .not_matches(words!["iptables -L", "ufw --dry-run enable"]);

/// ## What it matches
/// `ufw --dry-run …`, `nft -c|--check …`.
/// ## Why this tier
/// Simulation: shows the rules that would be applied.
pub static FIREWALL_DRY_RUN: Rule = Rule::t2("system.firewall.dry-run")
    .reason("dry run: shows the firewall change without applying it")
    .matches(words!["ufw --dry-run enable", "ufw --dry-run allow 80", "nft -c -f rules.nft"])
    .not_matches(words!["ufw enable"]);

/// ## What it matches
/// `ip addr|link|route|neigh|rule [show|list]`, `ip -s link`, bare `ifconfig`, `ifconfig IFACE`, `route -n`,
/// `nmcli general status|device status|connection show|device wifi list`.
/// ## Why this tier
/// Shows interfaces, addresses and routes.
pub static NET_READ: Rule = Rule::t0("system.net.read")
    .reason("shows network interfaces, addresses or routes only")
    .matches(words![
        "ip addr", "ip -br a", "ip route show", "ip -s link", "ifconfig", "ifconfig eth0", "route -n", "nmcli device status", "nmcli connection show"
    ])
    .not_matches(words!["ip link set eth0 down", "nmcli connection up wifi"]);

/// ## What it matches
/// `ip … add|del|change|replace|set|flush|exec` and their abbreviations (`ip r a`), an `ip` verb tiergate does not know, `ifconfig IFACE up|down|ADDR`,
/// `route add|del`, `nmcli … up|down|add|modify|delete|connect|disconnect|on|off|reload`.
/// ## Why this tier
/// Reconfigures networking; a wrong change can cut the machine off.
/// ## Known gaps
/// An abbreviation that is a read for one object and a write for another asks (`ip a s` shows addresses, `ip link s` sets a link).
pub static NET_CHANGE: Rule = Rule::t3("system.net.change")
    .reason("changes network interfaces, addresses or routes; ask the user first")
    .matches(words![
        "ip link set eth0 down", "ip addr add 10.0.0.2/24 dev eth0", "ip route flush table main", "ifconfig eth0 down", "route add default gw 10.0.0.1",
        "nmcli connection up wifi", "nmcli radio wifi off", "ip r a default via 10.0.0.1", "ip link s eth0 down", "ip route prepend default via 10.0.0.1",
        "ip addr frobnicate",
    ])
    .not_matches(words!["ip addr show", "nmcli general status", "ip a sh", "ip r l", "ip route get 1.1.1.1", "ip monitor file dump.bin"]);

crate::table! {
    IPTABLES_WRITES = [
        "-A", "--append", "-I", "--insert", "-D", "--delete", "-R", "--replace", "-F", "--flush", "-X", "--delete-chain", "-P", "--policy", "-N", "--new-chain",
        "-E", "--rename-chain", "-Z", "--zero",
    ];
    probe "iptables {} INPUT" => T3, "system.firewall.change";
}

pub(super) fn iptables(inv: &Invocation, cx: &mut Cx<'_>) {
    let p = inv.program.as_str();
    let writes = p.ends_with("-restore")
        || (!p.ends_with("-save")
            && inv.flags().any(|f| IPTABLES_WRITES.contains(f) || short_letters(f).is_some_and(|l| l.len() > 1 && l.contains(|c| "AIDRFXPNEZ".contains(c)))));
    cx.hit(if writes { &FIREWALL_CHANGE } else { &FIREWALL_READ });
}

pub(super) fn nft(inv: &Invocation, cx: &mut Cx<'_>) {
    if has_flag(&inv.args, words!["-c", "--check"]) {
        cx.hit(&FIREWALL_DRY_RUN);
        return;
    }
    let pos: Vec<&str> = operand_words(&inv.args, words!["-I", "--includepath"]).into_iter().map(|(_, w)| w).collect();
    let reads = !has_flag(&inv.args, words!["-f", "--file", "-i", "--interactive"]) && matches!(pos.first(), Some(&("list" | "describe" | "monitor")) | None);
    cx.hit(if reads { &FIREWALL_READ } else { &FIREWALL_CHANGE });
}

pub(super) fn ufw(inv: &Invocation, cx: &mut Cx<'_>) {
    let pos: Vec<&str> = operand_words(&inv.args, words![]).into_iter().map(|(_, w)| w).collect();
    let reads = match pos.as_slice() {
        [] => inv.args.iter().all(|a| Help::VERSION.holds(&a.text) || a.text == "--dry-run"),
        ["status" | "show" | "version", ..] => true,
        ["app", "list" | "info", ..] => true,
        _ => false,
    };
    cx.hit(if reads {
        &FIREWALL_READ
    } else if has_flag(&inv.args, words!["--dry-run"]) {
        &FIREWALL_DRY_RUN
    } else {
        &FIREWALL_CHANGE
    });
}

pub(super) fn firewall_cmd(inv: &Invocation, cx: &mut Cx<'_>) {
    let read_prefixes = ["--state", "--list-", "--get-", "--query-", "--info-", "--zone", "--permanent", "--check-config", "--direct"];
    let writes = inv.flags().any(|f| !read_prefixes.iter().any(|p| f.starts_with(p)) && !Help::VERSION.holds(f));
    cx.hit(if writes { &FIREWALL_CHANGE } else { &FIREWALL_READ });
}

crate::table! {
    /// `ip` write verbs that share a prefix with a read verb: `a` (add; afstats reads),
    /// `s` (set; show and save read), `p` (prepend; pids reads). Any verb that
    /// abbreviates no read verb is a write already (`del`, `flush`, `exec`, `restore` …),
    /// so listing those would decide nothing; one write per shared prefix decides it.
    IP_WRITES = ["add", "set", "prepend"];
}

crate::table! {
    /// `ip` verbs that only show state. `save` dumps the table to stdout (`restore`
    /// is the write); `ip netns pids|identify` print process ids and namespace names.
    IP_READS = ["show", "list", "lst", "get", "monitor", "help", "showdump", "xstats", "afstats", "save", "pids", "identify"];
    probe "ip link {}" => T0, "system.net.read";
    except ["show"]: "it also abbreviates `showdump`, so `ip link show` reads with or without the entry";
}

pub(super) fn ip(inv: &Invocation, cx: &mut Cx<'_>) {
    let batch = has_flag(&inv.args, words!["-b", "-batch", "--batch", "-force"]);
    let pos: Vec<&str> =
        operand_words(&inv.args, words!["-f", "-family", "-n", "-netns", "-l", "-loops", "-rc", "-rcvbuf"]).into_iter().map(|(_, w)| w).collect();
    // The verb follows the object (`ip link set`, `ip addr add`); a two-word object
    // (`ip link property add`) puts an unknown word there, which is not a read either;
    // `ip netns exec NS cmd` runs a command. Words after a read verb are its arguments
    // (`ip link show up` lists the links that are up).
    // `ip monitor [OBJECT…] [file FILE]` only watches (or replays a saved dump); `m` alone is `maddress`.
    let monitor = pos.first().is_some_and(|o| o.len() >= 2 && "monitor".starts_with(o));
    let writes = batch || (!monitor && pos.get(1).is_some_and(|w| ip_verb_writes(w)));
    cx.hit(if writes { &NET_CHANGE } else { &NET_READ });
}

/// Whether `ip OBJECT VERB` may change state. iproute2 accepts any prefix of a verb
/// (`ip r a` is `ip route add`, `ip link s` is `set`), so a verb reads only when it
/// is a read verb or abbreviates read verbs and no write verb; an unknown verb is
/// not assumed to read.
fn ip_verb_writes(w: &str) -> bool {
    if IP_READS.contains(w) {
        return false;
    }
    let abbreviates = |table: Words| table.iter().any(|v| v.starts_with(w));
    abbreviates(IP_WRITES) || !abbreviates(IP_READS)
}

pub(super) fn ifconfig(inv: &Invocation, cx: &mut Cx<'_>) {
    let pos = operand_words(&inv.args, words![]);
    cx.hit(if pos.len() <= 1 { &NET_READ } else { &NET_CHANGE });
}

pub(super) fn route(inv: &Invocation, cx: &mut Cx<'_>) {
    let pos: Vec<&str> = operand_words(&inv.args, words![]).into_iter().map(|(_, w)| w).collect();
    let reads = matches!(pos.first(), None | Some(&("print" | "get" | "show" | "monitor")));
    cx.hit(if reads { &NET_READ } else { &NET_CHANGE });
}

pub(super) fn nmcli(inv: &Invocation, cx: &mut Cx<'_>) {
    let pos: Vec<&str> =
        operand_words(&inv.args, words!["-f", "--fields", "-g", "--get-values", "-e", "--escape", "-c", "--colors", "-m", "--mode", "-w", "--wait"])
            .into_iter()
            .map(|(_, w)| w)
            .collect();
    let changes = [
        "up", "down", "on", "off", "reload", "rescan", "hotspot", "import", "export", "clone", "edit", "reapply", "load", "autoconnect", "mod", "m", "a", "del",
    ];
    let writes = pos.iter().skip(1).take(2).any(|w| changes.contains(w) || verb(w, words![], words![]) == Verb::Mutate && *w != "show");
    cx.hit(if writes { &NET_CHANGE } else { &NET_READ });
}

crate::tables![IPTABLES_WRITES, IP_WRITES, IP_READS];
