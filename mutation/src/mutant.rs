//! One mutant, whichever mutator made it, and how a run picks mutants from the
//! population: shards, evenly spread and seeded samples, K per module. Both
//! populations share this shape, so one gate (gate.rs) and one report (report.rs)
//! serve them.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The two populations: mutants of the rule tables (policy as data, gen.rs) and
/// cargo-mutants' mutants of the classifier's code (code.rs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Population {
    #[default]
    Tables,
    Code,
}

impl Population {
    pub const ALL: [Population; 2] = [Population::Tables, Population::Code];

    pub fn as_str(self) -> &'static str {
        match self {
            Population::Tables => "tables",
            Population::Code => "code",
        }
    }

    pub fn parse(s: &str) -> Option<Population> {
        Population::ALL.into_iter().find(|p| p.as_str() == s)
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mutant {
    /// Stable: operator (or `code`), file, line and a content hash.
    pub id: String,
    /// Which mutator made it: the rule tables' (gen.rs) or cargo-mutants' (code.rs).
    #[serde(default)]
    pub population: Population,
    pub op: String,
    pub file: String,
    pub line: usize,
    pub start: usize,
    pub end: usize,
    pub original: String,
    pub replacement: String,
    /// Table mutants: the rule id it targets, or `<family>.<file>:<TABLE>` /
    /// `<family>.<file>` for table and dynamic mutants. Code mutants: the module path
    /// under `classifier/src` (`units.redirects`, `rules.exec.options`).
    pub scope: String,
    pub what: String,
    /// `op:file what` (`#n` after it when a file has several alike, n in file order): the
    /// mutant named by what it does, which edits elsewhere in the file do not change.
    pub key: String,
}

impl Mutant {
    /// The mutated text of `source` (the file this mutant was generated from).
    pub fn apply(&self, source: &str) -> Option<String> {
        (source.get(self.start..self.end) == Some(self.original.as_str()))
            .then(|| format!("{}{}{}", &source[..self.start], self.replacement, &source[self.end..]))
    }
    /// A one-hunk diff of the whole lines the mutant touches, for reports.
    pub fn diff(&self, source: &str) -> String {
        let Some(after) = self.apply(source) else { return String::new() };
        let from = source[..self.start].rfind('\n').map_or(0, |i| i + 1);
        let to = source[self.end..].find('\n').map_or(source.len(), |i| self.end + i);
        let delta = self.replacement.len() as isize - (self.end - self.start) as isize;
        let to_after = (to as isize + delta) as usize;
        let mut out = format!("--- a/{f}\n+++ b/{f}\n@@ line {} @@\n", self.line, f = self.file);
        for l in source[from..to].lines() {
            out.push_str(&format!("-{l}\n"));
        }
        for l in after[from..to_after].lines() {
            out.push_str(&format!("+{l}\n"));
        }
        out
    }
}

pub fn line_of(src: &str, at: usize) -> usize {
    src[..at].bytes().filter(|&b| b == b'\n').count() + 1
}

/// `op:file what` (`drop-entry:rules/exec/options.rs "nasm" dropped from COMPILERS`,
/// `code:units/mod.rs replace Engine::walk -> bool with true`): a mutant named by
/// what it does, not where its bytes sit; `#n` is added where a file has several
/// alike (n in file order). Reviews (`equivalent.tsv`) name mutants by this key, which
/// edits elsewhere in the file do not change.
pub fn assign_keys(all: &mut [Mutant]) {
    let base = |m: &Mutant| crate::report::stable_key(&m.id, &m.what);
    let mut total: HashMap<String, usize> = HashMap::new();
    for m in all.iter() {
        *total.entry(base(m)).or_default() += 1;
    }
    let mut seen: HashMap<String, usize> = HashMap::new();
    for m in all.iter_mut() {
        let b = base(m);
        let n = seen.entry(b.clone()).or_default();
        *n += 1;
        m.key = if total[&b] > 1 { format!("{b} #{n}") } else { b };
    }
}

/// `--shard i/n` (1-based): every n-th mutant starting at i, so shards stay balanced
/// across operators and families.
pub fn shard<T: Clone>(all: &[T], i: usize, n: usize) -> Vec<T> {
    all.iter().enumerate().filter(|(k, _)| k % n == i - 1).map(|(_, m)| m.clone()).collect()
}

/// `--sample N`: N mutants evenly spaced over the list (deterministic).
pub fn sample<T: Clone>(all: &[T], n: usize) -> Vec<T> {
    if n == 0 || n >= all.len() {
        return all.to_vec();
    }
    (0..n).map(|k| all[k * all.len() / n].clone()).collect()
}

/// `--sample N --seed S`: a simple random sample of N mutants, the N whose
/// `sha256(S, id)` is smallest, in list order. Unlike the evenly spaced sample it does
/// not follow the file layout, and a seed chosen after the rows were written gives a
/// sample nobody has fitted rows to: the honest estimate of the population's rate.
pub fn sample_seeded(all: &[Mutant], n: usize, seed: &str) -> Vec<Mutant> {
    if n == 0 || n >= all.len() {
        return all.to_vec();
    }
    let key = |m: &Mutant| {
        let mut h = Sha256::new();
        h.update(seed.as_bytes());
        h.update([0]);
        h.update(m.id.as_bytes());
        h.finalize()
    };
    let mut keyed: Vec<(_, usize)> = all.iter().enumerate().map(|(k, m)| (key(m), k)).collect();
    keyed.sort();
    let mut chosen: Vec<usize> = keyed[..n].iter().map(|&(_, k)| k).collect();
    chosen.sort_unstable();
    chosen.into_iter().map(|k| all[k].clone()).collect()
}

/// A mutant's module, the unit its report rates. A table mutant's is its rule family:
/// the first segment of its scope (`git` for `git.push.force` and for
/// `git.history:READ_SUBS`), the directory under `rules/` it came from. A code
/// mutant's is the top module under `classifier/src` (`units`, `call`, `lanes`), and
/// under `rules/` the family (`rules.exec`).
pub fn family(m: &Mutant) -> &str {
    match m.population {
        Population::Tables => m.scope.split(['.', ':']).next().unwrap_or(""),
        Population::Code => {
            let mut cut = m.scope.match_indices('.').map(|(i, _)| i);
            let first = cut.next().unwrap_or(m.scope.len());
            let end = if m.scope.starts_with("rules.") { cut.next().unwrap_or(m.scope.len()) } else { first };
            &m.scope[..end]
        }
    }
}

/// `--per-family K`: a stratified sample, K mutants evenly spaced over each module's
/// list (all of a family with fewer). Every family is represented whatever its size,
/// which `--sample` alone does not promise. The order is round-robin (each family's
/// first pick, then each one's second, …), so a run stopped early — its report is
/// rewritten after every mutant — still holds a balanced sample.
pub fn per_family(all: &[Mutant], k: usize) -> Vec<Mutant> {
    let mut order: Vec<&str> = Vec::new();
    for m in all {
        if !order.contains(&family(m)) {
            order.push(family(m));
        }
    }
    let picks: Vec<Vec<Mutant>> = order
        .into_iter()
        .map(|f| {
            let of: Vec<Mutant> = all.iter().filter(|m| family(m) == f).cloned().collect();
            sample(&of, k)
        })
        .collect();
    let rounds = picks.iter().map(Vec::len).max().unwrap_or(0);
    (0..rounds).flat_map(|r| picks.iter().filter_map(move |p| p.get(r).cloned())).collect()
}
