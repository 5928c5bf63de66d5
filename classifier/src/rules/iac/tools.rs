//! The other infrastructure-as-code CLIs: pulumi, cdk/cdktf, ansible (ad-hoc,
//! playbooks, galaxy, vault), packer, serverless/sls, sam, and IaC scanners (vagrant is the containers family)
//! (checkov tfsec terrascan). Special cases first (ansible check modes,
//! ad-hoc modules), then the shared verb-scan lane with each CLI's words.
//!
//! terraform/tofu/terragrunt live in `terraform.rs`.

use crate::call::args::ArgSpec;
use crate::call::args::Help;
use crate::call::cli::{split, Opts, HELP_WORDS};
use crate::call::{first_operand, Invocation};
use crate::rules::vocab::lane::{run, Lane, Spec};
use crate::rules::vocab::verbs::{Kind, Table};
use crate::rules::{Cx, Rule};
use crate::words;

/// ## What it matches
/// Reads: `pulumi stack ls|output|history`, `pulumi whoami|about|logs`, `cdk ls|list|doctor`,
/// `ansible-playbook --list-tasks|--list-hosts`, `ansible -m ping|setup`, `packer inspect|fmt|init`,
/// `sam list|logs`, `ansible-vault view`.
/// ## Why this tier
/// Reads stacks or inventories, or writes only inside the working tree.
pub static READ: Rule = Rule::t0("iac.tool.read")
    .reason("reads stacks, inventories or templates only")
    .matches(words![
        "pulumi stack ls", "pulumi stack output", "cdk ls", "ansible-playbook site.yml --list-tasks", "ansible all -m ping", "packer inspect x.pkr.hcl",
        "ansible-inventory --list",
    ])
    .not_matches(words!["pulumi up", "ansible all -m shell -a 'rm -rf /tmp/cache'"]);

/// ## What it matches
/// Validation and scanners: `ansible-playbook --syntax-check`, `ansible-lint`, `packer validate`,
/// `sam validate`, `cdk doctor`, `checkov tfsec terrascan` (tflint is the packages family's), `sam build`, `serverless package`.
/// ## Why this tier
/// Local validation or a local build into the tree.
pub static VALIDATE: Rule = Rule::t1("iac.tool.validate")
    .reason("validates or builds locally; nothing is deployed")
    .matches(words![
        "ansible-playbook site.yml --syntax-check", "packer validate image.pkr.hcl", "checkov -d .", "tfsec .", "ansible-lint site.yml", "sam validate",
        "sam build",
    ])
    .not_matches(words!["packer build image.pkr.hcl"]);

/// ## What it matches
/// Previews: `pulumi preview`, `cdk diff|synth`, `cdktf diff|synth|plan`, `ansible-playbook --check`.
/// ## Why this tier
/// Shows what would change without changing it.
pub static SIMULATE: Rule = Rule::t2("iac.tool.simulate")
    .reason("previews a change without applying it")
    .matches(words!["pulumi preview --diff", "cdk diff", "cdk synth", "ansible-playbook site.yml --check", "ansible-playbook -C site.yml", "cdktf plan"])
    .not_matches(words!["cdk deploy --all"]);

/// ## What it matches
/// Deploys and other changes: `pulumi up|destroy|refresh|import|stack rm|stack select|config set`,
/// `cdk deploy|destroy|bootstrap`, `ansible-playbook` (a real run), ad-hoc `ansible` with a
/// changing module, `packer build`, `serverless deploy|remove`, `sam deploy|delete|sync`,
/// `ansible-galaxy install`.
/// ## Why this tier
/// Changes real infrastructure or hosts. `pulumi stack rm` is approvable like `terraform destroy`.
pub static MUTATE: Rule = Rule::t3("iac.tool.mutate")
    .reason("changes real infrastructure or hosts; ask the user, and preview first")
    .matches(words![
        "pulumi up --yes", "pulumi destroy --yes", "cdk deploy --all", "cdk destroy --force", "ansible-playbook -i prod site.yml",
        "ansible all -m shell -a 'rm -rf /tmp/cache'", "packer build image.pkr.hcl", "pulumi stack rm dev", "sls deploy", "sam deploy --guided",
        "cdk -i deploy --all", "pulumi -e destroy --yes", "pulumi --config-file status destroy --yes", "cdk -o list deploy",
    ])
    .not_matches(words!["pulumi preview", "pulumi stack ls", "pulumi -C deploy stack ls"]);

/// ## What it matches
/// A subcommand of these CLIs with no known verb.
/// ## Why this tier
/// These CLIs deploy by default; unknown is not safe.
pub static UNKNOWN: Rule = Rule::t3("iac.tool.unknown")
    .reason("a subcommand tiergate does not model, on a CLI that deploys infrastructure; ask the user")
    .matches(words!["pulumi frobnicate", "serverless frobnicate"])
    .not_matches(words!["pulumi version"]);

/// ## What it matches
/// `--help`/`-h`/`--version` on these CLIs.
/// ## Why this tier
/// FEATURES.md §6a: prints usage.
pub static HELP: Rule = Rule::t0("iac.tool.help")
    .reason("prints help only")
    .matches(words!["pulumi up --help", "cdk deploy -h", "ansible-playbook --version", "packer --version", "ansible --version"])
    .not_matches(words!["pulumi up"]);

static LANE: Lane = Lane { read: &READ, validate: &VALIDATE, simulate: &SIMULATE, mutate: &MUTATE, unknown: &UNKNOWN, help: &HELP };

crate::table! {
    /// Value options of these CLIs, so a value is never read as the command word (`pulumi -C deploy stack ls`).
    /// Not here: `-i` and `-e`. They are ansible's `--inventory`/`--extra-vars`, but before the command word
    /// they are flags of cdk (`-i`, `--ec2creds`) and pulumi (`-e`, `--emoji`): read as value options they hid
    /// the verb (`cdk -i deploy`, `pulumi -e destroy --yes` were T0). Ansible's own checks look for
    /// `--check`/`--list-*`, which ansible never takes as an `-i`/`-e` value.
    VALUES = [
        "-s", "--stack", "-C", "--cwd", "--profile", "--region", "--app", "-a", "--context", "-c", "--config", "--target", "-t", "--stage", "--template-file",
        "--template", "--parameter-overrides", "--stack-name", "--provider", "--inventory", "--extra-vars", "-l", "--limit", "-u", "--user", "-m", "--module-name",
        "--tags", "--skip-tags", "-f", "--forks", "-var", "-var-file", "-only", "-except",
    ];
    probe "pulumi {} destroy whoami" => T0, "iac.tool.read";
}

static IAC_TOOLS: Spec = Spec {
    table: Table {
        read: words![
            "ls", "output", "history", "whoami", "about", "logs", "doctor", "docs", "notices", "metadata", "acknowledge", "inspect", "status", "global-status",
            "ssh-config", "version", "info", "print", "metrics", "get", "init", "fmt", "hcl2_upgrade", "console", "view", "encrypt_string", "context",
            "search", "port",
        ],
        validate: words!["validate", "package", "build", "doctor"],
        simulate: words!["preview", "diff", "synth", "synthesize", "plan"],
        mutate: words![
            "up", "rm", "select", "init-stack", "new", "cancel", "watch", "bootstrap", "destroy", "halt", "suspend", "reload", "provision", "ssh", "invoke",
            "offline", "local", "sync", "encrypt", "decrypt", "rekey", "create", "edit", "login", "logout", "deploy", "remove",
        ],
        skip: words!["stack", "config", "state", "plugin"],
    },
    opts: Opts { values: VALUES, bools: words![], greedy: false },
    dry_run: false,
    help: HELP_WORDS,
    bare: Kind::Read,
    noun_verb: false,
};

/// `pulumi config` (bare) lists; `config get` reads; `config set|rm|cp|refresh` writes.
fn pulumi(inv: &Invocation, cx: &mut Cx<'_>) -> bool {
    let argv = split(&inv.args, &IAC_TOOLS.opts, HELP_WORDS);
    if argv.help {
        return false;
    }
    match (argv.pos.first().copied(), argv.pos.get(1).copied()) {
        (Some("config"), None | Some("get"))
        | (Some("stack"), None | Some("ls" | "output" | "history" | "export" | "graph" | "tag"))
        | (Some("plugin"), Some("ls")) => {
            cx.hit(&READ);
            true
        }
        (Some("stack" | "config" | "state" | "plugin"), Some(sub)) => {
            cx.hit_because(&MUTATE, format!("`pulumi {} {sub}` changes stacks, their config or state; ask the user", argv.pos[0]));
            true
        }
        _ => false,
    }
}

fn ansible_playbook(inv: &Invocation, cx: &mut Cx<'_>) {
    let argv = split(&inv.args, &IAC_TOOLS.opts, HELP_WORDS.with(Help::VERSION));
    if argv.help {
        cx.hit(&HELP)
    } else if argv.has("--syntax-check") {
        cx.hit(&VALIDATE)
    } else if argv.has("--list-tasks") || argv.has("--list-hosts") || argv.has("--list-tags") {
        cx.hit(&READ)
    } else if argv.has("--check") || argv.flags.contains(&"-C") {
        cx.hit(&SIMULATE)
    } else {
        cx.hit_because(&MUTATE, "ansible-playbook runs the playbook against its hosts; ask the user, or run it with --check first".to_owned())
    }
}

/// Ad-hoc `ansible HOSTS -m MODULE`: the default module is `command`, which runs anything.
fn ansible(inv: &Invocation, cx: &mut Cx<'_>) {
    let argv = split(&inv.args, &IAC_TOOLS.opts, HELP_WORDS.with(Help::VERSION));
    let module = argv.value(&inv.args, words!["-m", "--module-name"]).unwrap_or("command");
    let module = module.rsplit('.').next().unwrap_or(module);
    if argv.help {
        cx.hit(&HELP)
    } else if argv.has("--list-hosts") || matches!(module, "ping" | "setup" | "gather_facts" | "debug" | "stat" | "slurp" | "service_facts" | "package_facts") {
        cx.hit(&READ)
    } else if argv.has("--check") || argv.flags.contains(&"-C") {
        cx.hit(&SIMULATE)
    } else {
        cx.hit_because(&MUTATE, format!("ad-hoc ansible module `{module}` runs on the target hosts; ask the user"))
    }
}

pub(crate) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    match inv.program.as_str() {
        "checkov" | "tfsec" | "terrascan" | "ansible-lint" => {
            let argv = split(&inv.args, &Opts { values: words![], bools: words![], greedy: false }, HELP_WORDS);
            cx.hit(if argv.help { &HELP } else { &VALIDATE })
        }
        "ansible-inventory" | "ansible-doc" | "ansible-config" => cx.hit(&READ),
        "ansible-playbook" => ansible_playbook(inv, cx),
        "ansible" => ansible(inv, cx),
        "pulumi" if pulumi(inv, cx) => {}
        // `packer build` creates machine images in a cloud account; not a local build.
        "packer"
            if first_operand(&inv.args, ArgSpec::values(words![])).is_some_and(|o| o.arg.text == "build")
                && !split(&inv.args, &IAC_TOOLS.opts, HELP_WORDS).help =>
        {
            cx.hit_because(&MUTATE, "packer build launches builders and publishes machine images; ask the user, or run packer validate first".to_owned())
        }
        _ => {
            run(inv, cx, &IAC_TOOLS, &LANE);
        }
    }
}

crate::tables![VALUES];
