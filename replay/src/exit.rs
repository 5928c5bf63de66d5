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
    /// A binary's table dump and its probe comments disagree (a probe names an
    /// entry the table no longer has, a template without `{}`, …): the probe rows
    /// cannot be derived. A configuration error of the tree, told apart so the
    /// mutants gate credits it to the table probes, not to the other corpora.
    Probes(Vec<String>),
    /// A subject stopped answering (only when asked for, `Config::hang`): no verdict
    /// on the change, and no use waiting out a timeout for every later row.
    Hang(Box<Hang>),
}

/// The row a subject did not answer, twice (runner::Patience).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hang {
    /// The subject's label (`head`, `base`, …).
    pub side: String,
    pub command: String,
    pub cwd: Option<String>,
    /// `corpus id` of the row, when the replay knows it.
    pub row: Option<String>,
    /// The per-row timeout, then the longer one of the second asking.
    pub waited: (std::time::Duration, std::time::Duration),
}

impl fmt::Display for Hang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} gave no answer to `{}`", self.side, self.command)?;
        if let Some(row) = &self.row {
            write!(f, " (row {row})")?;
        }
        write!(f, " within {} s, nor within {} s asked alone on a fresh child", self.waited.0.as_secs_f64(), self.waited.1.as_secs_f64())
    }
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
            ReplayError::Usage(_) | ReplayError::Probes(_) => USAGE,
            ReplayError::Infra(_) | ReplayError::Hang(_) => INFRA,
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
            ReplayError::Probes(msgs) => {
                write!(f, "configuration error (the table probes):")?;
                for m in msgs {
                    write!(f, "\n  {m}")?;
                }
                Ok(())
            }
            ReplayError::Infra(msg) => write!(f, "infrastructure error: {msg}"),
            ReplayError::Hang(h) => write!(f, "hang: {h}"),
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
