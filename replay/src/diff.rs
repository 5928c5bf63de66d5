//! Sorts every (base, head) pair into exactly one category — crater's comparison,
//! one exhaustive match — and aggregates counts per corpus and per rule id, history
//! rows weighted by occurrence. It does not judge policy (checks, caps, declare do).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::corpus::Kind;
use crate::protocol::Verdict;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    Unchanged,
    Tightened,
    Loosened,
    ReasonOnly,
    New,
    Removed,
    Error,
}

impl Category {
    pub const ALL: [Category; 7] =
        [Category::Unchanged, Category::Tightened, Category::Loosened, Category::ReasonOnly, Category::New, Category::Removed, Category::Error];
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Unchanged => "unchanged",
            Category::Tightened => "tightened",
            Category::Loosened => "loosened",
            Category::ReasonOnly => "reason-only",
            Category::New => "new",
            Category::Removed => "removed",
            Category::Error => "error",
        }
    }
}

/// The one place a pair becomes a category.
pub fn categorize(base: Option<&Verdict>, head: Option<&Verdict>) -> Category {
    match (base, head) {
        (Some(b), Some(h)) if b.is_error() || h.is_error() => Category::Error,
        (None, Some(h)) | (Some(h), None) if h.is_error() => Category::Error,
        (None, None) => Category::Error,
        (None, Some(_)) => Category::New,
        (Some(_), None) => Category::Removed,
        (Some(b), Some(h)) if h.class > b.class => Category::Tightened,
        (Some(b), Some(h)) if h.class < b.class => Category::Loosened,
        (Some(b), Some(h)) if b.rule != h.rule || b.reason != h.reason => Category::ReasonOnly,
        (Some(_), Some(_)) => Category::Unchanged,
    }
}

/// One replayed row, as reports show it. `command` is already redacted where needed.
#[derive(Clone, Debug, Serialize)]
pub struct RowResult {
    pub corpus: Kind,
    pub id: String,
    pub command: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    pub weight: u64,
    pub category: Category,
    pub base: Option<Verdict>,
    pub head: Option<Verdict>,
    /// What the corpus says beside the command (a peer's label), when it says anything.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

impl serde::Serialize for Kind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl RowResult {
    /// The rule a row is grouped under: head's, or base's when head has none.
    pub fn rule(&self) -> &str {
        match (&self.head, &self.base) {
            (Some(h), _) if !h.is_error() => &h.rule,
            (_, Some(b)) if !b.is_error() => &b.rule,
            _ => "replay.error",
        }
    }
}

/// Distinct and weighted counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Count {
    pub rows: u64,
    pub weighted: u64,
}

impl Count {
    pub fn add(&mut self, weight: u64) {
        self.rows += 1;
        self.weighted += weight;
    }
}

/// Counts per corpus × category.
pub fn counts(rows: &[RowResult]) -> BTreeMap<Kind, BTreeMap<Category, Count>> {
    let mut m: BTreeMap<Kind, BTreeMap<Category, Count>> = BTreeMap::new();
    for r in rows {
        m.entry(r.corpus).or_default().entry(r.category).or_default().add(r.weight);
    }
    m
}

/// Changed rows (not unchanged) counted per rule × category, sorted by total then id.
pub fn per_rule(rows: &[RowResult]) -> Vec<(String, BTreeMap<Category, Count>)> {
    let mut m: BTreeMap<String, BTreeMap<Category, Count>> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.category != Category::Unchanged) {
        m.entry(r.rule().to_owned()).or_default().entry(r.category).or_default().add(r.weight);
    }
    let mut v: Vec<_> = m.into_iter().collect();
    v.sort_by(|a, b| {
        let ta: u64 = a.1.values().map(|c| c.rows).sum();
        let tb: u64 = b.1.values().map(|c| c.rows).sum();
        tb.cmp(&ta).then_with(|| a.0.cmp(&b.0))
    });
    v
}
