//! `az` (Azure CLI): `az GROUP [SUBGROUP…] COMMAND --opt value …`. The azure_critical
//! floor (resource groups, clusters, database servers, storage accounts, key vaults,
//! networks, DNS zones) is blocked; `show`/`list` read; `what-if` simulates; account
//! switching and role assignments are changes.
//!
//! It does not read ARM/Bicep templates.

use crate::call::cli::{option_arg, split, Opts, HELP_WORDS};
use crate::call::Invocation;
use crate::rules::vocab::verbs::{scan, Kind, Table};
use crate::rules::vocab::writes;
use crate::rules::{Cx, Rule};
use crate::words;

/// ## What it matches
/// `az … show|list|get-*|wait|exists|check-*`, `az account show|list`, `az version`, `az find`.
/// ## Why this tier
/// Reads Azure state only.
pub static READ: Rule = Rule::t0("cloud.azure.read")
    .reason("reads Azure state only")
    .matches(words![
        "az vm list -o table",
        "az group list",
        "az account show",
        "az storage account show -n acct",
        "az aks get-versions -l westeurope",
        "az version",
        "az tag list --resource-id /subscriptions/s",
        "az rest --url https://management.azure.com/subscriptions?api-version=2020-01-01",
        "az devops configure --list",
        "az sql failover-group list --server s -g rg",
        "az storage blob url --name b --container-name c --account-name a",
    ])
    .not_matches(words![
        "az vm start -g rg -n vm1",
        "az group delete --name rg --yes",
        "az devops configure --defaults organization=https://dev.azure.com/x --list",
        "az appservice plan delete -n p -g rg",
    ]);

/// ## What it matches
/// `az deployment … what-if` and `validate`, `az bicep build|lint`.
/// ## Why this tier
/// Previews or validates a deployment without applying it.
pub static SIMULATE: Rule = Rule::t2("cloud.azure.what-if")
    .reason("previews or validates a deployment without applying it")
    .matches(words![
        "az deployment group what-if -g rg --template-file main.bicep",
        "az deployment group validate -g rg --template-file t.json",
        "az bicep build --file main.bicep",
    ])
    .not_matches(words!["az deployment group create -g rg --template-file main.bicep"]);

/// ## What it matches
/// Changes: `create delete update set start stop restart deploy invoke add remove assign login …`,
/// `az account set` (switches subscription), `az aks get-credentials` (writes kubeconfig),
/// and any command whose verb tiergate does not know.
/// ## Why this tier
/// Changes Azure resources, access or the active subscription. Unknown verbs count as changes.
pub static MUTATE: Rule = Rule::t3("cloud.azure.mutate")
    .reason("changes Azure resources, access or the active subscription; ask the user")
    .matches(words![
        "az vm delete -g rg -n vm1 --yes",
        "az vm start -g rg -n vm1",
        "az webapp deploy -g rg -n app --src-path app.zip",
        "az role assignment create --assignee bob --role Owner",
        "az account set --subscription prod",
        "az aks get-credentials -g rg -n c",
        "az login",
        "az vm run-command invoke -g rg -n vm --command-id RunShellScript --scripts 'ls'",
        "az rest --method delete --url https://management.azure.com/x",
        "az appservice plan create --name p -g rg --sku B1",
        "az sql failover-group set-primary --name fg -g rg --server s",
    ])
    .not_matches(words!["az vm list", "az group delete -n rg"]);

/// ## What it matches
/// azure_critical: `group delete`, `aks delete`, `sql server|db|mi delete`, `cosmosdb delete`,
/// `cosmosdb sql database delete`, `storage account delete`, `keyvault delete|purge`,
/// `postgres|mysql [flexible-]server delete`, `network vnet delete`, `network dns zone delete`,
/// `redis delete`, `acr delete`, `backup vault delete`, `monitor log-analytics workspace delete`,
/// `account management-group delete`.
/// ## Why this tier
/// Deletes whole groups of resources or their data irreversibly; not approvable, `--help` included.
pub static CRITICAL: Rule = Rule::blocked("cloud.azure.critical")
    .reason("irreversibly deletes an Azure resource group, cluster, database, vault, storage account or network; never run by an agent: ask the user to do it in the portal")
    .matches(words!["az group delete --name prod-rg --yes", "az aks delete -g rg -n prod", "az sql db delete -g rg -s srv -n db", "az keyvault purge --name kv", "az storage account delete -n acct -g rg --help", "az --only-show-errors group delete -n rg"])
    .not_matches(words!["az vm delete -g rg -n vm1", "az group list", "az group show -n rg"])
    .suggest("az group show --name prod-rg");

/// ## What it matches
/// `--help`/`-h` on az outside the floor.
/// ## Why this tier
/// FEATURES.md §6a: prints usage.
pub static HELP: Rule = Rule::t0("cloud.azure.help")
    .reason("prints help only")
    .matches(words!["az vm delete --help", "az -h", "az", "az aks"])
    .not_matches(words!["az group delete -n rg --help"]);

/// az options nearly all take a value; these do not.
static OPTS: Opts = Opts {
    values: words!["-g", "-n", "-o", "-l", "-s", "-f"],
    bools: words![
        "--yes", "-y", "--no-wait", "--debug", "--verbose", "--only-show-errors", "--force", "--all", "--no-prompt", "--overwrite", "--use-device-code",
        "--identity", "--allow-no-subscriptions", "--enable-managed-identity", "--purge", "--force-deletion", "--no-password", "--admin",
        "--generate-ssh-keys", "--public", "--detailed",
    ],
    greedy: true,
};

const CRITICAL_PATHS: &[&[&str]] = &[
    &["group", "delete"],
    &["aks", "delete"],
    &["sql", "server", "delete"],
    &["sql", "db", "delete"],
    &["sql", "mi", "delete"],
    &["cosmosdb", "delete"],
    &["cosmosdb", "sql", "database", "delete"],
    &["cosmosdb", "mongodb", "database", "delete"],
    &["storage", "account", "delete"],
    &["keyvault", "delete"],
    &["keyvault", "purge"],
    &["postgres", "server", "delete"],
    &["postgres", "flexible-server", "delete"],
    &["mysql", "server", "delete"],
    &["mysql", "flexible-server", "delete"],
    &["network", "vnet", "delete"],
    &["network", "dns", "zone", "delete"],
    &["redis", "delete"],
    &["acr", "delete"],
    &["backup", "vault", "delete"],
    &["monitor", "log-analytics", "workspace", "delete"],
    &["account", "management-group", "delete"],
];

static TABLE: Table = Table {
    read: words![
        "show", "list", "exists", "wait", "version", "find", "get-versions", "list-skus", "list-sizes", "show-usage", "check-name", "list-keys",
        "get-access-token", "get-upgrades", "browse", "tail", "download", "export-template",
        // `storage blob url` composes a URL locally; `policy state summarize` counts states.
        "url", "summarize",
    ],
    validate: words!["validate", "lint"],
    simulate: words!["what-if"],
    mutate: words![
        "login", "logout", "get-credentials", "add", "ssh", "run-command", "assign", "generate", "regenerate", "renew", "swap", "up", "interactive", "upload",
        "deallocate", "redeploy", "reimage", "capture", "generalize", "reset", "scale", "rotate", "recover", "restore", "failover",
    ],
    skip: words![
        "account", "config", "role", "assignment", "deployment", "group", "vm", "webapp", "aks", "storage", "network", "keyvault", "sql", "monitor", "ad",
        "acr", "functionapp", "resource", "cosmosdb", "bicep", "sub", "tenant", "extension", "backup", "tag", "lock", "policy",
        // Groups named like reads: the verb after them decides (`containerapp env delete`, `webapp log config`).
        "env", "log",
        // Groups named like verbs: `appservice plan create` creates a plan (never a dry run),
        // `sql failover-group list` lists groups.
        "plan", "failover-group",
    ],
};

crate::table! {
    /// `configure`'s listing options (az's `--list-defaults`, azure-devops' `--list`/`-l`).
    LIST_FLAGS = ["--list", "-l", "--list-defaults"];
    probe "az devops configure {}" => T0, "cloud.azure.read";
}

pub(crate) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    let argv = split(&inv.args, &OPTS, HELP_WORDS);
    if let Some(path) =
        CRITICAL_PATHS.iter().find(|p| (argv.pos.len() >= p.len() && argv.pos.iter().zip(p.iter()).all(|(a, b)| a.eq_ignore_ascii_case(b))) || argv.has_seq(p))
    {
        return cx.hit_because(
            &CRITICAL,
            format!("`az {}` irreversibly deletes the resource and what it holds; never run by an agent: ask the user to do it in the portal", path.join(" ")),
        );
    }
    if argv.help || argv.pos.is_empty() {
        return cx.hit(&HELP);
    }
    let at = |i: usize| argv.pos.get(i).copied();
    // `az account set` switches the subscription every later command acts on.
    if at(0) == Some("account") && at(1) == Some("set") {
        return cx.hit_because(&MUTATE, "`az account set` switches the active subscription for every later command; ask the user".to_owned());
    }
    // `az rest` sends an arbitrary ARM request; GET (the default) reads.
    if at(0) == Some("rest") {
        let method = argv.value(&inv.args, words!["--method", "-m"]).unwrap_or("get").to_ascii_lowercase();
        return if method == "get" || method == "head" {
            cx.hit_because(&READ, "`az rest` GET request: reads only".to_owned())
        } else {
            cx.hit_because(&MUTATE, format!("`az rest --method {method}` writes through the ARM API; ask the user"))
        };
    }
    if at(0) == Some("bicep") && matches!(at(1), Some("build" | "lint" | "decompile" | "format")) {
        return cx.hit(&SIMULATE);
    }
    let found = scan(&argv.pos, &TABLE, 6);
    // `az devops configure --list`, `az configure --list-defaults`: the settings are
    // printed, nothing is set. Any other option or operand may set one.
    if matches!(found, Some((_, "configure")))
        && argv.pos.last() == Some(&"configure")
        && !argv.flags.is_empty()
        && argv.flags.iter().all(|f| LIST_FLAGS.contains(f))
    {
        return cx.hit_because(&READ, "`configure --list` prints the configured defaults".to_owned());
    }
    // `… download --file F` / `-f F` / `--dest D` writes a local file.
    if matches!(found, Some((_, "download" | "download-batch"))) {
        if let Some(dest) = option_arg(&inv.args, words!["-f", "--file", "--dest", "-d", "--destination"]) {
            writes::check_write(cx, &dest, inv.cwd.as_deref());
        }
    }
    match found {
        Some((Kind::Read, _)) => cx.hit(&READ),
        Some((Kind::Simulate | Kind::Validate, _)) => cx.hit(&SIMULATE),
        Some((Kind::Mutate, verb)) => cx.hit_because(&MUTATE, format!("`az … {verb}` changes Azure resources; ask the user")),
        // A command group alone (`az aks`, `az network`) prints the group's help.
        None if argv.pos.len() == 1 => cx.hit_because(&HELP, format!("`az {}` alone prints the group's help", argv.pos[0])),
        None => cx.hit_because(&MUTATE, format!("`az {}`: no verb tiergate knows; az reads are show/list, so ask the user", argv.pos.join(" "))),
    }
}

crate::tables![LIST_FLAGS];
