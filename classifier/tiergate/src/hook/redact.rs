//! The audit log and pending codes mask secrets with the shared `redact` crate,
//! the same policy as the bench's history importers (`corpus/history/README.md`).
//! Redaction is best effort: full commands in the log stay opt-in.

pub use redact::redact;
