//! `tiergate install --agent NAME [--print | --write [--file PATH]]` and
//! `tiergate doctor`. `--print` (the default) writes the agent's snippet to
//! stdout and the steps still to take to stderr; `--write` merges it into the
//! agent's user-level config: entries that already run `tiergate hook` are
//! replaced, everything else is kept, the old file is copied to
//! `FILE.tiergate-backup-<unix time>` first, and the new one is written to a
//! temporary file and renamed over it. Nothing is written without `--write`.
//! Bare `tiergate install --print` keeps printing the original Claude snippet.
//!
//! The command written is the one that works on this machine: `tiergate hook`
//! when `tiergate` on this PATH is the running binary, else the running
//! binary's absolute path (and the install says so). Where an agent blocks on
//! exit 2, the snippet ends in `|| exit 2`, so a missing or crashing tiergate
//! blocks instead of letting the command run (docs/decisions/0011-fail-closed-install.md).
//!
//! `doctor` looks at each agent's user-level config: is a tiergate hook there,
//! does the config parse, does its matcher cover the agent's shell tools, does
//! the command's program resolve on this PATH, and does a live round trip (a
//! read-only event of that agent's shape through the configured command) answer.
//! Exit codes: 0 done / all configured agents pass, 1 a check failed, 2 usage.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Map, Value};

use crate::approvals::INSTALL_SNIPPET;
use crate::args::{unknown_agent, Parsed};
use crate::hook::agents::{Agent, Format};

const USAGE: &str = "usage: tiergate install --agent NAME [--print | --write [--file PATH]]   (NAME: see `tiergate install --agents`)\n       tiergate doctor";

pub fn run(args: &Parsed) -> ExitCode {
    if args.has("--agents") {
        for a in Agent::ALL {
            println!("{:<9} ~/{}", a.name(), a.install().file);
        }
        return ExitCode::SUCCESS;
    }
    let agent = match args.value("--agent").map(|v| (v, Agent::parse(v))) {
        None => None,
        Some((_, Some(a))) => Some(a),
        Some((v, None)) => return usage(&unknown_agent(v)),
    };
    let (print, write, file) = (args.has("--print"), args.has("--write"), args.value("--file").map(PathBuf::from));
    match (agent, print, write) {
        (None, true, false) if file.is_none() => {
            println!("{INSTALL_SNIPPET}");
            eprintln!("tip: `tiergate install --agent claude` also covers Claude Code's PowerShell and Monitor tools and sets a timeout");
            ExitCode::SUCCESS
        }
        (None, _, _) => {
            eprintln!(
                "tiergate install: tiergate never edits .claude/ (or any agent's) files itself without --write. Run `tiergate install --agent NAME --print` \
                 and merge the snippet yourself, or `tiergate install --agent NAME --write`.\n{USAGE}"
            );
            ExitCode::from(2)
        }
        (Some(_), true, true) => usage("--print and --write exclude each other"),
        (Some(a), _, false) => {
            let i = a.install();
            let here = Program::here();
            println!("{}", snippet_for(a, &here.word));
            eprintln!("# {}: ~/{}", a.name(), i.file);
            if let Some(n) = here.note {
                eprintln!("# {n}");
            }
            eprintln!("# {}", i.notes);
            ExitCode::SUCCESS
        }
        (Some(Agent::Generic), _, true) if file.is_none() => usage("`generic` has no config file of its own: use --print, or --write --file PATH"),
        (Some(a), _, true) => {
            let path = match file.or_else(|| home().map(|h| h.join(a.install().file))) {
                Some(p) => p,
                None => return usage("no HOME; pass --file PATH"),
            };
            let here = Program::here();
            match write_config(a, &path, &here.word) {
                Ok(backup) => {
                    println!("wrote {}{}", path.display(), backup.map(|b| format!(" (previous version kept as {})", b.display())).unwrap_or_default());
                    if let Some(n) = here.note {
                        eprintln!("# {n}");
                    }
                    eprintln!("# {}", a.install().notes);
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("tiergate install: {}: {e}; nothing was changed", path.display());
                    ExitCode::from(1)
                }
            }
        }
    }
}

fn usage(e: &str) -> ExitCode {
    eprintln!("tiergate: {e}\n{USAGE}");
    ExitCode::from(2)
}

fn home() -> Option<PathBuf> {
    std::env::var_os("HOME").filter(|h| !h.is_empty()).map(PathBuf::from)
}

/// What the written hook commands call tiergate by: `tiergate` when that name
/// resolves on this PATH to the running binary, else the running binary's
/// absolute path; `note` says which and why, for the user.
struct Program {
    word: String,
    note: Option<String>,
}

impl Program {
    fn here() -> Program {
        let Ok(me) = std::env::current_exe() else { return Program { word: "tiergate".into(), note: None } };
        let canon = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
        let abs = quote(&me.display().to_string());
        match which("tiergate") {
            Some(p) if canon(&p) == canon(&me) => Program { word: "tiergate".into(), note: None },
            Some(p) => Program {
                note: Some(format!("`tiergate` on this PATH is {}, not this binary: the hook runs {abs} by its absolute path", p.display())),
                word: abs,
            },
            None => Program { note: Some(format!("`tiergate` is not on this PATH: the hook runs {abs} by its absolute path")), word: abs },
        }
    }
}

/// The agent's snippet with `program` standing for `tiergate` in every hook command.
fn snippet_for(agent: Agent, program: &str) -> String {
    let i = agent.install();
    let word = if i.format == Format::Json {
        // Inside a JSON string: escaped as JSON (the shell quoting is already in `program`).
        let q = serde_json::to_string(program).unwrap_or_else(|_| "\"tiergate\"".into());
        q[1..q.len() - 1].to_owned()
    } else {
        program.to_owned()
    };
    i.snippet.replace("tiergate hook", &format!("{word} hook"))
}

/// The new text of the agent's config file, given its current text; `program`
/// is what the hook commands call tiergate by (`Program::word`).
pub fn merged(agent: Agent, old: Option<&str>, program: &str) -> Result<String, String> {
    let i = agent.install();
    let snippet = snippet_for(agent, program);
    if i.format == Format::Script {
        return Ok(format!("{}\n", snippet.trim_end()));
    }
    let snippet: Value = serde_json::from_str(&snippet).map_err(|e| format!("internal: bad snippet ({e})"))?;
    let mut cfg = match old.map(str::trim).filter(|t| !t.is_empty()) {
        Some(t) => serde_json::from_str::<Value>(t).map_err(|e| format!("the existing file is not valid JSON ({e}); fix it or merge the snippet by hand"))?,
        None => Value::Object(Map::new()),
    };
    let Value::Object(cfg_o) = &mut cfg else { return Err("the existing file is not a JSON object".into()) };
    let Value::Object(snip) = snippet else { return Err("internal: snippet is not an object".into()) };
    for (k, v) in snip {
        if k != "hooks" {
            cfg_o.entry(k).or_insert(v);
            continue;
        }
        let hooks = cfg_o.entry("hooks").or_insert_with(|| Value::Object(Map::new()));
        let Value::Object(hooks) = hooks else { return Err("the existing `hooks` is not an object".into()) };
        let Value::Object(new) = v else { continue };
        for (event, entries) in new {
            let list = hooks.entry(event.clone()).or_insert_with(|| Value::Array(Vec::new()));
            let Value::Array(list) = list else { return Err(format!("the existing `hooks.{event}` is not an array")) };
            list.retain(|e| !runs_tiergate(e));
            list.extend(entries.as_array().cloned().unwrap_or_default());
        }
    }
    serde_json::to_string_pretty(&cfg).map(|t| t + "\n").map_err(|e| e.to_string())
}

/// Whether a hook entry runs `tiergate hook` (shell form, or Claude's exec form
/// `"command": ".../tiergate", "args": ["hook", …]`).
fn runs_tiergate(e: &Value) -> bool {
    let s = e.to_string();
    s.contains("tiergate hook") || (s.contains("tiergate\"") && s.contains("\"hook\""))
}

/// Writes atomically (temp file + rename) with a backup of the old file.
fn write_config(agent: Agent, path: &Path, program: &str) -> Result<Option<PathBuf>, String> {
    let old = match std::fs::read_to_string(path) {
        Ok(t) => Some(t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(format!("cannot read: {e}")),
    };
    let text = merged(agent, old.as_deref(), program)?;
    let dir = path.parent().ok_or("no parent directory")?;
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut backup = None;
    if let Some(o) = &old {
        if *o == text {
            return Ok(None);
        }
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
        let b = PathBuf::from(format!("{}.tiergate-backup-{now}", path.display()));
        std::fs::write(&b, o).map_err(|e| format!("cannot write the backup {}: {e}", b.display()))?;
        backup = Some(b);
    }
    let tmp = PathBuf::from(format!("{}.tiergate-tmp-{}", path.display(), std::process::id()));
    let res = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        #[cfg(unix)]
        if agent.install().snippet.starts_with("#!") {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o755))?;
        }
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = res {
        let _ = std::fs::remove_file(&tmp);
        return Err(format!("cannot write: {e}"));
    }
    Ok(backup)
}

/// `tiergate doctor`.
pub fn doctor() -> ExitCode {
    let Some(home) = home() else { return usage("no HOME") };
    let cwd = std::env::current_dir().map(|c| c.display().to_string()).unwrap_or_else(|_| "/".into());
    let (mut configured, mut failed) = (0, 0);
    for &a in Agent::ALL.iter().filter(|a| **a != Agent::Generic) {
        let i = a.install();
        let path = home.join(i.file);
        let Ok(text) = std::fs::read_to_string(&path) else {
            println!("{:<9} not configured (no ~/{})", a.name(), i.file);
            continue;
        };
        let r = check(a, &text, &cwd);
        match r {
            Check::NoHook => println!("{:<9} ~/{}: no tiergate hook", a.name(), i.file),
            Check::Bad(problems) => {
                configured += 1;
                failed += 1;
                println!("{:<9} FAIL ~/{}", a.name(), i.file);
                for p in problems {
                    println!("          - {p}");
                }
            }
            Check::Pass(mut notes) => {
                configured += 1;
                if a == Agent::Codex {
                    notes.push("Codex runs it only once trusted: check `/hooks` in codex (tiergate cannot see Codex's trust store)".into());
                }
                println!("{:<9} pass ~/{}", a.name(), i.file);
                for p in notes {
                    println!("          - {p}");
                }
            }
        }
    }
    println!("{configured} agent(s) configured, {failed} failing");
    if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

enum Check {
    NoHook,
    Bad(Vec<String>),
    Pass(Vec<String>),
}

fn check(a: Agent, text: &str, cwd: &str) -> Check {
    let i = a.install();
    let (commands, matchers) = if i.snippet.starts_with("#!") {
        let cmds: Vec<String> = text.lines().filter(|l| l.contains("tiergate")).map(|l| l.trim().trim_start_matches("exec ").to_owned()).collect();
        (cmds, None)
    } else {
        let v: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) => return if text.contains("tiergate") { Check::Bad(vec![format!("the config does not parse as JSON: {e}")]) } else { Check::NoHook },
        };
        let mut cmds = Vec::new();
        let mut sites = Vec::new();
        walk(&v, &Site::default(), "", &mut cmds, &mut sites);
        (cmds, Some(sites))
    };
    let Some(command) = commands.first().cloned() else { return Check::NoHook };
    let mut bad = Vec::new();
    let mut notes = vec![format!("command: {command}")];
    if let Some(sites) = matchers {
        for tool in i.shell_tools {
            if !sites.iter().any(|s| s.event == *tool || covers(s.matcher.as_deref(), tool)) {
                let ms: Vec<String> = sites.iter().map(|s| format!("{}: {}", s.event, s.matcher.as_deref().unwrap_or("(all)"))).collect();
                bad.push(format!("no tiergate hook covers the shell tool `{tool}` (tiergate entries: {}); its commands are never checked", ms.join("; ")));
            }
        }
    }
    let program = first_word(&command);
    // The exact command that fixes what is found below: this binary, as install would write it.
    let word = Program::here().word;
    let fix = format!("`{word} install --agent {} --write`", a.name());
    match which(&program) {
        Some(p) => notes.push(format!("`{program}` resolves to {}", p.display())),
        None => bad.push(format!("`{program}` is not on this PATH, so the agent may not find it either; fix: run {fix}, which writes `{word} hook`")),
    }
    if i.snippet.contains(FAIL_CLOSED) && !command.contains(FAIL_CLOSED) {
        bad.push(format!(
            "the command fails open: if tiergate is missing or crashes, the agent runs the command anyway; fix: run {fix}, which ends it in `{FAIL_CLOSED}`"
        ));
    }
    match round_trip(&command, &a.probe(cwd)) {
        Ok(summary) => notes.push(format!("live round trip: {summary}")),
        Err(e) => bad.push(format!("live round trip failed: {e}")),
    }
    if bad.is_empty() {
        Check::Pass(notes)
    } else {
        bad.extend(notes);
        Check::Bad(bad)
    }
}

/// Where a tiergate command sits: the event key it is under and its entry's matcher.
#[derive(Clone, Debug, Default)]
struct Site {
    event: String,
    matcher: Option<String>,
}

/// Collects every string command that runs `tiergate`, with where it sits.
fn walk(v: &Value, site: &Site, key: &str, cmds: &mut Vec<String>, sites: &mut Vec<Site>) {
    match v {
        Value::Object(o) => {
            let mut here = site.clone();
            if let Some(m) = o.get("matcher").and_then(Value::as_str) {
                here.matcher = Some(m.to_owned());
            }
            for (k, x) in o {
                match (k.as_str(), x) {
                    ("command" | "bash", Value::String(s)) if s.contains("tiergate") => {
                        // Claude's exec form keeps the arguments apart.
                        let args: Vec<String> = o.get("args").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).map(quote).collect();
                        cmds.push(if args.is_empty() { s.clone() } else { format!("{s} {}", args.join(" ")) });
                        sites.push(here.clone());
                    }
                    // An object under `hooks`: its keys are event names.
                    _ if key == "hooks" => walk(x, &Site { event: k.clone(), matcher: None }, k, cmds, sites),
                    _ => walk(x, &here, k, cmds, sites),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| walk(x, site, key, cmds, sites)),
        _ => {}
    }
}

/// What the snippets end their hook command in, where the agent blocks on exit 2.
const FAIL_CLOSED: &str = "|| exit 2";

/// The first word of a shell command line: the program, unquoted ('…' or "…").
fn first_word(command: &str) -> String {
    let mut out = String::new();
    let mut quote = None;
    for c in command.trim_start().chars() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, c) if c.is_whitespace() => break,
            (_, c) => out.push(c),
        }
    }
    out
}

fn quote(w: &str) -> String {
    if !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || "-_./:=+,@%".contains(c)) {
        w.to_owned()
    } else {
        format!("'{}'", w.replace('\'', "'\\''"))
    }
}

/// Claude-style matcher semantics: absent, empty or `*` match all; a plain
/// list splits on `|` and `,`; anything else is taken as a regex we do not
/// evaluate, so only a literal mention counts.
fn covers(m: Option<&str>, tool: &str) -> bool {
    match m {
        None | Some("") | Some("*") | Some(".*") => true,
        Some(m) if m.chars().all(|c| c.is_ascii_alphanumeric() || "_- ,|".contains(c)) => m.split(['|', ',']).any(|t| t.trim() == tool),
        Some(m) => m.contains(tool),
    }
}

fn which(program: &str) -> Option<PathBuf> {
    if program.contains('/') {
        let p = PathBuf::from(program);
        return p.is_file().then_some(p);
    }
    std::env::split_paths(&std::env::var_os("PATH")?).map(|d| d.join(program)).find(|p| p.is_file())
}

fn round_trip(command: &str, probe: &str) -> Result<String, String> {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run it: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let _ = stdin.write_all(probe.as_bytes());
    drop(stdin);
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if start.elapsed() > Duration::from_secs(10) => {
                let _ = child.kill();
                return Err("no answer within 10 s".into());
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(e.to_string()),
        }
    }
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    let stdout = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).trim().to_owned();
    let ms = start.elapsed().as_millis();
    let code = out.status.code().unwrap_or(-1);
    if code != 0 {
        return Err(format!("exit {code} for a read-only `git status` (stderr: {stderr})"));
    }
    if stdout.is_empty() {
        return Ok(format!("`git status` allowed (silence, exit 0) in {ms} ms"));
    }
    let v: Value = serde_json::from_str(&stdout).map_err(|e| format!("stdout is not JSON ({e}): {stdout}"))?;
    let s = v.to_string();
    if s.contains("\"deny\"") || s.contains("\"ask\"") || s.contains("\"cancel\":true") {
        return Err(format!("`git status` was not allowed: {s}"));
    }
    Ok(format!("`git status` allowed in {ms} ms: {s}"))
}
