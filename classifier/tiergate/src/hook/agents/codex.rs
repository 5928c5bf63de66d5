//! OpenAI Codex CLI `PreToolUse` (and `PermissionRequest`): Claude-shaped input
//! plus `turn_id`; tools `Bash` and `apply_patch` (the patch envelope is in
//! `tool_input.command`). Codex accepts only `deny` with a non-empty reason (or
//! `allow` *with* `updatedInput`): a bare `allow` or any `ask` marks the hook
//! failed and the command runs, and an unknown field voids the whole answer.
//! So: allow = silence, T3 = the nonce deny, blocked and errors = deny, always
//! exactly the three documented fields, exit 0 (exit 2 failed open on Windows).
//!
//! `PermissionRequest` fires only when Codex itself is about to prompt: T0–T2
//! answer `allow` (no prompt noise), blocked answers `deny`, and T3 or an error
//! stays silent, which leaves Codex's own prompt — the user's consent — in place.
//!
//! Golden examples (run as written by tests/it/hook_agents.rs; shapes from HOOKS.md, from codex-rs/hooks output_parser.rs):
//! in  `{"session_id":"s","turn_id":"turn-1","cwd":"/repo","hook_event_name":"PreToolUse","model":"m","permission_mode":"default","tool_name":"Bash","tool_input":{"command":"git reset --hard HEAD~1"},"tool_use_id":"call-1"}`
//! out `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"tiergate T3 (git.reset.hard)…tiergate approve …"}}`, exit 0
//! in  `{"session_id":"s","turn_id":"turn-1","cwd":"/repo","hook_event_name":"PreToolUse","model":"m","permission_mode":"default","tool_name":"Bash","tool_input":{"command":"git status"},"tool_use_id":"call-1"}`
//! out nothing, exit 0
//! in  `{"session_id":"s","turn_id":"turn-1","cwd":"/repo","hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"git status","description":"why"}}`
//! out `{"hookSpecificOutput":{"decision":{"behavior":"allow"},"hookEventName":"PermissionRequest"}}`, exit 0

use classifier::Decision;
use serde_json::{json, Map, Value};

use super::{not_asked, opt_str, read_claude_shape, Event, Format, Install, Out, Phase};
use crate::hook::Answer;

pub fn read(o: &Map<String, Value>) -> Result<Event, String> {
    let mut ev = read_claude_shape(o, &["PreToolUse", "PermissionRequest"])?;
    ev.asks = false;
    if opt_str(o, "hook_event_name") == Some("PermissionRequest") {
        ev.phase = Phase::Permission;
    }
    Ok(ev)
}

pub fn render(a: Option<&Answer>, phase: Phase) -> Out {
    let Some(a) = a else { return Out::silent() };
    if phase == Phase::Permission {
        return match a.decision {
            Decision::Allow => Out::json(json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "allow"}}})),
            Decision::Deny => {
                Out::json(json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "deny", "message": a.reason}}}))
            }
            Decision::Ask => Out::silent(),
        };
    }
    match a.decision {
        Decision::Allow => Out::silent(),
        Decision::Ask | Decision::Deny => Out::json(json!({"hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": not_asked(a),
        }})),
    }
}

/// Every path an `apply_patch` envelope adds, updates, deletes or moves to;
/// `None` when it names none (then tiergate cannot tell what it writes).
pub fn patch_paths(patch: &str) -> Option<Vec<String>> {
    const HEADS: &[&str] = &["*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "];
    let paths: Vec<String> = patch
        .lines()
        .filter_map(|l| HEADS.iter().find_map(|h| l.trim_start().strip_prefix(h)))
        .map(|p| p.trim().to_owned())
        .filter(|p| !p.is_empty())
        .collect();
    (!paths.is_empty()).then_some(paths)
}

pub static INSTALL: Install = Install {
    file: ".codex/hooks.json",
    format: Format::Json,
    snippet: r#"{"hooks": {"PreToolUse": [{"matcher": "Bash|apply_patch",
  "hooks": [{"type": "command", "command": "tiergate hook --agent codex || exit 2", "timeout": 10}]}],
  "PermissionRequest": [{"matcher": "Bash",
  "hooks": [{"type": "command", "command": "tiergate hook --agent codex || exit 2", "timeout": 10}]}]}}"#,
    notes: "REQUIRED: Codex skips new or edited hooks silently until you trust them. Start `codex`, run `/hooks`, and approve the tiergate entries \
(again after every edit of hooks.json). Codex fails open when a hook crashes, times out or is untrusted; `tiergate doctor` runs the hook once to check it answers. \
Codex has no ask: T3 commands are denied with a code; run `tiergate approve CODE` in your own terminal and let the agent retry.",
    probe: r#"{"session_id":"tiergate-doctor","turn_id":"doctor","cwd":$CWD,"hook_event_name":"PreToolUse","model":"doctor","permission_mode":"default","tool_name":"Bash","tool_input":{"command":"git status"},"tool_use_id":"doctor"}"#,
    shell_tools: &["Bash"],
};
