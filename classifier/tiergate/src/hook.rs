//! `tiergate hook [--agent NAME]`: the pre-execution hook of every supported
//! coding agent. Reads one event from stdin (size-capped, time-bounded), lets the
//! agent's adapter (`hook/agents/*.rs`, detected from the event's shape without
//! `--agent`) map it to calls, judges each call on the one path below, and lets
//! the adapter write the answer in the form that agent honours (Claude Code: one
//! `hookSpecificOutput` object or nothing, always exit 0).
//!
//! Shell commands go to the classifier (`hook/bash.rs`; PowerShell to
//! `hook/powershell.rs`); file tools go to the protected-path check
//! (`hook/files.rs`); an unknown tool carrying a command is judged as bash and
//! never allowed outright; other tools get no opinion. Every failure — bad
//! input, bad config, a panic, a blown time budget — answers ask (deny where the
//! agent cannot ask), never allow: agents run the tool when a hook fails without
//! a decision, so a crash would be a silent fail-open. This file does not
//! classify and does not touch SQL.
//!
//! Environment: `TIERGATE_DATA_DIR` (store), `TIERGATE_STDIN_TIMEOUT_MS` (2000),
//! `TIERGATE_HOOK_BUDGET_MS` (2000), and the test seams `TIERGATE_NOW` (clock,
//! `hook/clock.rs`), `TIERGATE_BUSY_TIMEOUT_MS` (store), `TIERGATE_FOLD_BYTES`
//! (spool size that triggers a fold) and `TIERGATE_TEST_FAULT`.
//! Each can only make an answer stricter or slower to arrive, except `TIERGATE_NOW`
//! and the data directory, which whoever sets the hook's environment controls anyway.

pub mod agents;
mod bash;
pub mod clock;
pub mod config;
pub mod files;
mod powershell;
pub mod redact;
pub mod spool;
pub mod store;
#[cfg(unix)]
mod watchdog;
/// Without an interval timer the net is the worker thread (`hook/bash.rs`).
#[cfg(not(unix))]
mod watchdog {
    pub struct Net;
    pub fn arm(_: std::time::Duration, _: &super::agents::Out, _: Option<(std::path::PathBuf, Vec<u8>)>) -> Result<Net, String> {
        Err("no interval timer on this platform".into())
    }
}

use std::io::{Read, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use classifier::Decision;
use serde_json::Value;

use agents::{Agent, Dialect, Event, Input, Out, Phase};
use config::{Config, Mode};
use store::Store;

/// Largest event read from stdin; Claude Code's events are far smaller.
pub const MAX_HOOK_INPUT: usize = 1024 * 1024;
const STDIN_TIMEOUT_MS: u64 = 2000;
/// Last-resort wall-clock net around classification; budgets in work come first.
const CLASSIFY_BUDGET_MS: u64 = 2000;

/// One decision, plus the rule id recorded in the audit log.
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
    // Who to answer, known as early as possible so even a panic is answered in
    // the agent's own form.
    let who = std::cell::Cell::new((Agent::Claude, Phase::Unknown));
    let out = match catch_unwind(AssertUnwindSafe(|| decide(args, &who))) {
        Ok(out) => out,
        Err(_) => Some(Answer::ask("hook.panic", "tiergate hit an internal error (panic) and could not decide; asking instead".into())),
    };
    let (agent, phase) = who.get();
    let out = catch_unwind(AssertUnwindSafe(|| agent.render(out.as_ref(), phase))).unwrap_or_else(|_| Out {
        stdout: None,
        stderr: Some("tiergate hook: internal error while writing the answer; denying".into()),
        code: 2,
    });
    let code = emit(&out);
    if let Some(dir) = FOLD_AFTER.get() {
        // Housekeeping after the answer is out; a failure leaves the spool for the next fold.
        let folded = catch_unwind(AssertUnwindSafe(|| Store::open(dir).and_then(|mut s| s.fold_spool(fold_bytes()))));
        if let Ok(Err(e)) = folded {
            eprintln!("tiergate: audit log spool not folded yet: {e}");
        }
    }
    code
}

fn emit(o: &Out) -> ExitCode {
    // A closed stdout is not worth a different exit: the agent has gone.
    if let Some(text) = &o.stdout {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{text}").and_then(|()| out.flush());
    }
    if let Some(text) = &o.stderr {
        eprintln!("{text}");
    }
    ExitCode::from(o.code)
}

struct Opts {
    agent: Option<Agent>,
    mode: Option<Mode>,
    data_dir: Option<PathBuf>,
    config: Option<PathBuf>,
}

fn parse_args(args: &[String]) -> Result<Opts, String> {
    let hook = crate::args::command("hook")?;
    let p = match crate::args::parse(hook, args) {
        Ok(p) => p,
        Err(crate::args::ArgError::Help) => return Err("--help is not a hook option (`tiergate hook --help` in a terminal shows the flags)".into()),
        Err(crate::args::ArgError::Bad(e)) => return Err(e),
    };
    let mode = match p.value("--mode") {
        None => None,
        Some(v) => Some(Mode::parse(v).ok_or_else(|| crate::args::bad_value("--mode", v, ["ask", "nonce"].into_iter()))?),
    };
    let agent = match p.value("--agent") {
        None => None,
        Some(v) => Some(Agent::parse(v).ok_or_else(|| crate::args::unknown_agent(v))?),
    };
    Ok(Opts { agent, mode, data_dir: p.value("--data-dir").map(PathBuf::from), config: p.value("--config").map(PathBuf::from) })
}

fn env_ms(key: &str, default: u64) -> Duration {
    Duration::from_millis(std::env::var(key).ok().and_then(|v| v.parse().ok()).unwrap_or(default))
}

/// Reads stdin on this thread, waiting for data with `poll` under a deadline, so a
/// writer that never closes cannot hang us (no reader thread to spawn: issue 14).
#[cfg(unix)]
fn read_stdin() -> Result<Vec<u8>, String> {
    let timeout = env_ms("TIERGATE_STDIN_TIMEOUT_MS", STDIN_TIMEOUT_MS);
    let deadline = std::time::Instant::now() + timeout;
    let late = || format!("no complete event arrived on stdin within {} ms", timeout.as_millis());
    let mut buf = Vec::new();
    // On the stack: a 64 KiB zeroed heap chunk cost a calloc memset and 16 page
    // faults on every call (issue 14); events are a few hundred bytes.
    let mut chunk = [0u8; 4 * 1024];
    let mut stdin = std::io::stdin().lock();
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        if left.is_zero() {
            return Err(late());
        }
        let mut pfd = libc::pollfd { fd: 0, events: libc::POLLIN, revents: 0 };
        let ms = left.as_millis().clamp(1, i32::MAX as u128) as libc::c_int;
        // SAFETY: one valid pollfd, and its count.
        let ready = unsafe { libc::poll(&mut pfd, 1, ms) };
        if ready < 0 {
            let e = std::io::Error::last_os_error();
            if e.kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return Err(format!("reading stdin failed: {e}"));
        }
        if ready == 0 {
            continue; // the deadline check above answers
        }
        // Readable, at end of input, or in error: a read now does not block.
        match stdin.read(&mut chunk) {
            Ok(0) => return Ok(buf),
            Ok(n) => {
                buf.extend_from_slice(&chunk[..n]);
                if buf.len() > MAX_HOOK_INPUT {
                    return Err(format!("the event is larger than {MAX_HOOK_INPUT} bytes"));
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(format!("reading stdin failed: {e}")),
        }
    }
}

/// Reads stdin on a helper thread so a writer that never closes cannot hang us.
#[cfg(not(unix))]
fn read_stdin() -> Result<Vec<u8>, String> {
    use std::sync::mpsc;
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

/// Parses the event once and picks the adapter: `--agent`, else the shape.
fn parse_event(raw: &[u8], flag: Option<Agent>, who: &std::cell::Cell<(Agent, Phase)>) -> Result<Event, String> {
    let text = std::str::from_utf8(raw).map_err(|e| format!("the event is not UTF-8 ({e})"))?;
    let v: Value = serde_json::from_str(text).map_err(|e| format!("the event is not valid JSON ({e})"))?;
    let Value::Object(o) = v else { return Err("the event is not a JSON object".into()) };
    let agent = flag.unwrap_or_else(|| agents::detect(&o));
    who.set((agent, Phase::Unknown));
    let ev = agent.read(&o)?;
    who.set((agent, ev.phase));
    Ok(ev)
}

/// What one hook call knows, shared by the Bash and file paths.
pub struct Ctx {
    pub mode: Mode,
    /// The agent answered, as the audit log records it.
    pub agent: &'static str,
    pub cfg: Config,
    pub session: String,
    pub cwd: Option<PathBuf>,
    pub home: Option<String>,
    pub now: i64,
    data_dir: Result<PathBuf, String>,
    store: Option<Result<Store, String>>,
    /// Who is answered (for an answer prepared ahead, `hook/watchdog.rs`).
    pub who: (Agent, Phase),
    /// The event has one call, so a timeout answer can be prepared for the whole event.
    pub single_call: bool,
    /// The tool of the call being judged, as the audit log records it.
    pub tool: String,
}

/// Set when this call's log line took the spool past `spool::FOLD_BYTES`: the
/// spool is folded into SQLite after the answer is written (`run`).
static FOLD_AFTER: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

/// `spool::FOLD_BYTES`, or the test seam `TIERGATE_FOLD_BYTES` (folding more often
/// only moves rows sooner; it never changes a verdict).
fn fold_bytes() -> u64 {
    std::env::var("TIERGATE_FOLD_BYTES").ok().and_then(|v| v.parse().ok()).unwrap_or(spool::FOLD_BYTES)
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

    /// The audit-log row for `a`, or `None` with the log off.
    pub fn row(&self, tool: &str, subject: &str, a: &Answer) -> Option<store::Decision> {
        if !self.cfg.log {
            return None;
        }
        Some(store::Decision {
            time: clock::rfc3339(self.now),
            session: self.session.clone(),
            cwd: self.cwd.as_ref().map(|c| c.display().to_string()).unwrap_or_default(),
            agent: self.agent.to_owned(),
            tool: tool.to_owned(),
            decision: a.decision.as_str().to_owned(),
            rule: a.rule.clone(),
            command: self.loggable(subject),
        })
    }

    fn log(&mut self, tool: &str, subject: &str, a: &Answer) {
        let Some(row) = self.row(tool, subject, a) else { return };
        // The verdict stands whatever happens here: a log failure goes to stderr only.
        // The row goes to the append-only spool, never to SQLite on this path.
        match self.data_dir.clone().and_then(|d| spool::append(&d, &row)) {
            Ok(size) if size > fold_bytes() => {
                if let Ok(d) = &self.data_dir {
                    let _ = FOLD_AFTER.set(d.clone());
                }
            }
            Ok(_) => {}
            Err(e) => eprintln!("tiergate: audit log not written: {e}"),
        }
    }
}

fn decide(args: &[String], who: &std::cell::Cell<(Agent, Phase)>) -> Option<Answer> {
    let opts = match parse_args(args) {
        Ok(o) => o,
        Err(e) => return Some(Answer::ask("hook.usage", format!("tiergate hook: {e}; fix the hook command in the agent's hook config"))),
    };
    who.set((opts.agent.unwrap_or(Agent::Claude), Phase::Unknown));
    let event = read_stdin().and_then(|raw| parse_event(&raw, opts.agent, who));
    test_fault("panic-main");
    let agent = who.get().0;
    let cwd = event.as_ref().ok().and_then(|e| e.cwd.clone());
    let loaded = config::load(opts.config.as_deref(), cwd.as_deref());
    let cfg_err = loaded.as_ref().err().cloned();
    let cfg = loaded.unwrap_or_else(|_| fallback_config(opts.config.as_deref(), cwd.as_deref()));
    let mut ctx = Ctx {
        mode: opts.mode.unwrap_or(cfg.mode),
        agent: agent.name(),
        cfg,
        session: String::new(),
        cwd,
        home: std::env::var("HOME").ok(),
        now: clock::now(),
        data_dir: store::data_dir(opts.data_dir.as_deref()),
        store: None,
        who: who.get(),
        single_call: false,
        tool: String::new(),
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
    ctx.who = who.get();
    ctx.single_call = event.calls.len() == 1;
    // Where a hook's ask is no real prompt, T3 gets the nonce flow whatever the
    // mode says; Codex's PermissionRequest fires only when Codex itself prompts,
    // so there T3 is left to that prompt.
    if !event.asks {
        ctx.mode = Mode::Nonce;
    }
    if event.phase == Phase::Permission {
        ctx.mode = Mode::Ask;
    }
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
/// Several calls (VS Code's batched `toolCalls`) get the most restrictive answer.
fn decide_event(ctx: &mut Ctx, event: &Event) -> Option<Answer> {
    let rank = |a: &Option<Answer>| match a.as_ref().map(|a| a.decision) {
        None => 0,
        Some(Decision::Allow) => 1,
        Some(Decision::Ask) => 2,
        Some(Decision::Deny) => 3,
    };
    let mut worst = None;
    for call in &event.calls {
        let a = decide_call(ctx, &call.tool, &call.input);
        if rank(&a) > rank(&worst) {
            worst = a;
        }
    }
    worst
}

fn decide_call(ctx: &mut Ctx, tool: &str, input: &Input) -> Option<Answer> {
    ctx.tool = tool.to_owned();
    let (answer, subject) = match input {
        Input::Shell(cmd, Dialect::Bash) => (bash::decide(ctx, cmd), cmd.clone()),
        Input::Shell(cmd, Dialect::PowerShell) => (powershell::decide(ctx, tool, cmd), cmd.clone()),
        Input::Unknown(cmd) => (unknown_tool(ctx, tool, cmd), cmd.clone()),
        Input::Missing(why) => (Answer::ask("hook.input", why.clone()), String::new()),
        Input::Files(paths) => paths.iter().find_map(|p| files::decide(ctx, p).map(|a| (a, p.clone())))?,
        Input::Other => return None,
    };
    ctx.log(tool, &subject, &answer);
    Some(answer)
}

/// A tool tiergate does not know, carrying a command: judged as bash where the
/// agent's shell is bash-like (blocked stays denied, T3 takes the T3 path), but
/// never allowed outright — tiergate does not know what the tool does with the
/// text, and an allow would skip the agent's own prompt. T0–T2 therefore ask
/// (the nonce flow where the agent cannot ask).
fn unknown_tool(ctx: &mut Ctx, tool: &str, cmd: &str) -> Answer {
    let why = format!("`{tool}` is not a tool tiergate knows, but it carries a command");
    if !agents::shell_is_bash_like() {
        return consent(ctx, tool, cmd, "hook.unknown-tool", format!("tiergate T3 (hook.unknown-tool): {why}, and this system's shell is not bash-like"));
    }
    let a = bash::decide(ctx, cmd);
    // An allow that came from a T3 verdict is a used-up grant: let it stand.
    if a.decision == Decision::Allow && !a.reason.starts_with("tiergate T3") {
        let reason =
            format!("tiergate T3 (hook.unknown-tool): {why}; read as bash it would be {}, but tiergate does not approve a tool it does not know", a.reason);
        return consent(ctx, tool, cmd, "hook.unknown-tool", reason);
    }
    Answer { reason: format!("{} [{why}, judged as bash]", a.reason), ..a }
}

/// T3 for a command tiergate cannot model (PowerShell, an unknown tool): ask, or
/// in nonce mode a deny with a code bound to the exact tool and text.
fn consent(ctx: &mut Ctx, tool: &str, command: &str, rule: &str, reason: String) -> Answer {
    if let Some(deny) = self_guard(ctx, command) {
        return deny;
    }
    if ctx.mode == Mode::Ask {
        return Answer::ask(rule, reason);
    }
    grant_or_code(ctx, &format!("exact:{tool}\n{command}"), command, rule, &reason)
}

/// The one nonce flow, for every tool: a live grant for `key` allows once (and is
/// used up); otherwise the answer is a deny carrying a fresh `tiergate approve CODE`.
/// Any store failure denies, never allows.
fn grant_or_code(ctx: &mut Ctx, key: &str, command: &str, rule: &str, head: &str) -> Answer {
    let deny = |why: String| Answer::new(Decision::Deny, rule, format!("{head}. {why}"));
    let (now, session) = (ctx.now, ctx.session.clone());
    let cwd = ctx.cwd.as_ref().map(|c| c.display().to_string()).unwrap_or_default();
    let shown = ctx.loggable(command);
    let store = match ctx.store() {
        Ok(s) => s,
        Err(e) => {
            return deny(format!("The approval store is unavailable ({e}), so no approval can be checked or recorded; ask the user to run it themselves"))
        }
    };
    match store.consume_grant(key, now) {
        Ok(Some(id)) => return Answer::new(Decision::Allow, rule, format!("{head}. Approved once by the user (tiergate grant #{id}, now used up)")),
        Ok(None) => {}
        Err(e) => return deny(format!("Checking approvals failed ({e}); ask the user to run it themselves")),
    }
    match store.pending_code(key, &shown, rule, &session, &cwd, now) {
        Ok(code) => deny(format!(
            "This needs the user's approval. Ask the user to run `tiergate approve {code}` in their terminal, \
             then retry the exact same command within {} minutes; each approval allows one run",
            store::GRANT_TTL_SECS / 60
        )),
        Err(e) => deny(format!("Recording an approval code failed ({e}); ask the user to run it themselves")),
    }
}

/// For text tiergate does not parse as bash (PowerShell, an unknown tool): a
/// mention of `tiergate … approve`, of the store file or of the data directory
/// is denied, never approvable — the agent must not approve itself or read or
/// change the grants, whatever the syntax.
fn self_guard(ctx: &Ctx, command: &str) -> Option<Answer> {
    // The library's rule, on the same `Protected` a Bash call carries; a config
    // error leaves the built-ins and the data directory, which is what matters here.
    let protect =
        files::build(&ctx.cfg.files, &[], ctx.data_dir(), ctx.home.as_deref(), ctx.cwd.as_deref()).unwrap_or_else(|_| classifier::Protected::builtin());
    let (rule, reason) = classifier::rules::tiergate::self_defence_in_text(command, &protect)?;
    Some(Answer::new(Decision::Deny, rule.id, format!("tiergate: denied: {reason}. This is never approvable.")))
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
