//! The sessions kind: real agent sessions, `corpus/sessions/<source>/sessions.jsonl`,
//! one `{"session", "step", "cwd", "command"}` object per line, in the order the
//! agent ran them (steps 0, 1, 2 … of a session; sessions need not be contiguous).
//! `<source>` names the agent and run (`mini-swe-agent`); a user's own transcripts
//! and hook log join as sources too (crate::import, never committed).
//!
//! A session replays in order through `tiergate batch`'s `session` extension, so a
//! script a step wrote is read when a later step runs it. Head must give every step
//! a verdict; the commands are shown redacted (imports are someone's own). The
//! summary's section is the friction per source: prompts per 1,000 steps and the
//! rules that ask most, with examples.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::Deserialize;

use super::{Answered, CorpusKind, Kind, Row, Source, Spec};
use crate::checks::Failure;
use crate::protocol::Verdict;
use crate::report::markdown::inline_clipped;

/// Where the committed sessions live.
const DIR: &str = "corpus/sessions";
const FILE: &str = "sessions.jsonl";

/// Steps are zero-padded in row ids so that ids sort in step order.
pub const MAX_STEP: u32 = 99_999;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    session: String,
    step: u32,
    #[serde(default)]
    cwd: Option<String>,
    command: String,
}

/// The row id of one step: `<source>/<session>/<step, five digits>`.
pub fn step_id(source: &str, session: &str, step: u32) -> String {
    format!("{source}/{session}/{step:05}")
}

/// One step of a session as a row (for the committed corpus and the importers).
pub fn step_row(source: &str, session: &str, step: u32, cwd: Option<String>, command: String, file: &str, line: u64) -> Row {
    Row {
        kind: Kind::Sessions,
        id: step_id(source, session, step),
        command,
        cwd,
        weight: 1,
        spec: Spec::Session { source: source.to_owned(), session: session.to_owned(), step },
        file: file.to_owned(),
        line,
        note: String::new(),
    }
}

/// Parses one source's `sessions.jsonl`; every bad line is reported as `file:line: why`.
pub fn parse(source: &str, file: &str, bytes: &[u8]) -> Result<Vec<Row>, Vec<String>> {
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    let mut last: std::collections::HashMap<String, u32> = std::collections::HashMap::new();
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let n = i as u64 + 1;
        if raw.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let l: Line = match serde_json::from_slice(raw) {
            Ok(l) => l,
            Err(e) => {
                errors.push(format!("{file}:{n}: {e}"));
                continue;
            }
        };
        if l.session.is_empty() || l.session.contains('/') {
            errors.push(format!("{file}:{n}: column session: {:?} is not a session name (non-empty, no `/`)", l.session));
            continue;
        }
        if l.command.trim().is_empty() {
            errors.push(format!("{file}:{n}: column command: empty command"));
            continue;
        }
        if l.step > MAX_STEP {
            errors.push(format!("{file}:{n}: column step: {} is past {MAX_STEP}", l.step));
            continue;
        }
        let want = last.get(&l.session).map_or(0, |s| s + 1);
        if l.step != want {
            errors.push(format!(
                "{file}:{n}: column step: session {} goes to step {} where step {want} comes next (steps are 0, 1, 2 … in file order)",
                l.session, l.step
            ));
            continue;
        }
        last.insert(l.session.clone(), l.step);
        rows.push(step_row(source, &l.session, l.step, l.cwd, l.command, file, n));
    }
    if errors.is_empty() {
        Ok(rows)
    } else {
        Err(errors)
    }
}

pub(super) struct Sessions;

impl CorpusKind for Sessions {
    fn location(&self) -> &'static str {
        "corpus/sessions/*/sessions.jsonl"
    }

    fn load(&self, src: &dyn Source) -> Result<Vec<Row>, Vec<String>> {
        super::source::load_per_folder(src, (DIR, FILE, "source"), parse)
    }

    fn third_party(&self) -> bool {
        true
    }

    fn check(&self, r: &Row, v: &Verdict) -> Option<Failure> {
        let e = v.error.as_ref()?;
        Some(Failure::new("error", Some(&r.id), format!("sessions {}: head gave no verdict ({e})", r.id)))
    }

    fn private(&self) -> bool {
        true
    }

    fn section(&self, rows: &[Answered]) -> Option<String> {
        section(rows)
    }

    fn session<'r>(&self, r: &'r Row) -> Option<&'r str> {
        match &r.spec {
            // The row id without its step: `<source>/<session>`.
            Spec::Session { .. } => r.id.rsplit_once('/').map(|(s, _)| s),
            _ => None,
        }
    }
}

/// Asking rules listed per source, each with one example.
const TOP_RULES: usize = 8;

/// One source's friction.
#[derive(Default)]
struct Friction<'a> {
    sessions: std::collections::BTreeSet<&'a str>,
    steps: u64,
    head: u64,
    base: u64,
    /// Steps the base answered (a base without the session extension answers none).
    base_steps: u64,
    /// Per asking rule: how many steps, and the first one's command.
    rules: BTreeMap<&'a str, (u64, &'a str)>,
}

/// Friction per source: sessions, steps, prompts per 1,000 steps at base and head,
/// and the rules that ask most with an example each (commands redacted).
fn section(rows: &[Answered]) -> Option<String> {
    let mut by: BTreeMap<&str, Friction> = BTreeMap::new();
    for a in rows {
        let Spec::Session { source, session, .. } = &a.row.spec else { continue };
        let Some(h) = a.head.filter(|v| !v.is_error()) else { continue };
        let f = by.entry(source.as_str()).or_default();
        f.sessions.insert(session.as_str());
        f.steps += 1;
        if let Some(b) = a.base.filter(|v| !v.is_error()) {
            f.base_steps += 1;
            f.base += u64::from(b.class.prompts());
        }
        if h.class.prompts() {
            f.head += 1;
            let e = f.rules.entry(h.rule.as_str()).or_insert((0, a.row.command.as_str()));
            e.0 += 1;
        }
    }
    if by.is_empty() {
        return None;
    }
    let per = |n: u64, of: u64| if of == 0 { "–".to_owned() } else { format!("{:.1}", n as f64 * 1000.0 / of as f64) };
    let mut out = String::from(
        "## Sessions\n\nFriction per agent: prompts (ask or deny) per 1,000 steps, each session replayed in order through what its earlier steps wrote.\n\n",
    );
    out.push_str("| source | sessions | steps | prompts | per 1,000 at base | per 1,000 at head |\n|---|---:|---:|---:|---:|---:|\n");
    for (source, f) in &by {
        let base = if f.base_steps == f.steps { per(f.base, f.steps) } else { format!("– ({} of {} steps answered)", f.base_steps, f.steps) };
        let _ = writeln!(out, "| {source} | {} | {} | {} | {base} | {} |", f.sessions.len(), f.steps, f.head, per(f.head, f.steps));
    }
    for (source, f) in by.iter().filter(|(_, f)| f.head > 0) {
        let mut rules: Vec<(&&str, &(u64, &str))> = f.rules.iter().collect();
        rules.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then_with(|| a.0.cmp(b.0)));
        let _ = writeln!(out, "\nWhat asks in {source} ({} rules):\n", rules.len());
        out.push_str("| rule | prompts | per 1,000 steps | example |\n|---|---:|---:|---|\n");
        for (rule, (n, example)) in rules.iter().take(TOP_RULES) {
            let _ = writeln!(out, "| `{rule}` | {n} | {} | {} |", per(*n, f.steps), inline_clipped(&crate::import::redact(example), 100));
        }
        if rules.len() > TOP_RULES {
            let rest: u64 = rules.iter().skip(TOP_RULES).map(|(_, (n, _))| n).sum();
            let _ = writeln!(out, "| _{} more rules_ | {rest} | {} | |", rules.len() - TOP_RULES, per(rest, f.steps));
        }
    }
    Some(out)
}
