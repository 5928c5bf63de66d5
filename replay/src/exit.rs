//! Exit codes, the bench's contract with CI: 0 clean, 1 policy violation, 2 usage or
//! configuration error (with file:line), 3 infrastructure. Only this module maps
//! outcomes to numbers; it does not print anything.

use std::fmt;

/// Nothing wrong.
pub const CLEAN: i32 = 0;
/// A truth failure, an exceeded cap, an undeclared or stale declaration.
pub const POLICY: i32 = 1;
/// Bad flags, a malformed CSV / JSON file (the message names file:line).
pub const USAGE: i32 = 2;
/// The base does not build, protocol mismatch, missing base commit, a nondeterministic head.
pub const INFRA: i32 = 3;

/// A failure that stops the replay before a verdict on the change can be given.
#[derive(Debug)]
pub enum ReplayError {
    /// Usage or configuration error; every message names its file:line when it has one.
    Usage(Vec<String>),
    /// Infrastructure error: builds, git, protocol, determinism.
    Infra(String),
}

impl ReplayError {
    pub fn usage(msg: impl Into<String>) -> Self {
        ReplayError::Usage(vec![msg.into()])
    }
    pub fn infra(msg: impl Into<String>) -> Self {
        ReplayError::Infra(msg.into())
    }
    pub fn code(&self) -> i32 {
        match self {
            ReplayError::Usage(_) => USAGE,
            ReplayError::Infra(_) => INFRA,
        }
    }
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Usage(msgs) => {
                write!(f, "configuration error:")?;
                for m in msgs {
                    write!(f, "\n  {m}")?;
                }
                Ok(())
            }
            ReplayError::Infra(msg) => write!(f, "infrastructure error: {msg}"),
        }
    }
}

impl std::error::Error for ReplayError {}

/// Maps a replay result to the process exit code.
pub fn code_of<T>(result: &Result<T, ReplayError>, policy_failures: impl Fn(&T) -> usize) -> i32 {
    match result {
        Ok(outcome) if policy_failures(outcome) > 0 => POLICY,
        Ok(_) => CLEAN,
        Err(e) => e.code(),
    }
}
