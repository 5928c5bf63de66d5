//! `tiergate approve CODE`, `tiergate approvals list|revoke ID|reject ID|reject-all|clean`,
//! `tiergate log [-n N]`: the human's side of the hook (`install.rs` wires it). Each takes `--data-dir DIR` (else `$TIERGATE_DATA_DIR`, XDG, `~/.local/share`).
//!
//! `approvals` subcommands only ever remove grants or pending codes; `approve` is
//! the only way a grant is made, and it refuses blocked commands.
//! Exit codes: 0 done, 1 refused or not found, 2 usage or store error.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::args::Parsed;
use crate::hook::clock;
use crate::hook::store::{self, ApproveError, Store};

const USAGE: &str = "usage: tiergate approve CODE | approvals list|revoke ID|reject CODE|reject-all|clean | log [-n N]  [--data-dir DIR]";

/// The original settings.json snippet printed by bare `tiergate install --print`
/// (kept as it was; `tiergate install --agent claude` covers PowerShell and Monitor too).
pub const INSTALL_SNIPPET: &str = r#"{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash|Write|Edit|MultiEdit|NotebookEdit",
        "hooks": [
          { "type": "command", "command": "tiergate hook" }
        ]
      }
    ]
  }
}"#;

pub fn run(cmd: &str, args: &Parsed) -> ExitCode {
    let data_dir = args.value("--data-dir").map(PathBuf::from);
    let words: Vec<&str> = args.operands.iter().map(String::as_str).collect();
    match (cmd, words.as_slice()) {
        ("approve", [code]) => with_store(data_dir, |s| approve(s, code)),
        ("approvals", ["list"]) => with_store(data_dir, list),
        ("approvals", ["revoke", id]) => match id.trim_start_matches('#').parse::<i64>() {
            Ok(n) => with_store(data_dir, |s| found(s.revoke(n), &format!("revoked grant #{n}"), &format!("no live grant #{n}"))),
            Err(_) => usage(&format!("revoke wants a grant number (see `tiergate approvals list`), not {id:?}")),
        },
        ("approvals", ["reject", id]) => {
            with_store(data_dir, |s| found(s.reject(id), &format!("rejected pending code {id}"), &format!("no pending code {id}")))
        }
        ("approvals", ["reject-all"]) => with_store(data_dir, |s| match s.reject_all() {
            Ok(n) => done(&format!("rejected {n} pending code(s)")),
            Err(e) => store_error(&e),
        }),
        ("approvals", ["clean"]) => with_store(data_dir, |s| match s.clean(clock::now()) {
            Ok((p, g)) => done(&format!("removed {p} expired pending code(s) and {g} used or expired grant(s)")),
            Err(e) => store_error(&e),
        }),
        ("log", []) => match args.value("-n").map(str::parse::<u32>) {
            None => with_store(data_dir, |s| log(s, 20)),
            Some(Ok(n)) => with_store(data_dir, |s| log(s, n)),
            Some(Err(_)) => usage(&format!("-n wants a number of decisions, e.g. -n 50, not {:?}", args.value("-n").unwrap_or_default())),
        },
        ("approvals", [word, ..]) if !APPROVALS.contains(word) => {
            let hint = crate::args::suggest(word, APPROVALS.iter().copied()).map(|n| format!("; did you mean `{n}`?")).unwrap_or_default();
            usage(&format!("`tiergate approvals` has no `{word}`{hint}"))
        }
        (_, []) => usage(&format!("`{cmd}` needs arguments")),
        _ => usage(&format!("unexpected arguments for `{cmd}`: {}", words.join(" "))),
    }
}

/// The words after `tiergate approvals`.
const APPROVALS: &[&str] = &["list", "revoke", "reject", "reject-all", "clean"];

fn with_store(dir: Option<PathBuf>, f: impl FnOnce(&mut Store) -> ExitCode) -> ExitCode {
    match store::data_dir(dir.as_deref()).and_then(|d| Store::open(&d)) {
        Ok(mut s) => f(&mut s),
        Err(e) => store_error(&e),
    }
}

fn usage(e: &str) -> ExitCode {
    eprintln!("tiergate: {e}\n{USAGE}");
    ExitCode::from(2)
}

fn store_error(e: &str) -> ExitCode {
    eprintln!("tiergate: approval store error: {e}");
    ExitCode::from(2)
}

fn done(msg: &str) -> ExitCode {
    println!("{msg}");
    ExitCode::SUCCESS
}

fn found(r: Result<bool, String>, yes: &str, no: &str) -> ExitCode {
    match r {
        Ok(true) => done(yes),
        Ok(false) => {
            eprintln!("tiergate: {no}");
            ExitCode::from(1)
        }
        Err(e) => store_error(&e),
    }
}

fn approve(s: &mut Store, code: &str) -> ExitCode {
    let code = clock::normalise_code(code);
    match s.approve(&code, clock::now()) {
        Ok(g) => done(&format!("approved {code} (grant #{}): `{}` [{}] may run once, until {}", g.id, shown(&g.command), g.rule, clock::rfc3339(g.expires_at))),
        Err(ApproveError::Unknown) => {
            eprintln!("tiergate: no pending code {code} (already approved, rejected, or never issued); see `tiergate approvals list`");
            ExitCode::from(1)
        }
        Err(ApproveError::Expired) => {
            eprintln!("tiergate: code {code} has expired; let the agent retry to get a fresh one");
            ExitCode::from(1)
        }
        Err(ApproveError::Blocked(rule)) => {
            eprintln!("tiergate: code {code} is for a command tiergate never allows ({rule}); it cannot be approved");
            ExitCode::from(1)
        }
        Err(ApproveError::Store(e)) => store_error(&e),
    }
}

/// What the human reads before approving must be what runs: control characters
/// (`\r`, ESC sequences) and bidi overrides could disguise a command on a
/// terminal, so they are shown escaped.
fn shown(command: &str) -> String {
    let mut out = String::with_capacity(command.len());
    for c in command.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200b}'..='\u{200f}') => {
                out.push_str(&c.escape_unicode().to_string())
            }
            c => out.push(c),
        }
    }
    out
}

fn list(s: &mut Store) -> ExitCode {
    let (pending, grants) = match s.list() {
        Ok(x) => x,
        Err(e) => return store_error(&e),
    };
    let now = clock::now();
    println!("pending codes ({}):", pending.len());
    for p in &pending {
        let state = if p.expires_at <= now { "expired" } else { "waiting" };
        println!("  {}  id {}  {state}  [{}]  {}", p.code, p.id, p.rule, shown(&p.command));
    }
    println!("grants ({}):", grants.len());
    for g in &grants {
        let state = match g.consumed_at {
            Some(t) => format!("used {}", clock::rfc3339(t)),
            None if g.expires_at <= now => "expired".to_owned(),
            None => format!("live until {}", clock::rfc3339(g.expires_at)),
        };
        println!("  #{}  code {}  {state}  [{}]  {}", g.id, g.code, g.rule, shown(&g.command));
    }
    ExitCode::SUCCESS
}

fn log(s: &mut Store, n: u32) -> ExitCode {
    // Hooks append to the spool; fold it first so the newest decisions show.
    match s.fold_spool(0) {
        Ok((_, bad)) => {
            for b in bad {
                eprintln!("tiergate: audit log spool: {b}");
            }
        }
        Err(e) => return store_error(&e),
    }
    match s.recent(n) {
        Ok(rows) if rows.is_empty() => done("no decisions logged yet"),
        Ok(rows) => {
            for r in rows {
                let tool = if r.agent.is_empty() { r.tool.clone() } else { format!("{}:{}", r.agent, r.tool) };
                println!("{}  {:<5}  {:<20}  {:<24}  {}", r.time, r.decision, tool, r.rule, shown(&r.command));
            }
            ExitCode::SUCCESS
        }
        Err(e) => store_error(&e),
    }
}
