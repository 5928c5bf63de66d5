//! `terraform`, `tofu` and `terragrunt`: init anchors, validate/fmt, plan, reads,
//! state and workspace surgery, apply/destroy, and terragrunt's blocked
//! `run-all destroy` / `destroy-all` / `run --all destroy`.
//!
//! It does not read `.tf` files or plan files.

use crate::call::args::Help;
use crate::call::args::{ArgSpec, Args, Token};
use crate::call::cli::{asks, split, Argv, Opts, HELP_WORDS};
use crate::call::Invocation;
use crate::rules::{Cx, Rule};
use crate::words;

/// ## What it matches
/// `show output state list|show|pull providers graph version workspace list|show console get metadata`,
/// `init` without state-moving flags, `fmt` (rewrites `.tf` files in the tree), terragrunt `hclfmt render-json`,
/// and unknown terraform/tofu subcommands (terraform has no plugins: it prints usage and exits).
/// ## Why this tier
/// Reads state or writes only inside the working tree (`init` fills `.terraform/`; authoring is free).
pub static READ: Rule = Rule::t0("iac.terraform.read")
    .reason("reads state or configuration, or writes only inside the working tree")
    .matches(words![
        "terraform show", "terraform output -json", "terraform state list", "terraform init", "terraform init -backend=false -input=false", "terraform fmt",
        "tofu workspace list", "terragrunt init", "terraform -chdir=infra state show aws_instance.web", "terraform", "terraform foo bar",
    ])
    .not_matches(words!["terraform init -upgrade", "terraform apply"]);

/// ## What it matches
/// `terraform validate`, `fmt -check`, terragrunt `validate-inputs`.
/// ## Why this tier
/// Local validation.
pub static VALIDATE: Rule = Rule::t1("iac.terraform.validate")
    .reason("validates configuration locally")
    .matches(words!["terraform validate", "terraform fmt -check -recursive", "terragrunt validate", "tofu validate"])
    .not_matches(words!["terraform plan"]);

/// ## What it matches
/// `terraform plan` (also `-destroy`, `-out` into the tree: an `-out`, `-state-out` or `-backup` file elsewhere is a written path), `terragrunt run-all plan`, `terragrunt run plan` (one unit).
/// ## Why this tier
/// A simulation: it refreshes and diffs, and changes no infrastructure.
pub static PLAN: Rule = Rule::t2("iac.terraform.plan")
    .reason("plans a change without applying it")
    .matches(words![
        "terraform plan", "terraform plan -out=tfplan", "terraform plan -destroy", "tofu plan", "terragrunt run-all plan", "terragrunt run plan",
        "TF_LOG=debug terraform plan",
    ])
    .not_matches(words!["terraform apply", "terraform apply -f plan.tfplan", "terraform plan -out=/etc/tfplan"]);

/// ## What it matches
/// `init -upgrade|-migrate-state|-reconfigure|-force-copy` (FEATURES.md §4 anchors).
/// ## Why this tier
/// Moves state to another backend or changes pinned provider versions.
pub static INIT_ANCHOR: Rule = Rule::t3("iac.terraform.init-state")
    .reason("init with -upgrade/-migrate-state/-reconfigure changes provider pins or moves state; ask the user")
    .matches(words!["terraform init -upgrade", "terraform init -input=false -migrate-state", "terragrunt init -reconfigure"])
    .not_matches(words!["terraform init", "terraform init -upgrade --help"]);

/// ## What it matches
/// `apply destroy refresh import taint untaint force-unlock test login logout`, `apply -auto-approve`,
/// `terragrunt run-all apply`, and unknown terragrunt commands (terragrunt's own command set keeps growing).
/// ## Why this tier
/// Changes real infrastructure or its state. `destroy` is approvable (FEATURES.md §13 "Not blocked").
pub static APPLY: Rule = Rule::t3("iac.terraform.apply")
    .reason("changes real infrastructure or its state; ask the user, and run terraform plan first")
    .matches(words![
        "terraform apply", "terraform apply -auto-approve", "terraform destroy -target=aws_instance.web", "terraform import aws_instance.web i-123",
        "terraform force-unlock 1234", "terragrunt run-all apply", "terragrunt run -- apply", "tofu apply", "terraform apply --dry-run",
        "terragrunt apply -auto-approve", "terragrunt stack run apply", "terragrunt stack generate", "terraform $CMD", "terragrunt catalog",
    ])
    .not_matches(words!["terraform plan", "terragrunt run-all destroy"]);

/// ## What it matches
/// `state rm|mv|push|replace-provider|import` and `workspace new|delete|select`.
/// ## Why this tier
/// Edits state or switches which environment later commands act on (an always-dangerous flag such as
/// `--prune` on a read command counts too, FEATURES.md §2 step 27); `--help` does not lower the state
/// paths (FEATURES.md §6a excludes `CLI_MUTATIVE_PATH_PREFIXES`).
pub static STATE: Rule = Rule::t3("iac.terraform.state")
    .reason("edits terraform state or switches workspace; ask the user")
    .matches(words![
        "terraform state rm module.old", "terraform state mv a b", "terraform state push s.tfstate", "terraform workspace select prod",
        "terraform state replace-provider --help", "terraform state rm x --help", "terraform state $SUB x", "terraform state list --prune",
        "terragrunt state list --prune",
    ])
    .not_matches(words!["terraform state list", "terraform workspace show"]);

/// ## What it matches
/// `terragrunt run-all destroy`, `destroy-all`, `run --all destroy`, `stack run destroy`, `run-all apply -destroy`.
/// ## Why this tier
/// FEATURES.md §13 terragrunt_destroy_all: destroys every module under the tree; not approvable.
pub static DESTROY_ALL: Rule = Rule::blocked("iac.terragrunt.destroy-all")
    .reason("destroys every module under this directory; destroy one module at a time (terragrunt destroy in its directory) after the user agrees")
    .matches(words![
        "terragrunt run-all destroy", "terragrunt destroy-all", "terragrunt run-all destroy --terragrunt-non-interactive",
        "env TF_LOG=debug terragrunt run-all destroy", "terragrunt run --all destroy", "terragrunt run-all destroy --help",
        "terragrunt --terragrunt-working-dir live run-all destroy", "terragrunt run-all --terragrunt-exclude-dir x destroy", "terragrunt stack run destroy",
        "terragrunt --log-format json run-all destroy",
    ])
    .not_matches(words!["terragrunt destroy", "terragrunt run destroy", "terragrunt run-all plan"])
    .suggest("terragrunt run-all plan -destroy");

/// ## What it matches
/// `--help`/`-h`/`-help`/`help`/`-version` outside the state paths and the floor.
/// ## Why this tier
/// FEATURES.md §6a: prints usage.
pub static HELP: Rule = Rule::t0("iac.terraform.help")
    .reason("prints help only")
    .matches(words!["terraform apply --help", "terraform init -upgrade --help", "terragrunt init -upgrade --help", "terraform -help", "terraform -version"])
    .not_matches(words!["terraform state rm x --help"]);

const OPTS: Opts = Opts {
    values: words![
        "-target", "-var", "-var-file", "-out", "-state", "-state-out", "-backup", "-lock-timeout", "-parallelism", "-replace", "-backend-config", "-chdir",
        "--terragrunt-working-dir", "--terragrunt-config", "--terragrunt-source", "--terragrunt-iam-role", "--terragrunt-tfpath", "--terragrunt-log-level",
        "--working-dir", "--config", "--log-level", "--tf-path", "--source", "--iam-assume-role", "-from-module",
    ],
    // Boolean options (Go's `flag`: a bool never takes the next word), so a help word
    // after one is still help (`terraform init -upgrade --help`).
    bools: words![
        "-upgrade", "--upgrade", "-migrate-state", "--migrate-state", "-reconfigure", "--reconfigure", "-force-copy", "--force-copy", "-auto-approve",
        "-destroy", "-refresh-only", "-check", "-diff", "-recursive", "-json", "-no-color", "-compact-warnings", "-detailed-exitcode", "-raw", "-all",
    ],
    greedy: false,
};

crate::table! {
    /// Commands that read (or write only inside the tree). terraform/tofu print usage for an unknown
    /// command (also T0 `iac.terraform.read`), so the probe uses terragrunt, where unknown asks.
    READ_CMDS = [
        "show", "output", "providers", "graph", "version", "console", "get", "metadata", "fmt", "hclfmt", "render-json", "graph-dependencies",
        "output-module-groups", "terragrunt-info", "info", "find", "list", "render", "modules",
    ];
    probe "terragrunt {}" => T0, "iac.terraform.read";
}
crate::table! {
    /// terraform/tofu commands that change infrastructure or state. (Terragrunt's own
    /// commands, `run`, `exec`, `catalog`, `scaffold`, `apply-all` …, ask as unknown ones.)
    APPLY_CMDS = ["apply", "destroy", "refresh", "import", "taint", "untaint", "force-unlock", "test", "login", "logout"];
    probe "terraform {}" => T3, "iac.terraform.apply";
}

crate::table! {
    /// FEATURES.md §6b ALWAYS-dangerous flags.
    ALWAYS_DANGEROUS = ["--force", "-force", "--prune", "-prune", "--cascade", "--now", "--no-preserve-root", "--force-with-lease", "--grace-period=0"];
    probe "terraform show {}" => T3, "iac.terraform.state";
}

/// Flags that move state or pins during `init`.
fn init_moves_state(argv: &Argv<'_>) -> bool {
    ["-upgrade", "-migrate-state", "-reconfigure", "-force-copy"].iter().any(|f| argv.has(f) || argv.has(&format!("-{f}")))
}

/// `terraform -version`, `--version`, `-v`: the version, counted only without a command word.
const VERSION: Help = Help::SINGLE_DASH_VERSION.with(Help::VERSION).with(Help::DASH_V);

/// A help word of its own, or a version word with no command word (`terraform -v`, not `terraform plan -v`).
fn asks_help_or_version(inv: &Invocation, argv: &Argv<'_>) -> bool {
    argv.help || asks(&inv.args, &OPTS, VERSION.without_operands())
}

/// The words after a terragrunt multi-unit command at the start of `pos`: `run-all CMD`,
/// `run --all CMD` (`run --all -- CMD`), `stack run CMD` (every unit of the stack).
fn multi_unit<'p, 'a>(pos: &'p [&'a str], argv: &Argv<'a>) -> Option<&'p [&'a str]> {
    match pos.first().copied() {
        Some("run-all") => Some(&pos[1..]),
        Some("stack") if pos.get(1) == Some(&"run") => Some(&pos[2..]),
        Some("run") if argv.has("--all") => Some(&pos[1..]),
        _ => None,
    }
}

/// `pos` starts a destroy over every unit: the deprecated `destroy-all`, or a multi-unit
/// `destroy` (`apply -destroy`). Any `destroy` word counts, so an undeclared option value cannot hide it.
fn destroys_all(pos: &[&str], argv: &Argv<'_>) -> bool {
    if pos.first() == Some(&"destroy-all") {
        return true;
    }
    let Some(rest) = multi_unit(pos, argv) else { return false };
    let cmd = rest.first().copied().or_else(|| argv.rest.first().copied());
    rest.contains(&"destroy") || argv.rest.contains(&"destroy") || (cmd == Some("apply") && argv.has("-destroy"))
}

pub(crate) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    let argv = split(&inv.args, &OPTS, HELP_WORDS);
    let terragrunt = inv.program == "terragrunt";
    let mut pos: &[&str] = &argv.pos;
    if terragrunt {
        // An undeclared option's value can come before the command (`--log-format json run-all
        // destroy`), so the floor is asked at each of the first three words; the verdict below
        // still reads the first word (`terragrunt apply run-all` applies a plan file named run-all).
        if (0..pos.len().min(3)).any(|i| destroys_all(&pos[i..], &argv)) {
            return cx.hit(&DESTROY_ALL);
        }
        if let Some(rest) = multi_unit(pos, &argv) {
            pos = if rest.is_empty() { &argv.rest } else { rest };
        } else if pos.first() == Some(&"run") {
            // `terragrunt run plan`, `run -- destroy`: the command in this one unit.
            pos = if pos.len() > 1 { &pos[1..] } else { &argv.rest };
        }
    }
    let cmd = pos.first().copied();
    let sub = pos.get(1).copied();
    // State surgery is a command-path anchor: help does not lower it (as in the original).
    let state_write = match (cmd, sub) {
        (Some("state"), Some("rm" | "mv" | "push" | "replace-provider" | "import")) => true,
        (Some("workspace" | "env"), Some("new" | "delete" | "select")) => true,
        (Some("taint" | "untaint" | "import" | "force-unlock"), _) => argv.help,
        _ => false,
    };
    if state_write {
        return cx.hit(&STATE);
    }
    if asks_help_or_version(inv, &argv) || cmd == Some("help") {
        return cx.hit(&HELP);
    }
    // FEATURES.md §2 step 27: an always-dangerous flag on a read command escalates it
    // (`terraform state list --prune`): terraform has no such read flag, so something else is meant.
    if let Some(flag) = argv.flags.iter().find(|f| ALWAYS_DANGEROUS.iter().any(|d| **f == d || f.strip_prefix(d).is_some_and(|r| r.starts_with('=')))) {
        if matches!(cmd, None | Some("show" | "output" | "state" | "providers" | "graph" | "version" | "workspace" | "console" | "get" | "fmt")) {
            return cx.hit_because(&STATE, format!("`{flag}` is a destructive flag no terraform read command takes; ask the user what it is meant to do"));
        }
    }
    written_files(inv, cmd, sub, pos, cx);
    match cmd {
        None => cx.hit(&READ),
        Some("init") if init_moves_state(&argv) => cx.hit(&INIT_ANCHOR),
        Some("init") => cx.hit(&READ),
        Some("validate" | "validate-inputs" | "validate-all" | "hcl-validate") => cx.hit(&VALIDATE),
        Some("fmt" | "hclfmt") if argv.has("-check") || argv.has("--check") => cx.hit(&VALIDATE),
        Some("plan" | "plan-all") => cx.hit(&PLAN),
        Some("state") if matches!(sub, None | Some("list" | "show" | "pull")) => cx.hit(&READ),
        Some("workspace" | "env") if matches!(sub, None | Some("list" | "show")) => cx.hit(&READ),
        // Any other state/workspace subcommand (or one held in a variable) may write.
        Some(c @ ("state" | "workspace" | "env")) => {
            cx.hit_because(&STATE, format!("`{} {c} {}` may edit state or switch workspace; ask the user", inv.program, sub.unwrap_or("")))
        }
        Some(c) if READ_CMDS.contains(c) => cx.hit(&READ),
        Some(c) if APPLY_CMDS.contains(c) => {
            cx.hit_because(&APPLY, format!("`{} {c}` changes real infrastructure or its state; ask the user, and run plan first", inv.program))
        }
        // Terragrunt has its own growing command set (`stack run …`), so unknown asks there.
        Some(c) if terragrunt => cx.hit_because(&APPLY, format!("`terragrunt {c}` is not a command tiergate models; ask the user")),
        // A command word held in a variable could be anything.
        Some(c) if inv.args.iter().any(|a| a.text == c && !a.exact) => {
            cx.hit_because(&APPLY, format!("`{} {c}`: the command is only known at run time; ask the user", inv.program))
        }
        // terraform/tofu have no plugin subcommands: an unknown one prints usage and exits.
        Some(c) => cx.hit_because(&READ, format!("`{} {c}` is not a {} command; it prints usage and runs nothing", inv.program, inv.program)),
    }
}

/// Files terraform writes whatever the command's tier: `plan -out FILE`, `-state-out FILE`,
/// `-backup FILE`, and `providers mirror DIR`. Each is a written path (`writes::check_write`):
/// in the tree free, elsewhere it asks (`terraform plan -out /etc/x` was a free plan).
fn written_files(inv: &Invocation, cmd: Option<&str>, sub: Option<&str>, pos: &[&str], cx: &mut Cx<'_>) {
    let cwd = inv.cwd.as_deref();
    let spec = ArgSpec::values(words!["-out", "--out", "-state-out", "--state-out", "-backup", "--backup"]).single_dash_long();
    for t in Args::parse(&inv.args, spec) {
        if let Token::Opt { index, value: Some(v), .. } = t {
            crate::rules::vocab::writes::check_write(cx, &crate::call::value_arg(&inv.args, index, v), cwd);
        }
    }
    if (cmd, sub) == (Some("providers"), Some("mirror")) {
        if let Some(dir) = pos.get(2).and_then(|d| inv.args.iter().find(|a| a.text == *d)) {
            crate::rules::vocab::writes::check_write(cx, dir, cwd);
        }
    }
}

crate::tables![READ_CMDS, APPLY_CMDS, ALWAYS_DANGEROUS];
