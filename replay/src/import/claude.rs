//! Claude Code transcripts (`~/.claude/projects/<project>/*.jsonl`): every assistant
//! `tool_use` block named `Bash` gives `input.command`, with the line's `cwd`. Other
//! lines (user turns, summaries, other tools) are ignored; a line that is not JSON,
//! not UTF-8, or a Bash block without a string command is counted and skipped.

use std::path::Path;

use anyhow::Context;
use serde_json::Value;

use super::{Acc, Imported};

pub(crate) fn parse(label: &str, bytes: &[u8]) -> Acc {
    let mut acc = Acc::default();
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let n = i + 1;
        if raw.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let v: Value = match serde_json::from_slice(raw) {
            Ok(v) => v,
            Err(e) => {
                let why = if std::str::from_utf8(raw).is_err() { "not valid UTF-8".to_owned() } else { format!("not JSON ({e})") };
                acc.bad(label, n, format!("{why}; skipped"));
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
                Some(cmd) => acc.add(cmd.to_owned(), cwd.clone(), 1),
                None => acc.bad(label, n, "Bash tool_use without a string input.command; skipped"),
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
    let mut acc = Acc::default();
    for f in files {
        let bytes = std::fs::read(&f).with_context(|| format!("{}: cannot read", f.display()))?;
        acc.merge(parse(&f.display().to_string(), &bytes).finish());
    }
    Ok(acc.finish())
}
