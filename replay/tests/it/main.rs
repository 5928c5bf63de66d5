//! The bench's integration tests, one binary: each drives a real git repository in
//! a temp dir (see repo.rs) through `replay::run`, the function `cargo xtask replay`
//! wraps, and checks exit codes, reports, declarations, caps and the build cache.

mod acceptance;
mod bisect;
mod layouts;
mod peers;
mod probes;
mod repo;
mod runner;
mod sessions;
mod shards;
mod summary;
