//! tiergate's own hook log: a SQLite file with a `decisions` table
//! (`time, session, cwd, tool, decision, rule, command`, as the hook's store creates
//! it). Read tolerantly: only `command` is required; `cwd` is used when present;
//! when a `tool` column exists only `Bash` rows (or rows with no tool) are commands.
//! Opened read-only; never written.

use std::path::Path;

use anyhow::bail;

use super::{columns, grouped_rows, open_read_only, Imported};

/// True when the SQLite file at `path` has a `decisions` table (and so is a hook log).
pub(crate) fn is_hook_log(path: &Path) -> bool {
    open_read_only(path).map(|c| !columns(&c, "decisions").is_empty()).unwrap_or(false)
}

pub(crate) fn import(path: &Path) -> anyhow::Result<Imported> {
    let label = path.display().to_string();
    let c = open_read_only(path)?;
    let cols = columns(&c, "decisions");
    let has = |n: &str| cols.iter().any(|c| c == n);
    if !has("command") {
        bail!("{label}: hook log `decisions` table has no `command` column (columns: {})", cols.join(", "));
    }
    let cwd = if has("cwd") { "cwd" } else { "NULL" };
    let filter = if has("tool") { "WHERE (tool IS NULL OR tool = 'Bash')" } else { "" };
    let sql = format!(
        "SELECT CAST(command AS BLOB), CAST({cwd} AS BLOB), count(*) FROM decisions {filter} \
         GROUP BY command, {cwd} ORDER BY min(rowid)"
    );
    grouped_rows(&c, &sql, &label, false, &[])
}
