//! `tiergate hook`: the Claude Code PreToolUse hook. Reads one event from stdin
//! (size-capped, time-bounded), answers with one `hookSpecificOutput` JSON object
//! or nothing, and always exits 0.
//!
//! Bash goes to the classifier (`hook/bash.rs`); Write / Edit / MultiEdit /
//! NotebookEdit go to the same protect policy (`hook/files.rs`); other tools get
//! no output. Every failure — bad input, bad config, a panic, a blown time budget —
//! answers ask (or deny), never allow: Claude Code runs the tool when a hook exits
//! non-zero without a decision, so a crash would be a silent fail-open. This file
//! does not classify and does not touch SQL.
//!
//! Environment: `TIERGATE_DATA_DIR` (store), `TIERGATE_STDIN_TIMEOUT_MS` (2000),
//! `TIERGATE_HOOK_BUDGET_MS` (2000), and the test seams `TIERGATE_NOW` (clock,
//! `hook/clock.rs`), `TIERGATE_BUSY_TIMEOUT_MS` (store) and `TIERGATE_TEST_FAULT`.
//! Each can only make an answer stricter or slower to arrive, except `TIERGATE_NOW`
//! and the data directory, which whoever sets the hook's environment controls anyway.

mod bash;
pub mod clock;
pub mod config;
pub mod files;
pub mod redact;
pub mod store;

use std::io::{Read, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Duration;

use classifier::Decision;
use serde_json::{Map, Value};

use config::{Config, Mode};
use store::Store;

/// Largest event read from stdin; Claude Code's events are far smaller.
pub const MAX_HOOK_INPUT: usize = 1024 * 1024;
const STDIN_TIMEOUT_MS: u64 = 2000;
/// Last-resort wall-clock net around classification; budgets in work come first.
const CLASSIFY_BUDGET_MS: u64 = 2000;

const FILE_TOOLS: &[&str] = &["Write", "Edit", "MultiEdit", "NotebookEdit"];

/// One decision for Claude Code, plus the rule id recorded in the audit log.
pub struct Answer {
    decision: Decision,
    rule: String,
    reason: String,
}

impl Answer {
    fn new(decision: Decision, rule: &str, reason: String) -> Answer {
        Answer { decision, rule: rule.to_owned(), reason }
    }
    fn ask(rule: &str, reason: String) -> Answer {
        Answer::new(Decision::Ask, rule, reason)
    }
}

pub fn run(args: &[String]) -> ExitCode {
    // One line on stderr instead of a backtrace: the answer below is what matters.
    std::panic::set_hook(Box::new(|info| eprintln!("tiergate hook: internal error: {info}")));
    let out = match catch_unwind(AssertUnwindSafe(|| decide(args))) {
        Ok(out) => out,
        Err(_) => Some(Answer::ask("hook.panic", "tiergate hit an internal error (panic) and could not decide; asking instead".into())),
    };
    if let Some(a) = out {
        emit(&a);
    }
    ExitCode::SUCCESS
}

fn emit(a: &Answer) {
    let v = serde_json::json!({"hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": a.decision.as_str(),
        "permissionDecisionReason": a.reason,
    }});
    let mut out = std::io::stdout().lock();
    // A closed stdout is not worth a non-zero exit: Claude Code has gone.
    let _ = writeln!(out, "{v}").and_then(|()| out.flush());
}

struct Opts {
    mode: Option<Mode>,
    data_dir: Option<PathBuf>,
    config: Option<PathBuf>,
}

fn parse_args(args: &[String]) -> Result<Opts, String> {
    let mut o = Opts { mode: None, data_dir: None, config: None };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_owned())),
            _ => (a.as_str(), None),
        };
        let mut value = || inline.clone().or_else(|| it.next().cloned()).ok_or(format!("{flag} needs a value"));
        match flag {
            "--mode" => {
                let v = value()?;
                o.mode = Some(Mode::parse(&v).ok_or(format!("--mode {v:?}: use ask or nonce"))?);
            }
            "--data-dir" => o.data_dir = Some(PathBuf::from(value()?)),
            "--config" => o.config = Some(PathBuf::from(value()?)),
            other => return Err(format!("unknown option {other:?} (known: --mode, --data-dir, --config)")),
        }
    }
    Ok(o)
}

fn env_ms(key: &str, default: u64) -> Duration {
    Duration::from_millis(std::env::var(key).ok().and_then(|v| v.parse().ok()).unwrap_or(default))
}

/// Reads stdin on a helper thread so a writer that never closes cannot hang us.
fn read_stdin() -> Result<Vec<u8>, String> {
    let timeout = env_ms("TIERGATE_STDIN_TIMEOUT_MS", STDIN_TIMEOUT_MS);
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let r = std::io::stdin().lock().take(MAX_HOOK_INPUT as u64 + 1).read_to_end(&mut buf);
        let _ = tx.send(r.map(|_| buf));
    });
    match rx.recv_timeout(timeout) {
        Ok(Ok(buf)) if buf.len() > MAX_HOOK_INPUT => Err(format!("the event is larger than {MAX_HOOK_INPUT} bytes")),
        Ok(Ok(buf)) => Ok(buf),
        Ok(Err(e)) => Err(format!("reading stdin failed: {e}")),
        Err(mpsc::RecvTimeoutError::Timeout) => Err(format!("no complete event arrived on stdin within {} ms", timeout.as_millis())),
        Err(mpsc::RecvTimeoutError::Disconnected) => Err("reading stdin failed (internal error)".into()),
    }
}

/// The fields of a PreToolUse event the hook uses.
struct Event {
    tool: String,
    input: Option<Map<String, Value>>,
    session: String,
    cwd: Option<PathBuf>,
}

fn parse_event(raw: &[u8]) -> Result<Event, String> {
    let text = std::str::from_utf8(raw).map_err(|e| format!("the event is not UTF-8 ({e})"))?;
    let v: Value = serde_json::from_str(text).map_err(|e| format!("the event is not valid JSON ({e})"))?;
    let Value::Object(mut o) = v else { return Err("the event is not a JSON object".into()) };
    if let Some(name) = o.get("hook_event_name") {
        if name.as_str() != Some("PreToolUse") {
            return Err(format!("the event is {name}, not PreToolUse; wire `tiergate hook` under PreToolUse only"));
        }
    }
    let tool = match o.get("tool_name") {
        Some(Value::String(s)) => s.clone(),
        _ => return Err("the event has no string field `tool_name`".into()),
    };
    let cwd = match o.get("cwd") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if Path::new(s).is_absolute() => Some(PathBuf::from(s)),
        Some(other) => return Err(format!("the event's `cwd` is not an absolute path: {other}")),
    };
    let session = o.get("session_id").and_then(Value::as_str).unwrap_or_default().to_owned();
    let input = match o.remove("tool_input") {
        Some(Value::Object(m)) => Some(m),
        _ => None,
    };
    Ok(Event { tool, input, session, cwd })
}

/// What one hook call knows, shared by the Bash and file paths.
pub struct Ctx {
    pub mode: Mode,
    pub cfg: Config,
    pub session: String,
    pub cwd: Option<PathBuf>,
    pub home: Option<String>,
    pub now: i64,
    data_dir: Result<PathBuf, String>,
    store: Option<Result<Store, String>>,
}

impl Ctx {
    /// The store, opened on first use; the error is kept so it is reported once.
    pub fn store(&mut self) -> Result<&mut Store, String> {
        if self.store.is_none() {
            self.store = Some(self.data_dir.clone().and_then(|d| Store::open(&d)));
        }
        match self.store.as_mut() {
            Some(Ok(s)) => Ok(s),
            Some(Err(e)) => Err(e.clone()),
            None => Err("store not opened".into()),
        }
    }

    /// The data directory, when one could be determined.
    pub fn data_dir(&self) -> Option<&Path> {
        self.data_dir.as_deref().ok()
    }

    /// The command text as the audit log stores it.
    pub fn loggable(&self, command: &str) -> String {
        if self.cfg.log_full_commands {
            command.to_owned()
        } else {
            redact::redact(command)
        }
    }

    fn log(&mut self, tool: &str, subject: &str, a: &Answer) {
        if !self.cfg.log {
            return;
        }
        let row = store::Decision {
            time: clock::rfc3339(self.now),
            session: self.session.clone(),
            cwd: self.cwd.as_ref().map(|c| c.display().to_string()).unwrap_or_default(),
            tool: tool.to_owned(),
            decision: a.decision.as_str().to_owned(),
            rule: a.rule.clone(),
            command: self.loggable(subject),
        };
        // The verdict stands whatever happens here: a log failure goes to stderr only.
        if let Err(e) = self.store().and_then(|s| s.log(&row)) {
            eprintln!("tiergate: audit log not written: {e}");
        }
    }
}

fn decide(args: &[String]) -> Option<Answer> {
    let opts = match parse_args(args) {
        Ok(o) => o,
        Err(e) => return Some(Answer::ask("hook.usage", format!("tiergate hook: {e}; fix the hook command in settings.json"))),
    };
    let event = read_stdin().and_then(|raw| parse_event(&raw));
    test_fault("panic-main");
    let cwd = event.as_ref().ok().and_then(|e| e.cwd.clone());
    let loaded = config::load(opts.config.as_deref(), cwd.as_deref());
    let cfg_err = loaded.as_ref().err().cloned();
    let cfg = loaded.unwrap_or_else(|_| fallback_config(opts.config.as_deref(), cwd.as_deref()));
    let mut ctx = Ctx {
        mode: opts.mode.unwrap_or(cfg.mode),
        cfg,
        session: String::new(),
        cwd,
        home: std::env::var("HOME").ok(),
        now: clock::now(),
        data_dir: store::data_dir(opts.data_dir.as_deref()),
        store: None,
    };
    let event = match event {
        Ok(e) => e,
        Err(e) => {
            let a = Answer::ask("hook.input", format!("tiergate could not read the hook event: {e}; asking instead"));
            ctx.log("", "", &a);
            return Some(a);
        }
    };
    ctx.session = event.session.clone();
    let Some(e) = cfg_err else { return decide_event(&mut ctx, &event) };
    // An invalid config makes every call ask — but a deny (blocked command,
    // protected path) stays a deny: a broken config must never loosen anything.
    // No grant is consumed while the config is broken.
    ctx.mode = Mode::Ask;
    let msg = format!("tiergate's config is invalid, so every call asks until it is fixed or removed: {e}");
    let a = match decide_event(&mut ctx, &event) {
        Some(a) if a.decision == Decision::Deny => Answer { reason: format!("{} (also: {msg})", a.reason), ..a },
        _ => Answer::ask("hook.config", msg),
    };
    Some(a)
}

/// Answers one well-formed event under a loaded config; `None` is no opinion.
fn decide_event(ctx: &mut Ctx, event: &Event) -> Option<Answer> {
    let tool = event.tool.as_str();
    let (answer, subject) = if tool == "Bash" {
        match event.input.as_ref().and_then(|i| i.get("command")).and_then(Value::as_str) {
            Some(cmd) => (bash::decide(ctx, cmd), cmd.to_owned()),
            None => (Answer::ask("hook.input", "tiergate: the Bash event has no string `tool_input.command`; asking".into()), String::new()),
        }
    } else if FILE_TOOLS.contains(&tool) {
        let path = event.input.as_ref().and_then(|i| i.get("file_path").or_else(|| i.get("notebook_path"))).and_then(Value::as_str);
        match path {
            Some(p) => match files::decide(ctx, p) {
                Some(a) => (a, p.to_owned()),
                None => return None,
            },
            None => (Answer::ask("hook.input", format!("tiergate: the {tool} event has no string `tool_input.file_path`; asking")), String::new()),
        }
    } else {
        return None;
    };
    ctx.log(tool, &subject, &answer);
    Some(answer)
}

/// When the config is invalid we still need its file list (to protect the files)
/// and must not log more than the user asked for: assume logging off.
fn fallback_config(flag: Option<&Path>, cwd: Option<&Path>) -> Config {
    let files = config::user_path(flag).into_iter().chain(cwd.map(config::project_path)).collect();
    Config { mode: Mode::Ask, log: false, log_full_commands: false, protected_paths: Vec::new(), files }
}

/// Test seam: `TIERGATE_TEST_FAULT=panic-main|panic-worker|slow-worker` injects
/// that fault so the integration tests can prove each net answers ask. A fault can
/// only ever turn into ask, so the seam cannot loosen anything.
fn test_fault(at: &str) {
    if std::env::var("TIERGATE_TEST_FAULT").is_ok_and(|v| v == at) {
        if at.starts_with("slow") {
            std::thread::sleep(Duration::from_secs(5));
        } else {
            panic!("TIERGATE_TEST_FAULT={at}");
        }
    }
}
