//! tiergate's own hook log: a SQLite file with a `decisions` table
//! (`time, session, cwd, tool, decision, rule, command`, as the hook's store creates
//! it), read as sessions: each decision a step of its `session`, in the order it was
//! logged. Read tolerantly: only `command` is required; `session` and `cwd` are used
//! when present;
//! when a `tool` column exists only rows of a POSIX shell tool (any agent's: `Bash`,
//! Cursor's `Shell`, VS Code's `run_in_terminal`, …; `SHELL_TOOLS`) or with no tool are
//! commands — not PowerShell, file tools or unknown tools.
//! A step the hook denied never ran, and one it asked about may not have; both are
//! replayed as steps all the same (the log does not say what the user answered).
//! Opened read-only; never written. The hook appends decisions to a JSON-lines
//! spool next to the database (`tiergate.db-log`, plus `tiergate.db-log.fold-*`
//! while a fold runs; tiergate `hook/spool.rs`) that `tiergate log` folds in; the
//! spool is read too (read-only, lines already folded skipped by `uid`).

use std::path::Path;

use anyhow::bail;

use super::{columns, open_read_only, Imported, ImportedStep};

/// The spool is the database's file name plus this (`tiergate.db-log`); a spool
/// renamed aside by a fold adds `.fold-…`.
const SPOOL_SUFFIX: &str = "-log";

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

/// The source name of these sessions in reports.
const SOURCE: &str = "hook-log";

/// A session name as reports and row ids carry it (no `/`; none recorded: `no-session`).
fn session_name(s: &str) -> String {
    if s.is_empty() {
        "no-session".to_owned()
    } else {
        s.replace('/', "_")
    }
}

pub(crate) fn import(path: &Path) -> anyhow::Result<Imported> {
    let label = path.display().to_string();
    let c = open_read_only(path)?;
    let cols = columns(&c, "decisions");
    let has = |n: &str| cols.iter().any(|c| c == n);
    if !has("command") {
        bail!("{label}: hook log `decisions` table has no `command` column (columns: {})", cols.join(", "));
    }
    let col = |n: &'static str| if has(n) { n } else { "NULL" };
    let tools = SHELL_TOOLS.iter().map(|t| format!("'{t}'")).collect::<Vec<_>>().join(", ");
    let filter = if has("tool") { format!("WHERE (tool IS NULL OR tool IN ({tools}))") } else { String::new() };
    let sql = format!("SELECT CAST({} AS BLOB), CAST({} AS BLOB), CAST(command AS BLOB) FROM decisions {filter} ORDER BY rowid", col("session"), col("cwd"));
    let mut out = Imported::default();
    let text = |b: Option<Vec<u8>>| b.and_then(|b| String::from_utf8(b).ok()).unwrap_or_default();
    {
        let mut st = c.prepare(&sql)?;
        let mut rows = st.query([])?;
        let mut n = 0usize;
        while let Some(r) = rows.next()? {
            n += 1;
            let (session, cwd): (Option<Vec<u8>>, Option<Vec<u8>>) = (r.get(0)?, r.get(1)?);
            // A NULL command is a file tool's row (Write, Edit): no command to replay.
            let Some(command) = r.get::<_, Option<Vec<u8>>>(2)? else { continue };
            let Ok(command) = String::from_utf8(command) else {
                out.malformed.push(format!("{label}:{n}: command is not valid UTF-8; skipped"));
                continue;
            };
            let cwd = Some(text(cwd)).filter(|c| !c.is_empty());
            push(&mut out, &text(session), cwd, command);
        }
    }
    let folded: std::collections::HashSet<String> = if has("uid") {
        let mut st = c.prepare("SELECT uid FROM decisions WHERE uid IS NOT NULL")?;
        let uids = st.query_map([], |r| r.get::<_, String>(0))?.filter_map(Result::ok).collect();
        uids
    } else {
        Default::default()
    };
    for file in spool_files(path) {
        let Ok(bytes) = std::fs::read(&file) else { continue }; // folded away meanwhile
        let label = file.display().to_string();
        for (n, raw) in bytes.split(|&b| b == b'\n').enumerate() {
            if raw.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let v: serde_json::Value = match serde_json::from_slice(raw) {
                Ok(v) => v,
                Err(e) => {
                    out.malformed.push(format!("{label}:{}: not JSON ({e}); skipped", n + 1));
                    continue;
                }
            };
            let field = |k: &str| v.get(k).and_then(serde_json::Value::as_str).unwrap_or_default();
            if folded.contains(field("uid")) || !(field("tool").is_empty() || SHELL_TOOLS.contains(&field("tool"))) {
                continue;
            }
            let cwd = Some(field("cwd").to_owned()).filter(|c| !c.is_empty());
            push(&mut out, field("session"), cwd, field("command").to_owned());
        }
    }
    Ok(out)
}

/// One decision as the next step of its session (an empty command is none).
fn push(out: &mut Imported, session: &str, cwd: Option<String>, command: String) {
    if !command.trim().is_empty() {
        out.steps.push(ImportedStep { source: SOURCE, session: session_name(session), cwd, command });
    }
}

/// The spool files of the database at `db`, the live spool last.
fn spool_files(db: &Path) -> Vec<std::path::PathBuf> {
    let (Some(dir), Some(name)) = (db.parent(), db.file_name().and_then(|n| n.to_str())) else { return Vec::new() };
    let live = format!("{name}{SPOOL_SUFFIX}");
    let aside = format!("{live}.fold-");
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok).map(|e| e.path()).filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(&aside))).collect()
        })
        .unwrap_or_default();
    out.sort();
    out.push(dir.join(live));
    out
}
