//! Operating-system package managers: apt/apt-get/apt-cache/aptitude, dpkg, rpm,
//! yum/dnf/microdnf, pacman (and yay/paru), zypper, apk, brew, port, snap, flatpak,
//! nix/nix-env/nix-channel/nix-collect-garbage/nix-shell/nix-build/nixos-rebuild,
//! the BSDs' pkg_add/pkg_delete/pkg_info.
//!
//! Queries are T0; install/remove/upgrade/refresh are T3; a simulation flag the
//! manager really honours (`apt-get -s`, `dnf --assumeno`, `pacman -p`, `zypper
//! --dry-run`, `apk -s`, `brew cleanup -n`, `port -y`, `rpm --test`, `dpkg
//! --dry-run`) lowers a change to T2. Language package managers (npm, pip, cargo …)
//! are the `packages` family's.

use crate::call::args::{asks_help, short_letters, ArgSpec, Args, Help, Token};
use crate::call::Invocation;
use crate::call::{has_flag, has_short, operand_words};
use crate::rules::{Cx, Rule};
use crate::words;
use crate::words::Words;

/// ## What it matches
/// Package queries: `apt list|search|show|policy`, `apt-cache …`, `dpkg -l|-L|-s|-S`, `rpm -q…`,
/// `dnf list|info|search|repolist|check-update`, `pacman -Q…|-Ss|-Si`, `zypper search|info|lr`,
/// `apk info|search`, `brew list|info|search|outdated|deps`, `port installed|search`, `snap list|info|find`,
/// `flatpak list|info|search|config KEY`, `nix search|eval|path-info`, `nix-env -q`.
/// ## Why this tier
/// They read package databases; nothing is installed or removed.
pub static READ: Rule = Rule::t0("system.pkg.read")
    .reason("queries installed or available packages only")
    .matches(words![
        "apt list --installed", "apt-cache policy nginx", "dpkg -l", "rpm -qa", "dnf list installed", "pacman -Ss vim", "brew info jq", "brew list",
        "snap list", "nix search nixpkgs hello", "apt show nginx", "nix", "nix profile list", "nix store verify --all", "flatpak config languages",
    ])
    .not_matches(words!["apt install nginx", "brew install jq", "pacman -S vim"]);

/// ## What it matches
/// Installing, removing, upgrading or refreshing system packages, repositories or package caches:
/// `apt|apt-get install|remove|purge|upgrade|update|autoremove`, `dpkg -i|-r|-P`, `rpm -i|-U|-e`,
/// `dnf|yum install|remove|upgrade|makecache|history undo`, `pacman -S|-Syu|-R|-U`, `zypper in|rm|up|ref`,
/// `apk add|del|upgrade`, `brew install|uninstall|upgrade|update|tap|services start`, `snap install|refresh`,
/// `flatpak install|run|config --set|--unset`, `nix profile install`, `nix-env -i`, `nix-collect-garbage`, `nixos-rebuild switch`.
/// ## Why this tier
/// Changes what software the machine runs (and package scripts run as root).
pub static CHANGE: Rule = Rule::t3("system.pkg.change")
    .reason("installs, removes or upgrades system packages; ask the user first")
    .matches(words![
        "apt-get install nginx", "sudo apt install -y nginx", "apt-get -y remove nginx", "apt-get update", "dpkg -i x.deb", "rpm -Uvh x.rpm",
        "yum install nginx", "dnf -y install git", "pacman -Syu", "apk add curl", "brew install jq", "brew uninstall jq", "snap install code --classic",
        "nix-env -iA nixpkgs.hello", "nixos-rebuild switch", "yum -q install nginx", "nix-shell -p hello", "nix profile install nixpkgs#hello",
        "doas pkg_add nginx", "pkg_delete nginx", "flatpak config --unset languages", "flatpak config --set languages en",
    ])
    .not_matches(words!["apt list", "apt-get -s install nginx", "apt-get --help install nginx"]);

/// ## What it matches
/// A change run under the manager's own simulation flag: `apt-get -s|--simulate|--dry-run|--no-act install …`,
/// `dnf|yum install --assumeno`, `pacman -S -p`, `zypper --dry-run in`, `apk -s add`, `brew cleanup|autoremove|upgrade -n`,
/// `port -y install`, `rpm -i --test`, `dpkg --dry-run -i`, `nixos-rebuild dry-activate`.
/// ## Why this tier
/// Simulation: the manager prints what it would do and changes nothing.
pub static SIMULATE: Rule = Rule::t2("system.pkg.simulate")
    .reason("simulation only: prints what the package manager would do")
    .matches(words![
        "apt-get -s install nginx", "apt --simulate remove nginx", "apt-get install --dry-run nginx", "dnf install --assumeno git", "brew cleanup -n",
        "zypper --dry-run install vim", "apk -s add curl", "nixos-rebuild dry-activate",
    ])
    .not_matches(words!["apt-get install nginx", "apt-get -s update"]);

/// ## What it matches
/// Local builds into the package store: `nix build`, `nix-build`, `nix flake check`, `nixos-rebuild build|dry-build`.
/// ## Why this tier
/// T1 (local build): writes the store and a `result` link in the tree; nothing is activated.
pub static BUILD: Rule = Rule::t1("system.pkg.build")
    .reason("builds packages locally without installing or activating them")
    .matches(words!["nix build .#app", "nix-build default.nix", "nix flake check", "nixos-rebuild build"])
    .not_matches(words!["nixos-rebuild switch", "nix profile install nixpkgs#hello"]);

fn read_or_change(cx: &mut Cx<'_>, read: bool, simulate: bool) {
    cx.hit(if read {
        &READ
    } else if simulate {
        &SIMULATE
    } else {
        &CHANGE
    });
}

fn words(inv: &Invocation, value_opts: Words) -> Vec<&str> {
    operand_words(&inv.args, value_opts).into_iter().map(|(_, w)| w).collect()
}

crate::table! {
    /// Read verbs of `apt`, `apt-get` and `aptitude` (`apt-cache` reads whatever its verb,
    /// so its own verbs — `showpkg`, `madison`, `dump` … — need no entry here; the three
    /// managers reject them, and an unknown verb asks).
    APT_READS = [
        "list", "search", "show", "info", "showsrc", "policy", "depends", "rdepends", "changelog", "download", "source", "help", "why", "why-not", "moo", "check",
        "indextargets", "versions",
    ];
    probe "apt {}" => T0, "system.pkg.read";
}
crate::table! {
    APT_SIM = ["-s", "--simulate", "--dry-run", "--just-print", "--no-act", "--recon"];
    probe "apt-get {} install x" => T2, "system.pkg.simulate";
}

pub(super) fn apt(inv: &Invocation, cx: &mut Cx<'_>) {
    if inv.program == "apt-cache" {
        cx.hit(&READ);
        return;
    }
    let w = words(inv, words!["-o", "--option", "-c", "--config-file", "-t", "--target-release", "-a", "--host-architecture"]);
    let verb = w.first().copied().unwrap_or("");
    // `apt-get -s update` still refreshes the package lists.
    let sim = has_flag(&inv.args, APT_SIM) && !matches!(verb, "update" | "clean" | "autoclean" | "edit-sources");
    read_or_change(cx, verb.is_empty() || APT_READS.contains(verb), sim);
}

pub(super) fn dpkg(inv: &Invocation, cx: &mut Cx<'_>) {
    let writes = words![
        "-i", "--install", "-r", "--remove", "-P", "--purge", "--configure", "--unpack", "--set-selections", "--clear-selections", "--add-architecture",
        "--remove-architecture", "--update-avail", "--merge-avail", "--clear-avail", "--forget-old-unavail", "-a", "--pending", "--triggers-only",
    ];
    let change = inv.program == "dpkg-reconfigure" || (inv.program == "dpkg" && has_flag(&inv.args, writes));
    read_or_change(cx, !change, has_flag(&inv.args, words!["--dry-run", "--no-act", "--simulate"]));
}

pub(super) fn rpm(inv: &Invocation, cx: &mut Cx<'_>) {
    let long =
        words!["--install", "--upgrade", "--freshen", "--erase", "--import", "--rebuilddb", "--initdb", "--setperms", "--setugids", "--restore", "--reinstall"];
    let short = inv.flags().filter_map(short_letters).any(|l| l.starts_with(['i', 'U', 'F', 'e']));
    read_or_change(cx, !(short || has_flag(&inv.args, long)), has_flag(&inv.args, words!["--test"]));
}

crate::table! {
    DNF_VALUE_OPTS = [
        "-c", "--config", "--installroot", "--enablerepo", "--disablerepo", "--exclude", "-x", "--releasever", "--setopt", "-d", "--debuglevel", "-e",
        "--errorlevel", "--repo", "--repoid", "--forcearch", "--color", "--destdir", "--downloaddir",
    ];
    probe "dnf {} install list" => T0, "system.pkg.read";
}
crate::table! {
    DNF_READS = [
        "list", "info", "search", "provides", "whatprovides", "repolist", "repoinfo", "deplist", "check-update", "check-upgrade", "history", "repoquery",
        "updateinfo", "help", "grouplist", "groupinfo", "alias", "changelog", "check", "leaves", "version",
    ];
    probe "dnf {}" => T0, "system.pkg.read";
}

pub(super) fn dnf(inv: &Invocation, cx: &mut Cx<'_>) {
    let w = words(inv, DNF_VALUE_OPTS);
    let read = match w.as_slice() {
        [] => true,
        ["history", action, ..] => !matches!(*action, "undo" | "redo" | "rollback" | "replay" | "store"),
        ["group" | "groups" | "module" | "copr" | "environment", action, ..] => matches!(*action, "list" | "info" | "summary" | "provides" | "search"),
        // `dnf alias add|delete` writes /etc/dnf/aliases.d; bare `dnf alias` lists.
        ["alias", action, ..] => *action == "list",
        [verb, ..] => DNF_READS.contains(verb),
    };
    read_or_change(cx, read, has_flag(&inv.args, words!["--assumeno"]));
}

/// pacman's options (getopt_long): `-b` and `-r` are its only short options with a
/// value, and its operations and common switches are declared, so a help word after
/// them is read as help (`pacman -Syu --help`); an undeclared option may own the next word.
const PACMAN_ARGS: ArgSpec = ArgSpec::values(words![
    "-b", "--dbpath", "-r", "--root", "--arch", "--cachedir", "--color", "--config", "--gpgdir", "--hookdir", "--logfile", "--ignore", "--ignoregroup",
    "--assume-installed", "--overwrite", "--print-format", "--sysroot",
])
.with_flags(words![
    "-D", "-F", "-Q", "-R", "-S", "-T", "-U", "-c", "-d", "-e", "-g", "-i", "-k", "-l", "-m", "-n", "-o", "-p", "-q", "-s", "-t", "-u", "-v", "-w", "-y",
    "--sync", "--query", "--remove", "--upgrade", "--database", "--files", "--deptest", "--refresh", "--sysupgrade", "--search", "--info", "--list",
    "--groups", "--clean", "--needed", "--noconfirm", "--confirm", "--asdeps", "--asexplicit", "--nodeps", "--noprogressbar", "--noscriptlet",
    "--downloadonly", "--print", "--quiet", "--verbose", "--debug", "--unrequired", "--explicit", "--deps", "--foreign", "--native", "--owns", "--check",
    "--changelog", "--recursive", "--cascade", "--unneeded", "--nosave",
])
.packed()
.help(Help::LONG.with(Help::VERSION));

pub(super) fn pacman(inv: &Invocation, cx: &mut Cx<'_>) {
    // The operation is the upper-case letter of the first short cluster (`-Syu`, `-Qi`).
    let letters = inv.flags().find_map(short_letters).unwrap_or("");
    let long = |names: Words| has_flag(&inv.args, names);
    let read = if long(words!["--query", "--deptest"])
        || asks_help(&inv.args, PACMAN_ARGS)
        || letters.contains('Q')
        || letters.contains('T')
        || letters.contains('V')
        || letters.contains('h')
    {
        true
    } else if letters.contains('S') || long(words!["--sync"]) {
        let queries = letters.contains('s')
            || letters.contains('i')
            || letters.contains('l')
            || letters.contains('g')
            || long(words!["--search", "--info", "--list", "--groups"]);
        queries && !(letters.contains('y') || letters.contains('u') || letters.contains('c') || long(words!["--refresh", "--sysupgrade", "--clean"]))
    } else if letters.contains('F') || long(words!["--files"]) {
        !(letters.contains('y') || long(words!["--refresh"]))
    } else {
        // `yay`/`paru` with no operation upgrade everything; -R/-U/-D change.
        inv.program == "pacman" && letters.is_empty() && inv.args.is_empty()
    };
    read_or_change(cx, read, has_short(&inv.args, 'p') || long(words!["--print"]));
}

crate::table! {
    ZYPPER_READS = [
        "search", "se", "info", "if", "list-updates", "lu", "list-patches", "lp", "packages", "pa", "patterns", "pt", "products", "pd", "repos", "lr", "services",
        "ls", "patches", "what-provides", "wp", "locks", "ll", "patch-check", "pchk", "search-packages", "help", "source-info", "si", "versioncmp", "targetos",
        "licenses",
    ];
    probe "zypper {}" => T0, "system.pkg.read";
}

pub(super) fn zypper(inv: &Invocation, cx: &mut Cx<'_>) {
    let w = words(inv, words!["--root", "-R", "--config", "-c", "--repo", "-r", "--type", "-t"]);
    read_or_change(cx, w.first().is_none_or(|v| ZYPPER_READS.contains(v)), has_flag(&inv.args, words!["--dry-run", "-D"]));
}

pub(super) fn apk(inv: &Invocation, cx: &mut Cx<'_>) {
    let w = words(inv, words!["-X", "--repository", "-p", "--root", "--arch", "--cache-dir", "--keys-dir"]);
    let reads = ["info", "search", "list", "policy", "dot", "stats", "audit", "verify", "version", "manifest", "help"];
    read_or_change(cx, w.first().is_none_or(|v| reads.contains(v)), has_flag(&inv.args, words!["-s", "--simulate"]));
}

crate::table! {
    BREW_READS = [
        "list", "ls", "info", "abv", "search", "outdated", "deps", "uses", "leaves", "config", "doctor", "dr", "desc", "home", "homepage", "cat", "log",
        "commands", "formulae", "casks", "tap-info", "missing", "options", "shellenv", "--prefix", "--cellar", "--cache", "--repo", "--repository",
        "--env", "--caskroom", "help", "livecheck", "audit", "style", "fetch", "which-formula", "docs", "--config", "--taps", "-S",
    ];
    probe "brew {}" => T0;
    probe only ["--prefix", "--cellar", "--cache", "--repo", "--repository", "--env", "--caskroom", "--config", "--taps", "-S"] "brew {} jq" => T0, "system.pkg.read";
}

crate::table! {
    /// Options that change only what brew prints.
    BREW_QUIET_FLAGS = ["-v", "--verbose", "-d", "--debug", "-q", "--quiet", "--installed"];
    probe "brew tap {}" => T0, "system.pkg.read";
}

pub(super) fn brew(inv: &Invocation, cx: &mut Cx<'_>) {
    let w = words(inv, words![]);
    // `brew --prefix openssl`, `brew --cache jq`: path queries spelled as options;
    // `brew -S TEXT` is brew's alias of `search`.
    // `brew --version jq` prints the version whatever follows (the card honours it alone).
    let path_query = match Args::parse(&inv.args, ArgSpec::values(words![]).help(Help::VERSION)).next() {
        Some(Token::Flag { index: 0, word, .. }) => BREW_READS.contains(word) && (short_letters(word).is_none() || word == "-S"),
        Some(Token::Help { index: 0, .. }) => true,
        _ => false,
    };
    let read = path_query
        || match w.as_slice() {
            [] => true,
            ["services", action, ..] => matches!(*action, "list" | "info"),
            ["services"] | ["analytics"] | ["autoupdate"] => true,
            // `brew tap` lists the taps; `--repair` and the like rewrite them.
            ["tap"] => inv.flags().all(|f| BREW_QUIET_FLAGS.contains(f)),
            // `bundle exec CMD` and `bundle sh` run commands in the bundle's environment.
            ["bundle", action, ..] => matches!(*action, "check" | "list" | "dump" | "env"),
            // `style --fix` and `audit --fix` rewrite the formulae they check.
            ["style" | "audit", ..] => !has_flag(&inv.args, words!["--fix"]),
            ["autoupdate" | "analytics", action, ..] => *action == "status" || *action == "state",
            [verb, ..] => BREW_READS.contains(verb),
        };
    let simulatable = matches!(w.first(), Some(&("cleanup" | "autoremove" | "upgrade" | "bundle")));
    read_or_change(cx, read, simulatable && has_flag(&inv.args, words!["-n", "--dry-run"]));
}

pub(super) fn port(inv: &Invocation, cx: &mut Cx<'_>) {
    let reads = [
        "installed", "list", "search", "info", "deps", "rdeps", "contents", "outdated", "echo", "variants", "provides", "dependents", "rdependents",
        "location", "notes", "usage", "version", "help", "dir", "file", "url", "logfile", "lint", "cat", "gohome",
    ];
    let w = words(inv, words![]);
    read_or_change(cx, w.first().is_none_or(|v| reads.contains(v)), has_short(&inv.args, 'y'));
}

/// `pkg_add PKG` installs or updates (`-u`), `pkg_delete PKG` removes, `pkg_info` reads; `-n` on
/// the first two only reports what would be done.
pub(super) fn bsd_pkg(inv: &Invocation, cx: &mut Cx<'_>) {
    read_or_change(cx, inv.program == "pkg_info", has_short(&inv.args, 'n'));
}

pub(super) fn snap(inv: &Invocation, cx: &mut Cx<'_>) {
    let reads = [
        "list", "info", "find", "search", "services", "logs", "changes", "change", "tasks", "connections", "interfaces", "interface", "version", "warnings",
        "known", "get", "aliases", "model", "whoami", "saved", "help", "debug", "download", "routine", "recovery",
    ];
    let w = words(inv, words![]);
    let read = match w.as_slice() {
        ["refresh", ..] => has_flag(&inv.args, words!["--list", "--time"]),
        [verb, ..] => reads.contains(verb),
        [] => true,
    };
    read_or_change(cx, read, false);
}

pub(super) fn flatpak(inv: &Invocation, cx: &mut Cx<'_>) {
    let reads = [
        "list", "info", "search", "remotes", "remote-ls", "remote-info", "history", "ps", "documents", "document-info", "permissions", "permission-show",
        "permission-list", "help", "config",
    ];
    let w = words(inv, words![]);
    // `flatpak config KEY` reads a setting; `config --set KEY VALUE` and `config --unset KEY` change it.
    let sets = has_flag(&inv.args, words!["--set", "--unset"]) || w.len() > 2;
    let read = w.first().is_none_or(|v| reads.contains(v)) && !(w.first() == Some(&"config") && sets);
    read_or_change(cx, read, has_flag(&inv.args, words!["--no-deploy"]) && w.first() == Some(&"update"));
}

pub(super) fn nix(inv: &Invocation, cx: &mut Cx<'_>) {
    let w = words(
        inv,
        words!["--option", "-I", "--include", "--extra-experimental-features", "-f", "--file", "--expr", "--profile", "--store", "--arg", "--argstr"],
    );
    match inv.program.as_str() {
        "nix-build" => cx.hit(&BUILD),
        "nix-env" => read_or_change(
            cx,
            has_short(&inv.args, 'q')
                || has_flag(&inv.args, words!["--query", "--list-generations"])
                || asks_help(&inv.args, ArgSpec::values(words![]).help(Help::VERSION)),
            has_flag(&inv.args, words!["--dry-run"]),
        ),
        "nix-channel" => read_or_change(cx, has_flag(&inv.args, words!["--list"]), false),
        "nixos-rebuild" => match w.first() {
            Some(&("build" | "dry-build" | "build-vm" | "build-image" | "list-generations")) => cx.hit(&BUILD),
            Some(&"dry-activate") => cx.hit(&SIMULATE),
            _ => cx.hit(&CHANGE),
        },
        // `nix-collect-garbage`, `nix-shell` (runs a shell or `--run CMD`).
        "nix-collect-garbage" => read_or_change(cx, false, has_flag(&inv.args, words!["--dry-run"])),
        "nix-shell" => cx.hit(&CHANGE),
        _ => match w.as_slice() {
            [] => cx.hit(&READ),
            ["build", ..] | ["flake", "check" | "init" | "new", ..] | ["fmt", ..] | ["bundle", ..] => cx.hit(&BUILD),
            ["profile", "list" | "history" | "diff-closures", ..]
            | ["registry", "list", ..]
            | ["flake", "show" | "metadata" | "info" | "archive" | "prefetch", ..] => cx.hit(&READ),
            ["store", a, ..] if matches!(*a, "ls" | "cat" | "path-info" | "verify" | "ping" | "diff-closures" | "dump-path" | "info") => cx.hit(&READ),
            ["search" | "eval" | "show-config" | "config" | "path-info" | "why-depends" | "log" | "derivation" | "hash" | "repl" | "doctor"
            | "print-dev-env" | "show-derivation" | "help" | "key" | "nar" | "edit", ..] => cx.hit(&READ),
            _ => cx.hit(&CHANGE),
        },
    }
}

crate::tables![APT_READS, APT_SIM, DNF_VALUE_OPTS, DNF_READS, ZYPPER_READS, BREW_READS, BREW_QUIET_FLAGS];
