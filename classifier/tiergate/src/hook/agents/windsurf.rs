//! Windsurf Cascade `pre_run_command`: `tool_info.command_line` and
//! `tool_info.cwd`. Exit codes only (JSON decisions are not documented): allow
//! is exit 0 and silence; deny — T3 with its code, blocked, errors — is exit 2
//! with the reason on stderr.
//!
//! Golden examples (run as written by tests/it/hook_agents.rs; shapes from HOOKS.md, from hookshot's Cascade reference):
//! in  `{"agent_action_name":"pre_run_command","trajectory_id":"t","execution_id":"e","timestamp":"2026-01-01T00:00:00Z","tool_info":{"command_line":"rm -rf /","cwd":"/repo"}}`
//! out stderr `tiergate BLOCKED (…`, exit 2

use serde_json::{Map, Value};

use super::{first_cwd, opt_str, Call, Dialect, Event, Format, Input, Install, Phase};

pub fn read(o: &Map<String, Value>) -> Result<Event, String> {
    let action = opt_str(o, "agent_action_name").unwrap_or("pre_run_command");
    let info = o.get("tool_info").and_then(Value::as_object).ok_or("the event has no object `tool_info`")?;
    let input = match (action, opt_str(info, "command_line")) {
        ("pre_run_command", Some(c)) => Input::Shell(c.to_owned(), Dialect::Bash),
        (_, Some(c)) => Input::Unknown(c.to_owned()),
        ("pre_run_command", None) => Input::Missing("tiergate: the pre_run_command event has no string `tool_info.command_line`; denying".into()),
        _ => Input::Other,
    };
    let session = opt_str(o, "trajectory_id").unwrap_or_default().to_owned();
    Ok(Event { calls: vec![Call { tool: action.to_owned(), input }], session, cwd: first_cwd([opt_str(info, "cwd")])?, asks: false, phase: Phase::Pre })
}

pub static INSTALL: Install = Install {
    file: ".codeium/windsurf/hooks.json",
    format: Format::Json,
    snippet: r#"{"hooks": {"pre_run_command": [{"command": "tiergate hook --agent windsurf || exit 2", "show_output": true}]}}"#,
    notes: "Workspace scope: .windsurf/hooks.json; system: /etc/windsurf/hooks.json. Windsurf only honours exit code 2: T3 commands are blocked with a code for `tiergate approve CODE` shown in the output.",
    probe: r#"{"agent_action_name":"pre_run_command","trajectory_id":"tiergate-doctor","execution_id":"doctor","timestamp":"1970-01-01T00:00:00Z","tool_info":{"command_line":"git status","cwd":$CWD}}"#,
    shell_tools: &[],
};
