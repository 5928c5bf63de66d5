//! tiergate's own hook log: a SQLite file with a `decisions` table
//! (`time, session, cwd, tool, decision, rule, command`, as the hook's store creates
//! it). Read tolerantly: only `command` is required; `cwd` is used when present;
//! when a `tool` column exists only rows of a POSIX shell tool (any agent's: `Bash`,
//! Cursor's `Shell`, VS Code's `run_in_terminal`, …; `SHELL_TOOLS`) or with no tool are
//! commands — not PowerShell, file tools or unknown tools.
//! Opened read-only; never written.

use std::path::Path;

use anyhow::bail;

use super::{columns, grouped_rows, open_read_only, Imported};

/// The hook's POSIX shell tools across agents (tiergate `hook/agents.rs` `BASH_TOOLS`,
/// plus Cursor's and Windsurf's shell events); kept in step by hand, since replay
/// never depends on the classifier.
const SHELL_TOOLS: &[&str] = &[
    "Bash", "Monitor", "Shell", "run_in_terminal", "runTerminalCommand", "runInTerminal", "run_shell_command", "Execute", "execute_bash", "execute_cmd",
    "shell", "launch-process", "execute_command", "run_commands", "shell_command", "bash", "exec_command", "run_terminal_cmd", "terminal",
    "beforeShellExecution", "pre_run_command",
];

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
    let tools = SHELL_TOOLS.iter().map(|t| format!("'{t}'")).collect::<Vec<_>>().join(", ");
    let filter = if has("tool") { format!("WHERE (tool IS NULL OR tool IN ({tools}))") } else { String::new() };
    let sql = format!(
        "SELECT CAST(command AS BLOB), CAST({cwd} AS BLOB), count(*) FROM decisions {filter} \
         GROUP BY command, {cwd} ORDER BY min(rowid)"
    );
    grouped_rows(&c, &sql, &label, false, &[])
}
