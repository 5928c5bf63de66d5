//! `cargo xtask oracle --reanalyse REPORT_DIR`: the classification and the
//! metamorphic slots again, from the traces a run kept in `target/oracle/traces/`
//! (no sandbox, no tiergate: the rows' commands and rules come from the run's
//! `results.jsonl`). Used after a classifier or slot-detection change, the way
//! ORACLE.md reclassified its stored traces. It merges new exec slots into
//! `corpus/oracle/exec-slots.csv`, regenerates the curated wrapper rows and prints
//! the new medium/high findings; it never rewrites the run's report.

use std::path::Path;

use super::classify::{self, Context, Severity};
use super::{baseline, metamorph};

pub fn task(root: &Path, dir: &Path) -> i32 {
    let text = match std::fs::read_to_string(dir.join("results.jsonl")) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("oracle: {}/results.jsonl: {e}", dir.display());
            return replay::exit::USAGE;
        }
    };
    let entries = match baseline::load(&root.join(super::run::BASELINE)) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("oracle: {e}");
            return replay::exit::USAGE;
        }
    };
    let home = std::env::var("HOME").unwrap_or_else(|_| "/root".into());
    let traces = root.join("target/oracle/traces");
    let (mut rows, mut missing, mut new) = (0, 0, 0);
    let mut observed = Vec::new();
    for line in text.lines() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else { continue };
        let (Some(id), Some(command), Some(rule)) = (v["id"].as_str(), v["command"].as_str(), v["rule"].as_str()) else { continue };
        let Ok(trace) = std::fs::read(traces.join(format!("{}.trace", id.replace(['/', ':'], "_")))) else {
            missing += 1;
            continue;
        };
        rows += 1;
        let (calls, _) = super::trace::parse(&String::from_utf8_lossy(&trace));
        let words = super::run::command_words(command);
        let (findings, execs) = classify::classify(&calls, &Context::new(&words, rule, &home));
        let program = command.split_whitespace().next().unwrap_or("").rsplit('/').next().unwrap_or("");
        for f in findings.iter().filter(|f| f.severity >= Severity::Medium) {
            if !entries.iter().any(|e| e.matches(program, f.category, &f.detail)) {
                new += 1;
                println!("{id}\t{}\t{}\t{}\t{command}", f.severity.as_str(), f.category, f.detail);
            }
        }
        observed.extend(metamorph::slots_of(id, command, &execs));
    }
    let committed = metamorph::load_slots(root).unwrap_or_default();
    let merged = metamorph::merge(&committed, &observed);
    println!(
        "oracle: reanalysed {rows} rows ({missing} without a trace): {new} new medium/high finding(s), {} exec slot(s) observed, {} in the list",
        observed.len(),
        merged.len()
    );
    if replay::is_ci() {
        return 0;
    }
    if merged != committed {
        let _ = std::fs::create_dir_all(root.join("corpus/oracle"));
        if let Err(e) = std::fs::write(root.join(metamorph::SLOTS), metamorph::slots_csv(&merged)) {
            eprintln!("oracle: {}: {e}", metamorph::SLOTS);
            return replay::exit::INFRA;
        }
    }
    metamorph::task(root, false)
}
