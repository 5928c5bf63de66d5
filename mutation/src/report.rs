//! Mutant reports: `meta.json` (population, selection, baseline), `results.jsonl`
//! (one mutant a line, sorted by id) and `summary.md` (summary.rs). Reviews of
//! survivors live in one committed file, `reports/mutants/equivalent.tsv`, read by
//! every run whatever its report directory. `merge` joins shard reports.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use replay::corpus::{Row, Spec};
use replay::coverage::RuleInfo;

use crate::gate::Outcome;
use crate::mutant::{Mutant, Population};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Meta {
    pub commit: String,
    /// A digest of the mutant ids of the population: shards of one population merge
    /// when it matches, whatever commit each ran on.
    #[serde(default)]
    pub source: String,
    pub population: usize,
    pub population_by_op: BTreeMap<String, usize>,
    /// Mutants per population (`tables`, `code`); empty in reports written before the
    /// code population existed, whose mutants are all table mutants.
    #[serde(default)]
    pub population_by_kind: BTreeMap<String, usize>,
    /// `cargo mutants --version`, when the code population was listed.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub engine: String,
    /// A mutant the rule examples caught was not replayed (runs without `--all-layers`):
    /// the replay's layers count only the mutants the examples let through.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub examples_first: bool,
    /// Code mutants `.cargo/mutants.toml` leaves out of the population, per file.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub excluded_by_config: BTreeMap<String, usize>,
    /// `--in-diff REV`: the population is what `REV..commit` touched.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_diff: Option<String>,
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
    /// The population and selection; costs and the baseline are filled in as they are measured.
    pub fn of(commit: &str, all: &[Mutant], chosen: &[Mutant], command: &str, engine: &str) -> Meta {
        let mut by = BTreeMap::new();
        let mut kinds = BTreeMap::new();
        for m in all {
            *by.entry(m.op.clone()).or_insert(0) += 1;
            *kinds.entry(m.population.as_str().to_owned()).or_insert(0) += 1;
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
            population_by_kind: kinds,
            engine: engine.into(),
            in_diff: None,
            examples_first: false,
            excluded_by_config: BTreeMap::new(),
            selected: chosen.len(),
            command: command.into(),
            prepare_secs: 0.0,
            base_build_secs: 0.0,
            baseline_failures: 0,
            baseline: Vec::new(),
            reruns: Vec::new(),
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Record {
    pub id: String,
    #[serde(default)]
    pub population: Population,
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
fn nearest(m: &Mutant, moved: &[String], rules: &[RuleInfo], truth: &[Row]) -> Option<String> {
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
    let family = match m.population {
        Population::Tables => m.scope.split(['.', ':']).next().unwrap_or(""),
        // Code under `rules/<family>/` is near that family's rows; other code (the
        // engine, the argument layer, the lanes) is near what it moved, if anything.
        Population::Code => match m.scope.strip_prefix("rules.") {
            Some(rest) => rest.split('.').next().unwrap_or(""),
            None => return moved.first().and_then(|id| truth.iter().find(|r| &r.id == id)).map(show),
        },
    };
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
            population: m.population,
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
            nearest_truth: if o.status == "survived" { nearest(m, &o.moved.truth_ids, rules, truth) } else { None },
        }
    }
}

/// The committed reviews of survivors, `key<TAB>reason` a line.
pub const EQUIVALENTS: &str = "reports/mutants/equivalent.tsv";

/// Reviewed survivors, by key (or id).
pub type Reviews = BTreeMap<String, String>;

/// Reviewed survivors from [`EQUIVALENTS`]. They stay survivors; those whose reason
/// starts `equivalent:` or `unreachable` are set apart ([`set_apart`]) and left out of
/// a second rate, shown beside the first. The key is a mutant's id or, better, its
/// [`stable_key`], which survives edits elsewhere in the file (an id holds a line and a
/// hash of byte offsets, so any edit above the entry changes it).
pub fn equivalents(root: &Path) -> Reviews {
    let text = std::fs::read_to_string(root.join(EQUIVALENTS)).unwrap_or_default();
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
pub fn reviewed<'a>(equivalent: &'a Reviews, r: &Record) -> Option<&'a String> {
    equivalent.get(&r.id).or_else(|| equivalent.get(&r.key))
}

/// A survivor whose review says no command's verdict can tell it apart
/// (`equivalent:`) or no command reaches its code (`unreachable`): reported apart.
/// Other reviewed survivors (a reason-only move, one only invented subcommands
/// expose) stay survivors, their reason shown.
pub fn set_apart(equivalent: &Reviews, r: &Record) -> bool {
    reviewed(equivalent, r).is_some_and(|why| why.starts_with("equivalent:") || why.starts_with("unreachable"))
}

/// Caught by the table probes alone (the replay's probes kind, a layer of its own,
/// or the probe rows failing to derive from the mutant's dump).
pub fn probes_only(r: &Record) -> bool {
    match r.layers.as_slice() {
        [l] if l == "probes" => true,
        // Records written before the replay told a dump/probe disagreement apart
        // (`ReplayError::Probes`) have it as an `infra` configuration error.
        [l] if l == "infra" => !r.failures.is_empty() && r.failures.iter().all(|f| f.contains("a probe or except names `")),
        _ => false,
    }
}

pub fn write(dir: &Path, meta: &Meta, records: &[Record], reviews: &Reviews) -> std::io::Result<()> {
    let mut records = records.to_vec();
    records.sort_by(|a, b| a.id.cmp(&b.id));
    std::fs::create_dir_all(dir)?;
    let jsonl: String = records.iter().map(|r| serde_json::to_string(r).unwrap_or_default() + "\n").collect();
    replay::report::write::atomic(&dir.join("results.jsonl"), jsonl.as_bytes())?;
    replay::report::write::atomic(&dir.join("meta.json"), serde_json::to_string_pretty(meta).unwrap_or_default().as_bytes())?;
    replay::report::write::atomic(&dir.join("summary.md"), crate::summary::summary(meta, &records, reviews).as_bytes())
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

/// Joins shard reports: one population (the same mutant ids), or reports of
/// different populations (a table run and a code run); records keyed by id.
/// A later directory's record of a mutant replaces an earlier one's: that is how a
/// re-run of the survivors (`--ids`, after truth rows were added) updates a sample,
/// and its commit is listed in `reruns`. Adding truth rows can only add failures, so
/// a mutant caught earlier stays caught; the replaced record is the survivor's.
pub fn merge(parts: Vec<(Meta, Vec<Record>)>) -> Result<(Meta, Vec<Record>), String> {
    let mut it = parts.into_iter().map(|(mut m, r)| {
        if m.population_by_kind.is_empty() {
            m.population_by_kind.insert(Population::Tables.as_str().to_owned(), m.population);
        }
        (m, r)
    });
    let (mut meta, first) = it.next().ok_or("merge needs at least one report directory")?;
    let mut by_id: BTreeMap<String, Record> = first.into_iter().map(|r| (r.id.clone(), r)).collect();
    for (m, r) in it {
        let kinds = |m: &Meta| -> Vec<String> { m.population_by_kind.keys().cloned().collect() };
        let disjoint = kinds(&m).iter().all(|k| !kinds(&meta).contains(k));
        let same = if m.source.is_empty() || meta.source.is_empty() { m.commit == meta.commit } else { m.source == meta.source };
        if disjoint {
            meta.population += m.population;
            for (k, v) in &m.population_by_op {
                *meta.population_by_op.entry(k.clone()).or_default() += v;
            }
            for (k, v) in &m.population_by_kind {
                meta.population_by_kind.insert(k.clone(), *v);
            }
            if meta.engine.is_empty() {
                meta.engine.clone_from(&m.engine);
            }
        } else if !same || m.population != meta.population {
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
            let reviews = equivalents(&root);
            if let Err(e) = write(&out, &meta, &records, &reviews) {
                eprintln!("xtask mutants merge: {e}");
                return replay::exit::INFRA;
            }
            for p in Population::ALL {
                if records.iter().any(|r| r.population == p) {
                    println!("{}: {}", p.as_str(), crate::summary::headline(&records, p, &reviews));
                }
            }
            println!("report: reports/mutants");
            0
        }
        Err(e) => {
            eprintln!("xtask mutants merge: {e}");
            replay::exit::USAGE
        }
    }
}

#[cfg(test)]
pub(crate) mod fixtures {
    use super::*;

    pub fn rec(id: &str, status: &str) -> Record {
        Record {
            id: id.into(),
            population: Population::Tables,
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

    pub fn code(id: &str, status: &str, scope: &str, op: &str) -> Record {
        Record { population: Population::Code, scope: scope.into(), op: op.into(), ..rec(id, status) }
    }

    pub fn meta(selected: usize) -> Meta {
        let mut m = Meta::of("abc", &[], &[], "x", "");
        (m.population, m.selected, m.source) = (4, selected, String::new());
        m
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::{code, meta, rec};
    use super::*;
    use crate::summary::{headline, summary};

    #[test]
    fn merged_shards_equal_one_run() {
        let all = vec![rec("a", "caught"), rec("b", "survived"), rec("c", "unviable"), rec("d", "caught")];
        let shards: Vec<(Meta, Vec<Record>)> = (1..=2).map(|i| (meta(2), crate::mutant::shard(&all, i, 2))).collect();
        let (m, r) = merge(shards).unwrap();
        assert_eq!(r, all);
        assert_eq!(m.selected, 4);
        let none = Reviews::new();
        let h = headline(&r, Population::Tables, &none);
        assert!(h.contains("2 caught, 1 survived, 1 unviable, 0 error — caught 67% (95% CI 21–94%) of viable"), "{h}");
        let eq: Reviews = [("b".to_owned(), "equivalent: why".to_owned())].into();
        assert!(headline(&r, Population::Tables, &eq).contains("1 survivor(s) set apart by review, caught 100% (95% CI 34–100%) of the rest"));
        let text = summary(&m, &r, &eq);
        assert!(text.contains("| tables | 4 | 2 | 1 | 1 | 1 | 0 | 67% (95% CI 21–94%) | 100% (95% CI 34–100%) |"), "{text}");
        assert!(text.contains("reviewed (set apart): equivalent: why"), "{text}");
        let reason_only: Reviews = [("b".to_owned(), "same class (reason-only)".to_owned())].into();
        assert!(!headline(&r, Population::Tables, &reason_only).contains("set apart"), "a reason-only survivor stays in the denominator");
        assert!(summary(&m, &r, &none).contains("### `git.push.force`"));
        let mut other = meta(1);
        other.commit = "def".into();
        assert!(merge(vec![(meta(1), vec![]), (other, vec![])]).is_err());
    }

    /// A probe that names an entry the mutant dropped stops the replay before any row
    /// runs; that catch is the probes', also in records written when it was `infra`.
    #[test]
    fn a_dump_probe_disagreement_is_a_probe_catch() {
        let with = |layer: &str, failure: &str| Record { layers: vec![layer.into()], failures: vec![failure.into()], ..rec("a", "caught") };
        let dropped = "configuration error:\n  x.rs:3: T: a probe or except names `--rsh`, which is not in the table";
        assert!(probes_only(&with("probes", &format!("probes: {dropped}"))));
        assert!(probes_only(&with("infra", &format!("infra: {dropped}"))));
        assert!(!probes_only(&with("infra", "infra: infrastructure error: the build failed")), "another infra failure is not the probes'");
        assert!(!probes_only(&with("truth", "truth: row x")));
        assert!(!probes_only(&Record { layers: vec!["probes".into(), "truth".into()], ..rec("a", "caught") }));
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
        assert!(summary(&m, &r, &Reviews::new()).contains("re-run on later commit(s) `def`"));
    }

    /// A table run and a code run merge into one report holding both populations, each
    /// rated on its own, the code mutants per module and per operator.
    #[test]
    fn a_table_report_and_a_code_report_merge_into_one() {
        let mut tables = meta(2);
        tables.population_by_kind.clear(); // written before the code population existed
        let mut code_run = meta(3);
        (code_run.commit, code_run.source, code_run.population) = ("def".into(), "code-src".into(), 7000);
        code_run.population_by_kind = [("code".to_owned(), 7000)].into();
        let code_recs = vec![
            code("code:units/mod.rs:1:aa", "caught", "units", "fn-value"),
            code("code:call.rs:2:bb", "survived", "call", "binary-op"),
            code("code:rules/exec/options.rs:3:cc", "caught", "rules.exec.options", "binary-op"),
        ];
        let (m, r) = merge(vec![(tables, vec![rec("a", "caught"), rec("b", "survived")]), (code_run, code_recs)]).unwrap();
        assert_eq!((m.population, m.population_by_kind.get("tables"), m.population_by_kind.get("code")), (7004, Some(&4), Some(&7000)));
        let text = summary(&m, &r, &Reviews::new());
        assert!(text.contains("| tables | 2 | 1 | 1 | 0 | 0 | 0 |"), "{text}");
        assert!(text.contains("| code | 3 | 2 | 1 | 0 | 0 | 0 | 67% (95% CI 21–94%) |"), "{text}");
        assert!(text.contains("## Code mutants\n\n### By module\n"), "{text}");
        assert!(text.contains("| rules.exec | 1 | 1 | 0 |"), "{text}");
        assert!(text.contains("| binary-op | 2 | 1 | 1 |"), "{text}");
        assert!(text.contains("## Survivors of the code population by module (1)"), "{text}");
    }
}
