//! Integration tests: one binary (`cargo test -p classifier --test it`).

mod check;
mod lanes;
mod registry;
mod rule_examples;
mod rules_doc;
mod snapshots_read;
mod approvals_cli;
mod hook_contract;
mod hook_harness;
mod hook_nonce;
mod store_failures;
mod git;
mod coreutils;
mod properties;
mod worst_cases;
mod kube;
mod iac;
mod cloud;
mod system;
mod packages;
mod containers;
mod db;
mod http;
mod interp;
mod scripts;
