//! `npm`, `pnpm`, `yarn` and `bun`: subcommands sorted into reads, installs,
//! publishing, account/config writes and local builds; scripts go to the
//! package.json lane (`scripts.rs`), `npx`-style runners to `runners.rs`.
//!
//! Decisions: `npm ci` is always T3 (it deletes and reinstalls `node_modules` and
//! runs install scripts); `npm unpublish PKG` without a version is blocked
//! (FEATURES.md §10), with `@VERSION` T3; `--dry-run` lowers a change to T2 only
//! where the manager honours it (npm everywhere, pnpm/bun for install and publish).
//! An unknown npm subcommand is T3; pnpm, yarn and bun treat an unknown word as a
//! script name, so it goes to the script lane. `pack` and `publish` run the package's
//! lifecycle scripts (`prepack`, `prepare`, `postpack`; publish also `prepublishOnly`,
//! `publish`, `postpublish`) whatever `--dry-run` says: they are classified too when
//! its `package.json` can be read.

use super::runners;
use super::scripts::{self, Lookup, LIST};
use super::{ACCOUNT, BUILD, DRY_RUN, HELP, INSTALL, PUBLISH, READ, UNKNOWN, VALIDATE};
use super::{HELP_READING, LONG_HELP_READING};
use crate::call::args::{asks_help, ArgSpec, Help};
use crate::call::{has_flag, operand_words, value_of};
use crate::call::{Arg, Invocation};
use crate::rules::{Cx, FileText, Rule};
use crate::words;
use crate::words::Words;

/// ## What it matches
/// `npm unpublish PKG` (or `--force` with no spec): unpublishing every version of a package (FEATURES.md §10, §13 npm_critical).
/// ## Why this tier
/// Removes the package for everyone who depends on it, and the name cannot be reused for 24 hours; never approvable.
pub(super) static UNPUBLISH_ALL: Rule = Rule::blocked("packages.npm.unpublish-all")
    .reason("unpublishing a whole package breaks everyone who depends on it; unpublish one version (`npm unpublish pkg@1.0.0`) or deprecate it instead")
    .matches(words!["npm unpublish my-package", "npm unpublish my-package --force", "npm unpublish @scope/pkg", "npm unpublish --force"])
    .not_matches(words!["npm unpublish my-package@1.0.0", "npm unpublish @scope/pkg@2.0.0"])
    .suggest("npm deprecate my-package@1.0.0 'use 2.x'");

/// Options that take a value, per manager.
fn value_opts(pm: &str) -> Words {
    // The packages family sends only npm, pnpm, yarn and bun here; npm's options are the default.
    match pm {
        "pnpm" => words![
            "--registry", "--tag", "--access", "--otp", "--loglevel", "--reporter", "--dir", "-C", "--filter", "-F", "--workspace-concurrency", "--store-dir",
            "--virtual-store-dir", "--depth", "--config-dir",
        ],
        "yarn" => words!["--cwd", "--registry", "--cache-folder", "--modules-folder", "--network-timeout", "--mutex", "--tag", "--access", "--otp"],
        "bun" => words![
            "--cwd", "--filter", "-F", "--registry", "--cache-dir", "-c", "--config", "--backend", "--tag", "--access", "--otp", "--env-file", "--preload",
            "-r",
        ],
        _ => words![
            "--registry", "--tag", "--access", "--otp", "--loglevel", "--userconfig", "--globalconfig", "--cache", "--scope", "--omit", "--include",
            "--before", "--reporter", "--node-options", "--script-shell", "--auth-type", "--install-strategy", "--prefix", "--depth", "-w", "--workspace",
        ],
    }
}

fn canonical(pm: &str, sub: &str) -> &'static str {
    match sub {
        "install" | "i" | "in" | "ins" | "inst" | "insta" | "instal" | "isnt" | "isnta" | "isntal" | "isntall" => "install",
        "add" | "a" if pm != "npm" || sub == "add" => "install",
        "ci" | "clean-install" | "ic" | "install-clean" | "isntall-clean" => "ci",
        "it" | "install-test" | "cit" | "install-ci-test" | "clean-install-test" | "sit" => "install-test",
        "uninstall" | "un" | "unlink" | "remove" | "rm" | "r" => "uninstall",
        "update" | "up" | "upgrade" | "udpate" => "update",
        "run" | "run-script" | "rum" | "urn" => "run",
        "test" | "tst" | "t" => "test",
        // bun's `x` is bunx (fetch and run a package), not `bun exec` (a shell string).
        "x" if pm == "bun" => "",
        "exec" | "x" => "exec",
        "ls" | "list" | "la" | "ll" => "ls",
        "view" | "info" | "show" | "v" => "view",
        "config" | "c" => "config",
        "login" | "adduser" | "add-user" => "login",
        _ => "",
    }
}

crate::table! {
    READS = [
        "ls", "list", "view", "info", "outdated", "why", "explain", "fund", "doctor", "ping", "search", "s", "se", "find", "whoami", "root", "prefix", "bin",
        "help", "help-search", "docs", "home", "bugs", "repo", "query", "sbom", "diff", "completion", "get", "stars", "licenses", "audit", "store", "dedupe-check",
        "version-check", "hash", "hash-string", "hash-print",
    ];
    probe "npm {}" => T0;
}
crate::table! {
    /// npm commands that honour `--dry-run` (npm's `dry-run` config); the rest ignore it,
    /// so `npm rebuild --dry-run` still runs install scripts and `npm dist-tag add … --dry-run` still tags.
    /// `ci` is not one: before npm 10.5.1 `npm ci --dry-run` still empties `node_modules` (npm/cli#7239).
    NPM_DRY_RUN = ["install", "uninstall", "update", "dedupe", "ddp", "prune", "link", "ln", "publish", "unpublish", "pack", "audit"];
    probe "npm {} fix --dry-run" => T2, "packages.dry-run";
}
crate::table! {
    INSTALLS = [
        "install", "ci", "install-test", "uninstall", "update", "dedupe", "ddp", "prune", "rebuild", "rb", "link", "ln", "import", "patch-commit", "setup",
        "self-update", "approve-builds", "upgrade-interactive", "plugin", "trust", "patch",
    ];
    probe "npm {}" => T3, "packages.install";
}
crate::table! {
    PUBLISHES = [
        "publish", "deprecate", "undeprecate", "dist-tag", "dist-tags", "owner", "author", "access", "team", "org", "star", "unstar", "hook", "version", "deploy",
    ];
    probe "pnpm {} x" => T3, "packages.publish";
}
crate::table! {
    ACCOUNTS = ["login", "logout", "token", "profile", "set", "edit", "explore"];
    probe "npm {}" => T3, "packages.account";
}
crate::table! {
    BUILDS = ["pack", "shrinkwrap", "init"];
    probe "npm {}" => T1, "packages.build";
}

pub(super) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    let pm = inv.program.as_str();
    let args = &inv.args;
    let pos = operand_words(args, value_opts(pm));
    let Some(&(sub_i, sub_raw)) = pos.first() else {
        if asks_help(args, HELP_READING.help(HELP_READING.help.with(Help::VERSION).with(Help::DASH_V))) || pm != "yarn" {
            cx.hit(&HELP);
        } else {
            // Bare `yarn` installs.
            cx.hit(&INSTALL);
        }
        return;
    };
    let rest = &args[sub_i + 1..];
    if asks_help(&args[..sub_i], HELP_READING) || (sub_raw != "run" && sub_raw != "exec" && asks_help(rest, LONG_HELP_READING)) {
        cx.hit(&HELP);
        return;
    }
    let c = canonical(pm, sub_raw);
    let sub = if c.is_empty() { sub_raw } else { c };
    let dry = has_flag(args, words!["--dry-run"])
        && if pm == "npm" { NPM_DRY_RUN.contains(sub) } else { matches!(sub, "publish" | "install" | "update" | "uninstall" | "pack") };
    let operands: Vec<&str> = pos.iter().skip(1).map(|(_, w)| *w).collect();
    match sub {
        "run" => run(inv, cx, pm, operands.first().copied(), rest),
        "test" | "start" | "stop" | "restart" if pm != "bun" || sub != "test" => script(inv, cx, pm, sub, rest),
        // `bun exec "cmd …"` runs a shell string.
        "exec" if pm == "bun" => {
            let script: Vec<&str> = rest.iter().map(|a| a.text.as_str()).collect();
            cx.shell(&script.join(" "), inv.cwd.as_deref());
        }
        "exec" => runners::node_exec(inv, cx, rest, pm != "npm"),
        "global" if pm == "yarn" => cx.hit(if matches!(operands.first(), Some(&("list" | "bin" | "dir"))) { &READ } else { &INSTALL }),
        "dlx" => runners::node_exec(inv, cx, rest, false),
        "create" => runners::create(cx, operands.first().copied()),
        "init" if !operands.is_empty() && pm != "bun" => runners::create(cx, operands.first().copied()),
        "x" if pm == "bun" => runners::node_exec(inv, cx, rest, false),
        "test" if pm == "bun" => cx.hit(&VALIDATE),
        "build" if pm == "bun" => cx.hit(&BUILD),
        "store" if operands.first() == Some(&"prune") => cx.hit(&INSTALL),
        "unpublish" => unpublish(cx, &operands, args, dry),
        "audit" if operands.first() == Some(&"fix") || has_flag(rest, words!["--fix"]) => cx.hit(if dry { &DRY_RUN } else { &INSTALL }),
        "cache" => cache(cx, pm, operands.first().copied()),
        "config" => config(cx, operands.first().copied()),
        "pkg" => cx.hit(if operands.first() == Some(&"get") { &READ } else { &BUILD }),
        "pm" if pm == "bun" => bun_pm(cx, operands.first().copied()),
        "npm" if pm == "yarn" => yarn_npm(cx, operands.first().copied()),
        // `yarn workspaces info` (yarn 1) and `yarn workspaces list` (yarn 2+) print the workspace tree.
        "workspaces" if pm == "yarn" && matches!(operands.first(), Some(&("info" | "list"))) => cx.hit(&READ),
        "workspace" | "workspaces" if pm == "yarn" && operands.first().is_some_and(|w| *w != "info" && *w != "list") => scripts::run(
            inv,
            cx,
            &[sub],
            &Lookup { dir: None, extra: &[], if_present: false, fan_out: Some("in other workspace packages"), hooks: true, default_start: false },
        ),
        "version" if operands.is_empty() => cx.hit(&READ),
        s if READS.contains(s) => cx.hit(&READ),
        s if INSTALLS.contains(s) => cx.hit(if dry { &DRY_RUN } else { &INSTALL }),
        // `deploy` is a pnpm command; for yarn and bun it is a script name.
        s if PUBLISHES.contains(s) && (s != "deploy" || pm == "pnpm") => {
            publish_like(cx, s, &operands, dry);
            if s == "publish" {
                lifecycle(inv, cx, pm, &PUBLISH_SCRIPTS, operands.first().copied());
            }
        }
        s if ACCOUNTS.contains(s) => cx.hit(&ACCOUNT),
        s if BUILDS.contains(s) => {
            cx.hit(if dry { &DRY_RUN } else { &BUILD });
            if s == "pack" {
                lifecycle(inv, cx, pm, &PUBLISH_SCRIPTS[1..4], operands.first().copied());
            }
        }
        s if pm == "npm" => cx.hit_because(&UNKNOWN, format!("`npm {s}` is not an npm command tiergate models; ask the user")),
        // pnpm, yarn and bun run an unknown word as a script (bun: or as a file).
        s if pm == "bun" && looks_like_file(s) => runners::bun_file(inv, cx, &args[sub_i..]),
        s => script(inv, cx, pm, s, rest),
    }
}

fn looks_like_file(s: &str) -> bool {
    s.contains('/') || [".js", ".ts", ".mjs", ".cjs", ".tsx", ".jsx", ".mts", ".cts"].iter().any(|e| s.ends_with(e))
}

fn run(inv: &Invocation, cx: &mut Cx<'_>, pm: &str, name: Option<&str>, rest: &[Arg]) {
    let Some(name) = name else {
        cx.hit(&LIST);
        return;
    };
    if pm == "bun" && looks_like_file(name) {
        let start = rest.iter().position(|a| a.text == name).unwrap_or(0);
        runners::bun_file(inv, cx, &rest[start..]);
        return;
    }
    let after = rest.iter().position(|a| a.text == name).map_or(rest, |i| &rest[i + 1..]);
    script(inv, cx, pm, name, after)
}

/// Runs script `name`; `rest` are the words after it (`-- --watch` are passed on).
fn script(inv: &Invocation, cx: &mut Cx<'_>, pm: &str, name: &str, rest: &[Arg]) {
    let args = &inv.args;
    let extra: &[Arg] = match crate::call::dashdash(rest, ArgSpec::values(words![])) {
        Some(i) => &rest[i + 1..],
        // yarn, pnpm and bun pass words after the script name straight through.
        None if pm != "npm" => rest,
        None => &[],
    };
    let (dir, fan_out) = package_dir(args, pm);
    // `npm restart` with no `restart` script runs stop and start in npm; tiergate reads only the
    // named script, so without one it asks (scripts.rs UNRESOLVED).
    let how = Lookup { dir, extra, if_present: has_flag(args, words!["--if-present"]), fan_out, hooks: true, default_start: pm == "npm" };
    scripts::run(inv, cx, &[name], &how);
}

/// The package directory a command names (`--prefix`, `-C`, `--dir`, `--cwd`, npm's `-w`), and
/// why it cannot be followed when it fans out over workspace packages.
fn package_dir<'a>(args: &'a [Arg], pm: &str) -> (Option<&'a str>, Option<&'static str>) {
    let dir =
        value_of(args, words!["--prefix", "-C", "--dir", "--cwd"]).or_else(|| if pm == "npm" { value_of(args, words!["-w", "--workspace"]) } else { None });
    let fan_out = if has_flag(args, words!["--workspaces", "-ws", "-r", "--recursive"]) {
        Some("in every workspace package")
    } else if pm != "npm" && has_flag(args, words!["--filter", "-F"]) || pm == "pnpm" && value_of(args, words!["-F"]).is_some() {
        Some("in filtered workspace packages")
    } else {
        None
    };
    (dir, fan_out)
}

/// The lifecycle scripts `publish` runs from the package's `package.json`, `--dry-run` or not
/// (npm/cli#4398); `pack` runs the middle three (`prepack`, `prepare`, `postpack`).
const PUBLISH_SCRIPTS: [&str; 6] = ["prepublishOnly", "prepack", "prepare", "postpack", "publish", "postpublish"];

/// Classifies the lifecycle scripts `names` that `pack`/`publish` run from the package in `folder`
/// (the current one when none is named). A tarball runs none, and neither does `--ignore-scripts`.
/// A package.json tiergate cannot read leaves the verdict to the subcommand: its scripts are unseen.
fn lifecycle(inv: &Invocation, cx: &mut Cx<'_>, pm: &str, names: &[&str], folder: Option<&str>) {
    let args = &inv.args;
    if has_flag(args, words!["--ignore-scripts"]) || folder.is_some_and(|f| [".tgz", ".tar.gz", ".tar"].iter().any(|e| f.ends_with(e))) {
        return;
    }
    let (dir, fan_out) = package_dir(args, pm);
    let dir = folder.or(dir);
    let home = cx.home();
    let at = match dir {
        Some(d) => crate::lanes::resolve(d, inv.cwd.as_deref(), home.as_deref()),
        None => inv.cwd.clone(),
    };
    if fan_out.is_none() && !matches!(cx.read("package.json", at.as_deref()), FileText::Text(_)) {
        return;
    }
    scripts::run(inv, cx, names, &Lookup { dir, extra: &[], if_present: true, fan_out, hooks: false, default_start: false });
}

fn unpublish(cx: &mut Cx<'_>, operands: &[&str], args: &[Arg], dry: bool) {
    if dry {
        cx.hit(&DRY_RUN);
        return;
    }
    // `name@1.2.3` or `@scope/name@1.2.3` names one version; anything else the whole package.
    let versioned = operands.first().is_some_and(|spec| spec.trim_start_matches('@').contains('@'));
    if versioned {
        cx.hit(&PUBLISH);
    } else if operands.is_empty() && !has_flag(args, words!["--force", "-f"]) {
        // npm refuses to unpublish a whole project without --force; nothing happens.
        cx.hit_because(&PUBLISH, "npm unpublish without a package spec or --force refuses to run; name one version (`pkg@1.0.0`)".to_owned());
    } else {
        cx.hit(&UNPUBLISH_ALL);
    }
}

fn publish_like(cx: &mut Cx<'_>, sub: &str, operands: &[&str], dry: bool) {
    let reads = matches!(
        (sub, operands.first()),
        ("dist-tag" | "dist-tags" | "owner" | "team" | "org" | "access", Some(&("ls" | "list" | "get")))
            | ("access" | "dist-tag" | "dist-tags" | "owner", None)
    );
    cx.hit(if reads {
        &READ
    } else if dry {
        &DRY_RUN
    } else {
        &PUBLISH
    });
}

fn cache(cx: &mut Cx<'_>, pm: &str, action: Option<&str>) {
    let reads = matches!(action, None | Some("ls" | "list" | "verify" | "dir" | "path" | "info")) && pm != "pnpm";
    cx.hit(if reads { &READ } else { &INSTALL });
}

fn config(cx: &mut Cx<'_>, action: Option<&str>) {
    let reads = matches!(action, None | Some("get" | "list" | "ls" | "current"));
    cx.hit(if reads { &READ } else { &ACCOUNT });
}

fn bun_pm(cx: &mut Cx<'_>, action: Option<&str>) {
    let reads = matches!(action, None | Some("ls" | "bin" | "hash" | "hash-string" | "hash-print" | "cache" | "whoami" | "version" | "view" | "pkg"));
    cx.hit(if reads { &READ } else { &INSTALL });
}

fn yarn_npm(cx: &mut Cx<'_>, action: Option<&str>) {
    match action {
        Some("publish" | "tag") => cx.hit(&PUBLISH),
        Some("login" | "logout") => cx.hit(&ACCOUNT),
        _ => cx.hit(&READ),
    }
}

crate::tables![READS, NPM_DRY_RUN, INSTALLS, PUBLISHES, ACCOUNTS, BUILDS];
