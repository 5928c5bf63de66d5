//! The `cloud` family: cloud and platform CLIs. `aws` (operations by verb prefix,
//! aws_critical floor, S3 transfer direction), Google Cloud (`gcloud`, `gsutil`, `bq`),
//! Azure (`az`), code forges (`gh`, `glab`), credential wrappers (`aws-vault exec`, `doppler run`,
//! `op run` …, whose wrapped command is classified), and the smaller platform CLIs through the
//! shared verb-scan lane (`rules/vocab/lane.rs`, over the verb taxonomy in
//! `rules/vocab/verbs.rs`), which the `kube` and `iac` families read too.
//!
//! It does not read request bodies, templates or credential files.

use crate::words;

mod auth0;
mod aws;
mod azure;
mod creds;
mod forge;
mod gcp;
mod paas;

use crate::rules::{Card, Family, Rule};

pub static FAMILY: Family = Family::new("cloud", CARDS, RULES);

static CARDS: &[Card] = &[
    // `AWS` runs the aws CLI on case-insensitive file systems (macOS default).
    Card::of(words!["aws"], aws::check),
    Card::of(words!["gcloud", "gsutil", "bq"], gcp::check),
    Card::of(words!["az"], azure::check),
    Card::of(words!["gh", "glab"], forge::check),
    // The platform CLIs: the shared verb-scan lane with their own tables.
    Card::of(
        words![
            "doctl", "heroku", "fly", "flyctl", "vercel", "netlify", "firebase", "wrangler", "hcloud", "linode-cli", "oci", "ibmcloud", "supabase", "railway",
            "render", "scw", "exoscale", "vultr-cli",
        ],
        paas::check,
    ),
    // The forms of auth0 its words do not describe (`api` with a body, `tenants use`).
    Card::of(words!["auth0"], auth0::check),
    // Credential wrappers: the wrapped command is classified as if run directly.
    Card::of(words!["aws-vault", "saml2aws", "doppler", "infisical", "op", "chamber"], creds::check),
];

static RULES: &[&Rule] = &[
    &aws::READ,
    &aws::VALIDATE,
    &aws::DRY_RUN,
    &aws::MUTATE,
    &aws::CRITICAL,
    &aws::HELP,
    &gcp::READ,
    &gcp::DRY_RUN,
    &gcp::MUTATE,
    &gcp::ANCHOR,
    &gcp::CRITICAL,
    &gcp::HELP,
    &azure::READ,
    &azure::SIMULATE,
    &azure::MUTATE,
    &azure::CRITICAL,
    &azure::HELP,
    &forge::READ,
    &forge::API_READ,
    &forge::API_WRITE,
    &forge::MUTATE,
    &forge::REPO_DELETE,
    &forge::HELP,
    &paas::READ,
    &paas::VALIDATE,
    &paas::SIMULATE,
    &paas::MUTATE,
    &paas::UNKNOWN,
    &paas::CRITICAL,
    &paas::HELP,
    &creds::READ,
    &creds::CHANGE,
    &creds::SHELL,
];

crate::tables![; aws, azure, forge, gcp, paas];
