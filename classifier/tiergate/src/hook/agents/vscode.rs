//! VS Code agent hooks: a Claude-shaped `PreToolUse` (VS Code loads
//! `~/.claude/settings.json` by default) with terminal tools
//! `runTerminalCommand` / `run_in_terminal` / `runInTerminal`, answered with the
//! Claude-shaped `hookSpecificOutput` (most restrictive hook wins). The "Agent
//! Host" batches calls as `toolCalls: [{name, args}]` (`args` a JSON string or
//! an object); each is judged and the most restrictive answer is returned.
//!
//! Golden examples (run as written by tests/it/hook_agents.rs; shapes from HOOKS.md, VS Code hooks doc and dcg #252):
//! in  `{"hookEventName":"PreToolUse","sessionId":"s","cwd":"/repo","tool_name":"runTerminalCommand","tool_input":{"command":"git status"},"tool_use_id":"t1"}`
//! out `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"tiergate T0 (git.read)…"}}`, exit 0
//! in  `{"sessionId":"s","cwd":"/repo","toolCalls":[{"name":"powershell","args":"{\"command\":\"Remove-Item x\"}"}]}`
//! out `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"tiergate T3 (powershell.unmodelled)…"}}`, exit 0

use serde_json::{Map, Value};

use super::{call, claude_json, opt_str, read_claude_shape, strict_cwd, Event, Format, Install, Out, Phase};
use crate::hook::Answer;

pub fn read(o: &Map<String, Value>) -> Result<Event, String> {
    let Some(calls) = o.get("toolCalls") else { return read_claude_shape(o, &["PreToolUse"]) };
    let Value::Array(calls) = calls else { return Err("the event's `toolCalls` is not an array".into()) };
    let mut out = Vec::new();
    for c in calls {
        let name = c.get("name").and_then(Value::as_str).ok_or("a `toolCalls` entry has no string `name`")?;
        let args = match c.get("args").or_else(|| c.get("arguments")) {
            Some(Value::String(s)) => serde_json::from_str::<Value>(s).map_err(|e| format!("`toolCalls` args of {name} are not JSON ({e})"))?,
            Some(v) => v.clone(),
            None => Value::Null,
        };
        out.push(call(name, args.as_object()));
    }
    if out.is_empty() {
        return Err("the event's `toolCalls` is empty".into());
    }
    let session = opt_str(o, "sessionId").or_else(|| opt_str(o, "session_id")).unwrap_or_default().to_owned();
    Ok(Event { calls: out, session, cwd: strict_cwd(o)?, asks: true, phase: Phase::Pre })
}

pub fn render(a: Option<&Answer>) -> Out {
    a.map_or_else(Out::silent, |a| Out::json(claude_json(a)))
}

pub static INSTALL: Install = Install {
    file: ".claude/settings.json",
    format: Format::Json,
    // The same entry as Claude Code's: VS Code loads ~/.claude/settings.json by default.
    snippet: super::claude::INSTALL.snippet,
    notes: "VS Code reads this file by default (chat.hookFilesLocations, next to .github/hooks/*.json and the project's .claude/settings(.local).json). \
This is the same entry as `tiergate install --agent claude` (no --agent: each event is answered in its sender's form); install it once.",
    probe: r#"{"hookEventName":"PreToolUse","sessionId":"tiergate-doctor","cwd":$CWD,"tool_name":"runTerminalCommand","tool_input":{"command":"git status"},"tool_use_id":"doctor"}"#,
    shell_tools: &["runTerminalCommand", "run_in_terminal"],
};
