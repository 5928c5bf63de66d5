//! The judging steps of a replay, once both sides have answered: per-row diff
//! categories, head-only failures, observed moves, declarations matched against
//! them, and the truth edits `accept` would write. Pure functions of rows and
//! verdicts (declarations of the base are read from git by the caller).

use std::collections::{HashMap, HashSet};

use rayon::prelude::*;

use crate::checks::{self, Failure};
use crate::corpus::{Kind, Row, Spec};
use crate::declare::{self, Move, MoveKind};
use crate::diff::{categorize, Category, RowResult};
use crate::import;
use crate::protocol::Verdict;
use crate::TruthEdit;

/// Rows and their verdicts by (corpus, id).
pub(crate) type RowsById<'a> = HashMap<(Kind, &'a str), (&'a Row, &'a Verdict)>;

/// Pairs rows with their verdicts by (corpus, id).
pub(crate) fn by_id<'a>(rows: &'a [Row], verdicts: &'a [Verdict]) -> RowsById<'a> {
    rows.iter().zip(verdicts).map(|(r, v)| ((r.kind, r.id.as_str()), (r, v))).collect()
}

/// One result per row on either side (base-only rows only when `diffed`).
pub(crate) fn row_results(head_by: &RowsById, base_by: &RowsById, diffed: bool) -> Vec<RowResult> {
    let mut keys: Vec<(Kind, &str)> = head_by.keys().copied().collect();
    if diffed {
        keys.extend(base_by.keys().copied().filter(|k| !head_by.contains_key(k)));
    }
    keys.par_iter()
        .map(|k| {
            let h = head_by.get(k);
            let b = base_by.get(k);
            let row = h.or(b).map(|(r, _)| *r).expect("key comes from one side");
            let hv = h.map(|(_, v)| (*v).clone());
            let bv = if diffed { b.map(|(_, v)| (*v).clone()) } else { None };
            let category = if diffed {
                categorize(bv.as_ref(), hv.as_ref())
            } else if hv.as_ref().is_some_and(Verdict::is_error) {
                Category::Error
            } else {
                Category::New
            };
            let command = if row.kind == Kind::History { import::redact(&row.command) } else { row.command.clone() };
            RowResult { corpus: row.kind, id: row.id.clone(), command, cwd: row.cwd.clone(), weight: row.weight, category, base: bv, head: hv }
        })
        .collect()
}

/// Head-only failures: truth and curated checks, and history rows head gave no verdict for.
pub(crate) fn head_failures(head_rows: &[Row], head_verdicts: &[Verdict], head_by_id: &HashMap<&str, &Verdict>) -> Vec<Failure> {
    let mut failures = checks::head_checks(head_rows, head_by_id);
    for (r, v) in head_rows.iter().zip(head_verdicts) {
        if r.kind == Kind::History {
            if let Some(e) = &v.error {
                failures.push(Failure::new("error", Some(&r.id), format!("history {}: head gave no verdict ({e})", r.id)));
            }
        }
    }
    failures
}

/// Observed moves: verdict moves of every row present on both sides (pinned truth
/// rows must be declared) and expectation moves of truth rows (base CSV → head CSV).
pub(crate) fn moves(head_rows: &[Row], head_verdicts: &[Verdict], base_rows: &[&Row], base_by: &RowsById, diffed: bool) -> Vec<Move> {
    let base_truth: HashMap<&str, &Row> = base_rows.iter().filter(|r| r.kind == Kind::Truth).map(|r| (r.id.as_str(), *r)).collect();
    let mut out = Vec::new();
    for (r, hv) in head_rows.iter().zip(head_verdicts) {
        let at = format!("{}:{}", r.file, r.line);
        let base_row = if r.kind == Kind::Truth { base_truth.get(r.id.as_str()).copied() } else { None };
        let pinned_of = |row: Option<&Row>| matches!(row.map(|x| &x.spec), Some(Spec::Truth { pinned: true, .. }));
        let pinned = r.kind == Kind::Truth && (pinned_of(Some(r)) || pinned_of(base_row));
        if diffed {
            if let Some((_, bv)) = base_by.get(&(r.kind, r.id.as_str())) {
                if !bv.is_error() && !hv.is_error() && bv.class != hv.class {
                    out.push(Move { row: r.id.clone(), from: bv.class, to: hv.class, kind: MoveKind::Verdict, pinned, at: at.clone() });
                }
            }
        }
        if let (Spec::Truth { expect: he, .. }, Some(Spec::Truth { expect: be, .. })) = (&r.spec, base_row.map(|b| &b.spec)) {
            if he != be {
                out.push(Move { row: r.id.clone(), from: *be, to: *he, kind: MoveKind::Expectation, pinned, at });
            }
        }
    }
    out.sort();
    out
}

/// The rows a declaration is judged against, and whether the whole bench was replayed.
pub(crate) struct Judged<'a> {
    pub head_rows: &'a [Row],
    pub base_rows: &'a [&'a Row],
    /// Every corpus, every row, no shard: a declaration for a row on neither side is a typo.
    pub full: bool,
    /// Base verdicts exist (without them a verdict-move declaration cannot be confirmed or refuted).
    pub diffed: bool,
}

/// Matches the observed moves against head's declarations in effect (those not already in the base).
pub(crate) fn declarations(moves: &[Move], head_decls: &[declare::Entry], base_decls: &[declare::Entry], decl_hint: &str, on: &Judged) -> declare::Matched {
    let in_head: HashSet<&str> = on.head_rows.iter().map(|r| r.id.as_str()).collect();
    let in_base: HashSet<&str> = on.base_rows.iter().map(|r| r.id.as_str()).collect();
    // Judge entries for rows on both sides; a row on neither side is a typo
    // only when everything was replayed.
    let judged = |row: &str| match (in_head.contains(row), in_base.contains(row)) {
        (true, true) => true,
        (false, false) => on.full,
        _ => false,
    };
    let mut m = declare::check(moves, head_decls, base_decls, decl_hint, &judged);
    if !on.diffed {
        m.failures.retain(|f| !f.message.contains("stale declaration"));
    }
    m
}

/// A proposed expectation per truth row whose head verdict differs from it.
pub(crate) fn truth_edits(head_rows: &[Row], head: &HashMap<&str, &Verdict>, base_by: &RowsById) -> Vec<TruthEdit> {
    let mut out = Vec::new();
    for r in head_rows {
        let Spec::Truth { expect, pinned, .. } = r.spec else { continue };
        let Some(v) = head.get(r.id.as_str()).filter(|v| !v.is_error()) else { continue };
        if v.class == expect {
            continue;
        }
        let b = base_by.get(&(Kind::Truth, r.id.as_str()));
        out.push(TruthEdit {
            file: r.file.clone(),
            id: r.id.clone(),
            to: v.class,
            pinned,
            base_expect: b.and_then(|(row, _)| match row.spec {
                Spec::Truth { expect, .. } => Some(expect),
                _ => None,
            }),
            base_verdict: b.filter(|(_, v)| !v.is_error()).map(|(_, v)| v.class),
        });
    }
    out
}
