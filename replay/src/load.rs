//! Loading both sides' rows: head's corpora from the work tree (with `--history`
//! imports, `--only` and the caps and declarations), the base's from git.

use std::collections::HashSet;
use std::path::Path;

use rayon::prelude::*;

use crate::config::Config;
use crate::corpus::{self, Kind, Row, Spec};
use crate::exit::ReplayError;
use crate::{build, caps, declare, git, import};

/// Loads head's side: caps, corpora, imported history, declarations. Every
/// configuration problem is collected before failing.
pub(crate) fn head(cfg: &Config, notes: &mut Vec<String>) -> Result<(caps::Caps, Vec<Row>, Vec<declare::Entry>), ReplayError> {
    let mut errors = Vec::new();
    let caps = caps::load(&cfg.root).map_err(|e| errors.push(e)).ok();
    let loaded: Vec<Result<corpus::Corpus, Vec<String>>> = cfg.corpora.par_iter().map(|k| corpus::load_worktree(&cfg.root, *k)).collect();
    let mut rows = Vec::new();
    for l in loaded {
        match l {
            Ok(c) => rows.extend(c.rows),
            Err(e) => errors.extend(e),
        }
    }
    for path in &cfg.history {
        match import::import(path) {
            Ok(imp) => {
                if !imp.malformed.is_empty() {
                    notes.push(format!("{} malformed history line(s) skipped in --history input", imp.malformed.len()));
                }
                notes.push(format!("{} imported history command(s) replayed from a --history file", imp.rows.len()));
                rows.extend(imported_rows(imp.rows));
            }
            Err(e) => errors.push(format!("--history {}: {e:#}", path.display())),
        }
    }
    let decls = declare::load_worktree(&cfg.root).map_err(|e| errors.extend(e)).unwrap_or_default();
    if !cfg.only.is_empty() {
        let have: HashSet<&str> = rows.iter().map(|r| r.id.as_str()).collect();
        for id in &cfg.only {
            if !have.contains(id.as_str()) {
                errors.push(format!("--only {id}: no row has this id in the selected corpora"));
            }
        }
    }
    match caps {
        Some(c) if errors.is_empty() => Ok((c, filter_only(rows, &cfg.only), decls)),
        _ => Err(ReplayError::Usage(errors)),
    }
}

fn imported_rows(rows: Vec<import::ImportedRow>) -> Vec<Row> {
    use sha2::{Digest, Sha256};
    let mut seen = HashSet::new();
    rows.into_iter()
        .filter_map(|r| {
            let mut h = Sha256::new();
            h.update(r.command.as_bytes());
            h.update([0]);
            h.update(r.cwd.as_deref().unwrap_or("").as_bytes());
            let id = format!("import:{}", &build::hex(&h.finalize())[..12]);
            seen.insert(id.clone()).then(|| Row {
                kind: Kind::History,
                id,
                command: r.command,
                cwd: r.cwd,
                weight: r.weight.max(1),
                spec: Spec::History,
                file: "--history".into(),
                line: 0,
                note: String::new(),
            })
        })
        .collect()
}

pub(crate) fn filter_only(rows: Vec<Row>, only: &[String]) -> Vec<Row> {
    if only.is_empty() {
        return rows;
    }
    let keep: HashSet<&str> = only.iter().map(String::as_str).collect();
    rows.into_iter().filter(|r| keep.contains(r.id.as_str())).collect()
}

/// Base's corpora read from git at `commit`. A corpus the base cannot parse is
/// treated as absent there (its rows show as new) and said in a note.
pub(crate) fn base_rows(root: &Path, commit: &str, kinds: &[Kind], notes: &mut Vec<String>) -> Vec<Row> {
    let mut rows = Vec::new();
    for &k in kinds {
        let dir = format!("corpus/{}", k.as_str());
        let files: Vec<(String, Vec<u8>)> =
            git::ls_tree(root, commit, &dir, ".csv").into_iter().filter_map(|p| git::show(root, commit, &p).map(|b| (p, b))).collect();
        match corpus::load_files(k, files) {
            Ok(c) => rows.extend(c.rows),
            Err(e) => {
                notes.push(format!("the base's {} corpus does not load ({}); its rows count as new", k.as_str(), e.first().map(String::as_str).unwrap_or("")))
            }
        }
    }
    rows
}
