//! tiergate's own hook log: a SQLite file with a `decisions` table
//! (`time, session, cwd, tool, decision, rule, command`, as the hook's store creates
//! it). Read tolerantly: only `command` is required; `cwd` is used when present;
//! when a `tool` column exists only `Bash` rows (or rows with no tool) are commands.
//! Opened read-only; never written.

use std::path::Path;

use anyhow::{bail, Context};

use super::{columns, open_read_only, Acc, Imported};

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
    let mut st = c.prepare(&sql).with_context(|| format!("{label}: reading decisions"))?;
    let mut rows = st.query([])?;
    let mut acc = Acc::default();
    let mut n = 0usize;
    while let Some(r) = rows.next()? {
        n += 1;
        let command: Option<Vec<u8>> = r.get(0)?;
        let cwd: Option<Vec<u8>> = r.get(1)?;
        let count: i64 = r.get(2)?;
        // Write/Edit decisions may log no command.
        let Some(command) = command else { continue };
        let Ok(command) = String::from_utf8(command) else {
            acc.bad(&label, n, "command is not valid UTF-8; skipped");
            continue;
        };
        let cwd = cwd.and_then(|b| String::from_utf8(b).ok()).filter(|s| !s.is_empty());
        acc.add(command, cwd, count.max(0) as u64);
    }
    Ok(acc.finish())
}
