//! Reports: the sorted model (model.rs), the `summary.md` renderer (markdown.rs,
//! pure, snapshot-tested), the terminal tables (terminal.rs) and the atomic writers
//! (write.rs). Nothing here runs a classifier or decides policy.

pub mod markdown;
pub mod model;
pub mod terminal;
pub mod write;

pub use model::Report;
