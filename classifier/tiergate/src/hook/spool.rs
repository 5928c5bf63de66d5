//! The audit log's append-only spool `tiergate.db-log`: one JSON line per hook
//! decision, next to `tiergate.db`, so a hook process logs without opening SQLite
//! and the 10,000th call costs what the first did (an open, a shared `flock`, one
//! `O_APPEND` write, a close; SQLite's cost grows with its write-ahead log, which
//! every new process re-reads).
//!
//! Readers fold the spool into the `decisions` table (`Store::fold_spool`, run by
//! `tiergate log` and by a hook whose append took the spool past [`FOLD_BYTES`]):
//! under an exclusive `flock` the folder renames the spool aside, so a writer that
//! was waiting for its shared lock sees the inode change and reopens the path;
//! the folder then inserts the lines with `INSERT OR IGNORE` on each line's unique
//! `uid` in one transaction and deletes the file. A crash at any step leaves a
//! file the next fold picks up again, and the uid makes that idempotent.
//! The replay importer reads the spool read-only (`replay/src/import/hooklog.rs`).
//!
//! Grants and pending codes never go through the spool: they stay in SQLite
//! transactions (`store.rs`). This file decides nothing; a write failure is
//! reported by the caller on stderr and never changes a verdict.

use std::fs::{File, OpenOptions};
use std::io::Write;
#[cfg(unix)]
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
#[cfg(unix)]
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use serde::{Deserialize, Serialize};

use super::store::Decision;

/// The spool, in the data directory. Its name starts with `tiergate.db`, so every
/// guard that keeps the agent away from the store (`hook/bash.rs`, `hook.rs`
/// `self_guard`, the protected data directory) covers it too.
pub const SPOOL_FILE: &str = "tiergate.db-log";
/// Prefix of a spool renamed aside by a folder (`tiergate.db-log.fold-<ns>-<pid>`).
const FOLD_PREFIX: &str = "tiergate.db-log.fold-";
/// A hook whose append leaves the spool larger than this folds it after answering
/// (about 4,000 decisions): the spool stays bounded even if nobody runs `tiergate log`.
pub const FOLD_BYTES: u64 = 1024 * 1024;

/// One spool line: the `decisions` row plus the uid that makes folding idempotent.
#[derive(Serialize, Deserialize)]
pub struct Line {
    pub uid: String,
    #[serde(default)]
    pub time: String,
    #[serde(default)]
    pub session: String,
    #[serde(default)]
    pub cwd: String,
    #[serde(default)]
    pub agent: String,
    #[serde(default)]
    pub tool: String,
    #[serde(default)]
    pub decision: String,
    #[serde(default)]
    pub rule: String,
    #[serde(default)]
    pub command: String,
}

static SEQ: AtomicU32 = AtomicU32::new(0);

/// Unique per line across processes: wall-clock nanoseconds, pid and a per-process counter.
fn uid() -> String {
    let ns = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    format!("{ns:x}-{:x}-{:x}", std::process::id(), SEQ.fetch_add(1, Ordering::Relaxed))
}

#[derive(Clone, Copy)]
enum Lock {
    Shared,
    Exclusive,
}

#[cfg(unix)]
fn flock(f: &File, lock: Lock) -> std::io::Result<()> {
    let op = match lock {
        Lock::Shared => libc::LOCK_SH,
        Lock::Exclusive => libc::LOCK_EX,
    };
    loop {
        // SAFETY: flock on a descriptor this `File` owns; no memory is passed.
        if unsafe { libc::flock(f.as_raw_fd(), op) } == 0 {
            return Ok(());
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// Elsewhere there is no `flock` here: a line appended while a fold renames the
/// spool can be lost (the audit log only; grants never use the spool).
#[cfg(not(unix))]
fn flock(_: &File, _: Lock) -> std::io::Result<()> {
    Ok(())
}

/// True while `path` still names the file `f` has open (no folder renamed it away).
#[cfg(unix)]
fn still_at(f: &File, path: &Path) -> bool {
    match (f.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn still_at(_: &File, path: &Path) -> bool {
    path.exists()
}

fn open_append(path: &Path) -> std::io::Result<File> {
    let mut o = OpenOptions::new();
    o.append(true).create(true);
    #[cfg(unix)]
    o.mode(0o600);
    o.open(path)
}

/// One decision as its spool line (with a fresh uid and the newline).
pub fn encode(d: &Decision) -> Result<Vec<u8>, String> {
    let line = Line {
        uid: uid(),
        time: d.time.clone(),
        session: d.session.clone(),
        cwd: d.cwd.clone(),
        agent: d.agent.clone(),
        tool: d.tool.clone(),
        decision: d.decision.clone(),
        rule: d.rule.clone(),
        command: d.command.clone(),
    };
    let mut bytes = serde_json::to_vec(&line).map_err(|e| format!("encoding the log line: {e}"))?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// Appends one decision; returns the spool's size after the write.
pub fn append(dir: &Path, d: &Decision) -> Result<u64, String> {
    let bytes = encode(d)?;
    let path = dir.join(SPOOL_FILE);
    let mut created_dir = false;
    // A folder renames the spool at most once per fold; a handful of retries is plenty.
    for _ in 0..16 {
        let f = match open_append(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !created_dir => {
                created_dir = true;
                super::store::create_private_dir(dir).map_err(|e| format!("{}: cannot create data directory: {e}", dir.display()))?;
                continue;
            }
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        flock(&f, Lock::Shared).map_err(|e| format!("{}: lock: {e}", path.display()))?;
        if !still_at(&f, &path) {
            continue;
        }
        // One write: O_APPEND makes it land whole at the end, whatever other hooks do.
        (&f).write_all(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        return Ok(f.metadata().map(|m| m.len()).unwrap_or(0));
    }
    Err(format!("{}: the spool kept being folded away; line not written", path.display()))
}

/// Moves the live spool aside (when it holds anything and, with `min_bytes`, is at
/// least that large) and returns every spool file waiting to be folded, oldest first.
pub fn take(dir: &Path, min_bytes: u64) -> Result<Vec<PathBuf>, String> {
    let path = dir.join(SPOOL_FILE);
    match File::open(&path) {
        Ok(f) => {
            flock(&f, Lock::Exclusive).map_err(|e| format!("{}: lock: {e}", path.display()))?;
            // Under the exclusive lock no writer is mid-line; recheck that it is still
            // the live spool (another folder may have moved it) and worth moving.
            let size = f.metadata().map(|m| m.len()).unwrap_or(0);
            if still_at(&f, &path) && size > 0 && size >= min_bytes {
                let ns = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
                let aside = dir.join(format!("{FOLD_PREFIX}{ns:020}-{}", std::process::id()));
                std::fs::rename(&path, &aside).map_err(|e| format!("{}: {e}", path.display()))?;
            }
            drop(f);
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(format!("{}: {e}", path.display())),
    }
    waiting(dir)
}

/// Spool files renamed aside and not yet deleted (by this or an earlier, perhaps
/// interrupted, fold), oldest first.
pub fn waiting(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let rd = match std::fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{}: {e}", dir.display())),
    };
    let mut out: Vec<PathBuf> =
        rd.filter_map(Result::ok).map(|e| e.path()).filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(FOLD_PREFIX))).collect();
    out.sort();
    Ok(out)
}

/// Parses one spool file: the lines, and `file:line: why` for each malformed one.
pub fn parse(path: &Path, text: &[u8]) -> (Vec<Line>, Vec<String>) {
    let (mut lines, mut bad) = (Vec::new(), Vec::new());
    for (n, raw) in text.split(|&b| b == b'\n').enumerate() {
        if raw.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match serde_json::from_slice::<Line>(raw) {
            Ok(l) if !l.uid.is_empty() => lines.push(l),
            Ok(_) => bad.push(format!("{}:{}: no uid; skipped", path.display(), n + 1)),
            Err(e) => bad.push(format!("{}:{}: {e}; skipped", path.display(), n + 1)),
        }
    }
    (lines, bad)
}
