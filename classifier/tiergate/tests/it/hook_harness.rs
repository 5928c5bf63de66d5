//! Shared harness for the hook, approvals and store tests: a private temp home,
//! data and config directory per test, and helpers that run the real built
//! `tiergate` binary with real PreToolUse event JSON.
//!
//! It asserts nothing about verdicts itself; the `hook_*`, `approvals_*` and
//! `store_*` files do.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};

use serde_json::{json, Value};

pub const BIN: &str = env!("CARGO_BIN_EXE_tiergate");

/// A throwaway directory tree, removed on drop: `home/`, `config/`, `data/`, `work/`.
pub struct Env {
    pub root: PathBuf,
    pub data: PathBuf,
    pub work: PathBuf,
    pub config_home: PathBuf,
    pub home: PathBuf,
    /// Extra environment for every command (e.g. `TIERGATE_NOW`).
    pub vars: Vec<(String, String)>,
}

static COUNTER: AtomicU32 = AtomicU32::new(0);

impl Env {
    pub fn new(tag: &str) -> Env {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let root = std::env::temp_dir().join(format!("tiergate-it-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let env = Env { data: root.join("data"), work: root.join("work"), config_home: root.join("config"), home: root.join("home"), root, vars: Vec::new() };
        for d in [&env.work, &env.config_home, &env.home] {
            std::fs::create_dir_all(d).unwrap();
        }
        env
    }

    pub fn with(mut self, k: &str, v: &str) -> Env {
        self.set(k, v);
        self
    }

    pub fn set(&mut self, k: &str, v: &str) {
        self.vars.retain(|(key, _)| key != k);
        self.vars.push((k.to_owned(), v.to_owned()));
    }

    pub fn cwd(&self) -> &str {
        self.work.to_str().unwrap()
    }

    /// The user-level config file this env's hook reads.
    pub fn user_config(&self) -> PathBuf {
        self.config_home.join("tiergate").join("tiergate.toml")
    }

    pub fn write_user_config(&self, text: &str) {
        let p = self.user_config();
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    pub fn db(&self) -> PathBuf {
        self.data.join("tiergate.db")
    }

    pub fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(BIN);
        c.args(args);
        for (k, _) in std::env::vars() {
            // Also what an agent puts in its hooks' environment (a test run from inside
            // Claude Code or Cursor must not change the answers under test).
            if k.starts_with("TIERGATE_") || k.starts_with("XDG_") || k.starts_with("CLAUDE_CODE_") || k == "AI_AGENT" || k == "CURSOR_VERSION" {
                c.env_remove(k);
            }
        }
        c.env("HOME", &self.home).env("XDG_CONFIG_HOME", &self.config_home).env("TIERGATE_DATA_DIR", &self.data);
        for (k, v) in &self.vars {
            c.env(k, v);
        }
        c.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        c
    }

    /// Runs `tiergate ARGS` with `stdin`, returning the finished process.
    pub fn run(&self, args: &[&str], stdin: &[u8]) -> Output {
        let child = self.spawn(args, stdin);
        child.wait_with_output().unwrap()
    }

    pub fn spawn(&self, args: &[&str], stdin: &[u8]) -> Child {
        let mut child = self.command(args).spawn().unwrap();
        let mut pipe = child.stdin.take().unwrap();
        // The hook may stop reading early (oversized input): a broken pipe is fine.
        let _ = pipe.write_all(stdin);
        drop(pipe);
        child
    }

    /// Runs `tiergate hook ARGS` on one event; asserts exit 0 and at most one JSON line.
    pub fn hook(&self, args: &[&str], event: &[u8]) -> Option<Answer> {
        let mut all = vec!["hook"];
        all.extend_from_slice(args);
        answer(self.run(&all, event))
    }

    pub fn bash(&self, args: &[&str], command: &str) -> Answer {
        let ev = bash_event(command, self.cwd());
        self.hook(args, &ev).unwrap_or_else(|| panic!("no answer for Bash `{command}`"))
    }

    /// `tiergate ARGS` → (exit code, stdout, stderr).
    pub fn cli(&self, args: &[&str]) -> (i32, String, String) {
        let out = self.run(args, b"");
        (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
    }

    /// The store, after `tiergate log` has folded the audit spool into it (hooks
    /// append decisions to `tiergate.db-log`; readers fold).
    pub fn sql(&self) -> rusqlite::Connection {
        let _ = self.run(&["log", "-n", "0"], b"");
        let c = rusqlite::Connection::open(self.db()).unwrap();
        c.busy_timeout(std::time::Duration::from_secs(5)).unwrap();
        c
    }
}

impl Drop for Env {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// A parsed hook answer.
#[derive(Debug, Clone)]
pub struct Answer {
    pub decision: String,
    pub reason: String,
    pub stderr: String,
}

/// Checks the output contract (exit 0, one `hookSpecificOutput` object or nothing).
#[track_caller]
pub fn answer(out: Output) -> Option<Answer> {
    let stdout = String::from_utf8(out.stdout).expect("hook stdout is UTF-8");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "the hook must exit 0; stdout={stdout} stderr={stderr}");
    if stdout.trim().is_empty() {
        return None;
    }
    assert_eq!(stdout.trim().lines().count(), 1, "one JSON line: {stdout}");
    let v: Value = serde_json::from_str(stdout.trim()).expect("hook stdout is JSON");
    let h = &v["hookSpecificOutput"];
    assert_eq!(h["hookEventName"], "PreToolUse", "{v}");
    assert_eq!(v.as_object().map(|o| o.len()), Some(1), "only hookSpecificOutput: {v}");
    let decision = h["permissionDecision"].as_str().expect("permissionDecision").to_owned();
    assert!(["allow", "ask", "deny"].contains(&decision.as_str()), "{v}");
    let reason = h["permissionDecisionReason"].as_str().expect("permissionDecisionReason").to_owned();
    assert!(!reason.is_empty(), "a decision always carries a reason: {v}");
    Some(Answer { decision, reason, stderr })
}

pub fn event(tool: &str, input: Value, cwd: &str) -> Vec<u8> {
    json!({
        "session_id": "it-session",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": cwd,
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": input,
        "tool_use_id": "toolu_01",
    })
    .to_string()
    .into_bytes()
}

pub fn bash_event(command: &str, cwd: &str) -> Vec<u8> {
    event("Bash", json!({"command": command, "description": "test"}), cwd)
}

pub fn write_event(tool: &str, path: &str, cwd: &str) -> Vec<u8> {
    match tool {
        "NotebookEdit" => event(tool, json!({"notebook_path": path, "new_source": "x"}), cwd),
        "Edit" => event(tool, json!({"file_path": path, "old_string": "a", "new_string": "b"}), cwd),
        "MultiEdit" => event(tool, json!({"file_path": path, "edits": [{"old_string": "a", "new_string": "b"}]}), cwd),
        _ => event(tool, json!({"file_path": path, "content": "x"}), cwd),
    }
}

/// The one-time code in a nonce deny reason (`tiergate approve CODE`).
pub fn code_in(reason: &str) -> Option<String> {
    let at = reason.find("tiergate approve ")? + "tiergate approve ".len();
    let code: String = reason[at..].chars().take_while(char::is_ascii_alphanumeric).collect();
    (!code.is_empty()).then_some(code)
}

/// A directory inside a regular file: creating it fails even for root.
pub fn unwritable_dir(env: &Env) -> PathBuf {
    let f = env.root.join("not-a-dir");
    std::fs::write(&f, "x").unwrap();
    f.join("data")
}

pub fn exists(p: &Path) -> bool {
    p.exists()
}
