//! Claude Code `PreToolUse` (the fixed contract): `tool_name`, `tool_input`,
//! `cwd`, `session_id` in; one `hookSpecificOutput` object out, exit 0.
//! Shell tools `Bash`, `Monitor` (POSIX) and `PowerShell`; file tools
//! Write / Edit / MultiEdit / NotebookEdit. Cursor also runs these hooks from
//! `~/.claude/settings.json`, renaming `Bash` to `Shell`; there `ask` acts as
//! deny, so such events get the nonce flow.
//!
//! T3 is `ask` where Claude Code turns a hook's ask into its dialog, and the
//! nonce deny where it does not (docs/decisions/0012-claude-ask-by-client.md):
//! - headless (`-p`, `CLAUDE_CODE_SESSION_ATTENDED=0` in the hook's environment):
//!   an ask is denied with no way to approve, so the nonce deny, in every mode;
//! - `bypassPermissions`, `dontAsk`, `auto`: older clients ignored or auto-approved
//!   an ask there (claude-code #77212, #89561); 2.1.332, checked end to end by
//!   `cargo xtask agents-e2e`, shows the dialog, so `ask` from that version on
//!   (`AI_AGENT=claude-code_2-1-332_…`), the nonce deny for older or unknown ones;
//! - `default`, `acceptEdits`, `plan`: `ask`.
//!
//! `defer` is never sent: it only works in `-p` with one tool call per turn.
//!
//! Golden examples (run as written by tests/it/hook_agents.rs; shapes from HOOKS.md, from the Claude hooks reference):
//! in  `{"session_id":"abc123","cwd":"/home/user/my-project","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"npm test"},"tool_use_id":"toolu_01ABC123"}`
//! out `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"tiergate T3 (…"}}`, exit 0
//! in  `{"session_id":"abc123","transcript_path":"/t.jsonl","cwd":"/repo","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"PowerShell","tool_input":{"command":"Get-ChildItem -Recurse"},"tool_use_id":"toolu_01"}`
//! out `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"tiergate T0 (powershell.read)…"}}`, exit 0

use serde_json::{Map, Value};

use super::{claude_json, opt_str, read_claude_shape, Event, Format, Install, Out};
use crate::hook::Answer;

pub fn read(o: &Map<String, Value>) -> Result<Event, String> {
    let mut ev = read_claude_shape(o, &["PreToolUse"])?;
    let mode = opt_str(o, "permission_mode").unwrap_or("default");
    let via_cursor = o.contains_key("cursor_version") || ev.calls.iter().any(|c| c.tool == "Shell") || std::env::var_os("CURSOR_VERSION").is_some();
    let unattended = std::env::var_os("CLAUDE_CODE_SESSION_ATTENDED").is_some_and(|v| v == "0");
    let client = std::env::var("AI_AGENT").ok().and_then(|v| client_version(&v));
    ev.asks = !via_cursor && asks(mode, unattended, client);
    Ok(ev)
}

/// The first Claude Code version seen to show its dialog for a hook's `ask` in
/// `auto`, `dontAsk` and `bypassPermissions` (2.1.332, in `cargo xtask agents-e2e`).
const DIALOG_IN_EVERY_MODE: (u32, u32, u32) = (2, 1, 332);

/// Whether a hook's `ask` reaches a person who can answer it.
fn asks(mode: &str, unattended: bool, client: Option<(u32, u32, u32)>) -> bool {
    if unattended {
        return false;
    }
    match mode {
        "bypassPermissions" | "dontAsk" | "auto" => client.is_some_and(|v| v >= DIALOG_IN_EVERY_MODE),
        _ => true,
    }
}

/// The version in Claude Code's `AI_AGENT` (`claude-code_2-1-332_harness`), if it is Claude Code's.
fn client_version(ai_agent: &str) -> Option<(u32, u32, u32)> {
    let rest = ai_agent.strip_prefix("claude-code_")?;
    let mut parts = rest.split('_').next()?.split('-').map(|p| p.parse::<u32>().ok());
    let v = (parts.next()??, parts.next()??, parts.next()??);
    parts.next().is_none().then_some(v)
}

pub fn render(a: Option<&Answer>) -> Out {
    a.map_or_else(Out::silent, |a| Out::json(claude_json(a)))
}

pub static INSTALL: Install = Install {
    file: ".claude/settings.json",
    format: Format::Json,
    snippet: r#"{"hooks": {"PreToolUse": [{"matcher": "Bash|PowerShell|Monitor|Shell|run_in_terminal|runTerminalCommand|runInTerminal|Write|Edit|MultiEdit|NotebookEdit",
  "hooks": [{"type": "command", "command": "tiergate hook || exit 2", "timeout": 10}]}]}}"#,
    notes: "Every project gets it. VS Code agent mode and Cursor's third-party hooks read this file too, with their own tool names \
(run_in_terminal / runTerminalCommand, Shell): the matcher covers them, and the command has no --agent so each event is answered in its sender's form. \
Project scope: <project>/.claude/settings.json or .claude/settings.local.json. `|| exit 2` makes a missing or crashing tiergate block the command \
(Claude Code runs it otherwise); a hook that times out still does not block, so keep the timeout explicit. Check with `tiergate doctor`.",
    probe: r#"{"session_id":"tiergate-doctor","cwd":$CWD,"permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git status"},"tool_use_id":"toolu_doctor"}"#,
    shell_tools: &["Bash", "PowerShell", "Monitor"],
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_client_version_is_read_from_ai_agent() {
        assert_eq!(client_version("claude-code_2-1-332_harness"), Some((2, 1, 332)));
        assert_eq!(client_version("claude-code_2-10-0"), Some((2, 10, 0)));
        for other in ["codex_0-171-0", "claude-code_2-1", "claude-code_2-1-x_harness", "claude-code_2-1-3-4", ""] {
            assert_eq!(client_version(other), None, "{other}");
        }
    }

    #[test]
    fn ask_only_where_it_becomes_a_dialog() {
        let (new, old) = (Some((2, 1, 332)), Some((2, 1, 331)));
        for mode in ["default", "acceptEdits", "plan"] {
            assert!(asks(mode, false, None) && asks(mode, false, old), "{mode}");
            assert!(!asks(mode, true, new), "{mode} headless: an ask there cannot be approved");
        }
        for mode in ["auto", "dontAsk", "bypassPermissions"] {
            assert!(asks(mode, false, new) && asks(mode, false, Some((3, 0, 0))), "{mode}");
            assert!(!asks(mode, false, old) && !asks(mode, false, None) && !asks(mode, true, new), "{mode}");
        }
    }
}
