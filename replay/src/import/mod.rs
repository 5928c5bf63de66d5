//! History importers: read a user's shell history in place (never copied into the
//! repository) and redact secrets before anything reaches a report. (Stub API.)

use std::path::Path;

/// One imported command line with its occurrence count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportedRow {
    pub command: String,
    pub cwd: Option<String>,
    pub weight: u64,
}

/// What an importer produced: rows (deduplicated, weighted) and every malformed
/// line as `file:line: why` (counted and reported, never fatal).
#[derive(Clone, Debug, Default)]
pub struct Imported {
    pub rows: Vec<ImportedRow>,
    pub malformed: Vec<String>,
}

/// Imports history from `path`, detecting its format (bash, zsh, fish, atuin
/// SQLite, Claude Code transcripts, tiergate's hook log).
pub fn import(path: &Path) -> anyhow::Result<Imported> {
    anyhow::bail!("{}: history import is not implemented yet", path.display())
}

/// Masks secrets (tokens, `Authorization:` headers, `KEY=…` values, URL
/// credentials) so a command can be written to a report.
pub fn redact(command: &str) -> String {
    command.to_owned()
}
