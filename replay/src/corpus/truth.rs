//! The truth kind: `corpus/truth/*.csv`, columns `id,command,cwd,expect,pinned,family,note`
//! and an optional last column `rule`, the rule id that must decide the row (empty:
//! any). A tier alone cannot tell a read verb from an unknown word that is also T0;
//! the deciding rule can (`git.read` vs `git.unknown`). Head must answer every row
//! exactly its expectation; a pinned row's verdict or expectation may only move
//! with a declaration; `accept` proposes head's class as the new expectation.

use super::table::{self, cwd_of, Fields, Parsed, Table};
use super::{verdict_move, AtBase, CorpusKind, Kind, Row, Source, Spec, PINNED};
use crate::checks::Failure;
use crate::declare::{Move, MoveKind};
use crate::protocol::{Class, Verdict};
use crate::TruthEdit;

pub(super) const COLUMNS: &[&str] = &["id", "command", "cwd", "expect", "pinned", "family", "note"];
/// `COLUMNS` plus the deciding rule.
pub(super) const COLUMNS_WITH_RULE: &[&str] = &["id", "command", "cwd", "expect", "pinned", "family", "note", "rule"];

pub(super) const TABLE: Table = Table { kind: Kind::Truth, columns: COLUMNS, alt_columns: Some(COLUMNS_WITH_RULE), spec };

/// `gated` and `free` are controls on either side of a rule's line; `open` records a
/// known gap at its current verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TruthFamily {
    Gated,
    Free,
    Open,
}

/// The shape of a rule id (`git.read`, `exec.option-command`): lower-case words,
/// digits, `.`, `-`, `_` — what the classifier's registry test allows.
pub fn is_rule_id(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'_'))
}

fn spec(f: &Fields, bad: &mut dyn FnMut(&str, String)) -> Option<Parsed> {
    let expect = Class::parse(f.get("expect"));
    if expect.is_none() {
        bad("expect", format!("{:?} is not one of T0 T1 T2 T3 BLOCKED", f.get("expect")));
    }
    let pinned = match f.get("pinned") {
        "true" => Some(true),
        "false" => Some(false),
        other => {
            bad("pinned", format!("{other:?} is not one of true false"));
            None
        }
    };
    let family = match f.get("family") {
        "gated" => Some(TruthFamily::Gated),
        "free" => Some(TruthFamily::Free),
        "open" => Some(TruthFamily::Open),
        other => {
            bad("family", format!("{other:?} is not one of gated free open"));
            None
        }
    };
    let rule = f.get("rule").trim();
    if !rule.is_empty() && !is_rule_id(rule) {
        bad("rule", format!("{rule:?} is not a rule id (lower-case words, digits, `.`, `-`, `_`)"));
        return None;
    }
    let rule = (!rule.is_empty()).then(|| rule.to_owned());
    Some((Spec::Truth { expect: expect?, pinned: pinned?, family: family?, rule }, 1, cwd_of(f.get("cwd")), f.get("note").to_owned()))
}

pub(super) struct Truth;

fn pinned_of(row: &Row) -> bool {
    matches!(row.spec, Spec::Truth { pinned: true, .. })
}

impl CorpusKind for Truth {
    fn location(&self) -> &'static str {
        "corpus/truth/*.csv"
    }

    fn load(&self, src: &dyn Source) -> Result<Vec<Row>, Vec<String>> {
        table::load(&TABLE, src)
    }

    fn check(&self, r: &Row, v: &Verdict) -> Option<Failure> {
        let Spec::Truth { expect, pinned, rule, .. } = &r.spec else { return None };
        let what = if *pinned { "expected (pinned)" } else { "expected" };
        let at = format!("{}:{} {}", r.file, r.line, r.id);
        if let Some(e) = &v.error {
            return Some(Failure::new("truth", Some(&r.id), format!("{at}: head gave no verdict ({e})")));
        }
        if v.class != *expect {
            return Some(Failure::new("truth", Some(&r.id), format!("{at}: {what} {expect}, head says {} ({}: {})", v.class, v.rule, v.reason)));
        }
        let rule = rule.as_ref().filter(|rule| v.rule != **rule)?;
        Some(Failure::new("truth", Some(&r.id), format!("{at}: {what} {expect} decided by {rule}, head says {} by {} ({})", v.class, v.rule, v.reason)))
    }

    /// A pinned row (pinned on either side) must declare its verdict move and its
    /// expectation move (the base commit's CSV → head's).
    fn moves(&self, r: &Row, head: &Verdict, base: AtBase) -> Vec<Move> {
        let pinned = pinned_of(r) || base.is_some_and(|(b, _)| pinned_of(b));
        let mut out: Vec<Move> = verdict_move(r, head, base, pinned).into_iter().collect();
        if let (Spec::Truth { expect: he, .. }, Some((Row { spec: Spec::Truth { expect: be, .. }, .. }, _))) = (&r.spec, base) {
            if he != be {
                out.push(Move {
                    row: r.id.clone(),
                    from: *be,
                    to: *he,
                    kind: MoveKind::Expectation,
                    pinned,
                    at: format!("{}:{}", r.file, r.line),
                    claim: PINNED,
                });
            }
        }
        out
    }

    fn edit(&self, r: &Row, v: &Verdict, base: AtBase) -> Option<TruthEdit> {
        let Spec::Truth { expect, pinned, .. } = r.spec else { return None };
        if v.is_error() || v.class == expect {
            return None;
        }
        // The base's expectation and verdict count only where the base was replayed.
        let answered = base.and_then(|(row, bv)| bv.map(|bv| (row, bv)));
        Some(TruthEdit {
            file: r.file.clone(),
            id: r.id.clone(),
            to: v.class,
            pinned,
            base_expect: answered.and_then(|(row, _)| match row.spec {
                Spec::Truth { expect, .. } => Some(expect),
                _ => None,
            }),
            base_verdict: answered.filter(|(_, bv)| !bv.is_error()).map(|(_, bv)| bv.class),
        })
    }
}
