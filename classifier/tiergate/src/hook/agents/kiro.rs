//! Kiro CLI `PreToolUse`: Claude-shaped input, shell tools `execute_bash`,
//! `shell`, `execute_cmd`. Exit codes only: allow is exit 0 and silence; deny
//! (T3 with its code, blocked, errors) is exit 2 with the reason on stderr,
//! which Kiro feeds to the model.
//!
//! Golden examples (run as written by tests/it/hook_agents.rs; shapes from HOOKS.md, from nah's Kiro tests):
//! in  `{"hook_event_name":"PreToolUse","cwd":"/repo","session_id":"s","tool_name":"execute_bash","tool_input":{"command":"git status"}}`
//! out nothing, exit 0
//! in  `{"hook_event_name":"PreToolUse","cwd":"/repo","session_id":"s","tool_name":"shell","tool_input":{"command":"rm -rf /"}}`
//! out stderr `tiergate BLOCKED (…never approvable.`, exit 2

use serde_json::{Map, Value};

use super::{read_claude_shape, Event, Format, Install};

pub fn read(o: &Map<String, Value>) -> Result<Event, String> {
    let mut ev = read_claude_shape(o, &["PreToolUse", "preToolUse"])?;
    ev.asks = false;
    Ok(ev)
}

pub static INSTALL: Install = Install {
    file: ".kiro/hooks/tiergate.json",
    format: Format::Script,
    snippet: r#"{"version": "v1", "hooks": [{"name": "tiergate", "description": "tiergate shell command gate", "trigger": "PreToolUse",
  "action": {"type": "command", "command": "tiergate hook --agent kiro || exit 2"}, "timeout": 10, "enabled": true}]}"#,
    notes: "Kiro CLI 3 reads ~/.kiro/hooks/*.json; Kiro CLI 2 embeds hooks in each agent config. Only exit code 2 blocks: T3 commands are blocked with a code for `tiergate approve CODE`.",
    probe: r#"{"hook_event_name":"PreToolUse","cwd":$CWD,"session_id":"tiergate-doctor","tool_name":"execute_bash","tool_input":{"command":"git status"}}"#,
    shell_tools: &[],
};
