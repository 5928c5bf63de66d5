//! The history importers mask secrets with the shared `redact` crate, the same
//! policy as tiergate's audit log.

pub use redact::redact;
