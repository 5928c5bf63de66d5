//! Integration tests: one binary (`cargo test -p classifier --test it`).

mod approvals_cli;
mod check;
mod cloud;
mod containers;
mod coreutils;
mod db;
mod git;
mod hook_contract;
mod hook_harness;
mod hook_nonce;
mod hook_protect;
mod http;
mod iac;
mod interp;
mod kube;
mod lanes;
mod packages;
mod properties;
mod registry;
mod rule_examples;
mod rules_doc;
mod scripts;
mod snapshots_read;
mod store_failures;
mod system;
mod worst_cases;
