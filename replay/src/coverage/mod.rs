//! Rule coverage: which rules the corpora reach, from head's verdicts alone. A row
//! *hits* a rule when head's verdict names it (the strictest hit wins, so this is
//! the rule the user sees). A rule's own side is gated for T3/BLOCKED rules, free
//! for T0–T2; it is covered when a truth row of its own side hits it and a truth
//! row of the other side stands next to it (a *control*: same program as one of
//! its own rows or `matches` examples, the nearest by leading words, see near.rs). Gaps not listed in
//! `corpus/coverage-exemptions.csv` fail `cargo xtask coverage --check`.

mod exempt;
mod near;
mod render;
pub mod task;

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::process::Command;

use serde::{Deserialize, Serialize};

use crate::corpus::{Kind, Row, Spec, TruthFamily};
use crate::protocol::{Class, Verdict};

pub use exempt::{load as load_exemptions, Exemption, Missing, EXEMPTIONS};
pub use render::{blessed_file, exemption_lines, markdown, section};

/// One rule as `tiergate rules` prints it.
#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct RuleInfo {
    pub id: String,
    pub family: String,
    pub class: String,
    #[serde(default)]
    pub matches: Vec<String>,
    #[serde(default)]
    pub not_matches: Vec<String>,
}

impl RuleInfo {
    /// True for T3 and BLOCKED rules: their own side is the gated one.
    pub fn gated(&self) -> bool {
        matches!(Class::parse(&self.class), Some(Class::T3 | Class::Blocked))
    }
}

/// The registry of a built tiergate (`BIN rules`); an error when it has no such command.
pub fn rules_of(bin: &str) -> Result<Vec<RuleInfo>, String> {
    let out = Command::new(bin).arg("rules").output().map_err(|e| format!("cannot run {bin} rules: {e}"))?;
    if !out.status.success() {
        return Err(format!("{bin} has no `rules` command (exit {})", out.status));
    }
    let mut rules = Vec::new();
    for (i, line) in String::from_utf8_lossy(&out.stdout).lines().enumerate() {
        rules.push(serde_json::from_str::<RuleInfo>(line).map_err(|e| format!("{bin} rules: line {}: {e}", i + 1))?);
    }
    if rules.is_empty() {
        return Err(format!("{bin} rules printed no rules"));
    }
    Ok(rules)
}

/// What the corpora do for one rule.
#[derive(Clone, Debug, Default, Serialize)]
pub struct RuleCoverage {
    pub id: String,
    pub class: String,
    /// Truth rows (gated / free family) whose head verdict names this rule.
    pub truth_gated: usize,
    pub truth_free: usize,
    /// Truth rows of the other side next to this rule's own rows, and the nearest one.
    pub controls: usize,
    pub nearest_control: Option<String>,
    pub curated: usize,
    pub history: usize,
    pub history_weighted: u64,
    pub missing: Missing,
    /// The exemption that covers `missing`, if any.
    pub exempt: Option<String>,
}

impl RuleCoverage {
    /// Own-side truth rows.
    pub fn own(&self, gated: bool) -> usize {
        if gated {
            self.truth_gated
        } else {
            self.truth_free
        }
    }
}

/// The coverage of every rule, plus what the exemption file gets wrong.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Coverage {
    pub rules: Vec<RuleCoverage>,
    /// Rules with a gap that no exemption covers.
    pub uncovered: Vec<String>,
    /// Exemption lines that name no rule, or exempt a side that is covered now.
    pub stale: Vec<String>,
    /// Verdict rule ids that are not in the registry (e.g. `input.invalid`), with row counts.
    pub unregistered: BTreeMap<String, usize>,
    pub truth_rows: usize,
}

impl Coverage {
    pub fn failures(&self) -> usize {
        self.uncovered.len() + self.stale.len()
    }
}

fn side(r: &Row) -> Option<bool> {
    match r.spec {
        Spec::Truth { family: TruthFamily::Gated, .. } => Some(true),
        Spec::Truth { family: TruthFamily::Free, .. } => Some(false),
        _ => None,
    }
}

/// Coverage of `rules` by `rows` answered `verdicts` (same order), against `exemptions`.
pub fn compute(rules: &[RuleInfo], rows: &[Row], verdicts: &[Verdict], exemptions: &[Exemption]) -> Coverage {
    let mut by_rule: HashMap<&str, Vec<usize>> = HashMap::new();
    let mut unregistered = BTreeMap::new();
    let known: HashMap<&str, &RuleInfo> = rules.iter().map(|r| (r.id.as_str(), r)).collect();
    for (i, v) in verdicts.iter().enumerate() {
        if v.is_error() {
            continue;
        }
        if known.contains_key(v.rule.as_str()) {
            by_rule.entry(v.rule.as_str()).or_default().push(i);
        } else {
            *unregistered.entry(v.rule.clone()).or_insert(0) += 1;
        }
    }
    let truth: Vec<(usize, bool)> = rows.iter().enumerate().filter_map(|(i, r)| side(r).map(|s| (i, s))).collect();
    let index = near::Index::new(rows, &truth);
    let ex: HashMap<&str, &Exemption> = exemptions.iter().map(|e| (e.rule.as_str(), e)).collect();
    let mut out = Coverage { unregistered, truth_rows: truth.len(), ..Coverage::default() };
    for rule in rules {
        let hits = by_rule.get(rule.id.as_str()).map(Vec::as_slice).unwrap_or(&[]);
        let mut c = RuleCoverage { id: rule.id.clone(), class: rule.class.clone(), ..RuleCoverage::default() };
        let mut own_rows = Vec::new();
        for &i in hits {
            let r = &rows[i];
            match (r.kind, side(r)) {
                (Kind::Truth, Some(true)) => c.truth_gated += 1,
                (Kind::Truth, Some(false)) => c.truth_free += 1,
                (Kind::Curated, _) => c.curated += 1,
                (Kind::History, _) => {
                    c.history += 1;
                    c.history_weighted += r.weight;
                }
                _ => {}
            }
            if r.kind == Kind::Truth && side(r) == Some(rule.gated()) {
                own_rows.push(i);
            }
        }
        // Controls stand next to the rule's own truth rows, or to its own examples.
        let anchors: Vec<&str> = own_rows.iter().map(|&i| rows[i].command.as_str()).chain(rule.matches.iter().map(String::as_str)).collect();
        let (n, nearest) = index.controls(rows, &anchors, !rule.gated());
        c.controls = n;
        c.nearest_control = nearest.map(|i| rows[i].id.clone());
        c.missing = Missing::of(c.own(rule.gated()) == 0, n == 0);
        match ex.get(rule.id.as_str()) {
            Some(e) if e.missing.covers(c.missing) => {
                if e.missing != c.missing {
                    let now = if c.missing == Missing::None {
                        "it is covered now: delete the line".to_owned()
                    } else {
                        format!("only `{}` is missing now", c.missing.as_str())
                    };
                    out.stale.push(format!("{}:{}: {} exempts `{}` but {now}", EXEMPTIONS, e.line, rule.id, e.missing.as_str()));
                }
                c.exempt = (c.missing != Missing::None).then(|| e.reason.clone());
            }
            Some(_) => out.uncovered.push(rule.id.clone()),
            None if c.missing != Missing::None => out.uncovered.push(rule.id.clone()),
            None => {}
        }
        out.rules.push(c);
    }
    for e in exemptions.iter().filter(|e| !known.contains_key(e.rule.as_str())) {
        out.stale.push(format!("{}:{}: {} is not a rule of this build", EXEMPTIONS, e.line, e.rule));
    }
    out
}

/// Coverage of head's answers, reading the exemptions from `root`. Errors are
/// sentences (no `rules` command, a malformed exemption file).
pub fn of_head(bin: &str, root: &Path, rows: &[Row], verdicts: &[Verdict]) -> Result<(Vec<RuleInfo>, Coverage), String> {
    let rules = rules_of(bin)?;
    let exemptions = load_exemptions(root).map_err(|e| e.join("; "))?;
    let c = compute(&rules, rows, verdicts, &exemptions);
    Ok((rules, c))
}

/// The truth row nearest to `command` (same program, longest shared lead), if any.
pub fn nearest_truth<'r>(rows: &'r [Row], command: &str) -> Option<&'r Row> {
    let truth: Vec<(usize, bool)> = rows.iter().enumerate().filter_map(|(i, r)| side(r).map(|s| (i, s))).collect();
    near::Index::new(rows, &truth).nearest(rows, command).map(|i| &rows[i])
}

#[cfg(test)]
mod tests;
