//! `cargo xtask replay accept`: turns a replay's pending moves into files for a
//! human to finish — failing truth rows get head's class as their expectation (the
//! CSV row is rewritten in place, the rest of the file untouched), and every pinned
//! move gets a `declared/<base>..<head>.json` entry with `"reason": "TODO"`, which
//! fails the next replay until a real reason replaces it. Never runs in check mode.

use std::collections::BTreeSet;
use std::path::Path;

use crate::declare::{Change, DeclFile};
use crate::exit::ReplayError;
use crate::protocol::Class;
use crate::{Outcome, TruthEdit};

/// What accept wrote.
#[derive(Debug, Default)]
pub struct Accepted {
    pub truth_rows: Vec<String>,
    pub declared: Vec<Change>,
    pub declared_file: Option<String>,
}

/// Applies `outcome`'s pending work, restricted to `only` ids when not empty.
/// A check run (`--check`, or `CI` set — the xtask front folds both into
/// `Config::check`) never writes: the library refuses, whoever calls it.
pub fn apply(cfg: &crate::config::Config, outcome: &Outcome, only: &[String]) -> Result<Accepted, ReplayError> {
    if cfg.check {
        return Err(ReplayError::usage("accept writes truth tables and declarations, and this is a check run (--check or CI): it never writes".to_owned()));
    }
    let root = cfg.root.as_path();
    let keep = |id: &str| only.is_empty() || only.iter().any(|o| o == id);
    let mut acc = Accepted::default();
    let mut templates: BTreeSet<(String, Class, Class)> = BTreeSet::new();
    let edits: Vec<&TruthEdit> = outcome.truth_edits.iter().filter(|e| keep(&e.id)).collect();
    for e in &edits {
        edit_expect(root, &e.file, &e.id, e.to)?;
        acc.truth_rows.push(format!("{} {} → {}", e.file, e.id, e.to));
        if e.pinned {
            if let Some(bv) = e.base_verdict.filter(|b| *b != e.to) {
                templates.insert((e.id.clone(), bv, e.to));
            }
            if let Some(be) = e.base_expect.filter(|b| *b != e.to) {
                templates.insert((e.id.clone(), be, e.to));
            }
        }
    }
    for m in outcome.report.pending.iter().filter(|m| keep(&m.row)) {
        templates.insert((m.row.clone(), m.from, m.to));
    }
    if !templates.is_empty() {
        let rel = format!("declared/{}.json", outcome.report.dir_name());
        let path = root.join(&rel);
        let mut file = match std::fs::read(&path) {
            Ok(b) => serde_json::from_slice::<DeclFile>(&b).map_err(|e| ReplayError::usage(format!("{rel}:{}:{}: {e}", e.line(), e.column())))?,
            Err(_) => DeclFile { changes: Vec::new() },
        };
        for (row, from, to) in templates {
            if !file.changes.iter().any(|c| c.row == row && c.from == from && c.to == to) {
                let c = Change { row, from, to, reason: "TODO".into() };
                acc.declared.push(c.clone());
                file.changes.push(c);
            }
        }
        let text = serde_json::to_string_pretty(&file).unwrap_or_default() + "\n";
        crate::report::write::atomic(&path, text.as_bytes()).map_err(|e| ReplayError::infra(format!("{rel}: {e}")))?;
        acc.declared_file = Some(rel);
    }
    Ok(acc)
}

/// Rewrites the `expect` field of row `id` in `file`, keeping every other byte.
pub fn edit_expect(root: &Path, file: &str, id: &str, to: Class) -> Result<(), ReplayError> {
    let path = root.join(file);
    let bytes = std::fs::read(&path).map_err(|e| ReplayError::usage(format!("{file}:1: {e}")))?;
    let mut rdr = csv::ReaderBuilder::new().has_headers(true).from_reader(bytes.as_slice());
    let headers = rdr.headers().map_err(|e| ReplayError::usage(format!("{file}:1: {e}")))?.clone();
    let col = headers.iter().position(|h| h == "expect").ok_or_else(|| ReplayError::usage(format!("{file}:1: no expect column")))?;
    let idc = headers.iter().position(|h| h == "id").unwrap_or(0);
    let mut records: Vec<(u64, csv::StringRecord)> = Vec::new();
    for rec in rdr.records() {
        let rec = rec.map_err(|e| ReplayError::usage(format!("{file}: {e}")))?;
        let pos = rec.position().map(|p| p.byte()).unwrap_or(0);
        records.push((pos, rec));
    }
    let Some(i) = records.iter().position(|(_, r)| r.get(idc) == Some(id)) else {
        return Err(ReplayError::usage(format!("{file}: no row with id {id}")));
    };
    let start = records[i].0 as usize;
    let end = records.get(i + 1).map(|(p, _)| *p as usize).unwrap_or(bytes.len());
    let mut rec = records[i].1.clone();
    let mut fields: Vec<String> = rec.iter().map(str::to_owned).collect();
    fields[col] = to.as_str().to_owned();
    rec = csv::StringRecord::from(fields);
    let mut w = csv::WriterBuilder::new().from_writer(Vec::new());
    w.write_record(&rec).map_err(|e| ReplayError::infra(e.to_string()))?;
    let line = w.into_inner().map_err(|e| ReplayError::infra(e.to_string()))?;
    let mut out = bytes[..start].to_vec();
    out.extend_from_slice(&line);
    // Keep whatever followed the old record's own line ending (next record or EOF).
    let old = &bytes[start..end];
    let trailing = old.len() - old.iter().rev().take_while(|b| **b == b'\n' || **b == b'\r').count();
    let old_ending = &old[trailing..];
    if old_ending.is_empty() || old_ending.len() > 2 {
        out.pop(); // no newline in the original (last line) or blank lines follow: keep as it was
        out.extend_from_slice(old_ending);
    }
    out.extend_from_slice(&bytes[end..]);
    crate::report::write::atomic(&path, &out).map_err(|e| ReplayError::infra(format!("{file}: {e}")))
}
