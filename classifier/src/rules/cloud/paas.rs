//! Platform and smaller cloud CLIs (doctl heroku fly flyctl vercel netlify firebase
//! wrangler hcloud linode-cli oci ibmcloud supabase railway render scw exoscale
//! vultr-cli) through the shared verb-scan lane, plus DigitalOcean's cluster and
//! database deletions on the floor (as their AWS/GCP/Azure counterparts).
//!
//! App deletions (`heroku apps:destroy`, `fly apps destroy`, `vercel remove`) are T3:
//! the floor is kept to clusters and databases.

use crate::call::cli::{split, Opts, HELP_WORDS};
use crate::call::Invocation;
use crate::rules::vocab::lane::{run, Lane, Spec};
use crate::rules::vocab::verbs::{Kind, Table};
use crate::rules::{Cx, Rule};
use crate::words;

/// ## What it matches
/// Reads: `status logs list ls info whoami ps`, `heroku config`, `doctl compute droplet list`.
/// ## Why this tier
/// Reads platform state only.
pub static READ: Rule = Rule::t0("cloud.paas.read")
    .reason("reads platform state only")
    .matches(words![
        "doctl compute droplet list", "linode-cli domains records-list 1", "doctl completion bash", "heroku apps", "heroku logs --tail -a app", "fly status",
        "vercel ls", "firebase projects:list", "wrangler whoami", "hcloud server list", "heroku ps -a app", "netlify",
    ])
    .not_matches(words!["heroku ps:scale web=0", "vercel --prod"]);

/// ## What it matches
/// `validate`/`check`/`build` on these CLIs (`netlify build`, `vercel build`, `supabase db lint`).
/// ## Why this tier
/// Local validation or a local build.
pub static VALIDATE: Rule = Rule::t1("cloud.paas.validate")
    .reason("validates or builds locally; nothing is deployed")
    .matches(words!["netlify build", "vercel build", "supabase db lint"])
    .not_matches(words!["vercel deploy"]);

/// ## What it matches
/// `diff`/`plan`/`preview` on these CLIs (`supabase db diff`), and a mutating verb with `--dry-run`
/// where honoured.
/// ## Why this tier
/// Previews without changing.
pub static SIMULATE: Rule = Rule::t2("cloud.paas.simulate")
    .reason("previews a change without applying it")
    .matches(words!["supabase db diff", "wrangler deploy --dry-run"])
    .not_matches(words!["supabase db push"]);

/// ## What it matches
/// Deploys and changes: `deploy destroy delete scale set up start stop restart login run ssh`,
/// `heroku ps:scale|config:set|apps:destroy`, bare `vercel` (it deploys), `vercel --prod`.
/// ## Why this tier
/// Changes live apps, data or credentials.
pub static MUTATE: Rule = Rule::t3("cloud.paas.mutate")
    .reason("changes a live app, its data or credentials; ask the user")
    .matches(words![
        "heroku ps:scale web=0", "vercel --prod", "vercel", "firebase deploy", "doctl compute droplet delete web-1", "fly deploy",
        "heroku apps:destroy -a app --confirm app", "heroku config:unset X", "supabase db push", "fly ssh console", "railway up", "doctl auth init",
        "firebase hosting:channel:deploy preview", "vercel env add X production", "vercel domains add example.com",
        "linode-cli domains records-create 1 --type A",
    ])
    .not_matches(words!["fly status", "doctl kubernetes cluster delete c"]);

/// ## What it matches
/// A subcommand of these CLIs with no known verb (`heroku run bash`, `wrangler dev`, `fly launch`).
/// ## Why this tier
/// These CLIs act on live platforms by default; unknown is not safe.
pub static UNKNOWN: Rule = Rule::t3("cloud.paas.unknown")
    .reason("a subcommand tiergate does not model, on a CLI that changes live platforms; ask the user")
    .matches(words!["heroku run bash -a app", "fly launch", "wrangler dev"])
    .not_matches(words!["fly logs"]);

/// ## What it matches
/// `doctl kubernetes cluster delete`, `doctl databases delete`.
/// ## Why this tier
/// As aws_critical/gcp_critical: deletes a cluster or a managed database irreversibly; not approvable.
pub static CRITICAL: Rule = Rule::blocked("cloud.paas.critical")
    .reason("irreversibly deletes a managed Kubernetes cluster or database; never run by an agent: ask the user to do it in the control panel")
    .matches(words!["doctl kubernetes cluster delete prod", "doctl databases delete 1234 --force", "doctl k8s cluster delete c --help"])
    .not_matches(words!["doctl kubernetes cluster list", "doctl compute droplet delete web-1"])
    .suggest("doctl kubernetes cluster get prod");

/// ## What it matches
/// `--help`/`-h`/`--version` on these CLIs outside the floor.
/// ## Why this tier
/// FEATURES.md §6a: prints usage.
pub static HELP: Rule = Rule::t0("cloud.paas.help")
    .reason("prints help only")
    .matches(words!["heroku apps:destroy --help", "fly deploy -h", "vercel --version"])
    .not_matches(words!["doctl databases delete 1 --help"]);

static LANE: Lane = Lane { read: &READ, validate: &VALIDATE, simulate: &SIMULATE, mutate: &MUTATE, unknown: &UNKNOWN, help: &HELP };

crate::table! {
    VALUES = [
        "-a", "--app", "-r", "--remote", "--context", "-c", "--config", "--project", "-p", "--region", "-o", "--output", "--scope", "--token", "-t", "--team",
        "--site", "--env", "-e", "--profile", "--format", "--compartment-id", "--zone",
    ];
    probe "fly {} deploy status" => T0, "cloud.paas.read";
}

const TABLE: Table = Table {
    read: words!["completion", "ps", "whoami", "open", "gen", "regions", "sizes", "balance", "billing-history", "dashboard", "inspect", "report", "pull"],
    validate: words!["build", "validate", "check", "lint"],
    simulate: words!["diff", "plan", "preview"],
    mutate: words![
        "add", "rm", "up", "down", "ssh", "login", "logout", "scale", "unset", "rollback", "promote", "destroy", "deploy", "alias", "link", "unlink", "init",
        "reset", "redeploy", "console", "exec", "import",
    ],
    // Command groups: the verb after them decides (`vercel env ls` reads, `vercel env add` changes).
    skip: words![
        "auth", "env", "domains", "releases", "images", "account", "apps", "compute", "droplet", "kubernetes", "k8s", "cluster", "databases", "db", "secrets",
        "kv", "d1", "r2", "server", "linodes", "os", "instance", "projects", "functions",
    ],
};

static SPEC: Spec =
    Spec { table: TABLE, opts: Opts { values: VALUES, bools: words![], greedy: false }, dry_run: true, help: HELP_WORDS, bare: Kind::Read, noun_verb: true };

/// `vercel` with no command deploys the current directory.
static DEPLOY_BARE: Spec =
    Spec { table: TABLE, opts: Opts { values: VALUES, bools: words![], greedy: false }, dry_run: false, help: HELP_WORDS, bare: Kind::Mutate, noun_verb: true };

const CRITICAL_PATHS: &[&[&str]] = &[&["kubernetes", "cluster", "delete"], &["k8s", "cluster", "delete"], &["databases", "delete"]];

pub(crate) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    if inv.program == "doctl" {
        let argv = split(&inv.args, &SPEC.opts, HELP_WORDS);
        if let Some(p) = CRITICAL_PATHS.iter().find(|p| argv.has_seq(p)) {
            return cx.hit_because(
                &CRITICAL,
                format!(
                    "`doctl {}` irreversibly deletes a managed cluster or database; never run by an agent: ask the user to do it in the control panel",
                    p.join(" ")
                ),
            );
        }
    }
    // `fly ssh console -C CMD`: the remote command is classified like an ssh payload.
    if matches!(inv.program.as_str(), "fly" | "flyctl") {
        let argv = split(&inv.args, &SPEC.opts, HELP_WORDS);
        if argv.pos.first() == Some(&"ssh") {
            if let Some(cmd) = argv.value(&inv.args, words!["-C", "--command"]) {
                cx.remote_line(cmd);
            }
        }
    }
    let spec = if inv.program == "vercel" { &DEPLOY_BARE } else { &SPEC };
    run(inv, cx, spec, &LANE);
}

crate::tables![VALUES];
