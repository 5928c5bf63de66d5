//! `aws`: `aws [globals] SERVICE OPERATION [args]`. Operations are classified by
//! their leading verb (`describe-`, `list-`, `get-` read; `create-`, `delete-`,
//! `put-` … change), the aws_critical floor (FEATURES.md §13) is blocked, `s3`
//! transfer commands are judged by direction, and EC2's `--dry-run` is honoured.
//!
//! It does not read `--cli-input-json` files or `file://` parameters.

use crate::call::args::split_option;
use crate::call::args::Help;
use crate::call::cli::{split, Argv, Opts, HELP_WORDS_NO_DASH_H};
use crate::call::Invocation;
use crate::rules::vocab::verbs::{kind_of, Kind, Table};
use crate::rules::vocab::writes;
use crate::rules::{Cx, Rule};
use crate::words;

/// ## What it matches
/// Read operations (`describe-* list-* get-* head-* batch-get-* lookup-* search-* scan query select-*
/// filter-* tail wait`), `s3 ls|presign`, `s3 cp|sync` from S3 into the tree, `sts get-caller-identity`,
/// `configure list|get`, `help`.
/// ## Why this tier
/// Reads cloud state; a download into the working tree is authoring.
pub static READ: Rule = Rule::t0("cloud.aws.read")
    .reason("reads AWS state only")
    .matches(words![
        "aws ec2 describe-instances",
        "aws --profile prod --region us-east-1 ec2 describe-instances",
        "aws s3 ls s3://b/",
        "aws sts get-caller-identity",
        "aws s3 cp s3://b/report.csv .",
        "aws logs tail /aws/lambda/fn --follow",
        "aws configure list",
        "aws s3api list-buckets --filter BatchDelete",
        "aws dynamodb update-table --generate-cli-skeleton",
        "aws s3api get-object --bucket reports --key q3.csv q3.csv",
        "aws dynamodb batch-get-item --request-items file://keys.json",
    ])
    .not_matches(words!["aws s3 cp ./dist s3://site/ --recursive", "aws ec2 delete-key-pair --key-name k"]);

/// ## What it matches
/// `validate-*` and `test-*` operations (`cloudformation validate-template`).
/// ## Why this tier
/// Server-side validation that changes nothing.
pub static VALIDATE: Rule = Rule::t1("cloud.aws.validate")
    .reason("validates input server-side; changes nothing")
    .matches(words!["aws cloudformation validate-template --template-body file://t.yaml"])
    .not_matches(words!["aws cloudformation deploy --template-file t.yaml --stack-name s"]);

/// ## What it matches
/// An EC2 operation with `--dry-run`; `simulate-*`/`estimate-*`/`preview-*` operations.
/// ## Why this tier
/// EC2 checks permissions and answers `DryRunOperation` without acting.
pub static DRY_RUN: Rule = Rule::t2("cloud.aws.dry-run")
    .reason("dry run: EC2 checks the request without acting")
    .matches(words![
        "aws ec2 run-instances --image-id ami-1 --dry-run",
        "aws ec2 stop-instances --instance-ids i-1 --dry-run",
        "aws s3 sync ./build s3://site --delete --dryrun",
        "aws iam simulate-principal-policy --policy-source-arn a --action-names s3:GetObject",
    ])
    .not_matches(words!["aws ec2 run-instances --image-id ami-1", "aws lambda delete-function --function-name f --dry-run"]);

/// ## What it matches
/// Changing operations (`create- delete- put- update- modify- terminate- run- start- stop- attach-
/// detach- invoke send- …`), `s3 cp|sync|mv` into S3, `s3 rm|mb`, `configure set`, and any operation
/// whose verb tiergate does not know.
/// ## Why this tier
/// Changes cloud resources or credentials. Unknown AWS operations are treated as changes:
/// the API's read verbs are a closed set.
pub static MUTATE: Rule = Rule::t3("cloud.aws.mutate")
    .reason("changes AWS resources; ask the user")
    .matches(words![
        "aws ec2 delete-key-pair --key-name k", "aws s3 cp ./dist s3://site/ --recursive", "aws s3 sync ./build s3://site --delete",
        "aws s3 rm s3://b/old.log", "aws lambda invoke --function-name f out.json", "aws configure set region eu-west-1",
        "aws cloudformation delete-stack --stack-name s", "aws sts assume-role --role-arn a --role-session-name s",
        "aws ec2 run-instances --image-id ami-1 --dry-run=false",
    ])
    .not_matches(words!["aws ec2 describe-instances", "aws s3 rb s3://b"]);

/// ## What it matches
/// FEATURES.md §13 aws_critical: `ec2 delete-vpc|delete-subnet|delete-internet-gateway|delete-route-table|
/// delete-route|terminate-instances`, `rds delete-db-instance|delete-db-cluster`, `dynamodb delete-table`,
/// `s3 rb`, `s3api delete-bucket`, `elasticache delete-cache-cluster|delete-replication-group`,
/// `eks delete-cluster`, `kms schedule-key-deletion`, `organizations delete-organization`,
/// `route53 delete-hosted-zone`; and their analogues `rds delete-global-cluster`, `docdb|neptune delete-db-cluster`,
/// `redshift|memorydb delete-cluster`, `efs delete-file-system`, `opensearch delete-domain`.
/// ## Why this tier
/// Destroys networks, databases, clusters, buckets or keys irreversibly; not approvable (`--help` and
/// `--dry-run` do not lower it).
pub static CRITICAL: Rule = Rule::blocked("cloud.aws.critical")
    .reason("irreversibly destroys a core AWS resource (network, database, cluster, bucket, key, zone or instances); never run by an agent: ask the user to do it in the console or through reviewed IaC")
    .matches(words!["aws ec2 delete-vpc --vpc-id vpc-123", "aws --profile prod s3 rb s3://b --force", "aws eks delete-cluster --name prod", "aws ec2 terminate-instances --instance-ids i-1", "aws rds delete-db-instance --db-instance-identifier db --skip-final-snapshot", "aws kms schedule-key-deletion --key-id k", "aws dynamodb delete-table --table-name users --help", "aws ec2 delete-vpc --vpc-id v --dry-run"])
    .not_matches(words!["aws ec2 delete-key-pair --key-name k", "aws rds delete-db-parameter-group --db-parameter-group-name p", "aws eks list-clusters"])
    .suggest("aws ec2 describe-vpcs");

/// ## What it matches
/// `--help` or `help` on an aws command outside the floor.
/// ## Why this tier
/// FEATURES.md §6a: prints usage.
pub static HELP: Rule = Rule::t0("cloud.aws.help")
    .reason("prints help only")
    .matches(words!["aws ec2 run-instances --help", "aws help", "aws --version", "aws ec2 help", "aws"])
    .not_matches(words!["aws s3 rb s3://b --help"]);

/// Nearly every aws option takes a value; these do not.
static OPTS: Opts = Opts {
    values: words![],
    bools: words![
        "--debug", "--no-verify-ssl", "--no-paginate", "--no-sign-request", "--no-cli-pager", "--no-cli-auto-prompt", "--cli-auto-prompt", "--dry-run",
        "--no-dry-run", "--force", "--recursive", "--delete", "--dryrun", "--quiet", "--follow", "--exact-timestamps", "--size-only", "--only-show-errors",
        "--no-progress", "--human-readable", "--summarize", "--skip-final-snapshot", "--no-skip-final-snapshot", "--yes", "--generate-cli-skeleton",
        "--force-new-deployment", "--no-include-email", "--include-email", "--cli-binary-format",
    ],
    greedy: true,
};

/// (service, operation) pairs on the floor.
const CRITICAL_OPS: &[(&str, &str)] = &[
    ("ec2", "delete-vpc"),
    ("ec2", "delete-subnet"),
    ("ec2", "delete-internet-gateway"),
    ("ec2", "delete-route-table"),
    ("ec2", "delete-route"),
    ("ec2", "terminate-instances"),
    ("rds", "delete-db-instance"),
    ("rds", "delete-db-cluster"),
    // Analogues of the original's database and cluster deletions, same category.
    ("rds", "delete-global-cluster"),
    ("docdb", "delete-db-cluster"),
    ("neptune", "delete-db-cluster"),
    ("redshift", "delete-cluster"),
    ("memorydb", "delete-cluster"),
    ("efs", "delete-file-system"),
    ("opensearch", "delete-domain"),
    ("es", "delete-elasticsearch-domain"),
    ("dynamodb", "delete-table"),
    ("s3", "rb"),
    ("s3api", "delete-bucket"),
    ("elasticache", "delete-cache-cluster"),
    ("elasticache", "delete-replication-group"),
    ("eks", "delete-cluster"),
    ("kms", "schedule-key-deletion"),
    ("organizations", "delete-organization"),
    ("route53", "delete-hosted-zone"),
];

static TABLE: Table = Table {
    read: words![
        "start-live-tail", "describe", "list", "get", "head", "lookup", "search", "scan", "query", "select", "filter", "tail", "wait", "presign", "decode",
        "estimate", "ls", "decrypt", "encrypt", "sign", "batch-get", "download", "help", "detect", "preview",
    ],
    validate: words!["validate", "test"],
    simulate: words!["simulate"],
    // `verify-email-identity` sends mail and registers an identity; it is not a local check.
    mutate: words![
        "verify", "run", "invoke", "assume", "generate", "batch", "login", "logout", "sso", "rb", "mb", "rm", "mv", "sync", "cp", "website", "deploy",
        "package", "push",
    ],
    skip: words![],
};

crate::table! {
    /// Objects of a read job (`start-query`, `stop-query`, `generate-credential-report`): the
    /// last word of the operation's object after `start`, `stop` or `generate`.
    READ_JOBS = ["query", "report"];
    probe "aws iam generate-x-{}" => T0, "cloud.aws.read";
}

fn is_s3(p: &str) -> bool {
    p.starts_with("s3://")
}

/// `s3 cp|sync|mv SRC DST`: into S3 (or S3 to S3) is a change; S3 to local is a download.
fn s3_transfer(op: &str, argv: &Argv<'_>, inv: &Invocation, cx: &mut Cx<'_>) {
    let operands: Vec<&str> = argv.pos.iter().skip(2).copied().collect();
    let (Some(src), Some(dst)) = (operands.first().copied(), operands.get(1).copied()) else {
        return cx.hit_because(&MUTATE, format!("`aws s3 {op}` with operands tiergate cannot read; ask the user"));
    };
    if argv.has("--dryrun") {
        return cx.hit_because(&DRY_RUN, format!("`aws s3 {op} --dryrun` only lists what it would transfer"));
    }
    if op == "mv" || is_s3(dst) || !is_s3(src) {
        return cx.hit_because(&MUTATE, format!("`aws s3 {op}` writes to {dst}; ask the user"));
    }
    // A download: the local destination is a file write like any other.
    if let Some(arg) = inv.args.iter().rev().find(|a| a.text == dst) {
        writes::check_write(cx, arg, inv.cwd.as_deref());
    }
    if op == "sync" && argv.has("--delete") {
        return cx.hit_because(&MUTATE, format!("`aws s3 sync --delete` deletes local files under {dst} that are not in S3; ask the user"));
    }
    cx.hit_because(&READ, format!("downloads {src} into {dst}"));
}

pub(crate) fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    let argv = split(&inv.args, &OPTS, HELP_WORDS_NO_DASH_H.with(Help::VERSION));
    let service = argv.pos.first().map(|s| s.to_ascii_lowercase());
    let op = argv.pos.get(1).map(|s| s.to_ascii_lowercase());
    let (service, op) = (service.as_deref(), op.as_deref());
    // The floor first, on the value-inclusive words too, so neither `--help` nor an
    // undeclared option lowers it.
    if let Some((s, o)) = CRITICAL_OPS.iter().find(|(s, o)| (service == Some(*s) && op == Some(*o)) || argv.has_seq(&[s, o])) {
        return cx.hit_because(
            &CRITICAL,
            format!(
                "`aws {s} {o}` irreversibly destroys a core AWS resource; never run by an agent: ask the user to do it in the console or through reviewed IaC"
            ),
        );
    }
    if argv.help || service == Some("help") || op == Some("help") || (argv.pos.len() == 3 && argv.pos[2] == "help") {
        return cx.hit(&HELP);
    }
    let (Some(service), Some(op)) = (service, op) else {
        // `aws` alone prints usage; `aws configure` alone prompts for and writes credentials.
        return match service {
            Some("configure") => cx.hit_because(&MUTATE, "`aws configure` writes credentials and settings; ask the user".to_owned()),
            None => cx.hit(&HELP),
            Some(s) => cx.hit_because(&MUTATE, format!("`aws {s}` with no operation tiergate can read; ask the user")),
        };
    };
    match (service, op) {
        ("configure", "list" | "get" | "list-profiles" | "export-credentials") => return cx.hit(&READ),
        ("configure", _) => return cx.hit_because(&MUTATE, format!("`aws configure {op}` changes AWS credentials or settings; ask the user")),
        ("s3", "cp" | "sync" | "mv") => return s3_transfer(op, &argv, inv, cx),
        ("s3", "rm") if argv.has("--dryrun") => return cx.hit_because(&DRY_RUN, "`aws s3 rm --dryrun` only lists what it would delete".to_owned()),
        // `get-object … OUTFILE` writes the object to a local file.
        ("s3api", "get-object") => {
            if let Some(out) = argv.pos.get(2).and_then(|o| inv.args.iter().rev().find(|a| a.text == *o)) {
                writes::check_write(cx, out, inv.cwd.as_deref());
            }
            return cx.hit(&READ);
        }
        (_, o) if o.starts_with("batch-get-") => return cx.hit(&READ),
        _ => {}
    }
    // `--generate-cli-skeleton` prints a request template and calls nothing.
    if argv.has("--generate-cli-skeleton") {
        return cx.hit_because(&READ, format!("`aws {service} {op} --generate-cli-skeleton` prints a request template and calls nothing"));
    }
    // A read job: starting or stopping a query, generating a report (`logs start-query`,
    // `iam generate-credential-report`). The result is fetched by a `get-` operation and
    // nothing the account holds changes, unless the job is told to deliver its result
    // somewhere (`cloudtrail start-query --delivery-s3-uri`). `athena start-query-execution`
    // is not one: its object is the execution, whose result set is written to S3.
    if let Some((verb, object)) = op.split_once('-') {
        let last = object.rsplit('-').next().unwrap_or(object);
        if matches!(verb, "start" | "stop" | "generate") && READ_JOBS.contains(last) && (verb != "start" || object == "query") {
            if argv.flags.iter().any(|f| split_option(f).0.starts_with("--delivery")) {
                return cx.hit_because(&MUTATE, format!("`aws {service} {op}` delivers its result to a location outside the tree; ask the user"));
            }
            return cx.hit_because(&READ, format!("`aws {service} {op}` runs a read-only job (a query or a report) whose result is fetched later"));
        }
    }
    let dry =
        argv.has("--dry-run") && !argv.flags.iter().any(|f| matches!(split_option(f), ("--dry-run", Some(v)) if v != "true")) && !argv.has("--no-dry-run");
    match kind_of(op, &TABLE) {
        Some(Kind::Read) => cx.hit(&READ),
        Some(Kind::Validate) => cx.hit(&VALIDATE),
        Some(Kind::Simulate) => cx.hit(&DRY_RUN),
        Some(Kind::Mutate) if service == "ec2" && dry => cx.hit(&DRY_RUN),
        Some(Kind::Mutate) => cx.hit_because(&MUTATE, format!("`aws {service} {op}` changes AWS resources; ask the user")),
        None => cx.hit_because(
            &MUTATE,
            format!("`aws {service} {op}`: an operation whose verb tiergate does not know; AWS read operations are describe/list/get, so ask the user"),
        ),
    }
}

crate::tables![READ_JOBS];
