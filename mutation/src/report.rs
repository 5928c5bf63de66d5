//! Mutant reports: `meta.json` (population, selection, baseline), `results.jsonl`
//! (one mutant a line, sorted by id) and `summary.md` (caught rate over viable
//! mutants, caught by layer, cost, survivors per rule with the diff and the nearest
//! truth row: the to-do list of missing truth rows). `merge` joins shard reports.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use replay::corpus::{Row, Spec};
use replay::coverage::RuleInfo;

use super::gate::Outcome;
use super::gen::Mutant;

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Meta {
    pub commit: String,
    /// A digest of the rule sources the mutants were generated from: shards of one
    /// population merge when it matches, whatever commit each ran on.
    #[serde(default)]
    pub source: String,
    pub population: usize,
    pub population_by_op: BTreeMap<String, usize>,
    pub selected: usize,
    pub command: String,
    /// One-off costs: scratch preparation in total, and its unmutated build.
    pub prepare_secs: f64,
    pub base_build_secs: f64,
    pub baseline_failures: usize,
    /// The unmutated gate's own failures (subtracted from every mutant's).
    #[serde(default)]
    pub baseline: Vec<String>,
    /// Commits of later reports merged in whose records replaced earlier ones (a
    /// re-run of survivors after truth rows were added), in merge order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reruns: Vec<String>,
}

impl Meta {
    pub fn of(commit: &str, all: &[Mutant], chosen: &[Mutant], command: &str, prepare_secs: f64, base_build_secs: f64, baseline: Vec<String>) -> Meta {
        let mut by = BTreeMap::new();
        for m in all {
            *by.entry(m.op.clone()).or_insert(0) += 1;
        }
        let mut h = <sha2::Sha256 as sha2::Digest>::new();
        for m in all {
            sha2::Digest::update(&mut h, m.id.as_bytes());
        }
        Meta {
            commit: commit.into(),
            source: replay::build::hex(&sha2::Digest::finalize(h))[..16].to_owned(),
            population: all.len(),
            population_by_op: by,
            selected: chosen.len(),
            command: command.into(),
            prepare_secs,
            base_build_secs,
            baseline_failures: baseline.len(),
            baseline,
            reruns: Vec::new(),
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Record {
    pub id: String,
    /// [`super::gen::Mutant::key`]; empty in reports written before it existed.
    #[serde(default)]
    pub key: String,
    pub op: String,
    pub scope: String,
    pub file: String,
    pub line: usize,
    pub what: String,
    pub status: String,
    pub layers: Vec<String>,
    pub failures_total: usize,
    /// The first few new failures, for a reader.
    pub failures: Vec<String>,
    pub build_secs: f64,
    pub gate_secs: f64,
    /// What the mutant moved in the replay; zero in reports written before it existed.
    #[serde(default)]
    pub moved: super::gate::Moved,
    pub note: String,
    pub diff: String,
    pub nearest_truth: Option<String>,
}

/// The truth row nearest to what the mutant breaks: for a rule, its first example;
/// for a table entry, a truth row running one of the family's programs (the first
/// words of its rules' examples) with that word — gated first — else the truth row
/// nearest to the family's first example.
fn nearest(m: &Mutant, rules: &[RuleInfo], truth: &[Row]) -> Option<String> {
    let show = |r: &Row| {
        let expect = match &r.spec {
            Spec::Truth { expect, .. } => expect.as_str(),
            _ => "",
        };
        format!("{} `{}` (expect {expect})", r.id, r.command)
    };
    if let Some(r) = rules.iter().find(|r| r.id == m.scope) {
        let example = r.matches.first()?;
        return replay::coverage::nearest_truth(truth, example).map(show);
    }
    let family = m.scope.split(['.', ':']).next().unwrap_or("");
    let examples: Vec<&str> = rules.iter().filter(|r| r.family == family).flat_map(|r| r.matches.iter().map(String::as_str)).collect();
    let programs: Vec<&str> = examples.iter().filter_map(|e| e.split_whitespace().next()).collect();
    let word = m.what.split('"').nth(1).unwrap_or("");
    let runs = |r: &&Row| r.command.split_whitespace().next().is_some_and(|p| programs.contains(&p));
    let uses = |r: &&Row| !word.is_empty() && r.command.split(|c: char| c.is_whitespace() || c == '=').any(|w| w == word);
    let gated = |r: &&Row| matches!(r.spec, Spec::Truth { expect, .. } if expect.prompts());
    let near = truth.iter().filter(runs).filter(uses).find(gated).or_else(|| truth.iter().filter(runs).find(uses));
    near.or_else(|| examples.first().and_then(|e| replay::coverage::nearest_truth(truth, e))).map(show)
}

impl Record {
    pub fn of(m: &Mutant, o: &Outcome, rules: &[RuleInfo], truth: &[Row]) -> Record {
        Record {
            id: m.id.clone(),
            key: m.key.clone(),
            op: m.op.clone(),
            scope: m.scope.clone(),
            file: m.file.clone(),
            line: m.line,
            what: m.what.clone(),
            status: o.status.into(),
            layers: o.layers.clone(),
            failures_total: o.failures.len(),
            failures: o.failures.iter().take(3).map(|(l, f)| format!("{l}: {}", f.replace('\n', " "))).collect(),
            build_secs: (o.build_secs * 10.0).round() / 10.0,
            gate_secs: (o.gate_secs * 10.0).round() / 10.0,
            moved: o.moved.clone(),
            note: o.note.clone(),
            diff: o.diff.clone(),
            nearest_truth: if o.status == "survived" { nearest(m, rules, truth) } else { None },
        }
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

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

fn rate(c: usize, s: usize) -> String {
    if c + s == 0 {
        return "–".to_owned();
    }
    let (lo, hi) = wilson(c, c + s);
    format!("{:.0}% (95% CI {lo:.0}–{hi:.0}%)", c as f64 * 100.0 / (c + s) as f64)
}

/// `N mutants: C caught, S survived, U unviable — caught X% of viable`.
pub fn headline(meta: &Meta, records: &[Record]) -> String {
    let n = |s: &str| records.iter().filter(|r| r.status == s).count();
    let (c, s, u, e) = (n("caught"), n("survived"), n("unviable"), n("error"));
    format!("{} of {} mutants run: {c} caught, {s} survived, {u} unviable, {e} error — caught {} of viable", records.len(), meta.population, rate(c, s))
}

/// Reviewed survivors from `equivalent.tsv` next to the report (`key<TAB>reason` a line).
/// They stay survivors; those whose reason starts `equivalent:` or `unreachable` are left
/// out of a second rate, shown beside the first. The key is a mutant's id or, better, its
/// [`stable_key`], which survives edits elsewhere in the file (an id holds a line and a
/// hash of byte offsets, so any edit above the entry changes it).
pub fn equivalents(dir: &Path) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(dir.join("equivalent.tsv")).unwrap_or_default();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once('\t'))
        .map(|(id, why)| (id.trim().to_owned(), why.trim().to_owned()))
        .collect()
}

/// `op:file what` (`drop-entry:rules/exec/options.rs "nasm" dropped from COMPILERS`): a
/// mutant named by what it does, not where its bytes sit (`Mutant::key` adds `#n` where
/// a file has several alike).
pub fn stable_key(id: &str, what: &str) -> String {
    let mut parts = id.splitn(3, ':');
    let (op, file) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    format!("{op}:{file} {what}")
}

/// The review of `r`, found by its id or its stable key.
pub fn reviewed<'a>(equivalent: &'a BTreeMap<String, String>, r: &Record) -> Option<&'a String> {
    equivalent.get(&r.id).or_else(|| equivalent.get(&r.key))
}

/// Caught by the generated table probes alone. Records written before the gate named
/// the `probes` layer say `truth`: there, a mutant whose every kept failure is a
/// tables.csv row counts as caught by probes alone even when more failures were not
/// kept, so the rate without probes is a lower bound for such reports.
pub fn probes_only(r: &Record) -> bool {
    match r.layers.as_slice() {
        [l] if l == "probes" => true,
        [l] if l == "truth" => !r.failures.is_empty() && r.failures.iter().all(|f| f.starts_with(&format!("truth: {}", corpora::tables::FILE))),
        _ => false,
    }
}

pub fn summary(meta: &Meta, records: &[Record], equivalent: &BTreeMap<String, String>) -> String {
    let mut out = String::from("# Seeded-regression sensitivity\n\n");
    let _ = writeln!(out, "{}\n", headline(meta, records));
    // Only reasons that say no verdict can differ (`equivalent:`) or that no command reaches
    // the code (`unreachable`) leave the denominator; other reviewed survivors (a reason-only
    // move, one only invented subcommands expose) stay survivors, their reason shown.
    let excluded = |why: &str| why.starts_with("equivalent:") || why.starts_with("unreachable");
    let eq: Vec<&Record> = records.iter().filter(|r| r.status == "survived" && reviewed(equivalent, r).is_some_and(|w| excluded(w))).collect();
    if !eq.is_empty() {
        let n = |s: &str| records.iter().filter(|r| r.status == s).count();
        let _ = writeln!(
            out,
            "Excluding the {} survivor(s) no command's verdict can tell apart (equivalent, or unreachable by any command; each with its reason below): caught {} of the rest.\n",
            eq.len(),
            rate(n("caught"), n("survived") - eq.len())
        );
    }
    let probes = records.iter().filter(|r| r.status == "caught" && probes_only(r)).count();
    if probes > 0 {
        let n = |s: &str| records.iter().filter(|r| r.status == s).count();
        let _ = writeln!(
            out,
            "Without the generated table probes (`corpus/truth/tables.csv`; {probes} mutant(s) only a probe row caught, counted as survivors here): caught {} of viable.\n",
            rate(n("caught") - probes, n("survived") + probes)
        );
    }
    let _ = writeln!(out, "Commit `{}`; `{}`.\n", &meta.commit[..meta.commit.len().min(10)], meta.command);
    if !meta.reruns.is_empty() {
        let short: Vec<String> = meta.reruns.iter().map(|c| format!("`{}`", &c[..c.len().min(10)])).collect();
        let _ =
            writeln!(out, "Records re-run on later commit(s) {} replace the first run's (same rule sources; only truth rows were added).\n", short.join(", "));
    }
    let pops: Vec<String> = meta.population_by_op.iter().map(|(k, v)| format!("{k} {v}")).collect();
    let _ = writeln!(out, "Population: {} mutants ({}); {} selected.", meta.population, pops.join(", "), meta.selected);
    let _ = writeln!(out, "The unmutated gate had {} failure(s) of its own; they are not credited to any mutant.\n", meta.baseline_failures);
    for b in &meta.baseline {
        let _ = writeln!(out, "- {}", b.replace('\n', " "));
    }
    if !meta.baseline.is_empty() {
        out.push('\n');
    }
    let _ = writeln!(out, "## By operator\n\n| op | run | caught | survived | unviable | error |\n|---|---:|---:|---:|---:|---:|");
    for (op, c) in &tally(records, |r| &r.op) {
        let _ = writeln!(out, "| {op} | {} | {} | {} | {} | {} |", c[0], c[1], c[2], c[3], c[4]);
    }
    let _ = writeln!(out, "\n## By rule family\n\n| family | run | caught | survived | unviable | error |\n|---|---:|---:|---:|---:|---:|");
    for (f, c) in &tally(records, |r| r.scope.split(['.', ':']).next().unwrap_or("")) {
        let _ = writeln!(out, "| {f} | {} | {} | {} | {} | {} |", c[0], c[1], c[2], c[3], c[4]);
    }
    let _ = writeln!(out, "\n## Caught by layer\n\nA mutant can fail several layers; `only` counts mutants that one layer alone caught.\n\n| layer | caught | only |\n|---|---:|---:|");
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
    let built: Vec<&Record> = records.iter().filter(|r| r.status != "error").collect();
    let b = median(built.iter().map(|r| r.build_secs).collect());
    let g = median(records.iter().filter(|r| r.status == "caught" || r.status == "survived").map(|r| r.gate_secs).collect());
    let total: f64 = records.iter().map(|r| r.build_secs + r.gate_secs).sum();
    let per = if records.is_empty() { 0.0 } else { total / records.len() as f64 };
    let _ = writeln!(
        out,
        "\n## Cost\n\nMedian incremental release build {b:.0} s, median gate (rule examples + full replay against the cached unmutated base) {g:.0} s; \
{total:.0} s for {} mutants, {per:.0} s each on average. One-off: scratch preparation {:.0} s (its unmutated build {:.0} s). \
At that rate the whole population of {} takes about {:.1} hours on this machine, or {:.1} hours over a 20-job matrix.\n",
        records.len(),
        meta.prepare_secs,
        meta.base_build_secs,
        meta.population,
        per * meta.population as f64 / 3600.0,
        per * meta.population as f64 / 3600.0 / 20.0
    );
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
    let _ = writeln!(out, "## Survivors by rule ({})\n", survivors.len());
    if survivors.is_empty() {
        out.push_str("None.\n");
    }
    let mut by_scope: BTreeMap<&str, Vec<&Record>> = BTreeMap::new();
    for r in survivors {
        by_scope.entry(&r.scope).or_default().push(r);
    }
    for (scope, rs) in by_scope {
        let _ = writeln!(out, "### `{scope}`\n");
        for r in rs {
            let _ = writeln!(out, "- `{}` — {}", r.id, r.what);
            if let Some(why) = reviewed(equivalent, r) {
                let _ = writeln!(out, "  reviewed: {why}");
            }
            let m = &r.moved;
            let _ = writeln!(
                out,
                "  moved: {} tier, {} rule, {} reason-only row(s){}",
                m.tier,
                m.rule,
                m.reason,
                if m.rule_examples.is_empty() { String::new() } else { format!(" — {}", m.rule_examples.join("; ")) }
            );
            let _ = writeln!(out, "  nearest truth row: {}\n", r.nearest_truth.as_deref().unwrap_or("none (a truth row is missing)"));
            let _ = writeln!(out, "```diff\n{}```\n", r.diff);
        }
    }
    let unviable: Vec<&Record> = records.iter().filter(|r| r.status == "unviable" || r.status == "error").collect();
    if !unviable.is_empty() {
        let _ = writeln!(out, "## Unviable or errored\n");
        for r in unviable {
            let _ = writeln!(out, "- `{}` ({}) — {}", r.id, r.status, r.note.replace('\n', " "));
        }
    }
    out
}

pub fn write(dir: &Path, meta: &Meta, records: &[Record]) -> std::io::Result<()> {
    let mut records = records.to_vec();
    records.sort_by(|a, b| a.id.cmp(&b.id));
    std::fs::create_dir_all(dir)?;
    let jsonl: String = records.iter().map(|r| serde_json::to_string(r).unwrap_or_default() + "\n").collect();
    replay::report::write::atomic(&dir.join("results.jsonl"), jsonl.as_bytes())?;
    replay::report::write::atomic(&dir.join("meta.json"), serde_json::to_string_pretty(meta).unwrap_or_default().as_bytes())?;
    replay::report::write::atomic(&dir.join("summary.md"), summary(meta, &records, &equivalents(dir)).as_bytes())
}

/// Reads one report directory.
pub fn read(dir: &Path) -> Result<(Meta, Vec<Record>), String> {
    let m = std::fs::read_to_string(dir.join("meta.json")).map_err(|e| format!("{}/meta.json: {e}", dir.display()))?;
    let meta: Meta = serde_json::from_str(&m).map_err(|e| format!("{}/meta.json: {e}", dir.display()))?;
    let text = std::fs::read_to_string(dir.join("results.jsonl")).map_err(|e| format!("{}/results.jsonl: {e}", dir.display()))?;
    let mut records = Vec::new();
    for (i, l) in text.lines().enumerate() {
        records.push(serde_json::from_str(l).map_err(|e| format!("{}/results.jsonl:{}: {e}", dir.display(), i + 1))?);
    }
    Ok((meta, records))
}

/// Joins shard reports: one population (the same rule sources); records keyed by id.
/// A later directory's record of a mutant replaces an earlier one's: that is how a
/// re-run of the survivors (`--ids`, after truth rows were added) updates a sample,
/// and its commit is listed in `reruns`. Adding truth rows can only add failures, so
/// a mutant caught earlier stays caught; the replaced record is the survivor's.
pub fn merge(parts: Vec<(Meta, Vec<Record>)>) -> Result<(Meta, Vec<Record>), String> {
    let mut it = parts.into_iter();
    let (mut meta, first) = it.next().ok_or("merge needs at least one report directory")?;
    let mut by_id: BTreeMap<String, Record> = first.into_iter().map(|r| (r.id.clone(), r)).collect();
    for (m, r) in it {
        let same = if m.source.is_empty() || meta.source.is_empty() { m.commit == meta.commit } else { m.source == meta.source };
        if !same || m.population != meta.population {
            return Err(format!("shards disagree: {} ({} mutants) vs {} ({} mutants)", m.commit, m.population, meta.commit, meta.population));
        }
        meta.prepare_secs += m.prepare_secs;
        meta.base_build_secs = meta.base_build_secs.max(m.base_build_secs);
        let mut replaced = false;
        for rec in r {
            replaced |= by_id.insert(rec.id.clone(), rec).is_some();
        }
        if replaced && !meta.reruns.contains(&m.commit) {
            meta.reruns.push(m.commit.clone());
        }
    }
    let records: Vec<Record> = by_id.into_values().collect();
    meta.selected = records.len();
    meta.command = "cargo xtask mutants merge".into();
    Ok((meta, records))
}

pub fn merge_task(dirs: &[PathBuf]) -> i32 {
    let root = replay::project_root();
    let parts: Result<Vec<_>, String> = dirs.iter().map(|d| read(d)).collect();
    let merged = parts.and_then(merge);
    match merged {
        Ok((meta, records)) => {
            let out = root.join("reports").join("mutants");
            if let Err(e) = write(&out, &meta, &records) {
                eprintln!("xtask mutants merge: {e}");
                return replay::exit::INFRA;
            }
            println!("{}\nreport: reports/mutants", headline(&meta, &records));
            0
        }
        Err(e) => {
            eprintln!("xtask mutants merge: {e}");
            replay::exit::USAGE
        }
    }
}

/// Records counted per `key`: [run, caught, survived, unviable, error].
fn tally<'a>(records: &'a [Record], key: impl Fn(&'a Record) -> &'a str) -> BTreeMap<&'a str, [usize; 5]> {
    let mut out: BTreeMap<&str, [usize; 5]> = BTreeMap::new();
    for r in records {
        let e = out.entry(key(r)).or_default();
        e[0] += 1;
        e[match r.status.as_str() {
            "caught" => 1,
            "survived" => 2,
            "unviable" => 3,
            _ => 4,
        }] += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(id: &str, status: &str) -> Record {
        Record {
            id: id.into(),
            key: String::new(),
            op: "tier".into(),
            scope: "git.push.force".into(),
            file: "f.rs".into(),
            line: 1,
            what: "w".into(),
            status: status.into(),
            layers: if status == "caught" { vec!["truth".into()] } else { vec![] },
            failures_total: 0,
            failures: vec![],
            build_secs: 1.0,
            gate_secs: 2.0,
            moved: Default::default(),
            note: String::new(),
            diff: "-a\n+b\n".into(),
            nearest_truth: None,
        }
    }

    fn meta(selected: usize) -> Meta {
        Meta {
            commit: "abc".into(),
            source: String::new(),
            population: 4,
            population_by_op: BTreeMap::new(),
            selected,
            command: "x".into(),
            prepare_secs: 1.0,
            base_build_secs: 1.0,
            baseline_failures: 0,
            baseline: vec![],
            reruns: vec![],
        }
    }

    #[test]
    fn merged_shards_equal_one_run() {
        let all = vec![rec("a", "caught"), rec("b", "survived"), rec("c", "unviable"), rec("d", "caught")];
        let shards: Vec<(Meta, Vec<Record>)> = (1..=2).map(|i| (meta(2), super::super::gen::shard(&all, i, 2))).collect();
        let (m, r) = merge(shards).unwrap();
        assert_eq!(r, all);
        assert_eq!(m.selected, 4);
        assert!(headline(&m, &r).contains("2 caught, 1 survived, 1 unviable, 0 error — caught 67% (95% CI 21–94%) of viable"), "{}", headline(&m, &r));
        let eq: BTreeMap<String, String> = [("b".to_owned(), "equivalent: why".to_owned())].into();
        let text = summary(&m, &r, &eq);
        assert!(
            text.contains("Excluding the 1 survivor(s) no command's verdict can tell apart") && text.contains("caught 100% (95% CI 34–100%) of the rest"),
            "{text}"
        );
        assert!(text.contains("reviewed: equivalent: why"), "{text}");
        let reason_only: BTreeMap<String, String> = [("b".to_owned(), "same class (reason-only)".to_owned())].into();
        assert!(!summary(&m, &r, &reason_only).contains("Excluding"), "a reason-only survivor stays in the denominator");
        assert!(summary(&m, &r, &BTreeMap::new()).contains("### `git.push.force`"));
        let mut other = meta(1);
        other.commit = "def".into();
        assert!(merge(vec![(meta(1), vec![]), (other, vec![])]).is_err());
    }

    #[test]
    fn a_later_rerun_replaces_the_survivor() {
        let mut earlier = meta(2);
        earlier.source = "rules".into();
        let first = (earlier, vec![rec("a", "caught"), rec("b", "survived")]);
        let mut later = meta(1);
        (later.commit, later.source) = ("def".into(), "rules".into());
        let (m, r) = merge(vec![first, (later, vec![rec("b", "caught")])]).unwrap();
        assert_eq!(r.iter().map(|r| r.status.as_str()).collect::<Vec<_>>(), ["caught", "caught"]);
        assert_eq!((m.selected, m.reruns.clone()), (2, vec!["def".to_owned()]));
        assert!(summary(&m, &r, &BTreeMap::new()).contains("re-run on later commit(s) `def`"));
    }

    /// Survivors are told apart by what they moved: a rule id at the same tier is a
    /// regression the bench saw and did not judge; nothing at all is out of reach.
    #[test]
    fn the_summary_sorts_survivors_by_what_they_moved() {
        let m = Meta::of("c", &[], &[], "cargo xtask mutants", 0.0, 0.0, vec![]);
        let mut a = rec("a", "survived");
        a.moved.rule = 2;
        a.moved.rule_examples = vec!["truth git-1: git.read → git.unknown".into()];
        let b = rec("b", "survived");
        let s = summary(&m, &[a, b, rec("c", "caught")], &BTreeMap::new());
        assert!(s.contains("| moved only the deciding rule of some rows (same tier) | 1 |"), "{s}");
        assert!(s.contains("| moved nothing on any row | 1 |"), "{s}");
        assert!(s.contains("moved: 0 tier, 2 rule, 0 reason-only row(s) — truth git-1: git.read → git.unknown"), "{s}");
    }

    /// The rate without probes moves every mutant only a tables.csv row caught to the survivors.
    #[test]
    fn the_rate_without_table_probes_counts_probe_only_catches_as_survivors() {
        let m = Meta::of("c", &[], &[], "cargo xtask mutants", 0.0, 0.0, vec![]);
        let mut a = rec("a", "caught");
        a.layers = vec!["probes".into()];
        let mut b = rec("b", "caught");
        b.failures = vec![format!("truth: {}:12 table-git_land: expected T3, head says T0", corpora::tables::FILE)];
        let mut c = rec("c", "caught");
        c.failures = vec!["truth: corpus/truth/git.csv:3 git-1: expected T3, head says T0".into()];
        let s = summary(&m, &[a, b, c, rec("d", "survived")], &BTreeMap::new());
        assert!(s.contains("2 mutant(s) only a probe row caught, counted as survivors here): caught 25% (95% CI"), "{s}");
    }
}
