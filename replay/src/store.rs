//! The verdict cache: SQLite at `target/replay/cache.sqlite`, keyed by (build id,
//! command, cwd, after), so an unchanged binary never re-answers a command it
//! answered before. `after` is empty for a command on its own; for a step of an
//! agent's session it is a digest of the session's earlier steps, whose writes the
//! step may read (crate::sides). Error verdicts are never stored. WAL and a busy
//! timeout make concurrent replays safe. It does not decide what a build id is
//! (build.rs does).

use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

use rusqlite::{params, Connection};

use crate::protocol::{Class, Verdict};

pub struct Store {
    conn: Connection,
}

/// (command, cwd or "", after or "") → verdict, for one build.
pub type Answers = HashMap<(String, String, String), Verdict>;

impl Store {
    pub fn open(path: &Path) -> rusqlite::Result<Store> {
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let conn = Connection::open(path)?;
        conn.busy_timeout(Duration::from_secs(10))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.execute_batch("BEGIN IMMEDIATE")?;
        let migrated = migrate(&conn);
        conn.execute_batch(if migrated.is_ok() { "COMMIT" } else { "ROLLBACK" })?;
        migrated?;
        Ok(Store { conn })
    }

    /// Every cached answer of `build`.
    pub fn load(&self, build: &str) -> rusqlite::Result<Answers> {
        let mut stmt = self.conn.prepare("SELECT command, cwd, after, class, rule, reason FROM verdicts WHERE build = ?1")?;
        let rows = stmt.query_map(params![build], |r| {
            Ok((
                (r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?),
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, String>(5)?,
            ))
        })?;
        let mut out = HashMap::new();
        for row in rows {
            let (key, class, rule, reason) = row?;
            // A row with an unknown class (written by a future harness) is just a miss.
            if let Some(class) = Class::parse(&class) {
                out.insert(key, Verdict { class, rule, reason, error: None });
            }
        }
        Ok(out)
    }

    /// One cached answer of a command on its own, if any.
    pub fn get(&self, build: &str, command: &str, cwd: &str) -> Option<Verdict> {
        self.conn
            .query_row(
                "SELECT class, rule, reason FROM verdicts WHERE build = ?1 AND command = ?2 AND cwd = ?3 AND after = ''",
                params![build, command, cwd],
                |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?)),
            )
            .ok()
            .and_then(|(c, rule, reason)| Class::parse(&c).map(|class| Verdict { class, rule, reason, error: None }))
    }

    /// Stores answers of `build`, each (command, cwd, after, verdict), in one
    /// transaction (error verdicts skipped).
    pub fn insert<'a>(&mut self, build: &str, items: impl Iterator<Item = (&'a str, &'a str, &'a str, &'a Verdict)>) -> rusqlite::Result<()> {
        let tx = self.conn.transaction()?;
        {
            let mut stmt =
                tx.prepare("INSERT OR REPLACE INTO verdicts (build, command, cwd, after, class, rule, reason) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")?;
            for (command, cwd, after, v) in items.filter(|(_, _, _, v)| !v.is_error()) {
                stmt.execute(params![build, command, cwd, after, v.class.as_str(), v.rule, v.reason])?;
            }
        }
        tx.commit()
    }

    /// Drops every answer of `build` (a throw-away binary, e.g. one mutant).
    pub fn forget(&mut self, build: &str) -> rusqlite::Result<usize> {
        self.conn.execute("DELETE FROM verdicts WHERE build = ?1", params![build])
    }
}

/// Creates the table, or moves a cache written before `after` existed into the
/// current shape (its rows are commands on their own: `after` empty).
fn migrate(conn: &Connection) -> rusqlite::Result<()> {
    let cols: Vec<String> = conn.prepare("PRAGMA table_info(verdicts)")?.query_map([], |r| r.get::<_, String>(1))?.collect::<Result<_, _>>()?;
    let old = !cols.is_empty() && !cols.iter().any(|c| c == "after");
    if old {
        conn.execute_batch("ALTER TABLE verdicts RENAME TO verdicts_without_after;")?;
    }
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS verdicts (
            build TEXT NOT NULL, command TEXT NOT NULL, cwd TEXT NOT NULL, after TEXT NOT NULL,
            class TEXT NOT NULL, rule TEXT NOT NULL, reason TEXT NOT NULL,
            PRIMARY KEY (build, command, cwd, after)) WITHOUT ROWID;",
    )?;
    if old {
        conn.execute_batch(
            "INSERT OR IGNORE INTO verdicts SELECT build, command, cwd, '', class, rule, reason FROM verdicts_without_after;
             DROP TABLE verdicts_without_after;",
        )?;
    }
    Ok(())
}
