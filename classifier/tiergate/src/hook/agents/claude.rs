//! Claude Code `PreToolUse` (the fixed contract): `tool_name`, `tool_input`,
//! `cwd`, `session_id` in; one `hookSpecificOutput` object out, exit 0.
//! Shell tools `Bash`, `Monitor` (POSIX) and `PowerShell`; file tools
//! Write / Edit / MultiEdit / NotebookEdit. Cursor also runs these hooks from
//! `~/.claude/settings.json`, renaming `Bash` to `Shell`; there `ask` acts as
//! deny, so such events get the nonce flow.
//!
//! `ask` is real in `default`, `acceptEdits` and `plan`; under
//! `bypassPermissions`, `dontAsk` and `auto` it is ignored or auto-approved
//! (claude-code #77212, #89561), so those get the nonce flow too. `defer` is
//! never sent: it only works in `-p` with one tool call per turn, and tiergate
//! cannot tell `-p` from an interactive session (see docs/hooks.md).
//!
//! Golden examples (run as written by tests/it/hook_agents.rs; shapes from HOOKS.md, from the Claude hooks reference):
//! in  `{"session_id":"abc123","cwd":"/home/user/my-project","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"npm test"},"tool_use_id":"toolu_01ABC123"}`
//! out `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"tiergate T3 (…"}}`, exit 0
//! in  `{"session_id":"abc123","transcript_path":"/t.jsonl","cwd":"/repo","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"PowerShell","tool_input":{"command":"Get-ChildItem -Recurse"},"tool_use_id":"toolu_01"}`
//! out `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"tiergate T0 (powershell.read)…"}}`, exit 0

use serde_json::{Map, Value};

use super::{claude_json, opt_str, read_claude_shape, Event, Format, Install, Out};
use crate::hook::Answer;

pub fn read(o: &Map<String, Value>) -> Result<Event, String> {
    let mut ev = read_claude_shape(o, &["PreToolUse"])?;
    let mode = opt_str(o, "permission_mode").unwrap_or("default");
    let via_cursor = o.contains_key("cursor_version") || ev.calls.iter().any(|c| c.tool == "Shell") || std::env::var_os("CURSOR_VERSION").is_some();
    ev.asks = !via_cursor && !matches!(mode, "bypassPermissions" | "dontAsk" | "auto");
    Ok(ev)
}

pub fn render(a: Option<&Answer>) -> Out {
    a.map_or_else(Out::silent, |a| Out::json(claude_json(a)))
}

pub static INSTALL: Install = Install {
    file: ".claude/settings.json",
    format: Format::Json,
    snippet: r#"{"hooks": {"PreToolUse": [{"matcher": "Bash|PowerShell|Monitor|Shell|run_in_terminal|runTerminalCommand|runInTerminal|Write|Edit|MultiEdit|NotebookEdit",
  "hooks": [{"type": "command", "command": "tiergate hook", "timeout": 10}]}]}}"#,
    notes:
        "User scope: ~/.claude/settings.json (every project). VS Code agent mode and Cursor's third-party hooks load this file too, with their own tool names \
(run_in_terminal / runTerminalCommand, Shell): the matcher covers them, and the command has no --agent so each event is answered in its sender's form. \
Project scope: <project>/.claude/settings.json or .claude/settings.local.json. `tiergate` must be on the PATH Claude Code sees, \
else put its absolute path in `command`. A timed-out or missing hook does not block on Claude Code: keep the timeout explicit.",
    probe: r#"{"session_id":"tiergate-doctor","cwd":$CWD,"permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git status"},"tool_use_id":"toolu_doctor"}"#,
    shell_tools: &["Bash", "PowerShell", "Monitor"],
};
