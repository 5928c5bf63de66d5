//! Cline (IDE extension and CLI): one executable per event, named `PreToolUse`.
//! Input `preToolUse: {toolName, parameters}` (tools `execute_command`,
//! `run_commands`), `workspaceRoots`, `taskId`; CLI 3.0.48 sends
//! `hookName: "tool_call"` with `tool_call: {id, name, input}`. Output
//! `{"cancel":bool,"errorMessage"}`, exit 0. No ask: T3 gets the nonce deny.
//!
//! Golden examples (run as written by tests/it/hook_agents.rs; shapes from HOOKS.md, from nah's Cline adapter tests):
//! in  `{"taskId":"task-1","hookName":"PreToolUse","clineVersion":"4.0.0","timestamp":"1785110400000","workspaceRoots":["/repo"],"preToolUse":{"toolName":"execute_command","parameters":{"command":"git status"}}}`
//! out `{"cancel":false}`, exit 0
//! in  `{"taskId":"task-1","hookName":"tool_call","clineVersion":"3.0.48","workspaceRoots":["/repo"],"tool_call":{"id":"1","name":"execute_command","input":{"command":"git push origin main"}}}`
//! out `{"cancel":true,"errorMessage":"tiergate T3 (git.push)…tiergate approve …"}`, exit 0

use classifier::Decision;
use serde_json::{json, Map, Value};

use super::{call, first_cwd, not_asked, opt_str, Event, Format, Install, Out, Phase};
use crate::hook::Answer;

pub fn read(o: &Map<String, Value>) -> Result<Event, String> {
    let (tool, input) = if let Some(p) = o.get("preToolUse").and_then(Value::as_object) {
        (opt_str(p, "toolName"), p.get("parameters"))
    } else if let Some(t) = o.get("tool_call").and_then(Value::as_object) {
        (opt_str(t, "name"), t.get("input"))
    } else {
        return Err("the event has neither `preToolUse` nor `tool_call`; install tiergate as Cline's PreToolUse hook".into());
    };
    let tool = tool.ok_or("the event names no tool")?;
    let root = o.get("workspaceRoots").and_then(Value::as_array).and_then(|r| r.first()).and_then(Value::as_str);
    let session = opt_str(o, "taskId").unwrap_or_default().to_owned();
    Ok(Event { calls: vec![call(tool, input.and_then(Value::as_object))], session, cwd: first_cwd([root])?, asks: false, phase: Phase::Pre })
}

pub fn render(a: Option<&Answer>) -> Out {
    match a {
        Some(a) if a.decision != Decision::Allow => Out::json(json!({"cancel": true, "errorMessage": not_asked(a)})),
        _ => Out::json(json!({"cancel": false})),
    }
}

pub static INSTALL: Install = Install {
    file: "Documents/Cline/Hooks/PreToolUse",
    format: Format::Script,
    snippet: "#!/bin/sh\nexec tiergate hook --agent cline\n",
    notes: "Make the file executable (chmod +x). Project scope: .clinerules/hooks/PreToolUse; Cline CLI: ~/.cline/hooks/PreToolUse. \
Cline has no ask: T3 commands are cancelled with a code for `tiergate approve CODE`.",
    probe: r#"{"taskId":"tiergate-doctor","hookName":"PreToolUse","clineVersion":"doctor","timestamp":"0","workspaceRoots":[$CWD],"preToolUse":{"toolName":"execute_command","parameters":{"command":"git status"}}}"#,
    shell_tools: &[],
};
