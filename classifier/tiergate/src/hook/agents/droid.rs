//! Factory Droid: Claude-shaped `PreToolUse`, shell tool `Execute`, Claude-shaped
//! `permissionDecision allow|deny|ask`. Droid takes the *first* hook result that
//! carries a decision (rtk-ai/rtk #2267), so an `allow` could mask another
//! guard's deny: allow is written as silence. Ask is native.
//!
//! Golden examples (run as written by tests/it/hook_agents.rs; shapes from HOOKS.md, from nah's Droid tests):
//! in  `{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/repo","tool_name":"Execute","tool_input":{"command":"git status"}}`
//! out nothing, exit 0
//! in  `{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/repo","tool_name":"Execute","tool_input":{"command":"git push origin main"}}`
//! out `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"tiergate T3 (git.push)…"}}`, exit 0

use classifier::Decision;
use serde_json::{Map, Value};

use super::{claude_json, read_claude_shape, Event, Format, Install, Out};
use crate::hook::Answer;

pub fn read(o: &Map<String, Value>) -> Result<Event, String> {
    read_claude_shape(o, &["PreToolUse"])
}

pub fn render(a: Option<&Answer>) -> Out {
    match a {
        Some(a) if a.decision != Decision::Allow => Out::json(claude_json(a)),
        _ => Out::silent(),
    }
}

pub static INSTALL: Install = Install {
    file: ".factory/hooks.json",
    format: Format::Json,
    snippet: r#"{"hooks": {"PreToolUse": [{"matcher": "Execute",
  "hooks": [{"type": "command", "command": "tiergate hook --agent droid || exit 2", "timeout": 10}]}]}}"#,
    notes: "Droid snapshots hooks at startup: restart droid, then review the change in /hooks. Project scope: <project>/.factory/hooks.json.",
    probe: r#"{"hook_event_name":"PreToolUse","session_id":"tiergate-doctor","cwd":$CWD,"tool_name":"Execute","tool_input":{"command":"git status"}}"#,
    shell_tools: &["Execute"],
};
