//! The `cloud` family: cloud and platform CLIs. `aws` (operations by verb prefix,
//! aws_critical floor, S3 transfer direction), Google Cloud (`gcloud`, `gsutil`, `bq`),
//! Azure (`az`), code forges (`gh`, `glab`), credential wrappers (`aws-vault exec`, `doppler run`,
//! `op run` …, whose wrapped command is classified), and the smaller platform CLIs through the
//! shared verb-scan lane. The verb taxonomies and that lane (`verbs.rs`, `generic.rs`)
//! are shared with the `kube` and `iac` families.
//!
//! It does not read request bodies, templates or credential files.

mod aws;
mod azure;
mod creds;
mod forge;
mod gcp;
pub(crate) mod generic;
mod paas;
pub(crate) mod verbs;

use crate::call::Invocation;
use crate::rules::{Cx, Family, Rule};

pub static FAMILY: Family = Family { name: "cloud", programs: PROGRAMS, check, rules: RULES };

static PROGRAMS: &[&str] = &[
    // `AWS` runs the aws CLI on case-insensitive file systems (macOS default).
    "aws", "AWS", "gcloud", "gsutil", "bq", "az", "gh", "glab", "doctl", "heroku", "fly", "flyctl", "vercel", "netlify", "firebase", "wrangler", "hcloud",
    "linode-cli", "oci", "ibmcloud", "supabase", "railway", "render", "scw", "exoscale", "vultr-cli",
    // Credential wrappers: the wrapped command is classified as if run directly.
    "aws-vault", "saml2aws", "doppler", "infisical", "op", "chamber",
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

fn check(inv: &Invocation, cx: &mut Cx<'_>) {
    match inv.program.to_ascii_lowercase().as_str() {
        "aws" => aws::check(inv, cx),
        "gcloud" | "gsutil" | "bq" => gcp::check(inv, cx),
        "az" => azure::check(inv, cx),
        "gh" | "glab" => forge::check(inv, cx),
        "aws-vault" | "saml2aws" | "doppler" | "infisical" | "op" | "chamber" => creds::check(inv, cx),
        _ => paas::check(inv, cx),
    }
}
