//! Integration tests: one binary (`cargo test -p classifier --test it`).

mod check;
mod lanes;
mod registry;
mod rule_examples;
