//! GitHub Copilot CLI `preToolUse`: camelCase `toolName` (`bash`,
//! `powershell`, `create`, `edit`, …) with `toolArgs` as an object or a JSON
//! string, or the PascalCase "VS Code compatible" `PreToolUse` (`tool_name`,
//! `tool_input`). Output flat `{"permissionDecision","permissionDecisionReason"}`,
//! exit 0, and nothing else: extra fields made Copilot drop the decision (dcg #182).
//! Ask is native interactively; in `-p` Copilot turns it into deny.
//!
//! Golden examples (run as written by tests/it/hook_agents.rs; shapes from HOOKS.md, from the Copilot CLI hooks reference):
//! in  `{"sessionId":"s","timestamp":1788992290306,"cwd":"/repo","toolName":"bash","toolArgs":"{\"command\":\"git status\"}"}`
//! out `{"permissionDecision":"allow","permissionDecisionReason":"tiergate T0 (git.read)…"}`, exit 0
//! in  `{"hook_event_name":"PreToolUse","session_id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/repo","tool_name":"bash","tool_input":{"command":"git push origin main"}}`
//! out `{"permissionDecision":"ask","permissionDecisionReason":"tiergate T3 (git.push)…"}`, exit 0

use serde_json::{json, Map, Value};

use super::{call, opt_str, read_claude_shape, strict_cwd, Event, Format, Install, Out, Phase};
use crate::hook::Answer;

pub fn read(o: &Map<String, Value>) -> Result<Event, String> {
    let Some(tool) = o.get("toolName") else { return read_claude_shape(o, &["PreToolUse", "preToolUse"]) };
    let tool = tool.as_str().ok_or("the event's `toolName` is not a string")?;
    let args = match o.get("toolArgs") {
        Some(Value::String(s)) => serde_json::from_str::<Value>(s).map_err(|e| format!("the event's `toolArgs` string is not JSON ({e})"))?,
        Some(v) => v.clone(),
        None => Value::Null,
    };
    let session = opt_str(o, "sessionId").unwrap_or_default().to_owned();
    Ok(Event { calls: vec![call(tool, args.as_object())], session, cwd: strict_cwd(o)?, asks: true, phase: Phase::Pre })
}

pub fn render(a: Option<&Answer>) -> Out {
    a.map_or_else(Out::silent, |a| Out::json(json!({"permissionDecision": a.decision.as_str(), "permissionDecisionReason": a.reason})))
}

pub static INSTALL: Install = Install {
    file: ".copilot/hooks/tiergate.json",
    format: Format::Script,
    snippet: r#"{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "tiergate hook --agent copilot", "powershell": "tiergate hook --agent copilot", "timeoutSec": 10}]}}"#,
    notes: "User scope: ~/.copilot/hooks/tiergate.json; repository scope (also the cloud coding agent): .github/hooks/tiergate.json. \
Copilot runs preToolUse for every tool; tiergate answers only shell and file tools. In `copilot -p` an ask becomes a deny.",
    probe: r#"{"sessionId":"tiergate-doctor","timestamp":0,"cwd":$CWD,"toolName":"bash","toolArgs":{"command":"git status"}}"#,
    shell_tools: &[],
};
