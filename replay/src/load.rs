//! The Load step: everything a replay reads, read once and before anything is
//! built — head's caps, corpora, `--history` imports and declarations from the work
//! tree; which commit the base is; the base's corpora and declarations from git;
//! the rule-coverage exemptions. The row filters (`--corpus`, `--only`, `--shard`)
//! are applied here, once, to both sides.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use rayon::prelude::*;

use crate::config::Config;
use crate::corpus::{self, sessions, AtCommit, Kind, Row, Spec};
use crate::exit::ReplayError;
use crate::{base, build, caps, coverage, declare, git, import, shard};

/// What the two sides are called, resolved from git before any build.
pub(crate) struct Names {
    pub head_label: String,
    /// The work tree has changes: head is not a commit.
    pub dirty: bool,
    pub base_label: String,
    /// How the base was chosen, for the report.
    pub base_rule: String,
    /// None with `--against`.
    pub base_commit: Option<String>,
}

/// The base commit's side of the inputs.
pub(crate) struct BaseInputs {
    /// The base's rows (head's with `--against`), filtered like head's.
    pub rows: Vec<Row>,
    /// `declared/*.json` at the base commit (empty with `--against`).
    pub decls: Vec<declare::Entry>,
    /// Base and head have the same tree (and the work tree is clean).
    pub same_tree: bool,
}

/// Every input of one replay.
pub(crate) struct Inputs {
    pub caps: caps::Caps,
    /// Head's selected rows, sorted by corpus order then id.
    pub head_rows: Vec<Row>,
    pub head_decls: Vec<declare::Entry>,
    pub names: Names,
    pub base: BaseInputs,
    /// Every corpus, every row, no shard: declarations for rows on neither side are
    /// typos, and rule coverage is meaningful.
    pub full: bool,
    /// The reviewed coverage gaps (full replays only; a malformed file is a note).
    pub exemptions: Option<Result<Vec<coverage::Exemption>, String>>,
    /// Plain sentences for the report (imports, shards, base corpora that do not load).
    pub notes: Vec<String>,
}

/// Loads every input. Configuration problems of head's side are collected and
/// reported together (exit 2) before git is asked anything.
pub(crate) fn inputs(cfg: &Config) -> Result<Inputs, ReplayError> {
    let mut notes = Vec::new();
    let (caps, head_all, head_decls) = head(cfg, &mut notes)?;
    let head_rows = select(cfg, head_all);
    if let Some((i, n)) = cfg.shard {
        notes.push(format!("shard {i}/{n}: {} rows; caps and declarations see only this shard, `cargo xtask replay merge` judges the whole", head_rows.len()));
    }
    let names = name_sides(cfg)?;
    let base = base_inputs(cfg, &names, &head_rows, &mut notes);
    let full = cfg.only.is_empty() && cfg.shard.is_none() && Kind::ALL.iter().all(|k| cfg.corpora.contains(k));
    let exemptions = full.then(|| coverage::load_exemptions(&cfg.root).map_err(|e| e.join("; ")));
    Ok(Inputs { caps, head_rows, head_decls, names, base, full, exemptions, notes })
}

/// Head's side: caps, corpora, imported history, declarations, `--only` ids that
/// exist. Every configuration problem is collected before failing.
fn head(cfg: &Config, notes: &mut Vec<String>) -> Result<(caps::Caps, Vec<Row>, Vec<declare::Entry>), ReplayError> {
    let mut errors = Vec::new();
    let caps = caps::load(&cfg.root).map_err(|e| errors.extend(e.lines().map(str::to_owned))).ok();
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
                if !imp.rows.is_empty() {
                    notes.push(format!("{} imported history command(s) replayed from a --history file", imp.rows.len()));
                }
                if !imp.steps.is_empty() {
                    let sessions: HashSet<(&str, &str)> = imp.steps.iter().map(|s| (s.source, s.session.as_str())).collect();
                    notes.push(format!("{} imported session step(s) of {} session(s) replayed from a --history file", imp.steps.len(), sessions.len()));
                }
                rows.extend(imported_rows(imp.rows));
                let (steps, cut) = imported_steps(imp.steps);
                if cut > 0 {
                    notes.push(format!(
                        "{cut} imported session step(s) past step {} of their session not replayed (a session this long is cut there)",
                        sessions::MAX_STEP
                    ));
                }
                rows.extend(steps);
            }
            Err(e) => errors.push(format!("--history {}: {e:#}", path.display())),
        }
    }
    let decls = declare::load_worktree(&cfg.root).map_err(|e| errors.extend(e)).unwrap_or_default();
    // Rows of a kind that comes from the binaries exist only after the Build step
    // (`only_ids_exist` is asked again then).
    if !cfg.corpora.iter().any(|k| k.def().rows_from_binary()) {
        errors.extend(only_ids_exist(cfg, &rows).err().unwrap_or_default());
    }
    match caps {
        Some(c) if errors.is_empty() => Ok((c, rows, decls)),
        _ => Err(ReplayError::Usage(errors)),
    }
}

/// Every `--only` id names a row of `rows`; Err lists the ones that do not.
pub(crate) fn only_ids_exist(cfg: &Config, rows: &[Row]) -> Result<(), Vec<String>> {
    let have: HashSet<&str> = rows.iter().map(|r| r.id.as_str()).collect();
    let missing: Vec<String> =
        cfg.only.iter().filter(|id| !have.contains(id.as_str())).map(|id| format!("--only {id}: no row has this id in the selected corpora")).collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(missing)
    }
}

/// The filters, applied the same way to either side: `--only` ids (a session's
/// step brings the session's earlier steps, whose writes it reads), then `--shard`.
/// (`--corpus` chose which kinds were loaded at all.)
pub(crate) fn select(cfg: &Config, rows: Vec<Row>) -> Vec<Row> {
    let rows = if cfg.only.is_empty() {
        rows
    } else {
        let keep: HashSet<&str> = cfg.only.iter().map(String::as_str).collect();
        // The last selected step of each session: every step up to it is kept.
        let mut upto: HashMap<String, usize> = HashMap::new();
        for (i, r) in rows.iter().enumerate().filter(|(_, r)| keep.contains(r.id.as_str())) {
            if let Some(s) = r.session() {
                upto.insert(s, i);
            }
        }
        rows.into_iter()
            .enumerate()
            .filter(|(i, r)| keep.contains(r.id.as_str()) || r.session().and_then(|s| upto.get(&s)).is_some_and(|last| i <= last))
            .map(|(_, r)| r)
            .collect()
    };
    shard::keep(rows, cfg.shard)
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

/// Imported agent sessions as rows of the sessions kind: each step numbered in its
/// session, in the order the agent ran it; and how many steps past `MAX_STEP` were cut.
fn imported_steps(steps: Vec<import::ImportedStep>) -> (Vec<Row>, usize) {
    let mut next: HashMap<(&'static str, String), u32> = HashMap::new();
    let mut rows = Vec::new();
    let mut cut = 0;
    for s in steps {
        let n = next.entry((s.source, s.session.clone())).or_insert(0);
        if *n > sessions::MAX_STEP {
            cut += 1;
            continue;
        }
        rows.push(sessions::step_row(s.source, &s.session, *n, s.cwd, s.command, "--history", 0));
        *n += 1;
    }
    (rows, cut)
}

/// Head's label and the base (or `--against`), resolved from git.
fn name_sides(cfg: &Config) -> Result<Names, ReplayError> {
    let (head_commit, dirty) = base::head(&cfg.root)?;
    let head_label = if dirty { "worktree".to_owned() } else { base::short(&head_commit).to_owned() };
    let (base_label, base_rule, base_commit) = match &cfg.against {
        Some(argv) => ("against".to_owned(), format!("--against `{}`", argv.join(" ")), None),
        None => {
            let b = base::resolve(&cfg.root, cfg.base.as_deref(), cfg.base_env.as_deref())?;
            (base::short(&b.commit).to_owned(), b.rule, Some(b.commit))
        }
    };
    Ok(Names { head_label, dirty, base_label, base_rule, base_commit })
}

/// The base's rows and declarations: head's rows with `--against`, else the base
/// commit's corpora read from git (plus the same `--history` imports), filtered.
fn base_inputs(cfg: &Config, names: &Names, head_rows: &[Row], notes: &mut Vec<String>) -> BaseInputs {
    let root = &cfg.root;
    let Some(commit) = names.base_commit.as_deref() else {
        return BaseInputs { rows: head_rows.to_vec(), decls: Vec::new(), same_tree: false };
    };
    let same_tree = !names.dirty && git::git(root, &["rev-parse", &format!("{commit}^{{tree}}")]).ok() == git::git(root, &["rev-parse", "HEAD^{tree}"]).ok();
    let mut rows = commit_rows(root, commit, &cfg.corpora, notes);
    rows.extend(head_rows.iter().filter(|r| r.file == "--history").cloned());
    BaseInputs { rows: select(cfg, rows), decls: declare::load_commit(root, commit), same_tree }
}

/// A commit's corpora read from git. A corpus the base cannot parse is treated as
/// absent there (its rows show as new) and said in a note.
fn commit_rows(root: &Path, commit: &str, kinds: &[Kind], notes: &mut Vec<String>) -> Vec<Row> {
    let src = AtCommit { root, commit };
    let loaded: Vec<(Kind, Result<corpus::Corpus, Vec<String>>)> = kinds.par_iter().map(|&k| (k, corpus::load(k, &src))).collect();
    let mut rows = Vec::new();
    for (k, l) in loaded {
        match l {
            Ok(c) => rows.extend(c.rows),
            Err(e) => {
                notes.push(format!("the base's {} corpus does not load ({}); its rows count as new", k.as_str(), e.first().map(String::as_str).unwrap_or("")))
            }
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imported_steps_are_numbered_per_session_and_a_cut_is_counted() {
        let step = |session: &str| import::ImportedStep { source: "claude-code", session: session.to_owned(), cwd: None, command: "ls".to_owned() };
        let long = sessions::MAX_STEP as usize + 3;
        let steps: Vec<_> = std::iter::once(step("b")).chain(std::iter::repeat_with(|| step("a")).take(long)).chain([step("b")]).collect();
        let (rows, cut) = imported_steps(steps);
        assert_eq!(cut, 2, "two steps of `a` past the last step number");
        assert_eq!(rows.len(), long - 2 + 2);
        let ids: Vec<&str> = rows.iter().filter(|r| r.id.starts_with("claude-code/b/")).map(|r| r.id.as_str()).collect();
        assert_eq!(ids, ["claude-code/b/00000", "claude-code/b/00001"]);
        assert_eq!(rows.iter().rfind(|r| r.id.starts_with("claude-code/a/")).map(|r| r.id.as_str()), Some("claude-code/a/99999"));
    }
}
