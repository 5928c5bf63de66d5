//! Integration tests: one binary (`cargo test -p classifier --test it`).
// I/O, env, clock and processes are the binary's (and the tests') job; only the
// library is held pure by `classifier/clippy.toml` (denied in `lib.rs`).
#![allow(clippy::disallowed_methods)]

mod check;
mod cloud;
mod containers;
mod coreutils;
mod db;
mod git;
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
mod sessions;
mod snapshots_read;
mod system;
mod verdict_only;
mod worst_cases;
