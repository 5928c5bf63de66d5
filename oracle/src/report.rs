//! `reports/oracle/`: `summary.md` (the self-test, counts, time, every new
//! medium/high finding with its evidence, categories, metamorphic rows) and
//! `results.jsonl` (one line per row run, sorted by id). Deterministic but for
//! the timing lines, which say they are measurements.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use serde_json::json;

use super::classify::{Finding, Severity};

pub struct RowOut {
    pub id: String,
    pub corpus: &'static str,
    pub command: String,
    pub tier: String,
    pub rule: String,
    pub code: Option<i32>,
    pub timed_out: bool,
    pub secs: f64,
    /// Each finding with the baseline status that covers it (`benign`/`known`), if any.
    pub findings: Vec<(Finding, Option<String>)>,
    pub unparsed: usize,
    pub error: Option<String>,
}

impl RowOut {
    pub fn new_findings(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|(f, b)| f.severity >= Severity::Medium && b.is_none()).map(|(f, _)| f)
    }
}

pub struct Meta {
    pub flags: String,
    pub commit: String,
    pub selftest: Vec<String>,
    pub candidates: BTreeMap<&'static str, usize>,
    pub allowed: usize,
    pub asked: usize,
    pub selected: usize,
    pub wall_secs: f64,
    pub selftest_secs: f64,
    pub tier_secs: f64,
    pub workers: usize,
    pub timeout_secs: u64,
    pub slots_observed: usize,
    pub slots_new: Vec<String>,
    pub wrapper_rows: usize,
}

pub fn write(dir: &Path, meta: &Meta, rows: &[RowOut]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut jl = String::new();
    for r in rows {
        let f: Vec<_> = r
            .findings
            .iter()
            .map(|(f, b)| json!({"severity": f.severity.as_str(), "category": f.category, "detail": f.detail, "baseline": b, "evidence": f.evidence}))
            .collect();
        let line = json!({
            "id": r.id, "corpus": r.corpus, "command": r.command, "tier": r.tier, "rule": r.rule,
            "exit": r.code, "timed_out": r.timed_out, "secs": (r.secs * 100.0).round() / 100.0,
            "unparsed_trace_lines": r.unparsed, "error": r.error, "findings": f,
        });
        let _ = writeln!(jl, "{line}");
    }
    atomic(&dir.join("results.jsonl"), &jl)?;
    atomic(&dir.join("summary.md"), &summary(meta, rows))
}

fn atomic(path: &Path, text: &str) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text)?;
    std::fs::rename(tmp, path)
}

pub fn headline(meta: &Meta, rows: &[RowOut]) -> String {
    let new: usize = rows.iter().filter(|r| r.new_findings().next().is_some()).count();
    let errors = rows.iter().filter(|r| r.error.is_some()).count();
    format!(
        "oracle: {} rows run in {:.0} s ({} workers); {} with new medium/high findings, {} harness errors",
        rows.len(),
        meta.wall_secs,
        meta.workers,
        new,
        errors
    )
}

fn summary(meta: &Meta, rows: &[RowOut]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# Sandbox oracle\n\n**{}**\n", headline(meta, rows));
    let _ = writeln!(s, "`{}` at {} (head build of tiergate).\n", meta.flags, &meta.commit[..meta.commit.len().min(12)]);
    let _ = writeln!(s, "## Self-test (ran first; the oracle refuses to run unless every probe passes)\n\n```");
    for l in &meta.selftest {
        let _ = writeln!(s, "{l}");
    }
    let _ = writeln!(s, "```\n\n## Counts\n\n| | |\n|---|---:|");
    for (k, n) in &meta.candidates {
        let _ = writeln!(s, "| candidates: {k} | {n} |");
    }
    let timeouts = rows.iter().filter(|r| r.timed_out).count();
    let e127 = rows.iter().filter(|r| r.code == Some(127)).count();
    let errors = rows.iter().filter(|r| r.error.is_some()).count();
    let unparsed: usize = rows.iter().map(|r| r.unparsed).sum();
    for (k, v) in [
        ("allowed by tiergate (T0–T2)", meta.allowed),
        ("asked or denied (not run)", meta.asked),
        ("selected (shard, sample)", meta.selected),
        ("ran", rows.len()),
        ("hit the timeout", timeouts),
        ("exited 127 (program or placeholder not found)", e127),
        ("harness errors", errors),
        ("unparsed trace lines", unparsed),
    ] {
        let _ = writeln!(s, "| {k} | {v} |");
    }
    let _ = writeln!(
        s,
        "\nMeasured (varies with load): self-test {:.1} s, tiergate {:.1} s, run {:.1} s wall on {} workers, timeout {} s per command.\n",
        meta.selftest_secs, meta.tier_secs, meta.wall_secs, meta.workers, meta.timeout_secs
    );

    let _ = writeln!(s, "## New medium/high findings (not in corpus/oracle/baseline.csv)\n");
    let new: Vec<&RowOut> = rows.iter().filter(|r| r.new_findings().next().is_some()).collect();
    if new.is_empty() {
        let _ = writeln!(s, "None.\n");
    }
    for r in new {
        let _ = writeln!(s, "- `{}` ({}, {} `{}`), exit {:?}", r.command.replace('`', "'"), r.id, r.tier, r.rule, r.code);
        for f in r.new_findings() {
            let _ = writeln!(s, "  - **{}** {} `{}`: `{}`", f.severity.as_str(), f.category, f.detail, f.evidence.replace('`', "'"));
        }
    }

    let _ = writeln!(s, "\n## Rows per category\n\n| severity | category | rows | baselined |\n|---|---|---:|---:|");
    let mut cats: BTreeMap<(std::cmp::Reverse<Severity>, &str), (usize, usize)> = BTreeMap::new();
    for r in rows {
        let mut seen = std::collections::BTreeSet::new();
        for (f, b) in &r.findings {
            if seen.insert((f.severity, f.category, b.is_some())) {
                let e = cats.entry((std::cmp::Reverse(f.severity), f.category)).or_default();
                e.0 += 1;
                e.1 += usize::from(b.is_some());
            }
        }
    }
    for ((sev, cat), (n, b)) in &cats {
        let _ = writeln!(s, "| {} | {cat} | {n} | {b} |", sev.0.as_str());
    }
    let _ = writeln!(
        s,
        "\n## Metamorphic step\n\n{} exec slot(s) observed this run; new to corpus/oracle/exec-slots.csv: {}. corpus/curated/oracle_wrappers.csv holds {} generated row(s).",
        meta.slots_observed,
        if meta.slots_new.is_empty() { "none".to_owned() } else { meta.slots_new.join(", ") },
        meta.wrapper_rows
    );
    s
}
