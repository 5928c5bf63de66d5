//! Gemini CLI `BeforeTool`: `tool_name` `run_shell_command` with
//! `tool_input.command` and an optional project-relative `dir_path`; file tools
//! `write_file` and `replace` (`file_path`). Output `{"decision","reason"}`,
//! exit 0; `ask` forces Gemini's confirmation dialog (gemini-cli #21146).
//! `allow` is not an approval there (Gemini's policy still decides).
//!
//! Golden examples (run as written by tests/it/hook_agents.rs; shapes from HOOKS.md, from gemini-cli docs/hooks/reference.md):
//! in  `{"session_id":"s","cwd":"/repo","hook_event_name":"BeforeTool","timestamp":"2026-08-21T10:00:00.000Z","tool_name":"run_shell_command","tool_input":{"command":"git push --force","dir_path":"packages/app"}}`
//! out `{"decision":"deny","reason":"tiergate BLOCKED (git.push.force)…never approvable."}`, exit 0
//! in  `{"session_id":"s","cwd":"/repo","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"git push origin main"}}`
//! out `{"decision":"ask","reason":"tiergate T3 (git.push)…"}`, exit 0

use std::path::Path;

use serde_json::{json, Map, Value};

use super::{call, opt_str, strict_cwd, string, Event, Format, Install, Out, Phase};
use crate::hook::Answer;

pub fn read(o: &Map<String, Value>) -> Result<Event, String> {
    if let Some(name) = o.get("hook_event_name") {
        if name.as_str() != Some("BeforeTool") {
            return Err(format!("the event is {name}, not BeforeTool; wire `tiergate hook --agent gemini` under BeforeTool only"));
        }
    }
    let tool = string(o, "tool_name")?;
    let input = o.get("tool_input").and_then(Value::as_object);
    let mut cwd = strict_cwd(o)?;
    if let (Some(c), Some(d)) = (&cwd, input.and_then(|i| opt_str(i, "dir_path")).filter(|d| !d.is_empty())) {
        cwd = Some(if Path::new(d).is_absolute() { d.into() } else { c.join(d) });
    }
    let session = opt_str(o, "session_id").unwrap_or_default().to_owned();
    Ok(Event { calls: vec![call(tool, input)], session, cwd, asks: true, phase: Phase::Pre })
}

pub fn render(a: Option<&Answer>) -> Out {
    a.map_or_else(Out::silent, |a| Out::json(json!({"decision": a.decision.as_str(), "reason": a.reason})))
}

pub static INSTALL: Install = Install {
    file: ".gemini/settings.json",
    format: Format::Json,
    snippet: r#"{"hooks": {"BeforeTool": [{"matcher": "run_shell_command|write_file|replace",
  "hooks": [{"type": "command", "name": "tiergate", "command": "tiergate hook --agent gemini || exit 2", "timeout": 10000}]}]}}"#,
    notes: "Gemini's timeout is in milliseconds. Project hooks (.gemini/settings.json) only run in trusted folders; the user file ~/.gemini/settings.json always does. \
A timed-out hook does not block on Gemini.",
    probe: r#"{"session_id":"tiergate-doctor","cwd":$CWD,"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"git status"}}"#,
    shell_tools: &["run_shell_command"],
};
