//! `pre-commit`: the framework that runs the hooks `.pre-commit-config.yaml`
//! names (docs/decisions/0015-pre-commit.md).
//!
//! Running hooks is T3: a hook is code from the repository the config points at,
//! cloned at a pinned revision into `~/.cache/pre-commit` and run there, which
//! tiergate does not read (the config names the repository, not the code).
//! Installing the git hook script, updating the pinned revisions and emptying the
//! cache are T3 too; checking the config is validation and printing a sample
//! config or the help is a read. `migrate-config` rewrites the config in place:
//! authoring when the config is in the tree.

use super::{CLEAN, HELP, HELP_READING, INSTALL, READ, UNKNOWN, VALIDATE};
use crate::call::args::ArgSpec;
use crate::call::args::{asks_help, Help};
use crate::call::{first_operand, option_arg, Invocation};
use crate::rules::vocab::writes;
use crate::rules::{Cx, Rule};
use crate::words;
use crate::words::Words;

/// Options of pre-commit's subcommands that take a value (their values are never the subcommand).
const VALUE_OPTS: Words = words![
    "-c", "--config", "--color", "--files", "--from-ref", "--source", "-s", "--to-ref", "--origin", "-o", "--hook-stage", "--remote-branch", "--local-branch",
    "--remote-name", "--remote-url", "--commit-msg-filename", "--prepare-commit-message-source", "--commit-object-name", "--checkout-type",
    "--is-squash-merge", "--rewrite-command", "-t", "--hook-type", "--repo", "--rev", "--ref", "-j", "--jobs",
];

/// ## What it matches
/// `pre-commit run`, `pre-commit` alone (which is `run`), `pre-commit try-repo`, `pre-commit hook-impl`: running the configured hooks.
/// ## Why this tier
/// A hook is code from the repository `.pre-commit-config.yaml` names, fetched at a pinned revision and run; tiergate reads neither (unseen code asks).
pub static HOOKS: Rule = Rule::t3("packages.pre-commit.hooks")
    .reason("runs the hooks .pre-commit-config.yaml names: code fetched from their repositories, which tiergate does not read; ask the user first")
    .matches(words!["pre-commit run", "pre-commit run --all-files", "pre-commit", "pre-commit try-repo ../hooks", "pre-commit -c x.yaml run"])
    .not_matches(words!["pre-commit validate-config", "pre-commit run --help", "pre-commit --version", "pre-commit sample-config"]);

pub(super) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    let args = &inv.args;
    if asks_help(args, HELP_READING) || (args.len() == 1 && Help::VERSION.with(Help::DASH_UPPER_V).holds(&args[0].text)) {
        cx.hit(&HELP);
        return;
    }
    let verb = first_operand(args, ArgSpec::values(VALUE_OPTS)).filter(|o| o.arg.exact).map(|o| o.arg.text.as_str());
    match verb {
        // pre-commit with no subcommand runs `run`.
        None | Some("run" | "try-repo" | "hook-impl") => cx.hit(&HOOKS),
        Some("validate-config" | "validate-manifest") => cx.hit(&VALIDATE),
        Some("sample-config" | "help") => cx.hit(&READ),
        // The hook script in `.git/hooks` runs on every commit; `install-hooks` fetches and installs every hook's environment;
        // `autoupdate` moves the pinned revisions to the repositories' latest tags, a dependency change.
        Some(v @ ("install" | "uninstall" | "install-hooks" | "init-templatedir" | "autoupdate")) => cx.hit_because(
            &INSTALL,
            format!("`pre-commit {v}` changes which hook code runs (the git hook script, the hook environments or their pinned revisions); ask the user first"),
        ),
        Some("clean" | "gc") => cx.hit_because(&CLEAN, "deletes pre-commit's cache of hook repositories (~/.cache/pre-commit); ask the user first".to_owned()),
        // Rewrites the config file in its new format: judged by where that file is.
        Some("migrate-config") => {
            cx.hit(&super::FORMAT);
            let config = option_arg(args, words!["-c", "--config"]).unwrap_or_else(|| crate::call::Arg::lit(".pre-commit-config.yaml"));
            writes::check_write(cx, &config, inv.cwd.as_deref());
        }
        Some(_) => cx.hit(&UNKNOWN),
    }
}
