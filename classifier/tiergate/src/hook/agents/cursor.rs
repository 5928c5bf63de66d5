//! Cursor (IDE agent, Cmd-K, CLI), both layers: granular `beforeShellExecution`
//! (flat `command`, `cwd`) and generic `preToolUse` (`tool_name` `Shell`,
//! `tool_input.command`, `tool_input.cwd`; file tool `Write`). `cwd` was
//! observed empty: fall back to `tool_input.cwd`, then `workspace_roots[0]`.
//! Output is flat: `{"permission":"allow|deny","user_message","agent_message"}`.
//! Cursor's `ask` acts as deny (observed, 3.9.16), so T3 gets the nonce deny.
//! With `failClosed: true` an empty answer blocks, so *every* call — no opinion
//! included — gets an explicit `{"permission":"allow"}`. The model reads
//! `user_message`, so the reason goes in both messages.
//!
//! Golden examples (run as written by tests/it/hook_agents.rs; shapes from HOOKS.md, from Cursor's hooks reference and live runs):
//! in  `{"conversation_id":"c","generation_id":"g","command":"rm -rf ~","cwd":"","sandbox":false,"hook_event_name":"beforeShellExecution","cursor_version":"3.9.16","workspace_roots":["/repo"]}`
//! out `{"agent_message":"tiergate BLOCKED (…","permission":"deny","user_message":"tiergate BLOCKED (…"}`, exit 0
//! in  `{"hook_event_name":"preToolUse","tool_name":"Shell","tool_input":{"command":"ls","cwd":"","timeout":30000},"tool_use_id":"u","cwd":"","workspace_roots":["/repo"]}`
//! out `{"permission":"allow"}`, exit 0

use classifier::Decision;
use serde_json::{json, Map, Value};

use super::{call, first_cwd, not_asked, opt_str, string, Call, Dialect, Event, Format, Input, Install, Out, Phase};
use crate::hook::Answer;

pub fn read(o: &Map<String, Value>) -> Result<Event, String> {
    let event = opt_str(o, "hook_event_name").unwrap_or("preToolUse");
    let root = o.get("workspace_roots").and_then(Value::as_array).and_then(|r| r.first()).and_then(Value::as_str);
    let session = opt_str(o, "conversation_id").or_else(|| opt_str(o, "session_id")).unwrap_or_default().to_owned();
    let (calls, cwd) = match event {
        "beforeShellExecution" => {
            let command = string(o, "command")?;
            (vec![Call { tool: "beforeShellExecution".into(), input: Input::Shell(command.to_owned(), Dialect::Bash) }], first_cwd([opt_str(o, "cwd"), root])?)
        }
        "preToolUse" | "PreToolUse" => {
            let tool = string(o, "tool_name")?;
            let input = o.get("tool_input").and_then(Value::as_object);
            let inner = input.and_then(|i| opt_str(i, "cwd").or_else(|| opt_str(i, "working_directory")));
            (vec![call(tool, input)], first_cwd([opt_str(o, "cwd"), inner, root])?)
        }
        other => return Err(format!("the event is {other:?}, not beforeShellExecution or preToolUse; wire `tiergate hook --agent cursor` under one of them")),
    };
    Ok(Event { calls, session, cwd, asks: false, phase: Phase::Pre })
}

pub fn render(a: Option<&Answer>) -> Out {
    match a {
        Some(a) if a.decision != Decision::Allow => {
            let why = not_asked(a);
            Out::json(json!({"permission": "deny", "user_message": why, "agent_message": why}))
        }
        _ => Out::json(json!({"permission": "allow"})),
    }
}

pub static INSTALL: Install = Install {
    file: ".cursor/hooks.json",
    format: Format::Json,
    snippet: r#"{"version": 1, "hooks": {
  "beforeShellExecution": [{"command": "tiergate hook --agent cursor", "timeout": 10, "failClosed": true}],
  "preToolUse": [{"command": "tiergate hook --agent cursor", "matcher": "Write", "timeout": 10, "failClosed": true}]}}"#,
    notes: "failClosed: true makes Cursor block when the hook crashes, times out or is missing (Cursor fails open otherwise); tiergate answers every call explicitly, so it is safe. \
Shell commands are judged once, at beforeShellExecution; the preToolUse entry covers Write. Cursor's ask acts as deny: T3 commands are denied with a code for `tiergate approve CODE`. \
If \"Include third-party hooks\" is on, a tiergate hook in ~/.claude/settings.json fires here too (tool `Shell`); that is fine, but do not rely on it alone.",
    probe: r#"{"conversation_id":"tiergate-doctor","generation_id":"doctor","command":"git status","cwd":$CWD,"sandbox":false,"hook_event_name":"beforeShellExecution","cursor_version":"doctor","workspace_roots":[$CWD]}"#,
    shell_tools: &["beforeShellExecution"],
};
