//! Claude Code transcripts (`~/.claude/projects/<project>/<session>.jsonl`): one
//! file is one session, and every assistant `tool_use` block named `Bash` is a
//! step, `input.command` with the line's `cwd`, in file order. Other lines (user
//! turns, summaries, other tools) are ignored; a line that is not JSON, not UTF-8,
//! or a Bash block without a string command is counted and skipped.

use std::path::Path;

use anyhow::Context;
use serde_json::Value;

use super::{Imported, ImportedStep};

/// The source name of these sessions in reports.
const SOURCE: &str = "claude-code";

/// The session of a transcript at `path`: its file name without `.jsonl`.
fn session_of(path: &Path) -> String {
    path.file_stem().map(|s| s.to_string_lossy().replace('/', "_")).filter(|s| !s.is_empty()).unwrap_or_else(|| "transcript".to_owned())
}

pub(crate) fn parse(label: &str, path: &Path, bytes: &[u8]) -> Imported {
    let session = session_of(path);
    let mut acc = Imported::default();
    let bad = |acc: &mut Imported, n: usize, why: String| acc.malformed.push(format!("{label}:{n}: {why}"));
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let n = i + 1;
        if raw.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let v: Value = match serde_json::from_slice(raw) {
            Ok(v) => v,
            Err(e) => {
                let why = if std::str::from_utf8(raw).is_err() { "not valid UTF-8".to_owned() } else { format!("not JSON ({e})") };
                bad(&mut acc, n, format!("{why}; skipped"));
                continue;
            }
        };
        if v.get("type").and_then(Value::as_str) != Some("assistant") {
            continue;
        }
        let cwd = v.get("cwd").and_then(Value::as_str).filter(|s| !s.is_empty()).map(str::to_owned);
        let Some(blocks) = v.pointer("/message/content").and_then(Value::as_array) else { continue };
        for b in blocks {
            if b.get("type").and_then(Value::as_str) != Some("tool_use") || b.get("name").and_then(Value::as_str) != Some("Bash") {
                continue;
            }
            match b.pointer("/input/command").and_then(Value::as_str) {
                Some(cmd) if !cmd.trim().is_empty() => {
                    acc.steps.push(ImportedStep { source: SOURCE, session: session.clone(), cwd: cwd.clone(), command: cmd.to_owned() })
                }
                Some(_) => {}
                None => bad(&mut acc, n, "Bash tool_use without a string input.command; skipped".to_owned()),
            }
        }
    }
    acc
}

/// Every `*.jsonl` under `dir` (recursively, sorted), merged.
pub(crate) fn import_dir(dir: &Path) -> anyhow::Result<Imported> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).with_context(|| format!("{}: cannot list", d.display()))? {
            let p = e?.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "jsonl") {
                files.push(p);
            }
        }
    }
    files.sort();
    if files.is_empty() {
        anyhow::bail!("{}: no *.jsonl transcripts below this directory", dir.display());
    }
    let mut all = Imported::default();
    for f in files {
        let bytes = std::fs::read(&f).with_context(|| format!("{}: cannot read", f.display()))?;
        let one = parse(&f.display().to_string(), &f, &bytes);
        all.steps.extend(one.steps);
        all.malformed.extend(one.malformed);
    }
    Ok(all)
}
