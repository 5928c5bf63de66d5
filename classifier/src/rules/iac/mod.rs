//! The `iac` family: infrastructure-as-code CLIs. terraform/tofu/terragrunt in
//! `terraform.rs` (init anchors, plan, state surgery, terragrunt's blocked
//! destroy-all); pulumi, cdk, ansible, packer, serverless, sam and IaC
//! scanners in `tools.rs`.
//!
//! It does not read `.tf`, playbook or template files.

use crate::words;

mod terraform;
mod tools;

use crate::rules::{Card, Family, Rule};

pub static FAMILY: Family = Family::new("iac", CARDS, RULES);

static CARDS: &[Card] = &[
    Card::of(words!["terraform", "tofu", "terragrunt"], terraform::check),
    Card::of(
        words![
            "pulumi", "cdk", "cdktf", "ansible", "ansible-playbook", "ansible-galaxy", "ansible-vault", "ansible-inventory", "ansible-doc", "ansible-config",
            "ansible-lint", "packer", "serverless", "sls", "sam", "checkov", "tfsec", "terrascan",
        ],
        tools::check,
    ),
];

static RULES: &[&Rule] = &[
    &terraform::READ,
    &terraform::VALIDATE,
    &terraform::PLAN,
    &terraform::INIT_ANCHOR,
    &terraform::APPLY,
    &terraform::STATE,
    &terraform::DESTROY_ALL,
    &terraform::HELP,
    &tools::READ,
    &tools::VALIDATE,
    &tools::SIMULATE,
    &tools::MUTATE,
    &tools::UNKNOWN,
    &tools::HELP,
];

crate::tables![; terraform, tools];
