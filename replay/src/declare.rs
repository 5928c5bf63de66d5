//! Declarations: `declared/*.json` = `{"changes":[{"row","from","to","reason"}]}`.
//! Every pinned truth row whose verdict moved (base verdict → head verdict) or whose
//! expectation moved (base's CSV → head's CSV) needs an entry matching the move
//! exactly, with a real reason (not empty, not `TODO`). An entry in effect that
//! matches no move is stale and fails. Entries already present at the base (same
//! file, row, from, to) were about earlier moves and are not in effect. Entries may
//! also declare moves of unpinned rows (a declared loosening does not use the
//! `loosened` cap). It does not write files (accept.rs does).

use std::collections::{BTreeSet, HashSet};
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::checks::Failure;
use crate::protocol::Class;

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DeclFile {
    pub changes: Vec<Change>,
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Change {
    pub row: String,
    pub from: Class,
    pub to: Class,
    pub reason: String,
}

/// An entry with the file it came from.
#[derive(Clone, Debug)]
pub struct Entry {
    pub file: String,
    pub change: Change,
}

/// Parses one declaration file; the error names file:line:column.
pub fn parse(file: &str, bytes: &[u8]) -> Result<Vec<Entry>, String> {
    let f: DeclFile = serde_json::from_slice(bytes).map_err(|e| format!("{file}:{}:{}: {e}", e.line(), e.column()))?;
    Ok(f.changes.into_iter().map(|change| Entry { file: file.to_owned(), change }).collect())
}

/// Reads `declared/*.json` from the work tree; every malformed file is reported.
pub fn load_worktree(root: &Path) -> Result<Vec<Entry>, Vec<String>> {
    let dir = root.join("declared");
    let mut names: Vec<String> =
        std::fs::read_dir(&dir).map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()).collect()).unwrap_or_default();
    names.retain(|n| n.ends_with(".json"));
    names.sort();
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for n in names {
        let rel = format!("declared/{n}");
        match std::fs::read(root.join(&rel)) {
            Ok(b) => match parse(&rel, &b) {
                Ok(e) => out.extend(e),
                Err(e) => errors.push(e),
            },
            Err(e) => errors.push(format!("{rel}:1: cannot read: {e}")),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// Entries at the base commit; unreadable ones are ignored (the base is history).
pub fn load_commit(root: &Path, commit: &str) -> Vec<Entry> {
    crate::git::ls_tree(root, commit, "declared", ".json", false)
        .into_iter()
        .filter_map(|p| crate::git::show(root, commit, &p).and_then(|b| parse(&p, &b).ok()))
        .flatten()
        .collect()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MoveKind {
    Verdict,
    Expectation,
}

/// An observed move of one row.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Move {
    pub row: String,
    pub from: Class,
    pub to: Class,
    pub kind: MoveKind,
    /// Pinned rows must be declared; others may be.
    pub pinned: bool,
    /// `corpus/truth/x.csv:12` (head's location).
    pub at: String,
    /// Why a pinned move must be declared, as the failure says it ("pinned row").
    #[serde(skip)]
    pub claim: &'static str,
}

/// The outcome of matching moves against entries.
#[derive(Debug, Default)]
pub struct Matched {
    pub failures: Vec<Failure>,
    /// Moves a valid entry covered: (row, from, to).
    pub declared: HashSet<(String, Class, Class)>,
    /// Pinned moves that no entry covered (what `accept` would declare).
    pub pending: Vec<Move>,
}

/// Matches `moves` against the entries in effect (`head` minus those in `base`).
/// `judged(row)` says whether an entry for that row can be judged at all: a row that
/// exists on one side only cannot have moved, and rows outside `--only`/`--corpus`
/// were not replayed; such entries are neither used nor stale.
pub fn check(moves: &[Move], head: &[Entry], base: &[Entry], decl_hint: &str, judged: &dyn Fn(&str) -> bool) -> Matched {
    let old: HashSet<(&str, &str, Class, Class)> = base.iter().map(|e| (e.file.as_str(), e.change.row.as_str(), e.change.from, e.change.to)).collect();
    let active: Vec<&Entry> = head
        .iter()
        .filter(|e| !old.contains(&(e.file.as_str(), e.change.row.as_str(), e.change.from, e.change.to)))
        .filter(|e| judged(&e.change.row))
        .collect();
    let mut m = Matched::default();
    let mut used: BTreeSet<usize> = BTreeSet::new();
    for mv in moves {
        let hit = active.iter().position(|e| e.change.row == mv.row && e.change.from == mv.from && e.change.to == mv.to);
        match hit {
            Some(i) => {
                used.insert(i);
                let e = active[i];
                let reason = e.change.reason.trim();
                if reason.is_empty() || reason.eq_ignore_ascii_case("todo") {
                    m.failures.push(Failure::new(
                        "declare",
                        Some(&mv.row),
                        format!("{}: row {} ({} → {}): the reason is {:?}; write why this move is intended", e.file, mv.row, mv.from, mv.to, e.change.reason),
                    ));
                } else {
                    m.declared.insert((mv.row.clone(), mv.from, mv.to));
                }
            }
            None if mv.pinned => {
                let what = match mv.kind {
                    MoveKind::Verdict => "verdict",
                    MoveKind::Expectation => "expectation",
                };
                m.failures.push(Failure::new(
                    "declare",
                    Some(&mv.row),
                    format!(
                        "{} {} {}: {what} moved {} → {} without a declaration; add \
                         {{\"row\":\"{}\",\"from\":\"{}\",\"to\":\"{}\",\"reason\":\"…\"}} to {decl_hint} \
                         (or run `cargo xtask replay accept`)",
                        mv.at, mv.claim, mv.row, mv.from, mv.to, mv.row, mv.from, mv.to
                    ),
                ));
                m.pending.push(mv.clone());
            }
            None => {}
        }
    }
    for (i, e) in active.iter().enumerate() {
        if !used.contains(&i) {
            m.failures.push(Failure::new(
                "declare",
                Some(&e.change.row),
                format!(
                    "{}: stale declaration: row {} {} → {} matches no move between base and head; remove it",
                    e.file, e.change.row, e.change.from, e.change.to
                ),
            ));
        }
    }
    m
}
