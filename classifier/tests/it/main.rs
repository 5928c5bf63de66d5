//! Integration tests: one binary (`cargo test -p classifier --test it`).

mod check;
mod lanes;
mod registry;
mod rule_examples;
mod approvals_cli;
mod hook_contract;
mod hook_harness;
mod hook_nonce;
mod store_failures;
mod git;
mod coreutils;
mod system;
mod packages;
mod containers;
mod properties;
mod worst_cases;
