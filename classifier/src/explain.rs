//! Trace: the units of a command, the wrappers stripped and the rules hit, with
//! the verdict. `tiergate explain` renders it; signatures are derived from it.

use std::fmt::Write;

use crate::combine;
use crate::lanes::{FileSource, Written};
use crate::limits::MAX_COMMAND_BYTES;
use crate::rules::{self, Hit};
use crate::units::{Eng, TraceUnit};
use crate::verdict::{Span, Verdict};
use crate::Request;

pub struct Trace {
    pub verdict: Verdict,
    pub units: Vec<TraceUnit>,
    pub hits: Vec<Hit>,
}

impl Trace {
    /// The key a nonce grant is bound to: every unit's key in order (its words
    /// de-quoted and in order, wrappers' words and option values where they
    /// stand, assignments, redirections and working directory; see
    /// `units::trace`). Two commands whose units differ in any of these have
    /// different signatures; a reordering that means the same (`ls -la`,
    /// `ls -al`) is a different signature too. Empty when no unit was found.
    pub fn signature(&self) -> String {
        let mut out = String::new();
        for u in &self.units {
            if !out.is_empty() {
                out.push_str(" ; ");
            }
            out.push_str(&u.key);
        }
        out
    }

    /// The human-readable trace `tiergate explain` prints.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for u in &self.units {
            let indent = "  ".repeat(u.depth.saturating_sub(1) as usize);
            let _ = write!(out, "{indent}unit: {}", u.program);
            for a in &u.args {
                let _ = write!(out, " {a}");
            }
            for w in &u.writes {
                let _ = write!(out, " >{w}");
            }
            if !u.wrappers.is_empty() {
                let _ = write!(out, "   (through {})", u.wrappers.join(", "));
            }
            out.push('\n');
            for h in &u.hits {
                let class = if h.rule.blocked { "BLOCKED".to_owned() } else { h.rule.tier.to_string() };
                let _ = writeln!(out, "{indent}  {class} {}: {}", h.rule.id, h.reason());
            }
        }
        let v = &self.verdict;
        let class = if v.blocked { "BLOCKED".to_owned() } else { v.tier.to_string() };
        let _ = writeln!(out, "verdict: {class} {} ({}): {}", v.decision.as_str(), v.rule, v.reason);
        out
    }
}

/// Classifies `req`, keeping the trace.
pub fn trace(req: &Request, files: &dyn FileSource) -> Trace {
    if let Some(t) = refused(req) {
        return t;
    }
    let cmd = req.command.as_str();
    let mut eng = Eng::new(files, req.home_dir(), req.dir()).protecting(req.protect.clone());
    let mut hits = eng.source(cmd, req.dir());
    let mut units = std::mem::take(&mut eng.trace);
    for (slot, hit) in defended(&mut eng, cmd.len()) {
        units[slot].hits.push(hit.clone());
        hits.push(hit);
    }
    Trace { verdict: combine::verdict(&hits), units, hits }
}

/// Classifies `req` for its verdict alone: the same hits as `trace` in the same
/// order, without building the trace's text (per-unit copies of every word, the
/// wrappers' notes). `classify`, `tiergate batch` and the hook in ask mode.
pub fn verdict(req: &Request, files: &dyn FileSource) -> Verdict {
    if let Some(t) = refused(req) {
        return t.verdict;
    }
    let mut eng = Eng::new(files, req.home_dir(), req.dir()).protecting(req.protect.clone()).verdict_only();
    verdict_of(&mut eng, req)
}

/// `verdict`, and what the command writes (`lanes::Written`, in order), for a
/// caller that keeps a session's files (`lanes::Overlay`). The verdict is the one
/// `verdict` gives: recording adds no hit.
pub fn verdict_and_writes(req: &Request, files: &dyn FileSource) -> (Verdict, Vec<Written>) {
    if let Some(t) = refused(req) {
        return (t.verdict, Vec::new());
    }
    let mut eng = Eng::new(files, req.home_dir(), req.dir()).protecting(req.protect.clone()).verdict_only();
    eng.record_writes();
    let v = verdict_of(&mut eng, req);
    (v, eng.writes.unwrap_or_default())
}

/// The verdict-only run itself. (The engine is built by the caller and passed in,
/// not moved: every copy of it is stack the worst cases measure.)
fn verdict_of(eng: &mut Eng<'_>, req: &Request) -> Verdict {
    let cmd = req.command.as_str();
    let mut hits = eng.source(cmd, req.dir());
    hits.extend(defended(eng, cmd.len()).map(|(_, h)| h));
    combine::verdict(&hits)
}

/// The engine's self-defence hits (`Eng::defend`, judged as each unit completes,
/// a payload before the unit that runs it) in unit order, each spanning the whole
/// command: the one pass both the trace and the verdict-only run take.
fn defended(eng: &mut Eng<'_>, len: usize) -> impl Iterator<Item = (usize, Hit)> {
    let mut defended = std::mem::take(&mut eng.defended);
    defended.sort_by_key(|(slot, _)| *slot);
    defended.into_iter().map(move |(slot, h)| (slot, Hit { span: Span { start: 0, end: len }, ..h }))
}

/// Commands refused before parsing: too large, or holding a NUL.
fn refused(req: &Request) -> Option<Trace> {
    let cmd = req.command.as_str();
    if cmd.len() > MAX_COMMAND_BYTES || cmd.contains('\0') {
        let rule = if cmd.contains('\0') { &rules::PARSE_UNSUPPORTED } else { &rules::LIMITS_SIZE };
        let hits = vec![Hit { rule, detail: None, span: Span { start: 0, end: cmd.len() } }];
        return Some(Trace { verdict: combine::verdict(&hits), units: Vec::new(), hits });
    }
    None
}

/// `tiergate explain` without file access.
pub fn explain(req: &Request) -> String {
    trace(req, &crate::NoFiles).render()
}
