//! The Judge step, once both sides have answered: per-row diff categories, every
//! row's own check (its kind's), the observed moves and the declarations matched
//! against them, caps, rule coverage and the truth edits `accept` would write.
//! Pure: rows, verdicts and the inputs Load read in, a report out — no git reads,
//! no process spawns, no files.

use std::collections::{HashMap, HashSet};

use rayon::prelude::*;

use crate::checks::{self, Failure};
use crate::corpus::{Answered, AtBase, Kind, Row};
use crate::coverage::{self, RuleInfo};
use crate::declare::{self, Move};
use crate::diff::{categorize, Category, RowResult};
use crate::import;
use crate::load::Inputs;
use crate::protocol::Verdict;
use crate::report::Report;
use crate::TruthEdit;

/// What the base side answered.
pub(crate) enum BaseAnswers<'a> {
    /// The base's rows that were answered (`Inputs::base.rows`, less session steps
    /// a base without the extension cannot replay), and their answers in order.
    Answered(&'a [Row], &'a [Verdict]),
    /// Base and head trees are equal: head's answers stand for the base's rows.
    SameAsHead,
    /// No base answers (a base without protocol v1): no diff.
    Skipped,
}

/// Everything judged, borrowed.
pub(crate) struct Judge<'a> {
    pub inputs: &'a Inputs,
    pub corpora: &'a [Kind],
    /// `--against`: declarations are about commits, so they are not judged.
    pub against: bool,
    pub head: &'a [Verdict],
    pub base: BaseAnswers<'a>,
    /// Head's rule registry (`tiergate rules`), on full replays.
    pub registry: Option<&'a Result<Vec<RuleInfo>, String>>,
    /// Notes the Build step added (same tree, reused build, base predates v1, …).
    pub notes: &'a [String],
}

/// Rows and their verdicts by (corpus, id).
type RowsById<'a> = HashMap<(Kind, &'a str), (&'a Row, &'a Verdict)>;

fn by_id<'a>(rows: &'a [Row], verdicts: &'a [Verdict]) -> RowsById<'a> {
    rows.iter().zip(verdicts).map(|(r, v)| ((r.kind, r.id.as_str()), (r, v))).collect()
}

/// Judges a replay: the report, and the truth edits `accept` would write.
pub(crate) fn judge(j: &Judge) -> (Report, Vec<TruthEdit>) {
    let inputs = j.inputs;
    let head_rows = inputs.head_rows.as_slice();
    let head_by = by_id(head_rows, j.head);
    // The base's rows exist as a side only when the base speaks protocol v1.
    let base_rows: &[Row] = match j.base {
        BaseAnswers::Skipped => &[],
        BaseAnswers::Answered(rows, _) => rows,
        BaseAnswers::SameAsHead => &inputs.base.rows,
    };
    let (base_by, diffed): (RowsById, bool) = match j.base {
        BaseAnswers::Answered(rows, vs) => (by_id(rows, vs), true),
        BaseAnswers::SameAsHead => {
            (base_rows.iter().filter_map(|r| head_by.get(&(r.kind, r.id.as_str())).map(|(_, v)| ((r.kind, r.id.as_str()), (r, *v)))).collect(), true)
        }
        BaseAnswers::Skipped => (HashMap::new(), false),
    };
    let base_row: HashMap<(Kind, &str), &Row> = base_rows.iter().map(|r| ((r.kind, r.id.as_str()), r)).collect();
    // Each head row with its base counterpart: the base's row, and its verdict when answered.
    let pairs: Vec<(&Row, &Verdict, AtBase)> = head_rows
        .iter()
        .zip(j.head)
        .map(|(r, v)| {
            let key = (r.kind, r.id.as_str());
            let base = base_row.get(&key).map(|b| (*b, base_by.get(&key).map(|(_, bv)| *bv)));
            (r, v, base)
        })
        .collect();
    let results = row_results(&head_by, &base_by, diffed);
    let mut failures = checks::head_checks(head_rows, j.head);
    let mut moves: Vec<Move> = pairs.iter().flat_map(|(r, v, b)| r.kind.def().moves(r, v, *b)).collect();
    moves.sort();
    let matched = match (&inputs.names.base_commit, j.against) {
        (Some(_), false) => declarations(&moves, inputs, base_rows, diffed),
        _ => declare::Matched::default(),
    };
    failures.extend(matched.failures.iter().cloned());
    let caps_used = if diffed { crate::caps::measure(&inputs.caps, &results, j.corpora, &matched.declared) } else { Vec::new() };
    for c in caps_used.iter().filter(|c| c.exceeded()) {
        failures.push(Failure::new("caps", None, format!("caps.json {}.{}: {}/{} exceeded", c.corpus.as_str(), c.cap, c.used, c.limit)));
    }
    let truth_edits: Vec<TruthEdit> = pairs.iter().filter_map(|(r, v, b)| r.kind.def().edit(r, v, *b)).collect();
    let sections = sections(j.corpora, head_rows, &head_by, base_rows, &base_by);
    let mut notes: Vec<String> = inputs.notes.iter().chain(j.notes).cloned().collect();
    let coverage = rule_coverage(j, &mut notes);
    let mut report = Report {
        base: inputs.names.base_label.clone(),
        head: inputs.names.head_label.clone(),
        base_rule: inputs.names.base_rule.clone(),
        notes,
        corpora: j.corpora.to_vec(),
        diffed,
        rows: results,
        caps: caps_used,
        failures,
        pending: matched.pending,
        sections,
        coverage,
    };
    report.sort();
    (report, truth_edits)
}

/// One result per row on either side (base-only rows only when `diffed`).
fn row_results(head_by: &RowsById, base_by: &RowsById, diffed: bool) -> Vec<RowResult> {
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
            let command = if row.kind.def().private() { import::redact(&row.command) } else { row.command.clone() };
            let label = row.kind.def().label(row);
            RowResult { corpus: row.kind, id: row.id.clone(), command, cwd: row.cwd.clone(), weight: row.weight, category, base: bv, head: hv, label }
        })
        .collect()
}

/// Each replayed kind's own section, from its rows on either side with their answers.
fn sections(corpora: &[Kind], head_rows: &[Row], head_by: &RowsById, base_rows: &[Row], base_by: &RowsById) -> Vec<String> {
    corpora
        .iter()
        .filter_map(|&k| {
            let in_head = head_rows.iter().filter(|r| r.kind == k);
            let only_base = base_rows.iter().filter(|r| r.kind == k && !head_by.contains_key(&(k, r.id.as_str())));
            let rows: Vec<Answered> = in_head
                .chain(only_base)
                .map(|r| {
                    let key = (k, r.id.as_str());
                    Answered { row: r, head: head_by.get(&key).map(|(_, v)| *v), base: base_by.get(&key).map(|(_, v)| *v) }
                })
                .collect();
            k.def().section(&rows)
        })
        .collect()
}

/// Matches the observed moves against head's declarations in effect (those not
/// already in the base). An entry is judged only for a row on both sides; one for a
/// row on neither side is a typo when everything was replayed.
fn declarations(moves: &[Move], inputs: &Inputs, base_rows: &[Row], diffed: bool) -> declare::Matched {
    let in_head: HashSet<&str> = inputs.head_rows.iter().map(|r| r.id.as_str()).collect();
    let in_base: HashSet<&str> = base_rows.iter().map(|r| r.id.as_str()).collect();
    let judged = |row: &str| match (in_head.contains(row), in_base.contains(row)) {
        (true, true) => true,
        (false, false) => inputs.full,
        _ => false,
    };
    let hint = format!("declared/{}..{}.json", inputs.names.base_label, inputs.names.head_label);
    let mut m = declare::check(moves, &inputs.head_decls, &inputs.base.decls, &hint, &judged);
    if !diffed {
        // Without base verdicts a verdict-move declaration can be neither confirmed nor refuted.
        m.failures.retain(|f| !f.message.contains("stale declaration"));
    }
    m
}

/// Rule coverage of head's answers against head's own registry; a registry or
/// exemption file that cannot be read is a note, not a failed replay.
fn rule_coverage(j: &Judge, notes: &mut Vec<String>) -> Option<coverage::Coverage> {
    let (Some(registry), Some(exemptions)) = (j.registry, &j.inputs.exemptions) else { return None };
    match (registry, exemptions) {
        (Ok(rules), Ok(ex)) => Some(coverage::compute(rules, &j.inputs.head_rows, j.head, ex)),
        (Err(e), _) | (_, Err(e)) => {
            notes.push(format!("rule coverage skipped: {e}"));
            None
        }
    }
}
