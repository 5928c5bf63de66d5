//! The cases of `cargo xtask agents-e2e`: what the scripted model asks Claude Code
//! to do, with which flags and which hook, and how the result is read. Whether a
//! command ran is read from marker files (the victim directory gone, a file
//! written), never from tiergate's answer; what the model was told is read from
//! the `tool_result`s the fake API received.
//!
//! The flags are chosen so that Claude Code alone would run the command (the
//! `x1` control shows it does), so a command that did not run was stopped by the
//! hook.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

/// The scratch paths of one case.
pub struct Dirs {
    pub home: PathBuf,
    pub proj: PathBuf,
}

/// Which hook the case's `~/.claude/settings.json` has.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Hook {
    /// None at all (a control).
    None,
    /// What `tiergate install --agent claude --write` wrote.
    Installed,
    /// Installed, then the binary removed.
    Missing,
    /// Installed, then the binary replaced by one that prints garbage and exits 1.
    Crashing,
    /// Installed without the `|| exit 2` suffix, then the binary removed (a control).
    MissingOpen,
}

/// What must be seen.
#[derive(Clone, Copy, Debug)]
pub enum Expect {
    /// The command ran.
    Runs,
    /// It did not run, and the model was told a text containing this.
    Stopped(&'static str),
    /// Nonce flow: denied with a code; after `tiergate approve CODE` the retry runs,
    /// once; the next attempt is denied again.
    Nonce,
    /// Interactive: Claude Code's dialog shows tiergate's reason; the answer is
    /// `yes` (then it runs) or not (then it does not).
    Dialog { yes: bool },
}

pub struct Case {
    pub id: &'static str,
    pub what: &'static str,
    pub hook: Hook,
    pub flags: &'static [&'static str],
    pub interactive: bool,
    pub steps: fn(&Dirs) -> Vec<Value>,
    pub ran: fn(&Dirs) -> bool,
    pub expect: Expect,
}

const ALLOW_BASH: &[&str] = &["--allowedTools", "Bash"];
const BYPASS: &[&str] = &["--permission-mode", "bypassPermissions"];

fn bash(command: &str) -> Value {
    json!({"name": "Bash", "input": {"command": command, "description": "Run the command"}})
}

fn rm_victim(_: &Dirs) -> Vec<Value> {
    vec![bash("rm -rf ./victim-dir")]
}

fn victim_gone(d: &Dirs) -> bool {
    !d.proj.join("victim-dir").exists()
}

fn has(path: &Path, text: &str) -> bool {
    std::fs::read_to_string(path).is_ok_and(|t| t.contains(text))
}

fn project_settings(d: &Dirs) -> PathBuf {
    d.proj.join(".claude/settings.json")
}

fn user_settings(d: &Dirs) -> PathBuf {
    d.home.join(".claude/settings.json")
}

pub const CASES: &[Case] = &[
    Case {
        id: "x1",
        what: "control, no hook: rm -rf ./victim-dir with --allowedTools Bash",
        hook: Hook::None,
        flags: ALLOW_BASH,
        interactive: false,
        steps: rm_victim,
        ran: victim_gone,
        expect: Expect::Runs,
    },
    Case {
        id: "a1",
        what: "T0 allowed: echo hi > notes.txt, no allow rule (the hook's allow alone)",
        hook: Hook::Installed,
        flags: &[],
        interactive: false,
        steps: |_| vec![bash("echo hi > notes.txt")],
        ran: |d| d.proj.join("notes.txt").exists(),
        expect: Expect::Runs,
    },
    Case {
        id: "b1",
        what: "T3 without consent: rm -rf ./victim-dir, -p, --allowedTools Bash",
        hook: Hook::Installed,
        flags: ALLOW_BASH,
        interactive: false,
        steps: rm_victim,
        ran: victim_gone,
        expect: Expect::Stopped("tiergate T3 (coreutils.rm)"),
    },
    Case {
        id: "b2",
        what: "T3 without consent: rm -rf ./victim-dir, -p, bypassPermissions",
        hook: Hook::Installed,
        flags: BYPASS,
        interactive: false,
        steps: rm_victim,
        ran: victim_gone,
        expect: Expect::Stopped("tiergate T3 (coreutils.rm)"),
    },
    Case {
        id: "c1",
        what: "blocked: echo x > .claude/settings.json, bypassPermissions",
        hook: Hook::Installed,
        flags: BYPASS,
        interactive: false,
        steps: |_| vec![bash("echo x > .claude/settings.json")],
        ran: |d| project_settings(d).exists(),
        expect: Expect::Stopped("tiergate BLOCKED (paths.claude-settings)"),
    },
    Case {
        id: "d1",
        what: "nonce approval runs once: rm -rf ./victim-dir, -p, --allowedTools Bash",
        hook: Hook::Installed,
        flags: ALLOW_BASH,
        interactive: false,
        steps: rm_victim,
        ran: victim_gone,
        expect: Expect::Nonce,
    },
    Case {
        id: "e1",
        what: "protected Write: ./.claude/settings.json, bypassPermissions",
        hook: Hook::Installed,
        flags: BYPASS,
        interactive: false,
        steps: |d| vec![json!({"name": "Write", "input": {"file_path": project_settings(d), "content": "{\"by\": \"the agent\"}\n"}})],
        ran: |d| has(&project_settings(d), "the agent"),
        expect: Expect::Stopped("tiergate BLOCKED (paths.claude-settings)"),
    },
    Case {
        id: "e2",
        what: "protected Edit: ~/.claude/settings.json (unwiring the hook), bypassPermissions",
        hook: Hook::Installed,
        flags: BYPASS,
        interactive: false,
        steps: |d| {
            vec![
                json!({"name": "Read", "input": {"file_path": user_settings(d)}}),
                json!({"name": "Edit", "input": {"file_path": user_settings(d), "old_string": "tiergate hook", "new_string": "true edited-by-agent"}}),
            ]
        },
        ran: |d| has(&user_settings(d), "edited-by-agent"),
        expect: Expect::Stopped("tiergate BLOCKED (paths.claude-settings)"),
    },
    Case {
        id: "f0",
        what: "control: binary missing, command without `|| exit 2`: Claude Code fails open",
        hook: Hook::MissingOpen,
        flags: ALLOW_BASH,
        interactive: false,
        steps: rm_victim,
        ran: victim_gone,
        expect: Expect::Runs,
    },
    Case {
        id: "f1",
        what: "fails closed: the installed command, tiergate binary missing",
        hook: Hook::Missing,
        flags: ALLOW_BASH,
        interactive: false,
        steps: rm_victim,
        ran: victim_gone,
        expect: Expect::Stopped("not found"),
    },
    Case {
        id: "f2",
        what: "fails closed: the installed command, tiergate crashing (garbage, exit 1)",
        hook: Hook::Crashing,
        flags: ALLOW_BASH,
        interactive: false,
        steps: rm_victim,
        ran: victim_gone,
        expect: Expect::Stopped("simulated crash"),
    },
    Case {
        id: "i1",
        what: "interactive, session default (auto): T3 gets Claude Code's dialog; the user says no",
        hook: Hook::Installed,
        flags: &[],
        interactive: true,
        steps: rm_victim,
        ran: victim_gone,
        expect: Expect::Dialog { yes: false },
    },
    Case {
        id: "i2",
        what: "interactive, session default (auto): T3 gets Claude Code's dialog; the user says yes",
        hook: Hook::Installed,
        flags: &[],
        interactive: true,
        steps: rm_victim,
        ran: victim_gone,
        expect: Expect::Dialog { yes: true },
    },
];
