//! `caps.json`: per corpus kind (every registered one) limits on new prompts (allow →
//! ask/deny, distinct and weighted), loosened rows not covered by a declaration, new
//! blocks, and reworded rows (same tier, another deciding rule or reason text: the
//! reason is what a user reads before approving, so a change that rewrites it on
//! thousands of rows is one a reviewer must see, not a footnote in the report; an
//! old file without `reworded` has no such cap). Every cap is reported as used/limit. A malformed file is a
//! configuration error naming file:line:column. It does not compute the diff.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::corpus::Kind;
use crate::diff::{Category, RowResult};
use crate::protocol::{Class, Verdict};

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    pub new_prompts: u64,
    pub new_prompts_weighted: u64,
    pub loosened: u64,
    pub new_blocks: u64,
    #[serde(default = "no_cap", skip_serializing_if = "is_no_cap")]
    pub reworded: u64,
}

fn no_cap() -> u64 {
    u64::MAX
}

fn is_no_cap(n: &u64) -> bool {
    *n == u64::MAX
}

/// The limits of every registered corpus kind, keyed by its name in `caps.json`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Caps(BTreeMap<Kind, Limits>);

impl Caps {
    /// The limits of `k`; every registered kind has some (`load` refuses a file without).
    pub fn of(&self, k: Kind) -> Limits {
        self.0.get(&k).copied().unwrap_or(Limits { new_prompts: 0, new_prompts_weighted: 0, loosened: 0, new_blocks: 0, reworded: 0 })
    }
}

/// Parses `caps.json` text: one object per corpus kind, every kind present, no other key.
pub fn parse(bytes: &[u8]) -> Result<Caps, String> {
    let raw: BTreeMap<String, Limits> = serde_json::from_slice(bytes).map_err(|e| format!("caps.json:{}:{}: {e}", e.line(), e.column()))?;
    let mut caps = BTreeMap::new();
    let mut errors = Vec::new();
    let names: Vec<&str> = Kind::ALL.iter().map(|k| k.as_str()).collect();
    for (name, limits) in raw {
        match Kind::parse(&name) {
            Some(k) => {
                caps.insert(k, limits);
            }
            None => errors.push(format!("caps.json:1: unknown corpus {name:?} (the corpora are {})", names.join(", "))),
        }
    }
    for k in Kind::ALL.iter().filter(|k| !caps.contains_key(k)) {
        errors.push(format!(
            "caps.json:1: no caps for corpus {:?}; add \"{}\": {{ \"new_prompts\": N, \"new_prompts_weighted\": N, \"loosened\": 0, \"new_blocks\": N }}",
            k.as_str(),
            k.as_str()
        ));
    }
    if errors.is_empty() {
        Ok(Caps(caps))
    } else {
        Err(errors.join("\n"))
    }
}

/// Reads `caps.json` under `root`.
pub fn load(root: &Path) -> Result<Caps, String> {
    let bytes = std::fs::read(root.join("caps.json")).map_err(|e| format!("caps.json:1: cannot read: {e}"))?;
    parse(&bytes)
}

/// One cap line: used/limit.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct CapUse {
    pub corpus: Kind,
    pub cap: &'static str,
    pub used: u64,
    pub limit: u64,
}

impl CapUse {
    pub fn exceeded(&self) -> bool {
        self.used > self.limit
    }
}

fn ok(v: &Option<Verdict>) -> Option<Class> {
    v.as_ref().filter(|v| !v.is_error()).map(|v| v.class)
}

/// Computes every cap of every replayed corpus. `declared` holds (row, from, to)
/// moves covered by a declaration.
pub fn measure(caps: &Caps, rows: &[RowResult], kinds: &[Kind], declared: &HashSet<(String, Class, Class)>) -> Vec<CapUse> {
    let mut out = Vec::new();
    for &k in kinds {
        let lim = caps.of(k);
        let (mut prompts, mut weighted, mut loosened, mut blocks, mut reworded) = (0, 0, 0, 0, 0);
        for r in rows.iter().filter(|r| r.corpus == k) {
            let (Some(b), Some(h)) = (ok(&r.base), ok(&r.head)) else { continue };
            if !b.prompts() && h.prompts() {
                prompts += 1;
                weighted += r.weight;
            }
            if h < b && !declared.contains(&(r.id.clone(), b, h)) {
                loosened += 1;
            }
            if h == Class::Blocked && b != Class::Blocked {
                blocks += 1;
            }
            if r.category == Category::ReasonOnly {
                reworded += 1;
            }
        }
        for (cap, used, limit) in [
            ("new_prompts", prompts, lim.new_prompts),
            ("new_prompts_weighted", weighted, lim.new_prompts_weighted),
            ("loosened", loosened, lim.loosened),
            ("new_blocks", blocks, lim.new_blocks),
            ("reworded", reworded, lim.reworded),
        ] {
            out.push(CapUse { corpus: k, cap, used, limit });
        }
    }
    out
}
