//! The bench library: corpora, builds, runs, diffs, caps, declarations, reports.
//! It speaks protocol v1 only and never depends on the `classifier` crate.

pub mod import;
