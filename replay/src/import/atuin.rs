//! atuin's SQLite `history.db` (`~/.atuin/data/history.db` or
//! `~/.local/share/atuin/history.db`), opened read-only and never written. Rows with
//! `deleted_at` set are soft-deleted and skipped. When the `author_kind` column exists
//! (atuin 18.24+) and any row has `author_kind = 2`, only those agent-run commands are
//! imported; otherwise every command is. Counts per (command, cwd) are the weights;
//! atuin's `cwd = "unknown"` (imported rows) means no cwd.

use std::path::Path;

use anyhow::{bail, Context};

use super::{columns, grouped_rows, open_read_only, Imported};

pub(crate) fn import(path: &Path) -> anyhow::Result<Imported> {
    let label = path.display().to_string();
    let c = open_read_only(path)?;
    let cols = columns(&c, "history");
    if !cols.iter().any(|n| n == "command") {
        bail!("{label}: SQLite file has no atuin `history` table with a `command` column (and no tiergate `decisions` table)");
    }
    let has = |n: &str| cols.iter().any(|c| c == n);
    let mut filter = String::from("WHERE 1=1");
    if has("deleted_at") {
        filter.push_str(" AND deleted_at IS NULL");
    }
    if has("author_kind") {
        let agents: i64 = c
            .query_row(&format!("SELECT count(*) FROM history {filter} AND author_kind = 2"), [], |r| r.get(0))
            .with_context(|| format!("{label}: counting agent-run rows"))?;
        if agents > 0 {
            filter.push_str(" AND author_kind = 2");
        }
    }
    let cwd = if has("cwd") { "cwd" } else { "NULL" };
    let sql = format!(
        "SELECT CAST(command AS BLOB), CAST({cwd} AS BLOB), count(*) FROM history {filter} \
         GROUP BY command, {cwd} ORDER BY min(rowid)"
    );
    grouped_rows(&c, &sql, &label, true, &["unknown"])
}
