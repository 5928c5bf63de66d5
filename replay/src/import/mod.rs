//! History importers: read a user's history in place (never copied into the
//! repository). Shell histories — bash (`#epoch` lines), zsh (extended,
//! continuation lines, metafied bytes), fish, atuin's SQLite `history.db` — give
//! command lines deduplicated with occurrence weights (`rows`). Agent histories —
//! Claude Code transcripts (`~/.claude/projects/*/*.jsonl`) and tiergate's own hook
//! log (SQLite `decisions` table and its spool) — give sessions: every step in the
//! order the agent ran it (`steps`), replayed like `corpus/sessions/`.
//!
//! Rows carry the command exactly as it ran: classification must judge what runs.
//! Anything written to a report must go through [`redact`] first (the bench does so
//! for every history row). A malformed line or entry is counted in `malformed` as
//! `file:line: why` and skipped; it is never fatal. Nothing here writes anywhere.

mod atuin;
mod bash;
mod claude;
mod fish;
mod hooklog;
mod redact;
mod zsh;

#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::path::Path;

use anyhow::Context;

pub use redact::redact;

/// One imported command line with its occurrence count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportedRow {
    pub command: String,
    pub cwd: Option<String>,
    pub weight: u64,
}

/// One step of an agent's session, in the order the agent ran it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportedStep {
    /// The agent history it came from: `claude-code`, `hook-log`.
    pub source: &'static str,
    /// The session's name within that source (no `/`).
    pub session: String,
    pub cwd: Option<String>,
    pub command: String,
}

/// What an importer produced: shell history rows (deduplicated, weighted), agent
/// session steps (in order, not deduplicated), and every malformed line as
/// `file:line: why` (counted and reported, never fatal).
#[derive(Clone, Debug, Default)]
pub struct Imported {
    pub rows: Vec<ImportedRow>,
    pub steps: Vec<ImportedStep>,
    pub malformed: Vec<String>,
}

/// A history format, as detected from a file's content (and name as a tie-break).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Bash,
    Zsh,
    Fish,
    Atuin,
    Claude,
    HookLog,
}

/// Imports history from `path`, detecting its format (bash, zsh, fish, atuin
/// SQLite, Claude Code transcripts, tiergate's hook log). A directory is read as a
/// Claude Code projects folder: every `*.jsonl` below it, in sorted order.
pub fn import(path: &Path) -> anyhow::Result<Imported> {
    if path.is_dir() {
        return claude::import_dir(path);
    }
    let bytes = std::fs::read(path).with_context(|| format!("{}: cannot read history", path.display()))?;
    let label = path.display().to_string();
    match detect(path, &bytes) {
        Format::Atuin => atuin::import(path),
        Format::HookLog => hooklog::import(path),
        Format::Claude => Ok(claude::parse(&label, path, &bytes)),
        Format::Fish => Ok(fish::parse(&label, &bytes).finish()),
        Format::Zsh => Ok(zsh::parse(&label, &bytes).finish()),
        Format::Bash => Ok(bash::parse(&label, &bytes).finish()),
    }
}

/// Detects the format: SQLite by its header and tables, then text by content
/// (a JSON object per line, `- cmd:` entries, `: <epoch>:<secs>;` lines), then by
/// file name; plain lines are bash.
pub fn detect(path: &Path, bytes: &[u8]) -> Format {
    if bytes.starts_with(b"SQLite format 3\0") {
        return if hooklog::is_hook_log(path) { Format::HookLog } else { Format::Atuin };
    }
    let name = path.file_name().map(|n| n.to_string_lossy().to_lowercase()).unwrap_or_default();
    let head: Vec<&[u8]> = bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()).take(50).collect();
    // A bash line may start with `{` too (`{ ls; }`): only a JSON object counts.
    let json_first = head.first().is_some_and(|l| serde_json::from_slice::<serde_json::Map<String, serde_json::Value>>(l).is_ok());
    if name.ends_with(".jsonl") || json_first {
        return Format::Claude;
    }
    if head.iter().any(|l| l.starts_with(b"- cmd: ")) || name.contains("fish_history") {
        return Format::Fish;
    }
    if head.iter().any(|l| zsh::is_extended_header(l)) || name.contains("zsh_history") || name.contains("zhistory") {
        return Format::Zsh;
    }
    Format::Bash
}

/// Collects (command, cwd) pairs in first-seen order and counts repeats.
#[derive(Default)]
pub(crate) struct Acc {
    index: HashMap<(String, Option<String>), usize>,
    rows: Vec<ImportedRow>,
    malformed: Vec<String>,
}

impl Acc {
    pub(crate) fn add(&mut self, command: String, cwd: Option<String>, weight: u64) {
        if command.trim().is_empty() || weight == 0 {
            return;
        }
        let key = (command, cwd);
        if let Some(&i) = self.index.get(&key) {
            self.rows[i].weight += weight;
            return;
        }
        self.index.insert(key.clone(), self.rows.len());
        self.rows.push(ImportedRow { command: key.0, cwd: key.1, weight });
    }
    pub(crate) fn bad(&mut self, label: &str, line: usize, why: impl std::fmt::Display) {
        self.malformed.push(format!("{label}:{line}: {why}"));
    }
    pub(crate) fn finish(self) -> Imported {
        Imported { rows: self.rows, steps: Vec::new(), malformed: self.malformed }
    }
}

/// Opens a SQLite file without ever writing to it: read-only (sees the WAL), and if
/// that is refused (no write access for the `-shm`), immutable.
pub(crate) fn open_read_only(path: &Path) -> anyhow::Result<rusqlite::Connection> {
    use rusqlite::OpenFlags;
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let uri = |extra: &str| format!("file:{}?{extra}", uri_escape(&path.display().to_string()));
    let probe = |c: &rusqlite::Connection| c.query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get::<_, i64>(0));
    if let Ok(c) = rusqlite::Connection::open_with_flags(uri("mode=ro"), flags) {
        if probe(&c).is_ok() {
            return Ok(c);
        }
    }
    let c =
        rusqlite::Connection::open_with_flags(uri("immutable=1"), flags).with_context(|| format!("{}: cannot open as SQLite (read-only)", path.display()))?;
    probe(&c).with_context(|| format!("{}: not a readable SQLite database", path.display()))?;
    Ok(c)
}

fn uri_escape(p: &str) -> String {
    let mut s = String::with_capacity(p.len());
    for b in p.bytes() {
        match b {
            b'?' | b'#' | b'%' | b' ' | 0x80..=0xff => s.push_str(&format!("%{b:02X}")),
            _ => s.push(b as char),
        }
    }
    s
}

/// Column names of `table`, empty when the table does not exist.
/// Runs `sql` (selecting command, cwd and count as blobs) and folds its rows into
/// an `Imported`. A NULL command is reported when `null_is_bad` (atuin) and
/// skipped quietly otherwise (the hook log's Write/Edit rows); a cwd equal to one
/// of `no_cwd` counts as none.
pub(crate) fn grouped_rows(c: &rusqlite::Connection, sql: &str, label: &str, null_is_bad: bool, no_cwd: &[&str]) -> anyhow::Result<Imported> {
    use anyhow::Context;
    let mut st = c.prepare(sql).with_context(|| format!("{label}: reading rows"))?;
    let mut rows = st.query([])?;
    let mut acc = Acc::default();
    let mut n = 0usize;
    while let Some(r) = rows.next()? {
        n += 1;
        let command: Option<Vec<u8>> = r.get(0)?;
        let cwd: Option<Vec<u8>> = r.get(1)?;
        let count: i64 = r.get(2)?;
        let Some(command) = command else {
            if null_is_bad {
                acc.bad(label, n, "NULL command; skipped");
            }
            continue;
        };
        let Ok(command) = String::from_utf8(command) else {
            acc.bad(label, n, "command is not valid UTF-8; skipped");
            continue;
        };
        let cwd = cwd.and_then(|b| String::from_utf8(b).ok()).filter(|s| !s.is_empty() && !no_cwd.contains(&s.as_str()));
        acc.add(command, cwd, count.max(0) as u64);
    }
    Ok(acc.finish())
}

pub(crate) fn columns(c: &rusqlite::Connection, table: &str) -> Vec<String> {
    let Ok(mut st) = c.prepare(&format!("PRAGMA table_info({table})")) else { return Vec::new() };
    st.query_map([], |r| r.get::<_, String>(1)).map(|it| it.filter_map(Result::ok).collect()).unwrap_or_default()
}

/// Decodes one text entry; invalid UTF-8 is reported, never guessed at.
pub(crate) fn utf8(bytes: &[u8]) -> Result<&str, String> {
    std::str::from_utf8(bytes).map_err(|e| format!("not valid UTF-8 (byte {}); skipped", e.valid_up_to()))
}
