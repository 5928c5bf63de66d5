//! Augment (Auggie CLI) `PreToolUse`: Claude-shaped input, shell tool
//! `launch-process`. Its docs describe only exit 2 + stderr, so that is all
//! tiergate uses: allow is exit 0 and silence; deny (T3 with its code,
//! blocked, errors) is exit 2 with the reason on stderr.
//!
//! Golden examples (run as written by tests/it/hook_agents.rs; shapes from HOOKS.md, from Augment's hooks docs):
//! in  `{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/repo","tool_name":"launch-process","tool_input":{"command":"git push origin main"}}`
//! out stderr `tiergate T3 (git.push)…tiergate approve …`, exit 2

use serde_json::{Map, Value};

use super::{read_claude_shape, Event, Format, Install};

pub fn read(o: &Map<String, Value>) -> Result<Event, String> {
    let mut ev = read_claude_shape(o, &["PreToolUse"])?;
    ev.asks = false;
    Ok(ev)
}

pub static INSTALL: Install = Install {
    file: ".augment/settings.json",
    format: Format::Json,
    snippet: r#"{"hooks": {"PreToolUse": [{"matcher": "launch-process",
  "hooks": [{"type": "command", "command": "tiergate hook --agent augment || exit 2", "timeout": 10000}]}]}}"#,
    notes: "Augment's timeout is in milliseconds. Workspace scope: .augment/settings.json. Only exit code 2 blocks: T3 commands are blocked with a code for `tiergate approve CODE`.",
    probe: r#"{"hook_event_name":"PreToolUse","session_id":"tiergate-doctor","cwd":$CWD,"tool_name":"launch-process","tool_input":{"command":"git status"}}"#,
    shell_tools: &["launch-process"],
};
