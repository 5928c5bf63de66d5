//! Integration tests: one binary (`cargo test -p classifier --test it`).
// I/O, env, clock and processes are the binary's (and the tests') job; only the
// library is held pure by `classifier/clippy.toml` (denied in `lib.rs`).
#![allow(clippy::disallowed_methods)]

mod approvals_cli;
mod check;
mod cloud;
mod containers;
mod coreutils;
mod db;
mod git;
mod hook_agents;
mod hook_agents_golden;
mod hook_contract;
mod hook_harness;
mod hook_nonce;
mod hook_protect;
mod http;
mod iac;
mod install_doctor;
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
mod verdict_only;
mod worst_cases;
