//! Credential wrappers that run a command with cloud credentials or secrets injected:
//! `aws-vault exec PROFILE -- CMD`, `saml2aws exec -- CMD`, `doppler run -- CMD`,
//! `infisical run -- CMD`, `op run -- CMD`, `chamber exec SVC -- CMD`. The wrapped
//! command is classified as if run directly (so `aws-vault exec prod -- aws s3 rb …`
//! stays blocked); the wrappers' own subcommands read or change secrets.
//!
//! Secret reads that print a value (`op read`, `doppler secrets get`) are T0, as `gh auth token`:
//! moving secrets off the machine is the `flow` family's concern. This module does not
//! model the wrappers' config files.

use crate::call::args::{ArgSpec, Args};
use crate::call::cli::{option_arg, split, Opts, HELP_WORDS};
use crate::call::{Arg, Invocation};
use crate::rules::vocab::writes;
use crate::rules::{Cx, Rule};
use crate::words;

/// ## What it matches
/// Secret and profile reads: `aws-vault list`, `op read|item get|item list|whoami`,
/// `doppler secrets [get]`, `chamber read|list`, `infisical secrets [get]`.
/// ## Why this tier
/// They read credentials the user already holds and change nothing.
pub static READ: Rule = Rule::t0("cloud.creds.read")
    .reason("reads secrets or profiles the user already holds; changes nothing")
    .matches(words![
        "aws-vault list", "op read op://vault/item/field", "op item list", "doppler secrets", "chamber list svc", "doppler", "op item create --help"
    ])
    .not_matches(words!["op item delete x", "aws-vault exec prod"]);

/// ## What it matches
/// Changes to stored secrets or sessions: `aws-vault add|remove|rotate|login`, `op item create|edit|delete`,
/// `op signin`, `doppler secrets set|delete`, `doppler setup|login`, `chamber write|delete`, and unknown subcommands.
/// ## Why this tier
/// Changes credentials or secret stores shared beyond this task.
pub static CHANGE: Rule = Rule::t3("cloud.creds.change")
    .reason("changes stored secrets, credentials or sessions; ask the user")
    .matches(words!["aws-vault rotate prod", "op item delete x", "doppler secrets set X=1", "chamber write svc key value", "aws-vault login prod"])
    .not_matches(words!["op item get x"]);

/// ## What it matches
/// A credential wrapper with no command to run (`aws-vault exec prod`, `doppler run`): it opens a
/// shell, or runs something tiergate cannot see.
/// ## Why this tier
/// A credentialed shell can do anything.
pub static SHELL: Rule = Rule::t3("cloud.creds.shell")
    .reason("opens a shell with cloud credentials or secrets loaded; run the specific command instead")
    .matches(words!["aws-vault exec prod", "doppler run", "op run --env-file .env"])
    .not_matches(words!["aws-vault exec prod -- aws sts get-caller-identity"]);

/// Options of the run/exec subcommands that take a value.
static OPTS: Opts = Opts {
    values: words![
        "-d", "--duration", "--region", "-t", "--mfa-token", "--prompt", "--backend", "-p", "--project", "-c", "--config", "--token", "--mount", "--fallback",
        "--env-file", "--env", "--path", "--profile", "-a", "--idp-account", "--exec-profile", "--role", "--domain", "--projectId", "--tags", "--watch-path",
        "-b", "--vault", "--account",
    ],
    bools: words![],
    greedy: false,
};

/// The words after `--`, or after the subcommand's options and its `skip` leading operands.
fn wrapped(inv: &Invocation, sub_at: usize, skip: usize) -> &[Arg] {
    let spec = ArgSpec::values(OPTS.values);
    if let Some(i) = crate::call::dashdash(&inv.args, spec) {
        return &inv.args[i + 1..];
    }
    match Args::parse(&inv.args, spec).starting_at(sub_at + 1).operands().nth(skip) {
        Some(o) => &inv.args[o.index..],
        None => &[],
    }
}

pub(crate) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    let argv = split(&inv.args, &OPTS, HELP_WORDS);
    let Some(sub) = argv.pos.first().copied() else {
        return cx.hit(&READ);
    };
    let sub_at = inv.args.iter().position(|a| a.text == sub).unwrap_or(0);
    let runner = matches!((inv.program.as_str(), sub), ("aws-vault" | "saml2aws" | "chamber", "exec") | ("doppler" | "infisical" | "op", "run"));
    if runner {
        // `doppler run --command "…"` / `infisical run --command "…"` carry shell text.
        if let Some(cmd) = argv.value(&inv.args, words!["--command"]) {
            return cx.shell(cmd, inv.cwd.as_deref());
        }
        // aws-vault and chamber take a profile / service first.
        let skip = usize::from(matches!(inv.program.as_str(), "aws-vault" | "chamber"));
        let cmd = wrapped(inv, sub_at, skip);
        if cmd.is_empty() {
            return cx.hit(&SHELL);
        }
        return cx.argv(cmd, inv.cwd.as_deref());
    }
    if argv.help {
        return cx.hit(&READ);
    }
    let second = argv.pos.get(1).copied();
    let reads = match (inv.program.as_str(), sub) {
        ("aws-vault", "list" | "ls") => true,
        ("op", "read" | "whoami" | "inject") => true,
        ("op", "item" | "vault" | "document" | "account" | "user" | "group") => matches!(second, Some("get" | "list" | "ls")),
        ("doppler" | "infisical", "secrets") => matches!(second, None | Some("get" | "download")),
        ("doppler", "me" | "configure") => second.is_none() || second == Some("get"),
        ("chamber", "read" | "list" | "history" | "env" | "export" | "find") => true,
        (_, "version" | "help") => true,
        _ => false,
    };
    if reads {
        // `op inject -o FILE` writes the rendered template.
        if sub == "inject" {
            if let Some(out) = option_arg(&inv.args, words!["-o", "--out-file"]) {
                writes::check_write(cx, &out, inv.cwd.as_deref());
            }
        }
        cx.hit(&READ)
    } else {
        cx.hit_because(
            &CHANGE,
            format!("`{} {sub}` changes stored secrets, credentials or sessions (or is not a subcommand tiergate models); ask the user", inv.program),
        )
    }
}
