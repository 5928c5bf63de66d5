//! Integration tests of the `tiergate` binary, run as built (`cargo test -p tiergate --test it`):
//! the hook per agent, approvals, install/doctor, the store, protocol v1 lines.
// I/O, env, clock and processes are the binary's (and the tests') job; only the
// library is held pure by `classifier/clippy.toml` (denied in `lib.rs`).
#![allow(clippy::disallowed_methods)]

mod approvals_cli;
mod batch_sessions;
mod cli_errors;
mod hook_agents;
mod hook_agents_golden;
mod hook_contract;
mod hook_harness;
mod hook_nonce;
mod hook_protect;
mod hook_renames;
mod install_doctor;
mod programs_dump;
mod protocol_lines;
mod readme_quickstart;
mod store_failures;
