//! "Next to": two commands are neighbours when they run the same program (the first
//! word's basename, after `VAR=value` prefixes); the nearest neighbour shares the
//! longest run of leading words, then the most words overall. A heuristic, said as
//! such in every report: it finds `git push --dry-run` for `git push --force`, and
//! `rm -rf build` for `rm -rf /`.

use std::collections::{BTreeSet, HashMap};

use crate::corpus::Row;

/// The words of a command as the neighbour relation sees them.
pub fn words(command: &str) -> Vec<&str> {
    let mut w: Vec<&str> = command.split_whitespace().collect();
    let assignment = |s: &str| s.split_once('=').is_some_and(|(k, _)| !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
    let skip = w.iter().take_while(|s| assignment(s)).count();
    w.drain(..skip);
    if let Some(first) = w.first_mut() {
        let f: &str = first;
        *first = f.rsplit('/').next().unwrap_or(f);
    }
    w
}

/// (leading words in common, Jaccard similarity in thousandths).
pub fn closeness(a: &[&str], b: &[&str]) -> (usize, usize) {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let sa: BTreeSet<&str> = a.iter().copied().collect();
    let sb: BTreeSet<&str> = b.iter().copied().collect();
    let union = sa.union(&sb).count().max(1);
    (prefix, sa.intersection(&sb).count() * 1000 / union)
}

/// Truth rows by program, split by side (true = gated).
pub struct Index {
    by_program: HashMap<(String, bool), Vec<usize>>,
}

impl Index {
    pub fn new(rows: &[Row], truth: &[(usize, bool)]) -> Index {
        let mut by_program: HashMap<(String, bool), Vec<usize>> = HashMap::new();
        for &(i, side) in truth {
            if let Some(p) = words(&rows[i].command).first() {
                by_program.entry(((*p).to_owned(), side)).or_default().push(i);
            }
        }
        Index { by_program }
    }

    fn of(&self, program: &str, side: bool) -> &[usize] {
        self.by_program.get(&(program.to_owned(), side)).map(Vec::as_slice).unwrap_or(&[])
    }

    /// How many truth rows of `side` run a program one of `anchors` runs, and the nearest.
    pub fn controls(&self, rows: &[Row], anchors: &[&str], side: bool) -> (usize, Option<usize>) {
        let mut all = BTreeSet::new();
        let mut best: Option<((usize, usize), usize)> = None;
        for o in anchors {
            let ow = words(o);
            let Some(p) = ow.first() else { continue };
            for &c in self.of(p, side) {
                all.insert(c);
                let k = closeness(&ow, &words(&rows[c].command));
                if best.is_none_or(|(bk, bi)| k > bk || (k == bk && c < bi)) {
                    best = Some((k, c));
                }
            }
        }
        (all.len(), best.map(|(_, i)| i))
    }

    /// The nearest truth row of either side to `command` (for mutant reports).
    pub fn nearest(&self, rows: &[Row], command: &str) -> Option<usize> {
        let w = words(command);
        let p = w.first()?;
        let mut best: Option<((usize, usize), usize)> = None;
        for side in [true, false] {
            for &c in self.of(p, side) {
                let k = closeness(&w, &words(&rows[c].command));
                if best.is_none_or(|(bk, bi)| k > bk || (k == bk && c < bi)) {
                    best = Some((k, c));
                }
            }
        }
        best.map(|(_, i)| i)
    }
}
