//! `cargo` (with well-known plugins), `rustup` and `go`.
//!
//! Builds, checks, tests and formatting are T1; queries T0; `cargo run`/`go run` T1
//! (`packages.run-project`); installs, dependency updates and publishing T3;
//! `--dry-run` honoured by `cargo publish|update|add|remove|clean`. An unknown
//! cargo subcommand is an external plugin (`cargo-X` on PATH) and so T3.

use super::runners;
use super::HELP_READING;
use super::{ACCOUNT, BUILD, CLEAN, DRY_RUN, FORMAT, HELP, INSTALL, PUBLISH, READ, RECIPE, RUN_PROJECT, UNKNOWN, VALIDATE};
use crate::call::args::{asks_help, ArgSpec, Help};
use crate::call::Invocation;
use crate::call::{has_flag, has_short, operand_words};
use crate::rules::{Cx, Rule};
use crate::words;
use crate::words::Words;

crate::table! {
    CARGO_VALUE_OPTS = [
        "-C", "--config", "-Z", "--color", "--manifest-path", "-p", "--package", "--target", "--target-dir", "-j", "--jobs", "--features", "-F", "--bin",
        "--example", "--test", "--bench", "--profile", "--message-format", "--exclude", "--registry", "--index", "--token", "--lockfile-path",
    ];
    probe "cargo {} publish build" => T1, "packages.build";
}

pub(super) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    match inv.program.as_str() {
        "cargo" => cargo(inv, cx),
        "rustup" => rustup(inv, cx),
        _ => go(inv, cx),
    }
}

fn cargo(inv: &Invocation, cx: &mut Cx<'_>) {
    let args = &inv.args;
    let pos: Vec<(usize, &str)> = operand_words(args, CARGO_VALUE_OPTS).into_iter().filter(|(_, w)| !w.starts_with('+')).collect();
    let Some(&(_, sub)) = pos.first() else {
        cx.hit(&HELP);
        return;
    };
    // Words after `--` belong to the program or test binary, not to cargo.
    let own = &args[..crate::call::dashdash(args, ArgSpec::values(CARGO_VALUE_OPTS)).unwrap_or(args.len())];
    if asks_help(own, HELP_READING) {
        cx.hit(&HELP);
        return;
    }
    let next = pos.get(1).map(|(_, w)| *w);
    let dry = has_flag(own, words!["--dry-run", "-n"]);
    let rule: &'static Rule = match sub {
        "build" | "b" | "rustc" | "rustdoc" | "doc" | "d" | "new" | "init" | "vendor" | "package" => &BUILD,
        "check" | "c" | "test" | "t" | "bench" | "clippy" | "miri" | "nextest" | "llvm-cov" | "tarpaulin" | "deny" | "udeps" | "machete" | "hack"
        | "semver-checks" | "msrv" | "fuzz" | "criterion" | "watch" | "insta" | "mutants" | "careful" => &VALIDATE,
        "fmt" if has_flag(own, words!["--check"]) => &VALIDATE,
        "fmt" | "fix" | "sort" => &FORMAT,
        "run" | "r" | "xtask" => &RUN_PROJECT,
        "tree" | "metadata" | "search" | "locate-project" | "pkgid" | "verify-project" | "version" | "help" | "report" | "read-manifest" | "info" | "fetch"
        | "expand" | "bloat" | "asm" | "about" | "license" | "outdated" | "geiger" | "--list" => &READ,
        "audit" if next != Some("fix") => &READ,
        "add" | "remove" | "rm" | "update" | "upgrade" | "generate-lockfile" | "audit" | "binstall" => {
            if dry {
                &DRY_RUN
            } else {
                &INSTALL
            }
        }
        "install" | "uninstall" => &INSTALL,
        // `cargo owner [--list] CRATE` lists the owners; `--add`/`--remove` (also
        // attached or in a cluster: `-auser`, `-la user`) change them.
        "owner" if !(has_flag(own, words!["-a", "--add", "-r", "--remove"]) || has_short(own, 'a') || has_short(own, 'r')) => &READ,
        "publish" | "yank" | "owner" | "release" | "workspaces" | "ws" => {
            if dry && sub == "publish" {
                &DRY_RUN
            } else {
                &PUBLISH
            }
        }
        "login" | "logout" => &ACCOUNT,
        "clean" => {
            if dry {
                &DRY_RUN
            } else {
                &CLEAN
            }
        }
        "make" | "script" | "make-release" => &RECIPE,
        _ => {
            cx.hit_because(&UNKNOWN, format!("`cargo {sub}` runs the external plugin `cargo-{sub}`, which tiergate does not model; ask the user"));
            return;
        }
    };
    cx.hit(rule);
}

fn rustup(inv: &Invocation, cx: &mut Cx<'_>) {
    let args = &inv.args;
    if asks_help(args, HELP_READING) || args.iter().any(|a| Help::VERSION.with(Help::DASH_UPPER_V).holds(&a.text)) {
        cx.hit(&HELP);
        return;
    }
    let pos = operand_words(args, words!["--toolchain", "--profile", "--target", "-c", "--component"]);
    let w: Vec<&str> = pos.iter().map(|(_, w)| *w).collect();
    match w.as_slice() {
        // `rustup run TOOLCHAIN CMD…`: the command is what runs.
        ["run", _toolchain, ..] => runners::local(inv, cx, &args[pos[1].0 + 1..]),
        [] | ["show" | "which" | "check" | "doc" | "man" | "completions" | "help", ..] | ["default"] => cx.hit(&READ),
        ["toolchain" | "target" | "component" | "override", "list", ..] => cx.hit(&READ),
        _ => cx.hit(&INSTALL),
    }
}

fn go(inv: &Invocation, cx: &mut Cx<'_>) {
    let args = &inv.args;
    let pos = operand_words(
        args,
        words![
            "-o", "-C", "-p", "-tags", "-ldflags", "-gcflags", "-run", "-bench", "-count", "-timeout", "-mod", "-modfile", "-pkgdir", "-toolexec", "-exec",
            "-coverprofile", "-covermode", "-cpu", "-parallel", "-json",
        ],
    );
    let w: Vec<&str> = pos.iter().map(|(_, w)| *w).collect();
    if w.is_empty() || asks_help(args, HELP_READING) {
        cx.hit(&HELP);
        return;
    }
    let flags = |names: Words| has_flag(args, names);
    let rule: &'static Rule = match w.as_slice() {
        ["build", ..] => &BUILD,
        ["test" | "vet", ..] => &VALIDATE,
        ["fmt" | "fix", ..] => &FORMAT,
        ["run", ..] => &RUN_PROJECT,
        ["install" | "get", ..] => &INSTALL,
        ["generate", ..] => &RECIPE,
        ["env", ..] if flags(words!["-w", "-u"]) => &ACCOUNT,
        ["telemetry", _, ..] => &ACCOUNT,
        ["list" | "doc" | "env" | "version" | "help" | "bug" | "telemetry", ..] => &READ,
        ["mod", "download" | "verify" | "graph" | "why", ..] => &READ,
        ["mod", "init" | "edit" | "vendor", ..] | ["work", "init" | "use" | "edit" | "vendor", ..] => &BUILD,
        ["mod", ..] | ["work", ..] => &INSTALL,
        ["clean", ..] if flags(words!["-n"]) => &READ,
        ["clean", ..] => &CLEAN,
        ["tool", ..] => &VALIDATE,
        [other, ..] => {
            cx.hit_because(&UNKNOWN, format!("`go {other}` is not a go command tiergate models; ask the user"));
            return;
        }
        [] => &HELP,
    };
    cx.hit(rule);
}

crate::tables![CARGO_VALUE_OPTS];
