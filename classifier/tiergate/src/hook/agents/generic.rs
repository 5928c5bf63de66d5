//! A Claude-shaped event (`tool_name`, `tool_input`) from an agent that cannot
//! be told apart: none of Claude Code's always-present fields
//! (`transcript_path`, `permission_mode`, `tool_use_id`) and no other agent's
//! marks. Kiro, Augment, Droid and Cursor's third-party hooks all send this
//! shape, and several of them ignore JSON and honour only exit 2. So the answer
//! is written both ways: the Claude-shaped JSON on stdout, and for anything but
//! allow, exit 2 with the reason on stderr (Claude Code: "exit 2 blocks, even a
//! JSON allow can't override it"). T3 gets the nonce flow, since ask is not
//! real everywhere. `--agent generic` selects it for any other Claude-compatible agent.
//!
//! Golden examples (run as written by tests/it/hook_agents.rs):
//! in  `{"tool_name":"Shell","tool_input":{"command":"rm -rf ~"}}`
//! out `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"tiergate BLOCKED (…"}}`, stderr `tiergate BLOCKED (…`, exit 2

use classifier::Decision;
use serde_json::{Map, Value};

use super::{claude_json, not_asked, read_claude_shape, Event, Format, Install, Out};
use crate::hook::Answer;

pub fn read(o: &Map<String, Value>) -> Result<Event, String> {
    let mut ev = read_claude_shape(o, &["PreToolUse", "preToolUse"])?;
    ev.asks = false;
    Ok(ev)
}

/// Whether a Claude-shaped event lacks all of Claude Code's own fields.
pub fn looks_generic(o: &Map<String, Value>) -> bool {
    o.get("tool_name").is_some_and(Value::is_string) && !["transcript_path", "permission_mode", "tool_use_id"].iter().any(|k| o.contains_key(*k))
}

pub fn render(a: Option<&Answer>) -> Out {
    match a {
        None => Out::silent(),
        Some(a) if a.decision == Decision::Allow => Out::json(claude_json(a)),
        Some(a) => {
            let deny = Answer { decision: Decision::Deny, rule: a.rule.clone(), reason: not_asked(a) };
            Out { stdout: Some(claude_json(&deny).to_string()), stderr: Some(deny.reason), code: 2 }
        }
    }
}

pub static INSTALL: Install = Install {
    file: ".claude/settings.json",
    format: Format::Json,
    snippet: r#"{"hooks": {"PreToolUse": [{"matcher": "*",
  "hooks": [{"type": "command", "command": "tiergate hook --agent generic || exit 2", "timeout": 10}]}]}}"#,
    notes:
        "For a Claude-compatible agent tiergate has no adapter for: put the entry in that agent's own hook config (the file above is only Claude's layout). \
Deny and T3 are exit 2 with the reason on stderr plus the Claude-shaped JSON.",
    probe: r#"{"hook_event_name":"PreToolUse","cwd":$CWD,"tool_name":"Bash","tool_input":{"command":"git status"}}"#,
    shell_tools: &[],
};
