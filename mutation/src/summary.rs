//! `summary.md` of a mutants report: one table of both populations (tables and
//! code), each caught rate over viable mutants with its 95% Wilson interval and,
//! beside it, the rate once the survivors a review sets apart (equivalent, or
//! unreachable by any command) leave the denominator; then per population the rates
//! per module and per operator, the layers that caught, the cost, what the
//! survivors moved, and every survivor with its diff and nearest truth rows — the
//! to-do list of missing truth rows.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::mutant::Population;
use crate::report::{probes_only, reviewed, set_apart, Meta, Record, Reviews};

/// The 95% Wilson score interval of `k` successes in `n` trials, in percent.
pub fn wilson(k: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 100.0);
    }
    let (k, n, z) = (k as f64, n as f64, 1.96_f64);
    let p = k / n;
    let centre = p + z * z / (2.0 * n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    let d = 1.0 + z * z / n;
    (((centre - half) / d * 100.0).max(0.0), ((centre + half) / d * 100.0).min(100.0))
}

/// `C` caught of `C + S`: `X% (95% CI lo–hi%)`.
fn rate(c: usize, s: usize) -> String {
    if c + s == 0 {
        return "–".to_owned();
    }
    let (lo, hi) = wilson(c, c + s);
    format!("{:.0}% (95% CI {lo:.0}–{hi:.0}%)", c as f64 * 100.0 / (c + s) as f64)
}

/// A population's counts: [run, caught, survived, unviable, error, set apart].
fn counts<'a>(records: impl Iterator<Item = &'a Record>, reviews: &Reviews) -> [usize; 6] {
    let mut c = [0; 6];
    for r in records {
        c[0] += 1;
        c[match r.status.as_str() {
            "caught" => 1,
            "survived" => 2,
            "unviable" => 3,
            _ => 4,
        }] += 1;
        if r.status == "survived" && set_apart(reviews, r) {
            c[5] += 1;
        }
    }
    c
}

/// `N run: C caught, S survived (A set apart), U unviable, E error — caught X% of viable …`.
pub fn headline(records: &[Record], p: Population, reviews: &Reviews) -> String {
    let [n, c, s, u, e, a] = counts(records.iter().filter(|r| r.population == p), reviews);
    let mut line = format!("{n} run: {c} caught, {s} survived, {u} unviable, {e} error — caught {} of viable", rate(c, s));
    if a > 0 {
        let _ = write!(line, "; {a} survivor(s) set apart by review, caught {} of the rest", rate(c, s - a));
    }
    line
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// One rate table: a row per key (module or operator) of the population's records.
fn table(out: &mut String, title: &str, records: &[&Record], key: impl Fn(&Record) -> String, reviews: &Reviews) {
    let mut by: BTreeMap<String, Vec<&Record>> = BTreeMap::new();
    for r in records {
        by.entry(key(r)).or_default().push(r);
    }
    let _ = writeln!(
        out,
        "| {title} | run | caught | survived | set apart | unviable | error | caught of viable | of the rest |\n|---|---:|---:|---:|---:|---:|---:|---|---|"
    );
    for (k, rs) in by {
        let [n, c, s, u, e, a] = counts(rs.into_iter(), reviews);
        let _ = writeln!(out, "| {k} | {n} | {c} | {s} | {a} | {u} | {e} | {} | {} |", rate(c, s), rate(c, s - a));
    }
    out.push('\n');
}

pub fn summary(meta: &Meta, records: &[Record], reviews: &Reviews) -> String {
    let mut out = String::from("# Seeded-regression sensitivity\n\n");
    let present: Vec<Population> = Population::ALL.into_iter().filter(|p| records.iter().any(|r| r.population == *p)).collect();
    let _ = writeln!(
        out,
        "Each mutant is applied to the committed tree, built, and put through the bench's gate: every rule's own examples, then the replay against the unmutated binary. \
`set apart`: survivors whose review in `reports/mutants/equivalent.tsv` says no command's verdict can tell them apart (`equivalent:`) or no command reaches the code (`unreachable`); \
`of the rest` leaves them out of the denominator.\n"
    );
    let _ = writeln!(
        out,
        "| population | run | caught | survived | set apart | unviable | error | caught of viable | of the rest |\n|---|---:|---:|---:|---:|---:|---:|---|---|"
    );
    for &p in &present {
        let [n, c, s, u, e, a] = counts(records.iter().filter(|r| r.population == p), reviews);
        let _ = writeln!(out, "| {} | {n} | {c} | {s} | {a} | {u} | {e} | {} | {} |", p.as_str(), rate(c, s), rate(c, s - a));
    }
    out.push('\n');
    let tables: Vec<&Record> = records.iter().filter(|r| r.population == Population::Tables).collect();
    let probes = tables.iter().filter(|r| r.status == "caught" && probes_only(r)).count();
    if probes > 0 {
        let [_, c, s, ..] = counts(tables.iter().copied(), reviews);
        let _ = writeln!(
            out,
            "Table mutants without the table probes (the replay's `probes` rows, from `tiergate programs`; {probes} mutant(s) only a probe row caught, counted as survivors here): caught {} of viable.\n",
            rate(c - probes, s + probes)
        );
    }
    let _ = writeln!(out, "Commit `{}`; `{}`.\n", &meta.commit[..meta.commit.len().min(10)], meta.command);
    if let Some(base) = &meta.in_diff {
        let _ = writeln!(out, "Only the mutants of what `{base}..{}` touched.\n", &meta.commit[..meta.commit.len().min(10)]);
    }
    if !meta.engine.is_empty() {
        let _ = writeln!(out, "Code mutants listed by `{}` (`cargo mutants --list --json -p classifier`, honouring `.cargo/mutants.toml`).\n", meta.engine);
    }
    if !meta.reruns.is_empty() {
        let short: Vec<String> = meta.reruns.iter().map(|c| format!("`{}`", &c[..c.len().min(10)])).collect();
        let _ = writeln!(out, "Records re-run on later commit(s) {} replace the first run's (same sources; only truth rows were added).\n", short.join(", "));
    }
    if !meta.excluded_by_config.is_empty() {
        let files: Vec<String> = meta.excluded_by_config.iter().map(|(f, n)| format!("`{f}` {n}")).collect();
        let _ = writeln!(
            out,
            "`.cargo/mutants.toml` leaves {} code mutant(s) out of the population, each exclusion with its reason there: {}.\n",
            meta.excluded_by_config.values().sum::<usize>(),
            files.join(", ")
        );
    }
    let kinds: Vec<String> = meta.population_by_kind.iter().map(|(k, v)| format!("{k} {v}")).collect();
    let ops: Vec<String> = meta.population_by_op.iter().map(|(k, v)| format!("{k} {v}")).collect();
    let _ = writeln!(out, "Population: {} mutants ({}; by operator: {}); {} selected.", meta.population, kinds.join(", "), ops.join(", "), meta.selected);
    let _ = writeln!(out, "The unmutated gate had {} failure(s) of its own; they are not credited to any mutant.\n", meta.baseline_failures);
    for b in &meta.baseline {
        let _ = writeln!(out, "- {}", b.replace('\n', " "));
    }
    if !meta.baseline.is_empty() {
        out.push('\n');
    }
    for &p in &present {
        let rs: Vec<&Record> = records.iter().filter(|r| r.population == p).collect();
        let (title, unit) = match p {
            Population::Tables => ("Table mutants", "family"),
            Population::Code => ("Code mutants", "module"),
        };
        let _ = writeln!(out, "## {title}\n\n### By {unit}\n");
        table(&mut out, unit, &rs, module, reviews);
        let _ = writeln!(out, "### By operator\n");
        table(&mut out, "operator", &rs, |r| r.op.clone(), reviews);
        layers(&mut out, &rs, meta.examples_first);
    }
    cost(&mut out, meta, records);
    survivors(&mut out, records, reviews);
    let unviable: Vec<&Record> = records.iter().filter(|r| r.status == "unviable" || r.status == "error").collect();
    if !unviable.is_empty() {
        let _ = writeln!(out, "## Unviable or errored\n");
        for r in unviable {
            let _ = writeln!(out, "- `{}` ({}) — {}", r.id, r.status, r.note.replace('\n', " "));
        }
    }
    out
}

/// A record's module, as [`crate::mutant::family`] names a mutant's.
fn module(r: &Record) -> String {
    let m = crate::mutant::Mutant { population: r.population, scope: r.scope.clone(), ..crate::mutant::Mutant::default() };
    crate::mutant::family(&m).to_owned()
}

fn layers(out: &mut String, records: &[&Record], examples_first: bool) {
    let _ = writeln!(out, "### Caught by layer\n\nA mutant can fail several layers; `only` counts mutants that one layer alone caught.");
    if examples_first {
        let _ = writeln!(
            out,
            "This run replayed only the mutants the rule examples let through (`--all-layers` replays every one), so the replay's layers count those alone."
        );
    }
    let _ = writeln!(out, "\n| layer | caught | only |\n|---|---:|---:|");
    let mut layers: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for r in records.iter().filter(|r| r.status == "caught") {
        for l in &r.layers {
            let e = layers.entry(l).or_default();
            e.0 += 1;
            if r.layers.len() == 1 {
                e.1 += 1;
            }
        }
    }
    for (l, (c, o)) in &layers {
        let _ = writeln!(out, "| {l} | {c} | {o} |");
    }
    out.push('\n');
}

fn cost(out: &mut String, meta: &Meta, records: &[Record]) {
    let built: Vec<&Record> = records.iter().filter(|r| r.status != "error").collect();
    let b = median(built.iter().map(|r| r.build_secs).collect());
    let g = median(records.iter().filter(|r| r.status == "caught" || r.status == "survived").map(|r| r.gate_secs).collect());
    let total: f64 = records.iter().map(|r| r.build_secs + r.gate_secs).sum();
    let per = if records.is_empty() { 0.0 } else { total / records.len() as f64 };
    let _ = writeln!(
        out,
        "## Cost\n\nMedian incremental release build {b:.0} s, median gate (rule examples + full replay against the cached unmutated base) {g:.0} s; \
{total:.0} s for {} mutants, {per:.0} s each on average. One-off: scratch preparation {:.0} s (its unmutated build {:.0} s). \
At that rate the whole population of {} takes about {:.1} hours on this machine, or {:.1} hours over a 20-job matrix.\n",
        records.len(),
        meta.prepare_secs,
        meta.base_build_secs,
        meta.population,
        per * meta.population as f64 / 3600.0,
        per * meta.population as f64 / 3600.0 / 20.0
    );
}

fn survivors(out: &mut String, records: &[Record], reviews: &Reviews) {
    let survivors: Vec<&Record> = records.iter().filter(|r| r.status == "survived").collect();
    if !survivors.is_empty() {
        let kinds = [
            ("moved a tier within the caps", survivors.iter().filter(|r| r.moved.tier > 0).count()),
            ("moved only the deciding rule of some rows (same tier)", survivors.iter().filter(|r| r.moved.tier == 0 && r.moved.rule > 0).count()),
            ("moved only reason texts", survivors.iter().filter(|r| r.moved.tier == 0 && r.moved.rule == 0 && r.moved.reason > 0).count()),
            ("moved nothing on any row", survivors.iter().filter(|r| r.moved.is_empty()).count()),
        ];
        let _ = writeln!(out, "## What the survivors moved\n\nA survivor that moved something was seen by the bench and not judged; one that moved nothing is out of every corpus's reach.\n\n| survivors that | count |\n|---|---:|");
        for (what, n) in kinds {
            let _ = writeln!(out, "| {what} | {n} |");
        }
        out.push('\n');
    }
    for p in Population::ALL {
        let of: Vec<&&Record> = survivors.iter().filter(|r| r.population == p).collect();
        if of.is_empty() && records.iter().all(|r| r.population != p) {
            continue;
        }
        let by = match p {
            Population::Tables => "rule",
            Population::Code => "module",
        };
        let _ = writeln!(out, "## Survivors of the {} population by {by} ({})\n", p.as_str(), of.len());
        if of.is_empty() {
            out.push_str("None.\n\n");
        }
        let mut by_scope: BTreeMap<&str, Vec<&Record>> = BTreeMap::new();
        for r in of {
            by_scope.entry(&r.scope).or_default().push(r);
        }
        for (scope, rs) in by_scope {
            let _ = writeln!(out, "### `{scope}`\n");
            for r in rs {
                let _ = writeln!(out, "- `{}` — {}", r.id, r.what);
                if let Some(why) = reviewed(reviews, r) {
                    let _ = writeln!(out, "  reviewed{}: {why}", if set_apart(reviews, r) { " (set apart)" } else { "" });
                }
                let m = &r.moved;
                let examples: Vec<&String> = m.tier_examples.iter().chain(&m.rule_examples).collect();
                let _ = writeln!(
                    out,
                    "  moved: {} tier, {} rule, {} reason-only row(s){}",
                    m.tier,
                    m.rule,
                    m.reason,
                    if examples.is_empty() { String::new() } else { format!(" — {}", examples.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("; ")) }
                );
                let _ = writeln!(out, "  nearest truth row: {}\n", r.nearest_truth.as_deref().unwrap_or("none (a truth row is missing)"));
                let _ = writeln!(out, "```diff\n{}```\n", r.diff);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures::{meta, rec};

    /// Survivors are told apart by what they moved: a rule id at the same tier is a
    /// regression the bench saw and did not judge; nothing at all is out of reach.
    #[test]
    fn the_summary_sorts_survivors_by_what_they_moved() {
        let m = meta(3);
        let mut a = rec("a", "survived");
        a.moved.rule = 2;
        a.moved.rule_examples = vec!["truth git-1: git.read → git.unknown".into()];
        let b = rec("b", "survived");
        let s = summary(&m, &[a, b, rec("c", "caught")], &Reviews::new());
        assert!(s.contains("| moved only the deciding rule of some rows (same tier) | 1 |"), "{s}");
        assert!(s.contains("| moved nothing on any row | 1 |"), "{s}");
        assert!(s.contains("moved: 0 tier, 2 rule, 0 reason-only row(s) — truth git-1: git.read → git.unknown"), "{s}");
    }

    /// The rate without probes moves every mutant only a probe row caught to the survivors.
    #[test]
    fn the_rate_without_table_probes_counts_probe_only_catches_as_survivors() {
        let m = meta(4);
        let mut a = rec("a", "caught");
        a.layers = vec!["probes".into()];
        let mut b = rec("b", "caught");
        b.layers = vec!["probes".into()];
        b.failures = vec!["probes: classifier/src/rules/git/read.rs:12 MUTATIVE_VERBS table-git_land: head's probe expects T3, head says T0".into()];
        let mut c = rec("c", "caught");
        c.failures = vec!["truth: corpus/truth/git.csv:3 git-1: expected T3, head says T0".into()];
        let s = summary(&m, &[a, b, c, rec("d", "survived")], &Reviews::new());
        assert!(s.contains("2 mutant(s) only a probe row caught, counted as survivors here): caught 25% (95% CI"), "{s}");
    }

    #[test]
    fn wilson_intervals_bracket_the_rate() {
        assert_eq!(wilson(0, 0), (0.0, 100.0));
        let (lo, hi) = wilson(90, 100);
        assert!((82.0..83.0).contains(&lo) && (94.0..95.0).contains(&hi), "{lo} {hi}");
        assert_eq!(rate(0, 0), "–");
    }
}
