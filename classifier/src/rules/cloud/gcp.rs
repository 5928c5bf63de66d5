//! Google Cloud: `gcloud` (release tracks peeled, gcp_critical floor, IAM-binding and
//! config anchors, verb scan over the command path), `gsutil` (transfer direction,
//! `rb` and `rm -r` blocked) and `bq` (queries read unless they change data).
//!
//! It does not read `--flags-file` or `--data-file` contents.

use crate::call::args::short_letters;
use crate::call::args::Help;
use crate::call::cli::{split, Opts, HELP_WORDS, HELP_WORDS_NO_DASH_H};
use crate::call::Invocation;
use crate::rules::vocab::verbs::{scan, Kind, Table};
use crate::rules::vocab::writes;
use crate::rules::{Cx, Rule};
use crate::words;

/// ## What it matches
/// gcloud reads (`list describe get-iam-policy get-value config list auth list logging read
/// secrets versions access info version`), `gsutil ls|cat|du|stat|hash|version`, downloads into the
/// tree, `bq ls|show|head` and SELECT queries.
/// ## Why this tier
/// Reads cloud state only.
pub static READ: Rule = Rule::t0("cloud.gcp.read")
    .reason("reads Google Cloud state only")
    .matches(words![
        "gcloud compute instances list",
        "gcloud alpha projects describe my-proj",
        "gcloud storage buckets get-iam-policy gs://b",
        "gcloud config list",
        "gcloud auth list",
        "gsutil ls gs://b",
        "gsutil -m ls gs://b",
        "gsutil cat gs://b/config.json",
        "bq ls",
        "gcloud secrets versions access latest --secret=x",
        "gcloud logging read 'severity>=ERROR' --limit=10",
        "gsutil cp gs://b/x.txt .",
        "bq query 'SELECT 1'",
        "gcloud alpha iam policies lint-condition --condition-from-file=cond.json",
        "gsutil iam get gs://reports",
    ])
    .not_matches(words!["gcloud compute instances delete vm", "gsutil cp local.txt gs://b/o.txt"]);

/// ## What it matches
/// `bq query --dry_run`, `gsutil rsync -n`.
/// ## Why this tier
/// The service validates and prices the request without running it.
pub static DRY_RUN: Rule = Rule::t2("cloud.gcp.dry-run")
    .reason("dry run: the request is checked without running")
    .matches(words!["bq query --dry_run 'SELECT 1'", "gsutil rsync -n -r ./dist gs://site"])
    .not_matches(words!["bq query 'SELECT 1'"]);

/// ## What it matches
/// gcloud commands that change resources (`create delete update deploy set add remove start stop ssh …`),
/// unknown gcloud verbs, `gsutil cp|rsync` into a bucket, `gsutil rm|mv|mb|acl ch|iam ch`,
/// and `bq rm|mk|load|cp|insert` or data-changing queries.
/// ## Why this tier
/// Changes cloud resources. Unknown gcloud verbs count as changes: its read verbs are a closed set.
pub static MUTATE: Rule = Rule::t3("cloud.gcp.mutate")
    .reason("changes Google Cloud resources; ask the user")
    .matches(words![
        "gcloud compute instances delete my-vm --zone=us-central1-a", "gcloud run deploy api --source .", "gcloud -q pubsub topics delete t",
        "gcloud auth login", "gcloud compute ssh vm-1 --command 'uptime'", "gsutil cp local.txt gs://b/o.txt", "gsutil rm gs://b/o.txt",
        "gsutil iam ch allUsers:objectViewer gs://b", "bq rm -t ds.table", "gcloud storage rm -r gs://bucket/data", "bq query 'DELETE FROM ds.t WHERE 1=1'",
    ])
    .not_matches(words!["gcloud compute instances list", "gcloud projects delete p"]);

/// ## What it matches
/// IAM grants and account-wide settings: `add-iam-policy-binding`, `remove-iam-policy-binding`,
/// `set-iam-policy`, `config set|unset`, `config configurations create|delete|activate`,
/// `billing projects link|unlink`, `identity groups memberships add|remove|modify-membership-roles`
/// (FEATURES.md §4 anchors; `--help` lowers them, as the truth table says).
/// ## Why this tier
/// Grants access or redirects every later command to another project or account.
pub static ANCHOR: Rule = Rule::t3("cloud.gcp.iam-or-config")
    .reason("changes who can access what, billing, or which project and account gcloud acts on; ask the user")
    .matches(words![
        "gcloud projects add-iam-policy-binding p --member=user:a@b.c --role=roles/owner",
        "gcloud alpha storage buckets remove-iam-policy-binding gs://b --member=allUsers --role=r",
        "gcloud config set project other",
        "gcloud config configurations activate other",
        "gcloud billing projects unlink sample",
        "gcloud identity groups memberships add --group-email=t@x --member-email=u@x",
        "gcloud -x my-project storage buckets add-iam-policy-binding gs://b --member=allUsers",
        "gcloud config unset project",
    ])
    .not_matches(words![
        "gcloud projects get-iam-policy p",
        "gcloud config get-value project",
        "gcloud -h projects add-iam-policy-binding p --member=user:a@b.c --role=roles/owner",
    ]);

/// ## What it matches
/// FEATURES.md §13 gcp_critical: `gcloud projects delete`, `container clusters delete`,
/// `sql instances delete`, `sql databases delete`, `services disable`, `storage buckets delete`
/// (as `gsutil rb`), `gsutil rb`, `gsutil rm -r`, and DROP TABLE / DROP SCHEMA / `bq rm -r` on a dataset;
/// analogues: `spanner|bigtable|redis|filestore instances delete`, `alloydb clusters delete`,
/// `spanner|firestore databases delete`, `kms keys versions destroy` (as aws `kms schedule-key-deletion`).
/// ## Why this tier
/// Deletes a project, cluster, database, bucket or dataset irreversibly; not approvable, `--help` included.
pub static CRITICAL: Rule = Rule::blocked("cloud.gcp.critical")
    .reason("irreversibly deletes a project, cluster, database, bucket or dataset; never run by an agent: ask the user to do it in the console")
    .matches(words![
        "gcloud projects delete my-project",
        "gcloud beta projects delete p",
        "gcloud --project dev container clusters delete c --region us-central1",
        "gcloud sql instances delete prod-db",
        "gcloud services disable compute.googleapis.com",
        "gsutil rb gs://b",
        "gsutil -m rm -r gs://b/**",
        "gsutil rm -r gs://prod-data",
        "gsutil -m rm gs://b/**",
        "bq rm -r -f -d ds",
        "gcloud projects delete p --help",
        "bq query 'DROP TABLE ds.users'",
    ])
    .not_matches(words!["gsutil rm gs://b/x", "gcloud projects describe p", "gcloud container node-pools delete pool --cluster c"])
    .suggest("gcloud projects describe my-project");

/// ## What it matches
/// `--help`/`-h`/`help` on gcloud, gsutil or bq outside the floor.
/// ## Why this tier
/// FEATURES.md §6a: prints usage.
pub static HELP: Rule = Rule::t0("cloud.gcp.help")
    .reason("prints help only")
    .matches(words![
        "gcloud --help compute instances delete my-vm", "gcloud -h run deploy s --image=i", "gcloud help compute", "gsutil help cp",
        "gcloud run deploy s --help", "gcloud", "bq",
    ])
    .not_matches(words!["gcloud projects delete p --help", "gcloud billing projects unlink sample"]);

static GCLOUD_OPTS: Opts = Opts {
    values: words![
        "--project", "--account", "--configuration", "--format", "--verbosity", "--impersonate-service-account", "--billing-project", "--flags-file",
        "--flatten", "--trace-token", "--access-token-file", "--region", "--zone", "--filter", "--limit", "--sort-by", "--page-size", "--member", "--role",
        "--cluster", "--instance", "--secret", "--image", "--source", "--command", "--runtime", "--location", "--keyring", "--key", "--data-file",
    ],
    bools: words![],
    greedy: false,
};

static GCLOUD_TABLE: Table = Table {
    read: words![
        "topic", "decrypt", "encrypt", "asymmetric-decrypt", "list", "describe", "get-iam-policy", "get-value", "get", "access", "read", "tail", "info",
        "version", "print-access-token", "print-identity-token", "print-settings", "lookup", "search", "list-grantable-roles", "ls", "cat", "du",
        "test-iam-permissions", "browse",
    ],
    validate: words!["validate"],
    simulate: words![],
    mutate: words![
        "ssh", "scp", "login", "revoke", "activate-service-account", "configure-docker", "submit", "deploy", "add", "reset", "resize", "get-credentials",
        "init", "install", "enable", "connect", "import", "export", "mv", "cp", "rm", "rsync", "undelete", "activate", "set-quota-project",
    ],
    // Command groups that look like verbs: `logging logs delete` deletes, `auth login` logs in.
    skip: words![
        "auth", "config", "run", "logging", "logs", "container", "compute", "projects", "storage", "iam", "sql", "services", "secrets", "versions",
        "functions", "app", "builds", "artifacts", "pubsub", "topics", "subscriptions", "instances", "clusters", "application-default",
    ],
};

crate::table! {
    /// gcloud release tracks, peeled before matching (FEATURES.md §2 step 5). Unpeeled, the track
    /// hides the `config` anchor (and `preview` reads as a simulation word).
    TRACKS = ["alpha", "beta", "preview"];
    probe "gcloud {} config set project x" => T3, "cloud.gcp.iam-or-config";
}

const GCLOUD_CRITICAL: &[&[&str]] = &[
    &["projects", "delete"],
    &["container", "clusters", "delete"],
    &["sql", "instances", "delete"],
    &["sql", "databases", "delete"],
    &["services", "disable"],
    &["storage", "buckets", "delete"],
    // Analogues of the original's database and cluster deletions, same category.
    &["spanner", "instances", "delete"],
    &["spanner", "databases", "delete"],
    &["bigtable", "instances", "delete"],
    &["alloydb", "clusters", "delete"],
    &["firestore", "databases", "delete"],
    &["redis", "instances", "delete"],
    &["filestore", "instances", "delete"],
    &["kms", "keys", "versions", "destroy"],
];

/// Billing and group-membership paths (the original's `CLI_MUTATIVE_PATH_PREFIXES`); `add` is
/// not a mutative verb, so they need anchors.
const MEMBERSHIP_ANCHORS: &[&[&str]] = &[
    &["billing", "projects", "link"],
    &["billing", "projects", "unlink"],
    &["identity", "groups", "memberships", "add"],
    &["identity", "groups", "memberships", "remove"],
    &["identity", "groups", "memberships", "modify-membership-roles"],
];

fn gcloud(inv: &Invocation, cx: &mut Cx<'_>) {
    let mut argv = split(&inv.args, &GCLOUD_OPTS, HELP_WORDS.with(Help::VERSION));
    argv.pos.retain(|p| !TRACKS.contains(p));
    argv.words.retain(|p| !TRACKS.contains(p));
    if let Some(seq) = GCLOUD_CRITICAL.iter().find(|s| argv.has_seq(s)) {
        return cx.hit_because(
            &CRITICAL,
            format!("`gcloud {}` irreversibly deletes or disables a core resource; never run by an agent: ask the user to do it in the console", seq.join(" ")),
        );
    }
    if argv.help || argv.pos.first() == Some(&"help") {
        return cx.hit(&HELP);
    }
    if let Some(seq) = MEMBERSHIP_ANCHORS.iter().find(|s| argv.has_seq(s)) {
        return cx.hit_because(&ANCHOR, format!("`gcloud {}` changes billing or group membership; ask the user", seq.join(" ")));
    }
    let pos = &argv.pos;
    let iam = pos.iter().take(6).find(|p| p.ends_with("-iam-policy-binding") || **p == "set-iam-policy");
    if let Some(verb) = iam {
        return cx.hit_because(&ANCHOR, format!("`{verb}` changes who can access the resource; ask the user"));
    }
    let at = |i: usize| pos.get(i).copied();
    if at(0) == Some("config") {
        return match at(1) {
            Some("set" | "unset") => cx.hit(&ANCHOR),
            Some("configurations") if matches!(at(2), Some("create" | "delete" | "activate" | "rename")) => cx.hit(&ANCHOR),
            _ => cx.hit(&READ),
        };
    }
    if at(0) == Some("auth") && matches!(at(1), None | Some("list" | "print-access-token" | "print-identity-token" | "describe")) {
        return cx.hit(&READ);
    }
    if pos.is_empty() {
        return cx.hit(&HELP);
    }
    // `compute ssh VM -- CMD` / `--command CMD`: the remote command is classified like an ssh
    // payload, so a blocked one stays blocked (the remote working directory is unknown).
    if at(0) == Some("compute") && at(1) == Some("ssh") {
        if let Some(cmd) = argv.value(&inv.args, words!["--command"]) {
            cx.remote_line(cmd);
        }
        if !argv.rest.is_empty() {
            cx.remote_line(&argv.rest.join(" "));
        }
    }
    match scan(pos, &GCLOUD_TABLE, 6) {
        Some((Kind::Read, _)) => cx.hit(&READ),
        Some((Kind::Validate | Kind::Simulate, verb)) => cx.hit_because(&READ, format!("`{verb}` checks without changing anything")),
        Some((Kind::Mutate, verb @ ("ssh" | "scp" | "connect"))) => {
            cx.hit_because(&MUTATE, format!("`gcloud … {verb}` opens a session on (or copies to) a remote machine; ask the user"))
        }
        Some((Kind::Mutate, verb)) => cx.hit_because(&MUTATE, format!("`gcloud … {verb}` changes Google Cloud resources; ask the user")),
        None => cx.hit_because(&MUTATE, format!("`gcloud {}`: no verb tiergate knows; gcloud reads are list/describe/get, so ask the user", pos.join(" "))),
    }
}

/// gsutil's top-level options; `-h` is a header (it takes a value), not help.
static GSUTIL_OPTS: Opts = Opts { values: words!["-h", "-o", "-u", "-i"], bools: words![], greedy: false };

fn gsutil(inv: &Invocation, cx: &mut Cx<'_>) {
    let argv = split(&inv.args, &GSUTIL_OPTS, HELP_WORDS_NO_DASH_H);
    let cmd = argv.pos.first().copied();
    let recursive = argv.flags.iter().filter_map(|f| short_letters(f)).any(|l| l.contains(['r', 'R'])) || argv.has("--recursive");
    match cmd {
        Some("rb") => return cx.hit_because(&CRITICAL, "`gsutil rb` deletes a bucket; never run by an agent: ask the user to do it in the console".to_owned()),
        // `gs://b/**` matches every object under the prefix: the same as `rm -r`.
        Some("rm") if recursive || argv.pos.iter().skip(1).any(|p| p.starts_with("gs://") && p.ends_with("/**")) => {
            return cx.hit_because(&CRITICAL, "`gsutil rm -r` deletes everything under the prefix; remove named objects instead, and ask the user".to_owned())
        }
        _ => {}
    }
    if argv.help || cmd == Some("help") || cmd.is_none() {
        return cx.hit(&HELP);
    }
    let operands: Vec<&str> = argv.pos.iter().skip(1).copied().collect();
    match cmd.unwrap_or("") {
        "ls" | "cat" | "du" | "stat" | "hash" | "version" | "signurl" | "ver" => cx.hit(&READ),
        "cp" | "rsync" => {
            let dst = operands.last().copied().unwrap_or("");
            if cmd == Some("rsync") && argv.flags.iter().filter_map(|f| short_letters(f)).any(|l| l.contains('n')) {
                cx.hit(&DRY_RUN)
            } else if operands.len() >= 2 && !dst.contains("://") && operands[..operands.len() - 1].iter().all(|s| s.contains("://")) {
                if let Some(arg) = inv.args.iter().rev().find(|a| a.text == dst) {
                    writes::check_write(cx, arg, inv.cwd.as_deref());
                }
                cx.hit_because(&READ, format!("downloads into {dst}"))
            } else {
                cx.hit_because(&MUTATE, format!("`gsutil {}` writes to {dst}; ask the user", cmd.unwrap_or("")))
            }
        }
        c @ ("acl" | "iam" | "defacl" | "lifecycle" | "versioning" | "web" | "cors" | "label" | "logging" | "notification" | "retention" | "kms"
        | "requesterpays" | "defstorageclass" | "ubla" | "pap" | "autoclass" | "rpo") => {
            if operands.first().is_some_and(|s| *s == "get" || *s == "list") {
                cx.hit(&READ)
            } else {
                cx.hit_because(&MUTATE, format!("`gsutil {c}` changes bucket settings or access; ask the user"))
            }
        }
        c => cx.hit_because(&MUTATE, format!("`gsutil {c}` changes Cloud Storage; ask the user")),
    }
}

static BQ_OPTS: Opts = Opts {
    values: words!["--project_id", "--location", "--format", "-n", "--max_rows", "--dataset_id", "--destination_table", "--parameter", "--api"],
    bools: words![],
    greedy: false,
};

fn bq(inv: &Invocation, cx: &mut Cx<'_>) {
    let argv = split(&inv.args, &BQ_OPTS, HELP_WORDS);
    let cmd = argv.pos.first().copied();
    if cmd == Some("rm")
        && (argv.flags.iter().any(|f| matches!(*f, "-r" | "--recursive" | "--recursive=true"))
            || argv.flags.iter().filter_map(|f| short_letters(f)).any(|l| l.contains('r')))
    {
        return cx.hit_because(&CRITICAL, "`bq rm -r` deletes a dataset with all its tables; remove named tables instead, and ask the user".to_owned());
    }
    let sql: String = argv.pos.iter().skip(1).copied().collect::<Vec<_>>().join(" ").to_ascii_uppercase();
    if cmd == Some("query") && (sql.contains("DROP TABLE") || sql.contains("DROP SCHEMA")) {
        return cx.hit_because(&CRITICAL, "a BigQuery DROP TABLE / DROP SCHEMA deletes data irreversibly; never run by an agent: ask the user".to_owned());
    }
    if argv.help || cmd == Some("help") || cmd.is_none() {
        return cx.hit(&HELP);
    }
    match cmd.unwrap_or("") {
        "ls" | "show" | "head" | "version" | "wait" | "info" => cx.hit(&READ),
        "query" => {
            let changes = ["INSERT", "UPDATE", "DELETE", "MERGE", "CREATE", "DROP", "ALTER", "TRUNCATE", "GRANT", "REVOKE", "CALL", "EXPORT", "LOAD"]
                .iter()
                .any(|k| sql.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').any(|w| w == *k));
            let destination = argv.has("--destination_table") || argv.has("--replace") || argv.has("--append_table");
            if argv.has("--dry_run") || argv.has("--dry-run") {
                cx.hit(&DRY_RUN)
            } else if changes || destination || !inv.exact() {
                cx.hit_because(&MUTATE, "the BigQuery query changes data or writes a table (or is not fully visible); ask the user".to_owned())
            } else {
                cx.hit_because(&READ, "a read-only BigQuery query".to_owned())
            }
        }
        c => cx.hit_because(&MUTATE, format!("`bq {c}` changes BigQuery datasets or tables; ask the user")),
    }
}

pub(crate) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    match inv.program.as_str() {
        "gsutil" => gsutil(inv, cx),
        "bq" => bq(inv, cx),
        _ => gcloud(inv, cx),
    }
}

crate::tables![TRACKS];
