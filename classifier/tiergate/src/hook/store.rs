//! The SQLite store: pending one-time codes, single-use grants and the audit log
//! `decisions`, in one database `tiergate.db` under the data directory. Hooks
//! append decisions to the spool (`spool.rs`); `fold_spool` moves them here.
//!
//! WAL, a busy timeout, and `PRAGMA user_version` migrations; every write is one
//! transaction, so a crash leaves either the old or the new row, never half of one.
//! Grants are consumed with `UPDATE … WHERE consumed_at IS NULL` inside an
//! immediate transaction, so concurrent hook processes can never use one grant
//! twice. It does not classify, and it never decides allow: callers turn every
//! `Err` into ask or deny.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};

use super::{clock, spool};

/// A grant lets one retry through within this many seconds of `tiergate approve`.
pub const GRANT_TTL_SECS: i64 = 5 * 60;
/// A code the human never approved stops working after a day.
pub const PENDING_TTL_SECS: i64 = 24 * 60 * 60;
/// How long a writer waits for another process's transaction.
const BUSY_TIMEOUT: Duration = Duration::from_secs(3);
pub const DB_FILE: &str = "tiergate.db";
/// Past this WAL size a closing store checkpoints and truncates the WAL. Every
/// new process re-reads the whole WAL (one `pread` per 1 KiB frame), and since
/// the audit log arrives through the spool (`spool.rs`), only pending codes,
/// grants and folds write here: a small bound costs a checkpoint rarely.
const WAL_TRUNCATE_BYTES: u64 = 32 * 1024;

/// Schema steps: `MIGRATIONS[n]` takes `user_version` n to n + 1. Append only.
/// Code and grant ids never repeat (AUTOINCREMENT), so `revoke 3` and "grant #3"
/// always mean the same row.
const MIGRATIONS: &[&str] = &[
    "
CREATE TABLE pending (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    code       TEXT    NOT NULL UNIQUE,
    signature  TEXT    NOT NULL,
    command    TEXT    NOT NULL,
    rule       TEXT    NOT NULL,
    session    TEXT,
    cwd        TEXT,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX pending_signature ON pending(signature);
CREATE TABLE grants (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    code        TEXT    NOT NULL,
    signature   TEXT    NOT NULL,
    command     TEXT    NOT NULL,
    rule        TEXT    NOT NULL,
    created_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,
    consumed_at INTEGER
);
CREATE INDEX grants_live ON grants(signature) WHERE consumed_at IS NULL;
CREATE TABLE decisions (
    id       INTEGER PRIMARY KEY,
    time     TEXT,
    session  TEXT,
    cwd      TEXT,
    tool     TEXT,
    decision TEXT,
    rule     TEXT,
    command  TEXT
);
",
    "
ALTER TABLE decisions ADD COLUMN agent TEXT;
",
    // v3: rows arrive through the append-only spool (`spool.rs`); `uid` makes a
    // fold that is interrupted and repeated insert each line once.
    "
ALTER TABLE decisions ADD COLUMN uid TEXT;
CREATE UNIQUE INDEX decisions_uid ON decisions(uid);
",
];

/// The data directory: `--data-dir`, `$TIERGATE_DATA_DIR`, `$XDG_DATA_HOME/tiergate`,
/// then `~/.local/share/tiergate`.
pub fn data_dir(flag: Option<&Path>) -> Result<PathBuf, String> {
    if let Some(p) = flag {
        return Ok(p.to_path_buf());
    }
    let env = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(p) = env("TIERGATE_DATA_DIR") {
        return Ok(p);
    }
    if let Some(p) = env("XDG_DATA_HOME") {
        return Ok(p.join("tiergate"));
    }
    match env("HOME") {
        Some(h) => Ok(h.join(".local").join("share").join("tiergate")),
        None => Err("no data directory: set TIERGATE_DATA_DIR, XDG_DATA_HOME or HOME, or pass --data-dir".into()),
    }
}

pub struct Store {
    conn: Connection,
    path: PathBuf,
}

/// One audit-log row, as stored.
#[derive(Clone, Debug)]
pub struct Decision {
    pub time: String,
    pub session: String,
    pub cwd: String,
    /// The coding agent the hook answered (`claude`, `codex`, …; detected or `--agent`).
    pub agent: String,
    pub tool: String,
    pub decision: String,
    pub rule: String,
    pub command: String,
}

#[derive(Clone, Debug)]
pub struct Pending {
    pub id: i64,
    pub code: String,
    pub command: String,
    pub rule: String,
    pub expires_at: i64,
}

#[derive(Clone, Debug)]
pub struct Grant {
    pub id: i64,
    pub code: String,
    pub command: String,
    pub rule: String,
    pub expires_at: i64,
    pub consumed_at: Option<i64>,
}

/// Why `approve` refused.
#[derive(Debug)]
pub enum ApproveError {
    Unknown,
    Expired,
    Blocked(String),
    Store(String),
}

impl Store {
    /// Opens (creating the directory and database if needed) and migrates.
    pub fn open(dir: &Path) -> Result<Store, String> {
        create_private_dir(dir).map_err(|e| format!("{}: cannot create data directory: {e}", dir.display()))?;
        let path = dir.join(DB_FILE);
        let conn = Connection::open(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut store = Store { conn, path };
        store.init().map_err(|e| store.err(e))?;
        Ok(store)
    }

    fn err(&self, e: impl std::fmt::Display) -> String {
        format!("{}: {e}", self.path.display())
    }

    fn init(&mut self) -> rusqlite::Result<()> {
        // `TIERGATE_BUSY_TIMEOUT_MS` shortens the wait (tests of a locked store);
        // a shorter wait can only turn into more errors, which ask or deny.
        let busy = std::env::var("TIERGATE_BUSY_TIMEOUT_MS").ok().and_then(|v| v.parse().ok()).map(Duration::from_millis);
        self.conn.busy_timeout(busy.unwrap_or(BUSY_TIMEOUT))?;
        // WAL + NORMAL is still atomic under a process crash; only an OS crash can
        // lose the last commits, which is cheaper than an fsync per hook call.
        self.conn.execute_batch("PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;")?;
        // Every hook call is a short-lived process, so each would be "the last
        // connection" and checkpoint (and fsync) on close: ~30 ms here. Leave
        // checkpoints to SQLite's auto-checkpoint instead.
        self.conn.set_db_config(rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)?;
        // A fresh process rebuilds the WAL index by reading the whole WAL, so the
        // WAL must stay small: `Drop` truncates it past WAL_TRUNCATE_BYTES. The
        // automatic checkpoint is only a backstop (it cannot truncate, and a new
        // process forgets what it already copied, so it would rerun every call).
        self.conn.execute_batch("PRAGMA wal_autocheckpoint=4000")?;
        let version: i64 = self.conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if version == MIGRATIONS.len() as i64 {
            return Ok(());
        }
        // WAL is a property of the database file, so setting it once, when the
        // schema is created, is enough. It returns the mode as a row. Small pages
        // keep one audit row to about one 1 KiB WAL frame (page_size only takes
        // effect on an empty database).
        self.conn.execute_batch("PRAGMA page_size=1024")?;
        let _mode: String = self.conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))?;
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        // Re-read under the write lock: another process may have migrated meanwhile.
        let version: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if version > MIGRATIONS.len() as i64 {
            return Err(rusqlite::Error::InvalidParameterName(format!(
                "database schema v{version} is newer than this tiergate understands (v{}); upgrade tiergate",
                MIGRATIONS.len()
            )));
        }
        for (n, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
            tx.execute_batch(sql)?;
            tx.execute_batch(&format!("PRAGMA user_version = {}", n + 1))?;
        }
        tx.commit()
    }

    /// Folds the audit log's spool (`spool.rs`) into `decisions`: every waiting
    /// file in one transaction per file, each line once (by `uid`), then deletes the
    /// file. With `min_bytes` the live spool is only taken once it is that large.
    /// Returns (rows inserted, malformed lines as `file:line: why`); a failure
    /// leaves the files to the next fold.
    pub fn fold_spool(&mut self, min_bytes: u64) -> Result<(usize, Vec<String>), String> {
        let dir = self.path.parent().map(Path::to_path_buf).unwrap_or_default();
        let (mut added, mut bad) = (0, Vec::new());
        for file in spool::take(&dir, min_bytes)? {
            let text = match std::fs::read(&file) {
                Ok(t) => t,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue, // another fold finished it
                Err(e) => return Err(format!("{}: {e}", file.display())),
            };
            let (lines, malformed) = spool::parse(&file, &text);
            bad.extend(malformed);
            let run = |conn: &mut Connection| -> rusqlite::Result<usize> {
                let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
                let mut n = 0;
                {
                    let mut st = tx.prepare(
                        "INSERT OR IGNORE INTO decisions(uid, time, session, cwd, agent, tool, decision, rule, command) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9)",
                    )?;
                    for l in &lines {
                        n += st.execute(params![l.uid, l.time, l.session, l.cwd, l.agent, l.tool, l.decision, l.rule, l.command])?;
                    }
                }
                tx.commit()?;
                Ok(n)
            };
            added += run(&mut self.conn).map_err(|e| self.err(e))?;
            match std::fs::remove_file(&file) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(format!("{}: folded but not removed: {e}", file.display())),
            }
        }
        Ok((added, bad))
    }

    /// Consumes one live grant for `signature`, returning its id; `None` if there is none.
    pub fn consume_grant(&mut self, signature: &str, now: i64) -> Result<Option<i64>, String> {
        let run = |conn: &mut Connection| -> rusqlite::Result<Option<i64>> {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let id = tx
                .query_row(
                    "UPDATE grants SET consumed_at = ?1
                     WHERE consumed_at IS NULL AND id = (
                         SELECT id FROM grants
                         WHERE signature = ?2 AND consumed_at IS NULL AND expires_at > ?1
                         ORDER BY id LIMIT 1)
                     RETURNING id",
                    params![now, signature],
                    |r| r.get(0),
                )
                .optional()?;
            tx.commit()?;
            Ok(id)
        };
        run(&mut self.conn).map_err(|e| self.err(e))
    }

    /// The live code for `signature`, or a fresh one recorded as pending.
    pub fn pending_code(&mut self, signature: &str, command: &str, rule: &str, session: &str, cwd: &str, now: i64) -> Result<String, String> {
        let mut last = String::new();
        for _ in 0..3 {
            let code = clock::random_code()?;
            let run = |conn: &mut Connection| -> rusqlite::Result<String> {
                let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
                let live: Option<String> = tx
                    .query_row("SELECT code FROM pending WHERE signature = ?1 AND expires_at > ?2 ORDER BY id LIMIT 1", params![signature, now], |r| r.get(0))
                    .optional()?;
                if let Some(c) = live {
                    return Ok(c);
                }
                tx.execute(
                    "INSERT INTO pending(code, signature, command, rule, session, cwd, created_at, expires_at)
                     VALUES (?1,?2,?3,?4,?5,?6,?7,?8)",
                    params![code, signature, command, rule, session, cwd, now, now + PENDING_TTL_SECS],
                )?;
                tx.commit()?;
                Ok(code.clone())
            };
            match run(&mut self.conn) {
                Ok(c) => return Ok(c),
                // A code collision (UNIQUE): draw again.
                Err(rusqlite::Error::SqliteFailure(e, m)) if e.code == rusqlite::ErrorCode::ConstraintViolation => {
                    last = m.unwrap_or_default();
                }
                Err(e) => return Err(self.err(e)),
            }
        }
        Err(self.err(format!("could not draw a unique code ({last})")))
    }

    /// Turns a pending code into a single-use grant. Refuses unknown, expired
    /// and blocked-rule codes (a blocked command is never approvable).
    pub fn approve(&mut self, code: &str, now: i64) -> Result<Grant, ApproveError> {
        let path = self.path.clone();
        let db = |e: rusqlite::Error| ApproveError::Store(format!("{}: {e}", path.display()));
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(db)?;
        let row: Option<(i64, String, String, String, i64)> = tx
            .query_row("SELECT id, signature, command, rule, expires_at FROM pending WHERE code = ?1", params![code], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
            })
            .optional()
            .map_err(db)?;
        let Some((id, signature, command, rule, expires_at)) = row else { return Err(ApproveError::Unknown) };
        tx.execute("DELETE FROM pending WHERE id = ?1", params![id]).map_err(db)?;
        let refusal = if expires_at <= now {
            Some(ApproveError::Expired)
        } else if signature.is_empty() || classifier::rules::find(&rule).is_some_and(|r| r.blocked) {
            Some(ApproveError::Blocked(rule.clone()))
        } else {
            None
        };
        if let Some(r) = refusal {
            // The refused code is spent either way; commit its removal.
            tx.commit().map_err(db)?;
            return Err(r);
        }
        let expires_at = now + GRANT_TTL_SECS;
        tx.execute(
            "INSERT INTO grants(code, signature, command, rule, created_at, expires_at) VALUES (?1,?2,?3,?4,?5,?6)",
            params![code, signature, command, rule, now, expires_at],
        )
        .map_err(db)?;
        let gid = tx.last_insert_rowid();
        tx.commit().map_err(db)?;
        Ok(Grant { id: gid, code: code.to_owned(), command, rule, expires_at, consumed_at: None })
    }

    /// Every pending code and every grant (live, consumed or expired), oldest first.
    pub fn list(&self) -> Result<(Vec<Pending>, Vec<Grant>), String> {
        let run = || -> rusqlite::Result<(Vec<Pending>, Vec<Grant>)> {
            let mut st = self.conn.prepare("SELECT id, code, command, rule, expires_at FROM pending ORDER BY id")?;
            let pending = st
                .query_map([], |r| Ok(Pending { id: r.get(0)?, code: r.get(1)?, command: r.get(2)?, rule: r.get(3)?, expires_at: r.get(4)? }))?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            let mut st = self.conn.prepare("SELECT id, code, command, rule, expires_at, consumed_at FROM grants ORDER BY id")?;
            let grants = st
                .query_map([], |r| {
                    Ok(Grant { id: r.get(0)?, code: r.get(1)?, command: r.get(2)?, rule: r.get(3)?, expires_at: r.get(4)?, consumed_at: r.get(5)? })
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok((pending, grants))
        };
        run().map_err(|e| self.err(e))
    }

    /// Deletes one unconsumed grant; false if there is no such live grant.
    pub fn revoke(&self, id: i64) -> Result<bool, String> {
        self.delete("DELETE FROM grants WHERE id = ?1 AND consumed_at IS NULL", params![id]).map(|n| n > 0)
    }

    /// Deletes one pending code, by code or by id.
    pub fn reject(&self, code_or_id: &str) -> Result<bool, String> {
        let id: i64 = code_or_id.parse().unwrap_or(-1);
        let code = clock::normalise_code(code_or_id);
        self.delete("DELETE FROM pending WHERE code = ?1 OR id = ?2", params![code, id]).map(|n| n > 0)
    }

    pub fn reject_all(&self) -> Result<usize, String> {
        self.delete("DELETE FROM pending", [])
    }

    /// Deletes expired pending codes and spent or expired grants: (pending, grants).
    pub fn clean(&self, now: i64) -> Result<(usize, usize), String> {
        let p = self.delete("DELETE FROM pending WHERE expires_at <= ?1", params![now])?;
        let g = self.delete("DELETE FROM grants WHERE consumed_at IS NOT NULL OR expires_at <= ?1", params![now])?;
        Ok((p, g))
    }

    fn delete(&self, sql: &str, p: impl rusqlite::Params) -> Result<usize, String> {
        self.conn.execute(sql, p).map_err(|e| self.err(e))
    }

    /// The last `n` decisions, oldest first.
    pub fn recent(&self, n: u32) -> Result<Vec<Decision>, String> {
        let run = || -> rusqlite::Result<Vec<Decision>> {
            let mut st = self.conn.prepare(
                "SELECT time, session, cwd, tool, decision, rule, command, agent FROM
                 (SELECT * FROM decisions ORDER BY id DESC LIMIT ?1) ORDER BY id",
            )?;
            let rows = st.query_map(params![n], |r| {
                let s = |i: usize| r.get::<_, Option<String>>(i).map(Option::unwrap_or_default);
                Ok(Decision { time: s(0)?, session: s(1)?, cwd: s(2)?, tool: s(3)?, decision: s(4)?, rule: s(5)?, command: s(6)?, agent: s(7)? })
            })?;
            rows.collect()
        };
        run().map_err(|e| self.err(e))
    }
}

impl Drop for Store {
    fn drop(&mut self) {
        let mut wal = self.path.clone().into_os_string();
        wal.push("-wal");
        if std::fs::metadata(&wal).map_or(true, |m| m.len() <= WAL_TRUNCATE_BYTES) {
            return;
        }
        // Best effort with a short wait: a busy or failed checkpoint only means
        // the next process tries again; it never affects a decision.
        let _ = self.conn.busy_timeout(Duration::from_millis(20));
        let _ = self.conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
    }
}

pub(crate) fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    let mut b = std::fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
    b.create(dir)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn temp_dir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("tiergate-store-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn grants_are_single_use_and_expire() {
        let dir = temp_dir("single");
        let mut s = Store::open(&dir).unwrap();
        let code = s.pending_code("sig", "git push", "git.push", "s", "/w", 100).unwrap();
        assert_eq!(s.pending_code("sig", "git push", "git.push", "s", "/w", 101).unwrap(), code, "a retry reuses the code");
        assert!(s.consume_grant("sig", 102).unwrap().is_none(), "no grant before approve");
        let g = s.approve(&code, 103).unwrap();
        assert!(matches!(s.approve(&code, 104), Err(ApproveError::Unknown)), "a code approves once");
        assert!(s.consume_grant("other", 105).unwrap().is_none());
        assert_eq!(s.consume_grant("sig", 105).unwrap(), Some(g.id));
        assert!(s.consume_grant("sig", 106).unwrap().is_none(), "consumed");
        let code = s.pending_code("sig", "git push", "git.push", "s", "/w", 200).unwrap();
        s.approve(&code, 200).unwrap();
        assert!(s.consume_grant("sig", 200 + GRANT_TTL_SECS).unwrap().is_none(), "expired");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_wal_stays_small_across_many_short_lived_stores() {
        let dir = temp_dir("wal");
        let row = Decision {
            time: "t".into(),
            session: "s".into(),
            cwd: "/w".into(),
            agent: "claude".into(),
            tool: "Bash".into(),
            decision: "allow".into(),
            rule: "r".into(),
            command: "git status --short".into(),
        };
        // Folds of a few rows each, every one from a fresh store, as hooks and
        // `tiergate log` would do them.
        for _ in 0..200 {
            for _ in 0..3 {
                spool::append(&dir, &row).unwrap();
            }
            Store::open(&dir).unwrap().fold_spool(0).unwrap();
        }
        let wal = std::fs::metadata(dir.join("tiergate.db-wal")).map_or(0, |m| m.len());
        assert!(wal <= WAL_TRUNCATE_BYTES + 8 * 1024, "WAL grew to {wal} bytes");
        assert_eq!(Store::open(&dir).unwrap().recent(1000).unwrap().len(), 600, "no row lost to a checkpoint");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_fold_repeated_after_a_crash_inserts_each_line_once() {
        let dir = temp_dir("refold");
        let row = Decision {
            time: "t".into(),
            session: "s".into(),
            cwd: "/w".into(),
            agent: "claude".into(),
            tool: "Bash".into(),
            decision: "ask".into(),
            rule: "r".into(),
            command: "git push".into(),
        };
        for _ in 0..5 {
            spool::append(&dir, &row).unwrap();
        }
        // A fold that committed but died before deleting its file: the copy is folded again.
        let aside = spool::take(&dir, 0).unwrap();
        assert_eq!(aside.len(), 1);
        let copy = dir.join("tiergate.db-log.fold-0-copy");
        std::fs::copy(&aside[0], &copy).unwrap();
        std::fs::OpenOptions::new().append(true).open(&copy).unwrap().write_all(b"{not json\n").unwrap();
        let mut s = Store::open(&dir).unwrap();
        let (added, bad) = s.fold_spool(0).unwrap();
        assert_eq!((added, bad.len()), (5, 1), "{bad:?}");
        assert!(bad[0].contains("fold-0-copy:6:"), "{bad:?}");
        assert_eq!(s.recent(100).unwrap().len(), 5);
        assert!(spool::waiting(&dir).unwrap().is_empty(), "folded files are removed");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn empty_signature_is_never_approvable() {
        let dir = temp_dir("empty");
        let mut s = Store::open(&dir).unwrap();
        let code = s.pending_code("", "x", "parse.unsupported", "", "", 1).unwrap();
        assert!(matches!(s.approve(&code, 2), Err(ApproveError::Blocked(_))));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
