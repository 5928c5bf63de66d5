//! The adapter layer: which coding agent sent an event, how its event maps to
//! the calls tiergate judges, and how one answer is written back in the form
//! that agent honours. The judging itself is the single path in `hook.rs`
//! (`bash::decide`, `powershell::decide`, the protected-path check).
//!
//! One small file per agent under `agents/` holds its reader, its writer, its
//! install snippet and its golden examples (from `docs/hooks.md`, itself cited
//! from the agents' hook references). Detection without `--agent` is a match on
//! a few top-level fields of the already parsed event, never a second parse.

pub mod augment;
pub mod claude;
pub mod cline;
pub mod codex;
pub mod copilot;
pub mod cursor;
pub mod droid;
pub mod gemini;
pub mod generic;
pub mod kiro;
pub mod vscode;
pub mod windsurf;

use std::path::{Path, PathBuf};

use classifier::Decision;
use serde_json::{Map, Value};

use super::Answer;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agent {
    Claude,
    Codex,
    Gemini,
    Cursor,
    Copilot,
    Vscode,
    Droid,
    Windsurf,
    Cline,
    Kiro,
    Augment,
    Generic,
}

impl Agent {
    pub const ALL: &'static [Agent] = &[
        Agent::Claude,
        Agent::Codex,
        Agent::Gemini,
        Agent::Cursor,
        Agent::Copilot,
        Agent::Vscode,
        Agent::Droid,
        Agent::Windsurf,
        Agent::Cline,
        Agent::Kiro,
        Agent::Augment,
        Agent::Generic,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Agent::Claude => "claude",
            Agent::Codex => "codex",
            Agent::Gemini => "gemini",
            Agent::Cursor => "cursor",
            Agent::Copilot => "copilot",
            Agent::Vscode => "vscode",
            Agent::Droid => "droid",
            Agent::Windsurf => "windsurf",
            Agent::Cline => "cline",
            Agent::Kiro => "kiro",
            Agent::Augment => "augment",
            Agent::Generic => "generic",
        }
    }

    pub fn parse(s: &str) -> Option<Agent> {
        let s = s.to_ascii_lowercase();
        let alias = match s.as_str() {
            "claude-code" | "claudecode" => "claude",
            "gemini-cli" => "gemini",
            "copilot-cli" => "copilot",
            "vs-code" | "code" => "vscode",
            "factory" => "droid",
            "cascade" => "windsurf",
            "auggie" => "augment",
            other => other,
        };
        Agent::ALL.iter().copied().find(|a| a.name() == alias)
    }

    /// Maps one parsed event object to the calls to judge.
    pub fn read(self, o: &Map<String, Value>) -> Result<Event, String> {
        match self {
            Agent::Claude => claude::read(o),
            Agent::Codex => codex::read(o),
            Agent::Gemini => gemini::read(o),
            Agent::Cursor => cursor::read(o),
            Agent::Copilot => copilot::read(o),
            Agent::Vscode => vscode::read(o),
            Agent::Droid => droid::read(o),
            Agent::Windsurf => windsurf::read(o),
            Agent::Cline => cline::read(o),
            Agent::Kiro => kiro::read(o),
            Agent::Augment => augment::read(o),
            Agent::Generic => generic::read(o),
        }
    }

    /// Writes one answer (`None` = no opinion) in the form the agent honours.
    /// `phase` is `None` when the event could not be read at all.
    pub fn render(self, a: Option<&Answer>, phase: Phase) -> Out {
        match self {
            Agent::Claude => claude::render(a),
            Agent::Codex => codex::render(a, phase),
            Agent::Gemini => gemini::render(a),
            Agent::Cursor => cursor::render(a),
            Agent::Copilot => copilot::render(a),
            Agent::Vscode => vscode::render(a),
            Agent::Droid => droid::render(a),
            Agent::Windsurf | Agent::Kiro | Agent::Augment => exit_code_render(a),
            Agent::Cline => cline::render(a),
            Agent::Generic => generic::render(a),
        }
    }

    /// The install snippet for `tiergate install --agent X`.
    pub fn install(self) -> &'static Install {
        match self {
            Agent::Claude => &claude::INSTALL,
            Agent::Codex => &codex::INSTALL,
            Agent::Gemini => &gemini::INSTALL,
            Agent::Cursor => &cursor::INSTALL,
            Agent::Copilot => &copilot::INSTALL,
            Agent::Vscode => &vscode::INSTALL,
            Agent::Droid => &droid::INSTALL,
            Agent::Windsurf => &windsurf::INSTALL,
            Agent::Cline => &cline::INSTALL,
            Agent::Kiro => &kiro::INSTALL,
            Agent::Augment => &augment::INSTALL,
            Agent::Generic => &generic::INSTALL,
        }
    }

    /// A harmless read-only event in this agent's shape (`tiergate doctor`).
    pub fn probe(self, cwd: &str) -> String {
        let c = serde_json::to_string(cwd).unwrap_or_else(|_| "\"/\"".into());
        let t = self.install().probe;
        t.replace("$CWD", &c)
    }
}

/// What `tiergate install` writes for one agent.
pub struct Install {
    /// The user-level config file, relative to `$HOME`.
    pub file: &'static str,
    /// `json` (merged into an existing file), `script` (a file of its own).
    pub format: Format,
    /// The snippet: JSON for `Format::Json`, the file text otherwise.
    pub snippet: &'static str,
    /// Steps the user must still take, printed after the snippet.
    pub notes: &'static str,
    /// A read-only event in this agent's shape, `$CWD` standing for the JSON cwd.
    pub probe: &'static str,
    /// Shell tool names this agent's matcher must cover (doctor warns otherwise).
    pub shell_tools: &'static [&'static str],
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Json,
    Script,
}

/// Which decision an event asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Before the tool runs (PreToolUse and its equivalents).
    Pre,
    /// Codex's PermissionRequest: only fires when Codex itself would prompt.
    Permission,
    /// The event could not be read.
    Unknown,
}

/// One event, as the single verdict path sees it.
pub struct Event {
    pub calls: Vec<Call>,
    pub session: String,
    pub cwd: Option<PathBuf>,
    /// Whether a hook `ask` really prompts the user for this event.
    pub asks: bool,
    pub phase: Phase,
}

pub struct Call {
    /// The agent's own tool name, as the audit log records it.
    pub tool: String,
    pub input: Input,
}

pub enum Input {
    /// A shell tool: the command text and its language.
    Shell(String, Dialect),
    /// A file tool: every path it writes.
    Files(Vec<String>),
    /// A tool tiergate does not know, carrying a command-like string.
    Unknown(String),
    /// A known tool whose input lacks the field tiergate needs: ask.
    Missing(String),
    /// Not a shell or file tool and no command-like field: no opinion.
    Other,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Bash,
    PowerShell,
}

/// What the process writes and how it exits.
pub struct Out {
    pub stdout: Option<String>,
    pub stderr: Option<String>,
    pub code: u8,
}

impl Out {
    pub fn silent() -> Out {
        Out { stdout: None, stderr: None, code: 0 }
    }
    pub fn json(v: Value) -> Out {
        Out { stdout: Some(v.to_string()), stderr: None, code: 0 }
    }
}

/// Shell tools whose command is POSIX shell, across agents (Claude `Bash` and
/// `Monitor`, Cursor `Shell`, VS Code `run_in_terminal` / `runTerminalCommand`,
/// Gemini `run_shell_command`, Droid `Execute`, Kiro `execute_bash` / `shell` /
/// `execute_cmd`, Augment `launch-process`, Cline `execute_command`, Amp
/// `shell_command`, Copilot `bash`, Codex `exec_command`, Grok, Hermes).
pub const BASH_TOOLS: &[&str] = &[
    "Bash", "Monitor", "Shell", "run_in_terminal", "runTerminalCommand", "runInTerminal", "run_shell_command", "Execute", "execute_bash", "execute_cmd",
    "shell", "launch-process", "execute_command", "run_commands", "shell_command", "bash", "exec_command", "run_terminal_cmd", "terminal",
];

/// Shell tools whose command is PowerShell (Claude `PowerShell`, Copilot `powershell`).
pub const POWERSHELL_TOOLS: &[&str] = &["PowerShell", "powershell", "pwsh"];

/// File-writing tools and the input fields that name the path (Claude
/// Write/Edit/MultiEdit/NotebookEdit, Cursor `Write`, Gemini `write_file` /
/// `replace`, Copilot `create` / `edit`). Codex `apply_patch` is read in `codex.rs`.
pub const FILE_TOOLS: &[&str] = &["Write", "Edit", "MultiEdit", "NotebookEdit", "write_file", "replace", "create", "edit"];
const PATH_FIELDS: &[&str] = &["file_path", "notebook_path", "path"];

/// Fields an unknown tool's command may arrive in.
const COMMAND_FIELDS: &[&str] = &["command", "cmd", "command_line", "commandLine", "script"];

/// Whether the shell an agent runs unknown command tools in is bash-like.
pub fn shell_is_bash_like() -> bool {
    !cfg!(windows)
}

/// The common tool mapping: a name and its input object to what is judged.
pub fn call(tool: &str, input: Option<&Map<String, Value>>) -> Call {
    let text = |k: &str| input.and_then(|i| i.get(k)).and_then(command_text);
    let dialect = if BASH_TOOLS.contains(&tool) {
        Some(Dialect::Bash)
    } else if POWERSHELL_TOOLS.contains(&tool) {
        Some(Dialect::PowerShell)
    } else {
        None
    };
    let input = if let Some(d) = dialect {
        match COMMAND_FIELDS.iter().find_map(|k| text(k)) {
            Some(c) => Input::Shell(c, d),
            None => Input::Missing(format!("tiergate: the {tool} event has no string `tool_input.command`; asking")),
        }
    } else if tool == "apply_patch" {
        match text("command").or_else(|| text("patch")).or_else(|| text("input")) {
            Some(p) => match codex::patch_paths(&p) {
                Some(paths) => Input::Files(paths),
                None => Input::Missing("tiergate: could not read the files this apply_patch writes; asking".into()),
            },
            None => Input::Missing("tiergate: the apply_patch event has no string `tool_input.command`; asking".into()),
        }
    } else if FILE_TOOLS.contains(&tool) {
        match PATH_FIELDS.iter().find_map(|k| text(k)) {
            Some(p) => Input::Files(vec![p]),
            None => Input::Missing(format!("tiergate: the {tool} event has no string `tool_input.file_path`; asking")),
        }
    } else {
        match COMMAND_FIELDS.iter().find_map(|k| text(k)) {
            Some(c) => Input::Unknown(c),
            None => Input::Other,
        }
    };
    Call { tool: tool.to_owned(), input }
}

/// A command as text: a string, or an argv array of strings joined with shell
/// quoting (Codex's exec tools pass `["bash", "-lc", "…"]`).
fn command_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Array(a) if !a.is_empty() => {
            let words: Option<Vec<&str>> = a.iter().map(Value::as_str).collect();
            Some(words?.iter().map(|w| shell_quote(w)).collect::<Vec<_>>().join(" "))
        }
        _ => None,
    }
}

fn shell_quote(w: &str) -> String {
    if !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || "-_./:=+,@%".contains(c)) {
        w.to_owned()
    } else {
        format!("'{}'", w.replace('\'', "'\\''"))
    }
}

/// A required string field.
pub fn string<'a>(o: &'a Map<String, Value>, key: &str) -> Result<&'a str, String> {
    match o.get(key) {
        Some(Value::String(s)) => Ok(s),
        _ => Err(format!("the event has no string field `{key}`")),
    }
}

pub fn opt_str<'a>(o: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    o.get(key).and_then(Value::as_str)
}

/// Claude's strict rule: a present `cwd` must be absolute.
pub fn strict_cwd(o: &Map<String, Value>) -> Result<Option<PathBuf>, String> {
    match o.get("cwd") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if Path::new(s).is_absolute() => Ok(Some(PathBuf::from(s))),
        Some(other) => Err(format!("the event's `cwd` is not an absolute path: {other}")),
    }
}

/// The first absolute path among candidates (Cursor sends `cwd: ""`); a
/// relative non-empty candidate is an error, like Claude's.
pub fn first_cwd<'a>(cands: impl IntoIterator<Item = Option<&'a str>>) -> Result<Option<PathBuf>, String> {
    for c in cands.into_iter().flatten() {
        if c.is_empty() {
            continue;
        }
        if !Path::new(c).is_absolute() {
            return Err(format!("the event's working directory is not an absolute path: {c:?}"));
        }
        return Ok(Some(PathBuf::from(c)));
    }
    Ok(None)
}

/// Reads the Claude-shaped `PreToolUse` event that Claude Code, VS Code, Droid,
/// Kiro and Augment send: `tool_name`, `tool_input`, `cwd`, `session_id`.
pub fn read_claude_shape(o: &Map<String, Value>, events: &[&str]) -> Result<Event, String> {
    if let Some(name) = o.get("hook_event_name").or_else(|| o.get("hookEventName")) {
        if !name.as_str().is_some_and(|n| events.contains(&n)) {
            return Err(format!("the event is {name}, not {}; wire `tiergate hook` under that event only", events.join(" or ")));
        }
    }
    let tool = string(o, "tool_name")?;
    let cwd = strict_cwd(o)?;
    let session = opt_str(o, "session_id").or_else(|| opt_str(o, "sessionId")).unwrap_or_default().to_owned();
    let input = o.get("tool_input").and_then(Value::as_object);
    Ok(Event { calls: vec![call(tool, input)], session, cwd, asks: true, phase: Phase::Pre })
}

/// The Claude-shaped answer (`hookSpecificOutput`), exit 0.
pub fn claude_json(a: &Answer) -> Value {
    serde_json::json!({"hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": a.decision.as_str(),
        "permissionDecisionReason": a.reason,
    }})
}

/// Windsurf, Kiro and Augment: exit codes only. Allow and no opinion are exit
/// 0 with nothing on stdout; deny (and ask, which they cannot show) is exit 2
/// with the reason on stderr.
pub fn exit_code_render(a: Option<&Answer>) -> Out {
    match a {
        Some(a) if a.decision != Decision::Allow => Out { stdout: None, stderr: Some(not_asked(a)), code: 2 },
        _ => Out::silent(),
    }
}

/// The reason of an answer for an agent without a consent dialog: an ask is
/// delivered as a deny that says so.
pub fn not_asked(a: &Answer) -> String {
    if a.decision == Decision::Ask {
        format!("{} [tiergate would ask, but this agent cannot show a consent prompt to a hook, so it is denied]", a.reason)
    } else {
        a.reason.clone()
    }
}

/// Detects the agent from the event's shape; the order matters (most specific first).
pub fn detect(o: &Map<String, Value>) -> Agent {
    let has = |k: &str| o.contains_key(k);
    let event = opt_str(o, "hook_event_name").unwrap_or_default();
    let tool = opt_str(o, "tool_name").unwrap_or_default();
    if opt_str(o, "turn_id").is_some_and(|t| !t.is_empty()) {
        return Agent::Codex;
    }
    // Codex without `turn_id` (seen on Windows): its canonical tool names, and a
    // top-level `model` or a `tool_use_id` that is not Claude's `toolu_…`.
    // Taking Claude for Codex is safe (no allow, T3 nonce); the reverse is not.
    let claude_id = opt_str(o, "tool_use_id").is_none_or(|t| t.starts_with("toolu_"));
    if matches!(tool, "Bash" | "apply_patch") && matches!(event, "PreToolUse" | "PermissionRequest") && (has("model") || !claude_id) && !has("hookEventName") {
        return Agent::Codex;
    }
    if has("toolArgs") || has("toolName") {
        return Agent::Copilot;
    }
    if has("toolCalls") {
        return Agent::Vscode;
    }
    match event {
        "BeforeTool" => return Agent::Gemini,
        "beforeShellExecution" => return Agent::Cursor,
        // Kiro may send `preToolUse` too: Cursor's events carry its own fields.
        "preToolUse" if ["cursor_version", "conversation_id", "generation_id", "workspace_roots"].iter().any(|k| has(k)) => return Agent::Cursor,
        _ => {}
    }
    if has("agent_action_name") || has("tool_info") {
        return Agent::Windsurf;
    }
    if has("hookName") || has("clineVersion") || has("preToolUse") {
        return Agent::Cline;
    }
    if has("hookEventName") {
        return Agent::Vscode;
    }
    match tool {
        "runTerminalCommand" | "run_in_terminal" | "runInTerminal" => Agent::Vscode,
        "Execute" => Agent::Droid,
        "run_shell_command" | "write_file" | "replace" => Agent::Gemini,
        "execute_bash" | "execute_cmd" | "shell" => Agent::Kiro,
        "launch-process" => Agent::Augment,
        "bash" | "powershell" | "create" | "edit" | "view" => Agent::Copilot,
        _ if generic::looks_generic(o) => Agent::Generic,
        _ => Agent::Claude,
    }
}
